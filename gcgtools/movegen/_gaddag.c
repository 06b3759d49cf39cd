/*
 * gcgtools.movegen._gaddag: the inner loop of the move generator in C.
 *
 * line_plays() is gcgtools/movegen/generator.py's _line_plays written in C, with the same
 * arguments and the same output: it walks the GADDAG from every anchor of one line and
 * appends one tuple per play to `out`. Everything it needs about scoring comes in as
 * tables built by gcgtools.replay.scoring (per square: letter part and cross-word part of
 * each tile, word premium); it only adds them up, as the Python version does. The pure
 * Python version stays the reference: the tests run both and compare their plays.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define ARC 0x3FFFFFu
#define ACCEPTS 0x800000u
#define IS_END 0x400000u
#define MAXSQ 32
#define MAXT 64

typedef struct {
    const uint32_t *nodes;
    Py_ssize_t n_nodes;
    int size, line, nmax, minn, anchor, leftstop, right_ok;
    PyObject *across_obj;
    int bt[MAXSQ];
    long bv[MAXSQ], wm[MAXSQ], xb[MAXSQ];
    uint64_t xc[MAXSQ];
    long lt[MAXSQ][MAXT], xt[MAXSQ][MAXT];
    PyObject *cur[MAXSQ]; /* borrowed */
    PyObject *uppers[MAXT], *lowers[MAXT]; /* borrowed */
    int rc[MAXT];
    long long radix[MAXT];
    uint64_t rmask;
    PyObject *out;
    int error;
} Gen;

static inline uint32_t node(Gen *g, Py_ssize_t i) {
    return (i >= 0 && i < g->n_nodes) ? g->nodes[i] : IS_END; /* out of range: an empty end */
}

static void record(Gen *g, long ms, long wmul, long xs, int n, long long code, int start,
                   int end, long long mask) {
    if (g->error) return;
    PyObject *cells = PyTuple_New(end - start + 1);
    if (!cells) { g->error = 1; return; }
    for (int k = start; k <= end; k++) {
        Py_INCREF(g->cur[k]);
        PyTuple_SET_ITEM(cells, k - start, g->cur[k]);
    }
    Py_INCREF(g->across_obj);
    PyObject *t = Py_BuildValue("(lllnLNinnLN)", ms, wmul, xs, (Py_ssize_t)n, code,
                                g->across_obj, g->line, (Py_ssize_t)start, (Py_ssize_t)end,
                                mask, cells);
    if (!t) { g->error = 1; return; }
    if (PyList_Append(g->out, t) < 0) g->error = 1;
    Py_DECREF(t);
}

static void right(Gen *g, int pos, uint32_t grp, int start, long ms, long wmul, long xs,
                  int n, long long code, long long mask);

static void left(Gen *g, int pos, uint32_t grp, long ms, long wmul, long xs, int n,
                 long long code, long long mask) {
    if (g->error) return;
    int size = g->size, anchor = g->anchor;
    int free_ = pos == 0 || !g->bt[pos - 1];
    int sep_ok = free_ && anchor + 1 < size;
    int go_on = pos > g->leftstop;
    int t = g->bt[pos];
    if (t) {
        Py_ssize_t i = grp;
        uint32_t nd;
        for (;;) {
            nd = node(g, i);
            int nt = nd >> 24;
            if (nt == t) break;
            if (nt > t || (nd & IS_END)) return;
            i++;
        }
        ms += g->bv[pos];
        if ((nd & ACCEPTS) && free_ && g->right_ok && n >= g->minn)
            record(g, ms, wmul, xs, n, code, pos, anchor, mask);
        uint32_t arc = nd & ARC;
        if (arc) {
            if (go_on) left(g, pos - 1, arc, ms, wmul, xs, n, code, mask);
            if (sep_ok) {
                uint32_t sep = node(g, arc);
                if ((sep >> 24) == 0 && (sep & ARC))
                    right(g, anchor + 1, sep & ARC, pos, ms, wmul, xs, n, code, mask);
            }
        }
        return;
    }
    if (n == g->nmax) return;
    int blanks = g->rc[0];
    uint64_t allowed = g->xc[pos];
    if (!blanks) allowed &= g->rmask;
    if (!allowed) return;
    long w = wmul * g->wm[pos];
    mask |= 1LL << pos;
    n += 1;
    int rec = free_ && g->right_ok && n >= g->minn;
    int stop = 64 - __builtin_clzll(allowed);
    Py_ssize_t i = grp;
    for (;;) {
        uint32_t nd = node(g, i);
        int nt = nd >> 24;
        if (nt >= stop) return;
        if ((allowed >> nt) & 1) {
            int accepts = (nd & ACCEPTS) && rec;
            uint32_t arc = nd & ARC;
            uint32_t sep = 0;
            if (arc && sep_ok) {
                uint32_t s = node(g, arc);
                if ((s >> 24) == 0 && (s & ARC)) sep = s & ARC;
            }
            if (g->rc[nt]) {
                g->rc[nt]--;
                if (!g->rc[nt]) g->rmask ^= 1ULL << nt;
                g->cur[pos] = g->uppers[nt];
                long m2 = ms + g->lt[pos][nt], x2 = xs + g->xt[pos][nt];
                long long c2 = code - g->radix[nt];
                if (accepts) record(g, m2, w, x2, n, c2, pos, anchor, mask);
                if (arc) {
                    if (go_on) left(g, pos - 1, arc, m2, w, x2, n, c2, mask);
                    if (sep) right(g, anchor + 1, sep, pos, m2, w, x2, n, c2, mask);
                }
                if (!g->rc[nt]) g->rmask ^= 1ULL << nt;
                g->rc[nt]++;
            }
            if (blanks) {
                g->rc[0] = blanks - 1;
                g->cur[pos] = g->lowers[nt];
                long x2 = xs + g->xb[pos];
                long long c2 = code - g->radix[0];
                if (accepts) record(g, ms, w, x2, n, c2, pos, anchor, mask);
                if (arc) {
                    if (go_on) left(g, pos - 1, arc, ms, w, x2, n, c2, mask);
                    if (sep) right(g, anchor + 1, sep, pos, ms, w, x2, n, c2, mask);
                }
                g->rc[0] = blanks;
            }
            if (g->error) return;
        }
        if (nd & IS_END) return;
        i++;
    }
}

static void right(Gen *g, int pos, uint32_t grp, int start, long ms, long wmul, long xs,
                  int n, long long code, long long mask) {
    if (g->error) return;
    int size = g->size;
    int nxt = pos + 1;
    int end_ok = nxt == size || !g->bt[nxt];
    int more = nxt < size;
    int t = g->bt[pos];
    if (t) {
        Py_ssize_t i = grp;
        uint32_t nd;
        for (;;) {
            nd = node(g, i);
            int nt = nd >> 24;
            if (nt == t) break;
            if (nt > t || (nd & IS_END)) return;
            i++;
        }
        ms += g->bv[pos];
        if ((nd & ACCEPTS) && end_ok && n >= g->minn)
            record(g, ms, wmul, xs, n, code, start, pos, mask);
        uint32_t arc = nd & ARC;
        if (arc && more) right(g, nxt, arc, start, ms, wmul, xs, n, code, mask);
        return;
    }
    if (n == g->nmax) return;
    int blanks = g->rc[0];
    uint64_t allowed = g->xc[pos];
    if (!blanks) allowed &= g->rmask;
    if (!allowed) return;
    long w = wmul * g->wm[pos];
    mask |= 1LL << pos;
    n += 1;
    int rec = end_ok && n >= g->minn;
    int stop = 64 - __builtin_clzll(allowed);
    Py_ssize_t i = grp;
    for (;;) {
        uint32_t nd = node(g, i);
        int nt = nd >> 24;
        if (nt >= stop) return;
        if ((allowed >> nt) & 1) {
            int accepts = (nd & ACCEPTS) && rec;
            uint32_t arc = more ? (nd & ARC) : 0;
            if (g->rc[nt]) {
                g->rc[nt]--;
                if (!g->rc[nt]) g->rmask ^= 1ULL << nt;
                g->cur[pos] = g->uppers[nt];
                long m2 = ms + g->lt[pos][nt], x2 = xs + g->xt[pos][nt];
                long long c2 = code - g->radix[nt];
                if (accepts) record(g, m2, w, x2, n, c2, start, pos, mask);
                if (arc) right(g, nxt, arc, start, m2, w, x2, n, c2, mask);
                if (!g->rc[nt]) g->rmask ^= 1ULL << nt;
                g->rc[nt]++;
            }
            if (blanks) {
                g->rc[0] = blanks - 1;
                g->cur[pos] = g->lowers[nt];
                long x2 = xs + g->xb[pos];
                long long c2 = code - g->radix[0];
                if (accepts) record(g, ms, w, x2, n, c2, start, pos, mask);
                if (arc) right(g, nxt, arc, start, ms, w, x2, n, c2, mask);
                g->rc[0] = blanks;
            }
            if (g->error) return;
        }
        if (nd & IS_END) return;
        i++;
    }
}

/* ---------------------------------------------------------------- argument reading */
static int read_longs(PyObject *seq, long *dst, Py_ssize_t n, const char *what) {
    if (!PyList_Check(seq) || PyList_GET_SIZE(seq) < n) {
        PyErr_Format(PyExc_TypeError, "%s: a list of %zd ints expected", what, n);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(seq, k));
        if (v == -1 && PyErr_Occurred()) return -1;
        dst[k] = v;
    }
    return 0;
}

static PyObject *line_plays(PyObject *self, PyObject *args) {
    Py_buffer buf;
    unsigned int root;
    int size, across, line, nmax, empty_board;
    long long rack_code;
    unsigned long long rmask;
    PyObject *anchors, *bt, *bv, *xc, *wm, *cur, *lt, *xt, *xb, *hascross, *uppers, *lowers,
        *rc, *radix, *out;
    if (!PyArg_ParseTuple(args, "y*IiiiOOOOOOOOOOOOOOiLKiO", &buf, &root, &size, &across,
                          &line, &anchors, &bt, &bv, &xc, &wm, &cur, &lt, &xt, &xb,
                          &hascross, &uppers, &lowers, &rc, &radix, &nmax, &rack_code,
                          &rmask, &empty_board, &out))
        return NULL;
    Gen *g = PyMem_Calloc(1, sizeof(Gen));
    if (!g) { PyBuffer_Release(&buf); return PyErr_NoMemory(); }
    PyObject *result = NULL;
    long tmp[MAXT];
    Py_ssize_t nlet = PyList_Check(uppers) ? PyList_GET_SIZE(uppers) : 0;
    if (buf.len % 4 != 0) {
        PyErr_SetString(PyExc_ValueError, "nodes: a buffer of uint32 expected");
        goto done;
    }
    if (size < 1 || size > MAXSQ || nlet < 1 || nlet > MAXT || !PyList_Check(out) ||
        !PyList_Check(lowers) || PyList_GET_SIZE(lowers) < nlet || !PyList_Check(cur) ||
        PyList_GET_SIZE(cur) < size || !PyList_Check(lt) || !PyList_Check(xt) ||
        PyList_GET_SIZE(lt) < size || PyList_GET_SIZE(xt) < size || !PyList_Check(anchors) ||
        !PyList_Check(xc) || PyList_GET_SIZE(xc) < size || !PyList_Check(hascross) ||
        PyList_GET_SIZE(hascross) < size) {
        PyErr_SetString(PyExc_ValueError, "line_plays: bad arguments");
        goto done;
    }
    g->nodes = (const uint32_t *)buf.buf;
    g->n_nodes = buf.len / 4;
    g->size = size;
    g->line = line;
    g->nmax = nmax;
    g->out = out;
    g->across_obj = across ? Py_True : Py_False;
    g->rmask = rmask;
    if (read_longs(bt, tmp, size, "bt") < 0) goto done;
    for (int k = 0; k < size; k++) g->bt[k] = (int)tmp[k];
    if (read_longs(bv, g->bv, size, "bv") < 0) goto done;
    if (read_longs(wm, g->wm, size, "wm") < 0) goto done;
    if (read_longs(xb, g->xb, size, "xb") < 0) goto done;
    for (int k = 0; k < size; k++) {
        unsigned long long v = PyLong_AsUnsignedLongLongMask(PyList_GET_ITEM(xc, k));
        if (v == (unsigned long long)-1 && PyErr_Occurred()) goto done;
        g->xc[k] = v;
        g->cur[k] = PyList_GET_ITEM(cur, k);
        if (read_longs(PyList_GET_ITEM(lt, k), g->lt[k], nlet, "lt") < 0) goto done;
        if (read_longs(PyList_GET_ITEM(xt, k), g->xt[k], nlet, "xt") < 0) goto done;
    }
    for (Py_ssize_t k = 0; k < nlet; k++) {
        g->uppers[k] = PyList_GET_ITEM(uppers, k);
        g->lowers[k] = PyList_GET_ITEM(lowers, k);
    }
    if (read_longs(rc, tmp, nlet, "rc") < 0) goto done;
    for (Py_ssize_t k = 0; k < nlet; k++) g->rc[k] = (int)tmp[k];
    {
        PyObject *seq = radix;
        if (!PyList_Check(seq) || PyList_GET_SIZE(seq) < nlet) {
            PyErr_SetString(PyExc_TypeError, "radix: a list expected");
            goto done;
        }
        for (Py_ssize_t k = 0; k < nlet; k++) {
            long long v = PyLong_AsLongLong(PyList_GET_ITEM(seq, k));
            if (v == -1 && PyErr_Occurred()) goto done;
            g->radix[k] = v;
        }
    }
    {
        int prev = -1;
        Py_ssize_t na = PyList_GET_SIZE(anchors);
        for (Py_ssize_t k = 0; k < na; k++) {
            long a = PyLong_AsLong(PyList_GET_ITEM(anchors, k));
            if (a == -1 && PyErr_Occurred()) goto done;
            if (a < 0 || a >= size) {
                PyErr_SetString(PyExc_ValueError, "anchor off the line");
                goto done;
            }
            if (g->xc[a]) {
                g->anchor = (int)a;
                g->leftstop = prev + 1;
                g->right_ok = a + 1 == size || !g->bt[a + 1];
                int cross = PyObject_IsTrue(PyList_GET_ITEM(hascross, a));
                if (empty_board || (!across && cross))
                    g->minn = 2;
                else
                    g->minn = 1;
                left(g, (int)a, root, 0, 1, 0, 0, rack_code, 0);
                if (g->error) goto done;
            }
            prev = (int)a;
        }
    }
    result = Py_None;
    Py_INCREF(result);
done:
    PyBuffer_Release(&buf);
    PyMem_Free(g);
    return result;
}

static PyMethodDef methods[] = {
    {"line_plays", line_plays, METH_VARARGS,
     "The plays from every anchor of one line (see generator._line_plays)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_gaddag",
    "The move generator's inner loop in C (gcgtools.movegen.generator._line_plays).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__gaddag(void) { return PyModule_Create(&module); }
