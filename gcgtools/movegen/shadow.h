/*
 * shadow.h: upper bounds on what the plays of an anchor can be worth (the "shadow" of a
 * play, as wolges and MAGPIE bound it), for top-K requests and the best move. Plain C;
 * the prototypes are in generation.h (the walk and the bounds read one Gen). Python
 * twin: none (the pure-Python engine walks every anchor); a bound is exact when the top
 * K are the first K of all the moves: tests/movegen/test_movegen_exact.py and
 * tests/movegen/test_movegen_native.py::same_moves (C top 1, 3 and best against Python's
 * full list).
 */
#ifndef GCGTOOLS_SHADOW_H
#define GCGTOOLS_SHADOW_H

#include "generation.h"

#endif
