/*
 * cross_sets.h: the cross-set and cross-score of every empty square (plain C). Python
 * twin: gcgtools/movegen/cross_sets.py (fill_cross_sets); equality test:
 * tests/movegen/test_movegen_engine.py::test_native_cross_sets_equal_python_on_corpus_boards
 * and tests/movegen/test_movegen_native.py::test_native_cross_set_memo (the memo),
 * ::test_native_touched_squares_equal_python (touched_mark); cross_update and cross_restore
 * through tests/analysis/test_simulate_native.py (the playouts' boards).
 */
#ifndef GCGTOOLS_CROSS_SETS_H
#define GCGTOOLS_CROSS_SETS_H

#include "engine.h"

/* A memo of cross-sets, kept by the caller per lexicon (a writable buffer of MEMO_WORDS
 * uint64): a cross-set depends only on the tiles before and after the square, and the
 * same few short runs of tiles come back on every board of a game and in every
 * position of a simulation. Each slot holds a run's key (its tiles, packed; 0 empty)
 * and its cross-set; a new run takes the slot of its key's hash (a slot's old run is
 * dropped). The header holds MEMO_MAGIC and the lexicon's size, roots and buffer: a
 * memo made for another lexicon is emptied before it is used. */
#define MEMO_LG 12
#define MEMO_SLOTS (1 << MEMO_LG)
#define MEMO_HEAD 5
#define MEMO_WORDS (MEMO_HEAD + 2 * MEMO_SLOTS)
#define MEMO_MAGIC 0x6763676d656d6f31ULL /* "gcgmemo1" */
#define MEMO_RUN 9 /* the longest run of tiles (before and after) a key holds */

typedef struct {
    const uint32_t *nodes;
    isize nn;
    uint32_t root, groot;
    uint64_t *memo; /* MEMO_WORDS, or NULL */
} CrossCtx;

/* the memo's buffer ready for the lexicon of cx (emptied when its header says another) */
void memo_ready(CrossCtx *cx, uint64_t *memo);
/* cross-set and cross-score of square i for plays in direction dir (0 across) */
void one_cross(const CrossCtx *cx, int size, const int32_t *bt, const int32_t *bv, int i,
               int dir, uint64_t full, uint64_t *cross, int32_t *xsum);
/* one_cross for every square of a line across the direction's plays */
void line_cross(const CrossCtx *cx, int size, const int32_t *bt, const int32_t *bv, int dir,
                int line, uint64_t full, uint64_t *cross, int32_t *xsum);
/* mark[] the squares whose cross-sets a new tile on f (already in bt) changes: f (3: both
 * directions) and, both ways, the empty square at each end of the run of tiles through
 * it (a bit by the direction whose cross-set changes: 1 across, past the column's run;
 * 2 down, past the row's); mark[] gains bits, never loses them */
void touched_mark(const int32_t *bt, int size, int f, uint8_t *mark);
/* touched_mark, each square marked for the first time also appended to list[*n] (*n
 * grows): the caller can then visit them and set their marks back to 0 */
void touched_list(const int32_t *bt, int size, int f, uint8_t *mark, uint16_t *list, int *n);

/* the cross-sets a play changed, as they were before it (for cross_restore): at most the
 * new squares and the empty square at each end of the runs through them, both ways */
#define CROSS_SAVED (5 * MAX_RACK + 4)
typedef struct {
    int n;
    uint16_t sq[CROSS_SAVED];
    uint64_t cross[CROSS_SAVED][2];
    int32_t xsum[CROSS_SAVED][2];
} CrossSaved;

/* after a play's n new tiles went down on flat[] (already in bt and bv): the cross-sets
 * and cross-scores of the squares it touches (touched_mark) made again, their old values
 * saved in sv. The simulation's playouts (simulation.c) play and take back this way. */
void cross_update(const CrossCtx *cx, int size, const int32_t *bt, const int32_t *bv,
                  const uint16_t *flat, int n, uint64_t full, uint64_t *cross, int32_t *xsum,
                  CrossSaved *sv);
/* the cross-sets and cross-scores saved by cross_update put back */
void cross_restore(int area, uint64_t *cross, int32_t *xsum, const CrossSaved *sv);

#endif
