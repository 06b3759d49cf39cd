/*
 * gcgtools.movegen._gaddag: the move generator's engine core in C (optional), its module
 * file: the only file of the helper that touches the Python C API. It reads the Python
 * arguments (buffers, EngineInputs by position), calls the plain C files by concern
 * (cross_sets.c, leaves.c, word_index.c, generation.c, shadow.c; engine.h the shared
 * limits) and makes the Python results (lists, bytes, Move objects).
 *
 * Everything has a pure-Python twin in gcgtools/movegen (core.py, plays.py,
 * cross_sets.py) that gives the same results; the tests run both and compare them.
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
 *   sim_new(...), sim_samples(handle, tasks), sim_draws(digest, n, ranges)
 *       The simulation's playouts in C (simulation.c; gcgtools.analysis.sim_native).
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
#include "word_prune.h"
#include "word_index.h"
#include "generation.h"
#include "endgame.h"
#include "simulation.h"
#include <time.h>

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
 * upper case, "?" a blank; at most RACK_PARTS tiles), as plays.rack_parts does in
 * Python: (kinds, kind_counts, counts, radix, kind_radix, kind_points, kind_order,
 * kind_text) (see core.EngineInputs and plays.RackIndex). KeyError for a tile `values`
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
/* The class generate() makes moves of (Move): each move's slots are written directly, at
 * the offsets of its slot descriptors, found by name and checked here. Calling Move(...)
 * for each move cost 16 to 36% of a generation of every move (its __init__ is Python). */
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

/* The fields of gcgtools.movegen.core.EngineInputs, in its order: generate() reads the
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
    GenBoard board; /* the buffers above, as the generation reads them */
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
    in->board = (GenBoard){in->bt.view.buf, in->bv.view.buf, in->lm.view.buf,
                           in->wm.view.buf, in->xsum.view.buf, in->cross.view.buf,
                           in->ana.held ? in->ana.view.buf : NULL,
                           in->words.held ? in->words.view.buf : NULL,
                           in->ana.view.len / 8, in->words.view.len / 8, (int)nl};
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

static PyObject *moves_list(Out *o, Found *f) {
    Py_ssize_t n = f->n;
    isize *order = found_order(f);
    if (!order) return PyErr_NoMemory();
    PyObject *out = PyList_New(n);
    for (Py_ssize_t k = 0; out && k < n; k++) {
        if (k + 4 < n) __builtin_prefetch(&f->recs[order[k + 4]]);
        PyObject *m = make_move(o, &f->recs[order[k]]);
        if (!m) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, k, m);
    }
    free(order);
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
    int rc = find_moves(g, &in.board, &kd, total, (int)centre);
    if (rc == GEN_BAD_WORDS) { PyErr_SetString(PyExc_ValueError, "words: not a word_index"); goto done; }
    if (rc < 0) { PyErr_NoMemory(); goto done; }
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
    free(found.recs); /* realloc by generation.c */
    free_inputs(&in);
    PyMem_Free(g->lines);
    PyMem_Free(g);
    return result;
}

/* ------------------------------------------------------------------ the endgame search */
/* solve_endgame_native(...): the exact endgame search of endgame.c (see
 * gcgtools/analysis/endgame/native.py, which builds the arguments and reads the answer).
 * Moves are given as (row, col, across, new, codes, score): codes the KWG indices of the
 * new tiles (| BLANK_BIT for a blank), () for the pass. */
typedef struct {
    double deadline; /* monotonic seconds, 0: none */
    PyObject *stop;  /* a callable: True asks the search to stop, or None */
    PyObject *on_depth;
    PyObject *root_keys; /* list of the root moves' tuples */
    int failed;      /* a Python exception is set */
} EgCtx;

static double mono_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int eg_stop(void *p) {
    EgCtx *c = p;
    if (c->failed) return EG_INTERRUPTED;
    if (PyErr_CheckSignals() < 0) { c->failed = 1; return EG_INTERRUPTED; }
    if (c->stop && c->stop != Py_None) {
        PyObject *r = PyObject_CallNoArgs(c->stop);
        if (!r) { c->failed = 1; return EG_INTERRUPTED; }
        int yes = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (yes) return EG_INTERRUPTED;
    }
    if (c->deadline > 0 && mono_now() > c->deadline) return EG_SECONDS;
    return 0;
}

static void eg_depth(void *p, int depth, long nodes, int best, int value) {
    EgCtx *c = p;
    if (c->failed || !c->on_depth || c->on_depth == Py_None) return;
    PyObject *r = PyObject_CallFunction(c->on_depth, "ilOi", depth, nodes,
                                        PyList_GET_ITEM(c->root_keys, best), value);
    if (!r) c->failed = 1;
    Py_XDECREF(r);
}

static PyObject *eg_move_key(const EgInput *in, const EgMove *m) {
    if (!m->n)
        return Py_BuildValue("(iiiK()i)", 0, 0, 1, 0ULL, (int)m->score);
    PyObject *codes = PyTuple_New(m->n);
    if (!codes) return NULL;
    for (int k = 0; k < m->n; k++) PyTuple_SET_ITEM(codes, k, PyLong_FromLong(m->code[k]));
    int row = m->across ? m->line : m->start, col = m->across ? m->start : m->line;
    return Py_BuildValue("(iiiKNi)", row, col, (int)m->across,
                         (unsigned long long)(m->mask >> m->start), codes, (int)m->score);
}

static int int_array(PyObject *seq_o, int *dst, int cap, const char *what) {
    PyObject *seq = PySequence_Fast(seq_o, what);
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > cap) { Py_DECREF(seq); PyErr_Format(PyExc_ValueError, "%s: too many", what); return -1; }
    for (Py_ssize_t k = 0; k < n; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        dst[k] = (int)v;
    }
    Py_DECREF(seq);
    return (int)n;
}

static PyObject *solve_endgame_native(PyObject *self, PyObject *args) {
    PyObject *nodes_o, *bt_o, *bv_o, *lm_o, *wm_o, *cross_o, *xsum_o, *tv_o, *r0_o, *r1_o,
        *bag_o, *roots, *exact, *stop, *on_depth;
    unsigned int groot, droot;
    int size, n_letters, end_zeros, out_factor, bingo_size, bingo_bonus, max_depth, tt_lg,
        tt_max_lg, all_moves, prune, aspiration, line_cache_lg;
    unsigned long long full;
    long max_nodes;
    double seconds;
    if (!PyArg_ParseTuple(args, "OIIiiKOOOOOOOOOOiiiilidiiiOOOOiii", &nodes_o, &groot, &droot,
                          &size, &n_letters, &full, &bt_o, &bv_o, &lm_o, &wm_o, &cross_o,
                          &xsum_o, &tv_o, &r0_o, &r1_o, &bag_o, &end_zeros, &out_factor,
                          &bingo_size, &bingo_bonus, &max_nodes, &max_depth, &seconds, &tt_lg,
                          &tt_max_lg, &all_moves, &roots, &exact, &stop, &on_depth, &prune,
                          &aspiration, &line_cache_lg))
        return NULL;
    if (size < 1 || size > MAX_SIZE || n_letters < 1 || n_letters > MAX_LETTERS) {
        PyErr_SetString(PyExc_ValueError, "solve_endgame_native: board or alphabet out of range");
        return NULL;
    }
    Py_ssize_t area = (Py_ssize_t)size * size;
    EgInput in;
    memset(&in, 0, sizeof in);
    Buf nodes = {0}, bt = {0}, bv = {0}, lm = {0}, wm = {0}, cross = {0}, xsum = {0};
    PyObject *result = NULL, *keys = NULL, *lines = NULL;
    uint8_t *ok = NULL, *ex = NULL;
    EgMove *root_moves = NULL;
    uint32_t *pruned = NULL;
    EgResult res;
    memset(&res, 0, sizeof res);
    EgCtx ctx = {seconds > 0 ? mono_now() + seconds : 0, stop, on_depth, NULL, 0};
    if (get_buf(nodes_o, &nodes, 4, 1, 0, "nodes") < 0 || get_buf(bt_o, &bt, 4, area, 0, "bt") < 0 ||
        get_buf(bv_o, &bv, 4, area, 0, "bv") < 0 || get_buf(lm_o, &lm, 4, area, 0, "lm") < 0 ||
        get_buf(wm_o, &wm, 4, area, 0, "wm") < 0 ||
        get_buf(cross_o, &cross, 8, 2 * area, 0, "cross") < 0 ||
        get_buf(xsum_o, &xsum, 4, 2 * area, 0, "xsum") < 0)
        goto done;
    in.nodes = nodes.view.buf;
    in.n_nodes = nodes.view.len / 4;
    in.gaddag_root = groot;
    in.dawg_root = droot;
    in.size = size;
    in.n_letters = n_letters;
    in.full = full;
    in.bt = bt.view.buf; in.bv = bv.view.buf; in.lm = lm.view.buf; in.wm = wm.view.buf;
    in.cross = cross.view.buf; in.xsum = xsum.view.buf;
    if (int_array(tv_o, in.tv, MAX_LETTERS, "tile values") < 0 ||
        int_array(r0_o, in.rack[0], MAX_LETTERS, "rack") < 0 ||
        int_array(r1_o, in.rack[1], MAX_LETTERS, "rack") < 0)
        goto done;
    in.bag_len = int_array(bag_o, in.bag, EG_MAX_BAG, "bag");
    if (in.bag_len < 0) goto done;
    for (int p = 0; p < 2; p++) {
        int tiles = 0;
        for (int t = 0; t < MAX_LETTERS; t++) {
            if (in.rack[p][t] < 0 || (t >= n_letters && in.rack[p][t])) tiles = 99;
            tiles += in.rack[p][t];
        }
        if (tiles + in.bag_len > MAX_RACK) {
            PyErr_SetString(PyExc_ValueError, "solve_endgame_native: bad rack");
            goto done;
        }
    }
    for (int k = 0; k < in.bag_len; k++)
        if (in.bag[k] < 0 || in.bag[k] >= n_letters) {
            PyErr_SetString(PyExc_ValueError, "solve_endgame_native: bad bag tile");
            goto done;
        }
    in.end_zeros = end_zeros;
    in.out_factor = out_factor;
    in.bingo_size = bingo_size;
    in.bingo_bonus = bingo_bonus;
    in.max_nodes = max_nodes > 0 ? max_nodes : 0;
    in.max_depth = max_depth > 0 ? max_depth : 0;
    in.tt_lg = tt_lg;
    in.tt_max_lg = tt_max_lg;
    in.all_moves = all_moves;
    in.aspiration = aspiration > 0 ? aspiration : 0;
    in.line_cache_lg = line_cache_lg > 0 ? line_cache_lg : 0;
    in.stop = eg_stop;
    in.on_depth = eg_depth;
    in.ctx = &ctx;
    if (prune) eg_prune(&in, &pruned);
    int n_root = eg_root_moves(&in, &root_moves);
    if (n_root < 0) { PyErr_NoMemory(); goto done; }
    keys = PyList_New(n_root);
    ok = calloc((size_t)n_root + 1, 1);
    ex = calloc((size_t)n_root + 1, 1);
    if (!keys || !ok || !ex) { PyErr_NoMemory(); goto done; }
    for (int k = 0; k < n_root; k++) {
        PyObject *key = eg_move_key(&in, &root_moves[k]);
        if (!key) goto done;
        PyList_SET_ITEM(keys, k, key);
        PyObject *bare = PyTuple_GetSlice(key, 0, 5); /* without the score */
        if (!bare) goto done;
        int a = roots == Py_None ? 1 : PySequence_Contains(roots, bare);
        int b = exact == Py_None ? 0 : PySequence_Contains(exact, bare);
        Py_DECREF(bare);
        if (a < 0 || b < 0) goto done;
        ok[k] = (uint8_t)a;
        ex[k] = (uint8_t)b;
    }
    ctx.root_keys = keys;
    in.root_ok = ok;
    in.root_exact = ex;
    /* the interpreter lock is kept: the callbacks call Python */
    int rc = eg_solve(&in, &res);
    if (ctx.failed) goto done;
    if (rc < 0 || res.error) { PyErr_SetString(PyExc_MemoryError, "endgame search: out of memory or too deep"); goto done; }
    lines = PyList_New(res.n_lines);
    if (!lines) goto done;
    for (int k = 0; k < res.n_lines; k++) {
        EgLine *ln = &res.lines[k];
        PyObject *pv = PyList_New(ln->pv_len);
        if (!pv) goto done;
        for (int q = 0; q < ln->pv_len; q++) {
            PyObject *mk = eg_move_key(&in, &ln->pv[q]);
            if (!mk) { Py_DECREF(pv); goto done; }
            PyList_SET_ITEM(pv, q, mk);
        }
        PyObject *ending = ln->has_ending ? PyLong_FromLong(ln->ending) : (Py_INCREF(Py_None), Py_None);
        PyObject *item = Py_BuildValue("(iiiiNN)", ln->index, ln->value, ln->done, ln->exact, pv, ending);
        if (!item) goto done;
        PyList_SET_ITEM(lines, k, item);
    }
    result = Py_BuildValue("(iilOO)", res.stopped, res.depth, res.nodes, lines, keys);
done:
    Py_XDECREF(lines);
    Py_XDECREF(keys);
    eg_free(&res);
    free(root_moves);
    free(pruned);
    free(ok);
    free(ex);
    release(&nodes); release(&bt); release(&bv); release(&lm); release(&wm);
    release(&cross); release(&xsum);
    return result;
}

/* ------------------------------------------------------------------ the simulation */
/* A simulation's C state (simulation.c), in a capsule: the SimInput, the Sim (its board
 * played on and taken back) and the buffers it reads, held while it lives. */
typedef struct {
    SimInput in;
    Sim *sim;
    SimMove *cands;
    Buf nodes, ana, words, memo, klv_nodes, klv_counts, klv_values, lm, wm, table;
} SimHandle;

static void sim_handle_free(PyObject *capsule) {
    SimHandle *h = PyCapsule_GetPointer(capsule, "gcgtools.sim");
    if (!h) return;
    sim_free(h->sim);
    PyMem_Free(h->cands);
    release(&h->nodes); release(&h->ana); release(&h->words); release(&h->memo);
    release(&h->klv_nodes); release(&h->klv_counts); release(&h->klv_values);
    release(&h->lm); release(&h->wm); release(&h->table);
    PyMem_Free(h);
}

/* lexicon: (nodes, gaddag_root, dawg_root, anagrams | None, words | None, memo | None,
 * tile_values, ranks, full) */
static int sim_lexicon(SimHandle *h, PyObject *lex) {
    SimInput *in = &h->in;
    PyObject *nodes, *ana, *words, *memo, *tv, *ranks;
    unsigned int groot, droot;
    unsigned long long full;
    if (!PyArg_ParseTuple(lex, "OIIOOOOOK", &nodes, &groot, &droot, &ana, &words, &memo, &tv,
                          &ranks, &full))
        return -1;
    if (get_buf(nodes, &h->nodes, 4, 1, 0, "nodes") < 0 ||
        (ana != Py_None && get_buf(ana, &h->ana, 8, 2, 0, "anagrams") < 0) ||
        (words != Py_None && get_buf(words, &h->words, 8, WI_HEAD, 0, "words") < 0) ||
        (memo != Py_None && get_buf(memo, &h->memo, 8, MEMO_WORDS, 1, "memo") < 0))
        return -1;
    in->nodes = h->nodes.view.buf;
    in->n_nodes = h->nodes.view.len / 4;
    in->gaddag_root = groot;
    in->dawg_root = droot;
    in->ana = h->ana.held ? h->ana.view.buf : NULL;
    in->ana_items = h->ana.held ? h->ana.view.len / 8 : 0;
    in->words = h->words.held ? h->words.view.buf : NULL;
    in->words_items = h->words.held ? h->words.view.len / 8 : 0;
    in->memo = h->memo.held ? h->memo.view.buf : NULL;
    in->full = full;
    in->n_letters = int_array(tv, in->tv, MAX_LETTERS, "tile_values");
    if (in->n_letters < 1) return -1;
    return int_array(ranks, in->rank, MAX_LETTERS, "ranks") == in->n_letters ? 0 : -1;
}

/* board: (size, centre, lm, wm); leaves: None, a KLV (nodes, counts, values, root,
 * klv_num, longest) or the heuristic (values, vowels, duplicate and balance penalties, by
 * KWG index); rules: (rack_size, bingo_bonus, exchange_min, out_factor, deducts_own,
 * max_zeros) */
static int sim_board_leaves_rules(SimHandle *h, PyObject *board, PyObject *leaves,
                                  PyObject *rules) {
    SimInput *in = &h->in;
    PyObject *lm, *wm;
    if (!PyArg_ParseTuple(board, "iiOO", &in->size, &in->centre, &lm, &wm)) return -1;
    if (in->size < 1 || in->size > MAX_SIZE) {
        PyErr_SetString(PyExc_ValueError, "sim_new: board size out of range");
        return -1;
    }
    int area = in->size * in->size;
    if (get_buf(lm, &h->lm, 4, area, 0, "lm") < 0 || get_buf(wm, &h->wm, 4, area, 0, "wm") < 0)
        return -1;
    in->lm = h->lm.view.buf;
    in->wm = h->wm.view.buf;
    if (leaves != Py_None && PyTuple_Check(leaves) && PyTuple_GET_SIZE(leaves) == 4) {
        PyObject *tiles, *vowels; /* the heuristic: values, vowels, two penalties */
        if (!PyArg_ParseTuple(leaves, "OOdd", &tiles, &vowels, &in->h_dup, &in->h_balance) ||
            int_array(vowels, in->h_vowel, MAX_LETTERS, "vowels") != in->n_letters)
            return -1;
        PyObject *seq = PySequence_Fast(tiles, "heuristic: a sequence of values");
        if (!seq) return -1;
        if (PySequence_Fast_GET_SIZE(seq) != in->n_letters) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "heuristic: one value per tile index");
            return -1;
        }
        for (int t = 0; t < in->n_letters; t++) {
            in->h_tile[t] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, t));
            if (in->h_tile[t] == -1.0 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        }
        Py_DECREF(seq);
        in->heuristic = 1;
    } else if (leaves != Py_None) {
        PyObject *kn, *kc, *kv, *num;
        unsigned int root;
        if (!PyArg_ParseTuple(leaves, "OOOIOi", &kn, &kc, &kv, &root, &num, &in->klv_longest) ||
            get_buf(kn, &h->klv_nodes, 4, 1, 0, "klv nodes") < 0 ||
            get_buf(kc, &h->klv_counts, 4, h->klv_nodes.view.len / 4, 0, "klv counts") < 0 ||
            get_buf(kv, &h->klv_values, 4, 0, 0, "klv values") < 0 ||
            int_array(num, in->klv_num, MAX_LETTERS, "klv_num") != in->n_letters)
            return -1;
        in->klv = (Klv){h->klv_nodes.view.buf, h->klv_counts.view.buf,
                        h->klv_nodes.view.len / 4, h->klv_values.view.buf,
                        h->klv_values.view.len / 4, root};
    }
    return PyArg_ParseTuple(rules, "iiiiii", &in->rack_size, &in->bingo_bonus,
                            &in->exchange_min, &in->out_factor, &in->deducts_own,
                            &in->max_zeros) ? 0 : -1;
}

/* model: (0, m0, m1, s0, s1) or (1, table, rows, max_spread); position: (plies, rack,
 * unseen, score, opponent's score, zeros) */
static int sim_model_position(SimHandle *h, PyObject *model, PyObject *pos) {
    SimInput *in = &h->in;
    PyObject *table, *rack, *unseen;
    if (PyTuple_Check(model) && PyTuple_GET_SIZE(model) == 5) {
        in->model = SIM_LOGISTIC;
        if (!PyArg_ParseTuple(model, "idddd", &in->model, &in->m0, &in->m1, &in->s0, &in->s1))
            return -1;
    } else {
        if (!PyArg_ParseTuple(model, "iOii", &in->model, &table, &in->rows, &in->max_spread))
            return -1;
        if (in->rows < 1 || in->max_spread < 0 ||
            get_buf(table, &h->table, 8, (Py_ssize_t)in->rows * (2 * in->max_spread + 1), 0,
                    "table") < 0)
            return -1;
        in->table = h->table.view.buf;
    }
    if (!PyArg_ParseTuple(pos, "iOOiii", &in->plies, &rack, &unseen, &in->scores[0],
                          &in->scores[1], &in->zeros))
        return -1;
    in->rack_len = int_array(rack, in->rack, MAX_RACK, "rack");
    in->n_unseen = int_array(unseen, in->unseen, SIM_MAX_TILES, "unseen");
    if (in->rack_len < 0 || in->n_unseen < 0) return -1;
    if (in->plies < 0 || in->plies > SIM_MAX_PLIES || in->rack_size < 1 ||
        in->rack_size > MAX_RACK || in->model < 0 || in->model > 1) {
        PyErr_SetString(PyExc_ValueError, "sim_new: plies, rack size or model out of range");
        return -1;
    }
    for (int k = 0; k < in->rack_len; k++)
        if (in->rack[k] < 0 || in->rack[k] >= in->n_letters) goto bad;
    for (int k = 0; k < in->n_unseen; k++)
        if (in->unseen[k] < 0 || in->unseen[k] >= in->n_letters) goto bad;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "sim_new: a tile out of the alphabet");
    return -1;
}

/* candidates: a list of (kind, score, leave_value, bingo, flats, codes) */
static int sim_candidates(SimHandle *h, PyObject *cands) {
    PyObject *seq = PySequence_Fast(cands, "candidates: a list expected");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    h->cands = PyMem_Calloc((size_t)(n ? n : 1), sizeof(SimMove));
    if (!h->cands) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t k = 0; k < n; k++) {
        SimMove *m = &h->cands[k];
        int kind, bingo, flat[MAX_RACK], code[MAX_RACK];
        PyObject *flats, *codes;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, k), "iidpOO", &kind, &m->score,
                              &m->leave_value, &bingo, &flats, &codes)) {
            Py_DECREF(seq);
            return -1;
        }
        int nf = int_array(flats, flat, MAX_RACK, "flats");
        int nc = int_array(codes, code, MAX_RACK, "codes");
        if (nf < 0 || nc < 0 || (kind == KIND_PLAY && nf != nc) || kind < 0 || kind > 2) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "candidates: bad move");
            return -1;
        }
        m->kind = (uint8_t)kind;
        m->bingo = (uint8_t)bingo;
        m->n = (uint8_t)nc;
        for (int q = 0; q < nc; q++) {
            int area = h->in.size * h->in.size;
            if ((kind == KIND_PLAY && (flat[q] < 0 || flat[q] >= area)) ||
                (code[q] & ~BLANK_BIT) >= h->in.n_letters || code[q] < 0) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "candidates: a square or tile out of range");
                return -1;
            }
            if (kind == KIND_PLAY) m->flat[q] = (uint16_t)flat[q];
            m->code[q] = (uint8_t)code[q];
        }
    }
    h->in.cands = h->cands;
    h->in.n_cands = (int)n;
    Py_DECREF(seq);
    return 0;
}

/* sim_new(lexicon, board, leaves, rules, model, position, candidates, state): see
 * gcgtools.analysis.sim_native; state: (bt, bv, cross, xsum), the EngineBoard's buffers
 * (copied) */
static PyObject *sim_new_py(PyObject *self, PyObject *args) {
    PyObject *lex, *board, *leaves, *rules, *model, *pos, *cands, *bt_o, *bv_o, *cross_o, *xsum_o;
    if (!PyArg_ParseTuple(args, "O!O!OO!O!O!O(OOOO)", &PyTuple_Type, &lex, &PyTuple_Type, &board,
                          &leaves, &PyTuple_Type, &rules, &PyTuple_Type, &model, &PyTuple_Type,
                          &pos, &cands, &bt_o, &bv_o, &cross_o, &xsum_o))
        return NULL;
    SimHandle *h = PyMem_Calloc(1, sizeof(SimHandle));
    if (!h) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(h, "gcgtools.sim", sim_handle_free);
    if (!capsule) { PyMem_Free(h); return NULL; }
    if (sim_lexicon(h, lex) < 0 || sim_board_leaves_rules(h, board, leaves, rules) < 0 ||
        sim_model_position(h, model, pos) < 0 || sim_candidates(h, cands) < 0) {
        Py_DECREF(capsule);
        return NULL;
    }
    int area = h->in.size * h->in.size;
    Buf bt = {0}, bv = {0}, cross = {0}, xsum = {0};
    if (get_buf(bt_o, &bt, 4, area, 0, "bt") == 0 && get_buf(bv_o, &bv, 4, area, 0, "bv") == 0 &&
        get_buf(cross_o, &cross, 8, 2 * area, 0, "cross") == 0 &&
        get_buf(xsum_o, &xsum, 4, 2 * area, 0, "xsum") == 0) {
        h->sim = sim_new(&h->in, bt.view.buf, bv.view.buf, cross.view.buf, xsum.view.buf);
        if (!h->sim) PyErr_NoMemory();
    }
    release(&bt); release(&bv); release(&cross); release(&xsum);
    if (!h->sim) { Py_DECREF(capsule); return NULL; }
    return capsule;
}

static PyObject *int_or_none(int v) {
    if (v < 0) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static PyObject *bool_or_none(int v) {
    if (v < 0) Py_RETURN_NONE;
    return PyBool_FromLong(v);
}

/* one sample of h: (win, spread, reply_score, reply_bingo, follow_score, follow_bingo),
 * None for a ply not made */
static PyObject *one_sample(SimHandle *h, int cand, PyObject *digest_o) {
    char *digest;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(digest_o, &digest, &n) < 0) return NULL;
    if (cand < 0 || cand >= h->in.n_cands || n < 16) {
        PyErr_SetString(PyExc_ValueError, "sim_sample: no such candidate, or a short digest");
        return NULL;
    }
    SimSample out;
    if (sim_sample(h->sim, cand, (const uint8_t *)digest, &out) < 0) {
        PyErr_SetString(PyExc_RuntimeError, "sim_sample: out of memory or a move not on the rack");
        return NULL;
    }
    return Py_BuildValue("(ddNNNN)", out.win, out.spread, int_or_none(out.reply_score),
                         bool_or_none(out.reply_bingo), int_or_none(out.follow_score),
                         bool_or_none(out.follow_bingo));
}

/* sim_samples(handle, tasks): one_sample of each (candidate, digest) of tasks, a list */
static PyObject *sim_samples_py(PyObject *self, PyObject *args) {
    PyObject *capsule, *tasks;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &tasks)) return NULL;
    SimHandle *h = PyCapsule_GetPointer(capsule, "gcgtools.sim");
    if (!h) return NULL;
    PyObject *seq = PySequence_Fast(tasks, "sim_samples: a list of (candidate, digest)");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t k = 0; out && k < n; k++) {
        PyObject *task = PySequence_Fast_GET_ITEM(seq, k), *digest, *x = NULL;
        int cand;
        if (PyArg_ParseTuple(task, "iO!", &cand, &PyBytes_Type, &digest))
            x = one_sample(h, cand, digest);
        if (!x) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, k, x);
    }
    Py_DECREF(seq);
    return out;
}

/* sim_draws(digest, n, ranges): the permutation random.Random's shuffle makes of n items
 * (seeded as sim_sample seeds it), then randrange(r) for each r of ranges, after it */
static PyObject *sim_draws_py(PyObject *self, PyObject *args) {
    const char *digest;
    Py_ssize_t len;
    int n;
    PyObject *ranges;
    if (!PyArg_ParseTuple(args, "y#iO", &digest, &len, &n, &ranges)) return NULL;
    if (len < 16 || n < 0 || n > SIM_MAX_TILES) {
        PyErr_SetString(PyExc_ValueError, "sim_draws: a 16-byte digest and 0..256 items");
        return NULL;
    }
    SimRng rng;
    sim_rng_seed(&rng, (const uint8_t *)digest);
    int x[SIM_MAX_TILES];
    for (int k = 0; k < n; k++) x[k] = k;
    sim_shuffle(&rng, x, n);
    PyObject *seq = PySequence_Fast(ranges, "ranges: a sequence of ints");
    if (!seq) return NULL;
    PyObject *perm = PyList_New(n), *draws = PyList_New(PySequence_Fast_GET_SIZE(seq));
    for (int k = 0; perm && k < n; k++) PyList_SET_ITEM(perm, k, PyLong_FromLong(x[k]));
    for (Py_ssize_t k = 0; perm && draws && k < PySequence_Fast_GET_SIZE(seq); k++) {
        long r = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (r < 1) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "sim_draws: ranges >= 1");
            Py_CLEAR(perm);
            break;
        }
        PyList_SET_ITEM(draws, k, PyLong_FromLong(sim_randbelow(&rng, r)));
    }
    Py_DECREF(seq);
    if (!perm || !draws) { Py_XDECREF(perm); Py_XDECREF(draws); return NULL; }
    return Py_BuildValue("(NN)", perm, draws);
}

/* prune_words(nodes, dawg_root, gaddag_root, size, bt, tiles): the words the tiles can
 * make on the board (word_prune.c) as a list of bytes (KWG indices), and the nodes of
 * their KWG as bytes */
static PyObject *prune_words(PyObject *self, PyObject *args) {
    PyObject *nodes_o, *bt_o, *tiles_o;
    unsigned int droot, groot;
    int size;
    if (!PyArg_ParseTuple(args, "OIIiOO", &nodes_o, &droot, &groot, &size, &bt_o, &tiles_o))
        return NULL;
    if (size < 1 || size > MAX_SIZE) {
        PyErr_SetString(PyExc_ValueError, "prune_words: board size out of range");
        return NULL;
    }
    int tiles[MAX_LETTERS] = {0};
    int n_letters = int_array(tiles_o, tiles, MAX_LETTERS, "tiles");
    if (n_letters < 0) return NULL;
    Buf nodes = {0}, bt = {0};
    PyObject *result = NULL, *words = NULL;
    WordSet ws;
    memset(&ws, 0, sizeof ws);
    uint32_t *kwg = NULL;
    isize nn = 0;
    if (get_buf(nodes_o, &nodes, 4, 2, 0, "nodes") < 0 ||
        get_buf(bt_o, &bt, 4, (Py_ssize_t)size * size, 0, "bt") < 0)
        goto done;
    if (wp_words(nodes.view.buf, nodes.view.len / 4, droot, groot, size, bt.view.buf, tiles,
                 n_letters, &ws) < 0 || wp_build(&ws, &kwg, &nn) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    words = PyList_New(ws.n);
    if (!words) goto done;
    for (isize k = 0; k < ws.n; k++) {
        const char *w = (const char *)ws.w + k * WP_LEN;
        PyObject *b = PyBytes_FromStringAndSize(w, (Py_ssize_t)strnlen(w, WP_LEN));
        if (!b) goto done;
        PyList_SET_ITEM(words, k, b);
    }
    result = Py_BuildValue("(Oy#)", words, (const char *)kwg, (Py_ssize_t)(nn * 4));
done:
    Py_XDECREF(words);
    wp_free(&ws);
    free(kwg);
    release(&nodes);
    release(&bt);
    return result;
}

static PyMethodDef methods[] = {
    {"prune_words", prune_words, METH_VARARGS,
     "prune_words(nodes, dawg_root, gaddag_root, size, bt, tiles): the words the tiles can "
     "make on the board, and the nodes of their KWG (bytes)."},
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
     "generate(inputs): the moves of a core.EngineInputs, best first (all or the top)."},
    {"solve_endgame_native", solve_endgame_native, METH_VARARGS,
     "solve_endgame_native(...): the exact endgame search in C (see "
     "gcgtools.analysis.endgame.native)."},
    {"sim_new", sim_new_py, METH_VARARGS,
     "sim_new(lexicon, board, leaves, rules, model, position, candidates, state): a "
     "simulation's C state (see gcgtools.analysis.sim_native)."},
    {"sim_samples", sim_samples_py, METH_VARARGS,
     "sim_samples(handle, tasks): per (candidate, digest), one playout's (win, spread, "
     "reply_score, reply_bingo, follow_score, follow_bingo)."},
    {"sim_draws", sim_draws_py, METH_VARARGS,
     "sim_draws(digest, n, ranges): the C twin of random.Random's shuffle and randrange."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_gaddag",
    "The move generator's engine core in C (see gcgtools.movegen.core).", -1, methods,
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
