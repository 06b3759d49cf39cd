/*
 * cross_sets.c: the cross-sets (one uint64 bit set per square and direction: the tiles
 * that form a word with the tiles above/below, resp. left/right) and cross-scores (the
 * value of those tiles, -1 for no neighbour) of an EngineBoard, with a memo of the
 * cross-sets of short runs of tiles kept per lexicon. Plain C: _gaddag.c's cross_sets()
 * and touched() read the Python buffers and call these. See cross_sets.h.
 */
#include <string.h>

#include "cross_sets.h"

static uint64_t allowed_between(const uint32_t *nodes, isize n, uint32_t root,
                                const int *prefix, int np, const int *suffix, int ns) {
    uint32_t group = root, nd;
    for (int k = 0; k < np; k++) {
        if (!group || !find_node(nodes, n, group, prefix[k], &nd)) return 0;
        group = nd & ARC;
    }
    if (!group) return 0;
    uint64_t mask = 0;
    for (isize i = group;; i++) {
        nd = node_at(nodes, n, i);
        int t = (int)(nd >> 24);
        if (ns) {
            uint32_t g = nd & ARC, m = 0;
            int ok = 0;
            for (int k = 0; k < ns; k++) {
                if (!g || !find_node(nodes, n, g, suffix[k], &m)) { ok = 0; break; }
                ok = (m & ACCEPTS) != 0;
                g = m & ARC;
            }
            if (ok && t < 64) mask |= 1ULL << t;
        } else if ((nd & ACCEPTS) && t < 64) {
            mask |= 1ULL << t;
        }
        if (nd & IS_END) break;
    }
    return mask & ~1ULL;
}

/* The tiles t for which prefix + t + suffix is a word, by the GADDAG: the full
 * reversal of a word is one of its paths, so walk the suffix backwards, then for each
 * sibling the prefix backwards (nothing when the prefix is empty: the siblings that
 * accept). The DAWG walks the suffix once per letter instead: this is for prefixes
 * shorter than the suffix. */
static uint64_t allowed_reversed(const uint32_t *nodes, isize n, uint32_t groot,
                                 const int *prefix, int np, const int *suffix, int ns) {
    uint32_t group = groot, nd;
    for (int k = ns - 1; k >= 0; k--) {
        if (!group || !find_node(nodes, n, group, suffix[k], &nd)) return 0;
        group = nd & ARC;
    }
    if (!group) return 0;
    uint64_t mask = 0;
    for (isize i = group;; i++) {
        nd = node_at(nodes, n, i);
        int t = (int)(nd >> 24), ok = (nd & ACCEPTS) != 0;
        if (np) {
            uint32_t g = nd & ARC, m = 0;
            ok = 0;
            for (int k = np - 1; k >= 0; k--) {
                if (!g || !find_node(nodes, n, g, prefix[k], &m)) { ok = 0; break; }
                ok = (m & ACCEPTS) != 0;
                g = m & ARC;
            }
        }
        if (ok && t > 0 && t < 64) mask |= 1ULL << t;
        if (nd & IS_END) break;
    }
    return mask;
}



/* the key of a run (np tiles before the square, ns after): 6 bits a tile, the counts,
 * and a top bit; 0 when the run cannot be a key (too long, or a tile beyond 63) */
static uint64_t pack_tiles(uint64_t key, const int *tiles, int n) {
    for (int k = 0; key && k < n; k++)
        key = tiles[k] < 1 || tiles[k] > 63 ? 0 : (key << 6) | (uint64_t)tiles[k];
    return key;
}

static uint64_t run_key(const int *prefix, int np, const int *suffix, int ns) {
    if (np + ns > MEMO_RUN) return 0;
    uint64_t key = pack_tiles(pack_tiles(1, prefix, np), suffix, ns);
    return key ? (key << 4) | (uint64_t)np : 0;
}

static uint64_t *memo_slot(uint64_t *memo, uint64_t key) {
    uint64_t i = (key * 0x9E3779B97F4A7C15ULL) >> (64 - MEMO_LG);
    return memo + MEMO_HEAD + 2 * i;
}

static uint64_t run_cross(const CrossCtx *cx, const int *prefix, int np, const int *suffix,
                          int ns) {
    uint64_t key = cx->memo ? run_key(prefix, np, suffix, ns) : 0, *slot = NULL;
    if (key) {
        slot = memo_slot(cx->memo, key);
        if (slot[0] == key) return slot[1];
    }
    uint64_t mask =
        np < ns && cx->groot
            ? allowed_reversed(cx->nodes, cx->nn, cx->groot, prefix, np, suffix, ns)
            : allowed_between(cx->nodes, cx->nn, cx->root, prefix, np, suffix, ns);
    if (slot) {
        slot[0] = key;
        slot[1] = mask;
    }
    return mask;
}

/* the memo's buffer ready for the lexicon of cx (emptied when its header says another) */
void memo_ready(CrossCtx *cx, uint64_t *memo) {
    uint64_t head[MEMO_HEAD] = {MEMO_MAGIC, (uint64_t)cx->nn, cx->root, cx->groot,
                                (uint64_t)(uintptr_t)cx->nodes};
    if (memcmp(memo, head, sizeof head)) {
        memset(memo, 0, sizeof(uint64_t) * MEMO_WORDS);
        memcpy(memo, head, sizeof head);
    }
    cx->memo = memo;
}

/* cross-set and cross-score (at `at`) of the empty square f, square k of its line across
 * the plays (step apart), with the np tiles just before it (worth pv): the tiles just
 * after it are read here; every tile and no cross-score when it has no neighbour */
static void empty_cross(const CrossCtx *cx, int size, const int32_t *bt, const int32_t *bv,
                        int f, int k, int step, int at, const int *prefix, int np, int32_t pv,
                        uint64_t full, uint64_t *cross, int32_t *xsum) {
    int suffix[MAX_SIZE], ns = 0;
    int32_t total = pv;
    for (int m = k + 1, j = f + step; m < size && bt[j]; m++, j += step) {
        suffix[ns++] = bt[j];
        total += bv[j];
    }
    cross[at] = np || ns ? run_cross(cx, prefix, np, suffix, ns) : full;
    xsum[at] = np || ns ? total : -1;
}

/* cross-set and cross-score of square i for plays in direction dir (0 across) */
void one_cross(const CrossCtx *cx, int size, const int32_t *bt, const int32_t *bv, int i,
                      int dir, uint64_t full, uint64_t *cross, int32_t *xsum) {
    int at = dir * size * size + i;
    if (bt[i]) { cross[at] = 0; xsum[at] = -1; return; }
    int step = dir == 0 ? size : 1, k = dir == 0 ? i / size : i % size;
    int prefix[MAX_SIZE], np = 0, m = k, j = i;
    int32_t pv = 0;
    while (m > 0 && bt[j - step]) { j -= step; m--; }
    for (; j != i; j += step) { prefix[np++] = bt[j]; pv += bv[j]; }
    empty_cross(cx, size, bt, bv, i, k, step, at, prefix, np, pv, full, cross, xsum);
}

/* one_cross for every square of a line across the direction's plays (dir 0: a column,
 * square k of it in row k), in one pass: the run of tiles before each empty square is
 * the one the pass has just gone through */
void line_cross(const CrossCtx *cx, int size, const int32_t *bt, const int32_t *bv,
                       int dir, int line, uint64_t full, uint64_t *cross, int32_t *xsum) {
    int area = size * size, step = dir == 0 ? size : 1, first = dir == 0 ? line : line * size;
    int run[MAX_SIZE], nrun = 0; /* the tiles just before square k */
    int32_t runv = 0;
    for (int k = 0, f = first; k < size; k++, f += step) {
        int at = dir * area + f;
        if (bt[f]) {
            cross[at] = 0;
            xsum[at] = -1;
            run[nrun++] = bt[f];
            runv += bv[f];
            continue;
        }
        empty_cross(cx, size, bt, bv, f, k, step, at, run, nrun, runv, full, cross, xsum);
        nrun = 0;
        runv = 0;
    }
}

/* touched_mark, with each square marked for the first time appended to list (when not
 * NULL) */
static inline void touch(const int32_t *b, int size, int f, uint8_t *mark, uint16_t *list,
                         int *n) {
    static const int DR[4] = {-1, 1, 0, 0}, DC[4] = {0, 0, -1, 1};
    if (list && !mark[f]) list[(*n)++] = (uint16_t)f;
    mark[f] = 3;
    int r = f / size, c = f % size;
    for (int d = 0; d < 4; d++) {
        int rr = r + DR[d], cc = c + DC[d];
        while (rr >= 0 && rr < size && cc >= 0 && cc < size && b[rr * size + cc]) {
            rr += DR[d];
            cc += DC[d];
        }
        if (rr < 0 || rr >= size || cc < 0 || cc >= size) continue;
        int j = rr * size + cc;
        if (list && !mark[j]) list[(*n)++] = (uint16_t)j;
        /* past a column's run: its cross-set across (1); past a row's: down (2) */
        mark[j] |= d < 2 ? 1 : 2;
    }
}

void touched_mark(const int32_t *b, int size, int f, uint8_t *mark) {
    touch(b, size, f, mark, NULL, NULL);
}

void touched_list(const int32_t *b, int size, int f, uint8_t *mark, uint16_t *list, int *n) {
    touch(b, size, f, mark, list, n);
}

void cross_update(const CrossCtx *cx, int size, const int32_t *bt, const int32_t *bv,
                  const uint16_t *flat, int n, uint64_t full, uint64_t *cross, int32_t *xsum,
                  CrossSaved *sv) {
    int area = size * size;
    uint8_t mark[MAX_SIZE * MAX_SIZE];
    memset(mark, 0, (size_t)area);
    for (int k = 0; k < n; k++) touched_mark(bt, size, flat[k], mark);
    sv->n = 0;
    for (int i = 0; i < area; i++) {
        if (!mark[i]) continue;
        int s = sv->n++;
        sv->sq[s] = (uint16_t)i;
        for (int d = 0; d < 2; d++) {
            sv->cross[s][d] = cross[d * area + i];
            sv->xsum[s][d] = xsum[d * area + i];
            if ((mark[i] >> d) & 1) one_cross(cx, size, bt, bv, i, d, full, cross, xsum);
        }
    }
}

void cross_restore(int area, uint64_t *cross, int32_t *xsum, const CrossSaved *sv) {
    for (int s = 0; s < sv->n; s++) {
        int i = sv->sq[s];
        for (int d = 0; d < 2; d++) {
            cross[d * area + i] = sv->cross[s][d];
            xsum[d * area + i] = sv->xsum[s][d];
        }
    }
}
