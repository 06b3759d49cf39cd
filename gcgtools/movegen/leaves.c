/*
 * leaves.c: the values of a rack's leaves (see leaves.h). Plain C: _gaddag.c reads the
 * leave table or the KLV's buffers and calls these.
 */
#include "leaves.h"

/* Every leave's value from a KLV: its index is its rank among the graph's words
 * (wolges' get_word_index), found for all the rack's leaves in one walk that shares
 * their common prefixes: the leave so far is in (group p, index idx, code). */
typedef struct {
    const uint32_t *nodes, *counts;
    isize n_nodes;
    const float *values;
    isize n_values;
    const Kinds *kd;
    int by_num[MAX_KINDS];
    double *out;
} KlvWalk;

static void klv_walk(const KlvWalk *w, int q, uint32_t p, long idx, long code, int alive) {
    const Kinds *kd = w->kd;
    for (int j = q; j < kd->n_kinds; j++) {
        int k = w->by_num[j];
        uint32_t pp = p;
        long ii = idx, cc = code;
        int al = alive;
        for (long d = 1; d <= kd->count[k]; d++) {
            cc += kd->radix[k];
            double v = 0.0;
            if (al && pp) {
                uint32_t nd;
                al = 0;
                for (;;) {
                    nd = node_at(w->nodes, w->n_nodes, pp);
                    if ((long)(nd >> 24) == kd->klv[k]) { al = 1; break; }
                    if ((nd & IS_END) || (isize)pp + 1 >= w->n_nodes) break;
                    ii += (long)w->counts[pp] - (long)w->counts[pp + 1];
                    pp++;
                }
                if (al) {
                    if (nd & ACCEPTS) {
                        if (ii >= 0 && ii < w->n_values) v = (double)w->values[ii];
                        ii++;
                    }
                    pp = nd & ARC;
                }
            } else {
                al = 0;
            }
            w->out[cc] = v;
            klv_walk(w, j + 1, pp, ii, cc, al);
        }
    }
}

void endgame_leaves(const Kinds *kd, double *out) {
    for (isize code = 0; code < kd->n_codes; code++) {
        long rest = (long)code, pts = 0;
        for (int k = 0; k < kd->n_kinds; k++) {
            pts += (rest % (kd->count[k] + 1)) * kd->points[k];
            rest /= kd->count[k] + 1;
        }
        out[code] = -(double)pts;
    }
}

void klv_leaves(const Klv *klv, const Kinds *kd, int *order, double *out) {
    KlvWalk w = {klv->nodes, klv->counts, klv->n_nodes, klv->values, klv->n_values, kd,
                 {0}, out};
    for (int k = 0; k < kd->n_kinds; k++) { /* a leave's tiles are looked up sorted */
        w.by_num[k] = k;
        for (int r = k; r > 0 && kd->klv[w.by_num[r]] < kd->klv[w.by_num[r - 1]]; r--) {
            int t = w.by_num[r]; w.by_num[r] = w.by_num[r - 1]; w.by_num[r - 1] = t;
        }
    }
    out[0] = 0.0;
    for (int k = 0; k < kd->n_kinds; k++) order[k] = w.by_num[k];
    klv_walk(&w, 0, klv->root, 0, 0, 1);
}

void split_full_leave(const Kinds *kd, const int *order, double *out) {
    isize nc = kd->n_codes;
    double total = 0.0;
    long tiles = 0;
    for (int j = 0; j < kd->n_kinds; j++) {
        int k = order[j];
        for (long c = 0; c < kd->count[k]; c++) {
            total += out[nc - 1 - kd->radix[k]] + out[kd->radix[k]];
            tiles++;
        }
    }
    out[nc - 1] = total / (double)tiles;
}
