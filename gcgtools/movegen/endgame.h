/*
 * endgame.h: the exact endgame search in C (plain C; the module file _gaddag.c reads a
 * position into an EgInput and turns an EgResult into Python values), on an incremental
 * board: tiles, cross-sets and cross-scores are updated on each play and put back on each
 * undo, and the moves of each node come from find_moves (generation.c) on that board.
 * Python twin: gcgtools/analysis/endgame/search.py and state.py (the same negamax with
 * alpha-beta, iterative deepening and transposition table, the same end-of-game rules and
 * the same values); wired in by gcgtools/analysis/endgame/native.py. Equality tests:
 * tests/analysis/test_endgame_native.py (against the Python search and a full tree) and
 * tests/analysis/test_endgame.py (run on this search when the helper is built).
 */
#ifndef GCGTOOLS_ENDGAME_H
#define GCGTOOLS_ENDGAME_H

#include "cross_sets.h"
#include "generation.h"

#define EG_MAX_BAG 16
#define EG_MAX_PLY 96
#define EG_INF (1 << 20)

/* a move as the search keeps it: a pass (n == 0) or the new tiles of a play */
typedef struct {
    int32_t score;
    uint8_t n, across, line, start;
    uint32_t mask;             /* new squares along the line, bit by position */
    uint16_t flat[MAX_RACK];   /* the squares it fills */
    uint8_t code[MAX_RACK];    /* their tiles: KWG index, | BLANK_BIT for a blank */
} EgMove;

/* why a search ended (as EndgameResult.stopped) */
enum { EG_PROVED = 0, EG_NODES, EG_SECONDS, EG_DEPTH, EG_HOPELESS, EG_INTERRUPTED, EG_ERROR };

/* asked every EG_CHECK nodes: nonzero stops the search (EG_SECONDS or EG_INTERRUPTED) */
typedef int (*EgStopFn)(void *ctx);
/* told of each depth completed: depth, nodes, the best root move's index and value */
typedef void (*EgDepthFn)(void *ctx, int depth, long nodes, int best, int value);
#define EG_CHECK 1024

typedef struct {
    const uint32_t *nodes;
    isize n_nodes;
    uint32_t gaddag_root, dawg_root;
    int size, n_letters;
    uint64_t full; /* every tile but the separator (cross_sets' full) */
    const int32_t *bt, *bv, *lm, *wm, *xsum; /* the board as EngineBoard holds it */
    const uint64_t *cross;
    int tv[MAX_LETTERS]; /* tile values by KWG index (0 for the blank, index 0) */
    int rack[2][MAX_LETTERS]; /* the racks as counts by KWG index (0: blanks) */
    int bag[EG_MAX_BAG], bag_len; /* drawn from the front */
    int end_zeros;  /* scoreless turns in a row that end the game (passes_to_end) */
    int out_factor; /* what going out gains per point on the opponent's rack */
    int bingo_size, bingo_bonus;
    long max_nodes; /* 0: no limit */
    int max_depth;  /* 0: no limit (the horizon) */
    int tt_lg;      /* the table holds 2**tt_lg entries at first */
    int tt_max_lg;  /* and doubles while half full, up to 2**tt_max_lg */
    int all_moves;
    int aspiration; /* root moves searched first within this many points of their value at
                     * the previous depth (0: a full window at once) */
    int line_cache_lg; /* the generator's line cache (LineCache) has 2**line_cache_lg slots
                        * (0: none) */
    const uint8_t *root_ok;    /* NULL, or per root move (in generation order): search it */
    const uint8_t *root_exact; /* NULL, or per root move: give its exact value */
    EgStopFn stop;
    EgDepthFn on_depth;
    void *ctx;
} EgInput;

/* one root move after the last completed depth */
typedef struct {
    EgMove move;
    int index; /* in the root's generation order */
    int value, done, exact;
    /* its principal variation, when asked for: the moves, and the rack points its last
     * move gains when it ends the game (has_ending) */
    int pv_len, has_ending, ending;
    EgMove *pv;
} EgLine;

typedef struct {
    EgLine *lines; /* best first */
    int n_lines;
    int depth, stopped, error;
    long nodes;
    EgMove *root_moves; /* every root move, in generation order */
    int n_root;
} EgResult;

/* the lexicon of in cut down to the words the tiles left (both racks and the bag) can make
 * with the board (word_prune.h): in's nodes and roots replaced by a KWG of them, *owned
 * (malloc'd, NULL when in is left as it was: out of memory, or no word at all) to free
 * after the search. The moves of every position the search can reach are the same, in
 * the same order. */
void eg_prune(EgInput *in, uint32_t **owned);
/* the root moves of in's position, in generation order (*out malloc'd); count or -1 */
int eg_root_moves(const EgInput *in, EgMove **out);
/* solve; 0 or -1 (out of memory). eg_free releases what the result holds. */
int eg_solve(const EgInput *in, EgResult *out);
void eg_free(EgResult *r);

#endif
