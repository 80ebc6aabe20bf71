/*
 * Counting the covers of a set of at most 64 cells by tiles, memoized on the covered cells.
 *
 * The cells are filled in order: the first uncovered cell must be the first cell of the next tile, so a
 * state is just the set of covered cells, and the number of ways to finish it is remembered in a hash
 * table (open addressing, linear probing, doubled at half load).  On the square this state is de Ruiter's
 * frontier: every cell before the first uncovered one is covered, and the tiles that reach past it give
 * the ragged edge.  After each tile the uncovered cells are flood-filled (bit-parallel, on a grid `width`
 * cells wide) and a state is dropped at once when one of its parts does not hold a multiple of `part`
 * cells.  The module knows cells, tiles and a grid width, nothing of boards or labels.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

#include "../u128.h"
#define CHECK_EVERY (1u << 20)   /* states counted between two looks for Ctrl-C */

#define EMPTY UINT64_MAX   /* never a stored state: the full set is answered before the table */

typedef struct {
    int cells, width, part;
    uint64_t full, not_first_column, not_last_column;
    uint64_t **tiles;      /* tiles[c]: the tiles whose first cell is c, as bitsets */
    int *ntiles;
    uint64_t *keys, mask, used;
    u128 *values;          /* counts in 128 bits: an overflow is reported, never wrapped */
    uint64_t visits;       /* states counted, to look for signals every CHECK_EVERY */
    PyThreadState *thread; /* the saved thread state while the GIL is released */
    int failed;            /* FAIL_MEMORY, FAIL_OVERFLOW or FAIL_SIGNAL once the count must stop */
} Counter;

enum { FAIL_MEMORY = 1, FAIL_OVERFLOW, FAIL_SIGNAL };

static inline uint64_t hash64(uint64_t x)
{
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return x;
}

static int grow(Counter *k)
{
    uint64_t slots = k->mask ? 2 * (k->mask + 1) : 1u << 16, m = slots - 1;
    uint64_t *keys = malloc(slots * sizeof *keys);
    u128 *values = malloc(slots * sizeof *values);
    if (!keys || !values) { free(keys); free(values); k->failed = FAIL_MEMORY; return 0; }
    for (uint64_t i = 0; i < slots; i++) keys[i] = EMPTY;
    for (uint64_t i = 0; k->mask && i <= k->mask; i++) {
        if (k->keys[i] == EMPTY) continue;
        uint64_t s = hash64(k->keys[i]) & m;
        while (keys[s] != EMPTY) s = (s + 1) & m;
        keys[s] = k->keys[i]; values[s] = k->values[i];
    }
    free(k->keys); free(k->values);
    k->keys = keys; k->values = values; k->mask = m;
    return 1;
}

/* The cells reachable from `seed` inside `region` (4-neighbours on the grid). */
static inline uint64_t flood(const Counter *k, uint64_t seed, uint64_t region)
{
    uint64_t reach = seed, before;
    int w = k->width;
    do {
        before = reach;
        reach |= ((reach << 1) & k->not_first_column) | ((reach >> 1) & k->not_last_column)
               | (reach << w) | (reach >> w);
        reach &= region;
    } while (reach != before);
    return reach;
}

/* Whether every part of the uncovered cells holds a multiple of `part` cells. */
static inline int parts_fit(const Counter *k, uint64_t covered)
{
    uint64_t free_cells = ~covered & k->full;
    while (free_cells) {
        uint64_t part = flood(k, free_cells & -free_cells, free_cells);
        if (__builtin_popcountll(part) % k->part) return 0;
        free_cells &= ~part;
    }
    return 1;
}

static u128 count(Counter *k, uint64_t covered)
{
    if (covered == k->full) return 1;
    if (++k->visits % CHECK_EVERY == 0) {               /* answer Ctrl-C: take the GIL back for a moment */
        PyEval_RestoreThread(k->thread);
        if (PyErr_CheckSignals() < 0) k->failed = FAIL_SIGNAL;
        k->thread = PyEval_SaveThread();
        if (k->failed) return 0;
    }
    uint64_t s = hash64(covered) & k->mask;
    while (k->keys[s] != EMPTY) {
        if (k->keys[s] == covered) return k->values[s];
        s = (s + 1) & k->mask;
    }
    int first = __builtin_ctzll(~covered);
    u128 total = 0;
    for (int t = 0; t < k->ntiles[first]; t++) {
        uint64_t tile = k->tiles[first][t];
        if (tile & covered) continue;
        uint64_t next = covered | tile;
        if (next != k->full && !parts_fit(k, next)) continue;
        u128 more = count(k, next);
        if (k->failed) return 0;
        if (more > U128_MAX - total) { k->failed = FAIL_OVERFLOW; return 0; }
        total += more;
    }
    if (2 * (k->used + 1) > k->mask + 1) {
        if (!grow(k)) return 0;
    }
    s = hash64(covered) & k->mask;
    while (k->keys[s] != EMPTY) s = (s + 1) & k->mask;
    k->keys[s] = covered; k->values[s] = total; k->used++;
    return total;
}

static PyObject *frontier_count(PyObject *self, PyObject *args)
{
    int width, part;
    unsigned long long start;
    PyObject *by_first;
    if (!PyArg_ParseTuple(args, "iiKO", &width, &part, &start, &by_first)) return NULL;
    Py_ssize_t cells = PySequence_Length(by_first);
    if (cells < 0) return NULL;
    if (cells < 1 || cells > 64 || width < 1 || part < 1) {
        PyErr_SetString(PyExc_ValueError, "between 1 and 64 cells, positive width and part size");
        return NULL;
    }
    Counter k = {0};
    k.cells = (int)cells; k.width = width; k.part = part;
    k.full = cells == 64 ? UINT64_MAX : (1ULL << cells) - 1;
    if (start & ~k.full) {
        PyErr_SetString(PyExc_ValueError, "the covered cells lie outside the grid");
        return NULL;
    }
    for (int c = 0; c < cells; c++) {
        if (c % width) k.not_first_column |= 1ULL << c;
        if (c % width != width - 1) k.not_last_column |= 1ULL << c;
    }
    k.tiles = calloc(cells, sizeof *k.tiles);
    k.ntiles = calloc(cells, sizeof *k.ntiles);
    PyObject *result = NULL;
    if (!k.tiles || !k.ntiles) { PyErr_NoMemory(); goto done; }
    for (int c = 0; c < cells; c++) {
        PyObject *item = PySequence_GetItem(by_first, c);
        if (!item) goto done;
        PyObject *row = PySequence_Fast(item, "tiles by first cell");
        Py_DECREF(item);
        if (!row) goto done;
        Py_ssize_t m = PySequence_Fast_GET_SIZE(row);
        if (m > INT32_MAX) { Py_DECREF(row); PyErr_SetString(PyExc_ValueError, "too many tiles"); goto done; }
        k.tiles[c] = malloc((m ? m : 1) * sizeof(uint64_t));
        if (!k.tiles[c]) { Py_DECREF(row); PyErr_NoMemory(); goto done; }
        k.ntiles[c] = (int)m;
        for (Py_ssize_t i = 0; i < m; i++) {
            uint64_t tile = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(row, i));
            if (PyErr_Occurred()) break;
            /* A tile listed under cell c holds c as its first cell and lies inside the grid (an empty tile
             * would cover nothing and recurse for ever). */
            if (!tile || (tile & ~k.full) || __builtin_ctzll(tile) != c) {
                PyErr_Format(PyExc_ValueError, "tile %zd under cell %d is empty, outside the grid or does "
                             "not start at that cell", i, c);
                break;
            }
            k.tiles[c][i] = tile;
        }
        Py_DECREF(row);
        if (PyErr_Occurred()) goto done;
    }
    if (!grow(&k)) { PyErr_NoMemory(); goto done; }
    u128 total;
    k.thread = PyEval_SaveThread();
    total = count(&k, (uint64_t)start);
    PyEval_RestoreThread(k.thread);
    if (k.failed == FAIL_MEMORY) { PyErr_NoMemory(); goto done; }
    if (k.failed == FAIL_OVERFLOW) { PyErr_SetString(PyExc_OverflowError, "cover count reached 2**128"); goto done; }
    if (k.failed == FAIL_SIGNAL) goto done;           /* the signal handler's exception is set */
    PyObject *found = u128_to_pylong(total);
    if (found) result = Py_BuildValue("NK", found, (unsigned long long)k.used);
done:
    for (int c = 0; k.tiles && c < cells; c++) free(k.tiles[c]);
    free(k.tiles); free(k.ntiles); free(k.keys); free(k.values);
    return result;
}

static PyMethodDef methods[] = {
    {"count", frontier_count, METH_VARARGS,
     "count(width, part, covered, tiles_by_first_cell) -> (covers, states): the covers of the cells not in "
     "`covered` by the tiles (bitsets listed under their first cell), with the parts of the uncovered cells "
     "of a grid `width` wide kept to multiples of `part`; states is the size of the memo."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_frontier", NULL, -1, methods};

PyMODINIT_FUNC PyInit__frontier(void) { return PyModule_Create(&module); }
