/*
 * word_index.c: the anagram index and the word index of a lexicon (see word_index.h).
 * Plain C: _gaddag.c's anagram_index() and word_index() read the KWG's buffer, make the
 * bytes and call these.
 */
#include <stdlib.h>
#include <string.h>

#include "word_index.h"

/* sorted letters, 6 bits each, and the length: the key of a set of letters */
uint64_t ana_key(const int *letters, int n) {
    int s[ANA_MAX];
    for (int q = 0; q < n; q++) {
        int r = q;
        for (; r > 0 && s[r - 1] > letters[q]; r--) s[r] = s[r - 1];
        s[r] = letters[q];
    }
    uint64_t key = 0;
    for (int q = 0; q < n; q++) key = (key << 6) | (uint64_t)s[q];
    return key | ((uint64_t)n << 56); /* never 0 */
}

typedef struct {
    uint64_t key, word;
} KeyWord;

typedef struct {
    KeyWord *items;
    isize n, cap;
    int error;
} KeyList;

/* what dawg_words does with each word: its letters, length and letter_hash sum; -1 stops
 * the walk */
typedef int (*WordVisit)(void *ctx, const int *path, int len, uint64_t hash);

/* every word of the DAWG from group grp on (the path so far: depth letters, their hash h)
 * of at most max_len letters, visited in order; -1 when a visit stopped the walk */
static int dawg_words(const uint32_t *nodes, isize nn, uint32_t grp, int *path, int depth,
                      uint64_t h, int max_len, WordVisit visit, void *ctx) {
    for (isize i = grp;; i++) {
        uint32_t nd = node_at(nodes, nn, i);
        int t = (int)(nd >> 24);
        if (t >= 64) return 0;
        path[depth] = t;
        uint64_t h2 = h + letter_hash(t);
        if ((nd & ACCEPTS) && visit(ctx, path, depth + 1, h2) < 0) return -1;
        if ((nd & ARC) && depth + 1 < max_len &&
            dawg_words(nodes, nn, nd & ARC, path, depth + 1, h2, max_len, visit, ctx) < 0)
            return -1;
        if (nd & IS_END) return 0;
    }
}

/* every word of the DAWG at `root` in `nodes` of at most max_len letters, to `visit` */
static int dawg_walk(const uint32_t *nodes, isize nn, uint32_t root, int max_len,
                     WordVisit visit, void *ctx) {
    int path[MAX_SIZE];
    return dawg_words(nodes, nn, root, path, 0, 0, max_len, visit, ctx);
}

/* a word of ANA_MIN letters or more into the KeyList ctx */
static int collect_word(void *ctx, const int *path, int len, uint64_t hash) {
    KeyList *out = ctx;
    (void)hash;
    if (len < ANA_MIN) return 0;
    if (out->n == out->cap) {
        isize cap = out->cap ? out->cap * 2 : 4096;
        KeyWord *p = realloc(out->items, (size_t)cap * sizeof(KeyWord));
        if (!p) { out->error = 1; return -1; }
        out->items = p;
        out->cap = cap;
    }
    uint64_t word = 0;
    for (int q = 0; q < len; q++) word = (word << 6) | (uint64_t)path[q];
    out->items[out->n].key = ana_key(path, len);
    out->items[out->n++].word = word;
    return 0;
}

/* One walk of the DAWG for the anagram index: its words of ANA_MIN to ANA_MAX letters,
 * and the letter sets' bit set, filled a ring of sets behind: a set's bits are prefetched
 * when it is put and set RING puts later, so the cache misses of the bit set (millions of
 * sets, a few MB) overlap instead of coming one after another. lh: letter_hash of each
 * letter (a table: the walk asks for each letter of every word). */
#define RING 32
typedef struct {
    KeyList *words;
    uint64_t *bits;
    uint64_t lh[64];
    uint64_t ring[RING];
    uint64_t n;
} AnagramWalk;

static inline void set_put(AnagramWalk *a, uint64_t hash) {
    unsigned i = (unsigned)(a->n++ % RING);
    if (a->n > RING) add_set(a->bits, a->ring[i]);
    a->ring[i] = hash;
    uint64_t s = small_bit(hash);
    __builtin_prefetch(&a->bits[s >> 6], 1);
    for (int k = 0; k < SETS_HASHES; k++) __builtin_prefetch(&a->bits[set_bit(hash, k) >> 6], 1);
}

static void set_flush(AnagramWalk *a) {
    uint64_t held = a->n < RING ? a->n : RING;
    for (uint64_t i = 0; i < held; i++) add_set(a->bits, a->ring[i]);
}

/* the letter set of a word of two letters or more, and of the word with one of its
 * letters a blank, into the AnagramWalk ctx (the walk's letters are below 64); a word of
 * ANA_MIN to ANA_MAX letters into its words too */
static int collect_anagram(void *ctx, const int *path, int len, uint64_t hash) {
    AnagramWalk *a = ctx;
    if (len < 2) return 0;
    if (len >= ANA_MIN && len <= ANA_MAX && collect_word(a->words, path, len, hash) < 0) return -1;
    set_put(a, hash);
    uint64_t seen = 0, blank = a->lh[0];
    for (int q = 0; q < len; q++) {
        uint64_t bit = 1ULL << path[q];
        if (!(seen & bit)) {
            seen |= bit;
            set_put(a, hash - a->lh[path[q]] + blank);
        }
    }
    return 0;
}

/* Stable LSD radix sorts, a byte a pass (a pass skipped when every item has the same byte
 * there), least significant byte first: the items collected in the DAWG's order come out
 * ordered by key (and length), the DAWG's order kept among equals -- the order a
 * comparison sort by (key, word) and by (key, length, word) gives, in linear time.
 * tmp: room for n items. */
#define RADIX_SORT(NAME, T, PASSES, BYTE)                                                  \
    static void NAME(T *items, T *tmp, isize n) {                                         \
        T *src = items, *dst = tmp;                                                      \
        for (int pass = 0; pass < (PASSES); pass++) {                                    \
            isize at[256] = {0};                                                         \
            for (isize i = 0; i < n; i++) at[BYTE(&src[i], pass)]++;                     \
            if (n == 0 || at[BYTE(&src[0], pass)] == n) continue;                        \
            isize sum = 0;                                                               \
            for (int v = 0; v < 256; v++) {                                              \
                isize c = at[v];                                                         \
                at[v] = sum;                                                             \
                sum += c;                                                                \
            }                                                                            \
            for (isize i = 0; i < n; i++) dst[at[BYTE(&src[i], pass)]++] = src[i];       \
            T *swap = src;                                                               \
            src = dst;                                                                   \
            dst = swap;                                                                  \
        }                                                                                \
        if (src != items) memcpy(items, src, (size_t)n * sizeof(T));                     \
    }

#define KEYWORD_BYTE(w, pass) ((uint8_t)((w)->key >> (8 * (pass))))
RADIX_SORT(sort_keywords, KeyWord, 8, KEYWORD_BYTE)

typedef struct {
    uint64_t key, at_len; /* the index of its first letter in those collected << 8, length */
} WordKey;

static inline isize wk_at(const WordKey *w) { return (isize)(w->at_len >> 8); }
static inline int wk_len(const WordKey *w) { return (int)(w->at_len & 0xFF); }

typedef struct {
    WordKey *items;
    uint8_t *letters;
    isize n, cap, n_letters, cap_letters;
    int error;
} WordList;

static int wl_grow(WordList *out, int len) {
    if (out->n == out->cap) {
        isize cap = out->cap ? out->cap * 2 : 4096;
        WordKey *p = realloc(out->items, (size_t)cap * sizeof(WordKey));
        if (!p) return -1;
        out->items = p;
        out->cap = cap;
    }
    if (out->n_letters + len > out->cap_letters) {
        isize cap = out->cap_letters ? out->cap_letters * 2 : 65536;
        uint8_t *p = realloc(out->letters, (size_t)cap);
        if (!p) return -1;
        out->letters = p;
        out->cap_letters = cap;
    }
    return 0;
}


/* a word of two letters or more into the WordList ctx */
static int collect_keyed(void *ctx, const int *path, int len, uint64_t hash) {
    WordList *out = ctx;
    if (len < 2) return 0;
    if (wl_grow(out, len) < 0) { out->error = 1; return -1; }
    WordKey *w = &out->items[out->n++];
    w->key = word_key(hash);
    w->at_len = (uint64_t)out->n_letters << 8 | (uint64_t)len;
    for (int q = 0; q < len; q++) out->letters[out->n_letters++] = (uint8_t)path[q];
    return 0;
}

/* by length first, then by key: ordered by (key, length, word) */
#define WORDKEY_BYTE(w, pass) \
    ((pass) ? (uint8_t)((w)->key >> (8 * ((pass) - 1))) : (uint8_t)(w)->at_len)
RADIX_SORT(sort_wordkeys, WordKey, 9, WORDKEY_BYTE)

/* the slots and letters of wl's words (sorted) into buf (zeroed). The slot, filter word
 * and letters of the word AHEAD items on are prefetched: their cache misses overlap. */
#define AHEAD 16
static void word_slots(const WordList *wl, uint64_t *buf, isize slots) {
    uint64_t *tab = buf + WI_HEAD, mask = (uint64_t)slots - 1, *filter = tab + 2 * slots;
    uint8_t *letters = (uint8_t *)(filter + WF_WORDS);
    isize at = 0;
    for (isize k = 0; k < wl->n;) {
        if (k + AHEAD < wl->n) {
            const WordKey *next = &wl->items[k + AHEAD];
            __builtin_prefetch(&tab[2 * ana_slot(next->key, mask)], 1);
            __builtin_prefetch(&filter[wf_block(next->key)], 1);
            __builtin_prefetch(wl->letters + wk_at(next), 0);
        }
        const WordKey *w = &wl->items[k];
        int len = wk_len(w);
        isize end = k, first = at;
        while (end < wl->n && end - k < 0xFFFF && wl->items[end].key == w->key &&
               wk_len(&wl->items[end]) == len) {
            memcpy(letters + at, wl->letters + wk_at(&wl->items[end]), (size_t)len);
            at += len;
            end++;
        }
        uint64_t i = ana_slot(w->key, mask);
        while (tab[2 * i]) i = (i + 1) & mask;
        tab[2 * i] = w->key;
        tab[2 * i + 1] = ((uint64_t)first << 24) | ((uint64_t)len << 16) | (uint64_t)(end - k);
        filter[wf_block(w->key)] |= wf_bits(w->key);
        k = end;
    }
}

/* ------------------------------------------------------------------ anagram index */
/* The anagram index: the number of slots (a power of two), SETS_LG, the slots (key, first
 * word << 16 | count), the bit set of the letter sets (2**SETS_LG bits, then the first
 * filter's 2**SMALL_LG: SET_WORDS words in all), then the words (6 bits a letter). */
static isize ana_slots(isize groups) {
    isize slots = 1024;
    while (2 * slots < 3 * groups) slots *= 2; /* at most two thirds full */
    return slots;
}

int anagram_collect(AnagramBuild *b, const uint32_t *nodes, isize nn, uint32_t root) {
    KeyList *list = calloc(1, sizeof(KeyList));
    b->words = list;
    b->bits = NULL;
    b->groups = 0;
    if (!list) return -1;
    b->bits = calloc((size_t)SET_WORDS, sizeof(uint64_t));
    AnagramWalk *walk = b->bits ? malloc(sizeof(AnagramWalk)) : NULL;
    if (!walk) list->error = 1;
    else {
        walk->words = list;
        walk->bits = b->bits;
        walk->n = 0;
        for (int t = 0; t < 64; t++) walk->lh[t] = letter_hash(t);
        dawg_walk(nodes, nn, root, MAX_SIZE, collect_anagram, walk);
        set_flush(walk);
    }
    free(walk);
    KeyWord *tmp = list->error ? NULL : malloc((size_t)(list->n ? list->n : 1) * sizeof(KeyWord));
    if (!tmp) return -1;
    sort_keywords(list->items, tmp, list->n);
    free(tmp);
    for (isize k = 0; k < list->n; k++)
        b->groups += k == 0 || list->items[k].key != list->items[k - 1].key;
    return 0;
}

isize anagram_items(const AnagramBuild *b) {
    const KeyList *list = b->words;
    return 2 + 2 * ana_slots(b->groups) + SET_WORDS + list->n;
}

void anagram_fill(const AnagramBuild *b, uint64_t *buf) {
    const KeyList *list = b->words;
    isize slots = ana_slots(b->groups), set_words = SET_WORDS;
    uint64_t *tab = buf + 2;
    uint64_t *words = tab + 2 * slots + set_words;
    memset(buf, 0, (size_t)(2 + 2 * slots) * sizeof(uint64_t));
    memcpy(tab + 2 * slots, b->bits, sizeof(uint64_t) * (size_t)set_words);
    buf[0] = (uint64_t)slots;
    buf[1] = SETS_LG;
    uint64_t mask = (uint64_t)slots - 1;
    for (isize k = 0; k < list->n;) {
        isize end = k;
        while (end < list->n && list->items[end].key == list->items[k].key && end - k < 0xFFFF) {
            words[end] = list->items[end].word;
            end++;
        }
        uint64_t i = ana_slot(list->items[k].key, mask);
        while (tab[2 * i]) i = (i + 1) & mask;
        tab[2 * i] = list->items[k].key;
        tab[2 * i + 1] = ((uint64_t)k << 16) | (uint64_t)(end - k);
        while (end < list->n && list->items[end].key == list->items[k].key) {
            words[end] = list->items[end].word;
            end++;
        }
        k = end;
    }
}

void anagram_free(AnagramBuild *b) {
    KeyList *list = b->words;
    if (list) free(list->items);
    free(list);
    free(b->bits);
    b->words = NULL;
    b->bits = NULL;
}

/* ------------------------------------------------------------------ word index */
static isize wi_slots(const WordIndexBuild *b) {
    const WordList *wl = b->words;
    isize slots = 1024;
    while (2 * slots < 3 * (b->groups + wl->n / 0xFFFF + 1)) slots *= 2; /* two thirds full */
    return slots;
}

int word_index_collect(WordIndexBuild *b, const uint32_t *nodes, isize nn, uint32_t root) {
    WordList *wl = calloc(1, sizeof(WordList));
    b->words = wl;
    b->groups = 0;
    if (!wl) return -1;
    dawg_walk(nodes, nn, root, MAX_SIZE, collect_keyed, wl);
    WordKey *tmp = wl->error ? NULL : malloc((size_t)(wl->n ? wl->n : 1) * sizeof(WordKey));
    if (!tmp) return -1;
    sort_wordkeys(wl->items, tmp, wl->n);
    free(tmp);
    for (isize k = 0; k < wl->n; k++)
        b->groups += k == 0 || wl->items[k].key != wl->items[k - 1].key ||
                     wk_len(&wl->items[k]) != wk_len(&wl->items[k - 1]);
    return 0;
}

isize word_index_items(const WordIndexBuild *b) {
    const WordList *wl = b->words;
    return WI_HEAD + 2 * wi_slots(b) + (isize)WF_WORDS + (wl->n_letters + 7) / 8;
}

void word_index_fill(const WordIndexBuild *b, uint64_t *buf) {
    const WordList *wl = b->words;
    isize slots = wi_slots(b);
    memset(buf, 0, (size_t)word_index_items(b) * sizeof(uint64_t));
    buf[0] = (uint64_t)slots;
    buf[1] = WI_MAGIC;
    buf[2] = (uint64_t)wl->n_letters;
    word_slots(wl, buf, slots);
}

void word_index_free(WordIndexBuild *b) {
    WordList *wl = b->words;
    if (wl) {
        free(wl->items);
        free(wl->letters);
    }
    free(wl);
    b->words = NULL;
}
