/*
 * generation.h: one generation's state and what it finds (plain C), shared by the walk
 * (generation.c) and the bounds (shadow.c). The module file (_gaddag.c) reads the
 * EngineInputs into a Gen, a GenBoard and the rack's Kinds, and builds Move objects from
 * the Found records. Python twin: gcgtools/movegen/plays.py (find_plays) and
 * gcgtools/movegen/core.py (python_moves); the equality tests are listed in generation.c.
 */
#ifndef GCGTOOLS_GENERATION_H
#define GCGTOOLS_GENERATION_H

#include <math.h>
#include <stdlib.h>

#include "leaves.h"
#include "word_index.h"

/* the board's buffers and the lexicon's tables, as one generation reads them (an
 * EngineBoard's: tiles, values, premiums, cross-sets and cross-scores; the anagram and
 * word indexes or NULL) */
typedef struct {
    const int32_t *bt, *bv, *lm, *wm, *xsum;
    const uint64_t *cross;
    const uint64_t *ana, *words;
    isize ana_items, words_items;
    int n_letters; /* alphabet size, the separator included */
} GenBoard;

typedef struct {
    double eq;
    uint64_t ord;   /* the order of the full generation: ties keep it */
    int32_t score;
    int32_t code;   /* leave code */
    uint32_t mask;  /* new squares, bit by position along the line */
    uint8_t kind, across, line, start, end, n;
    uint8_t anchor; /* the square along the line it was found from */
    uint8_t cells[MAX_SIZE];
} Rec;

typedef struct {
    Rec *recs;
    isize n, cap;
    isize top; /* 0: keep all; else a heap of the `top` best (worst at the root) */
    /* with has_floor (top 1 only): the equity of a move known to be there (the caller
     * knows it from another board: the simulation's replies), which prunes as a found
     * move of that equity would; the search still finds the first best move */
    int has_floor;
    double floor;
} Found;

/* the equity a move must beat to be kept (-inf while the heap is not full), or the
 * floor when that is higher */
static inline double threshold(const Found *f) {
    double t = (f->top && f->n >= f->top) ? f->recs[0].eq : -INFINITY;
    return (f->has_floor && f->floor > t) ? f->floor : t;
}

/* one line's squares, as a generation reads them (along the line, for plays in its
 * direction): tiles, values, premiums, cross-sets and cross-scores; cap by line_caps */
typedef struct {
    int bt[MAX_SIZE];
    int32_t bv[MAX_SIZE], lm[MAX_SIZE], wm[MAX_SIZE], xs[MAX_SIZE];
    uint64_t xc[MAX_SIZE];
    int cap[MAX_SIZE];
} Line;

struct Shadow;
struct BoundCache;

/* a buffer kept between calls, grown when more is asked of it (kept_get: NULL when out of
 * memory) */
typedef struct {
    void *p;
    size_t cap;
} Kept;

static inline void *kept_get(Kept *b, size_t bytes) {
    if (bytes > b->cap) {
        void *p = realloc(b->p, bytes);
        if (!p) return NULL;
        b->p = p;
        b->cap = bytes;
    }
    return b->p;
}

/* what a generation and the sort of its records need each time, kept by a caller that
 * generates many times (the endgame search) instead of allocated and freed each time:
 * all zero at first, gen_scratch_free at the end */
typedef struct {
    Kept anchors, order, keys, start, sorted;
} GenScratch;

typedef struct {
    const uint32_t *nodes;
    isize n_nodes;
    uint32_t root;
    int size, area, nmax, bingo_size, bingo_bonus, endgame;
    int32_t rack_code;
    int pruning; /* keeping only the best moves: the walk is cut by rb, lb and right_bound */
    /* the plays are looked up (exact_anchor), not walked: they share their anchor's ord
     * (walks_first orders them), and the first bounds skip the whole-rack check */
    int lookup;
    /* when pruning: the segments a turn to the right of the anchor can cover, for a bound
     * of what the plays after the turn can still be worth (see right_bound) */
    int n_right;
    struct { int j; long board, wmul, cross, dot_l, dot_x; } rseg[MAX_SIZE];
    const int *vals;          /* the rack's values, highest first */
    const double *best_leave; /* by tiles played */
    double going_out;
    const double *leave; /* by leave code */
    /* the line being walked (its squares: in lines[dir * size + line]) */
    int dir, line, anchor, leftstop, right_ok, minn;
    uint64_t ord_base, seq;
    const int *bt;
    const int32_t *bv, *lm, *wm, *xs;
    const uint64_t *xc;
    int *cap; /* for bounds: the best value of a rack tile a square can take */
    Line *lines; /* 2 * size: every line's squares, loaded the first time it is walked */
    uint8_t loaded[2 * MAX_SIZE], capped[2 * MAX_SIZE];
    uint8_t cur[MAX_SIZE];
    int tv[MAX_LETTERS];
    int rc[MAX_LETTERS];
    int32_t radix[MAX_LETTERS];
    uint64_t rmask;
    uint8_t desc[MAX_RACK]; /* for bounds: the rack's letters, best value first */
    int n_desc;
    uint64_t avail;    /* for bounds: the tiles a square may take (Shadow.avail) */
    /* for bounds: the words of the rack's letters (and of one or two board tiles) */
    struct { int nb, t1, t2, first, count; } cache[ANA_CACHE];
    int n_cache, n_cand;
    Found *found;
    int error;
    /* NULL, or where a top-K generation keeps the rack's shadow: made there unless
     * shadow_ready (the caller's, made by an earlier generation of the same rack, leaves
     * and end-of-game values: the simulation's replies) */
    struct Shadow *shadow;
    int shadow_ready;
    /* NULL, or the first bounds of the anchors of lines met before with the same rack
     * and shadow (the caller's: see BoundCache) */
    struct BoundCache *bounds;
    /* NULL, or the plays of lines met before, by line and rack (see LineCache): a whole
     * generation only (no `top`) */
    struct LineCache *line_cache;
    /* NULL, or the caller's buffers, kept between generations (see GenScratch) */
    GenScratch *scratch;
    /* last, and not zeroed when a Gen is made (read only below n_cand): zeroing its 32 KB
     * took about 2% of a best-move generation's instructions */
    uint64_t cand[ANA_CANDS];
    /* when pruning, for the anchor walked (written by walk_bounds for its squares, from
     * the left stop to the anchor): the bound of plays of n tiles or more that start at
     * square s (rb[s][n], for the right part, whose start is known) or at s or before
     * (lb[s][n], for the left part: the play will start at or before the tile placed) */
    double rb[MAX_SIZE][MAX_RACK + 2], lb[MAX_SIZE][MAX_RACK + 2];
} Gen;

struct LineBounds;

typedef struct {
    double bound; /* the best bound of a play from the anchor */
    uint64_t ord_base;
    uint8_t dir, line, anchor, leftstop, minn, tight;
    uint8_t lq;             /* with lb: the anchor's place in it */
    struct LineBounds *lb;  /* NULL, or the cached line it comes from (BoundCache) */
} Anchor;


typedef struct Shadow {
    int vals[MAX_RACK]; /* the rack's playable tiles' values, highest first (blank 0) */
    uint64_t avail;     /* tiles a square may take: the rack's, or all with a blank */
    double best_leave[MAX_RACK + 1]; /* by tiles played: the best leave left */
    /* the lexicon's words of ANA_MIN..ANA_MAX letters by their sorted letters
     * (anagram_index), or none */
    const uint64_t *ana_slots, *ana_words;
    uint64_t ana_mask;
    isize ana_n_words;
    int n_letters;
    /* the letter sets of the lexicon's words (and of each with one letter a blank), as
     * bits at set_bit(set_hash), or none */
    const uint64_t *sets;
    /* the sets of tiles a play can take off the rack (when it has at most SUB_MAX
     * leaves), by how many (sub_first[k] .. sub_first[k + 1]), best leave first: each
     * one's values, highest first, the value of its leave, its set_hash and blanks */
    int sub_first[MAX_RACK + 2];
    int n_sub;
    double sub_leave[SUB_MAX];
    uint64_t sub_hash[SUB_MAX];
    uint8_t sub_blanks[SUB_MAX];
    int16_t sub_vals[SUB_MAX][MAX_RACK];
    int32_t sub_code[SUB_MAX]; /* each one's leave code */
    /* the first set of as many tiles with the same values (itself, or one before it in
     * the same run): its dot products with a segment's weights are that one's */
    int16_t sub_same[SUB_MAX];
    uint64_t blank_as[MAX_LETTERS]; /* a set's hash change when its blank is a letter */
    uint64_t hash_of[MAX_LETTERS];  /* letter_hash of each letter (board tiles' sums) */
    /* the lexicon's words by letter set and length (word_index), or none */
    const uint64_t *wi_slots, *wi_filter;
    uint64_t wi_mask;
    const uint8_t *wi_letters;
    uint64_t wi_n_letters;
} Shadow;

/* A segment (the squares [s, e] of a play from an anchor) and a set of rack tiles whose
 * letters (its blanks standing for bl and bl2), with the segment's board tiles, make a
 * word (the word index holds one), with the bound of their plays: exact_anchor tries
 * those words instead of walking. */
typedef struct {
    double v;
    uint64_t hash; /* the letter set's letter_hash sum (the tiles' and the board tiles') */
    int16_t j;     /* the set of tiles, in Shadow.sub_* */
    uint8_t s, e;
    uint8_t bl, bl2; /* the letters the set's blanks stand for (0: none), bl <= bl2 */
    uint32_t slot; /* the first slot of its words in the word index */
} Pair;

/* an anchor's pairs (p), and a heap of their indices, best bound at the root */
typedef struct {
    Pair *p;
    int *heap;
    int n, nh, cap, error;
} Pairs;

/* The anchors of each line (dir * size + line) and their first bounds, with the line's
 * squares they were found on (tiles, values, cross-sets, cross-scores: with the rack,
 * what they depend on): a line found the same again gets them without the bounds being
 * worked out again. Kept by a caller that searches one rack on many boards that differ
 * in a few lines (the simulation's replies: one rack, a board per candidate); emptied
 * (valid 0) when the rack changes. */
typedef struct LineBounds {
    int valid, n;
    int32_t bt[MAX_SIZE], bv[MAX_SIZE], xs[MAX_SIZE];
    uint64_t xc[MAX_SIZE];
    Anchor a[MAX_SIZE];
    /* per anchor, once looked up (exact_anchor): its pairs of a bound of at least thr,
     * which serve a later search whose bar is as high or higher (the buffers are the
     * caller's to free: bound_cache_free) */
    struct {
        Pair *p;
        int n, cap, ok;
        double thr;
    } pairs[MAX_SIZE];
} LineBounds;

#define BOUND_WAYS 2 /* versions of a line kept (the position's, and a candidate's): 2 */
typedef struct BoundCache {
    LineBounds lines[2 * MAX_SIZE][BOUND_WAYS];
    uint8_t older[2 * MAX_SIZE]; /* the version a new one replaces (used least lately) */
} BoundCache;

/* the new tile `nt` (a blank standing for it when `blank`) on empty square pos */
static inline void tile_parts(const Gen *g, int pos, int nt, int blank, long *ms, long *xs) {
    long v = blank ? 0 : (long)g->tv[nt] * g->lm[pos];
    *ms += v;
    if (g->xs[pos] >= 0) *xs += ((long)g->xs[pos] + v) * g->wm[pos];
}

/* whether the word index may hold words of a letter set (its filter) */
static inline int word_filter(const Shadow *sh, uint64_t hash) {
    uint64_t key = word_key(hash), bits = wf_bits(key);
    return (sh->wi_filter[wf_block(key)] & bits) == bits;
}

/* the first slot of the word index that holds words of a letter set (its letter_hash sum)
 * and length, + 1; 0 for none */
static inline uint64_t word_slot(const Shadow *sh, uint64_t hash, int len) {
    uint64_t key = word_key(hash), mask = sh->wi_mask, i = ana_slot(key, mask);
    for (uint64_t n = 0; n <= mask; n++, i = (i + 1) & mask) {
        uint64_t k2 = sh->wi_slots[2 * i];
        if (!k2) return 0;
        if (k2 == key && (int)((sh->wi_slots[2 * i + 1] >> 16) & 0xFF) == len) return i + 1;
    }
    return 0;
}

/* generation.c */
/* the pairs' buffers a BoundCache holds freed */
void bound_cache_free(BoundCache *bc);
/* g zeroed (but its lines' buffer and its last, large part) for a new generation, with
 * the lexicon, the board's size and the rules' numbers */
void gen_start(Gen *g, const uint32_t *nodes, isize n_nodes, uint32_t root, int size,
               int bingo_size, int bingo_bonus, int endgame);
void line_caps(Gen *g);
int other_moves(Gen *g, const Kinds *kd, long total, long exchange_bag);
int find_moves(Gen *g, const GenBoard *in, const Kinds *kd, long total, int centre);
/* the order to give f's records in: best first, ties in the full generation's order (a
 * new array of f->n indexes, NULL when out of memory) */
isize *found_order(Found *f);
/* the same in sc's buffer (valid until sc is used again) */
isize *found_order_kept(Found *f, GenScratch *sc);
void gen_scratch_free(GenScratch *sc);
/* The plays a whole generation (no `top`) found along lines met before: a line's plays
 * depend only on its squares (tiles, cross-sets and cross-scores), its anchors and the
 * rack, so they are kept under two hashes of those (128 bits) and given again, in the
 * order they were found, when the same line comes back with the same rack. The endgame
 * search generates the moves of millions of positions that differ from each other by a
 * move or two, so most lines come back. At most `max_recs` records are kept (then all
 * are dropped), in 2**lg slots, one line each (a slot's old line dropped). */
typedef struct LineCache LineCache;
LineCache *line_cache_new(int lg, long max_recs);
void line_cache_free(LineCache *lc);
/* find_moves' errors */
#define GEN_NO_MEMORY -1
#define GEN_BAD_WORDS -2

/* shadow.c */
double anchor_bound(Gen *g, const Shadow *sh, int tight, double thr,
                           double (*bys)[MAX_RACK + 2], Pairs *pairs);
void right_segments(Gen *g);
void walk_bounds(Gen *g, const Shadow *sh, const Anchor *a);
void make_shadow(Gen *g, const Kinds *kd, long total, const GenBoard *in, Shadow *sh);
int pairs_pop(Pairs *ps);
/* the pairs p[0..n) of a bound of at least thr into ps */
void pairs_load(Pairs *ps, const Pair *p, int n, double thr);
long code_tiles(const Kinds *kd, long code);

#endif
