/*
 * word_prune.h: a lexicon cut down, for an endgame search, to the words the tiles left
 * (both racks and the bag) can make with the board (plain C), and a KWG (DAWG and GADDAG)
 * of those words for the generator. Python twin: gcgtools/movegen/word_prune.py
 * (pruned_words; the KWG from gcgtools/lexicon/build.py's build_nodes). Equality tests:
 * tests/movegen/test_word_prune.py (the same words as the Python twin, the KWG holds
 * exactly them, the generator finds the same moves with it) and
 * tests/analysis/test_endgame_native.py (the search gives the same values, lines and
 * node counts with and without it).
 *
 * The words kept: along each line (row or column) of the board, every word through at
 * least one of its tiles in place, the other squares filled with tiles left, at least one
 * of them, ending next to an empty square or the edge at both ends; and every word of the
 * tiles alone no longer than the longest run of empty squares of a line not next to a
 * tile. A blank makes any letter. Every word a play of the search can form is one of
 * these: the tiles played on a line in the search come from the tiles left.
 */
#ifndef GCGTOOLS_WORD_PRUNE_H
#define GCGTOOLS_WORD_PRUNE_H

#include "engine.h"

#define WP_LEN MAX_SIZE /* the longest word */

typedef struct {
    uint8_t *w;       /* n words of WP_LEN bytes: KWG indices, 0 after the word */
    isize n, cap;
    isize *slots;     /* a hash set of the words: index + 1, 0 empty */
    isize n_slots;
    int error;
} WordSet;

/* The words (sorted) that `tiles` (counts by KWG index, index 0 the blanks) can make on the
 * board bt (size x size, a square's letter as its KWG index, 0 empty) with the lexicon
 * (nodes, its DAWG and GADDAG roots). 0, or -1 when out of memory. wp_free releases. */
int wp_words(const uint32_t *nodes, isize n_nodes, uint32_t dawg_root, uint32_t gaddag_root,
             int size, const int32_t *bt, const int *tiles, int n_letters, WordSet *out);
void wp_free(WordSet *ws);

/* A KWG of sorted words (a trie: node 0 points to the DAWG, node 1 to the GADDAG; after
 * "reversed prefix, separator" the GADDAG's arc is the DAWG's group after that prefix).
 * *nodes malloc'd; 0, or -1 when out of memory or too many nodes. */
int wp_build(const WordSet *ws, uint32_t **nodes, isize *n_nodes);

#endif
