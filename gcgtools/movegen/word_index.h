/*
 * word_index.h: the lexicon's tables for the bounds and the look-ups, built once per
 * lexicon (plain C): the letter sets of every word (a Bloom filter), the anagram index
 * (the 7- to 9-letter words by their sorted letters) and the word index (every word by
 * letter set and length); and the hashes and probes a generation reads them with.
 * Python twin: none is needed for the tables themselves (the pure-Python engine walks
 * every anchor instead); what they are for is checked by the equality of the top K and
 * the best move with the first of all moves, C against Python:
 * tests/movegen/test_movegen_exact.py (the word index holds every word under its letter
 * set; damaged indexes are refused; top K = first K in real games) and
 * tests/movegen/test_movegen_native.py::same_moves.
 */
#ifndef GCGTOOLS_WORD_INDEX_H
#define GCGTOOLS_WORD_INDEX_H

#include "engine.h"

/* A set of letters' hash: the sum of its letters' (order does not count; a blank is
 * letter 0), and the bit it sets in the bit set of the words' sets. Two sets may share a
 * bit: the bounds then let through a set that makes no word, never the reverse. */
static inline uint64_t letter_hash(int letter) {
    uint64_t z = (uint64_t)(letter + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static const uint64_t SET_MULS[3] = {0xD6E8FEB86659FD93ULL, 0xA0761D6478BD642FULL,
                                     0xE7037ED1A0B428DBULL};

static inline uint64_t set_bit(uint64_t hash, int k) {
    return (hash * SET_MULS[k]) >> (64 - SETS_LG);
}

static inline uint64_t small_bit(uint64_t hash) {
    return (((isize)1 << SETS_LG) + (isize)((hash * SET_MULS[2]) >> (64 - SMALL_LG)));
}

static inline void add_set(uint64_t *sets, uint64_t hash) {
    uint64_t s = small_bit(hash);
    sets[s >> 6] |= 1ULL << (s & 63);
    for (int k = 0; k < SETS_HASHES; k++) {
        uint64_t b = set_bit(hash, k);
        sets[b >> 6] |= 1ULL << (b & 63);
    }
}

static inline int has_set(const uint64_t *sets, uint64_t hash) {
    uint64_t s = small_bit(hash);
    if (!((sets[s >> 6] >> (s & 63)) & 1)) return 0;
    for (int k = 0; k < SETS_HASHES; k++) {
        uint64_t b = set_bit(hash, k);
        if (!((sets[b >> 6] >> (b & 63)) & 1)) return 0;
    }
    return 1;
}

/* the anagram index's key of a set of letters: sorted, 6 bits each, and the length */
uint64_t ana_key(const int *letters, int n);

static inline uint64_t ana_slot(uint64_t key, uint64_t mask) {
    key *= 0x9E3779B97F4A7C15ULL;
    return (key ^ (key >> 31)) & mask;
}

/* Every word of the DAWG by its letter set (the sum of its letters' letter_hash, never 0)
 * and length, for exact plays of a segment and a set of rack tiles: bytes of WI_HEAD
 * header items (the number of slots, a power of two; WI_MAGIC; the letters' bytes), the
 * slots (key, first byte << 24 | length << 16 | count), a filter of the keys (WF_WORDS
 * words of 64 bits, three bits of one word a key: small enough for the processor's
 * cache, it answers most letter sets that make no word without a slot's cache miss),
 * then the words' letters, a byte each, each slot's words together. Two letter sets may
 * share a key: whoever reads a slot checks each word's letters. */
#define WI_HEAD 3
#define WI_MAGIC 0x5744494E44455832ULL
#define WF_LG 15
#define WF_WORDS ((uint64_t)1 << WF_LG)

static inline uint64_t wf_block(uint64_t key) { return (key * 0xC2B2AE3D27D4EB4FULL) >> (64 - WF_LG); }

static inline uint64_t wf_bits(uint64_t key) {
    uint64_t z = key * 0x9FB21C651E98DF25ULL;
    return (1ULL << (z >> 58)) | (1ULL << ((z >> 52) & 63)) | (1ULL << ((z >> 46) & 63));
}

static inline uint64_t word_key(uint64_t hash) { return hash ? hash : 1; }

/* anagram_index's buffer (see word_index.c), built in two steps: collected from the
 * DAWG (-1: out of memory), then written into `anagram_items` uint64 */
typedef struct {
    void *words;   /* the collected words (KeyList) */
    uint64_t *bits; /* the letter sets' bit set */
    isize groups;
} AnagramBuild;
int anagram_collect(AnagramBuild *b, const uint32_t *nodes, isize nn, uint32_t root);
isize anagram_items(const AnagramBuild *b);
void anagram_fill(const AnagramBuild *b, uint64_t *buf);
void anagram_free(AnagramBuild *b);

/* word_index's buffer, the same way */
typedef struct {
    void *words; /* the collected words (WordList) */
    isize groups;
} WordIndexBuild;
int word_index_collect(WordIndexBuild *b, const uint32_t *nodes, isize nn, uint32_t root);
isize word_index_items(const WordIndexBuild *b);
void word_index_fill(const WordIndexBuild *b, uint64_t *buf);
void word_index_free(WordIndexBuild *b);

#endif
