/*
 * generation.c: the plays of a rack (Gordon's GADDAG algorithm over the KWG: the walk
 * left from each anchor, then across the separator right), the plays looked up from the
 * word index instead of walked (exact_anchor), the anchors taken best bound first for a
 * top-K request, the exchanges and the pass, and the records found ordered by equity.
 * Plain C. Python twin: gcgtools/movegen/plays.py (find_plays) and
 * gcgtools/movegen/core.py (python_moves: scoring, exchanges, the pass, the sort);
 * equality tests: tests/movegen/test_movegen_native.py (test_native_equals_python_*),
 * tests/movegen/test_movegen_engine.py::test_native_equals_python_on_corpus_positions,
 * tests/movegen/test_movegen_exact.py (top K = the first K of all moves).
 */
#include <stdlib.h>
#include <string.h>

#include "generation.h"
#include "shadow.h"

/* The order in which the GADDAG walk of the anchor would find the play: each square from
 * the anchor leftwards to the start, then (after a turn) rightwards to the end, as its
 * tile (a blank after the letter it stands for; 0 for a board tile), and after each
 * square what the walk does next: stop (0) before going on leftwards (1) before turning
 * right (2); on the right, stop (0) before going on (1). */
static int walk_path(const Rec *r, uint8_t *t) {
    int n = 0, a = r->anchor;
    for (int p = a; p >= r->start; p--) {
        int c = r->cells[p];
        t[n++] = (r->mask >> p) & 1 ? (uint8_t)(1 + 2 * (c & 63) + ((c & BLANK_BIT) != 0)) : 0;
        t[n++] = p > r->start ? 1 : (r->end == a ? 0 : 2);
    }
    for (int p = a + 1; p <= r->end; p++) {
        int c = r->cells[p];
        t[n++] = (r->mask >> p) & 1 ? (uint8_t)(1 + 2 * (c & 63) + ((c & BLANK_BIT) != 0)) : 0;
        t[n++] = p < r->end ? 1 : 0;
    }
    return n;
}

/* two plays of one anchor found by its segments (g->lookup: same ord): which the
 * walk finds first */
static int walks_first(const Rec *a, const Rec *b) {
    uint8_t ta[4 * MAX_SIZE + 4] = {0}, tb[4 * MAX_SIZE + 4] = {0};
    int na = walk_path(a, ta), nb = walk_path(b, tb);
    return memcmp(ta, tb, (size_t)(na > nb ? na : nb)) < 0;
}

static inline int better(const Rec *a, const Rec *b) {
    if (a->eq != b->eq) return a->eq > b->eq;
    if (a->ord != b->ord) return a->ord < b->ord;
    return a->kind == KIND_PLAY && b->kind == KIND_PLAY && walks_first(a, b);
}

static int cmp_rec(const void *x, const void *y) {
    const Rec *a = x, *b = y;
    if (better(a, b)) return -1;
    if (better(b, a)) return 1;
    return 0;
}

static int found_push(Found *f, const Rec *r) {
    if (f->n == f->cap) {
        isize cap = f->cap ? f->cap * 2 : 1024;
        Rec *p = realloc(f->recs, (size_t)cap * sizeof(Rec));
        if (!p) return -1;
        f->recs = p;
        f->cap = cap;
    }
    f->recs[f->n++] = *r;
    return 0;
}

static void sift_down(Rec *h, isize n, isize i) {
    for (;;) {
        isize l = 2 * i + 1, r = l + 1, w = i;
        if (l < n && better(&h[w], &h[l])) w = l;
        if (r < n && better(&h[w], &h[r])) w = r;
        if (w == i) return;
        Rec t = h[i]; h[i] = h[w]; h[w] = t;
        i = w;
    }
}

static void sift_up(Rec *h, isize i) {
    while (i > 0) {
        isize p = (i - 1) / 2;
        if (!better(&h[p], &h[i])) return;
        Rec t = h[i]; h[i] = h[p]; h[p] = t;
        i = p;
    }
}

/* keep r: all of them, or in the heap of the best `top` */
static int offer(Found *f, const Rec *r) {
    if (!f->top) return found_push(f, r);
    if (f->n < f->top) {
        if (found_push(f, r) < 0) return -1;
        sift_up(f->recs, f->n - 1);
        return 0;
    }
    if (better(r, &f->recs[0])) {
        f->recs[0] = *r;
        sift_down(f->recs, f->n, 0);
    }
    return 0;
}

/* what a play's leave adds to its score: the points for going out in an endgame when it
 * leaves nothing, else the leave's value */
static inline double leave_part(const Gen *g, int32_t code) {
    return (g->endgame && code == 0) ? g->going_out : g->leave[code];
}

static void record(Gen *g, long ms, long wmul, long xs, int n, int32_t code, int start,
                   int end, uint32_t mask) {
    if (g->error) return;
    long score = ms * wmul + xs + (n >= g->bingo_size ? g->bingo_bonus : 0);
    Rec r;
    r.eq = (double)score + leave_part(g, code);
    r.ord = g->lookup ? g->ord_base : g->ord_base + g->seq++;
    int full = g->found->top && g->found->n >= g->found->top;
    if (full && r.eq < g->found->recs[0].eq) return;
    r.score = (int32_t)score;
    r.code = code;
    r.mask = mask;
    r.kind = KIND_PLAY;
    r.across = g->dir == 0;
    r.line = (uint8_t)g->line;
    r.start = (uint8_t)start;
    r.end = (uint8_t)end;
    r.n = (uint8_t)n;
    r.anchor = (uint8_t)g->anchor;
    memcpy(r.cells + start, g->cur + start, (size_t)(end - start + 1));
    if (full && !better(&r, &g->found->recs[0])) return;
    if (offer(g->found, &r) < 0) g->error = 1;
}

static void right(Gen *g, int pos, uint32_t grp, int start, long ms, long wmul, long xs,
                  int n, int32_t code, uint32_t mask);

/* The most a play can be worth that turns right after the anchor with the left part's
 * letters ms, word premium wmul, cross-words xs and n tiles placed: for each segment
 * after the anchor, the best of the rack's tiles on its squares (letters and cross-words
 * bounded apart), and the best leave of the tiles then left. */
static double right_bound(const Gen *g, long ms, long wmul, long xs, int n) {
    double best = -INFINITY;
    for (int q = 0; q < g->n_right; q++) {
        int j = g->rseg[q].j;
        if (n + j > g->nmax) continue;
        long score = (ms + g->rseg[q].board + g->rseg[q].dot_l) * wmul * g->rseg[q].wmul + xs +
                     g->rseg[q].cross + g->rseg[q].dot_x +
                     (n + j >= g->bingo_size ? g->bingo_bonus : 0);
        double v = (double)score + g->best_leave[n + j];
        if (v > best) best = v;
    }
    return best;
}

static inline int turn_right(const Gen *g, long ms, long wmul, long xs, int n) {
    return !g->pruning || right_bound(g, ms, wmul, xs, n) >= threshold(g->found);
}

static void left(Gen *g, int pos, uint32_t grp, long ms, long wmul, long xs, int n,
                 int32_t code, uint32_t mask) {
    if (g->error) return;
    int size = g->size, anchor = g->anchor;
    int free_ = pos == 0 || !g->bt[pos - 1];
    int sep_ok = free_ && anchor + 1 < size;
    int go_on = pos > g->leftstop;
    int t = g->bt[pos];
    if (t) {
        uint32_t nd;
        if (!find_node(g->nodes, g->n_nodes, grp, t, &nd)) return;
        ms += g->bv[pos];
        if ((nd & ACCEPTS) && free_ && g->right_ok && n >= g->minn)
            record(g, ms, wmul, xs, n, code, pos, anchor, mask);
        uint32_t arc = nd & ARC;
        if (arc) {
            if (go_on) left(g, pos - 1, arc, ms, wmul, xs, n, code, mask);
            if (sep_ok) {
                uint32_t sep = node_at(g->nodes, g->n_nodes, arc);
                if ((sep >> 24) == 0 && (sep & ARC) && turn_right(g, ms, wmul, xs, n))
                    right(g, anchor + 1, sep & ARC, pos, ms, wmul, xs, n, code, mask);
            }
        }
        return;
    }
    if (n == g->nmax) return;
    if (g->pruning && g->lb[pos][n + 1] < threshold(g->found)) return; /* nothing to beat */
    int blanks = g->rc[0];
    uint64_t allowed = g->xc[pos];
    if (!blanks) allowed &= g->rmask;
    if (!allowed) return;
    long w = wmul * g->wm[pos];
    mask |= 1u << pos;
    n += 1;
    int rec = free_ && g->right_ok && n >= g->minn;
    int stop = 64 - __builtin_clzll(allowed);
    for (isize i = grp;; i++) {
        uint32_t nd = node_at(g->nodes, g->n_nodes, i);
        int nt = (int)(nd >> 24);
        if (nt >= stop) return;
        if ((allowed >> nt) & 1) {
            int accepts = (nd & ACCEPTS) && rec;
            uint32_t arc = nd & ARC, sep = 0;
            if (arc && sep_ok) {
                uint32_t s = node_at(g->nodes, g->n_nodes, arc);
                if ((s >> 24) == 0 && (s & ARC)) sep = s & ARC;
            }
            for (int blank = 0; blank < 2; blank++) {
                int kind = blank ? 0 : nt;
                if (!g->rc[kind]) continue;
                g->rc[kind]--;
                if (!blank && !g->rc[kind]) g->rmask ^= 1ULL << nt;
                g->cur[pos] = (uint8_t)(blank ? (nt | BLANK_BIT) : nt);
                long m2 = ms, x2 = xs;
                tile_parts(g, pos, nt, blank, &m2, &x2);
                int32_t c2 = code - g->radix[kind];
                if (accepts) record(g, m2, w, x2, n, c2, pos, anchor, mask);
                if (arc) {
                    if (go_on) left(g, pos - 1, arc, m2, w, x2, n, c2, mask);
                    if (sep && turn_right(g, m2, w, x2, n))
                        right(g, anchor + 1, sep, pos, m2, w, x2, n, c2, mask);
                }
                if (!blank && !g->rc[kind]) g->rmask ^= 1ULL << nt;
                g->rc[kind]++;
            }
            if (g->error) return;
        }
        if (nd & IS_END) return;
    }
}

static void right(Gen *g, int pos, uint32_t grp, int start, long ms, long wmul, long xs,
                  int n, int32_t code, uint32_t mask) {
    if (g->error) return;
    int size = g->size, nxt = pos + 1;
    int end_ok = nxt == size || !g->bt[nxt];
    int more = nxt < size;
    int t = g->bt[pos];
    if (t) {
        uint32_t nd;
        if (!find_node(g->nodes, g->n_nodes, grp, t, &nd)) return;
        ms += g->bv[pos];
        if ((nd & ACCEPTS) && end_ok && n >= g->minn)
            record(g, ms, wmul, xs, n, code, start, pos, mask);
        uint32_t arc = nd & ARC;
        if (arc && more) right(g, nxt, arc, start, ms, wmul, xs, n, code, mask);
        return;
    }
    if (n == g->nmax) return;
    if (g->pruning && g->rb[start][n + 1] < threshold(g->found)) return; /* nothing to beat */
    int blanks = g->rc[0];
    uint64_t allowed = g->xc[pos];
    if (!blanks) allowed &= g->rmask;
    if (!allowed) return;
    long w = wmul * g->wm[pos];
    mask |= 1u << pos;
    n += 1;
    int rec = end_ok && n >= g->minn;
    int stop = 64 - __builtin_clzll(allowed);
    for (isize i = grp;; i++) {
        uint32_t nd = node_at(g->nodes, g->n_nodes, i);
        int nt = (int)(nd >> 24);
        if (nt >= stop) return;
        if ((allowed >> nt) & 1) {
            int accepts = (nd & ACCEPTS) && rec;
            uint32_t arc = more ? (nd & ARC) : 0;
            for (int blank = 0; blank < 2; blank++) {
                int kind = blank ? 0 : nt;
                if (!g->rc[kind]) continue;
                g->rc[kind]--;
                if (!blank && !g->rc[kind]) g->rmask ^= 1ULL << nt;
                g->cur[pos] = (uint8_t)(blank ? (nt | BLANK_BIT) : nt);
                long m2 = ms, x2 = xs;
                tile_parts(g, pos, nt, blank, &m2, &x2);
                int32_t c2 = code - g->radix[kind];
                if (accepts) record(g, m2, w, x2, n, c2, start, pos, mask);
                if (arc) right(g, nxt, arc, start, m2, w, x2, n, c2, mask);
                if (!blank && !g->rc[kind]) g->rmask ^= 1ULL << nt;
                g->rc[kind]++;
            }
            if (g->error) return;
        }
        if (nd & IS_END) return;
    }
}

/* the line `line` of direction dir, for the generation to read (loaded once) */
static void load_line(Gen *g, const GenBoard *in, int dir, int line) {
    int size = g->size, area = g->area, li = dir * size + line;
    Line *ln = &g->lines[li];
    if (!g->loaded[li]) {
        const int32_t *bt = in->bt, *bv = in->bv, *lm = in->lm,
                      *wm = in->wm, *xsum = in->xsum;
        const uint64_t *cross = in->cross;
        for (int k = 0; k < size; k++) {
            int f = dir == 0 ? line * size + k : k * size + line;
            ln->bt[k] = bt[f];
            ln->bv[k] = bv[f];
            ln->lm[k] = lm[f];
            ln->wm[k] = wm[f];
            ln->xc[k] = cross[dir * area + f];
            ln->xs[k] = xsum[dir * area + f];
        }
        g->loaded[li] = 1;
    }
    g->dir = dir;
    g->line = line;
    g->bt = ln->bt;
    g->bv = ln->bv;
    g->lm = ln->lm;
    g->wm = ln->wm;
    g->xc = ln->xc;
    g->xs = ln->xs;
    g->cap = ln->cap;
}

/* each square's best rack tile value (0 for a blank; -1000 for nothing), once a line */
void line_caps(Gen *g) {
    int li = g->dir * g->size + g->line;
    if (g->capped[li]) return;
    g->capped[li] = 1;
    for (int k = 0; k < g->size; k++) {
        uint64_t x = g->xc[k];
        int cap = g->rc[0] && x ? 0 : -1000;
        for (int i = 0; x && i < g->n_desc; i++) {
            int t = g->desc[i];
            if ((x >> t) & 1) {
                if (g->tv[t] > cap) cap = g->tv[t];
                break;
            }
        }
        g->cap[k] = cap;
    }
}

/* g->desc: the rack's letters (not the blank), highest value first (for line_caps) */
static void rack_desc(Gen *g) {
    g->n_desc = 0;
    for (int t = 1; t < MAX_LETTERS; t++) {
        if (!g->rc[t]) continue;
        int r = g->n_desc++;
        for (; r > 0 && g->tv[g->desc[r - 1]] < g->tv[t]; r--) g->desc[r] = g->desc[r - 1];
        g->desc[r] = (uint8_t)t;
    }
}

static int same_line(const Gen *g, const LineBounds *lb) {
    size_t size = (size_t)g->size;
    return lb->valid && !memcmp(lb->bt, g->bt, sizeof(int32_t) * size) &&
           !memcmp(lb->bv, g->bv, sizeof(int32_t) * size) &&
           !memcmp(lb->xs, g->xs, sizeof(int32_t) * size) &&
           !memcmp(lb->xc, g->xc, sizeof(uint64_t) * size);
}

/* the cached anchors of the line just loaded, when its squares are those they were found
 * on (either of the line's two versions kept): appended to out (numbered from *n) */
static int cached_line(Gen *g, Anchor *out, isize *n) {
    int li = g->dir * g->size + g->line, w = 0;
    while (w < BOUND_WAYS && !same_line(g, &g->bounds->lines[li][w])) w++;
    if (w == BOUND_WAYS) return 0;
    g->bounds->older[li] = (uint8_t)(1 - w); /* the one not used last is replaced */
    LineBounds *lb = &g->bounds->lines[li][w];
    for (int q = 0; q < lb->n; q++) {
        out[*n] = lb->a[q];
        out[*n].ord_base = (uint64_t)(*n + 1) << 32;
        out[*n].lb = lb;
        out[*n].lq = (uint8_t)q;
        (*n)++;
    }
    return 1;
}

void bound_cache_free(BoundCache *bc) {
    for (int li = 0; li < 2 * MAX_SIZE; li++)
        for (int w = 0; w < BOUND_WAYS; w++)
            for (int q = 0; q < MAX_SIZE; q++) {
                free(bc->lines[li][w].pairs[q].p);
                bc->lines[li][w].pairs[q].p = NULL;
                bc->lines[li][w].pairs[q].cap = 0;
            }
}

/* keep the anchors of the line just listed (out[first..n)) in the cache, in place of
 * the version of the line used least lately */
static void cache_line(Gen *g, Anchor *out, isize first, isize n) {
    int li = g->dir * g->size + g->line, w = g->bounds->older[li];
    LineBounds *lb = &g->bounds->lines[li][w];
    g->bounds->older[li] = (uint8_t)(1 - w);
    size_t size = (size_t)g->size;
    memcpy(lb->bt, g->bt, sizeof(int32_t) * size);
    memcpy(lb->bv, g->bv, sizeof(int32_t) * size);
    memcpy(lb->xs, g->xs, sizeof(int32_t) * size);
    memcpy(lb->xc, g->xc, sizeof(uint64_t) * size);
    lb->n = (int)(n - first);
    for (int q = 0; q < lb->n; q++) {
        out[first + q].lb = lb;
        out[first + q].lq = (uint8_t)q;
        lb->pairs[q].ok = 0;
    }
    memcpy(lb->a, out + first, sizeof(Anchor) * (size_t)(n - first));
    lb->valid = 1;
}

/* Every anchor (walkable: a tile fits) of the board in the full generation's order,
 * with its left stop, the one-tile rule and (when `sh`) its bound (from g->bounds when
 * it has the line as it is). */
static isize list_anchors(Gen *g, const GenBoard *in, int centre, const Shadow *sh,
                               Anchor *out) {
    int size = g->size;
    const int32_t *bt = in->bt;
    /* each line's tiles as bits (occ[0]: the rows, occ[1]: the columns): an anchor is an
     * empty square next to a tile along its line or across it */
    uint64_t occ[2][MAX_SIZE + 2] = {{0}}, full = size >= 64 ? ~0ULL : (1ULL << size) - 1;
    for (int r = 0; r < size; r++)
        for (int c = 0; c < size; c++)
            if (bt[r * size + c]) {
                occ[0][r + 1] |= 1ULL << c;
                occ[1][c + 1] |= 1ULL << r;
            }
    int cache = sh && g->bounds && centre < 0;
    isize n = 0;
    for (int dir = 0; dir < 2; dir++) {
        const uint64_t *cross = in->cross + dir * g->area;
        const int32_t *xsum = in->xsum + dir * g->area;
        for (int line = 0; line < size; line++) {
            int loaded = 0, prev = -1;
            isize first = n;
            const uint64_t *o = &occ[dir][line + 1]; /* o[-1] and o[1]: the lines beside */
            uint64_t anchors = ~o[0] & (o[0] << 1 | o[0] >> 1 | o[-1] | o[1]) & full;
            if (centre >= 0) {
                int along = dir == 0 ? centre / size : centre % size;
                anchors = along == line ? 1ULL << (dir == 0 ? centre % size : centre / size) : 0;
            }
            while (anchors) {
                int k = __builtin_ctzll(anchors);
                anchors &= anchors - 1;
                int f = dir == 0 ? line * size + k : k * size + line;
                if (!loaded && sh) { /* the bounds read the line's squares */
                    load_line(g, in, dir, line);
                    if (cache && cached_line(g, out, &n)) break;
                    line_caps(g);
                    loaded = 2;
                }
                if (cross[f]) {
                    Anchor *a = &out[n];
                    a->dir = (uint8_t)dir;
                    a->line = (uint8_t)line;
                    a->anchor = (uint8_t)k;
                    a->leftstop = (uint8_t)(prev + 1);
                    a->ord_base = (uint64_t)(n + 1) << 32;
                    a->minn = (centre >= 0 || (dir == 1 && xsum[f] >= 0)) ? 2 : 1;
                    a->lb = NULL;
                    a->lq = 0;
                    if (sh) {
                        g->anchor = k;
                        g->leftstop = prev + 1;
                        a->bound = anchor_bound(g, sh, 0, -INFINITY, NULL, NULL);
                        a->tight = 0;
                    } else {
                        a->bound = INFINITY;
                    }
                    n++;
                }
                prev = k;
            }
            if (cache && loaded == 2) cache_line(g, out, first, n);
        }
    }
    return n;
}

static int walk_anchor(Gen *g, const GenBoard *in, const Shadow *sh, const Anchor *a) {
    load_line(g, in, a->dir, a->line);
    g->anchor = a->anchor;
    g->leftstop = a->leftstop;
    g->right_ok = a->anchor + 1 == g->size || !g->bt[a->anchor + 1];
    g->minn = a->minn;
    g->ord_base = a->ord_base;
    g->seq = 0;
    g->pruning = g->found->top != 0;
    if (g->pruning) {
        right_segments(g);
        walk_bounds(g, sh, a);
    }
    left(g, a->anchor, g->root, 0, 1, 0, 0, g->rack_code, 0);
    return g->error ? -1 : 0;
}

/* the word w (its letters) on the walked line's [s, e] (the rack's blanks on the squares
 * of bit set `blanks`), when its letters fit the board tiles, the cross-sets and the
 * rack, and take off it the tiles that leave `want` */
static void try_word(Gen *g, const uint8_t *w, int s, int e, int32_t want, uint32_t blanks) {
    long ms = 0, wmul = 1, xs = 0;
    int n = 0, q = 0, ok = 1;
    uint32_t mask = 0;
    int32_t code = g->rack_code;
    for (; q <= e - s; q++) {
        int p = s + q, t = w[q], kind = (blanks >> p) & 1 ? 0 : t;
        if (g->bt[p]) {
            if (g->bt[p] != t) { ok = 0; break; }
            ms += g->bv[p];
            continue;
        }
        if (t >= MAX_LETTERS || !((g->xc[p] >> t) & 1) || !g->rc[kind]) { ok = 0; break; }
        g->rc[kind]--;
        code -= g->radix[kind];
        n++;
        mask |= 1u << p;
        g->cur[p] = (uint8_t)(kind ? t : (t | BLANK_BIT));
        tile_parts(g, p, t, !kind, &ms, &xs);
        wmul *= g->wm[p];
    }
    for (int r = 0; r < q; r++)
        if (!g->bt[s + r]) g->rc[(blanks >> (s + r)) & 1 ? 0 : w[r]]++;
    if (ok && code == want && n >= g->minn) record(g, ms, wmul, xs, n, code, s, e, mask);
}

/* the word w with the pair's tiles: its blanks (standing for letters bl, bl2, in that
 * order) on each new square or pair of new squares of those letters in turn */
static void try_pair_word(Gen *g, const uint8_t *w, const Pair *pr, int32_t want) {
    if (!pr->bl) { try_word(g, w, pr->s, pr->e, want, 0); return; }
    for (int p = pr->s; p <= pr->e; p++) {
        if (g->bt[p] || w[p - pr->s] != pr->bl) continue;
        if (!pr->bl2) { try_word(g, w, pr->s, pr->e, want, 1u << p); continue; }
        for (int p2 = pr->bl2 == pr->bl ? p + 1 : pr->s; p2 <= pr->e; p2++)
            if (p2 != p && !g->bt[p2] && w[p2 - pr->s] == pr->bl2)
                try_word(g, w, pr->s, pr->e, want, (1u << p) | (1u << p2));
    }
}

/* the plays of a pair: the words of its letter set and length, each tried */
static int pair_plays(Gen *g, const Shadow *sh, const Pair *pr) {
    int len = pr->e - pr->s + 1;
    uint64_t key = word_key(pr->hash), mask = sh->wi_mask, i = pr->slot & mask;
    for (uint64_t n = 0; n <= mask; n++, i = (i + 1) & mask) {
        uint64_t k2 = sh->wi_slots[2 * i], ref = sh->wi_slots[2 * i + 1];
        if (!k2) return 0;
        if (k2 != key || (int)((ref >> 16) & 0xFF) != len) continue;
        uint64_t first = ref >> 24, count = ref & 0xFFFF;
        if (first > sh->wi_n_letters || count * (uint64_t)len > sh->wi_n_letters - first)
            return -1; /* not a word_index */
        for (uint64_t c = 0; c < count; c++)
            try_pair_word(g, sh->wi_letters + first + c * (uint64_t)len, pr, sh->sub_code[pr->j]);
    }
    return 0;
}

/* the anchor's pairs just made (of a bound of at least thr) kept in its cached line */
static void keep_pairs(LineBounds *lb, int q, const Pairs *ps, double thr) {
    if (lb->pairs[q].cap < ps->n) {
        Pair *p = realloc(lb->pairs[q].p, sizeof(Pair) * (size_t)ps->n);
        if (!p) return; /* not kept: no harm */
        lb->pairs[q].p = p;
        lb->pairs[q].cap = ps->n;
    }
    if (ps->n) memcpy(lb->pairs[q].p, ps->p, sizeof(Pair) * (size_t)ps->n);
    lb->pairs[q].n = ps->n;
    lb->pairs[q].thr = thr;
    lb->pairs[q].ok = 1;
}

/* The plays of an anchor that can beat the moves kept, without a walk: its pairs, best
 * bound first, their words looked up in the word index and tried on the squares, until
 * no bound can beat the moves kept. Its plays share the anchor's ord (walks_first orders
 * them as the walk would find them). */
static int exact_anchor(Gen *g, const GenBoard *in, const Shadow *sh, const Anchor *a,
                        Pairs *ps) {
    load_line(g, in, a->dir, a->line);
    line_caps(g);
    g->anchor = a->anchor;
    g->leftstop = a->leftstop;
    g->minn = a->minn;
    g->ord_base = a->ord_base;
    ps->n = ps->nh = 0;
    double thr = threshold(g->found);
    if (a->lb && a->lb->pairs[a->lq].ok && a->lb->pairs[a->lq].thr <= thr) {
        pairs_load(ps, a->lb->pairs[a->lq].p, a->lb->pairs[a->lq].n, thr); /* kept */
    } else {
        anchor_bound(g, sh, 0, thr, NULL, ps);
        if (a->lb && !ps->error) keep_pairs(a->lb, a->lq, ps, thr);
    }
    if (ps->error) g->error = 1;
    while (ps->nh && !g->error && ps->p[ps->heap[0]].v >= threshold(g->found))
        if (pair_plays(g, sh, &ps->p[pairs_pop(ps)]) < 0) g->error = 2;
    return g->error ? -1 : 0;
}

static inline int anchor_above(const Anchor *anchors, uint16_t x, uint16_t y) {
    return anchors[x].bound > anchors[y].bound || (anchors[x].bound == anchors[y].bound && x < y);
}

static void anchor_sift(const Anchor *anchors, uint16_t *h, isize n, isize k) {
    uint16_t moved = h[k];
    for (;;) {
        isize c = 2 * k + 1;
        if (c >= n) break;
        if (c + 1 < n && anchor_above(anchors, h[c + 1], h[c])) c++;
        if (!anchor_above(anchors, h[c], moved)) break;
        h[k] = h[c];
        k = c;
    }
    h[k] = moved;
}

/* a's tight bound (the bounds of the sets of tiles that make words, with their own
 * leaves), for plays that are walked */
static void tighten(Gen *g, const GenBoard *in, const Shadow *sh, Anchor *a) {
    load_line(g, in, a->dir, a->line);
    line_caps(g);
    g->anchor = a->anchor;
    g->leftstop = a->leftstop;
    a->bound = anchor_bound(g, sh, 1, threshold(g->found), NULL, NULL);
    a->tight = 1;
}

/* The best moves: the anchors in a heap (heap: their indices), best bound first, taken
 * until no bound can beat the moves kept, each one's plays looked up (`ps`:
 * exact_anchor) or walked, after a tight bound that sends it back into the heap. Which
 * anchor comes first among equal bounds does not change what is kept: moves are kept by
 * equity and the full generation's order. */
static int best_anchors(Gen *g, const GenBoard *in, const Shadow *sh, Anchor *anchors,
                        uint16_t *heap, isize n, Pairs *ps) {
    for (isize k = n / 2; k-- > 0;) anchor_sift(anchors, heap, n, k);
    while (n > 0 && anchors[heap[0]].bound >= threshold(g->found)) {
        Anchor *a = &anchors[heap[0]];
        if (!ps && !a->tight) {
            tighten(g, in, sh, a);
        } else {
            heap[0] = heap[--n];
            if ((ps ? exact_anchor(g, in, sh, a, ps) : walk_anchor(g, in, sh, a)) < 0) return -1;
        }
        anchor_sift(anchors, heap, n, 0);
    }
    return 0;
}

#define AFTER_PLAYS (1ULL << 62) /* exchanges and the pass come after every play */

int other_moves(Gen *g, const Kinds *kd, long total, long exchange_bag) {
    long full = (long)kd->n_codes - 1;
    Rec r;
    memset(&r, 0, sizeof r);
    if (exchange_bag >= 0) {
        r.kind = KIND_EXCHANGE;
        long kept[MAX_KINDS] = {0}, left = 0; /* the code's tiles kept, as an odometer */
        for (long code = 0; code < full; code++) {
            if (total - left <= exchange_bag) {
                r.eq = g->leave[code];
                r.code = (int32_t)code;
                r.ord = AFTER_PLAYS + (uint64_t)code;
                if (offer(g->found, &r) < 0) return -1;
            }
            for (int q = 0; q < kd->n_kinds; q++) {
                if (kept[q] < kd->count[q]) { kept[q]++; left++; break; }
                left -= kept[q];
                kept[q] = 0;
            }
        }
    }
    r.kind = KIND_PASS;
    r.eq = g->leave[full];
    r.code = (int32_t)full;
    r.ord = AFTER_PLAYS + (uint64_t)full + 1;
    return offer(g->found, &r);
}

void gen_start(Gen *g, const uint32_t *nodes, isize n_nodes, uint32_t root, int size,
               int bingo_size, int bingo_bonus, int endgame) {
    Line *lines = g->lines;
    memset(g, 0, offsetof(Gen, cand));
    g->lines = lines;
    g->nodes = nodes;
    g->n_nodes = n_nodes;
    g->root = root;
    g->size = size;
    g->area = size * size;
    g->bingo_size = bingo_size;
    g->bingo_bonus = bingo_bonus;
    g->endgame = endgame;
}

/* ------------------------------------------------------------------ the line cache */
typedef struct {
    uint64_t key, check;
    Rec *recs; /* their ord less the first anchor's ord_base */
    isize n;
} LineSlot;

struct LineCache {
    LineSlot *slots;
    uint64_t mask;
    Rec *room;           /* the records, max_held of them, in the order they were kept */
    long held, max_held; /* records in the room, those of lines replaced since included */
};

LineCache *line_cache_new(int lg, long max_recs) {
    LineCache *lc = calloc(1, sizeof(LineCache));
    if (!lc) return NULL;
    lc->slots = calloc((size_t)1 << lg, sizeof(LineSlot));
    lc->room = malloc(sizeof(Rec) * (size_t)max_recs);
    if (!lc->slots || !lc->room) {
        line_cache_free(lc);
        return NULL;
    }
    lc->mask = ((uint64_t)1 << lg) - 1;
    lc->max_held = max_recs;
    return lc;
}

static void line_cache_clear(LineCache *lc) {
    memset(lc->slots, 0, sizeof(LineSlot) * (size_t)(lc->mask + 1));
    lc->held = 0;
}

void line_cache_free(LineCache *lc) {
    if (!lc) return;
    free(lc->slots);
    free(lc->room);
    free(lc);
}

static inline uint64_t mix64(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

/* the two hashes of the rack (once a generation), which line_key starts from */
static void rack_key(const Gen *g, uint64_t *h, uint64_t *c) {
    *h = 0x9E3779B97F4A7C15ULL;
    *c = 0xC2B2AE3D27D4EB4FULL;
    for (int t = 0; t < MAX_LETTERS; t++) {
        *h = (*h ^ (uint64_t)(uint32_t)g->rc[t]) * 0xD6E8FEB86659FD93ULL;
        *c = (*c + (uint64_t)(uint32_t)g->rc[t]) * 0xE7037ED1A0B428DBULL ^ (*c >> 31);
    }
}

/* the two hashes of the line of anchors[a0, a1) (its squares read from the board, as
 * load_line would copy them) with the rack's (rack_key) */
static void line_key(const Gen *g, const GenBoard *in, const Anchor *anchors, isize a0,
                     isize a1, const uint64_t rack[2], uint64_t *key, uint64_t *check) {
    int dir = anchors[a0].dir, line = anchors[a0].line, size = g->size;
    int f = dir == 0 ? line * size : line, step = dir == 0 ? 1 : size;
    const uint64_t *cross = in->cross + dir * g->area;
    const int32_t *xsum = in->xsum + dir * g->area;
    uint64_t where = (uint64_t)(dir * MAX_SIZE + line + 1);
    uint64_t h = (rack[0] ^ where) * 0x9FB21C651E98DF25ULL;
    uint64_t c = (rack[1] + where) * 0xA0761D6478BD642FULL;
    for (int k = 0; k < size; k++, f += step) {
        uint64_t sq = (uint64_t)(uint32_t)in->bt[f] | (uint64_t)(uint32_t)in->bv[f] << 8 |
                      (uint64_t)(uint32_t)xsum[f] << 32;
        h = (h ^ cross[f]) * 0x9FB21C651E98DF25ULL;
        h = (h ^ sq) * 0xD6E8FEB86659FD93ULL;
        c = (c + sq) * 0xA0761D6478BD642FULL ^ (c >> 29);
        c = (c + cross[f]) * 0xE7037ED1A0B428DBULL ^ (c >> 31);
    }
    for (isize a = a0; a < a1; a++) {
        uint64_t v = (uint64_t)anchors[a].anchor | (uint64_t)anchors[a].leftstop << 8 |
                     (uint64_t)anchors[a].minn << 16;
        h = (h ^ v) * 0x9FB21C651E98DF25ULL;
        c = (c + v) * 0xA0761D6478BD642FULL ^ (c >> 29);
    }
    *key = mix64(h);
    *check = mix64(c ^ (c >> 17));
}

/* one line's anchors, anchors[a0, a1), and its hashes */
typedef struct {
    isize a0, a1;
    uint64_t key, check;
} LineRun;

/* the plays along a line: from the cache when it holds the line, else walked and kept
 * there; in both cases the same records in the same order, with their equities from
 * this generation's leaves */
static int walk_line(Gen *g, const GenBoard *in, const Anchor *anchors, const LineRun *run) {
    LineCache *lc = g->line_cache;
    LineSlot *slot = &lc->slots[run->key & lc->mask];
    uint64_t base = anchors[run->a0].ord_base;
    if (slot->recs && slot->key == run->key && slot->check == run->check) {
        for (isize i = 0; i < slot->n; i++) {
            Rec r = slot->recs[i];
            r.ord += base;
            r.eq = (double)r.score + leave_part(g, r.code);
            if (found_push(g->found, &r) < 0) return -1;
        }
        return 0;
    }
    isize r0 = g->found->n;
    for (isize a = run->a0; a < run->a1; a++)
        if (walk_anchor(g, in, NULL, &anchors[a]) < 0) return -1;
    isize n = g->found->n - r0;
    if (n > lc->max_held) return 0; /* not kept: no harm */
    if (lc->held + n > lc->max_held) line_cache_clear(lc);
    /* in the room's next free part: a slot's old records are left where they are until
     * all are dropped */
    Rec *keep = lc->room + lc->held;
    memcpy(keep, g->found->recs + r0, sizeof(Rec) * (size_t)n);
    for (isize i = 0; i < n; i++) keep[i].ord -= base;
    lc->held += n;
    *slot = (LineSlot){run->key, run->check, keep, n};
    return 0;
}

/* every play, line by line through the line cache: the lines' hashes first (their slots
 * fetched ahead: the cache is larger than the processor's), then the plays */
static int walk_lines(Gen *g, const GenBoard *in, const Anchor *anchors, isize n) {
    LineRun runs[2 * MAX_SIZE];
    int n_runs = 0;
    uint64_t rack[2];
    rack_key(g, &rack[0], &rack[1]);
    for (isize k = 0; k < n;) {
        if (n_runs == 2 * MAX_SIZE) return -1; /* never: a line's anchors come together */
        isize k1 = k + 1;
        while (k1 < n && anchors[k1].dir == anchors[k].dir && anchors[k1].line == anchors[k].line)
            k1++;
        LineRun *run = &runs[n_runs++];
        run->a0 = k;
        run->a1 = k1;
        line_key(g, in, anchors, k, k1, rack, &run->key, &run->check);
        __builtin_prefetch(&g->line_cache->slots[run->key & g->line_cache->mask]);
        k = k1;
    }
    LineCache *lc = g->line_cache;
    for (int r = 0; r < n_runs; r++) { /* a line is loaded only when walked */
        if (r + 1 < n_runs) { /* the next line's plays fetched ahead */
            const LineSlot *next = &lc->slots[runs[r + 1].key & lc->mask];
            if (next->recs) {
                __builtin_prefetch(next->recs);
                __builtin_prefetch((const char *)next->recs + 64);
            }
        }
        if (walk_line(g, in, anchors, &runs[r]) < 0) return -1;
    }
    return 0;
}

int find_moves(Gen *g, const GenBoard *in, const Kinds *kd, long total, int centre) {
    if (total == 0) return 0;
    GenScratch mine = {0}, *sc = g->scratch ? g->scratch : &mine;
    Anchor *anchors = kept_get(&sc->anchors, sizeof(Anchor) * 2 * (size_t)g->area);
    uint16_t *order = kept_get(&sc->order, sizeof(uint16_t) * 2 * (size_t)g->area);
    if (!anchors || !order) {
        gen_scratch_free(&mine);
        return GEN_NO_MEMORY;
    }
    int top = g->found->top != 0, rc = 0;
    Shadow own, *shp = g->shadow ? g->shadow : &own;
    if (top) {
        if (!g->shadow || !g->shadow_ready) make_shadow(g, kd, total, in, shp);
        g->shadow_ready = g->shadow != NULL;
        rack_desc(g);
        g->vals = shp->vals;
        g->best_leave = shp->best_leave;
        g->avail = shp->avail;
    }
    const Shadow *sh = shp;
    /* plays looked up rather than walked (exact_anchor): with a word index, at most two
     * blanks and a board with tiles */
    Pairs ps = {0};
    int exact = top && sh->n_sub && sh->wi_slots && g->rc[0] <= 2 && centre < 0;
    g->lookup = exact;
    isize n = list_anchors(g, in, centre, top ? sh : NULL, anchors);
    for (isize k = 0; k < n; k++) order[k] = (uint16_t)k;
    if (top) rc = best_anchors(g, in, sh, anchors, order, n, exact ? &ps : NULL);
    if (!top && g->line_cache) { /* every move: in the listing's order */
        if (walk_lines(g, in, anchors, n) < 0) rc = -1;
    } else {
        for (isize k = 0; !top && k < n; k++)
            if (walk_anchor(g, in, NULL, &anchors[k]) < 0) { rc = -1; break; }
    }
    if (rc < 0) rc = g->error == 2 ? GEN_BAD_WORDS : GEN_NO_MEMORY;
    free(ps.p);
    free(ps.heap);
    gen_scratch_free(&mine);
    return rc;
}

void gen_scratch_free(GenScratch *sc) {
    Kept *all[] = {&sc->anchors, &sc->order, &sc->keys, &sc->start, &sc->sorted};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        free(all[k]->p);
        *all[k] = (Kept){NULL, 0};
    }
}

/* Sort by equity, highest first, keeping the order of equal ones (`recs` come in the
 * full generation's order when all are kept): a merge sort of (equity, index) keys. */
typedef struct {
    double eq;
    isize at;
} Key;

static void merge_sort(Key *a, Key *tmp, isize n) {
    if (n < 2) return;
    if (n <= 12) { /* insertion sort, stable */
        for (isize i = 1; i < n; i++) {
            Key k = a[i];
            isize j = i;
            while (j > 0 && a[j - 1].eq < k.eq) { a[j] = a[j - 1]; j--; }
            a[j] = k;
        }
        return;
    }
    isize h = n / 2;
    merge_sort(a, tmp, h);
    merge_sort(a + h, tmp, n - h);
    if (a[h - 1].eq >= a[h].eq) return;
    memcpy(tmp, a, sizeof(Key) * (size_t)h);
    isize i = 0, j = h, k = 0;
    while (i < h && j < n) a[k++] = (a[j].eq > tmp[i].eq) ? a[j++] : tmp[i++];
    while (i < h) a[k++] = tmp[i++];
}

/* The same order in about linear time: keys bucketed by how far they are below the
 * best (a counting sort keeps the order within a bucket), then each bucket, short,
 * sorted by insertion. Falls back on merge_sort for a wide range. */
static int bucket_sort(Key *a, Key *tmp, isize n, Kept *starts) {
    if (n < 64) return 0;
    double lo = a[0].eq, hi = a[0].eq;
    for (isize i = 1; i < n; i++) {
        if (a[i].eq < lo) lo = a[i].eq;
        if (a[i].eq > hi) hi = a[i].eq;
    }
    if (!(hi - lo < 4096.0)) return 0; /* NaN too */
    /* bucket of e: (long)((hi - e) * scale), hi - e >= 0; about one key a bucket */
    double scale = (double)n / (hi - lo + 1.0);
    scale = scale < 1.0 ? 1.0 : scale > 64.0 ? 64.0 : scale;
    long span = (long)((hi - lo) * scale) + 1;
    isize *start = kept_get(starts, sizeof(isize) * ((size_t)span + 1));
    if (!start) return 0;
    memset(start, 0, sizeof(isize) * ((size_t)span + 1));
    for (isize i = 0; i < n; i++) start[(long)((hi - a[i].eq) * scale) + 1]++;
    for (long b = 0; b < span; b++) start[b + 1] += start[b];
    for (isize i = 0; i < n; i++) tmp[start[(long)((hi - a[i].eq) * scale)]++] = a[i];
    /* start[b] is now the end of bucket b */
    isize from = 0;
    for (long b = 0; b < span; b++) {
        isize to = start[b];
        for (isize i = from + 1; i < to; i++) {
            Key k = tmp[i];
            isize j = i;
            while (j > from && tmp[j - 1].eq < k.eq) { tmp[j] = tmp[j - 1]; j--; }
            tmp[j] = k;
        }
        from = to;
    }
    memcpy(a, tmp, sizeof(Key) * (size_t)n);
    return 1;
}

static int cmp_rec_sort(const void *x, const void *y) { return cmp_rec(x, y); }

isize *found_order_kept(Found *f, GenScratch *sc) {
    isize n = f->n;
    Key *keys = kept_get(&sc->keys, sizeof(Key) * (size_t)(2 * n + 1));
    isize *order = kept_get(&sc->sorted, sizeof(isize) * (size_t)(n + 1));
    if (!keys || !order) return NULL;
    if (f->top) {
        qsort(f->recs, (size_t)n, sizeof(Rec), cmp_rec_sort); /* at most `top` of them */
        for (isize k = 0; k < n; k++) keys[k].at = k;
    } else {
        for (isize k = 0; k < n; k++) { keys[k].eq = f->recs[k].eq; keys[k].at = k; }
        if (!bucket_sort(keys, keys + n, n, &sc->start)) merge_sort(keys, keys + n, n);
    }
    for (isize k = 0; k < n; k++) order[k] = keys[k].at;
    return order;
}

isize *found_order(Found *f) {
    GenScratch own = {0};
    isize *order = found_order_kept(f, &own);
    if (order) own.sorted = (Kept){NULL, 0}; /* the caller's now */
    gen_scratch_free(&own);
    return order;
}
