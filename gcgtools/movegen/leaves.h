/*
 * leaves.h: what each leave of a rack is worth (plain C): every leave code's value from a
 * KLV leave graph in one walk, minus the tiles' points once the bag is empty, and the
 * whole rack's estimate when it is one tile longer than the KLV's leaves. Python twin:
 * gcgtools/movegen/core.py (python_moves' _leave_value, through
 * gcgtools.rules.equity.leave_equity and gcgtools.lexicon's Leaves); equality tests:
 * tests/movegen/test_movegen_native.py::test_native_equals_python_on_a_real_board (KLV,
 * built-in and no leaves, the bag empty) and the corpus tests of test_movegen_engine.py.
 */
#ifndef GCGTOOLS_LEAVES_H
#define GCGTOOLS_LEAVES_H

#include "engine.h"

/* A rack's distinct tiles ("kinds"): the leave code of a leave is the mixed-radix number
 * of how many of each kind it keeps. */
typedef struct {
    int n_kinds;
    long count[MAX_KINDS], radix[MAX_KINDS], points[MAX_KINDS], klv[MAX_KINDS];
    long order[MAX_KINDS];       /* kinds in the order their text sorts */
    isize n_codes;
} Kinds;

/* a KLV leave graph: its nodes, the word counts below each node, the leaves' values */
typedef struct {
    const uint32_t *nodes, *counts;
    isize n_nodes;
    const float *values;
    isize n_values;
    uint32_t root;
} Klv;

/* the bag empty: each leave is worth minus the points of its tiles */
void endgame_leaves(const Kinds *kd, double *out);
/* every leave code's value in the KLV (0 for a leave it lacks); order[]: the kinds by
 * their number in the KLV's alphabet (what split_full_leave reads) */
void klv_leaves(const Klv *klv, const Kinds *kd, int *order, double *out);
/* the whole rack's value (out[n_codes - 1]) when it is one tile longer than the KLV's
 * leaves: the mean over its tiles, in the KLV's order, of the leave without the tile
 * plus the tile alone (gcgtools.lexicon.leaves.split_estimate) */
void split_full_leave(const Kinds *kd, const int *order, double *out);

#endif
