/*
 * word_prune.c: the words the tiles left can make on the board, and a KWG of them (see
 * word_prune.h). Python twin: gcgtools/movegen/word_prune.py.
 */
#include "word_prune.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ the word set */
static uint64_t word_hash(const uint8_t *w) {
    uint64_t h = 1469598103934665603ULL;
    for (int k = 0; k < WP_LEN && w[k]; k++) h = (h ^ w[k]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static int set_grow(WordSet *ws) {
    isize n = ws->n_slots ? 2 * ws->n_slots : 1024;
    isize *slots = calloc((size_t)n, sizeof(isize));
    if (!slots) return -1;
    for (isize k = 0; k < ws->n; k++) {
        isize i = (isize)(word_hash(ws->w + k * WP_LEN) & (uint64_t)(n - 1));
        while (slots[i]) i = (i + 1) & (n - 1);
        slots[i] = k + 1;
    }
    free(ws->slots);
    ws->slots = slots;
    ws->n_slots = n;
    return 0;
}

/* add the word w[0..len) (once) */
static void add_word(WordSet *ws, const uint8_t *w, int len) {
    if (ws->error) return;
    uint8_t buf[WP_LEN];
    memset(buf, 0, WP_LEN);
    memcpy(buf, w, (size_t)len);
    if (2 * (ws->n + 1) > ws->n_slots && set_grow(ws) < 0) { ws->error = 1; return; }
    isize i = (isize)(word_hash(buf) & (uint64_t)(ws->n_slots - 1));
    while (ws->slots[i]) {
        if (!memcmp(ws->w + (ws->slots[i] - 1) * WP_LEN, buf, WP_LEN)) return;
        i = (i + 1) & (ws->n_slots - 1);
    }
    if (ws->n == ws->cap) {
        isize cap = ws->cap ? 2 * ws->cap : 1024;
        uint8_t *p = realloc(ws->w, (size_t)cap * WP_LEN);
        if (!p) { ws->error = 1; return; }
        ws->w = p;
        ws->cap = cap;
    }
    memcpy(ws->w + ws->n * WP_LEN, buf, WP_LEN);
    ws->slots[i] = ++ws->n;
}

void wp_free(WordSet *ws) {
    free(ws->w);
    free(ws->slots);
    memset(ws, 0, sizeof *ws);
}

/* ------------------------------------------------------------------ the walks */
typedef struct {
    const uint32_t *nodes;
    isize nn;
    int size;
    int tiles[MAX_LETTERS];
    const int *p; /* the line's letters (0 empty) */
    int anchor, leftmost;
    uint8_t strip[WP_LEN];
    WordSet *ws;
} Walk;

/* the tile that makes letter t: itself, else a blank; -1 for none (or the separator) */
static inline int tile_for(const Walk *w, int t) {
    if (!t) return -1;
    return w->tiles[t] ? t : w->tiles[0] ? 0 : -1;
}

/* the words of the tiles alone, of at most `most` letters, from DAWG group `group` */
static void free_words(Walk *w, uint32_t group, int len, int most, uint8_t *word) {
    if (len >= most || !group) return;
    for (isize i = group;; i++) {
        uint32_t nd = node_at(w->nodes, w->nn, i);
        int t = (int)(nd >> 24), use = tile_for(w, t);
        if (use >= 0) {
            w->tiles[use]--;
            word[len] = (uint8_t)t;
            if (nd & ACCEPTS) add_word(w->ws, word, len + 1);
            free_words(w, nd & ARC, len + 1, most, word);
            w->tiles[use]++;
        }
        if (nd & IS_END) break;
    }
}

static void walk_left(Walk *w, int pos, uint32_t group, int used);
static void walk_right(Walk *w, int pos, uint32_t group, int left, int used);

/* the letter at pos went down as node nd, going left from the anchor */
static void left_placed(Walk *w, int pos, uint32_t nd, int used) {
    const int *p = w->p;
    int left_ok = pos == 0 || !p[pos - 1];
    int right_ok = w->anchor == w->size - 1 || !p[w->anchor + 1];
    if (left_ok && right_ok && used && (nd & ACCEPTS))
        add_word(w->ws, w->strip + pos, w->anchor - pos + 1);
    uint32_t arc = nd & ARC;
    if (!arc) return;
    if (!left_ok) { walk_left(w, pos - 1, arc, used); return; }
    if (pos - 1 >= w->leftmost) walk_left(w, pos - 1, arc, used);
    uint32_t sep;
    if (w->anchor + 1 < w->size && find_node(w->nodes, w->nn, arc, 0, &sep) && (sep & ARC))
        walk_right(w, w->anchor + 1, sep & ARC, pos, used);
}

/* the letter at pos went down as node nd, going right after the separator */
static void right_placed(Walk *w, int pos, uint32_t nd, int left, int used) {
    int right_ok = pos == w->size - 1 || !w->p[pos + 1];
    if (right_ok && used && (nd & ACCEPTS)) add_word(w->ws, w->strip + left, pos - left + 1);
    if ((nd & ARC) && pos + 1 < w->size) walk_right(w, pos + 1, nd & ARC, left, used);
}

/* place a letter on square pos from group `group`: the board's, or each tile's (going
 * right when left >= 0, else left) */
static void place(Walk *w, int pos, uint32_t group, int left, int used) {
    int b = w->p[pos];
    if (b) {
        uint32_t nd;
        if (!find_node(w->nodes, w->nn, group, b, &nd)) return;
        w->strip[pos] = (uint8_t)b;
        if (left >= 0) right_placed(w, pos, nd, left, used);
        else left_placed(w, pos, nd, used);
        return;
    }
    for (isize i = group;; i++) {
        uint32_t nd = node_at(w->nodes, w->nn, i);
        int t = (int)(nd >> 24), use = tile_for(w, t);
        if (use >= 0) {
            w->tiles[use]--;
            w->strip[pos] = (uint8_t)t;
            if (left >= 0) right_placed(w, pos, nd, left, used + 1);
            else left_placed(w, pos, nd, used + 1);
            w->tiles[use]++;
        }
        if (nd & IS_END) break;
    }
}

static void walk_left(Walk *w, int pos, uint32_t group, int used) {
    place(w, pos, group, -1, used);
}

static void walk_right(Walk *w, int pos, uint32_t group, int left, int used) {
    place(w, pos, group, left, used);
}

/* the words through the tiles of one line (its letters p) */
static void line_words(Walk *w, const int *p, uint32_t gaddag_root) {
    w->p = p;
    int prev_end = -2;
    for (int i = 0; i < w->size; i++) {
        if (!p[i]) continue;
        while (i + 1 < w->size && p[i + 1]) i++;
        w->anchor = i;
        w->leftmost = prev_end + 2;
        place(w, i, gaddag_root, -1, 0);
        prev_end = i;
    }
}

/* the longest run of empty squares of line p not next to a tile */
static int free_run(const int *p, int size) {
    int best = 0, run = 0;
    for (int i = 0; i < size; i++) {
        if (!p[i]) { run++; continue; }
        run--; /* the square before a tile is next to it */
        if (run > best) best = run;
        run = -1; /* ... and so is the one after */
    }
    return run > best ? run : best;
}

static int cmp_word(const void *a, const void *b) { return memcmp(a, b, WP_LEN); }

int wp_words(const uint32_t *nodes, isize n_nodes, uint32_t dawg_root, uint32_t gaddag_root,
             int size, const int32_t *bt, const int *tiles, int n_letters, WordSet *out) {
    memset(out, 0, sizeof *out);
    Walk w;
    memset(&w, 0, sizeof w);
    w.nodes = nodes;
    w.nn = n_nodes;
    w.size = size;
    w.ws = out;
    for (int t = 0; t < n_letters && t < MAX_LETTERS; t++) w.tiles[t] = tiles[t];
    int lines[2 * MAX_SIZE][MAX_SIZE];
    int most = 0;
    for (int d = 0; d < 2; d++)
        for (int l = 0; l < size; l++) {
            int *p = lines[d * size + l];
            for (int i = 0; i < size; i++) p[i] = d ? bt[i * size + l] : bt[l * size + i];
            int run = free_run(p, size);
            if (run > most) most = run;
        }
    uint8_t word[WP_LEN];
    if (dawg_root) free_words(&w, dawg_root, 0, most, word);
    for (int k = 0; k < 2 * size && gaddag_root; k++) {
        int seen = 0;
        for (int j = 0; j < k && !seen; j++)
            seen = !memcmp(lines[j], lines[k], sizeof(int) * (size_t)size);
        if (!seen) line_words(&w, lines[k], gaddag_root);
    }
    if (out->error) { wp_free(out); return -1; }
    if (out->n) qsort(out->w, (size_t)out->n, WP_LEN, cmp_word);
    free(out->slots);
    out->slots = NULL;
    out->n_slots = 0;
    return 0;
}

/* ------------------------------------------------------------------ the KWG */
/* a string of the trie: its bytes (tile + 1; the separator 1; 0 after the end), its
 * length, and for a GADDAG string that ends in the separator the group it leads to (else
 * -1: its last node accepts) */
typedef struct {
    uint8_t k[WP_LEN + 2];
    uint8_t len;
    int32_t link;
} Str;

typedef struct {
    uint32_t *nodes;
    isize n, cap;
    Str *gad; /* the GADDAG's strings, added while the DAWG is built */
    isize n_gad, cap_gad;
    int error;
} Builder;

static isize reserve(Builder *b, int k) {
    if (b->n + k > b->cap) {
        isize cap = 2 * (b->n + k);
        uint32_t *p = realloc(b->nodes, sizeof(uint32_t) * (size_t)cap);
        if (!p) { b->error = 1; return -1; }
        b->nodes = p;
        b->cap = cap;
    }
    isize at = b->n;
    b->n += k;
    return at;
}

/* a GADDAG string: the reverse of the prefix s[0..len) (tiles), then the separator leading to
 * group `link` (-1: the reverse of the word, accepting) */
static void add_gaddag(Builder *b, const uint8_t *s, int len, int32_t link) {
    if (b->n_gad == b->cap_gad) {
        isize cap = b->cap_gad ? 2 * b->cap_gad : 1024;
        Str *p = realloc(b->gad, sizeof(Str) * (size_t)cap);
        if (!p) { b->error = 1; return; }
        b->gad = p;
        b->cap_gad = cap;
    }
    Str *g = &b->gad[b->n_gad++];
    memset(g->k, 0, sizeof g->k);
    for (int k = 0; k < len; k++) g->k[k] = (uint8_t)(s[len - 1 - k] + 1);
    g->len = (uint8_t)len;
    g->link = link;
    if (link >= 0) g->k[g->len++] = 1;
}

/* the sibling group of strings r[lo..hi) (each longer than d, the same first d bytes):
 * its first node, or -1 (out of memory); `dawg`: record the GADDAG's strings */
static isize trie(Builder *b, const Str *r, isize lo, isize hi, int d, int dawg) {
    int n = 0;
    for (isize i = lo; i < hi; n++) {
        uint8_t c = r[i].k[d];
        while (i < hi && r[i].k[d] == c) i++;
    }
    isize at = reserve(b, n);
    if (at < 0) return -1;
    int slot = 0;
    for (isize i = lo; i < hi; slot++) {
        uint8_t c = r[i].k[d];
        isize j = i;
        while (j < hi && r[j].k[d] == c) j++;
        uint32_t node = (uint32_t)(c - 1) << 24;
        isize a = i;
        if (r[a].len == d + 1) {
            node |= r[a].link >= 0 ? (uint32_t)r[a].link : ACCEPTS;
            a++;
        }
        if (a < j) {
            isize child = trie(b, r, a, j, d + 1, dawg);
            if (child < 0 || child > (isize)ARC) { b->error = 1; return -1; }
            node |= (uint32_t)child;
            if (dawg) {
                uint8_t s[WP_LEN];
                for (int k = 0; k <= d; k++) s[k] = (uint8_t)(r[a].k[k] - 1);
                add_gaddag(b, s, d + 1, (int32_t)child);
            }
        }
        b->nodes[at + slot] = node;
        i = j;
    }
    b->nodes[at + n - 1] |= IS_END;
    return at;
}

static int cmp_str(const void *a, const void *b) {
    return memcmp(((const Str *)a)->k, ((const Str *)b)->k, WP_LEN + 2);
}

int wp_build(const WordSet *ws, uint32_t **nodes, isize *n_nodes) {
    Builder b;
    memset(&b, 0, sizeof b);
    Str *words = malloc(sizeof(Str) * (size_t)(ws->n + 1));
    if (!words || reserve(&b, 2) < 0) { free(words); free(b.nodes); return -1; }
    isize droot = 0, groot = 0;
    for (isize k = 0; k < ws->n; k++) {
        const uint8_t *w = ws->w + k * WP_LEN;
        Str *s = &words[k];
        memset(s->k, 0, sizeof s->k);
        s->len = 0;
        s->link = -1;
        while (s->len < WP_LEN && w[s->len]) { s->k[s->len] = (uint8_t)(w[s->len] + 1); s->len++; }
        uint8_t plain[WP_LEN];
        memcpy(plain, w, (size_t)s->len);
        add_gaddag(&b, plain, s->len, -1);
    }
    if (ws->n) droot = trie(&b, words, 0, ws->n, 0, 1);
    if (!b.error && b.n_gad) {
        qsort(b.gad, (size_t)b.n_gad, sizeof(Str), cmp_str);
        groot = trie(&b, b.gad, 0, b.n_gad, 0, 0);
    }
    free(words);
    free(b.gad);
    if (b.error || droot < 0 || groot < 0) { free(b.nodes); return -1; }
    b.nodes[0] = IS_END | (uint32_t)droot;
    b.nodes[1] = IS_END | (uint32_t)groot;
    *nodes = b.nodes;
    *n_nodes = b.n;
    return 0;
}
