/*
 * simulation.c: one sample of the simulation (see simulation.h). Python reference:
 * gcgtools/analysis/simulate.py (_Sampler._sample, _value), gcgtools/analysis/playout.py
 * (advance, _maybe_over, play_best) and gcgtools/analysis/winprob.py (probability).
 */
#include "simulation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SIM_FOUND 64 /* best plays kept per iteration for the floors */
#define RACK_SLOTS 6  /* racks whose shadow, leaves and bounds are kept */

typedef struct {
    int len, rack[MAX_RACK]; /* the rack, in its order (len -1: none) */
    long used;
    Shadow shadow;
    double leave[SUB_MAX];
    BoundCache bounds;
} RackSlot;
#define BOARD_WORDS (MAX_SIZE * MAX_SIZE / 64)

struct Sim {
    const SimInput *in;
    int area, on_board;
    int32_t *bt, *bv, *xsum;
    uint64_t *cross;
    CrossCtx cx;
    Gen *gen;
    Found found;
    double *leave; /* by leave code */
    int kind_code[MAX_KINDS]; /* the KWG index of each kind of the rack last loaded */
    /* the last iteration's draw: its digest, the generator after its shuffle, the tiles */
    int have_draw;
    uint8_t digest[16];
    SimRng rng;
    int tiles[SIM_MAX_TILES];
    /* racks searched lately (before the bag is empty), each with its shadow
     * (make_shadow), its leave values and its anchors' first bounds line by line: the
     * opponent's reply has the same rack whatever the candidate, and candidates of the
     * same leave and as many tiles give us the same rack after them; the one used least
     * lately is replaced */
    RackSlot *slots;
    long clock;
    /* the squares played on since the position (the candidate's, each ply's) */
    uint64_t placed[BOARD_WORDS];
    /* the best plays found this iteration: the rack (its tiles sorted), the play's
     * equity, the squares whose tiles make its words what they are (its words' squares
     * and the square past each end: close) and the squares played on before it (placed).
     * On a board where none of its close squares differ (they are not among either
     * board's placed squares), a rack of the same tiles has that play again, of that
     * equity: a floor for its search (Found.floor) */
    int n_found;
    struct {
        int len, rack[MAX_RACK];
        double eq;
        uint64_t close[BOARD_WORDS], placed[BOARD_WORDS];
    } found_plays[SIM_FOUND];
};

/* ------------------------------------------------------------------ random.Random */
#define MT_M 397

static void mt_init(SimRng *r, uint32_t s) {
    r->mt[0] = s;
    for (int i = 1; i < SIM_MT_N; i++)
        r->mt[i] = 1812433253U * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->mti = SIM_MT_N;
}

static void mt_by_array(SimRng *r, const uint32_t *key, int len) {
    mt_init(r, 19650218U);
    uint32_t *mt = r->mt;
    int i = 1, j = 0;
    for (int k = SIM_MT_N > len ? SIM_MT_N : len; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= SIM_MT_N) { mt[0] = mt[SIM_MT_N - 1]; i = 1; }
        if (j >= len) j = 0;
    }
    for (int k = SIM_MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= SIM_MT_N) { mt[0] = mt[SIM_MT_N - 1]; i = 1; }
    }
    mt[0] = 0x80000000U;
}

static uint32_t mt_next(SimRng *r) {
    static const uint32_t mag[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = r->mt, y;
    if (r->mti >= SIM_MT_N) {
        int k;
        for (k = 0; k < SIM_MT_N - MT_M; k++) {
            y = (mt[k] & 0x80000000U) | (mt[k + 1] & 0x7fffffffU);
            mt[k] = mt[k + MT_M] ^ (y >> 1) ^ mag[y & 1U];
        }
        for (; k < SIM_MT_N - 1; k++) {
            y = (mt[k] & 0x80000000U) | (mt[k + 1] & 0x7fffffffU);
            mt[k] = mt[k + (MT_M - SIM_MT_N)] ^ (y >> 1) ^ mag[y & 1U];
        }
        y = (mt[SIM_MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[SIM_MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag[y & 1U];
        r->mti = 0;
    }
    y = mt[r->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

void sim_rng_seed(SimRng *r, const uint8_t *digest) {
    /* the number's 32-bit words, least significant first, as many as its bits need */
    uint32_t key[4];
    int len = 1;
    for (int w = 0; w < 4; w++) {
        const uint8_t *b = digest + 12 - 4 * w;
        key[w] = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
        if (key[w]) len = w + 1;
    }
    mt_by_array(r, key, len);
}

long sim_randbelow(SimRng *r, long n) {
    int k = 0;
    while ((1L << k) <= n) k++; /* n.bit_length() */
    uint32_t x;
    do {
        x = k ? mt_next(r) >> (32 - k) : 0;
    } while ((long)x >= n);
    return (long)x;
}

void sim_shuffle(SimRng *r, int *x, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)sim_randbelow(r, i + 1), t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

/* ------------------------------------------------------------------ the board */
Sim *sim_new(const SimInput *in, const int32_t *bt, const int32_t *bv, const uint64_t *cross,
             const int32_t *xsum) {
    Sim *s = calloc(1, sizeof(Sim));
    if (!s) return NULL;
    s->in = in;
    int area = s->area = in->size * in->size;
    s->bt = malloc(sizeof(int32_t) * (size_t)area);
    s->bv = malloc(sizeof(int32_t) * (size_t)area);
    s->xsum = malloc(sizeof(int32_t) * 2 * (size_t)area);
    s->cross = malloc(sizeof(uint64_t) * 2 * (size_t)area);
    s->gen = malloc(sizeof(Gen));
    s->leave = malloc(sizeof(double) * MAX_CODES);
    s->slots = calloc(RACK_SLOTS, sizeof(RackSlot));
    Line *lines = malloc(sizeof(Line) * 2 * (size_t)in->size);
    if (!s->bt || !s->bv || !s->xsum || !s->cross || !s->gen || !s->leave || !s->slots ||
        !lines) {
        free(lines);
        sim_free(s);
        return NULL;
    }
    s->gen->lines = lines;
    memcpy(s->bt, bt, sizeof(int32_t) * (size_t)area);
    memcpy(s->bv, bv, sizeof(int32_t) * (size_t)area);
    memcpy(s->xsum, xsum, sizeof(int32_t) * 2 * (size_t)area);
    memcpy(s->cross, cross, sizeof(uint64_t) * 2 * (size_t)area);
    for (int i = 0; i < area; i++) s->on_board += bt[i] != 0;
    s->cx = (CrossCtx){in->nodes, in->n_nodes, in->dawg_root, in->gaddag_root, NULL};
    for (int k = 0; k < RACK_SLOTS; k++) s->slots[k].len = -1;
    if (in->memo) memo_ready(&s->cx, in->memo);
    return s;
}

void sim_free(Sim *s) {
    if (!s) return;
    if (s->gen) free(s->gen->lines);
    free(s->gen);
    free(s->bt);
    free(s->bv);
    free(s->xsum);
    free(s->cross);
    free(s->leave);
    if (s->slots)
        for (int k = 0; k < RACK_SLOTS; k++) bound_cache_free(&s->slots[k].bounds);
    free(s->slots);
    free(s->found.recs);
    free(s);
}

static inline void bit_set(uint64_t *b, int i) { b[i >> 6] |= 1ULL << (i & 63); }
static inline int bit_get(const uint64_t *b, int i) { return (int)((b[i >> 6] >> (i & 63)) & 1); }

/* m's new tiles onto the board (EngineBoard.play); what it changed into sv */
static void board_play(Sim *s, const SimMove *m, CrossSaved *sv) {
    sv->n = 0;
    if (m->kind != KIND_PLAY || !m->n) return;
    for (int k = 0; k < m->n; k++) {
        int f = m->flat[k], c = m->code[k], t = c & ~BLANK_BIT;
        s->bt[f] = t;
        s->bv[f] = (c & BLANK_BIT) ? 0 : s->in->tv[t];
    }
    s->on_board += m->n;
    for (int k = 0; k < m->n; k++) bit_set(s->placed, m->flat[k]);
    cross_update(&s->cx, s->in->size, s->bt, s->bv, m->flat, m->n, s->in->full, s->cross,
                 s->xsum, sv);
}

static void board_undo(Sim *s, const SimMove *m, const CrossSaved *sv) {
    if (m->kind != KIND_PLAY || !m->n) return;
    for (int k = 0; k < m->n; k++) {
        s->bt[m->flat[k]] = s->bv[m->flat[k]] = 0;
        s->placed[m->flat[k] >> 6] &= ~(1ULL << (m->flat[k] & 63));
    }
    s->on_board -= m->n;
    cross_restore(s->area, s->cross, s->xsum, sv);
}

/* ------------------------------------------------------------------ the game */
/* GameState: racks in their order (KWG index, 0 for a blank), the bag drawn from its end */
typedef struct {
    int rack[2][MAX_RACK], len[2];
    int bag[SIM_MAX_TILES], bag_len;
    int scores[2], to_move, zeros, over;
} Game;

static int rack_points(const SimInput *in, const Game *gm, int p) {
    int v = 0;
    for (int k = 0; k < gm->len[p]; k++) v += in->tv[gm->rack[p][k]];
    return v;
}

/* the first tile t off player p's rack (list.remove) */
static int rack_remove(Game *gm, int p, int t) {
    int *r = gm->rack[p], n = gm->len[p];
    for (int k = 0; k < n; k++) {
        if (r[k] != t) continue;
        memmove(r + k, r + k + 1, sizeof(int) * (size_t)(n - k - 1));
        gm->len[p]--;
        return 0;
    }
    return -1;
}

/* playout._maybe_over */
static void maybe_over(const SimInput *in, Game *gm, int mover) {
    if (!gm->bag_len && !gm->len[mover]) {
        int other = 1 - mover, left = rack_points(in, gm, other);
        gm->scores[mover] += in->out_factor * left;
        if (in->deducts_own) gm->scores[other] -= left;
        gm->over = 1;
    } else if (gm->zeros >= in->max_zeros) {
        int left0 = rack_points(in, gm, 0), left1 = rack_points(in, gm, 1);
        gm->scores[0] -= left0;
        gm->scores[1] -= left1;
        gm->over = 1;
    }
}

/* playout.advance: m made by the player to move (the tiles leave the rack, the rack is
 * filled from the bag, an exchange's tiles go back at random places) */
static int advance(const SimInput *in, Game *gm, const SimMove *m, SimRng *rng) {
    int p = gm->to_move;
    for (int k = 0; k < m->n; k++) {
        int c = m->code[k];
        int t = m->kind == KIND_PLAY ? ((c & BLANK_BIT) ? 0 : c) : c;
        if (rack_remove(gm, p, t) < 0) return -1;
    }
    int need = in->rack_size - gm->len[p];
    if (m->kind != KIND_PASS && need > 0) {
        int take = need < gm->bag_len ? need : gm->bag_len;
        for (int k = gm->bag_len - take; k < gm->bag_len; k++)
            gm->rack[p][gm->len[p]++] = gm->bag[k];
        gm->bag_len -= take;
    }
    if (m->kind == KIND_EXCHANGE) {
        for (int k = 0; k < m->n; k++) {
            int at = (int)sim_randbelow(rng, gm->bag_len + 1);
            memmove(gm->bag + at + 1, gm->bag + at, sizeof(int) * (size_t)(gm->bag_len - at));
            gm->bag[at] = m->code[k];
            gm->bag_len++;
        }
    }
    gm->scores[p] += m->score;
    gm->zeros = m->kind == KIND_PLAY ? 0 : gm->zeros + 1;
    gm->to_move = 1 - p;
    maybe_over(in, gm, p);
    return 0;
}

/* ------------------------------------------------------------------ the best move */
/* the slot of the rack of the player to move: 1 when it was kept (its leaves then
 * copied into s->leave), 0 when it takes the slot used least lately (*slot) */
static int rack_slot(Sim *s, const Game *gm, RackSlot **slot) {
    int p = gm->to_move, n = gm->len[p], oldest = 0;
    for (int k = 0; k < RACK_SLOTS; k++) {
        RackSlot *r = &s->slots[k];
        if (r->len == n && !memcmp(r->rack, gm->rack[p], sizeof(int) * (size_t)n)) {
            r->used = ++s->clock;
            memcpy(s->leave, r->leave, sizeof(double) * (size_t)(s->gen->rack_code + 1));
            *slot = r;
            return 1;
        }
        if (r->used < s->slots[oldest].used) oldest = k;
    }
    RackSlot *r = *slot = &s->slots[oldest];
    r->len = -1; /* filled once its leaves are known */
    r->used = ++s->clock;
    for (int li = 0; li < 2 * MAX_SIZE; li++)
        for (int w = 0; w < BOUND_WAYS; w++) r->bounds.lines[li][w].valid = 0;
    return 0;
}

/* every leave code's value by the built-in heuristic (HeuristicLeaves._compute: the
 * tiles' values, less a penalty for each copy of a letter after the first and for
 * vowels and consonants out of balance; every value a multiple of a half, so the sums
 * are exact in any order), 0 for the empty leave */
static void heuristic_leaves(const SimInput *in, const Kinds *kd, const int *code_of,
                             double *out) {
    out[0] = 0.0;
    for (isize code = 1; code < kd->n_codes; code++) {
        long rest = (long)code, vowels = 0, consonants = 0;
        double v = 0.0;
        for (int k = 0; k < kd->n_kinds; k++) {
            long d = rest % (kd->count[k] + 1);
            rest /= kd->count[k] + 1;
            int t = code_of[k];
            v += (double)d * in->h_tile[t];
            if (!t || !d) continue;
            v -= in->h_dup * (double)(d - 1);
            if (in->h_vowel[t]) vowels += d;
            else consonants += d;
        }
        long off = labs(vowels - consonants) - 1;
        out[code] = v - in->h_balance * (double)(off > 0 ? off : 0);
    }
}

/* the rack's kinds in the order they come (rack_parts), their leave values into s->leave
 * (EngineBoard._inputs, leave_values in _gaddag.c), and the Gen set for them */
static long load_rack(Sim *s, const Game *gm, Kinds *kd) {
    const SimInput *in = s->in;
    int p = gm->to_move, nl = in->n_letters, endgame = gm->bag_len <= 0;
    Gen *g = s->gen;
    gen_start(g, in->nodes, in->n_nodes, in->gaddag_root, in->size, in->rack_size,
              in->bingo_bonus, endgame);
    memset(kd, 0, sizeof *kd);
    int kind_of[MAX_LETTERS], *code_of = s->kind_code;
    for (int t = 0; t < nl; t++) kind_of[t] = -1;
    for (int k = 0; k < gm->len[p]; k++) {
        int t = gm->rack[p][k];
        if (kind_of[t] < 0) {
            kind_of[t] = kd->n_kinds;
            code_of[kd->n_kinds++] = t;
        }
        kd->count[kind_of[t]]++;
    }
    long radix = 1, total = gm->len[p];
    for (int k = 0; k < kd->n_kinds; k++) {
        int t = code_of[k], r = k;
        kd->radix[k] = radix;
        kd->points[k] = in->tv[t];
        kd->klv[k] = in->klv_num[t];
        radix *= kd->count[k] + 1;
        for (; r > 0 && in->rank[code_of[kd->order[r - 1]]] > in->rank[t]; r--)
            kd->order[r] = kd->order[r - 1];
        kd->order[r] = k;
    }
    kd->n_codes = radix;
    for (int t = 0; t < nl; t++) {
        int k = kind_of[t];
        g->rc[t] = k < 0 ? 0 : (int)kd->count[k];
        g->radix[t] = k < 0 ? 0 : (int32_t)kd->radix[k];
        g->tv[t] = in->tv[t];
        g->nmax += g->rc[t];
        if (t > 0 && g->rc[t]) g->rmask |= 1ULL << t;
    }
    g->rack_code = (int32_t)(radix - 1);
    g->leave = s->leave;
    if (endgame) g->going_out = (double)(in->out_factor * rack_points(in, gm, 1 - p));
    RackSlot *slot = NULL;
    int keep = !endgame && total > 0 && radix <= SUB_MAX;
    if (keep && rack_slot(s, gm, &slot)) { /* its leaves, shadow and bounds kept */
        g->shadow = &slot->shadow;
        g->shadow_ready = 1;
        g->bounds = &slot->bounds;
        return total;
    }
    if (endgame) {
        endgame_leaves(kd, s->leave);
    } else if (in->klv.nodes) {
        int order[MAX_KINDS];
        klv_leaves(&in->klv, kd, order, s->leave);
        if (total == in->klv_longest + 1 && radix > 1) split_full_leave(kd, order, s->leave);
    } else if (in->heuristic) {
        heuristic_leaves(in, kd, s->kind_code, s->leave);
    } else {
        for (long c = 0; c < radix; c++) s->leave[c] = 0.0;
    }
    if (keep) { /* kept for the next search of this rack */
        slot->len = gm->len[p];
        memcpy(slot->rack, gm->rack[p], sizeof(int) * (size_t)gm->len[p]);
        memcpy(slot->leave, s->leave, sizeof(double) * (size_t)radix);
        g->shadow = &slot->shadow;
        g->shadow_ready = 0;
        g->bounds = &slot->bounds;
    }
    return total;
}

/* the Rec r as a SimMove */
static void from_rec(const Sim *s, const Kinds *kd, const Rec *r, SimMove *m) {
    const Gen *g = s->gen;
    memset(m, 0, sizeof *m);
    m->kind = r->kind;
    m->score = r->score;
    m->leave_value = (r->kind == KIND_PLAY && g->endgame && r->code == 0) ? g->going_out
                                                                          : g->leave[r->code];
    if (r->kind == KIND_PLAY) {
        for (int pos = r->start; pos <= r->end; pos++) {
            if (!((r->mask >> pos) & 1)) continue;
            m->flat[m->n] = (uint16_t)(r->across ? r->line * s->in->size + pos
                                                 : pos * s->in->size + r->line);
            m->code[m->n++] = r->cells[pos];
        }
        m->bingo = m->n >= s->in->rack_size;
    } else if (r->kind == KIND_EXCHANGE) {
        long rest = (long)(kd->n_codes - 1) - r->code; /* the tiles thrown, by text */
        long digit[MAX_KINDS];
        for (int k = 0; k < kd->n_kinds; k++) {
            digit[k] = rest % (kd->count[k] + 1);
            rest /= kd->count[k] + 1;
        }
        for (int q = 0; q < kd->n_kinds; q++) {
            int k = (int)kd->order[q];
            for (long d = 0; d < digit[k]; d++) m->code[m->n++] = (uint8_t)s->kind_code[k];
        }
    }
}

/* play_best: the best move of the player to move (EngineBoard.generate_best); floor:
 * NULL, or the equity of a move known to be there (Found.floor) */
static int best_move(Sim *s, const Game *gm, const double *floor, SimMove *out) {
    const SimInput *in = s->in;
    Kinds kd;
    long total = load_rack(s, gm, &kd);
    Gen *g = s->gen;
    GenBoard b = {s->bt, s->bv, in->lm, in->wm, s->xsum, s->cross, in->ana, in->words,
                  in->ana_items, in->words_items, in->n_letters};
    long exchange_bag = gm->bag_len >= in->exchange_min ? gm->bag_len : -1;
    for (;;) {
        s->found.n = 0;
        s->found.top = 1;
        s->found.has_floor = floor != NULL;
        s->found.floor = floor ? *floor : 0.0;
        g->found = &s->found;
        if (other_moves(g, &kd, total, exchange_bag) < 0) return -1;
        if (find_moves(g, &b, &kd, total, s->on_board ? -1 : in->centre) < 0) return -1;
        if (!floor || s->found.recs[0].eq >= *floor) break;
        floor = NULL; /* not there after all (never seen): the search again, without it */
        load_rack(s, gm, &kd);
    }
    s->found.has_floor = 0;
    from_rec(s, &kd, &s->found.recs[0], out);
    return 0;
}

/* ------------------------------------------------------------------ reply floors */

/* the squares that make the words of the play r (found on the board as it stands): its
 * main word's squares and the square past each end, and the same for each new tile's
 * cross-word */
static void play_closure(const Sim *s, const Rec *r, uint64_t *close) {
    int size = s->in->size, across = r->across;
    memset(close, 0, sizeof(uint64_t) * (MAX_SIZE * MAX_SIZE / 64));
    for (int pos = r->start - 1; pos <= r->end + 1; pos++)
        if (pos >= 0 && pos < size) bit_set(close, across ? r->line * size + pos : pos * size + r->line);
    for (int pos = r->start; pos <= r->end; pos++) {
        if (!((r->mask >> pos) & 1)) continue;
        int row = across ? r->line : pos, col = across ? pos : r->line;
        int at = across ? row : col; /* along the cross-word */
        for (int d = -1; d <= 1; d += 2)
            for (int x = at + d; x >= 0 && x < size; x += d) {
                int q = across ? x * size + col : row * size + x;
                bit_set(close, q);
                if (!s->bt[q]) break;
            }
    }
}

/* player p's tiles, sorted */
static int sorted_rack(const Game *gm, int p, int *out) {
    int n = gm->len[p];
    for (int k = 0; k < n; k++) {
        int t = gm->rack[p][k], r = k;
        for (; r > 0 && out[r - 1] > t; r--) out[r] = out[r - 1];
        out[r] = t;
    }
    return n;
}

static int meets(const uint64_t *a, const uint64_t *b, int words) {
    for (int w = 0; w < words; w++)
        if (a[w] & b[w]) return 1;
    return 0;
}

/* the best equity of the plays found this iteration for a rack of these tiles that are
 * there on this board too (see Sim.found_plays); 0: none */
static int found_floor(const Sim *s, const Game *gm, double *floor) {
    int rack[MAX_RACK], n = sorted_rack(gm, gm->to_move, rack), found = 0;
    int words = (s->area + 63) / 64;
    for (int k = 0; k < s->n_found; k++) {
        const uint64_t *close = s->found_plays[k].close;
        if (s->found_plays[k].len != n || (found && s->found_plays[k].eq <= *floor) ||
            memcmp(s->found_plays[k].rack, rack, sizeof(int) * (size_t)n) != 0 ||
            meets(close, s->placed, words) || meets(close, s->found_plays[k].placed, words))
            continue;
        *floor = s->found_plays[k].eq;
        found = 1;
    }
    return found;
}

/* keep the best play just found (s->found.recs[0]) for the floors */
static void keep_found(Sim *s, const Game *gm) {
    const Rec *r = &s->found.recs[0];
    if (r->kind != KIND_PLAY || s->n_found >= SIM_FOUND) return;
    int k = s->n_found++;
    s->found_plays[k].len = sorted_rack(gm, gm->to_move, s->found_plays[k].rack);
    s->found_plays[k].eq = r->eq;
    play_closure(s, r, s->found_plays[k].close);
    memcpy(s->found_plays[k].placed, s->placed, sizeof s->placed);
}

/* ------------------------------------------------------------------ the end's value */
static double decided(double spread) { return spread > 0 ? 1.0 : spread == 0 ? 0.5 : 0.0; }

/* WinModel.probability (winprob.py: LogisticWinModel, TableWinModel) */
static double probability(const SimInput *in, double spread, int unseen) {
    spread = spread > 1e9 ? 1e9 : spread < -1e9 ? -1e9 : spread;
    if (unseen <= 0) return decided(spread);
    if (in->model == SIM_TABLE) {
        long x = spread >= 0 ? (long)floor(spread + 0.5) : -(long)floor(-spread + 0.5);
        long m = in->max_spread;
        x = x > m ? m : x < -m ? -m : x;
        int row = (unseen < in->rows ? unseen : in->rows) - 1;
        return in->table[(isize)row * (2 * m + 1) + x + m];
    }
    double u = (double)(unseen < 10000 ? unseen : 10000);
    double scale = sqrt(in->s0 * in->s0 + in->s1 * in->s1 * u);
    double z = (spread + in->m0 + in->m1 * u) / scale;
    if (z >= 0) return 1.0 / (1.0 + exp(-z));
    double e = exp(z);
    return e / (1.0 + e);
}

/* _Sampler._value: the root player's win probability and spread plus leftover */
static void value(const SimInput *in, const Game *gm, const int *made_p, const double *made_v,
                  int n_made, SimSample *out) {
    double spread = (double)(gm->scores[0] - gm->scores[1]);
    if (gm->over) {
        out->win = decided(spread);
        out->spread = spread;
        return;
    }
    double left = 0.0;
    for (int k = n_made >= 2 ? n_made - 2 : 0; k < n_made; k++)
        left = left + (made_p[k] == 0 ? made_v[k] : -made_v[k]);
    double total = spread + left;
    out->spread = total;
    if (gm->to_move == 0)
        out->win = probability(in, total, gm->bag_len + gm->len[1]);
    else
        out->win = 1.0 - probability(in, -total, gm->bag_len + gm->len[0]);
}

/* ------------------------------------------------------------------ a sample */
int sim_sample(Sim *s, int cand, const uint8_t *digest, SimSample *out) {
    const SimInput *in = s->in;
    int n = in->n_unseen, *tiles = s->tiles;
    if (!s->have_draw || memcmp(s->digest, digest, 16) != 0) { /* a new iteration */
        sim_rng_seed(&s->rng, digest);
        memcpy(tiles, in->unseen, sizeof(int) * (size_t)n);
        sim_shuffle(&s->rng, tiles, n);
        memcpy(s->digest, digest, 16);
        s->have_draw = 1;
        s->n_found = 0;
    }
    SimRng rng = s->rng;
    Game gm;
    int opp = n < in->rack_size ? n : in->rack_size;
    memcpy(gm.rack[0], in->rack, sizeof(int) * (size_t)in->rack_len);
    gm.len[0] = in->rack_len;
    memcpy(gm.rack[1], tiles, sizeof(int) * (size_t)opp);
    gm.len[1] = opp;
    memcpy(gm.bag, tiles + opp, sizeof(int) * (size_t)(n - opp));
    gm.bag_len = n - opp;
    gm.scores[0] = in->scores[0];
    gm.scores[1] = in->scores[1];
    gm.to_move = 0;
    gm.zeros = in->zeros;
    gm.over = 0;
    SimMove moves[SIM_MAX_PLIES + 1];
    CrossSaved saved[SIM_MAX_PLIES + 1];
    int made_p[SIM_MAX_PLIES + 1], n_made = 0, rc = 0;
    double made_v[SIM_MAX_PLIES + 1];
    out->reply_score = out->reply_bingo = out->follow_score = out->follow_bingo = -1;
    for (int ply = 0; ply <= in->plies && !gm.over; ply++) {
        SimMove *m = &moves[n_made];
        int mover = gm.to_move, before = gm.bag_len;
        if (ply == 0) {
            *m = in->cands[cand];
        } else {
            /* a floor from the plays found on the other candidates' boards (the bag not
             * empty: an equity that does not depend on the other rack) */
            double floor;
            int floors = gm.bag_len > 0 && s->on_board > 0;
            int bad = best_move(s, &gm, floors && found_floor(s, &gm, &floor) ? &floor : NULL, m);
            if (bad < 0) {
                rc = -1;
                break;
            }
            if (floors) keep_found(s, &gm);
        }
        board_play(s, m, &saved[n_made]);
        made_p[n_made] = mover;
        made_v[n_made] = before ? m->leave_value : 0.0;
        n_made++;
        if (advance(in, &gm, m, &rng) < 0) {
            rc = -1;
            break;
        }
        if (ply == 1) {
            out->reply_score = m->score;
            out->reply_bingo = m->bingo;
        } else if (ply == 2) {
            out->follow_score = m->score;
            out->follow_bingo = m->bingo;
        }
    }
    if (!rc) value(in, &gm, made_p, made_v, n_made, out);
    while (n_made--) board_undo(s, &moves[n_made], &saved[n_made]);
    return rc;
}
