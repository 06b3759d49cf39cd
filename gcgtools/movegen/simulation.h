/*
 * simulation.h: one sample of the Monte Carlo simulation in C (plain C; the module file
 * _gaddag.c reads the position, the candidates and the win model into a SimInput and
 * gives each SimSample back to Python): the iteration's draw (the unseen tiles shuffled by
 * the same Mersenne Twister Python's random.Random is, seeded the same way), the candidate
 * and then each ply's best move (find_moves with top 1, as EngineBoard.generate_best)
 * played on an incremental board (cross_update), the racks, the bag and the scores moved
 * on as gcgtools.analysis.playout.advance does, the end valued by the win model, and the
 * board put back. Python twin: gcgtools/analysis/simulate.py (_Sampler, _shuffled) and
 * gcgtools/analysis/playout.py (advance, play_best), gcgtools/analysis/winprob.py (the
 * models); wired in by gcgtools/analysis/sim_native.py. Equality tests:
 * tests/analysis/test_simulate_native.py.
 */
#ifndef GCGTOOLS_SIMULATION_H
#define GCGTOOLS_SIMULATION_H

#include "cross_sets.h"
#include "generation.h"

#define SIM_MAX_TILES 256 /* unseen tiles */
#define SIM_MAX_PLIES 32  /* plies after the candidate */
#define SIM_MT_N 624

/* CPython's random.Random: MT19937, seeded by init_by_array from an int's 32-bit words */
typedef struct {
    uint32_t mt[SIM_MT_N];
    int mti;
} SimRng;

/* a move as a playout makes it */
typedef struct {
    uint8_t kind, n, bingo;
    int32_t score;
    double leave_value;
    uint16_t flat[MAX_RACK]; /* a play's new squares */
    /* a play's new tiles (KWG index, | BLANK_BIT for a blank); an exchange's thrown tiles
     * (KWG index, 0 for a blank) in the order they go back into the bag */
    uint8_t code[MAX_RACK];
} SimMove;

enum { SIM_LOGISTIC = 0, SIM_TABLE = 1 };

typedef struct {
    /* the lexicon, as an EngineBoard holds it */
    const uint32_t *nodes;
    isize n_nodes;
    uint32_t gaddag_root, dawg_root;
    const uint64_t *ana, *words; /* anagram and word indexes, or NULL */
    isize ana_items, words_items;
    uint64_t *memo; /* the cross-set memo (MEMO_WORDS), or NULL */
    int n_letters;  /* the separator included */
    uint64_t full;
    int tv[MAX_LETTERS];   /* points by KWG index (0: the blank) */
    int rank[MAX_LETTERS]; /* where each tile's text sorts (the blank, index 0, last) */
    /* the leaves: a KLV (klv.nodes not NULL; a KLV tile number per KWG index), the
     * heuristic, or none */
    Klv klv;
    int klv_num[MAX_LETTERS];
    int klv_longest;
    /* or the built-in heuristic (gcgtools.lexicon.leaves.HeuristicLeaves): each tile's
     * value and whether it is a vowel, by KWG index, and the two penalties */
    int heuristic;
    double h_tile[MAX_LETTERS], h_dup, h_balance;
    int h_vowel[MAX_LETTERS];
    /* the board */
    int size, centre; /* the start square */
    const int32_t *lm, *wm;
    /* the rules */
    int rack_size, bingo_bonus, exchange_min, out_factor, deducts_own, max_zeros;
    /* the win model: a logistic (m0, m1, s0, s1) or a table (rows x (2 max_spread + 1)) */
    int model;
    double m0, m1, s0, s1;
    const double *table;
    int rows, max_spread;
    /* the position: the root player's rack in its order, the unseen tiles in the order
     * they are shuffled, scores (root player first), scoreless turns; the candidates */
    int plies;
    int rack[MAX_RACK], rack_len;
    int unseen[SIM_MAX_TILES], n_unseen;
    int scores[2], zeros;
    const SimMove *cands;
    int n_cands;
} SimInput;

/* a board of the position, played on and taken back, and a generation's buffers */
typedef struct Sim Sim;

/* what one playout gives (gcgtools.analysis.simulate.Sample): -1 for a ply not made */
typedef struct {
    double win, spread;
    int reply_score, reply_bingo, follow_score, follow_bingo;
} SimSample;

/* a Sim for in (which it reads, not copies) on the board bt, bv, cross, xsum (copied);
 * NULL when out of memory */
Sim *sim_new(const SimInput *in, const int32_t *bt, const int32_t *bv, const uint64_t *cross,
             const int32_t *xsum);
void sim_free(Sim *s);
/* candidate cand against the draw of the iteration whose seed is digest (the first 16
 * bytes of its sha256, a big-endian number: gcgtools.analysis.simulate._rng); 0, or -1
 * (out of memory, or a move the playout cannot make) */
int sim_sample(Sim *s, int cand, const uint8_t *digest, SimSample *out);

/* random.Random(int.from_bytes(digest, "big")) */
void sim_rng_seed(SimRng *r, const uint8_t *digest);
/* random.Random._randbelow(n), n >= 1 (randrange(n)) */
long sim_randbelow(SimRng *r, long n);
/* random.Random.shuffle(x) */
void sim_shuffle(SimRng *r, int *x, int n);

#endif
