/*
 * _rectangles.c -- Latin rectangles with given column sets, counted row by row (see symmetry/halves.py).
 *
 * A k x n Latin rectangle whose column c holds the label set S_c is an ordered decomposition of the
 * k-regular bipartite graph G (column c joined to the labels of S_c) into k perfect matchings: row r is
 * the r-th.  Column 0's labels are fixed in increasing order down the rows (the caller multiplies by k!),
 * and the rows are enumerated one perfect matching at a time, column 0 taking its r-th label and the other
 * columns chosen fewest-labels-first.  The last two rows are counted at once: what is left of G is
 * 2-regular, a union of even cycles, and each cycle but column 0's splits into the two rows in 2 ways.
 * The count below three rows left depends only on what is left of G, which many choices of the rows above
 * leave alike (two rows above can be swapped along each cycle they form), so it is remembered in a small
 * hash table (full keys compared; a full table stops remembering).
 *
 * count(masks, k) -> int: masks holds n uint16 label sets (bit v: label v), each of k labels, every label
 * in k of them; the number of rectangles with column 0 in increasing order.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "../dlx_latin/u128.h"

#define MAX_N 16
#define SLOTS (1 << 17)            /* remembered graphs, at most */

typedef struct {
    uint64_t key[4];               /* the graph left: 16 masks of 16 bits; key[0] == 0: empty slot */
    u128 count;
} Slot;

typedef struct {
    int n, k, overflow, filled;
    int first[MAX_N];              /* column 0's labels, increasing: row r puts first[r] there */
    u128 count;
    Slot *memo;                    /* counts below three rows left, by graph (NULL: none) */
} Rows;

/* The cycles of a 2-regular graph: columns joined through the labels they share. */
static int cycles(const uint16_t *g, int n)
{
    int owner[MAX_N], parent[MAX_N], joins = 0;
    for (int v = 0; v < n; v++) owner[v] = -1;
    for (int c = 0; c < n; c++) parent[c] = c;
    for (int c = 0; c < n; c++)
        for (uint16_t m = g[c]; m; m &= m - 1) {
            int v = __builtin_ctz(m);
            if (owner[v] < 0) { owner[v] = c; continue; }
            int a = owner[v], b = c;
            while (parent[a] != a) a = parent[a];
            while (parent[b] != b) b = parent[b];
            if (a != b) { parent[a] = b; joins++; }
        }
    return n - joins;
}

static void add(Rows *x, u128 v)
{
    if (x->count > U128_MAX - v) x->overflow = 1;
    else x->count += v;
}

static void rows(Rows *x, const uint16_t *g, int r);

/* Extend the perfect matching m of row r (columns in `done` matched, labels in `used` taken). */
static void matchings(Rows *x, const uint16_t *g, int r, uint16_t *m, uint32_t done, uint16_t used)
{
    int n = x->n, best = -1, fewest = 99;
    for (int c = 1; c < n; c++) {
        if (done >> c & 1) continue;
        int free = __builtin_popcount(g[c] & ~used);
        if (free < fewest) { fewest = free; best = c; if (free <= 1) break; }
    }
    if (best < 0) {                /* every column matched: the rest of G for the rows below */
        uint16_t rest[MAX_N];
        for (int c = 0; c < n; c++) rest[c] = g[c] & ~m[c];
        rows(x, rest, r + 1);
        return;
    }
    for (uint16_t f = g[best] & ~used; f && !x->overflow; f &= f - 1) {
        m[best] = f & -f;
        matchings(x, g, r, m, done | 1u << best, used | m[best]);
    }
}

static void rows(Rows *x, const uint16_t *g, int r)
{
    int left = x->k - r;
    if (left == 1) { add(x, 1); return; }                 /* G is a perfect matching: one row */
    if (left == 2) { add(x, (u128)1 << (cycles(g, x->n) - 1)); return; }
    uint16_t m[MAX_N];
    m[0] = (uint16_t)(1u << x->first[r]);
    if (left != 3 || !x->memo) { matchings(x, g, r, m, 1u, m[0]); return; }
    uint64_t key[4] = {0, 0, 0, 0}, h = 0;
    for (int c = 0; c < x->n; c++) key[c >> 2] |= (uint64_t)g[c] << (16 * (c & 3));
    key[0] |= 1ull << 63;                                 /* never 0: column 0 has at most 16 labels */
    for (int w = 0; w < 4; w++) h = (h ^ key[w]) * 0x9E3779B97F4A7C15ull;
    Slot *slot = NULL;
    for (uint64_t i = h >> 47, probes = 0; probes < 8; i = (i + 1) & (SLOTS - 1), probes++) {
        Slot *t = x->memo + (i & (SLOTS - 1));
        if (!t->key[0]) { slot = t; break; }
        if (!memcmp(t->key, key, sizeof key)) { add(x, t->count); return; }
    }
    u128 before = x->count;
    matchings(x, g, r, m, 1u, m[0]);
    if (slot && !x->overflow && x->filled < SLOTS / 2) {
        memcpy(slot->key, key, sizeof key);
        slot->count = x->count - before;
        x->filled++;
    }
}

static PyObject *count(PyObject *self, PyObject *args)
{
    Py_buffer b;
    int k;
    if (!PyArg_ParseTuple(args, "y*i", &b, &k)) return NULL;
    Rows x = {0};
    x.n = (int)(b.len / 2);
    x.k = k;
    uint16_t g[MAX_N];
    int ok = b.len % 2 == 0 && x.n >= 1 && x.n <= MAX_N && k >= 1 && k <= x.n;
    if (ok) memcpy(g, b.buf, b.len);
    PyBuffer_Release(&b);
    int degree[MAX_N] = {0};
    for (int c = 0; ok && c < x.n; c++) {
        ok = g[c] < (1u << x.n) && __builtin_popcount(g[c]) == k;
        for (int v = 0; v < x.n; v++) degree[v] += g[c] >> v & 1;
    }
    for (int v = 0; ok && v < x.n; v++) ok = degree[v] == k;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "column sets must be n <= 16 sets of k labels, each label in k sets");
        return NULL;
    }
    for (int r = 0, v = 0; v < x.n; v++)
        if (g[0] >> v & 1) x.first[r++] = v;
    if (k > 3 && !(x.memo = calloc(SLOTS, sizeof(Slot)))) return PyErr_NoMemory();
    Py_BEGIN_ALLOW_THREADS
    rows(&x, g, 0);
    Py_END_ALLOW_THREADS
    free(x.memo);
    if (x.overflow) { PyErr_SetString(PyExc_OverflowError, "more rectangles than 2^128"); return NULL; }
    return u128_to_pylong(x.count);
}

static PyMethodDef methods[] = {
    {"count", count, METH_VARARGS,
     "count(masks, k): Latin rectangles with these column label sets (uint16 each), column 0 increasing."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rectangles", NULL, -1, methods};

PyMODINIT_FUNC PyInit__rectangles(void) { return PyModule_Create(&module); }
