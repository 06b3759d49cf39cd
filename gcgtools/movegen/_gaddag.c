/*
 * gcgtools.movegen._gaddag: the move generator's engine core in C (optional).
 *
 * Everything here has a pure-Python twin in gcgtools/movegen (engine.py, generator.py,
 * crosses.py) that gives the same results; the tests run both and compare them.
 *
 *   cross_sets(nodes, dawg_root, gaddag_root, size, bt, bv, cross, xsum, full, squares
 *              [, memo])
 *       Fill the cross-sets (one uint64 bit set per square and direction: the tiles that
 *       form a word with the tiles above/below, resp. left/right) and the cross-scores
 *       (the value of those tiles, -1 for no neighbour) of the squares `squares` (None:
 *       every square), in place, in the buffers of an EngineBoard; `memo` (MEMO_WORDS
 *       uint64, kept per lexicon) remembers the cross-sets of short runs of tiles.
 *   generate(inputs)
 *       Every move of a rack (plays by Gordon's GADDAG algorithm, exchanges, the pass),
 *       scored, with leave values looked up in a table or in a KLV leave graph, as
 *       Move objects: all of them sorted by equity, or the best `top` only. For `top`
 *       requests every anchor first gets an upper bound on what a play from it can be
 *       worth (the "shadow" of the play: premium squares, cross-scores, the rack's best
 *       tiles on the best squares, the best leave of the size left), and anchors are
 *       taken best bound first until no bound can beat the moves kept. On a board with
 *       tiles, with a word index and at most two blanks, an anchor's plays are not
 *       walked but looked up (exact_anchor): each square run [s, e] it could cover and
 *       each set of rack tiles that fills its empty squares, bounded with that set's own
 *       values and leave, best first; the words of that set's letters with the run's
 *       board tiles, from the word index, tried on the squares. Otherwise an anchor that
 *       can still beat the moves kept is bounded again by the sets of tiles whose letters
 *       make a word with the board tiles (a Bloom filter of the lexicon's letter sets)
 *       and walked.
 *   anagram_index(nodes, dawg_root), word_index(nodes, dawg_root)
 *       The lexicon's tables for those bounds and look-ups, built once per lexicon
 *       (bytes).
 *
 * Ties in equity keep the order in which the full generation finds moves (across lines
 * first, then down; lines, anchors and the GADDAG walk in order; exchanges; the pass),
 * so a `top` request gives exactly the first moves of the full list: plays looked up
 * are ordered as the walk would find them (walks_first).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "cross_sets.h"
#include "leaves.h"
#include "word_index.h"

/* ------------------------------------------------------------------ buffers */
typedef struct {
    Py_buffer view;
    int held;
} Buf;

static int get_buf(PyObject *obj, Buf *b, Py_ssize_t itemsize, Py_ssize_t min_items,
                   int writable, const char *what) {
    if (PyObject_GetBuffer(obj, &b->view, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) < 0)
        return -1;
    b->held = 1;
    if (b->view.len % itemsize != 0 || b->view.len / itemsize < min_items) {
        PyErr_Format(PyExc_ValueError, "%s: a buffer of %zd items of %zd bytes expected",
                     what, min_items, itemsize);
        return -1;
    }
    return 0;
}

static void release(Buf *b) {
    if (b->held) PyBuffer_Release(&b->view);
    b->held = 0;
}


static PyObject *cross_sets(PyObject *self, PyObject *args) {
    PyObject *nodes_o, *bt_o, *bv_o, *cross_o, *xsum_o, *squares, *memo_o = Py_None;
    unsigned int root, groot;
    int size;
    unsigned long long full;
    if (!PyArg_ParseTuple(args, "OIIiOOOOKO|O", &nodes_o, &root, &groot, &size, &bt_o, &bv_o,
                          &cross_o, &xsum_o, &full, &squares, &memo_o))
        return NULL;
    if (size < 1 || size > MAX_SIZE) {
        PyErr_SetString(PyExc_ValueError, "cross_sets: board size out of range");
        return NULL;
    }
    int area = size * size;
    Buf nodes = {0}, bt = {0}, bv = {0}, cross = {0}, xsum = {0}, memo = {0};
    PyObject *result = NULL, *seq = NULL;
    if (get_buf(nodes_o, &nodes, 4, 1, 0, "nodes") < 0 || get_buf(bt_o, &bt, 4, area, 0, "bt") < 0 ||
        get_buf(bv_o, &bv, 4, area, 0, "bv") < 0 ||
        get_buf(cross_o, &cross, 8, 2 * area, 1, "cross") < 0 ||
        get_buf(xsum_o, &xsum, 4, 2 * area, 1, "xsum") < 0 ||
        (memo_o != Py_None && get_buf(memo_o, &memo, 8, MEMO_WORDS, 1, "memo") < 0))
        goto done;
    CrossCtx cx = {nodes.view.buf, nodes.view.len / 4, root, groot, NULL};
    if (memo.held) memo_ready(&cx, memo.view.buf);
    if (squares == Py_None) {
        for (int dir = 0; dir < 2; dir++)
            for (int line = 0; line < size; line++)
                line_cross(&cx, size, bt.view.buf, bv.view.buf, dir, line, full, cross.view.buf,
                           xsum.view.buf);
    } else {
        seq = PySequence_Fast(squares, "squares: a sequence of ints expected");
        if (!seq) goto done;
        Py_ssize_t ns = PySequence_Fast_GET_SIZE(seq);
        for (Py_ssize_t k = 0; k < ns; k++) {
            long i = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
            if (i == -1 && PyErr_Occurred()) goto done;
            if (i < 0 || i >= area) {
                PyErr_SetString(PyExc_ValueError, "cross_sets: square off the board");
                goto done;
            }
            for (int dir = 0; dir < 2; dir++)
                one_cross(&cx, size, bt.view.buf, bv.view.buf, (int)i, dir, full,
                          cross.view.buf, xsum.view.buf);
        }
    }
    result = Py_None;
    Py_INCREF(result);
done:
    Py_XDECREF(seq);
    release(&nodes); release(&bt); release(&bv); release(&cross); release(&xsum);
    release(&memo);
    return result;
}

/* touched(bt, size, flats): the squares whose cross-sets a play of new tiles on `flats`
 * (already in bt) changes: those squares and, both ways, the empty square at each end of
 * the run of tiles through them; sorted, each once. */
static PyObject *touched(PyObject *self, PyObject *args) {
    PyObject *bt_o, *flats;
    int size;
    if (!PyArg_ParseTuple(args, "OiO", &bt_o, &size, &flats)) return NULL;
    if (size < 1 || size > MAX_SIZE) {
        PyErr_SetString(PyExc_ValueError, "touched: board size out of range");
        return NULL;
    }
    int area = size * size;
    Buf bt = {0};
    PyObject *result = NULL, *seq = NULL;
    uint8_t mark[MAX_SIZE * MAX_SIZE];
    memset(mark, 0, (size_t)area);
    if (get_buf(bt_o, &bt, 4, area, 0, "bt") < 0) goto done;
    seq = PySequence_Fast(flats, "flats: a sequence of ints expected");
    if (!seq) goto done;
    const int32_t *b = bt.view.buf;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        long f = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (f == -1 && PyErr_Occurred()) goto done;
        if (f < 0 || f >= area) {
            PyErr_SetString(PyExc_ValueError, "touched: square off the board");
            goto done;
        }
        touched_mark(b, size, (int)f, mark);
    }
    result = PyList_New(0);
    for (int i = 0; result && i < area; i++) {
        if (!mark[i]) continue;
        PyObject *v = PyLong_FromLong(i);
        if (!v || PyList_Append(result, v) < 0) Py_CLEAR(result);
        Py_XDECREF(v);
    }
done:
    Py_XDECREF(seq);
    release(&bt);
    return result;
}

/* load_board(cells, codes, bt, bv): the tiles of a Board's cells (str or None) as KWG
 * indices and values, by `codes` (tile text -> (index, value)); the number of tiles.
 * KeyError (the tile) for a tile `codes` lacks. */
/* a tile's (KWG index, value) in `codes` (tile text -> (index, value)): 1, 0 when codes
 * lacks it (no error set), -1 on an error */
static int tile_code(PyObject *codes, PyObject *tile, long *idx, long *val) {
    PyObject *code = PyDict_GetItemWithError(codes, tile);
    if (!code) return PyErr_Occurred() ? -1 : 0;
    if (!PyTuple_Check(code) || PyTuple_GET_SIZE(code) != 2) {
        PyErr_SetString(PyExc_TypeError, "codes: (index, value) pairs expected");
        return -1;
    }
    *idx = PyLong_AsLong(PyTuple_GET_ITEM(code, 0));
    *val = PyLong_AsLong(PyTuple_GET_ITEM(code, 1));
    return ((*idx == -1 || *val == -1) && PyErr_Occurred()) ? -1 : 1;
}

static PyObject *load_board(PyObject *self, PyObject *args) {
    PyObject *cells, *codes, *bt_o, *bv_o;
    if (!PyArg_ParseTuple(args, "O!O!OO", &PyList_Type, &cells, &PyDict_Type, &codes, &bt_o,
                          &bv_o))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(cells), count = 0;
    Buf bt = {0}, bv = {0};
    PyObject *result = NULL;
    if (get_buf(bt_o, &bt, 4, n, 1, "bt") < 0 || get_buf(bv_o, &bv, 4, n, 1, "bv") < 0) goto done;
    int32_t *t = bt.view.buf, *v = bv.view.buf;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *cell = PyList_GET_ITEM(cells, i);
        if (cell == Py_None) { t[i] = v[i] = 0; continue; }
        long a, b;
        int found = tile_code(codes, cell, &a, &b);
        if (found <= 0) {
            if (!found) PyErr_SetObject(PyExc_KeyError, cell);
            goto done;
        }
        t[i] = (int32_t)a;
        v[i] = (int32_t)b;
        count++;
    }
    result = PyLong_FromSsize_t(count);
done:
    release(&bt); release(&bv);
    return result;
}

/* place_tiles(cells, codes, bt, bv, size, row, col, across, tiles, new): a play's new
 * tiles (tiles[k] where bit k of `new` is set, square k of the play from (row, col)) put
 * on a Board's cells and, by `codes` (as load_board reads them), on bt and bv; returns
 * (their flat squares, their (row, col, tile) tuples). None, with nothing changed, when
 * a square is off the board or taken or a tile is not in `codes`: the caller then says
 * which (EngineBoard.play). */
static PyObject *place_tiles(PyObject *self, PyObject *args) {
    PyObject *cells, *codes, *bt_o, *bv_o, *tiles;
    int size, row, col, across;
    unsigned long long new;
    if (!PyArg_ParseTuple(args, "O!O!OOiiipO!K", &PyList_Type, &cells, &PyDict_Type, &codes,
                          &bt_o, &bv_o, &size, &row, &col, &across, &PyTuple_Type, &tiles, &new))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(tiles), area = (Py_ssize_t)size * size;
    if (size < 1 || size > MAX_SIZE || PyList_GET_SIZE(cells) != area || n > MAX_SIZE) {
        PyErr_SetString(PyExc_ValueError, "place_tiles: board or play out of range");
        return NULL;
    }
    Buf bt = {0}, bv = {0};
    PyObject *result = NULL, *flats = NULL, *squares = NULL;
    if (get_buf(bt_o, &bt, 4, area, 1, "bt") < 0 || get_buf(bv_o, &bv, 4, area, 1, "bv") < 0)
        goto done;
    long at[MAX_SIZE], idx[MAX_SIZE], val[MAX_SIZE];
    int m = 0, dr = across ? 0 : 1, dc = across ? 1 : 0;
    for (Py_ssize_t k = 0; k < n; k++) { /* every check first: nothing changes on a refusal */
        if (k >= 64 || !((new >> k) & 1)) continue;
        long r = row + k * dr, c = col + k * dc;
        if (r < 0 || r >= size || c < 0 || c >= size) { result = Py_None; goto done; }
        if (PyList_GET_ITEM(cells, r * size + c) != Py_None) { result = Py_None; goto done; }
        int found = tile_code(codes, PyTuple_GET_ITEM(tiles, k), &idx[m], &val[m]);
        if (found <= 0) {
            if (!found) result = Py_None;
            goto done;
        }
        for (int q = 0; q < m; q++)
            if (at[q] == r * size + c) { result = Py_None; goto done; } /* never: one a square */
        at[m++] = r * size + c;
    }
    flats = PyList_New(m);
    squares = PyTuple_New(m);
    if (!flats || !squares) goto done;
    int32_t *t = bt.view.buf, *v = bv.view.buf;
    for (Py_ssize_t k = 0, q = 0; k < n && q < m; k++) {
        if (k >= 64 || !((new >> k) & 1)) continue;
        PyObject *tile = PyTuple_GET_ITEM(tiles, k);
        PyObject *f = PyLong_FromLong(at[q]);
        PyObject *sq = Py_BuildValue("(llO)", (long)(row + k * dr), (long)(col + k * dc), tile);
        if (!f || !sq) { Py_XDECREF(f); Py_XDECREF(sq); goto done; }
        PyList_SET_ITEM(flats, q, f);
        PyTuple_SET_ITEM(squares, q, sq);
        q++;
    }
    for (int q = 0; q < m; q++) { /* nothing can fail from here */
        PyObject *tile = PyTuple_GET_ITEM(PyTuple_GET_ITEM(squares, q), 2);
        Py_INCREF(tile);
        if (PyList_SetItem(cells, at[q], tile) < 0) goto done;
        t[at[q]] = (int32_t)idx[q];
        v[at[q]] = (int32_t)val[q];
    }
    result = Py_BuildValue("(OO)", flats, squares);
done:
    if (result == Py_None) Py_INCREF(result);
    Py_XDECREF(flats);
    Py_XDECREF(squares);
    release(&bt); release(&bv);
    return result;
}

/* rack_parts(rack, index, values, n_letters): what EngineInputs says of a rack (tile texts,
 * upper case, "?" a blank; at most RACK_PARTS tiles), as engine.rack_parts does in
 * Python: (kinds, kind_counts, counts, radix, kind_radix, kind_points, kind_order,
 * kind_text) (see engine.EngineInputs and generator.RackIndex). KeyError for a tile `values`
 * lacks. */
#define RACK_PARTS 64
static int blank_text(PyObject *t) { return PyUnicode_CompareWithASCIIString(t, "?") == 0; }

static PyObject *int_list(const long *v, Py_ssize_t n) {
    PyObject *out = PyList_New(n);
    for (Py_ssize_t k = 0; out && k < n; k++) {
        PyObject *x = PyLong_FromLong(v[k]);
        if (!x) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, k, x);
    }
    return out;
}

/* kinds in the order their texts sort, blanks last (sorted with (kind == "?", kind)) */
static int kind_order(PyObject *kinds, Py_ssize_t n, long *order) {
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t r = k;
        PyObject *x = PyList_GET_ITEM(kinds, k);
        int xb = blank_text(x);
        for (; r > 0; r--) {
            PyObject *y = PyList_GET_ITEM(kinds, order[r - 1]);
            int yb = blank_text(y), before = yb > xb;
            if (yb == xb) {
                int c = PyUnicode_Compare(y, x);
                if (c == -1 && PyErr_Occurred()) return -1;
                before = c > 0;
            }
            if (!before) break;
            order[r] = order[r - 1];
        }
        order[r] = (long)k;
    }
    return 0;
}

static PyObject *rack_parts(PyObject *self, PyObject *args) {
    PyObject *rack, *index, *values;
    int n_letters;
    if (!PyArg_ParseTuple(args, "O!O!O!i", &PyList_Type, &rack, &PyDict_Type, &index,
                          &PyDict_Type, &values, &n_letters))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(rack);
    if (n > RACK_PARTS || n_letters < 0 || n_letters >= MAX_LETTERS) {
        PyErr_SetString(PyExc_ValueError, "rack_parts: rack or alphabet too large");
        return NULL;
    }
    long count[RACK_PARTS], radices[RACK_PARTS], points[RACK_PARTS], order[RACK_PARTS];
    long counts[MAX_LETTERS] = {0}, radix_by[MAX_LETTERS] = {0}, radix = 1;
    PyObject *kinds = PyList_New(0), *text = NULL, *result = NULL;
    Py_ssize_t nk = 0;
    if (!kinds) return NULL;
    for (Py_ssize_t k = 0; k < n; k++) { /* distinct tiles, in the order they come */
        PyObject *t = PyList_GET_ITEM(rack, k);
        if (!PyUnicode_Check(t)) {
            PyErr_SetString(PyExc_TypeError, "rack_parts: tile texts expected");
            goto done;
        }
        Py_ssize_t q = 0;
        for (; q < nk; q++) {
            int eq = PyUnicode_Compare(PyList_GET_ITEM(kinds, q), t);
            if (eq == -1 && PyErr_Occurred()) goto done;
            if (eq == 0) break;
        }
        if (q < nk) { count[q]++; continue; }
        if (PyList_Append(kinds, t) < 0) goto done;
        count[nk++] = 1;
    }
    text = PyTuple_New(nk);
    if (!text) goto done;
    for (Py_ssize_t q = 0; q < nk; q++) {
        PyObject *kind = PyList_GET_ITEM(kinds, q);
        radices[q] = radix;
        long t = -1;
        if (blank_text(kind)) {
            t = 0;
        } else {
            PyObject *i = PyDict_GetItemWithError(index, kind);
            if (!i && PyErr_Occurred()) goto done;
            if (i) t = PyLong_AsLong(i);
            if (t == -1 && PyErr_Occurred()) goto done;
        }
        if (t >= 0 && t <= n_letters) {
            counts[t] = count[q];
            radix_by[t] = radix;
        }
        radix *= count[q] + 1;
        PyObject *v = PyDict_GetItemWithError(values, kind);
        if (!v) {
            if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, kind);
            goto done;
        }
        points[q] = PyLong_AsLong(v);
        if (points[q] == -1 && PyErr_Occurred()) goto done;
        PyObject *shown = PyUnicode_GET_LENGTH(kind) == 1 ? (Py_INCREF(kind), kind)
                                                          : PyUnicode_FromFormat("[%U]", kind);
        if (!shown) goto done;
        PyTuple_SET_ITEM(text, q, shown);
    }
    if (kind_order(kinds, nk, order) < 0) goto done;
    result = Py_BuildValue("(ONNNNNNO)", kinds, int_list(count, nk),
                           int_list(counts, n_letters + 1), int_list(radix_by, n_letters + 1),
                           int_list(radices, nk), int_list(points, nk), int_list(order, nk),
                           text);
done:
    Py_DECREF(kinds);
    Py_XDECREF(text);
    return result;
}

/* ------------------------------------------------------------------ moves found */
typedef struct {
    double eq;
    uint64_t ord;   /* the order of the full generation: ties keep it */
    int32_t score;
    int32_t code;   /* leave code */
    uint32_t mask;  /* new squares, bit by position along the line */
    uint8_t kind, across, line, start, end, n;
    uint8_t anchor; /* the square along the line it was found from */
    uint8_t cells[MAX_SIZE];
} Rec;

/* The order in which the GADDAG walk of the anchor would find the play: each square from
 * the anchor leftwards to the start, then (after a turn) rightwards to the end, as its
 * tile (a blank after the letter it stands for; 0 for a board tile), and after each
 * square what the walk does next: stop (0) before going on leftwards (1) before turning
 * right (2); on the right, stop (0) before going on (1). */
static int walk_path(const Rec *r, uint8_t *t) {
    int n = 0, a = r->anchor;
    for (int p = a; p >= r->start; p--) {
        int c = r->cells[p];
        t[n++] = (r->mask >> p) & 1 ? (uint8_t)(1 + 2 * (c & 63) + ((c & BLANK_BIT) != 0)) : 0;
        t[n++] = p > r->start ? 1 : (r->end == a ? 0 : 2);
    }
    for (int p = a + 1; p <= r->end; p++) {
        int c = r->cells[p];
        t[n++] = (r->mask >> p) & 1 ? (uint8_t)(1 + 2 * (c & 63) + ((c & BLANK_BIT) != 0)) : 0;
        t[n++] = p < r->end ? 1 : 0;
    }
    return n;
}

/* two plays of one anchor found by its segments (g->lookup: same ord): which the
 * walk finds first */
static int walks_first(const Rec *a, const Rec *b) {
    uint8_t ta[4 * MAX_SIZE + 4] = {0}, tb[4 * MAX_SIZE + 4] = {0};
    int na = walk_path(a, ta), nb = walk_path(b, tb);
    return memcmp(ta, tb, (size_t)(na > nb ? na : nb)) < 0;
}

static inline int better(const Rec *a, const Rec *b) {
    if (a->eq != b->eq) return a->eq > b->eq;
    if (a->ord != b->ord) return a->ord < b->ord;
    return a->kind == KIND_PLAY && b->kind == KIND_PLAY && walks_first(a, b);
}

static int cmp_rec(const void *x, const void *y) {
    const Rec *a = x, *b = y;
    if (better(a, b)) return -1;
    if (better(b, a)) return 1;
    return 0;
}

typedef struct {
    Rec *recs;
    Py_ssize_t n, cap;
    Py_ssize_t top; /* 0: keep all; else a heap of the `top` best (worst at the root) */
} Found;

static int found_push(Found *f, const Rec *r) {
    if (f->n == f->cap) {
        Py_ssize_t cap = f->cap ? f->cap * 2 : 1024;
        Rec *p = PyMem_Realloc(f->recs, (size_t)cap * sizeof(Rec));
        if (!p) return -1;
        f->recs = p;
        f->cap = cap;
    }
    f->recs[f->n++] = *r;
    return 0;
}

static void sift_down(Rec *h, Py_ssize_t n, Py_ssize_t i) {
    for (;;) {
        Py_ssize_t l = 2 * i + 1, r = l + 1, w = i;
        if (l < n && better(&h[w], &h[l])) w = l;
        if (r < n && better(&h[w], &h[r])) w = r;
        if (w == i) return;
        Rec t = h[i]; h[i] = h[w]; h[w] = t;
        i = w;
    }
}

static void sift_up(Rec *h, Py_ssize_t i) {
    while (i > 0) {
        Py_ssize_t p = (i - 1) / 2;
        if (!better(&h[p], &h[i])) return;
        Rec t = h[i]; h[i] = h[p]; h[p] = t;
        i = p;
    }
}

/* keep r: all of them, or in the heap of the best `top` */
static int offer(Found *f, const Rec *r) {
    if (!f->top) return found_push(f, r);
    if (f->n < f->top) {
        if (found_push(f, r) < 0) return -1;
        sift_up(f->recs, f->n - 1);
        return 0;
    }
    if (better(r, &f->recs[0])) {
        f->recs[0] = *r;
        sift_down(f->recs, f->n, 0);
    }
    return 0;
}

/* the equity a move must beat to be kept (-inf while the heap is not full) */
static inline double threshold(const Found *f) {
    return (f->top && f->n >= f->top) ? f->recs[0].eq : -INFINITY;
}

/* ------------------------------------------------------------------ generation state */
/* one line's squares, as a generation reads them (along the line, for plays in its
 * direction): tiles, values, premiums, cross-sets and cross-scores; cap by line_caps */
typedef struct {
    int bt[MAX_SIZE];
    int32_t bv[MAX_SIZE], lm[MAX_SIZE], wm[MAX_SIZE], xs[MAX_SIZE];
    uint64_t xc[MAX_SIZE];
    int cap[MAX_SIZE];
} Line;

typedef struct {
    const uint32_t *nodes;
    Py_ssize_t n_nodes;
    uint32_t root;
    int size, area, nmax, bingo_size, bingo_bonus, endgame;
    int32_t rack_code;
    int pruning; /* keeping only the best moves: the walk is cut by rb, lb and right_bound */
    /* the plays are looked up (exact_anchor), not walked: they share their anchor's ord
     * (walks_first orders them), and the first bounds skip the whole-rack check */
    int lookup;
    /* when pruning: the segments a turn to the right of the anchor can cover, for a bound
     * of what the plays after the turn can still be worth (see right_bound) */
    int n_right;
    struct { int j; long board, wmul, cross, dot_l, dot_x; } rseg[MAX_SIZE];
    const int *vals;          /* the rack's values, highest first */
    const double *best_leave; /* by tiles played */
    double going_out;
    const double *leave; /* by leave code */
    /* the line being walked (its squares: in lines[dir * size + line]) */
    int dir, line, anchor, leftstop, right_ok, minn;
    uint64_t ord_base, seq;
    const int *bt;
    const int32_t *bv, *lm, *wm, *xs;
    const uint64_t *xc;
    int *cap; /* for bounds: the best value of a rack tile a square can take */
    Line *lines; /* 2 * size: every line's squares, loaded the first time it is walked */
    uint8_t loaded[2 * MAX_SIZE], capped[2 * MAX_SIZE];
    uint8_t cur[MAX_SIZE];
    int tv[MAX_LETTERS];
    int rc[MAX_LETTERS];
    int32_t radix[MAX_LETTERS];
    uint64_t rmask;
    uint8_t desc[MAX_RACK]; /* for bounds: the rack's letters, best value first */
    int n_desc;
    uint64_t avail;    /* for bounds: the tiles a square may take (Shadow.avail) */
    /* for bounds: the words of the rack's letters (and of one or two board tiles) */
    struct { int nb, t1, t2, first, count; } cache[ANA_CACHE];
    int n_cache, n_cand;
    Found *found;
    int error;
    /* last, and not zeroed when a Gen is made (read only below n_cand): zeroing its 32 KB
     * took about 2% of a best-move generation's instructions */
    uint64_t cand[ANA_CANDS];
    /* when pruning, for the anchor walked (written by walk_bounds for its squares, from
     * the left stop to the anchor): the bound of plays of n tiles or more that start at
     * square s (rb[s][n], for the right part, whose start is known) or at s or before
     * (lb[s][n], for the left part: the play will start at or before the tile placed) */
    double rb[MAX_SIZE][MAX_RACK + 2], lb[MAX_SIZE][MAX_RACK + 2];
} Gen;

static void record(Gen *g, long ms, long wmul, long xs, int n, int32_t code, int start,
                   int end, uint32_t mask) {
    if (g->error) return;
    long score = ms * wmul + xs + (n >= g->bingo_size ? g->bingo_bonus : 0);
    double lv = (g->endgame && code == 0) ? g->going_out : g->leave[code];
    Rec r;
    r.eq = (double)score + lv;
    r.ord = g->lookup ? g->ord_base : g->ord_base + g->seq++;
    int full = g->found->top && g->found->n >= g->found->top;
    if (full && r.eq < g->found->recs[0].eq) return;
    r.score = (int32_t)score;
    r.code = code;
    r.mask = mask;
    r.kind = KIND_PLAY;
    r.across = g->dir == 0;
    r.line = (uint8_t)g->line;
    r.start = (uint8_t)start;
    r.end = (uint8_t)end;
    r.n = (uint8_t)n;
    r.anchor = (uint8_t)g->anchor;
    memcpy(r.cells + start, g->cur + start, (size_t)(end - start + 1));
    if (full && !better(&r, &g->found->recs[0])) return;
    if (offer(g->found, &r) < 0) g->error = 1;
}

static void right(Gen *g, int pos, uint32_t grp, int start, long ms, long wmul, long xs,
                  int n, int32_t code, uint32_t mask);

/* The most a play can be worth that turns right after the anchor with the left part's
 * letters ms, word premium wmul, cross-words xs and n tiles placed: for each segment
 * after the anchor, the best of the rack's tiles on its squares (letters and cross-words
 * bounded apart), and the best leave of the tiles then left. */
static double right_bound(const Gen *g, long ms, long wmul, long xs, int n) {
    double best = -INFINITY;
    for (int q = 0; q < g->n_right; q++) {
        int j = g->rseg[q].j;
        if (n + j > g->nmax) continue;
        long score = (ms + g->rseg[q].board + g->rseg[q].dot_l) * wmul * g->rseg[q].wmul + xs +
                     g->rseg[q].cross + g->rseg[q].dot_x +
                     (n + j >= g->bingo_size ? g->bingo_bonus : 0);
        double v = (double)score + g->best_leave[n + j];
        if (v > best) best = v;
    }
    return best;
}

static inline int turn_right(const Gen *g, long ms, long wmul, long xs, int n) {
    return !g->pruning || right_bound(g, ms, wmul, xs, n) >= threshold(g->found);
}

/* the new tile `nt` (a blank standing for it when `blank`) on empty square pos */
static inline void tile_parts(const Gen *g, int pos, int nt, int blank, long *ms, long *xs) {
    long v = blank ? 0 : (long)g->tv[nt] * g->lm[pos];
    *ms += v;
    if (g->xs[pos] >= 0) *xs += ((long)g->xs[pos] + v) * g->wm[pos];
}

static void left(Gen *g, int pos, uint32_t grp, long ms, long wmul, long xs, int n,
                 int32_t code, uint32_t mask) {
    if (g->error) return;
    int size = g->size, anchor = g->anchor;
    int free_ = pos == 0 || !g->bt[pos - 1];
    int sep_ok = free_ && anchor + 1 < size;
    int go_on = pos > g->leftstop;
    int t = g->bt[pos];
    if (t) {
        uint32_t nd;
        if (!find_node(g->nodes, g->n_nodes, grp, t, &nd)) return;
        ms += g->bv[pos];
        if ((nd & ACCEPTS) && free_ && g->right_ok && n >= g->minn)
            record(g, ms, wmul, xs, n, code, pos, anchor, mask);
        uint32_t arc = nd & ARC;
        if (arc) {
            if (go_on) left(g, pos - 1, arc, ms, wmul, xs, n, code, mask);
            if (sep_ok) {
                uint32_t sep = node_at(g->nodes, g->n_nodes, arc);
                if ((sep >> 24) == 0 && (sep & ARC) && turn_right(g, ms, wmul, xs, n))
                    right(g, anchor + 1, sep & ARC, pos, ms, wmul, xs, n, code, mask);
            }
        }
        return;
    }
    if (n == g->nmax) return;
    if (g->pruning && g->lb[pos][n + 1] < threshold(g->found)) return; /* nothing to beat */
    int blanks = g->rc[0];
    uint64_t allowed = g->xc[pos];
    if (!blanks) allowed &= g->rmask;
    if (!allowed) return;
    long w = wmul * g->wm[pos];
    mask |= 1u << pos;
    n += 1;
    int rec = free_ && g->right_ok && n >= g->minn;
    int stop = 64 - __builtin_clzll(allowed);
    for (Py_ssize_t i = grp;; i++) {
        uint32_t nd = node_at(g->nodes, g->n_nodes, i);
        int nt = (int)(nd >> 24);
        if (nt >= stop) return;
        if ((allowed >> nt) & 1) {
            int accepts = (nd & ACCEPTS) && rec;
            uint32_t arc = nd & ARC, sep = 0;
            if (arc && sep_ok) {
                uint32_t s = node_at(g->nodes, g->n_nodes, arc);
                if ((s >> 24) == 0 && (s & ARC)) sep = s & ARC;
            }
            for (int blank = 0; blank < 2; blank++) {
                int kind = blank ? 0 : nt;
                if (!g->rc[kind]) continue;
                g->rc[kind]--;
                if (!blank && !g->rc[kind]) g->rmask ^= 1ULL << nt;
                g->cur[pos] = (uint8_t)(blank ? (nt | BLANK_BIT) : nt);
                long m2 = ms, x2 = xs;
                tile_parts(g, pos, nt, blank, &m2, &x2);
                int32_t c2 = code - g->radix[kind];
                if (accepts) record(g, m2, w, x2, n, c2, pos, anchor, mask);
                if (arc) {
                    if (go_on) left(g, pos - 1, arc, m2, w, x2, n, c2, mask);
                    if (sep && turn_right(g, m2, w, x2, n))
                        right(g, anchor + 1, sep, pos, m2, w, x2, n, c2, mask);
                }
                if (!blank && !g->rc[kind]) g->rmask ^= 1ULL << nt;
                g->rc[kind]++;
            }
            if (g->error) return;
        }
        if (nd & IS_END) return;
    }
}

static void right(Gen *g, int pos, uint32_t grp, int start, long ms, long wmul, long xs,
                  int n, int32_t code, uint32_t mask) {
    if (g->error) return;
    int size = g->size, nxt = pos + 1;
    int end_ok = nxt == size || !g->bt[nxt];
    int more = nxt < size;
    int t = g->bt[pos];
    if (t) {
        uint32_t nd;
        if (!find_node(g->nodes, g->n_nodes, grp, t, &nd)) return;
        ms += g->bv[pos];
        if ((nd & ACCEPTS) && end_ok && n >= g->minn)
            record(g, ms, wmul, xs, n, code, start, pos, mask);
        uint32_t arc = nd & ARC;
        if (arc && more) right(g, nxt, arc, start, ms, wmul, xs, n, code, mask);
        return;
    }
    if (n == g->nmax) return;
    if (g->pruning && g->rb[start][n + 1] < threshold(g->found)) return; /* nothing to beat */
    int blanks = g->rc[0];
    uint64_t allowed = g->xc[pos];
    if (!blanks) allowed &= g->rmask;
    if (!allowed) return;
    long w = wmul * g->wm[pos];
    mask |= 1u << pos;
    n += 1;
    int rec = end_ok && n >= g->minn;
    int stop = 64 - __builtin_clzll(allowed);
    for (Py_ssize_t i = grp;; i++) {
        uint32_t nd = node_at(g->nodes, g->n_nodes, i);
        int nt = (int)(nd >> 24);
        if (nt >= stop) return;
        if ((allowed >> nt) & 1) {
            int accepts = (nd & ACCEPTS) && rec;
            uint32_t arc = more ? (nd & ARC) : 0;
            for (int blank = 0; blank < 2; blank++) {
                int kind = blank ? 0 : nt;
                if (!g->rc[kind]) continue;
                g->rc[kind]--;
                if (!blank && !g->rc[kind]) g->rmask ^= 1ULL << nt;
                g->cur[pos] = (uint8_t)(blank ? (nt | BLANK_BIT) : nt);
                long m2 = ms, x2 = xs;
                tile_parts(g, pos, nt, blank, &m2, &x2);
                int32_t c2 = code - g->radix[kind];
                if (accepts) record(g, m2, w, x2, n, c2, start, pos, mask);
                if (arc) right(g, nxt, arc, start, m2, w, x2, n, c2, mask);
                if (!blank && !g->rc[kind]) g->rmask ^= 1ULL << nt;
                g->rc[kind]++;
            }
            if (g->error) return;
        }
        if (nd & IS_END) return;
    }
}

/* ------------------------------------------------------------------ shadow bounds */
typedef struct {
    double bound; /* the best bound of a play from the anchor */
    uint64_t ord_base;
    uint8_t dir, line, anchor, leftstop, minn, tight;
} Anchor;


typedef struct {
    int vals[MAX_RACK]; /* the rack's playable tiles' values, highest first (blank 0) */
    uint64_t avail;     /* tiles a square may take: the rack's, or all with a blank */
    double best_leave[MAX_RACK + 1]; /* by tiles played: the best leave left */
    /* the lexicon's words of ANA_MIN..ANA_MAX letters by their sorted letters
     * (anagram_index), or none */
    const uint64_t *ana_slots, *ana_words;
    uint64_t ana_mask;
    Py_ssize_t ana_n_words;
    int n_letters;
    /* the letter sets of the lexicon's words (and of each with one letter a blank), as
     * bits at set_bit(set_hash), or none */
    const uint64_t *sets;
    /* the sets of tiles a play can take off the rack (when it has at most SUB_MAX
     * leaves), by how many (sub_first[k] .. sub_first[k + 1]), best leave first: each
     * one's values, highest first, the value of its leave, its set_hash and blanks */
    int sub_first[MAX_RACK + 2];
    int n_sub;
    double sub_leave[SUB_MAX];
    uint64_t sub_hash[SUB_MAX];
    uint8_t sub_blanks[SUB_MAX];
    int16_t sub_vals[SUB_MAX][MAX_RACK];
    int32_t sub_code[SUB_MAX]; /* each one's leave code */
    uint64_t blank_as[MAX_LETTERS]; /* a set's hash change when its blank is a letter */
    /* the lexicon's words by letter set and length (word_index), or none */
    const uint64_t *wi_slots, *wi_filter;
    uint64_t wi_mask;
    const uint8_t *wi_letters;
    uint64_t wi_n_letters;
} Shadow;

/* ------------------------------------------------------------------ anagram index */
/* the words of a key: (first << 16 | count) in the index, 0 for none */
static uint64_t ana_find(const Shadow *sh, uint64_t key) {
    for (uint64_t i = ana_slot(key, sh->ana_mask);; i = (i + 1) & sh->ana_mask) {
        if (sh->ana_slots[2 * i] == key) return sh->ana_slots[2 * i + 1];
        if (!sh->ana_slots[2 * i]) return 0;
    }
}

/* the words of letters[0..n) and `blanks` blanks (each any letter, in nondecreasing
 * order) into g's candidates; -1 when they do not fit */
static int ana_gather(Gen *g, const Shadow *sh, int *letters, int n, int blanks, int from) {
    if (!blanks) {
        uint64_t ref = ana_find(sh, ana_key(letters, n));
        Py_ssize_t first = (Py_ssize_t)(ref >> 16), count = (Py_ssize_t)(ref & 0xFFFF);
        if (first + count > sh->ana_n_words || g->n_cand + count > ANA_CANDS) return -1;
        memcpy(g->cand + g->n_cand, sh->ana_words + first, sizeof(uint64_t) * (size_t)count);
        g->n_cand += (int)count;
        return 0;
    }
    for (int t = from; t <= sh->n_letters; t++) {
        letters[n] = t;
        if (ana_gather(g, sh, letters, n + 1, blanks - 1, t) < 0) return -1;
    }
    return 0;
}

#define ANY_SCORE LONG_MAX /* whole_rack_score: the index cannot tell */

/* The most a word spelt on [s, e] scores (main word and cross-words, no bingo bonus):
 * the new squares' letters at their value when the rack holds that letter (else a
 * blank's 0), whatever blanks the rack must use for letters it holds too. */
static long word_score(const Gen *g, uint64_t word, int s, int len) {
    long main = 0, wmul = 1, cross = 0;
    for (int q = 0; q < len; q++) {
        int letter = (int)((word >> (6 * (len - 1 - q))) & 63), p = s + q;
        if (g->bt[p]) {
            main += g->bv[p];
            continue;
        }
        tile_parts(g, p, letter, !g->rc[letter], &main, &cross);
        wmul *= g->wm[p];
    }
    return main * wmul + cross;
}

/* What a play of every playable tile on the segment [s, e] (with nb board tiles) can
 * score at most (without the bingo bonus), from the words it can make: a word of the
 * rack's letters and the board tiles that has the board tiles where they stand and, on
 * each new square, a letter its cross-set allows; -1 for none. Lengths the index does
 * not hold, or more than two board tiles: ANY_SCORE. */
static long whole_rack_score(Gen *g, const Shadow *sh, int s, int e, int nb) {
    int len = g->nmax + nb;
    if (!sh->ana_slots || nb > 2 || len < ANA_MIN || len > ANA_MAX || e - s + 1 != len)
        return ANY_SCORE;
    int tiles[2] = {0, 0}, found = 0;
    for (int p = s; p <= e; p++)
        if (g->bt[p]) {
            if (g->bt[p] >= MAX_LETTERS) return 1;
            tiles[found++] = g->bt[p];
        }
    if (nb == 2 && tiles[0] > tiles[1]) { int t = tiles[0]; tiles[0] = tiles[1]; tiles[1] = t; }
    int c = 0;
    while (c < g->n_cache && !(g->cache[c].nb == nb && g->cache[c].t1 == tiles[0] &&
                               g->cache[c].t2 == tiles[1]))
        c++;
    if (c == g->n_cache) { /* the words of these letters, once a generation */
        if (c == ANA_CACHE) return 1;
        int letters[ANA_MAX + 1], n = 0, first = g->n_cand;
        for (int u = 1; u < MAX_LETTERS; u++)
            for (int q = 0; q < g->rc[u]; q++) letters[n++] = u;
        for (int q = 0; q < nb; q++) letters[n++] = tiles[q];
        int ok = ana_gather(g, sh, letters, n, g->rc[0], 1);
        g->cache[c].nb = nb;
        g->cache[c].t1 = tiles[0];
        g->cache[c].t2 = tiles[1];
        g->cache[c].first = first;
        g->cache[c].count = ok < 0 ? -1 : g->n_cand - first;
        if (ok < 0) g->n_cand = first;
        g->n_cache++;
    }
    if (g->cache[c].count < 0) return ANY_SCORE;
    long best = -1;
    for (int w = 0; w < g->cache[c].count; w++) {
        uint64_t word = g->cand[g->cache[c].first + w];
        int fits = 1;
        for (int q = 0; q < len && fits; q++) {
            int letter = (int)((word >> (6 * (len - 1 - q))) & 63), p = s + q;
            fits = g->bt[p] ? g->bt[p] == letter : (int)((g->xc[p] >> letter) & 1);
        }
        if (fits) {
            long score = word_score(g, word, s, len);
            if (score > best) best = score;
        }
    }
    return best;
}

/* The new squares of a segment for the bounds: each square's weight for a tile on it
 * (its letter premium times the segment's word premiums w, plus its own cross-word's
 * letter premium times word premium), highest first, and the sums that give the
 * weights times each square's best rack tile (capped = w * lcap + xcap). Kept as the
 * segment grows by one square: an insertion, or (a square with a word premium changes
 * w) the weights worked out again. */
typedef struct {
    int k;
    long c[MAX_RACK], lcap, xcap;
} Weights;

static inline long cross_weight(const Gen *g, int p) {
    return g->xs[p] >= 0 ? (long)g->lm[p] * g->wm[p] : 0;
}

static inline void weights_insert(Weights *ws, long c) {
    int r = ws->k++;
    for (; r > 0 && ws->c[r - 1] < c; r--) ws->c[r] = ws->c[r - 1];
    ws->c[r] = c;
}

/* square p added to the segment whose new squares are sq (p last), w its word premiums */
static inline void weights_add(const Gen *g, Weights *ws, const int *sq, int p, long w) {
    ws->lcap += (long)g->lm[p] * g->cap[p];
    ws->xcap += cross_weight(g, p) * g->cap[p];
    if (g->wm[p] == 1) {
        weights_insert(ws, (long)g->lm[p] * w + cross_weight(g, p));
        return;
    }
    int k = ws->k + 1;
    ws->k = 0;
    for (int q = 0; q < k; q++) weights_insert(ws, (long)g->lm[sq[q]] * w + cross_weight(g, sq[q]));
}

/* The highest score + leave a play of k tiles from the anchor could reach on a segment
 * of squares with weights ws: the rack's best tiles on the best squares (each square
 * weighted by its letter premium times the word premiums, plus its own cross-word),
 * whatever the lexicon says, and the best leave of what is left. */
static inline double segment_bound(const Gen *g, const Shadow *sh, const Weights *ws,
                                   long wmul, long board, long cross, long *top) {
    int k = ws->k;
    /* the best tiles on the best squares, or each square's best tile: both bound it */
    long best = 0, capped = wmul * ws->lcap + ws->xcap;
    for (int q = 0; q < k; q++) best += ws->c[q] * sh->vals[q];
    *top = best < capped ? best : capped;
    long score = board * wmul + cross + (k >= g->bingo_size ? g->bingo_bonus : 0) + *top;
    return (double)score + sh->best_leave[k];
}

/* segment_bound for each set of k tiles the rack can play whose letters, with the
 * segment's board tiles (hb: their letter_hash sum), make a word: its values on the best
 * squares and its own leave (top: segment_bound's tiles' part). Sets worth less than
 * `floor` are left out (-inf if all). */
static double tight_segment_bound(const Gen *g, const Shadow *sh, const Weights *ws,
                                  long wmul, long board, long cross, long top, uint64_t hb,
                                  double floor) {
    int k = ws->k;
    long capped = wmul * ws->lcap + ws->xcap;
    double base = (double)(board * wmul + cross + (k >= g->bingo_size ? g->bingo_bonus : 0));
    double best = -INFINITY;
    for (int j = sh->sub_first[k]; j < sh->sub_first[k + 1]; j++) {
        double lv = sh->sub_leave[j]; /* best leave first: nothing after can do better */
        if (base + (double)top + lv < floor) break;
        long dot = 0;
        for (int q = 0; q < k; q++) dot += ws->c[q] * sh->sub_vals[j][q];
        double v = base + (double)(dot < capped ? dot : capped) + lv;
        if (v <= best || v < floor) continue;
        if (sh->sub_blanks[j] < 2 && !has_set(sh->sets, sh->sub_hash[j] + hb)) continue;
        best = v;
        if (floor < v) floor = v;
    }
    return best;
}

/* The bound of the segment [s, e] (its new squares' weights ws, word premiums w, board
 * tiles' points b and letter hash h (odd: one not in the lexicon), cross-words c, nb board
 * tiles), against `known`, the best bound so far of plays of as many tiles. */
static double one_segment(Gen *g, const Shadow *sh, const Weights *ws, long w, long b, long c,
                          uint64_t h, int odd, int s, int e, int nb, int tight, double thr,
                          double known) {
    int kk = ws->k;
    long top;
    double v = segment_bound(g, sh, ws, w, b, c, &top);
    double floor = known > thr ? known : thr;
    if (tight && !odd && v >= floor) {
        double t = tight_segment_bound(g, sh, ws, w, b, c, top, h, floor);
        if (t < v) v = t;
    }
    /* the whole rack, alone or with one or two board tiles: its letters must make a word,
     * which scores what it scores */
    if (v > known && kk == g->nmax && !g->lookup) {
        long score = whole_rack_score(g, sh, s, e, nb);
        double exact = score < 0 ? -INFINITY
                     : (double)score + (kk >= g->bingo_size ? g->bingo_bonus : 0) +
                           sh->best_leave[kk];
        if (score != ANY_SCORE && exact < v) v = exact;
    }
    return v;
}

/* A segment (the squares [s, e] of a play from an anchor) and a set of rack tiles whose
 * letters (its blanks standing for bl and bl2), with the segment's board tiles, make a
 * word (the word index holds one), with the bound of their plays: exact_anchor tries
 * those words instead of walking. */
typedef struct {
    double v;
    uint64_t hash; /* the letter set's letter_hash sum (the tiles' and the board tiles') */
    int16_t j;     /* the set of tiles, in Shadow.sub_* */
    uint8_t s, e;
    uint8_t bl, bl2; /* the letters the set's blanks stand for (0: none), bl <= bl2 */
    uint32_t slot; /* the first slot of its words in the word index */
} Pair;

/* an anchor's pairs (p), and a heap of their indices, best bound at the root */
typedef struct {
    Pair *p;
    int *heap;
    int n, nh, cap, error;
} Pairs;

static void pairs_push(Pairs *ps, int i) {
    int *h = ps->heap, k = ps->nh++;
    double v = ps->p[i].v;
    for (; k > 0 && ps->p[h[(k - 1) / 2]].v < v; k = (k - 1) / 2) h[k] = h[(k - 1) / 2];
    h[k] = i;
}

static int pairs_pop(Pairs *ps) {
    int *h = ps->heap, top = h[0], last = h[--ps->nh], n = ps->nh, k = 0;
    double v = ps->p[last].v;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= n) break;
        if (c + 1 < n && ps->p[h[c + 1]].v > ps->p[h[c]].v) c++;
        if (ps->p[h[c]].v <= v) break;
        h[k] = h[c];
        k = c;
    }
    if (n) h[k] = last;
    return top;
}

static void pairs_add(Pairs *ps, double v, uint64_t hash, int j, int s, int e, int bl,
                      int bl2, uint64_t slot) {
    if (ps->n == ps->cap) {
        int cap = ps->cap ? 2 * ps->cap : 1024;
        Pair *p = PyMem_Realloc(ps->p, sizeof(Pair) * (size_t)cap);
        if (p) ps->p = p;
        int *h = p ? PyMem_Realloc(ps->heap, sizeof(int) * (size_t)cap) : NULL;
        if (!h) { ps->error = 1; return; }
        ps->heap = h;
        ps->cap = cap;
    }
    Pair *pr = &ps->p[ps->n];
    pr->v = v;
    pr->hash = hash;
    pr->j = (int16_t)j;
    pr->slot = (uint32_t)slot;
    pr->bl = (uint8_t)bl;
    pr->bl2 = (uint8_t)bl2;
    pr->s = (uint8_t)s;
    pr->e = (uint8_t)e;
    pairs_push(ps, ps->n++);
}

/* whether the word index may hold words of a letter set (its filter) */
static inline int word_filter(const Shadow *sh, uint64_t hash) {
    uint64_t key = word_key(hash), bits = wf_bits(key);
    return (sh->wi_filter[wf_block(key)] & bits) == bits;
}

/* the first slot of the word index that holds words of a letter set (its letter_hash sum)
 * and length, + 1; 0 for none */
static inline uint64_t word_slot(const Shadow *sh, uint64_t hash, int len) {
    uint64_t key = word_key(hash), mask = sh->wi_mask, i = ana_slot(key, mask);
    for (uint64_t n = 0; n <= mask; n++, i = (i + 1) & mask) {
        uint64_t k2 = sh->wi_slots[2 * i];
        if (!k2) return 0;
        if (k2 == key && (int)((sh->wi_slots[2 * i + 1] >> 16) & 0xFF) == len) return i + 1;
    }
    return 0;
}

/* the pairs of a set of tiles with one or two blanks (its letter set's hash with the
 * blanks as blanks): each letter (or pair of letters, in order) the blanks can stand for
 * in a word, by the Bloom filter (which holds every word's letter set with one letter a
 * blank) and the word index */
static void blank_pairs(const Shadow *sh, double v, uint64_t hash, int j, int s, int e,
                        Pairs *out) {
    int two = sh->sub_blanks[j] == 2, len = e - s + 1;
    if (!two && !has_set(sh->sets, hash)) return;
    for (int bl = 1; bl <= sh->n_letters; bl++) {
        uint64_t h = hash + sh->blank_as[bl], slot;
        if (!two) {
            if (word_filter(sh, h) && (slot = word_slot(sh, h, len)))
                pairs_add(out, v, h, j, s, e, bl, 0, slot - 1);
            continue;
        }
        if (!has_set(sh->sets, h)) continue; /* no word with bl and a blank */
        for (int bl2 = bl; bl2 <= sh->n_letters; bl2++) {
            uint64_t h2 = h + sh->blank_as[bl2];
            if (word_filter(sh, h2) && (slot = word_slot(sh, h2, len)))
                pairs_add(out, v, h2, j, s, e, bl, bl2, slot - 1);
        }
    }
}

/* every set of tiles that can fill the new squares (ws) of the segment [s, e] (its board
 * tiles' letter_hash sum hb) and make a word there, with a bound of at least `floor` */
static void segment_pairs(const Gen *g, const Shadow *sh, const Weights *ws, long wmul,
                          long board, long cross, uint64_t hb, int s, int e, double floor,
                          Pairs *out) {
    int k = ws->k;
    long capped = wmul * ws->lcap + ws->xcap, top = 0;
    for (int q = 0; q < k; q++) top += ws->c[q] * sh->vals[q];
    if (top > capped) top = capped;
    double base = (double)(board * wmul + cross + (k >= g->bingo_size ? g->bingo_bonus : 0));
    for (int j = sh->sub_first[k]; j < sh->sub_first[k + 1]; j++) {
        double lv = sh->sub_leave[j]; /* best leave first */
        if (base + (double)top + lv < floor) break;
        long dot = 0;
        for (int q = 0; q < k; q++) dot += ws->c[q] * sh->sub_vals[j][q];
        double v = base + (double)(dot < capped ? dot : capped) + lv;
        if (v < floor) continue;
        uint64_t hash = sh->sub_hash[j] + hb, slot;
        if (!sh->sub_blanks[j]) {
            if (word_filter(sh, hash) && (slot = word_slot(sh, hash, e - s + 1)))
                pairs_add(out, v, hash, j, s, e, 0, 0, slot - 1);
            continue;
        }
        blank_pairs(sh, v, hash, j, s, e, out);
    }
}

/* Every segment a play from the anchor could cover (starting at or after the left stop,
 * bounded by empty squares or the edge, every new square able to take a rack tile):
 * returns the best bound of a play from the anchor. With `bys`, also the best bound of
 * plays of exactly k tiles starting at s in bys[s][k] (each segment then bounded against
 * those of its own start only). */
static double anchor_bound(Gen *g, const Shadow *sh, int tight, double thr,
                           double (*bys)[MAX_RACK + 2], Pairs *pairs) {
    int a = g->anchor, size = g->size;
    double byk[MAX_RACK + 2];
    for (int k = 0; k <= MAX_RACK + 1; k++) byk[k] = -INFINITY;
    if (bys)
        for (int s = g->leftstop; s <= a; s++)
            for (int k = 0; k <= MAX_RACK + 1; k++) bys[s][k] = -INFINITY;
    int sq[MAX_RACK], k = 0, nbl = 0, odd = 0; /* odd: a board tile not in the lexicon */
    long wl = 1, bl = 0, cl = 0;
    uint64_t hl = 0; /* letter_hash of the board tiles */
    Weights left_ws = {0}, ws;
    tight = tight && sh->sets && sh->n_sub;
    for (int s = a; s >= g->leftstop; s--) { /* the word starts at s */
        if (g->bt[s]) {
            bl += g->bv[s];
            nbl++;
            if (g->bt[s] >= MAX_LETTERS) odd = 1;
            else hl += letter_hash(g->bt[s]);
        } else {
            if (!(g->xc[s] & sh->avail) || k == g->nmax) break;
            sq[k++] = s;
            wl *= g->wm[s];
            if (g->xs[s] >= 0) cl += (long)g->xs[s] * g->wm[s];
            weights_add(g, &left_ws, sq, s, wl);
        }
        if (s > 0 && g->bt[s - 1]) continue; /* the word would go on leftwards */
        int e = a, nb = nbl, odd_r = odd;
        long w = wl, b = bl, c = cl;
        uint64_t h = hl;
        ws = left_ws;
        for (;;) { /* ... and ends at e */
            while (e + 1 < size && g->bt[e + 1]) {
                e++;
                b += g->bv[e];
                nb++;
                if (g->bt[e] >= MAX_LETTERS) odd_r = 1;
                else h += letter_hash(g->bt[e]);
            }
            int kk = ws.k;
            if (pairs) { /* for exact_anchor */
                long top;
                if (!odd_r && segment_bound(g, sh, &ws, w, b, c, &top) >= thr)
                    segment_pairs(g, sh, &ws, w, b, c, h, s, e, thr, pairs);
            } else {
                double known = bys ? bys[s][kk] : byk[kk];
                double v = one_segment(g, sh, &ws, w, b, c, h, odd_r, s, e, nb, tight, thr, known);
                if (v > byk[kk]) byk[kk] = v;
                if (bys && v > bys[s][kk]) bys[s][kk] = v;
            }
            if (e + 1 >= size || kk == g->nmax) break;
            int p = e + 1;
            if (!(g->xc[p] & sh->avail)) break;
            sq[kk] = p;
            w *= g->wm[p];
            if (g->xs[p] >= 0) c += (long)g->xs[p] * g->wm[p];
            weights_add(g, &ws, sq, p, w);
            e = p;
        }
        /* sq[k..) were the right part's: the left part's stay */
    }
    double best = -INFINITY;
    for (int n = MAX_RACK; n >= 0; n--)
        if (byk[n] > best) best = byk[n];
    return best;
}

/* the (nodes, dawg_root) arguments of anagram_index and word_index: the nodes' buffer
 * (released on failure) */
static int dawg_args(PyObject *args, Buf *nodes, unsigned int *root) {
    PyObject *nodes_o;
    if (!PyArg_ParseTuple(args, "OI", &nodes_o, root)) return -1;
    if (get_buf(nodes_o, nodes, 4, 1, 0, "nodes") < 0) { release(nodes); return -1; }
    return 0;
}

/* anagram_index(nodes, dawg_root): for the bounds, the DAWG's words of 7 to 9 letters by
 * their sorted letters and the letter sets of all its words (bytes; see word_index.c) */
static PyObject *anagram_index(PyObject *self, PyObject *args) {
    unsigned int root;
    Buf nodes = {0};
    if (dawg_args(args, &nodes, &root) < 0) return NULL;
    AnagramBuild b;
    int ok = anagram_collect(&b, nodes.view.buf, nodes.view.len / 4, root) == 0;
    release(&nodes);
    PyObject *result = NULL;
    if (!ok) {
        PyErr_NoMemory();
    } else {
        Py_ssize_t items = anagram_items(&b);
        result = PyBytes_FromStringAndSize(NULL, items * (Py_ssize_t)sizeof(uint64_t));
        if (result) anagram_fill(&b, (uint64_t *)PyBytes_AS_STRING(result));
    }
    anagram_free(&b);
    return result;
}

/* word_index(nodes, dawg_root): every word by its letter set and length (bytes; see
 * word_index.h) */
static PyObject *word_index(PyObject *self, PyObject *args) {
    unsigned int root;
    Buf nodes = {0};
    if (dawg_args(args, &nodes, &root) < 0) return NULL;
    WordIndexBuild b;
    int ok = word_index_collect(&b, nodes.view.buf, nodes.view.len / 4, root) == 0;
    release(&nodes);
    PyObject *result = NULL;
    if (!ok) {
        PyErr_NoMemory();
    } else {
        Py_ssize_t items = word_index_items(&b);
        result = PyBytes_FromStringAndSize(NULL, items * (Py_ssize_t)sizeof(uint64_t));
        if (result) word_index_fill(&b, (uint64_t *)PyBytes_AS_STRING(result));
    }
    word_index_free(&b);
    return result;
}

/* ------------------------------------------------------------------ request reading */
typedef struct {
    PyObject *move_type;
    PyObject *kinds[3];
    Py_ssize_t off[12]; /* slot offsets of Move's attributes, in SLOT_NAMES order */
    int ready;
} MoveMaker;

static MoveMaker maker = {0};
static const char *SLOT_NAMES[12] = {"kind", "row", "col", "across", "cells", "new", "score",
                                     "leave", "leave_value", "equity", "bingo", "_tiles"};

static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *type, *play, *exchange, *pass;
    if (!PyArg_ParseTuple(args, "O!OOO", &PyType_Type, &type, &play, &exchange, &pass))
        return NULL;
    Py_ssize_t off[12];
    for (int k = 0; k < 12; k++) {
        PyObject *d = PyObject_GetAttrString(type, SLOT_NAMES[k]);
        if (!d) return NULL;
        int ok = Py_IS_TYPE(d, &PyMemberDescr_Type) &&
                 ((PyMemberDescrObject *)d)->d_member->type == T_OBJECT_EX;
        if (ok) off[k] = ((PyMemberDescrObject *)d)->d_member->offset;
        Py_DECREF(d);
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "configure: %s is not a slot", SLOT_NAMES[k]);
            return NULL;
        }
    }
    Py_XDECREF(maker.move_type);
    for (int k = 0; k < 3; k++) Py_XDECREF(maker.kinds[k]);
    Py_INCREF(type); Py_INCREF(play); Py_INCREF(exchange); Py_INCREF(pass);
    maker.move_type = type;
    maker.kinds[0] = play; maker.kinds[1] = exchange; maker.kinds[2] = pass;
    memcpy(maker.off, off, sizeof off);
    maker.ready = 1;
    Py_RETURN_NONE;
}

/* The fields of gcgtools.movegen.engine.EngineInputs, in its order: generate() reads the
 * tuple by position, once, at its start (the module's INPUTS names them, and the Python
 * side checks that its fields are these). */
#define INPUT_FIELDS(X) \
    X(IN_NODES, "nodes") \
    X(IN_ROOT, "root") \
    X(IN_UPPERS, "uppers") \
    X(IN_LOWERS, "lowers") \
    X(IN_TILE_VALUES, "tile_values") \
    X(IN_SIZE, "size") \
    X(IN_CELLS, "cells") \
    X(IN_BT, "bt") \
    X(IN_BV, "bv") \
    X(IN_LM, "lm") \
    X(IN_WM, "wm") \
    X(IN_CROSS, "cross") \
    X(IN_XSUM, "xsum") \
    X(IN_CENTRE, "centre") \
    X(IN_RACK, "rack") \
    X(IN_RADIX, "radix") \
    X(IN_KIND_COUNTS, "kind_counts") \
    X(IN_KIND_RADIX, "kind_radix") \
    X(IN_KIND_POINTS, "kind_points") \
    X(IN_KIND_ORDER, "kind_order") \
    X(IN_KIND_TEXT, "kind_text") \
    X(IN_KIND_KLV, "kind_klv") \
    X(IN_ENDGAME, "endgame") \
    X(IN_GOING_OUT, "going_out") \
    X(IN_LEAVE_TABLE, "leave_table") \
    X(IN_KLV, "klv") \
    X(IN_FULL_LEAVE, "full_leave") \
    X(IN_FULL_SPLIT, "full_split") \
    X(IN_BINGO_SIZE, "bingo_size") \
    X(IN_BINGO_BONUS, "bingo_bonus") \
    X(IN_EXCHANGE_BAG, "exchange_bag") \
    X(IN_TOP, "top") \
    X(IN_ANAGRAMS, "anagrams") \
    X(IN_WORDS, "words")
#define AS_ENUM(id, name) id,
#define AS_NAME(id, name) name,
enum { INPUT_FIELDS(AS_ENUM) N_INPUTS };
static const char *INPUT_NAMES[N_INPUTS] = {INPUT_FIELDS(AS_NAME)};

/* the request's field `field` (a new reference) */
static PyObject *req_attr(PyObject *req, int field) {
    PyObject *v = PyTuple_GET_ITEM(req, field);
    Py_INCREF(v);
    return v;
}

static long attr_long(PyObject *req, int name, int *err) {
    PyObject *v = req_attr(req, name);
    if (!v) { *err = 1; return 0; }
    long x = PyLong_AsLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred()) *err = 1;
    return x;
}

/* a list/tuple of ints into dst[0..n) (n its length, at most cap) */
static Py_ssize_t read_ints(PyObject *req, int name, long *dst, Py_ssize_t cap) {
    PyObject *v = req_attr(req, name);
    if (!v) return -1;
    PyObject *seq = PySequence_Fast(v, "a sequence of ints expected");
    Py_DECREF(v);
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > cap) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: at most %zd items", INPUT_NAMES[name], cap);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        dst[k] = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (dst[k] == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
    }
    Py_DECREF(seq);
    return n;
}

/* the value of every leave code: a table given, the KLV (leaves.c), or (bag empty) minus
 * points (leaves.c) */
static int leave_values(PyObject *req, const Kinds *kd, int endgame, double *out) {
    Py_ssize_t nc = kd->n_codes;
    if (endgame) {
        endgame_leaves(kd, out);
        return 0;
    }
    PyObject *table = req_attr(req, IN_LEAVE_TABLE);
    if (!table) return -1;
    if (table != Py_None) {
        PyObject *seq = PySequence_Fast(table, "leave_table: a sequence expected");
        Py_DECREF(table);
        if (!seq) return -1;
        if (PySequence_Fast_GET_SIZE(seq) != nc) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "leave_table: one value per leave code expected");
            return -1;
        }
        for (Py_ssize_t code = 0; code < nc; code++) {
            out[code] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, code));
            if (out[code] == -1.0 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        }
        Py_DECREF(seq);
        return 0;
    }
    Py_DECREF(table);
    PyObject *klv = req_attr(req, IN_KLV);
    if (!klv) return -1;
    if (klv == Py_None) { /* no leaves: every leave is worth 0 */
        Py_DECREF(klv);
        for (Py_ssize_t code = 0; code < nc; code++) out[code] = 0.0;
        return 0;
    }
    PyObject *nodes_o, *counts_o, *values_o;
    unsigned int root;
    int rc = -1;
    Buf nodes = {0}, counts = {0}, values = {0};
    int order[MAX_KINDS]; /* the kinds by their number in the KLV's alphabet */
    if (!PyArg_ParseTuple(klv, "OOOI", &nodes_o, &counts_o, &values_o, &root)) goto done;
    if (get_buf(nodes_o, &nodes, 4, 1, 0, "klv nodes") < 0 ||
        get_buf(counts_o, &counts, 4, nodes.view.len / 4, 0, "klv counts") < 0 ||
        get_buf(values_o, &values, 4, 0, 0, "klv values") < 0)
        goto done;
    Klv graph = {nodes.view.buf, counts.view.buf, nodes.view.len / 4, values.view.buf,
                 values.view.len / 4, root};
    klv_leaves(&graph, kd, order, out);
    {   /* keeping the whole rack (the pass): a leave longer than the KLV lists is
         * estimated by the Leaves object in Python, which gives this value, or (one tile
         * longer: full_split) by split_full_leave the same way */
        int err = 0;
        long split = attr_long(req, IN_FULL_SPLIT, &err);
        if (err) goto done;
        PyObject *full = req_attr(req, IN_FULL_LEAVE);
        if (!full) goto done;
        if (split && nc > 1) {
            split_full_leave(kd, order, out);
        } else if (full != Py_None) {
            double v = PyFloat_AsDouble(full);
            if (v == -1.0 && PyErr_Occurred()) { Py_DECREF(full); goto done; }
            out[nc - 1] = v;
        }
        Py_DECREF(full);
    }
    rc = 0;
done:
    Py_DECREF(klv);
    release(&nodes); release(&counts); release(&values);
    return rc;
}

/* ------------------------------------------------------------------ Move objects */
typedef struct {
    PyObject *cells;       /* board.cells: a list of str | None */
    PyObject *uppers, *lowers;
    PyObject **leave_text; /* by code, made on demand */
    PyObject **leave_val;  /* by code, made on demand */
    const Kinds *kd;
    PyObject *kind_text; /* tuple: each kind's notation */
    const double *leave;
    int size, bingo_size, endgame;
    double going_out;
} Out;

/* the tiles of a leave code (or of what a code throws back) in sorted order, as text */
static PyObject *tiles_text(const Kinds *kd, PyObject *kind_text, long code) {
    long digit[MAX_KINDS], rest = code;
    for (int k = 0; k < kd->n_kinds; k++) {
        digit[k] = rest % (kd->count[k] + 1);
        rest /= kd->count[k] + 1;
    }
    PyObject *parts = PyList_New(0);
    if (!parts) return NULL;
    for (int q = 0; q < kd->n_kinds; q++) {
        int k = (int)kd->order[q];
        PyObject *t = PyTuple_GET_ITEM(kind_text, k);
        for (long d = 0; d < digit[k]; d++)
            if (PyList_Append(parts, t) < 0) { Py_DECREF(parts); return NULL; }
    }
    PyObject *empty = PyUnicode_FromStringAndSize("", 0);
    PyObject *out = empty ? PyUnicode_Join(empty, parts) : NULL;
    Py_XDECREF(empty);
    Py_DECREF(parts);
    return out;
}

static PyObject *play_cells(const Out *o, const Rec *r) {
    int n = r->end - r->start + 1, size = o->size;
    PyObject *cells = PyTuple_New(n);
    if (!cells) return NULL;
    for (int k = 0; k < n; k++) {
        int pos = r->start + k;
        uint8_t c = r->cells[pos];
        PyObject *t;
        if ((r->mask >> pos) & 1) {
            t = PyTuple_GET_ITEM((c & BLANK_BIT) ? o->lowers : o->uppers, c & ~BLANK_BIT);
        } else {
            int flat = r->across ? r->line * size + pos : pos * size + r->line;
            t = PyList_GET_ITEM(o->cells, flat);
        }
        Py_INCREF(t);
        PyTuple_SET_ITEM(cells, k, t);
    }
    return cells;
}

static PyObject *make_move(Out *o, const Rec *r) {
    PyObject *v[12] = {0};
    PyObject **leave = &o->leave_text[r->code];
    if (!*leave && !(*leave = tiles_text(o->kd, o->kind_text, r->code))) return NULL;
    int going_out = r->kind == KIND_PLAY && o->endgame && r->code == 0;
    if (going_out) {
        v[8] = PyFloat_FromDouble(o->going_out);
    } else {
        PyObject **lv = &o->leave_val[r->code];
        if (!*lv) *lv = PyFloat_FromDouble(o->leave[r->code]);
        v[8] = *lv;
        Py_XINCREF(v[8]);
    }
    v[0] = maker.kinds[r->kind];
    Py_INCREF(v[0]);
    v[7] = *leave;
    Py_INCREF(v[7]);
    int play = r->kind == KIND_PLAY, across = play ? r->across : 1;
    v[1] = PyLong_FromLong(!play ? 0 : across ? r->line : r->start);
    v[2] = PyLong_FromLong(!play ? 0 : across ? r->start : r->line);
    v[3] = across ? Py_True : Py_False;
    Py_INCREF(v[3]);
    v[5] = PyLong_FromUnsignedLong(play ? (unsigned long)(r->mask >> r->start) : 0);
    v[6] = PyLong_FromLong(r->score);
    v[9] = PyFloat_FromDouble(r->eq);
    v[10] = (play && r->n >= o->bingo_size) ? Py_True : Py_False;
    Py_INCREF(v[10]);
    if (play) {
        v[4] = play_cells(o, r);
        v[11] = Py_None;
        Py_INCREF(v[11]);
    } else {
        v[4] = PyTuple_New(0);
        v[11] = r->kind == KIND_PASS
                    ? PyUnicode_FromStringAndSize("", 0)
                    : tiles_text(o->kd, o->kind_text, (long)(o->kd->n_codes - 1) - r->code);
    }
    PyObject *m = NULL;
    for (int k = 0; k < 12; k++)
        if (!v[k]) goto fail;
    PyTypeObject *tp = (PyTypeObject *)maker.move_type;
    m = tp->tp_alloc(tp, 0);
    if (!m) goto fail;
    for (int k = 0; k < 12; k++) /* the slots were NULL: each takes its reference */
        *(PyObject **)((char *)m + maker.off[k]) = v[k];
    /* A new move holds only strings, numbers, a tuple of strings and a MoveKind: it
     * cannot be part of a reference cycle, so the garbage collector need not track it
     * (tracking thousands of them per call cost a quarter of the time). */
    PyObject_GC_UnTrack(v[4]);
    PyObject_GC_UnTrack(m);
    return m;
fail:
    for (int k = 0; k < 12; k++) Py_XDECREF(v[k]);
    return NULL;
}

/* ------------------------------------------------------------------ generate() */
typedef struct {
    Buf nodes, bt, bv, lm, wm, cross, xsum, ana, words;
    PyObject *cells, *uppers, *lowers, *text;
    long rack[MAX_LETTERS], radix[MAX_LETTERS], tv[MAX_LETTERS];
    Py_ssize_t n_letters;
} Inputs;

static void free_inputs(Inputs *in) {
    release(&in->nodes); release(&in->bt); release(&in->bv); release(&in->lm);
    release(&in->wm); release(&in->cross); release(&in->xsum); release(&in->ana);
    release(&in->words);
    Py_XDECREF(in->cells); Py_XDECREF(in->uppers); Py_XDECREF(in->lowers);
    Py_XDECREF(in->text);
}

static int attr_buf(PyObject *req, int name, Buf *b, Py_ssize_t itemsize,
                    Py_ssize_t min_items) {
    PyObject *v = req_attr(req, name);
    if (!v) return -1;
    int rc = get_buf(v, b, itemsize, min_items, 0, INPUT_NAMES[name]);
    Py_DECREF(v);
    return rc;
}

static int attr_tuple(PyObject *req, int name, PyObject **out, Py_ssize_t min) {
    *out = req_attr(req, name);
    if (!*out) return -1;
    if (!PyTuple_Check(*out) || PyTuple_GET_SIZE(*out) < min) {
        PyErr_Format(PyExc_TypeError, "%s: a tuple of %zd items expected", INPUT_NAMES[name], min);
        return -1;
    }
    return 0;
}

static int read_kinds(PyObject *req, Kinds *kd) {
    long tmp[MAX_KINDS];
    Py_ssize_t n = read_ints(req, IN_KIND_COUNTS, kd->count, MAX_KINDS);
    if (n < 0) return -1;
    kd->n_kinds = (int)n;
    if (read_ints(req, IN_KIND_RADIX, kd->radix, MAX_KINDS) != n ||
        read_ints(req, IN_KIND_POINTS, kd->points, MAX_KINDS) != n ||
        read_ints(req, IN_KIND_ORDER, kd->order, MAX_KINDS) != n) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "kinds: one entry per kind expected");
        return -1;
    }
    Py_ssize_t nk = read_ints(req, IN_KIND_KLV, tmp, MAX_KINDS);
    if (nk < 0) return -1;
    for (int k = 0; k < n; k++) kd->klv[k] = k < nk ? tmp[k] : 0;
    long codes = 1, tiles = 0;
    for (int k = 0; k < n; k++) {
        if (kd->count[k] < 1 || kd->order[k] < 0 || kd->order[k] >= n) {
            PyErr_SetString(PyExc_ValueError, "kinds: bad count or order");
            return -1;
        }
        tiles += kd->count[k];
        codes *= kd->count[k] + 1;
        if (codes > MAX_CODES || tiles > MAX_RACK) {
            PyErr_SetString(PyExc_ValueError, "rack: too many tiles for the C helper");
            return -1;
        }
    }
    kd->n_codes = codes;
    return 0;
}

/* the request's word index (word_index, or None), its header and size checked; each slot
 * is checked where it is read (exact_anchor) */
static int read_words(PyObject *req, Buf *b) {
    PyObject *w = req_attr(req, IN_WORDS);
    if (!w) return -1;
    int bad = w != Py_None && get_buf(w, b, 8, WI_HEAD, 0, "words") < 0;
    Py_DECREF(w);
    if (bad) return -1;
    if (!b->held) return 0;
    const uint64_t *buf = b->view.buf;
    uint64_t items = (uint64_t)(b->view.len / 8);
    if (!buf[0] || (buf[0] & (buf[0] - 1)) || buf[0] > items || buf[1] != WI_MAGIC ||
        buf[2] > 8 * items || WI_HEAD + 2 * buf[0] + WF_WORDS + (buf[2] + 7) / 8 > items) {
        PyErr_SetString(PyExc_ValueError, "words: not a word_index");
        return -1;
    }
    return 0;
}

static int read_inputs(PyObject *req, Inputs *in, Gen *g, int *size) {
    int err = 0;
    *size = (int)attr_long(req, IN_SIZE, &err);
    g->root = (uint32_t)attr_long(req, IN_ROOT, &err);
    g->bingo_size = (int)attr_long(req, IN_BINGO_SIZE, &err);
    g->bingo_bonus = (int)attr_long(req, IN_BINGO_BONUS, &err);
    if (err) return -1;
    if (*size < 1 || *size > MAX_SIZE) {
        PyErr_SetString(PyExc_ValueError, "generate: board size out of range");
        return -1;
    }
    int area = *size * *size;
    if (attr_buf(req, IN_NODES, &in->nodes, 4, 1) < 0 || attr_buf(req, IN_BT, &in->bt, 4, area) < 0 ||
        attr_buf(req, IN_BV, &in->bv, 4, area) < 0 || attr_buf(req, IN_LM, &in->lm, 4, area) < 0 ||
        attr_buf(req, IN_WM, &in->wm, 4, area) < 0 ||
        attr_buf(req, IN_CROSS, &in->cross, 8, 2 * area) < 0 ||
        attr_buf(req, IN_XSUM, &in->xsum, 4, 2 * area) < 0)
        return -1;
    PyObject *ana = req_attr(req, IN_ANAGRAMS);
    if (!ana) return -1;
    int bad = ana != Py_None && get_buf(ana, &in->ana, 8, 1, 0, "anagrams") < 0;
    Py_DECREF(ana);
    if (bad) return -1;
    if (in->ana.held) {
        const uint64_t *buf = in->ana.view.buf;
        Py_ssize_t items = in->ana.view.len / 8;
        if (items < 2 || !buf[0] || (buf[0] & (buf[0] - 1)) || buf[0] > (uint64_t)items ||
            buf[1] != SETS_LG || (Py_ssize_t)(2 + 2 * buf[0]) + SET_WORDS > items) {
            PyErr_SetString(PyExc_ValueError, "anagrams: not an anagram_index");
            return -1;
        }
    }
    if (read_words(req, &in->words) < 0) return -1;
    in->cells = req_attr(req, IN_CELLS);
    if (!in->cells) return -1;
    if (!PyList_Check(in->cells) || PyList_GET_SIZE(in->cells) < area) {
        PyErr_SetString(PyExc_TypeError, "cells: a list of the board's squares expected");
        return -1;
    }
    Py_ssize_t nl = read_ints(req, IN_RACK, in->rack, MAX_LETTERS);
    if (nl < 1) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "rack: counts expected");
        return -1;
    }
    in->n_letters = nl;
    if (read_ints(req, IN_RADIX, in->radix, MAX_LETTERS) != nl ||
        read_ints(req, IN_TILE_VALUES, in->tv, MAX_LETTERS) != nl) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "radix, tile_values: one per tile index");
        return -1;
    }
    if (attr_tuple(req, IN_UPPERS, &in->uppers, nl) < 0 ||
        attr_tuple(req, IN_LOWERS, &in->lowers, nl) < 0)
        return -1;
    g->nodes = in->nodes.view.buf;
    g->n_nodes = in->nodes.view.len / 4;
    g->size = *size;
    g->area = area;
    g->nmax = 0;
    g->rmask = 0;
    for (Py_ssize_t t = 0; t < nl; t++) {
        g->rc[t] = (int)in->rack[t];
        g->radix[t] = (int32_t)in->radix[t];
        g->tv[t] = (int)in->tv[t];
        g->nmax += g->rc[t];
        if (t > 0 && g->rc[t]) g->rmask |= 1ULL << t;
    }
    return 0;
}

/* the line `line` of direction dir, for the generation to read (loaded once) */
static void load_line(Gen *g, const Inputs *in, int dir, int line) {
    int size = g->size, area = g->area, li = dir * size + line;
    Line *ln = &g->lines[li];
    if (!g->loaded[li]) {
        const int32_t *bt = in->bt.view.buf, *bv = in->bv.view.buf, *lm = in->lm.view.buf,
                      *wm = in->wm.view.buf, *xsum = in->xsum.view.buf;
        const uint64_t *cross = in->cross.view.buf;
        for (int k = 0; k < size; k++) {
            int f = dir == 0 ? line * size + k : k * size + line;
            ln->bt[k] = bt[f];
            ln->bv[k] = bv[f];
            ln->lm[k] = lm[f];
            ln->wm[k] = wm[f];
            ln->xc[k] = cross[dir * area + f];
            ln->xs[k] = xsum[dir * area + f];
        }
        g->loaded[li] = 1;
    }
    g->dir = dir;
    g->line = line;
    g->bt = ln->bt;
    g->bv = ln->bv;
    g->lm = ln->lm;
    g->wm = ln->wm;
    g->xc = ln->xc;
    g->xs = ln->xs;
    g->cap = ln->cap;
}

/* each square's best rack tile value (0 for a blank; -1000 for nothing), once a line */
static void line_caps(Gen *g) {
    int li = g->dir * g->size + g->line;
    if (g->capped[li]) return;
    g->capped[li] = 1;
    for (int k = 0; k < g->size; k++) {
        uint64_t x = g->xc[k];
        int cap = g->rc[0] && x ? 0 : -1000;
        for (int i = 0; x && i < g->n_desc; i++) {
            int t = g->desc[i];
            if ((x >> t) & 1) {
                if (g->tv[t] > cap) cap = g->tv[t];
                break;
            }
        }
        g->cap[k] = cap;
    }
}

/* g->desc: the rack's letters (not the blank), highest value first (for line_caps) */
static void rack_desc(Gen *g) {
    g->n_desc = 0;
    for (int t = 1; t < MAX_LETTERS; t++) {
        if (!g->rc[t]) continue;
        int r = g->n_desc++;
        for (; r > 0 && g->tv[g->desc[r - 1]] < g->tv[t]; r--) g->desc[r] = g->desc[r - 1];
        g->desc[r] = (uint8_t)t;
    }
}

static int is_anchor(const int32_t *bt, int size, int f) {
    if (bt[f]) return 0;
    int r = f / size, c = f % size;
    return (r > 0 && bt[f - size]) || (r < size - 1 && bt[f + size]) || (c > 0 && bt[f - 1]) ||
           (c < size - 1 && bt[f + 1]);
}

/* Every anchor (walkable: a tile fits) of the board in the full generation's order,
 * with its left stop, the one-tile rule and (when `sh`) its bound. */
static Py_ssize_t list_anchors(Gen *g, const Inputs *in, int centre, const Shadow *sh,
                               Anchor *out) {
    int size = g->size;
    const int32_t *bt = in->bt.view.buf;
    uint8_t anchor[MAX_SIZE * MAX_SIZE]; /* the same squares both ways: found once */
    for (int f = 0; f < g->area; f++)
        anchor[f] = (uint8_t)(centre >= 0 ? f == centre : is_anchor(bt, size, f));
    Py_ssize_t n = 0;
    for (int dir = 0; dir < 2; dir++) {
        for (int line = 0; line < size; line++) {
            int loaded = 0, prev = -1;
            for (int k = 0; k < size; k++) {
                int f = dir == 0 ? line * size + k : k * size + line;
                if (!anchor[f]) continue;
                if (!loaded) {
                    load_line(g, in, dir, line);
                    if (sh) line_caps(g);
                    loaded = 1;
                }
                if (g->xc[k]) {
                    Anchor *a = &out[n];
                    a->dir = (uint8_t)dir;
                    a->line = (uint8_t)line;
                    a->anchor = (uint8_t)k;
                    a->leftstop = (uint8_t)(prev + 1);
                    a->ord_base = (uint64_t)(n + 1) << 32;
                    a->minn = (centre >= 0 || (dir == 1 && g->xs[k] >= 0)) ? 2 : 1;
                    if (sh) {
                        g->anchor = k;
                        g->leftstop = prev + 1;
                        a->bound = anchor_bound(g, sh, 0, -INFINITY, NULL, NULL);
                        a->tight = 0;
                    } else {
                        a->bound = INFINITY;
                    }
                    n++;
                }
                prev = k;
            }
        }
    }
    return n;
}

static long sorted_dot(long *c, int j, const int *vals) {
    for (int q = 1; q < j; q++)
        for (int r = q; r > 0 && c[r] > c[r - 1]; r--) {
            long t = c[r]; c[r] = c[r - 1]; c[r - 1] = t;
        }
    long dot = 0;
    for (int q = 0; q < j; q++) dot += c[q] * vals[q];
    return dot;
}

/* the segments [anchor + 1, e] a turn to the right can cover (for right_bound) */
static void right_segments(Gen *g) {
    int j = 0, e = g->anchor;
    long board = 0, wmul = 1, cross = 0, lm[MAX_RACK], xm[MAX_RACK], c[MAX_RACK];
    g->n_right = 0;
    while (e + 1 < g->size) {
        int p = ++e;
        if (g->bt[p]) {
            board += g->bv[p];
        } else {
            if (j == g->nmax - 1 || !(g->xc[p] & g->avail)) break;
            lm[j] = g->lm[p];
            xm[j] = g->xs[p] >= 0 ? (long)g->lm[p] * g->wm[p] : 0;
            wmul *= g->wm[p];
            if (g->xs[p] >= 0) cross += (long)g->xs[p] * g->wm[p];
            j++;
        }
        if (e + 1 < g->size && g->bt[e + 1]) continue; /* the word goes on */
        int q = g->n_right++;
        g->rseg[q].j = j;
        g->rseg[q].board = board;
        g->rseg[q].wmul = wmul;
        g->rseg[q].cross = cross;
        memcpy(c, lm, sizeof(long) * (size_t)j);
        g->rseg[q].dot_l = sorted_dot(c, j, g->vals);
        memcpy(c, xm, sizeof(long) * (size_t)j);
        g->rseg[q].dot_x = sorted_dot(c, j, g->vals);
    }
}

/* g->rb and g->lb for the anchor about to be walked (its line loaded), against the
 * moves kept so far */
static void walk_bounds(Gen *g, const Shadow *sh, const Anchor *a) {
    line_caps(g);
    anchor_bound(g, sh, 1, threshold(g->found), g->rb, NULL);
    for (int s = a->leftstop; s <= a->anchor; s++) {
        for (int n = MAX_RACK; n >= 0; n--)
            if (g->rb[s][n + 1] > g->rb[s][n]) g->rb[s][n] = g->rb[s][n + 1];
        for (int n = 0; n <= MAX_RACK + 1; n++) {
            double before = s > a->leftstop ? g->lb[s - 1][n] : -INFINITY;
            g->lb[s][n] = before > g->rb[s][n] ? before : g->rb[s][n];
        }
    }
}

static int walk_anchor(Gen *g, const Inputs *in, const Shadow *sh, const Anchor *a) {
    load_line(g, in, a->dir, a->line);
    g->anchor = a->anchor;
    g->leftstop = a->leftstop;
    g->right_ok = a->anchor + 1 == g->size || !g->bt[a->anchor + 1];
    g->minn = a->minn;
    g->ord_base = a->ord_base;
    g->seq = 0;
    g->pruning = g->found->top != 0;
    if (g->pruning) {
        right_segments(g);
        walk_bounds(g, sh, a);
    }
    left(g, a->anchor, g->root, 0, 1, 0, 0, g->rack_code, 0);
    return g->error ? -1 : 0;
}

/* the word w (its letters) on the walked line's [s, e] (the rack's blanks on the squares
 * of bit set `blanks`), when its letters fit the board tiles, the cross-sets and the
 * rack, and take off it the tiles that leave `want` */
static void try_word(Gen *g, const uint8_t *w, int s, int e, int32_t want, uint32_t blanks) {
    long ms = 0, wmul = 1, xs = 0;
    int n = 0, q = 0, ok = 1;
    uint32_t mask = 0;
    int32_t code = g->rack_code;
    for (; q <= e - s; q++) {
        int p = s + q, t = w[q], kind = (blanks >> p) & 1 ? 0 : t;
        if (g->bt[p]) {
            if (g->bt[p] != t) { ok = 0; break; }
            ms += g->bv[p];
            continue;
        }
        if (t >= MAX_LETTERS || !((g->xc[p] >> t) & 1) || !g->rc[kind]) { ok = 0; break; }
        g->rc[kind]--;
        code -= g->radix[kind];
        n++;
        mask |= 1u << p;
        g->cur[p] = (uint8_t)(kind ? t : (t | BLANK_BIT));
        tile_parts(g, p, t, !kind, &ms, &xs);
        wmul *= g->wm[p];
    }
    for (int r = 0; r < q; r++)
        if (!g->bt[s + r]) g->rc[(blanks >> (s + r)) & 1 ? 0 : w[r]]++;
    if (ok && code == want && n >= g->minn) record(g, ms, wmul, xs, n, code, s, e, mask);
}

/* the word w with the pair's tiles: its blanks (standing for letters bl, bl2, in that
 * order) on each new square or pair of new squares of those letters in turn */
static void try_pair_word(Gen *g, const uint8_t *w, const Pair *pr, int32_t want) {
    if (!pr->bl) { try_word(g, w, pr->s, pr->e, want, 0); return; }
    for (int p = pr->s; p <= pr->e; p++) {
        if (g->bt[p] || w[p - pr->s] != pr->bl) continue;
        if (!pr->bl2) { try_word(g, w, pr->s, pr->e, want, 1u << p); continue; }
        for (int p2 = pr->bl2 == pr->bl ? p + 1 : pr->s; p2 <= pr->e; p2++)
            if (p2 != p && !g->bt[p2] && w[p2 - pr->s] == pr->bl2)
                try_word(g, w, pr->s, pr->e, want, (1u << p) | (1u << p2));
    }
}

/* the plays of a pair: the words of its letter set and length, each tried */
static int pair_plays(Gen *g, const Shadow *sh, const Pair *pr) {
    int len = pr->e - pr->s + 1;
    uint64_t key = word_key(pr->hash), mask = sh->wi_mask, i = pr->slot & mask;
    for (uint64_t n = 0; n <= mask; n++, i = (i + 1) & mask) {
        uint64_t k2 = sh->wi_slots[2 * i], ref = sh->wi_slots[2 * i + 1];
        if (!k2) return 0;
        if (k2 != key || (int)((ref >> 16) & 0xFF) != len) continue;
        uint64_t first = ref >> 24, count = ref & 0xFFFF;
        if (first > sh->wi_n_letters || count * (uint64_t)len > sh->wi_n_letters - first)
            return -1; /* not a word_index */
        for (uint64_t c = 0; c < count; c++)
            try_pair_word(g, sh->wi_letters + first + c * (uint64_t)len, pr, sh->sub_code[pr->j]);
    }
    return 0;
}

/* The plays of an anchor that can beat the moves kept, without a walk: its pairs, best
 * bound first, their words looked up in the word index and tried on the squares, until
 * no bound can beat the moves kept. Its plays share the anchor's ord (walks_first orders
 * them as the walk would find them). */
static int exact_anchor(Gen *g, const Inputs *in, const Shadow *sh, const Anchor *a,
                        Pairs *ps) {
    load_line(g, in, a->dir, a->line);
    line_caps(g);
    g->anchor = a->anchor;
    g->leftstop = a->leftstop;
    g->minn = a->minn;
    g->ord_base = a->ord_base;
    ps->n = ps->nh = 0;
    anchor_bound(g, sh, 0, threshold(g->found), NULL, ps);
    if (ps->error) g->error = 1;
    while (ps->nh && !g->error && ps->p[ps->heap[0]].v >= threshold(g->found))
        if (pair_plays(g, sh, &ps->p[pairs_pop(ps)]) < 0) g->error = 2;
    return g->error ? -1 : 0;
}

static inline int anchor_above(const Anchor *anchors, uint16_t x, uint16_t y) {
    return anchors[x].bound > anchors[y].bound || (anchors[x].bound == anchors[y].bound && x < y);
}

static void anchor_sift(const Anchor *anchors, uint16_t *h, Py_ssize_t n, Py_ssize_t k) {
    uint16_t moved = h[k];
    for (;;) {
        Py_ssize_t c = 2 * k + 1;
        if (c >= n) break;
        if (c + 1 < n && anchor_above(anchors, h[c + 1], h[c])) c++;
        if (!anchor_above(anchors, h[c], moved)) break;
        h[k] = h[c];
        k = c;
    }
    h[k] = moved;
}

/* a's tight bound (the bounds of the sets of tiles that make words, with their own
 * leaves), for plays that are walked */
static void tighten(Gen *g, const Inputs *in, const Shadow *sh, Anchor *a) {
    load_line(g, in, a->dir, a->line);
    line_caps(g);
    g->anchor = a->anchor;
    g->leftstop = a->leftstop;
    a->bound = anchor_bound(g, sh, 1, threshold(g->found), NULL, NULL);
    a->tight = 1;
}

/* The best moves: the anchors in a heap (heap: their indices), best bound first, taken
 * until no bound can beat the moves kept, each one's plays looked up (`ps`:
 * exact_anchor) or walked, after a tight bound that sends it back into the heap. Which
 * anchor comes first among equal bounds does not change what is kept: moves are kept by
 * equity and the full generation's order. */
static int best_anchors(Gen *g, const Inputs *in, const Shadow *sh, Anchor *anchors,
                        uint16_t *heap, Py_ssize_t n, Pairs *ps) {
    for (Py_ssize_t k = n / 2; k-- > 0;) anchor_sift(anchors, heap, n, k);
    while (n > 0 && anchors[heap[0]].bound >= threshold(g->found)) {
        Anchor *a = &anchors[heap[0]];
        if (!ps && !a->tight) {
            tighten(g, in, sh, a);
        } else {
            heap[0] = heap[--n];
            if ((ps ? exact_anchor(g, in, sh, a, ps) : walk_anchor(g, in, sh, a)) < 0) return -1;
        }
        anchor_sift(anchors, heap, n, 0);
    }
    return 0;
}

#define AFTER_PLAYS (1ULL << 62) /* exchanges and the pass come after every play */

static long code_tiles(const Kinds *kd, long code) {
    long n = 0;
    for (int k = 0; k < kd->n_kinds; k++) {
        n += code % (kd->count[k] + 1);
        code /= kd->count[k] + 1;
    }
    return n;
}

/* Shadow.sub_*: every set of tiles a play can take off the rack, by how many, best
 * leave first (none when the rack has more than SUB_MAX leaves); `played`: the tiles a
 * play leaving each leave code takes */
static void play_sets(Gen *g, const Kinds *kd, Shadow *sh, const int *played,
                      uint8_t (*kept)[MAX_KINDS]) {
    int letter[MAX_KINDS] = {0}, by_value[MAX_KINDS], n_codes = (int)kd->n_codes;
    int count[MAX_RACK + 2] = {0}, order[SUB_MAX];
    for (int t = 0; t < MAX_LETTERS; t++)
        for (int q = 0; g->rc[t] && q < kd->n_kinds; q++)
            if (kd->radix[q] == g->radix[t]) letter[q] = t;
    for (int q = 0; q < kd->n_kinds; q++) { /* the kinds, highest value first */
        int v = letter[q] ? g->tv[letter[q]] : 0, r = q;
        if (v < 0 || v > INT16_MAX) return; /* no bounds by sets, then */
        for (; r > 0 && (letter[by_value[r - 1]] ? g->tv[letter[by_value[r - 1]]] : 0) < v; r--)
            by_value[r] = by_value[r - 1];
        by_value[r] = q;
    }
    for (int code = 0; code < n_codes; code++) count[played[code] + 1]++;
    for (int k = 0; k <= MAX_RACK; k++) count[k + 1] += count[k];
    for (int k = 0; k <= MAX_RACK + 1; k++) sh->sub_first[k] = count[k];
    for (int code = 0; code < n_codes; code++) { /* by tiles played, best leave first */
        int k = played[code], r = count[k]++;
        double lv = (g->endgame && code == 0) ? g->going_out : g->leave[code];
        for (; r > sh->sub_first[k] && sh->sub_leave[r - 1] < lv; r--) {
            sh->sub_leave[r] = sh->sub_leave[r - 1];
            order[r] = order[r - 1];
        }
        sh->sub_leave[r] = lv;
        order[r] = code;
    }
    int16_t kv[MAX_KINDS];
    uint64_t kh[MAX_KINDS];
    for (int q = 0; q < kd->n_kinds; q++) {
        kv[q] = (int16_t)(letter[q] ? g->tv[letter[q]] : 0);
        kh[q] = letter_hash(letter[q]);
    }
    for (int j = 0; j < n_codes; j++) {
        int16_t *vals = sh->sub_vals[j];
        int n = 0, blanks = 0;
        uint64_t hash = 0;
        for (int i = 0; i < kd->n_kinds; i++) {
            int q = by_value[i];
            for (long c = kept[order[j]][q]; c < kd->count[q]; c++) {
                vals[n++] = kv[q];
                hash += kh[q];
                blanks += !letter[q];
            }
        }
        sh->sub_hash[j] = hash;
        sh->sub_blanks[j] = (uint8_t)blanks;
        sh->sub_code[j] = (int32_t)order[j];
    }
    sh->n_sub = n_codes;
}

/* the tiles of each kind a leave code keeps, and the tiles taken off the rack by a play
 * that leaves it (an odometer over the kinds' counts kept) */
static void tiles_played(const Kinds *kd, long total, int *played, uint8_t (*kept)[MAX_KINDS]) {
    uint8_t now[MAX_KINDS] = {0};
    int left = 0;
    for (long code = 0; code < (long)kd->n_codes; code++) {
        played[code] = (int)(total - left);
        memcpy(kept[code], now, sizeof now);
        for (int q = 0; q < kd->n_kinds; q++) {
            if (now[q] < kd->count[q]) { now[q]++; left++; break; }
            left -= now[q];
            now[q] = 0;
        }
    }
}

static void make_shadow(Gen *g, const Kinds *kd, long total, const Inputs *in, Shadow *sh) {
    g->n_cache = g->n_cand = 0;
    sh->ana_slots = sh->ana_words = sh->sets = NULL;
    sh->ana_mask = 0;
    sh->ana_n_words = 0;
    if (in->ana.held) { /* checked by read_inputs */
        const uint64_t *buf = in->ana.view.buf;
        Py_ssize_t set_words = SET_WORDS;
        sh->ana_slots = buf + 2;
        sh->ana_mask = buf[0] - 1;
        sh->sets = buf + 2 + 2 * buf[0];
        sh->ana_words = sh->sets + set_words;
        sh->ana_n_words = (Py_ssize_t)(in->ana.view.len / 8) - 2 - 2 * (Py_ssize_t)buf[0] - set_words;
    }
    sh->wi_slots = sh->wi_filter = NULL;
    sh->wi_letters = NULL;
    sh->wi_mask = sh->wi_n_letters = 0;
    if (in->words.held) { /* checked by read_words */
        const uint64_t *buf = in->words.view.buf;
        sh->wi_slots = buf + WI_HEAD;
        sh->wi_mask = buf[0] - 1;
        sh->wi_filter = buf + WI_HEAD + 2 * buf[0];
        sh->wi_letters = (const uint8_t *)(sh->wi_filter + WF_WORDS);
        sh->wi_n_letters = buf[2];
    }
    sh->n_letters = (int)in->n_letters - 1;
    for (int t = 0; t <= sh->n_letters && t < MAX_LETTERS; t++)
        sh->blank_as[t] = letter_hash(t) - letter_hash(0);
    int n = 0;
    for (int t = 0; t < MAX_LETTERS; t++)
        for (int c = 0; c < g->rc[t] && n < MAX_RACK; c++) sh->vals[n++] = t ? g->tv[t] : 0;
    for (int q = 1; q < n; q++)
        for (int r = q; r > 0 && sh->vals[r] > sh->vals[r - 1]; r--) {
            int tmp = sh->vals[r]; sh->vals[r] = sh->vals[r - 1]; sh->vals[r - 1] = tmp;
        }
    sh->avail = g->rc[0] ? ~1ULL : g->rmask;
    for (int k = 0; k <= MAX_RACK; k++) sh->best_leave[k] = -INFINITY;
    sh->n_sub = 0;
    for (int k = 0; k <= MAX_RACK + 1; k++) sh->sub_first[k] = 0;
    int small = kd->n_codes <= SUB_MAX && total <= MAX_RACK, played[SUB_MAX];
    uint8_t kept[SUB_MAX][MAX_KINDS];
    if (small) tiles_played(kd, total, played, kept);
    for (long code = 0; code < (long)kd->n_codes; code++) {
        long k = small ? played[code] : total - code_tiles(kd, code);
        if (k < 0 || k > MAX_RACK) continue;
        double lv = (g->endgame && code == 0) ? g->going_out : g->leave[code];
        if (lv > sh->best_leave[k]) sh->best_leave[k] = lv;
    }
    if (small && sh->sets) play_sets(g, kd, sh, played, kept);
}

static int other_moves(Gen *g, const Kinds *kd, long total, long exchange_bag) {
    long full = (long)kd->n_codes - 1;
    Rec r;
    memset(&r, 0, sizeof r);
    if (exchange_bag >= 0) {
        r.kind = KIND_EXCHANGE;
        for (long code = 0; code < full; code++) {
            if (total - code_tiles(kd, code) > exchange_bag) continue;
            r.eq = g->leave[code];
            r.code = (int32_t)code;
            r.ord = AFTER_PLAYS + (uint64_t)code;
            if (offer(g->found, &r) < 0) return -1;
        }
    }
    r.kind = KIND_PASS;
    r.eq = g->leave[full];
    r.code = (int32_t)full;
    r.ord = AFTER_PLAYS + (uint64_t)full + 1;
    return offer(g->found, &r);
}

static int find_moves(Gen *g, const Inputs *in, const Kinds *kd, long total, int centre) {
    if (total == 0) return 0;
    Anchor *anchors = PyMem_Malloc(sizeof(Anchor) * 2 * (size_t)g->area);
    uint16_t *order = PyMem_Malloc(sizeof(uint16_t) * 2 * (size_t)g->area);
    if (!anchors || !order) {
        PyMem_Free(anchors);
        PyMem_Free(order);
        PyErr_NoMemory();
        return -1;
    }
    int top = g->found->top != 0, rc = 0;
    Shadow sh;
    if (top) {
        make_shadow(g, kd, total, in, &sh);
        rack_desc(g);
        g->vals = sh.vals;
        g->best_leave = sh.best_leave;
        g->avail = sh.avail;
    }
    /* plays looked up rather than walked (exact_anchor): with a word index, at most two
     * blanks and a board with tiles */
    Pairs ps = {0};
    int exact = top && sh.n_sub && sh.wi_slots && g->rc[0] <= 2 && centre < 0;
    g->lookup = exact;
    Py_ssize_t n = list_anchors(g, in, centre, top ? &sh : NULL, anchors);
    for (Py_ssize_t k = 0; k < n; k++) order[k] = (uint16_t)k;
    if (top) rc = best_anchors(g, in, &sh, anchors, order, n, exact ? &ps : NULL);
    for (Py_ssize_t k = 0; !top && k < n; k++) /* every move: in the listing's order */
        if (walk_anchor(g, in, NULL, &anchors[k]) < 0) { rc = -1; break; }
    if (rc < 0) {
        if (g->error == 2) PyErr_SetString(PyExc_ValueError, "words: not a word_index");
        else PyErr_NoMemory();
    }
    PyMem_Free(ps.p);
    PyMem_Free(ps.heap);
    PyMem_Free(order);
    PyMem_Free(anchors);
    return rc;
}

/* Sort by equity, highest first, keeping the order of equal ones (`recs` come in the
 * full generation's order when all are kept): a merge sort of (equity, index) keys. */
typedef struct {
    double eq;
    Py_ssize_t at;
} Key;

static void merge_sort(Key *a, Key *tmp, Py_ssize_t n) {
    if (n < 2) return;
    if (n <= 12) { /* insertion sort, stable */
        for (Py_ssize_t i = 1; i < n; i++) {
            Key k = a[i];
            Py_ssize_t j = i;
            while (j > 0 && a[j - 1].eq < k.eq) { a[j] = a[j - 1]; j--; }
            a[j] = k;
        }
        return;
    }
    Py_ssize_t h = n / 2;
    merge_sort(a, tmp, h);
    merge_sort(a + h, tmp, n - h);
    if (a[h - 1].eq >= a[h].eq) return;
    memcpy(tmp, a, sizeof(Key) * (size_t)h);
    Py_ssize_t i = 0, j = h, k = 0;
    while (i < h && j < n) a[k++] = (a[j].eq > tmp[i].eq) ? a[j++] : tmp[i++];
    while (i < h) a[k++] = tmp[i++];
}

/* The same order in about linear time: keys bucketed by how far they are below the
 * best (a counting sort keeps the order within a bucket), then each bucket, short,
 * sorted by insertion. Falls back on merge_sort for a wide range. */
static int bucket_sort(Key *a, Key *tmp, Py_ssize_t n) {
    if (n < 64) return 0;
    double lo = a[0].eq, hi = a[0].eq;
    for (Py_ssize_t i = 1; i < n; i++) {
        if (a[i].eq < lo) lo = a[i].eq;
        if (a[i].eq > hi) hi = a[i].eq;
    }
    if (!(hi - lo < 4096.0)) return 0; /* NaN too */
    /* bucket of e: (long)((hi - e) * scale), hi - e >= 0; about one key a bucket */
    double scale = (double)n / (hi - lo + 1.0);
    scale = scale < 1.0 ? 1.0 : scale > 64.0 ? 64.0 : scale;
    long span = (long)((hi - lo) * scale) + 1;
    Py_ssize_t *start = PyMem_Calloc((size_t)span + 1, sizeof(Py_ssize_t));
    if (!start) return 0;
    for (Py_ssize_t i = 0; i < n; i++) start[(long)((hi - a[i].eq) * scale) + 1]++;
    for (long b = 0; b < span; b++) start[b + 1] += start[b];
    for (Py_ssize_t i = 0; i < n; i++) tmp[start[(long)((hi - a[i].eq) * scale)]++] = a[i];
    /* start[b] is now the end of bucket b */
    Py_ssize_t from = 0;
    for (long b = 0; b < span; b++) {
        Py_ssize_t to = start[b];
        for (Py_ssize_t i = from + 1; i < to; i++) {
            Key k = tmp[i];
            Py_ssize_t j = i;
            while (j > from && tmp[j - 1].eq < k.eq) { tmp[j] = tmp[j - 1]; j--; }
            tmp[j] = k;
        }
        from = to;
    }
    memcpy(a, tmp, sizeof(Key) * (size_t)n);
    PyMem_Free(start);
    return 1;
}

static int cmp_rec_sort(const void *x, const void *y) { return cmp_rec(x, y); }

static PyObject *moves_list(Out *o, Found *f) {
    Py_ssize_t n = f->n;
    Key *keys = PyMem_Malloc(sizeof(Key) * (size_t)(2 * n + 1));
    if (!keys) return PyErr_NoMemory();
    if (f->top) {
        qsort(f->recs, (size_t)n, sizeof(Rec), cmp_rec_sort); /* at most `top` of them */
        for (Py_ssize_t k = 0; k < n; k++) keys[k].at = k;
    } else {
        for (Py_ssize_t k = 0; k < n; k++) { keys[k].eq = f->recs[k].eq; keys[k].at = k; }
        if (!bucket_sort(keys, keys + n, n)) merge_sort(keys, keys + n, n);
    }
    PyObject *out = PyList_New(n);
    for (Py_ssize_t k = 0; out && k < n; k++) {
        if (k + 4 < n) __builtin_prefetch(&f->recs[keys[k + 4].at]);
        PyObject *m = make_move(o, &f->recs[keys[k].at]);
        if (!m) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, k, m);
    }
    PyMem_Free(keys);
    return out;
}

static PyObject *generate(PyObject *self, PyObject *req) {
    if (!PyTuple_Check(req) || PyTuple_GET_SIZE(req) != N_INPUTS) {
        PyErr_Format(PyExc_TypeError, "generate: an EngineInputs (a tuple of %d) expected",
                     N_INPUTS);
        return NULL;
    }
    if (!maker.ready) {
        PyErr_SetString(PyExc_RuntimeError, "generate: configure() the Move type first");
        return NULL;
    }
    Gen *g = PyMem_Malloc(sizeof(Gen));
    if (!g) return PyErr_NoMemory();
    memset(g, 0, offsetof(Gen, cand));
    Inputs in;
    memset(&in, 0, sizeof in);
    Kinds kd;
    memset(&kd, 0, sizeof kd);
    Found found = {0};
    Out o;
    memset(&o, 0, sizeof o);
    double *leave = NULL;
    PyObject *result = NULL;
    int size, err = 0;
    if (read_inputs(req, &in, g, &size) < 0 || read_kinds(req, &kd) < 0) goto done;
    g->lines = PyMem_Malloc(sizeof(Line) * 2 * (size_t)size);
    if (!g->lines) { PyErr_NoMemory(); goto done; }
    if (attr_tuple(req, IN_KIND_TEXT, &in.text, kd.n_kinds) < 0) goto done;
    long top = attr_long(req, IN_TOP, &err);
    g->endgame = (int)attr_long(req, IN_ENDGAME, &err);
    long exchange_bag = attr_long(req, IN_EXCHANGE_BAG, &err);
    long centre = attr_long(req, IN_CENTRE, &err);
    PyObject *go = req_attr(req, IN_GOING_OUT);
    if (!go) goto done;
    g->going_out = PyFloat_AsDouble(go);
    Py_DECREF(go);
    if (err || PyErr_Occurred()) goto done;
    long total = 0;
    for (int k = 0; k < kd.n_kinds; k++) total += kd.count[k];
    g->rack_code = (int32_t)(kd.n_codes - 1);
    leave = PyMem_Malloc(sizeof(double) * (size_t)kd.n_codes);
    o.leave_text = PyMem_Calloc((size_t)kd.n_codes, sizeof(PyObject *));
    o.leave_val = PyMem_Calloc((size_t)kd.n_codes, sizeof(PyObject *));
    if (!leave || !o.leave_text || !o.leave_val) { PyErr_NoMemory(); goto done; }
    if (leave_values(req, &kd, g->endgame, leave) < 0) goto done;
    g->leave = leave;
    found.top = top > 0 ? top : 0;
    g->found = &found;
    /* all moves: in the full generation's order (the sort keeps it for ties); the best:
     * the exchanges and the pass first, a bound the plays must beat */
    if (found.top && other_moves(g, &kd, total, exchange_bag) < 0) { PyErr_NoMemory(); goto done; }
    if (find_moves(g, &in, &kd, total, (int)centre) < 0) goto done;
    if (!found.top && other_moves(g, &kd, total, exchange_bag) < 0) { PyErr_NoMemory(); goto done; }
    o.cells = in.cells;
    o.uppers = in.uppers;
    o.lowers = in.lowers;
    o.kd = &kd;
    o.kind_text = in.text;
    o.leave = leave;
    o.size = size;
    o.bingo_size = g->bingo_size;
    o.endgame = g->endgame;
    o.going_out = g->going_out;
    result = moves_list(&o, &found);
done:
    if (o.leave_text)
        for (Py_ssize_t k = 0; k < kd.n_codes; k++) Py_XDECREF(o.leave_text[k]);
    if (o.leave_val)
        for (Py_ssize_t k = 0; k < kd.n_codes; k++) Py_XDECREF(o.leave_val[k]);
    PyMem_Free(o.leave_text);
    PyMem_Free(o.leave_val);
    PyMem_Free(leave);
    PyMem_Free(found.recs);
    free_inputs(&in);
    PyMem_Free(g->lines);
    PyMem_Free(g);
    return result;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(Move, PLAY, EXCHANGE, PASS): the class generate() makes moves of."},
    {"cross_sets", cross_sets, METH_VARARGS,
     "cross_sets(nodes, dawg_root, gaddag_root, size, bt, bv, cross, xsum, full, squares): "
     "fill the "
     "cross-sets and cross-scores of `squares` (None: all) in place."},
    {"word_index", word_index, METH_VARARGS,
     "word_index(nodes, dawg_root): every word by its letter set and length (bytes)."},
    {"anagram_index", anagram_index, METH_VARARGS,
     "anagram_index(nodes, dawg_root): the 7- to 9-letter words by their letters (bytes)."},
    {"touched", touched, METH_VARARGS,
     "touched(bt, size, flats): the squares whose cross-sets new tiles on flats change."},
    {"place_tiles", place_tiles, METH_VARARGS,
     "place_tiles(cells, codes, bt, bv, size, row, col, across, tiles, new): a play's new "
     "tiles put on the board; (flats, squares), or None when one cannot go down."},
    {"load_board", load_board, METH_VARARGS,
     "load_board(cells, codes, bt, bv): a board's tiles as indices and values; their number."},
    {"rack_parts", rack_parts, METH_VARARGS,
     "rack_parts(rack, index, values, n_letters): what EngineInputs says of a rack."},
    {"generate", generate, METH_O,
     "generate(inputs): the moves of an engine.EngineInputs, best first (all or the top)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_gaddag",
    "The move generator's engine core in C (see gcgtools.movegen.engine).", -1, methods,
};

PyMODINIT_FUNC PyInit__gaddag(void) {
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "MAX_SIZE", MAX_SIZE) < 0 ||
        PyModule_AddIntConstant(m, "MAX_LETTERS", MAX_LETTERS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_KINDS", MAX_KINDS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_RACK", MAX_RACK) < 0 ||
        PyModule_AddIntConstant(m, "MAX_CODES", MAX_CODES) < 0 ||
        PyModule_AddIntConstant(m, "NO_TILE", NO_TILE) < 0 ||
        PyModule_AddIntConstant(m, "MEMO_WORDS", MEMO_WORDS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    PyObject *names = PyTuple_New(N_INPUTS);
    for (int k = 0; names && k < N_INPUTS; k++) {
        PyObject *name = PyUnicode_InternFromString(INPUT_NAMES[k]);
        if (!name) Py_CLEAR(names);
        else PyTuple_SET_ITEM(names, k, name);
    }
    if (!names || PyModule_AddObject(m, "INPUTS", names) < 0) {
        Py_XDECREF(names);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
