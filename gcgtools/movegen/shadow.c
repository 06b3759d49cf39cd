/*
 * shadow.c: the bounds (see shadow.h): each anchor's first bound from its segments and
 * the rack's best tiles and leaves, the tight bound by the sets of tiles that make a
 * word (the letter sets' Bloom filter), the pairs of a run and a set of tiles for the
 * look-up (word index), the walk's bounds by square and tiles played, and the shadow of
 * a rack (its values, best leaves and sets of tiles) made once a generation.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "shadow.h"

/* the words of a key: (first << 16 | count) in the index, 0 for none */
static uint64_t ana_find(const Shadow *sh, uint64_t key) {
    for (uint64_t i = ana_slot(key, sh->ana_mask);; i = (i + 1) & sh->ana_mask) {
        if (sh->ana_slots[2 * i] == key) return sh->ana_slots[2 * i + 1];
        if (!sh->ana_slots[2 * i]) return 0;
    }
}

/* the words of letters[0..n) and `blanks` blanks (each any letter, in nondecreasing
 * order) into g's candidates; -1 when they do not fit */
static int ana_gather(Gen *g, const Shadow *sh, int *letters, int n, int blanks, int from) {
    if (!blanks) {
        uint64_t ref = ana_find(sh, ana_key(letters, n));
        isize first = (isize)(ref >> 16), count = (isize)(ref & 0xFFFF);
        if (first + count > sh->ana_n_words || g->n_cand + count > ANA_CANDS) return -1;
        memcpy(g->cand + g->n_cand, sh->ana_words + first, sizeof(uint64_t) * (size_t)count);
        g->n_cand += (int)count;
        return 0;
    }
    for (int t = from; t <= sh->n_letters; t++) {
        letters[n] = t;
        if (ana_gather(g, sh, letters, n + 1, blanks - 1, t) < 0) return -1;
    }
    return 0;
}

#define ANY_SCORE LONG_MAX /* whole_rack_score: the index cannot tell */

/* The most a word spelt on [s, e] scores (main word and cross-words, no bingo bonus):
 * the new squares' letters at their value when the rack holds that letter (else a
 * blank's 0), whatever blanks the rack must use for letters it holds too. */
static long word_score(const Gen *g, uint64_t word, int s, int len) {
    long main = 0, wmul = 1, cross = 0;
    for (int q = 0; q < len; q++) {
        int letter = (int)((word >> (6 * (len - 1 - q))) & 63), p = s + q;
        if (g->bt[p]) {
            main += g->bv[p];
            continue;
        }
        tile_parts(g, p, letter, !g->rc[letter], &main, &cross);
        wmul *= g->wm[p];
    }
    return main * wmul + cross;
}

/* What a play of every playable tile on the segment [s, e] (with nb board tiles) can
 * score at most (without the bingo bonus), from the words it can make: a word of the
 * rack's letters and the board tiles that has the board tiles where they stand and, on
 * each new square, a letter its cross-set allows; -1 for none. Lengths the index does
 * not hold, or more than two board tiles: ANY_SCORE. */
static long whole_rack_score(Gen *g, const Shadow *sh, int s, int e, int nb) {
    int len = g->nmax + nb;
    if (!sh->ana_slots || nb > 2 || len < ANA_MIN || len > ANA_MAX || e - s + 1 != len)
        return ANY_SCORE;
    int tiles[2] = {0, 0}, found = 0;
    for (int p = s; p <= e; p++)
        if (g->bt[p]) {
            if (g->bt[p] >= MAX_LETTERS) return 1;
            tiles[found++] = g->bt[p];
        }
    if (nb == 2 && tiles[0] > tiles[1]) { int t = tiles[0]; tiles[0] = tiles[1]; tiles[1] = t; }
    int c = 0;
    while (c < g->n_cache && !(g->cache[c].nb == nb && g->cache[c].t1 == tiles[0] &&
                               g->cache[c].t2 == tiles[1]))
        c++;
    if (c == g->n_cache) { /* the words of these letters, once a generation */
        if (c == ANA_CACHE) return 1;
        int letters[ANA_MAX + 1], n = 0, first = g->n_cand;
        for (int u = 1; u < MAX_LETTERS; u++)
            for (int q = 0; q < g->rc[u]; q++) letters[n++] = u;
        for (int q = 0; q < nb; q++) letters[n++] = tiles[q];
        int ok = ana_gather(g, sh, letters, n, g->rc[0], 1);
        g->cache[c].nb = nb;
        g->cache[c].t1 = tiles[0];
        g->cache[c].t2 = tiles[1];
        g->cache[c].first = first;
        g->cache[c].count = ok < 0 ? -1 : g->n_cand - first;
        if (ok < 0) g->n_cand = first;
        g->n_cache++;
    }
    if (g->cache[c].count < 0) return ANY_SCORE;
    long best = -1;
    for (int w = 0; w < g->cache[c].count; w++) {
        uint64_t word = g->cand[g->cache[c].first + w];
        int fits = 1;
        for (int q = 0; q < len && fits; q++) {
            int letter = (int)((word >> (6 * (len - 1 - q))) & 63), p = s + q;
            fits = g->bt[p] ? g->bt[p] == letter : (int)((g->xc[p] >> letter) & 1);
        }
        if (fits) {
            long score = word_score(g, word, s, len);
            if (score > best) best = score;
        }
    }
    return best;
}

/* The new squares of a segment for the bounds: each square's weight for a tile on it
 * (its letter premium times the segment's word premiums w, plus its own cross-word's
 * letter premium times word premium), highest first, and the sums that give the
 * weights times each square's best rack tile (capped = w * lcap + xcap). Kept as the
 * segment grows by one square: an insertion, or (a square with a word premium changes
 * w) the weights worked out again. */
typedef struct {
    int k;
    long c[MAX_RACK], lcap, xcap;
} Weights;

static inline long cross_weight(const Gen *g, int p) {
    return g->xs[p] >= 0 ? (long)g->lm[p] * g->wm[p] : 0;
}

static inline void weights_insert(Weights *ws, long c) {
    int r = ws->k++;
    for (; r > 0 && ws->c[r - 1] < c; r--) ws->c[r] = ws->c[r - 1];
    ws->c[r] = c;
}

/* square p added to the segment whose new squares are sq (p last), w its word premiums */
static inline void weights_add(const Gen *g, Weights *ws, const int *sq, int p, long w) {
    ws->lcap += (long)g->lm[p] * g->cap[p];
    ws->xcap += cross_weight(g, p) * g->cap[p];
    if (g->wm[p] == 1) {
        weights_insert(ws, (long)g->lm[p] * w + cross_weight(g, p));
        return;
    }
    int k = ws->k + 1;
    ws->k = 0;
    for (int q = 0; q < k; q++) weights_insert(ws, (long)g->lm[sq[q]] * w + cross_weight(g, sq[q]));
}

/* The highest score + leave a play of k tiles from the anchor could reach on a segment
 * of squares with weights ws: the rack's best tiles on the best squares (each square
 * weighted by its letter premium times the word premiums, plus its own cross-word),
 * whatever the lexicon says, and the best leave of what is left. */
static inline double segment_bound(const Gen *g, const Shadow *sh, const Weights *ws,
                                   long wmul, long board, long cross, long *top) {
    int k = ws->k;
    /* the best tiles on the best squares, or each square's best tile: both bound it */
    long best = 0, capped = wmul * ws->lcap + ws->xcap;
    for (int q = 0; q < k; q++) best += ws->c[q] * sh->vals[q];
    *top = best < capped ? best : capped;
    long score = board * wmul + cross + (k >= g->bingo_size ? g->bingo_bonus : 0) + *top;
    return (double)score + sh->best_leave[k];
}

/* the set j's values on the best squares (ws): worked out once for sets of the same
 * values (the first of them comes before: dots[] holds its dot product) */
static inline long set_dot(const Shadow *sh, const Weights *ws, int j, long *dots) {
    int same = sh->sub_same[j];
    if (same != j) return dots[j] = dots[same];
    long dot = 0;
    for (int q = 0; q < ws->k; q++) dot += ws->c[q] * sh->sub_vals[j][q];
    return dots[j] = dot;
}

/* segment_bound for each set of k tiles the rack can play whose letters, with the
 * segment's board tiles (hb: their letter_hash sum), make a word: its values on the best
 * squares and its own leave (top: segment_bound's tiles' part). Sets worth less than
 * `floor` are left out (-inf if all). */
static double tight_segment_bound(const Gen *g, const Shadow *sh, const Weights *ws,
                                  long wmul, long board, long cross, long top, uint64_t hb,
                                  double floor) {
    int k = ws->k;
    long capped = wmul * ws->lcap + ws->xcap;
    double base = (double)(board * wmul + cross + (k >= g->bingo_size ? g->bingo_bonus : 0));
    double best = -INFINITY;
    long dots[SUB_MAX];
    for (int j = sh->sub_first[k]; j < sh->sub_first[k + 1]; j++) {
        double lv = sh->sub_leave[j]; /* best leave first: nothing after can do better */
        if (base + (double)top + lv < floor) break;
        long dot = set_dot(sh, ws, j, dots);
        double v = base + (double)(dot < capped ? dot : capped) + lv;
        if (v <= best || v < floor) continue;
        if (sh->sub_blanks[j] < 2 && !has_set(sh->sets, sh->sub_hash[j] + hb)) continue;
        best = v;
        if (floor < v) floor = v;
    }
    return best;
}

/* The bound of the segment [s, e] (its new squares' weights ws, word premiums w, board
 * tiles' points b and letter hash h (odd: one not in the lexicon), cross-words c, nb board
 * tiles), against `known`, the best bound so far of plays of as many tiles. */
static double one_segment(Gen *g, const Shadow *sh, const Weights *ws, long w, long b, long c,
                          uint64_t h, int odd, int s, int e, int nb, int tight, double thr,
                          double known) {
    int kk = ws->k;
    long top;
    double v = segment_bound(g, sh, ws, w, b, c, &top);
    double floor = known > thr ? known : thr;
    if (tight && !odd && v >= floor) {
        double t = tight_segment_bound(g, sh, ws, w, b, c, top, h, floor);
        if (t < v) v = t;
    }
    /* the whole rack, alone or with one or two board tiles: its letters must make a word,
     * which scores what it scores */
    if (v > known && kk == g->nmax && !g->lookup) {
        long score = whole_rack_score(g, sh, s, e, nb);
        double exact = score < 0 ? -INFINITY
                     : (double)score + (kk >= g->bingo_size ? g->bingo_bonus : 0) +
                           sh->best_leave[kk];
        if (score != ANY_SCORE && exact < v) v = exact;
    }
    return v;
}

static void pairs_push(Pairs *ps, int i) {
    int *h = ps->heap, k = ps->nh++;
    double v = ps->p[i].v;
    for (; k > 0 && ps->p[h[(k - 1) / 2]].v < v; k = (k - 1) / 2) h[k] = h[(k - 1) / 2];
    h[k] = i;
}

int pairs_pop(Pairs *ps) {
    int *h = ps->heap, top = h[0], last = h[--ps->nh], n = ps->nh, k = 0;
    double v = ps->p[last].v;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= n) break;
        if (c + 1 < n && ps->p[h[c + 1]].v > ps->p[h[c]].v) c++;
        if (ps->p[h[c]].v <= v) break;
        h[k] = h[c];
        k = c;
    }
    if (n) h[k] = last;
    return top;
}

static void pairs_add(Pairs *ps, double v, uint64_t hash, int j, int s, int e, int bl,
                      int bl2, uint64_t slot) {
    if (ps->n == ps->cap) {
        int cap = ps->cap ? 2 * ps->cap : 1024;
        Pair *p = realloc(ps->p, sizeof(Pair) * (size_t)cap);
        if (p) ps->p = p;
        int *h = p ? realloc(ps->heap, sizeof(int) * (size_t)cap) : NULL;
        if (!h) { ps->error = 1; return; }
        ps->heap = h;
        ps->cap = cap;
    }
    Pair *pr = &ps->p[ps->n];
    pr->v = v;
    pr->hash = hash;
    pr->j = (int16_t)j;
    pr->slot = (uint32_t)slot;
    pr->bl = (uint8_t)bl;
    pr->bl2 = (uint8_t)bl2;
    pr->s = (uint8_t)s;
    pr->e = (uint8_t)e;
    pairs_push(ps, ps->n++);
}

void pairs_load(Pairs *ps, const Pair *p, int n, double thr) {
    for (int k = 0; k < n && !ps->error; k++)
        if (p[k].v >= thr)
            pairs_add(ps, p[k].v, p[k].hash, p[k].j, p[k].s, p[k].e, p[k].bl, p[k].bl2, p[k].slot);
}

/* the pairs of a set of tiles with one or two blanks (its letter set's hash with the
 * blanks as blanks): each letter (or pair of letters, in order) the blanks can stand for
 * in a word, by the Bloom filter (which holds every word's letter set with one letter a
 * blank) and the word index */
static void blank_pairs(const Shadow *sh, double v, uint64_t hash, int j, int s, int e,
                        Pairs *out) {
    int two = sh->sub_blanks[j] == 2, len = e - s + 1;
    if (!two && !has_set(sh->sets, hash)) return;
    for (int bl = 1; bl <= sh->n_letters; bl++) {
        uint64_t h = hash + sh->blank_as[bl], slot;
        if (!two) {
            if (word_filter(sh, h) && (slot = word_slot(sh, h, len)))
                pairs_add(out, v, h, j, s, e, bl, 0, slot - 1);
            continue;
        }
        if (!has_set(sh->sets, h)) continue; /* no word with bl and a blank */
        for (int bl2 = bl; bl2 <= sh->n_letters; bl2++) {
            uint64_t h2 = h + sh->blank_as[bl2];
            if (word_filter(sh, h2) && (slot = word_slot(sh, h2, len)))
                pairs_add(out, v, h2, j, s, e, bl, bl2, slot - 1);
        }
    }
}

/* every set of tiles that can fill the new squares (ws) of the segment [s, e] (its board
 * tiles' letter_hash sum hb) and make a word there, with a bound of at least `floor` */
static void segment_pairs(const Gen *g, const Shadow *sh, const Weights *ws, long wmul,
                          long board, long cross, uint64_t hb, int s, int e, double floor,
                          Pairs *out) {
    int k = ws->k;
    long capped = wmul * ws->lcap + ws->xcap, top = 0;
    for (int q = 0; q < k; q++) top += ws->c[q] * sh->vals[q];
    if (top > capped) top = capped;
    double base = (double)(board * wmul + cross + (k >= g->bingo_size ? g->bingo_bonus : 0));
    long dots[SUB_MAX];
    for (int j = sh->sub_first[k]; j < sh->sub_first[k + 1]; j++) {
        double lv = sh->sub_leave[j]; /* best leave first */
        if (base + (double)top + lv < floor) break;
        long dot = set_dot(sh, ws, j, dots);
        double v = base + (double)(dot < capped ? dot : capped) + lv;
        if (v < floor) continue;
        uint64_t hash = sh->sub_hash[j] + hb, slot;
        if (!sh->sub_blanks[j]) {
            if (word_filter(sh, hash) && (slot = word_slot(sh, hash, e - s + 1)))
                pairs_add(out, v, hash, j, s, e, 0, 0, slot - 1);
            continue;
        }
        blank_pairs(sh, v, hash, j, s, e, out);
    }
}

/* Every segment a play from the anchor could cover (starting at or after the left stop,
 * bounded by empty squares or the edge, every new square able to take a rack tile):
 * returns the best bound of a play from the anchor. With `bys`, also the best bound of
 * plays of exactly k tiles starting at s in bys[s][k] (each segment then bounded against
 * those of its own start only). */
double anchor_bound(Gen *g, const Shadow *sh, int tight, double thr,
                           double (*bys)[MAX_RACK + 2], Pairs *pairs) {
    int a = g->anchor, size = g->size;
    double byk[MAX_RACK + 2];
    for (int k = 0; k <= MAX_RACK + 1; k++) byk[k] = -INFINITY;
    if (bys)
        for (int s = g->leftstop; s <= a; s++)
            for (int k = 0; k <= MAX_RACK + 1; k++) bys[s][k] = -INFINITY;
    int sq[MAX_RACK], k = 0, nbl = 0, odd = 0; /* odd: a board tile not in the lexicon */
    long wl = 1, bl = 0, cl = 0;
    uint64_t hl = 0; /* letter_hash of the board tiles */
    Weights left_ws = {0}, ws;
    tight = tight && sh->sets && sh->n_sub;
    for (int s = a; s >= g->leftstop; s--) { /* the word starts at s */
        if (g->bt[s]) {
            bl += g->bv[s];
            nbl++;
            if (g->bt[s] >= MAX_LETTERS) odd = 1;
            else hl += sh->hash_of[g->bt[s]];
        } else {
            if (!(g->xc[s] & sh->avail) || k == g->nmax) break;
            sq[k++] = s;
            wl *= g->wm[s];
            if (g->xs[s] >= 0) cl += (long)g->xs[s] * g->wm[s];
            weights_add(g, &left_ws, sq, s, wl);
        }
        if (s > 0 && g->bt[s - 1]) continue; /* the word would go on leftwards */
        int e = a, nb = nbl, odd_r = odd;
        long w = wl, b = bl, c = cl;
        uint64_t h = hl;
        ws = left_ws;
        for (;;) { /* ... and ends at e */
            while (e + 1 < size && g->bt[e + 1]) {
                e++;
                b += g->bv[e];
                nb++;
                if (g->bt[e] >= MAX_LETTERS) odd_r = 1;
                else h += sh->hash_of[g->bt[e]];
            }
            int kk = ws.k;
            if (pairs) { /* for exact_anchor */
                long top;
                if (!odd_r && segment_bound(g, sh, &ws, w, b, c, &top) >= thr)
                    segment_pairs(g, sh, &ws, w, b, c, h, s, e, thr, pairs);
            } else {
                double known = bys ? bys[s][kk] : byk[kk];
                double v = one_segment(g, sh, &ws, w, b, c, h, odd_r, s, e, nb, tight, thr, known);
                if (v > byk[kk]) byk[kk] = v;
                if (bys && v > bys[s][kk]) bys[s][kk] = v;
            }
            if (e + 1 >= size || kk == g->nmax) break;
            int p = e + 1;
            if (!(g->xc[p] & sh->avail)) break;
            sq[kk] = p;
            w *= g->wm[p];
            if (g->xs[p] >= 0) c += (long)g->xs[p] * g->wm[p];
            weights_add(g, &ws, sq, p, w);
            e = p;
        }
        /* sq[k..) were the right part's: the left part's stay */
    }
    double best = -INFINITY;
    for (int n = MAX_RACK; n >= 0; n--)
        if (byk[n] > best) best = byk[n];
    return best;
}

static long sorted_dot(long *c, int j, const int *vals) {
    for (int q = 1; q < j; q++)
        for (int r = q; r > 0 && c[r] > c[r - 1]; r--) {
            long t = c[r]; c[r] = c[r - 1]; c[r - 1] = t;
        }
    long dot = 0;
    for (int q = 0; q < j; q++) dot += c[q] * vals[q];
    return dot;
}

/* the segments [anchor + 1, e] a turn to the right can cover (for right_bound) */
void right_segments(Gen *g) {
    int j = 0, e = g->anchor;
    long board = 0, wmul = 1, cross = 0, lm[MAX_RACK], xm[MAX_RACK], c[MAX_RACK];
    g->n_right = 0;
    while (e + 1 < g->size) {
        int p = ++e;
        if (g->bt[p]) {
            board += g->bv[p];
        } else {
            if (j == g->nmax - 1 || !(g->xc[p] & g->avail)) break;
            lm[j] = g->lm[p];
            xm[j] = g->xs[p] >= 0 ? (long)g->lm[p] * g->wm[p] : 0;
            wmul *= g->wm[p];
            if (g->xs[p] >= 0) cross += (long)g->xs[p] * g->wm[p];
            j++;
        }
        if (e + 1 < g->size && g->bt[e + 1]) continue; /* the word goes on */
        int q = g->n_right++;
        g->rseg[q].j = j;
        g->rseg[q].board = board;
        g->rseg[q].wmul = wmul;
        g->rseg[q].cross = cross;
        memcpy(c, lm, sizeof(long) * (size_t)j);
        g->rseg[q].dot_l = sorted_dot(c, j, g->vals);
        memcpy(c, xm, sizeof(long) * (size_t)j);
        g->rseg[q].dot_x = sorted_dot(c, j, g->vals);
    }
}

/* g->rb and g->lb for the anchor about to be walked (its line loaded), against the
 * moves kept so far */
void walk_bounds(Gen *g, const Shadow *sh, const Anchor *a) {
    line_caps(g);
    anchor_bound(g, sh, 1, threshold(g->found), g->rb, NULL);
    for (int s = a->leftstop; s <= a->anchor; s++) {
        for (int n = MAX_RACK; n >= 0; n--)
            if (g->rb[s][n + 1] > g->rb[s][n]) g->rb[s][n] = g->rb[s][n + 1];
        for (int n = 0; n <= MAX_RACK + 1; n++) {
            double before = s > a->leftstop ? g->lb[s - 1][n] : -INFINITY;
            g->lb[s][n] = before > g->rb[s][n] ? before : g->rb[s][n];
        }
    }
}

long code_tiles(const Kinds *kd, long code) {
    long n = 0;
    for (int k = 0; k < kd->n_kinds; k++) {
        n += code % (kd->count[k] + 1);
        code /= kd->count[k] + 1;
    }
    return n;
}

/* Shadow.sub_*: every set of tiles a play can take off the rack, by how many, best
 * leave first (none when the rack has more than SUB_MAX leaves); `played`: the tiles a
 * play leaving each leave code takes */
static void play_sets(Gen *g, const Kinds *kd, Shadow *sh, const int *played,
                      uint8_t (*kept)[MAX_KINDS]) {
    int letter[MAX_KINDS] = {0}, by_value[MAX_KINDS], n_codes = (int)kd->n_codes;
    int count[MAX_RACK + 2] = {0}, order[SUB_MAX];
    for (int t = 0; t < MAX_LETTERS; t++)
        for (int q = 0; g->rc[t] && q < kd->n_kinds; q++)
            if (kd->radix[q] == g->radix[t]) letter[q] = t;
    for (int q = 0; q < kd->n_kinds; q++) { /* the kinds, highest value first */
        int v = letter[q] ? g->tv[letter[q]] : 0, r = q;
        if (v < 0 || v > INT16_MAX) return; /* no bounds by sets, then */
        for (; r > 0 && (letter[by_value[r - 1]] ? g->tv[letter[by_value[r - 1]]] : 0) < v; r--)
            by_value[r] = by_value[r - 1];
        by_value[r] = q;
    }
    for (int code = 0; code < n_codes; code++) count[played[code] + 1]++;
    for (int k = 0; k <= MAX_RACK; k++) count[k + 1] += count[k];
    for (int k = 0; k <= MAX_RACK + 1; k++) sh->sub_first[k] = count[k];
    for (int code = 0; code < n_codes; code++) { /* by tiles played, best leave first */
        int k = played[code], r = count[k]++;
        double lv = (g->endgame && code == 0) ? g->going_out : g->leave[code];
        for (; r > sh->sub_first[k] && sh->sub_leave[r - 1] < lv; r--) {
            sh->sub_leave[r] = sh->sub_leave[r - 1];
            order[r] = order[r - 1];
        }
        sh->sub_leave[r] = lv;
        order[r] = code;
    }
    int16_t kv[MAX_KINDS];
    uint64_t kh[MAX_KINDS], vkey[SUB_MAX];
    for (int q = 0; q < kd->n_kinds; q++) {
        kv[q] = (int16_t)(letter[q] ? g->tv[letter[q]] : 0);
        kh[q] = sh->hash_of[letter[q]];
    }
    for (int j = 0; j < n_codes; j++) {
        int16_t *vals = sh->sub_vals[j];
        int n = 0, blanks = 0;
        uint64_t hash = 0;
        for (int i = 0; i < kd->n_kinds; i++) {
            int q = by_value[i];
            for (long c = kept[order[j]][q]; c < kd->count[q]; c++) {
                vals[n++] = kv[q];
                hash += kh[q];
                blanks += !letter[q];
            }
        }
        sh->sub_hash[j] = hash;
        sh->sub_blanks[j] = (uint8_t)blanks;
        sh->sub_code[j] = (int32_t)order[j];
        sh->sub_same[j] = (int16_t)j;
        uint64_t key = 0;
        for (int q = 0; q < n; q++) key = key * 0x100000001B3ULL + (uint16_t)vals[q] + 1;
        vkey[j] = key;
        for (int r = sh->sub_first[n]; r < j; r++)
            if (vkey[r] == key && sh->sub_same[r] == r &&
                !memcmp(sh->sub_vals[r], vals, sizeof(int16_t) * (size_t)n)) {
                sh->sub_same[j] = (int16_t)r;
                break;
            }
    }
    sh->n_sub = n_codes;
}

/* the tiles of each kind a leave code keeps, and the tiles taken off the rack by a play
 * that leaves it (an odometer over the kinds' counts kept) */
static void tiles_played(const Kinds *kd, long total, int *played, uint8_t (*kept)[MAX_KINDS]) {
    uint8_t now[MAX_KINDS] = {0};
    int left = 0;
    for (long code = 0; code < (long)kd->n_codes; code++) {
        played[code] = (int)(total - left);
        memcpy(kept[code], now, sizeof now);
        for (int q = 0; q < kd->n_kinds; q++) {
            if (now[q] < kd->count[q]) { now[q]++; left++; break; }
            left -= now[q];
            now[q] = 0;
        }
    }
}

void make_shadow(Gen *g, const Kinds *kd, long total, const GenBoard *in, Shadow *sh) {
    g->n_cache = g->n_cand = 0;
    sh->ana_slots = sh->ana_words = sh->sets = NULL;
    sh->ana_mask = 0;
    sh->ana_n_words = 0;
    if (in->ana) { /* checked by read_inputs */
        const uint64_t *buf = in->ana;
        isize set_words = SET_WORDS;
        sh->ana_slots = buf + 2;
        sh->ana_mask = buf[0] - 1;
        sh->sets = buf + 2 + 2 * buf[0];
        sh->ana_words = sh->sets + set_words;
        sh->ana_n_words = in->ana_items - 2 - 2 * (isize)buf[0] - set_words;
    }
    sh->wi_slots = sh->wi_filter = NULL;
    sh->wi_letters = NULL;
    sh->wi_mask = sh->wi_n_letters = 0;
    if (in->words) { /* checked by read_words */
        const uint64_t *buf = in->words;
        sh->wi_slots = buf + WI_HEAD;
        sh->wi_mask = buf[0] - 1;
        sh->wi_filter = buf + WI_HEAD + 2 * buf[0];
        sh->wi_letters = (const uint8_t *)(sh->wi_filter + WF_WORDS);
        sh->wi_n_letters = buf[2];
    }
    sh->n_letters = (int)in->n_letters - 1;
    for (int t = 0; t < MAX_LETTERS; t++) sh->hash_of[t] = letter_hash(t);
    for (int t = 0; t <= sh->n_letters && t < MAX_LETTERS; t++)
        sh->blank_as[t] = sh->hash_of[t] - sh->hash_of[0];
    int n = 0;
    for (int t = 0; t < MAX_LETTERS; t++)
        for (int c = 0; c < g->rc[t] && n < MAX_RACK; c++) sh->vals[n++] = t ? g->tv[t] : 0;
    for (int q = 1; q < n; q++)
        for (int r = q; r > 0 && sh->vals[r] > sh->vals[r - 1]; r--) {
            int tmp = sh->vals[r]; sh->vals[r] = sh->vals[r - 1]; sh->vals[r - 1] = tmp;
        }
    sh->avail = g->rc[0] ? ~1ULL : g->rmask;
    for (int k = 0; k <= MAX_RACK; k++) sh->best_leave[k] = -INFINITY;
    sh->n_sub = 0;
    for (int k = 0; k <= MAX_RACK + 1; k++) sh->sub_first[k] = 0;
    int small = kd->n_codes <= SUB_MAX && total <= MAX_RACK, played[SUB_MAX];
    uint8_t kept[SUB_MAX][MAX_KINDS];
    if (small) tiles_played(kd, total, played, kept);
    for (long code = 0; code < (long)kd->n_codes; code++) {
        long k = small ? played[code] : total - code_tiles(kd, code);
        if (k < 0 || k > MAX_RACK) continue;
        double lv = (g->endgame && code == 0) ? g->going_out : g->leave[code];
        if (lv > sh->best_leave[k]) sh->best_leave[k] = lv;
    }
    if (small && sh->sets) play_sets(g, kd, sh, played, kept);
}
