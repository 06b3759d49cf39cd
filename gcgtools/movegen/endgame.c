/*
 * endgame.c: the exact endgame search (see endgame.h). Python reference:
 * gcgtools/analysis/endgame/search.py (Searcher) and state.py (SearchState).
 */
#include "endgame.h"
#include "word_prune.h"

#include <stdlib.h>
#include <string.h>

#define EXACT_F 0
#define LOWER_F 1
#define UPPER_F 2
#define HOPELESS 32

typedef struct {
    uint64_t key;
    int32_t value;
    int16_t best; /* index in the position's move list, -1 none */
    uint8_t depth, flags; /* flags: bound (2 bits), complete (bit 2) */
} TTEntry;

typedef struct {
    EgMove *m;
    isize n, cap;
} MoveList;

/* the move lists of positions met before, by hash (a position comes back at every depth
 * of the deepening): one list a slot, the slot's old list dropped */
typedef struct {
    uint64_t key;
    EgMove *m;
    int n, complete;
} CacheSlot;
/* moves generated at a new position before the rest are needed (most nodes are cut off
 * after one or two): the first FIRST of the full list, which the generator finds
 * without building the rest */
#define FIRST 8
/* 1: every list generated whole at once. The first FIRST alone (0) took three times as
 * long on the corpus' 10- and 11-tile endgames, and still twice as long with the
 * generator's anagram and word indexes passed in (tried, then left out): with the few
 * tiles of an endgame rack a whole list costs little more than the best few */
#define EG_FULL 1
#define CACHE_LG 16
#define CACHE_MOVES (1L << 20) /* moves kept at most (about 60 MB): then all dropped */
/* the line cache's records kept at most: LINE_RECS for 2**12 slots, in proportion to
 * the slots for more or fewer, LINE_RECS_MAX at most (2**18 slots: 2**20 records of 56
 * bytes, about 60 MB) */
#define LINE_RECS (1L << 14)
#define LINE_RECS_MAX (1L << 20)

typedef struct {
    int p, zeros, points, bag_pos, n_saved;
    uint64_t hash, rack_hash;
    int rack[MAX_LETTERS];
    uint16_t sq[5 * MAX_RACK + 4];
    uint64_t cross[5 * MAX_RACK + 4][2];
    int32_t xsum[5 * MAX_RACK + 4][2];
} Undo;

typedef struct {
    const EgInput *in;
    int size, area, nl;
    int32_t *bt, *bv, *xsum;
    uint64_t *cross;
    CrossCtx cx;
    int rack[2][MAX_LETTERS];
    int points[2];
    uint64_t rack_hash[2];
    int bag_pos, to_move, zeros;
    uint64_t hash;
    /* Zobrist keys */
    uint64_t k_sq[MAX_SIZE * MAX_SIZE][2 * MAX_LETTERS];
    uint64_t k_rack[2][MAX_LETTERS], k_bag[EG_MAX_BAG + 1], k_zeros[8], k_side[2];
    TTEntry *tt;
    uint64_t tt_mask;
    int tt_lg, tt_max_lg;
    long tt_filled; /* entries in use */
    MoveList lists[EG_MAX_PLY + 2];
    Gen *gen;
    Found found;
    CacheSlot *cache;
    EgMove *kept; /* the room of the cache's lists (CACHE_MOVES), NULL: none */
    long cached;  /* moves in it, the lists replaced since it was emptied included */
    LineCache *line_cache; /* NULL: none */
    GenScratch scratch;    /* the generator's buffers, kept between generations */
    Kept ranked, ranked_tmp; /* search_order's */
    uint8_t mark[MAX_SIZE * MAX_SIZE]; /* play's (touched_list), all 0 between plays */
    uint64_t *memo;
    double *leave;
    long nodes, max_nodes, next_check;
    int stopped, error;
} Eg;

static uint64_t splitmix(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* ------------------------------------------------------------------ move lists */
static int list_push(MoveList *l, const EgMove *m) {
    if (l->n == l->cap) {
        isize cap = l->cap ? 2 * l->cap : 64;
        EgMove *p = realloc(l->m, sizeof(EgMove) * (size_t)cap);
        if (!p) return -1;
        l->m = p;
        l->cap = cap;
    }
    l->m[l->n++] = *m;
    return 0;
}

typedef struct {
    long key;
    isize at, rec;
} Ranked;

static inline int ranked_before(const Ranked *x, const Ranked *y) {
    return x->key != y->key ? x->key > y->key : x->at < y->at;
}

/* a[0, n) sorted by ranked_before (a total order: `at` differs), tmp as large */
static void sort_ranked(Ranked *a, Ranked *tmp, isize n) {
    if (n <= 16) {
        for (isize i = 1; i < n; i++) {
            Ranked k = a[i];
            isize j = i;
            for (; j > 0 && ranked_before(&k, &a[j - 1]); j--) a[j] = a[j - 1];
            a[j] = k;
        }
        return;
    }
    isize h = n / 2;
    sort_ranked(a, tmp, h);
    sort_ranked(a + h, tmp, n - h);
    if (!ranked_before(&a[h], &a[h - 1])) return;
    memcpy(tmp, a, sizeof(Ranked) * (size_t)h);
    isize i = 0, j = h, k = 0;
    while (i < h && j < n) a[k++] = ranked_before(&a[j], &tmp[i]) ? a[j++] : tmp[i++];
    while (i < h) a[k++] = tmp[i++];
}

/* the search's move order (order[]: the generator's records, in its order, reordered in
 * place): plays that go out first, by score plus the opponent's rack; then by score plus
 * TILE_WEIGHT points a tile played, ties in the generator's order. More tiles first
 * brings the end of the game nearer, where lines get their exact values: on real 8- to
 * 14-tile endgames this searched up to 15 times fewer nodes than the generator's own
 * end-of-game equity (score minus the points kept), and at most 15% more on a few */
#define TILE_WEIGHT 25
static int search_order(Eg *e, isize *order, long total) {
    isize n = e->found.n;
    Ranked *rk = kept_get(&e->ranked, sizeof(Ranked) * (size_t)(n + 1));
    Ranked *tmp = kept_get(&e->ranked_tmp, sizeof(Ranked) * (size_t)(n + 1));
    if (!rk || !tmp) return -1;
    for (isize k = 0; k < n; k++) {
        const Rec *r = &e->found.recs[order[k]];
        long tiles = r->kind == KIND_PLAY ? __builtin_popcount(r->mask) : 0;
        long key = r->score + TILE_WEIGHT * tiles;
        if (tiles && tiles == total) key = (1L << 24) + r->score + e->points[1 - e->to_move];
        rk[k] = (Ranked){key, k, order[k]};
    }
    sort_ranked(rk, tmp, n);
    for (isize k = 0; k < n; k++) order[k] = rk[k].rec;
    return 0;
}

/* every move of the player to move into l, in the search's order (search_order) */
static int generate(Eg *e, MoveList *l, int top) {
    const EgInput *in = e->in;
    int p = e->to_move;
    Gen *g = e->gen;
    Line *lines = g->lines;
    memset(g, 0, offsetof(Gen, cand));
    g->lines = lines;
    g->line_cache = e->line_cache;
    g->scratch = &e->scratch;
    g->nodes = in->nodes;
    g->n_nodes = in->n_nodes;
    g->root = in->gaddag_root;
    g->size = e->size;
    g->area = e->area;
    g->bingo_size = in->bingo_size;
    g->bingo_bonus = in->bingo_bonus;
    g->endgame = 1;
    Kinds kd;
    memset(&kd, 0, sizeof kd);
    long radix = 1, total = 0;
    for (int t = 0; t < e->nl; t++) {
        int c = e->rack[p][t];
        g->rc[t] = c;
        g->tv[t] = in->tv[t];
        g->radix[t] = 0;
        if (!c) continue;
        int k = kd.n_kinds++;
        kd.count[k] = c;
        kd.radix[k] = radix;
        kd.points[k] = in->tv[t];
        kd.order[k] = k;
        g->radix[t] = (int32_t)radix;
        radix *= c + 1;
        total += c;
        g->nmax += c;
        if (t > 0) g->rmask |= 1ULL << t;
    }
    kd.n_codes = radix;
    g->rack_code = (int32_t)(radix - 1);
    endgame_leaves(&kd, e->leave);
    g->leave = e->leave;
    g->going_out = (double)in->out_factor * e->points[1 - p];
    e->found.n = 0;
    e->found.top = top;
    g->found = &e->found;
    GenBoard b = {e->bt, e->bv, in->lm, in->wm, e->xsum, e->cross, NULL, NULL, 0, 0, e->nl};
    /* the best `top`: the pass first, a bound the plays must beat (as generate() does) */
    if (top && other_moves(g, &kd, total, -1) < 0) return -1;
    if (find_moves(g, &b, &kd, total, -1) < 0) return -1;
    if (!top && other_moves(g, &kd, total, -1) < 0) return -1;
    isize *order = found_order_kept(&e->found, &e->scratch);
    if (!order) return -1;
    if (search_order(e, order, total) < 0) return -1;
    l->n = 0;
    for (isize k = 0; k < e->found.n; k++) {
        const Rec *r = &e->found.recs[order[k]];
        EgMove m;
        memset(&m, 0, sizeof m);
        m.score = r->score;
        if (r->kind == KIND_PLAY) {
            m.across = r->across;
            m.line = r->line;
            m.start = r->start;
            m.mask = r->mask;
            for (int pos = r->start; pos <= r->end; pos++) {
                if (!((r->mask >> pos) & 1)) continue;
                m.flat[m.n] = (uint16_t)(r->across ? r->line * e->size + pos : pos * e->size + r->line);
                m.code[m.n] = r->cells[pos];
                m.n++;
            }
        }
        if (list_push(l, &m) < 0) return -1;
    }
    return 0;
}

static void cache_clear(Eg *e) {
    memset(e->cache, 0, sizeof(CacheSlot) << CACHE_LG);
    e->cached = 0;
}

/* the moves of the position (its hash e->hash) into l as far as they are known: from the
 * cache, or the first FIRST generated (all of them when `all`) and kept there; *complete
 * whether that is all of them */
static int gen_moves(Eg *e, MoveList *l, int all, int *complete) {
    CacheSlot *c = &e->cache[e->hash & (((uint64_t)1 << CACHE_LG) - 1)];
    if (c->m && c->key == e->hash && (c->complete || !all)) {
        *complete = c->complete;
        if (l->cap < c->n) {
            EgMove *p = realloc(l->m, sizeof(EgMove) * (size_t)c->n);
            if (!p) return -1;
            l->m = p;
            l->cap = c->n;
        }
        memcpy(l->m, c->m, sizeof(EgMove) * (size_t)c->n);
        l->n = c->n;
        return 0;
    }
    if (generate(e, l, all ? 0 : FIRST) < 0) return -1;
    *complete = all || l->n < FIRST;
    if (!e->kept || l->n > CACHE_MOVES) return 0; /* not kept: no harm */
    if (e->cached + l->n > CACHE_MOVES) cache_clear(e);
    /* in the room's next free part: a slot's old list is left where it is until all
     * are dropped */
    EgMove *keep = e->kept + e->cached;
    memcpy(keep, l->m, sizeof(EgMove) * (size_t)l->n);
    e->cached += l->n;
    c->m = keep;
    c->n = (int)l->n;
    c->complete = *complete;
    c->key = e->hash;
    return 0;
}

/* ------------------------------------------------------------------ play / undo */
/* play m for the player to move: its gain; *over whether the game is over */
static int play(Eg *e, const EgMove *m, Undo *u, int *over) {
    const EgInput *in = e->in;
    int p = e->to_move;
    u->p = p;
    u->zeros = e->zeros;
    u->hash = e->hash;
    u->points = e->points[p];
    u->rack_hash = e->rack_hash[p];
    u->bag_pos = e->bag_pos;
    u->n_saved = 0;
    uint64_t h = e->hash ^ e->k_zeros[e->zeros] ^ e->k_side[p] ^ e->k_side[1 - p];
    e->to_move = 1 - p;
    if (!m->n) {
        e->zeros++;
        e->hash = h ^ e->k_zeros[e->zeros];
        *over = e->zeros >= in->end_zeros;
        return *over ? e->points[1 - p] - e->points[p] : 0;
    }
    memcpy(u->rack, e->rack[p], sizeof(int) * (size_t)e->nl);
    for (int k = 0; k < m->n; k++) {
        int f = m->flat[k], c = m->code[k], blank = c & BLANK_BIT, t = c & ~BLANK_BIT;
        e->bt[f] = t;
        e->bv[f] = blank ? 0 : in->tv[t];
        h ^= e->k_sq[f][blank ? MAX_LETTERS + t : t];
        int rt = blank ? 0 : t;
        e->rack[p][rt]--;
        e->points[p] -= in->tv[rt];
        e->rack_hash[p] -= e->k_rack[p][rt];
    }
    int n_touched = 0;
    for (int k = 0; k < m->n; k++)
        touched_list(e->bt, e->size, m->flat[k], e->mark, u->sq, &n_touched);
    for (int s = 0; s < n_touched; s++) {
        int i = u->sq[s];
        for (int d = 0; d < 2; d++) {
            u->cross[s][d] = e->cross[d * e->area + i];
            u->xsum[s][d] = e->xsum[d * e->area + i];
            if ((e->mark[i] >> d) & 1)
                one_cross(&e->cx, e->size, e->bt, e->bv, i, d, in->full, e->cross, e->xsum);
        }
        e->mark[i] = 0;
    }
    u->n_saved = n_touched;
    int drawn = in->bag_len - e->bag_pos;
    if (drawn > m->n) drawn = m->n;
    h ^= e->k_bag[e->bag_pos];
    for (int k = 0; k < drawn; k++) {
        int t = in->bag[e->bag_pos++];
        e->rack[p][t]++;
        e->points[p] += in->tv[t];
        e->rack_hash[p] += e->k_rack[p][t];
    }
    h ^= e->k_bag[e->bag_pos] ^ u->rack_hash ^ e->rack_hash[p];
    e->zeros = 0;
    e->hash = h ^ e->k_zeros[0];
    int left = 0;
    for (int t = 0; t < e->nl; t++) left += e->rack[p][t];
    if (!left) {
        *over = 1;
        return m->score + in->out_factor * e->points[1 - p];
    }
    *over = 0;
    return m->score;
}

/* what playing m would do, without playing it (the children of a node one ply from the
 * search's depth are only looked up and estimated: their board is never needed): the
 * hash after it, its gain, whether the game is over and (*est) the estimate of the
 * position after it for the opponent, as negamax at depth 0 gives it */
static int peek(const Eg *e, const EgMove *m, uint64_t *hash, int *over, int *est) {
    const EgInput *in = e->in;
    int p = e->to_move;
    uint64_t h = e->hash ^ e->k_zeros[e->zeros] ^ e->k_side[p] ^ e->k_side[1 - p];
    if (!m->n) {
        int zeros = e->zeros + 1;
        *hash = h ^ e->k_zeros[zeros];
        *over = zeros >= in->end_zeros;
        *est = e->points[p] - e->points[1 - p];
        return *over ? e->points[1 - p] - e->points[p] : 0;
    }
    int points = e->points[p], left = 0;
    uint64_t rh = e->rack_hash[p];
    for (int k = 0; k < m->n; k++) {
        int c = m->code[k], blank = c & BLANK_BIT, t = c & ~BLANK_BIT;
        h ^= e->k_sq[m->flat[k]][blank ? MAX_LETTERS + t : t];
        int rt = blank ? 0 : t;
        points -= in->tv[rt];
        rh -= e->k_rack[p][rt];
    }
    int pos = e->bag_pos, drawn = in->bag_len - pos;
    if (drawn > m->n) drawn = m->n;
    h ^= e->k_bag[pos];
    for (int k = 0; k < drawn; k++) {
        int t = in->bag[pos++];
        points += in->tv[t];
        rh += e->k_rack[p][t];
    }
    h ^= e->k_bag[pos] ^ e->rack_hash[p] ^ rh;
    *hash = h ^ e->k_zeros[0];
    for (int t = 0; t < e->nl; t++) left += e->rack[p][t];
    left += drawn - m->n;
    *est = points - e->points[1 - p];
    if (!left) {
        *over = 1;
        return m->score + in->out_factor * e->points[1 - p];
    }
    *over = 0;
    return m->score;
}

static void undo(Eg *e, const EgMove *m, const Undo *u) {
    int p = u->p;
    e->to_move = p;
    e->zeros = u->zeros;
    e->hash = u->hash;
    e->points[p] = u->points;
    e->rack_hash[p] = u->rack_hash;
    if (!m->n) return;
    e->bag_pos = u->bag_pos;
    memcpy(e->rack[p], u->rack, sizeof(int) * (size_t)e->nl);
    for (int k = 0; k < m->n; k++) e->bt[m->flat[k]] = e->bv[m->flat[k]] = 0;
    for (int s = 0; s < u->n_saved; s++) {
        int i = u->sq[s];
        for (int d = 0; d < 2; d++) {
            e->cross[d * e->area + i] = u->cross[s][d];
            e->xsum[d * e->area + i] = u->xsum[s][d];
        }
    }
}

/* ------------------------------------------------------------------ the table */
static TTEntry *tt_find(Eg *e, uint64_t key) {
    TTEntry *b = &e->tt[(key & e->tt_mask) & ~(uint64_t)1];
    if (b[0].key == key) return &b[0];
    if (b[1].key == key) return &b[1];
    return NULL;
}

/* a bucket of two: the first kept for the deeper (or complete) entry, the second
 * always replaced */
static void tt_store(Eg *e, uint64_t key, int depth, int flag, int value, int complete,
                     int best) {
    TTEntry *b = &e->tt[(key & e->tt_mask) & ~(uint64_t)1];
    TTEntry n = {key, value, (int16_t)best, (uint8_t)(depth > 255 ? 255 : depth),
                 (uint8_t)(flag | (complete ? 4 : 0))};
    int d = complete ? 256 : depth;
    if (b[0].key == key) { b[0] = n; return; }
    if (b[1].key == key) { b[1] = n; return; }
    if (!b[0].key || !b[1].key) e->tt_filled++;
    int d0 = (b[0].flags & 4) ? 256 : b[0].depth;
    if (!b[0].key || d >= d0) {
        b[1] = b[0];
        b[0] = n;
    } else {
        b[1] = n;
    }
}

/* the table twice as large, in place: a bucket's entries stay in it or move to its twin
 * in the new half, by the key's next bit, in the same order (the deeper first); when the
 * memory cannot be had, it stays as it is and grows no more */
static void tt_grow(Eg *e) {
    size_t old = (size_t)e->tt_mask + 1;
    TTEntry *tt = realloc(e->tt, 2 * old * sizeof(TTEntry));
    if (!tt) { e->tt_max_lg = e->tt_lg; return; }
    memset(tt + old, 0, old * sizeof(TTEntry));
    for (size_t j = 0; j < old; j += 2) {
        TTEntry *b = &tt[j], *twin = &tt[j + old], stay[2];
        int n_stay = 0, n_move = 0;
        for (int s = 0; s < 2; s++) {
            if (!b[s].key) continue;
            if (b[s].key & old) twin[n_move++] = b[s];
            else stay[n_stay++] = b[s];
        }
        memset(b, 0, 2 * sizeof(TTEntry));
        for (int s = 0; s < n_stay; s++) b[s] = stay[s];
    }
    e->tt = tt;
    e->tt_mask = 2 * old - 1;
    e->tt_lg++;
}

/* ------------------------------------------------------------------ search */
/* counts a node; every EG_CHECK nodes asks whether to stop, and doubles the table when it
 * is half full (no entry is held across this call) */
static int count_node(Eg *e) {
    if (e->stopped) return 1;
    if (e->max_nodes && e->nodes >= e->max_nodes) { e->stopped = EG_NODES; return 1; }
    if (e->nodes >= e->next_check) {
        e->next_check = e->nodes + EG_CHECK;
        if (e->tt_lg < e->tt_max_lg && e->tt_filled > (long)(e->tt_mask >> 1)) tt_grow(e);
        if (e->in->stop) {
            int why = e->in->stop(e->in->ctx);
            if (why) { e->stopped = why; return 1; }
        }
    }
    e->nodes++;
    return 0;
}

static int count_node(Eg *e);

/* negamax at depth 0 of a position not played onto the board (see peek): the table's
 * value when it settles the window, else the estimate */
static int leaf(Eg *e, uint64_t key, int alpha, int beta, int est, int *complete) {
    *complete = 0;
    if (count_node(e)) return 0;
    TTEntry *t = tt_find(e, key);
    if (t) {
        int flag = t->flags & 3;
        if (flag == EXACT_F || (flag == LOWER_F && t->value >= beta) ||
            (flag == UPPER_F && t->value <= alpha)) {
            *complete = (t->flags & 4) != 0;
            return t->value;
        }
    }
    return est;
}

/* at a node one ply from the depth: whether the pass alone reaches beta (then *value
 * and *complete are the node's, and the table has it as a lower bound); the pass's
 * child is only looked up and estimated, as the other moves' are. This changes which
 * value a cut-off node returns (the pass's, not the first move's in the search order),
 * so the node counts differ from the Python search's; never a proved value */
static int pass_cuts(Eg *e, uint64_t key, int alpha, int beta, int *value, int *complete) {
    EgMove pass;
    memset(&pass, 0, sizeof pass);
    uint64_t child_key;
    int over, est, done, gain = peek(e, &pass, &child_key, &over, &est), v;
    if (over) {
        v = gain;
        done = 1;
    } else {
        v = gain - leaf(e, child_key, gain - beta, gain - alpha, est, &done);
    }
    if (e->stopped) { *value = 0; *complete = 0; return 1; }
    if (v < beta) return 0;
    tt_store(e, key, 1, LOWER_F, v, done, -1);
    *value = v;
    *complete = done;
    return 1;
}

/* whether the pass is the only move of the position (list l, *listed whether it is
 * all of them) and comes after a play, `depth` plies from the search's depth (2 or
 * more: see negamax): such a pass costs no ply of the depth (as in
 * MAGPIE's endgame, `forced_pass_bypass`). A player whose tiles cannot be played passes
 * while the other plays a tile or two a turn: those lines are seen to their end at half
 * the depth. After a pass it is not: two passes end the game, so the next one does */
static int forced_pass(const Eg *e, const MoveList *l, int listed, int depth) {
    return depth >= 2 && listed && l->n == 1 && !l->m[0].n && !e->zeros;
}

static int negamax(Eg *e, int depth, int alpha, int beta, int ply, int *complete);

/* the position's forced pass played and the position after it searched to the same
 * depth */
static int pass_through(Eg *e, uint64_t key, int depth, int alpha, int beta, int ply,
                        int *complete) {
    EgMove pass;
    memset(&pass, 0, sizeof pass);
    Undo u;
    int over, done = 1, value, gain = play(e, &pass, &u, &over);
    if (over) value = gain;
    else value = gain - negamax(e, depth, gain - beta, gain - alpha, ply + 1, &done);
    undo(e, &pass, &u);
    if (e->stopped) return 0;
    int flag = value <= alpha ? UPPER_F : value >= beta ? LOWER_F : EXACT_F;
    tt_store(e, key, depth, flag, value, done, 0);
    *complete = done;
    return value;
}

/* the value for the player to move searched `depth` plies (fail-soft), *complete
 * whether every line reached the end; ply: the list to use */
static int negamax(Eg *e, int depth, int alpha, int beta, int ply, int *complete) {
    *complete = 0;
    if (count_node(e)) return 0;
    uint64_t key = e->hash;
    int tt_move = -1;
    TTEntry *t = tt_find(e, key);
    if (t) {
        int c = (t->flags & 4) != 0, flag = t->flags & 3;
        tt_move = t->best;
        if (c || t->depth >= depth) {
            if (flag == EXACT_F || (flag == LOWER_F && t->value >= beta) ||
                (flag == UPPER_F && t->value <= alpha)) {
                *complete = c;
                return t->value;
            }
        }
    }
    if (depth <= 0) {
        int p = e->to_move;
        return e->points[1 - p] - e->points[p];
    }
    if (ply > EG_MAX_PLY) { e->stopped = EG_ERROR; e->error = 1; return 0; }
    /* one ply from the depth, the pass (always legal) is looked up before any move is
     * generated: when it already reaches beta, no move list is needed (most of the
     * search's time is move generation at these nodes) */
    int pass_value;
    if (depth == 1 && pass_cuts(e, key, alpha, beta, &pass_value, complete)) return pass_value;
    MoveList *l = &e->lists[ply];
    int listed;
    if (gen_moves(e, l, EG_FULL, &listed) < 0) { e->stopped = EG_ERROR; e->error = 1; return 0; }
    /* a forced pass is searched through at the same depth (forced_pass); not one ply
     * from the depth, where the pass is looked up before any move is generated (above),
     * nor in the Python search there */
    if (forced_pass(e, l, listed, depth))
        return pass_through(e, key, depth, alpha, beta, ply, complete);
    if (tt_move >= l->n && !listed) {
        if (gen_moves(e, l, 1, &listed) < 0) { e->stopped = EG_ERROR; e->error = 1; return 0; }
    }
    if (tt_move >= l->n) tt_move = -1;
    /* after a pass, a pass that ends the game is tried next to the table's move: its
     * value is known at once and often settles the window */
    isize early = -1;
    if (e->zeros && e->zeros + 1 >= e->in->end_zeros)
        for (isize k = l->n - 1; k >= 0 && early < 0; k--)
            if (!l->m[k].n && k != tt_move) early = k;
    int alpha0 = alpha, best = -EG_INF, best_i = -1, all_done = 1;
    for (isize k = -2;; k++) {
        if (k >= l->n) {
            if (listed) break;
            /* the rest of the moves: the full list starts with the same first ones */
            if (gen_moves(e, l, 1, &listed) < 0) { e->stopped = EG_ERROR; e->error = 1; return 0; }
            if (k >= l->n) break;
        }
        isize i = k == -2 ? tt_move : k == -1 ? early : k;
        if (i < 0 || (k >= 0 && (i == tt_move || i == early))) continue;
        int over, done, value;
        if (depth == 1) { /* the children are only looked up */
            uint64_t child_key;
            int est, gain = peek(e, &l->m[i], &child_key, &over, &est);
            if (over) {
                value = gain;
                done = 1;
            } else {
                value = gain - leaf(e, child_key, gain - beta, gain - alpha, est, &done);
            }
        } else {
            EgMove m = l->m[i]; /* the list is reused by the children */
            Undo u;
            int gain = play(e, &m, &u, &over);
            if (over) {
                value = gain;
                done = 1;
            } else if (best == -EG_INF || beta - alpha <= 1) {
                value = gain - negamax(e, depth - 1, gain - beta, gain - alpha, ply + 1, &done);
            } else { /* does it beat the best so far? searched again only when it does */
                value = gain - negamax(e, depth - 1, gain - alpha - 1, gain - alpha, ply + 1, &done);
                if (!e->stopped && value > alpha && value < beta)
                    value = gain - negamax(e, depth - 1, gain - beta, gain - alpha, ply + 1, &done);
            }
            undo(e, &m, &u);
        }
        if (e->stopped) return 0;
        all_done = all_done && done;
        if (value > best) {
            best = value;
            best_i = (int)i;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta) break;
            }
        }
    }
    int flag = best <= alpha0 ? UPPER_F : best >= beta ? LOWER_F : EXACT_F;
    tt_store(e, key, depth, flag, best, all_done, best_i);
    *complete = all_done;
    return best;
}

typedef struct {
    int value, done, exact, index;
} RootLine;

static int cmp_line(const void *a, const void *b) {
    const RootLine *x = a, *y = b;
    if (x->value != y->value) return x->value > y->value ? -1 : 1;
    return 0;
}

/* a stable sort by value, best first (few lines: insertion sort) */
static void sort_lines(RootLine *v, int n) {
    for (int i = 1; i < n; i++) {
        RootLine x = v[i];
        int j = i;
        while (j > 0 && cmp_line(&v[j - 1], &x) > 0) { v[j] = v[j - 1]; j--; }
        v[j] = x;
    }
}

/* a root move's exact value (the position after it, the move's gain), searched first in
 * a window of ASPIRATION points either side of `guess` (its value at the previous depth),
 * again with a full window when the value falls outside */
static int aspire(Eg *e, int depth, int gain, int guess, int have_guess, int *done) {
    if (have_guess && e->in->aspiration > 0) {
        int lo = guess - e->in->aspiration, hi = guess + e->in->aspiration;
        int value = gain - negamax(e, depth - 1, gain - hi, gain - lo, 1, done);
        if (e->stopped || (value > lo && value < hi)) return value;
    }
    return gain - negamax(e, depth - 1, gain - EG_INF, gain + EG_INF, 1, done);
}

static void root_depth(Eg *e, const EgMove *moves, RootLine *lines, int n, int depth,
                       const uint8_t *exact) {
    int alpha = -EG_INF;
    for (int k = 0; k < n; k++) {
        int i = lines[k].index;
        int full = e->in->all_moves || k == 0 || (exact && exact[i]);
        Undo u;
        int over, done = 1, value;
        int gain = play(e, &moves[i], &u, &over);
        if (over) {
            value = gain;
        } else if (full) {
            value = aspire(e, depth, gain, lines[k].value, depth > 1, &done);
        } else {
            value = gain - negamax(e, depth - 1, gain - alpha - 1, gain - alpha, 1, &done);
            if (!e->stopped && value > alpha)
                value = gain - negamax(e, depth - 1, gain - EG_INF, gain - alpha, 1, &done);
        }
        undo(e, &moves[i], &u);
        if (e->stopped) return;
        lines[k].value = value;
        lines[k].done = done;
        lines[k].exact = full || value > alpha;
        if (value > alpha) alpha = value;
    }
    sort_lines(lines, n);
}

/* the line after root move `first`: the table's best move at each position (searched
 * again with a full window first when `search`); the state is left as found */
static int follow_pv(Eg *e, const EgMove *first, int depth, int search, EgLine *out) {
    EgMove *pv = malloc(sizeof(EgMove) * (EG_MAX_PLY + 1));
    Undo *undos = malloc(sizeof(Undo) * (EG_MAX_PLY + 1));
    if (!pv || !undos) { free(pv); free(undos); return -1; }
    int n = 0, over, gain, remaining = depth - 1;
    pv[0] = *first;
    gain = play(e, &pv[0], &undos[0], &over);
    n = 1;
    int last_gain = gain;
    while (!over && remaining > 0 && n <= EG_MAX_PLY) {
        int done;
        if (search) negamax(e, remaining, -EG_INF, EG_INF, n, &done);
        if (e->stopped) break;
        TTEntry *t = tt_find(e, e->hash);
        if (!t || t->best < 0) break;
        MoveList *l = &e->lists[n];
        int listed;
        if (gen_moves(e, l, 1, &listed) < 0) break;
        if (t->best >= l->n) break;
        int forced = forced_pass(e, l, listed, remaining); /* as negamax() */
        pv[n] = l->m[t->best];
        last_gain = play(e, &pv[n], &undos[n], &over);
        n++;
        if (!forced) remaining--;
    }
    for (int k = n - 1; k >= 0; k--) undo(e, &pv[k], &undos[k]);
    free(undos);
    out->pv = pv;
    out->pv_len = n;
    out->has_ending = over;
    out->ending = over ? last_gain - pv[n - 1].score : 0;
    return 0;
}

static void eg_release(Eg *e) {
    for (int k = 0; k < EG_MAX_PLY + 2; k++) free(e->lists[k].m);
    free(e->found.recs);
    free(e->cache);
    free(e->kept);
    free(e->memo);
    free(e->leave);
    free(e->tt);
    line_cache_free(e->line_cache);
    gen_scratch_free(&e->scratch);
    free(e->ranked.p);
    free(e->ranked_tmp.p);
    if (e->gen) free(e->gen->lines);
    free(e->gen);
    free(e->bt); free(e->bv); free(e->xsum); free(e->cross);
    free(e);
}

static Eg *eg_make(const EgInput *in) {
    Eg *e = calloc(1, sizeof(Eg));
    if (!e) return NULL;
    e->in = in;
    int size = e->size = in->size, area = e->area = size * size;
    e->nl = in->n_letters;
    e->bt = malloc(sizeof(int32_t) * (size_t)area);
    e->bv = malloc(sizeof(int32_t) * (size_t)area);
    e->xsum = malloc(sizeof(int32_t) * 2 * (size_t)area);
    e->cross = malloc(sizeof(uint64_t) * 2 * (size_t)area);
    e->gen = malloc(sizeof(Gen));
    e->leave = malloc(sizeof(double) * MAX_CODES);
    e->cache = calloc((size_t)1 << CACHE_LG, sizeof(CacheSlot));
    e->kept = malloc(sizeof(EgMove) * CACHE_MOVES); /* without it, no list is kept */
    e->memo = calloc(MEMO_WORDS, sizeof(uint64_t));
    int lg = in->tt_lg < 4 ? 4 : in->tt_lg > 30 ? 30 : in->tt_lg;
    e->tt = calloc((size_t)1 << lg, sizeof(TTEntry));
    e->tt_mask = ((uint64_t)1 << lg) - 1;
    e->tt_lg = lg;
    e->tt_max_lg = in->tt_max_lg < lg ? lg : in->tt_max_lg > 30 ? 30 : in->tt_max_lg;
    if (!e->bt || !e->bv || !e->xsum || !e->cross || !e->gen || !e->leave || !e->tt ||
        !e->cache || !e->memo) {
        if (e->gen) e->gen->lines = NULL;
        eg_release(e);
        return NULL;
    }
    e->gen->lines = malloc(sizeof(Line) * 2 * (size_t)size);
    if (!e->gen->lines) { eg_release(e); return NULL; }
    /* without it (no memory) the same moves are walked each time */
    if (in->line_cache_lg > 0) {
        int lg = in->line_cache_lg > 20 ? 20 : in->line_cache_lg;
        long recs = lg >= 12 ? LINE_RECS << (lg - 12) : LINE_RECS >> (12 - lg);
        e->line_cache = line_cache_new(lg, recs < LINE_RECS_MAX ? recs : LINE_RECS_MAX);
    }
    memcpy(e->bt, in->bt, sizeof(int32_t) * (size_t)area);
    memcpy(e->bv, in->bv, sizeof(int32_t) * (size_t)area);
    memcpy(e->xsum, in->xsum, sizeof(int32_t) * 2 * (size_t)area);
    memcpy(e->cross, in->cross, sizeof(uint64_t) * 2 * (size_t)area);
    e->cx = (CrossCtx){in->nodes, in->n_nodes, in->dawg_root, in->gaddag_root, NULL};
    memo_ready(&e->cx, e->memo);
    uint64_t seed = 0x5EEDE6ULL;
    for (int i = 0; i < area; i++)
        for (int t = 0; t < 2 * MAX_LETTERS; t++) e->k_sq[i][t] = splitmix(&seed);
    for (int p = 0; p < 2; p++)
        for (int t = 0; t < MAX_LETTERS; t++) e->k_rack[p][t] = splitmix(&seed);
    for (int k = 0; k <= EG_MAX_BAG; k++) e->k_bag[k] = splitmix(&seed);
    for (int k = 0; k < 8; k++) e->k_zeros[k] = splitmix(&seed);
    e->k_side[0] = splitmix(&seed);
    e->k_side[1] = splitmix(&seed);
    uint64_t h = 0;
    for (int i = 0; i < area; i++) {
        if (!in->bt[i]) continue;
        int t = in->bt[i];
        h ^= e->k_sq[i][in->bv[i] == 0 && in->tv[t] != 0 ? MAX_LETTERS + t : t];
    }
    for (int p = 0; p < 2; p++) {
        for (int t = 0; t < e->nl; t++) {
            e->rack[p][t] = in->rack[p][t];
            e->points[p] += in->rack[p][t] * in->tv[t];
            e->rack_hash[p] += (uint64_t)in->rack[p][t] * e->k_rack[p][t];
        }
        h ^= e->rack_hash[p];
    }
    h ^= e->k_bag[0] ^ e->k_zeros[0] ^ e->k_side[0];
    e->hash = h;
    e->max_nodes = in->max_nodes;
    e->next_check = EG_CHECK;
    return e;
}

void eg_prune(EgInput *in, uint32_t **owned) {
    *owned = NULL;
    int tiles[MAX_LETTERS] = {0};
    for (int t = 0; t < in->n_letters; t++) tiles[t] = in->rack[0][t] + in->rack[1][t];
    for (int k = 0; k < in->bag_len; k++) tiles[in->bag[k]]++;
    WordSet ws;
    if (wp_words(in->nodes, in->n_nodes, in->dawg_root, in->gaddag_root, in->size, in->bt,
                 tiles, in->n_letters, &ws) < 0)
        return;
    uint32_t *nodes;
    isize n;
    if (ws.n && wp_build(&ws, &nodes, &n) == 0) {
        in->nodes = nodes;
        in->n_nodes = n;
        in->dawg_root = nodes[0] & ARC;
        in->gaddag_root = nodes[1] & ARC;
        *owned = nodes;
    }
    wp_free(&ws);
}

int eg_root_moves(const EgInput *in, EgMove **out) {
    Eg *e = eg_make(in);
    if (!e) return -1;
    MoveList *l = &e->lists[0];
    int listed, rc = gen_moves(e, l, 1, &listed);
    int n = rc < 0 ? -1 : (int)l->n;
    *out = rc < 0 ? NULL : l->m;
    if (rc >= 0) l->m = NULL;
    eg_release(e);
    return n;
}

static int hopeless(const long *spent, int n, long nodes, long budget) {
    if (!budget || n < 2 || spent[n - 2] <= 0) return 0;
    double growth = (double)spent[n - 1] / (double)spent[n - 2];
    if (growth < 1.0) growth = 1.0;
    return (double)spent[n - 1] * growth > HOPELESS * (double)(budget - nodes);
}

int eg_solve(const EgInput *in, EgResult *out) {
    memset(out, 0, sizeof *out);
    Eg *e = eg_make(in);
    if (!e) return -1;
    EgMove *moves = NULL;
    RootLine *lines = NULL, *work = NULL;
    long *spent = NULL;
    int rc = -1;
    MoveList *l0 = &e->lists[0];
    int listed;
    if (gen_moves(e, l0, 1, &listed) < 0) goto done;
    int n_all = (int)l0->n;
    moves = malloc(sizeof(EgMove) * (size_t)(n_all + 1));
    lines = malloc(sizeof(RootLine) * (size_t)(n_all + 1));
    work = malloc(sizeof(RootLine) * (size_t)(n_all + 1));
    if (!moves || !lines || !work) goto done;
    memcpy(moves, l0->m, sizeof(EgMove) * (size_t)n_all);
    int n = 0;
    for (int i = 0; i < n_all; i++)
        if (!in->root_ok || in->root_ok[i]) lines[n++] = (RootLine){0, 0, 1, i};
    int tiles = 0;
    for (int p = 0; p < 2; p++)
        for (int t = 0; t < e->nl; t++) tiles += e->rack[p][t];
    int horizon = 2 * (tiles + in->bag_len) + 1;
    int top = in->max_depth && in->max_depth < horizon ? in->max_depth : horizon;
    spent = malloc(sizeof(long) * (size_t)(top + 1));
    if (!spent) goto done;
    int reached = 0, n_spent = 0, have = 0, stopped = EG_DEPTH;
    for (int depth = 1; depth <= top; depth++) {
        if (hopeless(spent, n_spent, e->nodes, e->max_nodes)) { stopped = EG_HOPELESS; break; }
        long before = e->nodes;
        memcpy(work, lines, sizeof(RootLine) * (size_t)n);
        root_depth(e, moves, work, n, depth, in->root_exact);
        if (e->stopped) { stopped = e->stopped; break; }
        memcpy(lines, work, sizeof(RootLine) * (size_t)n);
        have = 1;
        spent[n_spent++] = e->nodes - before;
        reached = depth;
        if (in->on_depth && n) in->on_depth(in->ctx, depth, e->nodes, lines[0].index, lines[0].value);
        int all = 1;
        for (int k = 0; k < n; k++) all = all && lines[k].done;
        if (all) { stopped = EG_PROVED; break; }
    }
    if (e->error) goto done;
    if (!have) { /* not even depth 1: each move valued by its gain alone */
        for (int k = 0; k < n; k++) {
            Undo u;
            int over;
            lines[k].value = play(e, &moves[lines[k].index], &u, &over);
            lines[k].done = over;
            lines[k].exact = 1;
            undo(e, &moves[lines[k].index], &u);
        }
        sort_lines(lines, n);
    }
    out->lines = calloc((size_t)n + 1, sizeof(EgLine));
    if (!out->lines) goto done;
    int proved = stopped == EG_PROVED;
    /* the principal variations within the same budget: a stop from here on only
     * shortens them */
    for (int k = 0; k < n; k++) {
        EgLine *ln = &out->lines[out->n_lines];
        int want = k == 0 || in->all_moves || (in->root_exact && in->root_exact[lines[k].index]);
        if (!want) continue;
        ln->move = moves[lines[k].index];
        ln->index = lines[k].index;
        ln->value = lines[k].value;
        ln->done = lines[k].done;
        ln->exact = lines[k].exact;
        if (follow_pv(e, &ln->move, reached, proved, ln) < 0) goto done;
        out->n_lines++;
    }
    out->depth = reached;
    out->stopped = stopped;
    out->nodes = e->nodes;
    out->root_moves = moves;
    out->n_root = n_all;
    moves = NULL;
    rc = 0;
done:
    out->error = e->error;
    free(moves);
    free(lines);
    free(work);
    free(spent);
    eg_release(e);
    if (rc < 0) eg_free(out);
    return rc;
}

void eg_free(EgResult *r) {
    for (int k = 0; k < r->n_lines; k++) free(r->lines[k].pv);
    free(r->lines);
    free(r->root_moves);
    r->lines = NULL;
    r->root_moves = NULL;
    r->n_lines = 0;
}
