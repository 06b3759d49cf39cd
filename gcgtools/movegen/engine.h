/*
 * engine.h: what every C file of the move generator's engine core shares (plain C; only
 * _gaddag.c, the module file, touches the Python C API): the limits, the KWG's node
 * layout and the walk of a sibling group.
 */
#ifndef GCGTOOLS_ENGINE_H
#define GCGTOOLS_ENGINE_H

#include <stddef.h>
#include <stdint.h>

typedef ptrdiff_t isize; /* sizes and indexes (Py_ssize_t in the module file) */

#define ARC 0x3FFFFFu
#define ACCEPTS 0x800000u
#define IS_END 0x400000u
#define MAX_SIZE 32     /* squares a side */
#define MAX_LETTERS 64  /* alphabet size, the separator / blank index 0 included */
#define MAX_KINDS 16    /* distinct tiles on a rack */
#define MAX_RACK 16     /* tiles on a rack */
#define MAX_CODES 65536 /* leave codes (product of count + 1 over the rack's kinds) */
#define NO_TILE (1 << 12)
#define BOARD_CELL 0xFF /* a record's cell that holds the board's tile */
#define BLANK_BIT 0x40  /* a record's cell: a blank standing for the letter */
#define ANA_MIN 7       /* the anagram index holds the words of 7 to 9 letters */
#define ANA_MAX 9
#define ANA_CACHE 32    /* letter sets whose words one generation keeps */
#define ANA_CANDS 4096  /* ... and words */
#define SUB_MAX 256     /* racks of at most this many leaves: bounds by the tiles played */
#define SETS_LG 25      /* the letter sets of every word: a bit set of 2**SETS_LG bits, */
#define SETS_HASHES 2   /* ... SETS_HASHES of them a set (a Bloom filter) */
#define SMALL_LG 21     /* ... after a first filter of one bit a set in 2**SMALL_LG bits, small
                         * enough to stay in the processor's cache: most sets asked for make
                         * no word, and most of those are told there */
#define SET_WORDS ((((isize)1 << SETS_LG) + ((isize)1 << SMALL_LG)) / 64)

enum { KIND_PLAY = 0, KIND_EXCHANGE = 1, KIND_PASS = 2 };

static inline uint32_t node_at(const uint32_t *nodes, isize n, isize i) {
    return (i >= 0 && i < n) ? nodes[i] : IS_END; /* out of range: an empty end */
}

/* The node of `tile` in the sibling group at `group`, or 0 (no node has tile bits 0
 * with a non-zero tile searched for). */
static inline int find_node(const uint32_t *nodes, isize n, uint32_t group, int tile,
                     uint32_t *out) {
    isize i = group;
    for (;;) {
        uint32_t nd = node_at(nodes, n, i);
        int t = (int)(nd >> 24);
        if (t == tile) { *out = nd; return 1; }
        if (t > tile || (nd & IS_END)) return 0;
        i++;
    }
}

#endif
