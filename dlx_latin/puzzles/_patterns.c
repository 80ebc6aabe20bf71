/*
 * Distinguishing sets of points, over many labellings at once.
 *
 * Given B labellings of N points (small integer labels), find k points and one labelling whose *pattern*
 * on them -- which of the k points share a label -- no other labelling has.  Subsets are searched in
 * increasing order (p0 < p1 < ...), and at each prefix the labellings are kept in groups of equal pattern,
 * each group a bitset over the labellings with one representative point per label block.  Adding a point
 * splits a group by the block whose label the new point repeats, or none (a new block).  A group is
 * dropped when it is empty, or when even all-new labels on the points still to come would leave it with
 * fewer than `min_blocks` blocks; a group of one labelling with at least `min_blocks` blocks is the answer.  The module knows labellings,
 * points and bitsets, nothing of boards.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_EVERY (1u << 16) /* prefixes between two looks for Ctrl-C */
#define MAX_K 64

enum { NONE = 0, FOUND = 1, BUDGET = 2, FAILED = 3 };

typedef struct {
    uint64_t *bits;  /* groups' bitsets, W words each */
    int *blocks;     /* groups' representative points, MAX_K each */
    int *nblocks;
    int n, cap;
} Level;

typedef struct {
    int B, N, W, k, min_blocks;
    uint64_t *eq;       /* eq[(q * N + p) * W]: the labellings with the same label at q and p */
    Level levels[MAX_K + 1];
    int chosen[MAX_K];
    int found_board, found_size;
    unsigned long long work, budget; /* words visited, and the most allowed */
    unsigned long visits;
    uint64_t *rest;
} Scan;

static int reserve(Level *l, int W, int n)
{
    if (n <= l->cap) return 1;
    int cap = l->cap ? 2 * l->cap : 16;
    while (cap < n) cap *= 2;
    uint64_t *bits = realloc(l->bits, (size_t)cap * W * sizeof *bits);
    if (!bits) return 0;
    l->bits = bits;
    int *blocks = realloc(l->blocks, (size_t)cap * MAX_K * sizeof *blocks);
    if (!blocks) return 0;
    l->blocks = blocks;
    int *nblocks = realloc(l->nblocks, (size_t)cap * sizeof *nblocks);
    if (!nblocks) return 0;
    l->nblocks = nblocks;
    l->cap = cap;
    return 1;
}

/* The number of labellings in a bitset, counting at most to 2; `*first` the first one's index. */
static int few(const uint64_t *set, int W, int *first)
{
    int count = 0;
    for (int w = 0; w < W; w++) {
        uint64_t x = set[w];
        if (!x) continue;
        if (!count) *first = 64 * w + __builtin_ctzll(x);
        count += __builtin_popcountll(x) > 1 ? 2 : 1;
        if (count > 1) return 2;
    }
    return count;
}

/* Add a group (bitset `set`, blocks) to level `to` unless it cannot reach min_blocks; FOUND when it holds
 * one labelling. */
static int keep(Scan *s, int to, const uint64_t *set, const int *blocks, int nb)
{
    int first = -1, count = few(set, s->W, &first);
    if (count == 0) return NONE;
    if (count == 1 && nb >= s->min_blocks) {
        s->found_board = first;
        s->found_size = to;
        return FOUND;
    }
    if (to == s->k || nb + (s->k - to) < s->min_blocks) return NONE;
    Level *l = &s->levels[to];
    if (!reserve(l, s->W, l->n + 1)) return FAILED;
    memcpy(l->bits + (size_t)l->n * s->W, set, s->W * sizeof *set);
    memcpy(l->blocks + (size_t)l->n * MAX_K, blocks, nb * sizeof *blocks);
    l->nblocks[l->n++] = nb;
    return NONE;
}

/* The number of labellings in `set` with none of the labels of the points `blocks` at p, counting at most
 * to 2 (`*first`: the first one). */
static int few_new(const Scan *s, const uint64_t *set, const int *blocks, int nb, int p, int *first)
{
    const uint64_t *same[MAX_K];
    for (int b = 0; b < nb; b++) same[b] = s->eq + ((size_t)blocks[b] * s->N + p) * s->W;
    int count = 0;
    for (int w = 0; w < s->W; w++) {
        uint64_t x = set[w];
        for (int b = 0; b < nb && x; b++) x &= ~same[b][w];
        if (!x) continue;
        if (!count) *first = 64 * w + __builtin_ctzll(x);
        count += __builtin_popcountll(x) > 1 ? 2 : 1;
        if (count > 1) return 2;
    }
    return count;
}

/* The number of labellings in both sets, counting at most to 2 (`*first`: the first one). */
static int few_both(const uint64_t *a, const uint64_t *b, int W, int *first)
{
    int count = 0;
    for (int w = 0; w < W; w++) {
        uint64_t x = a[w] & b[w];
        if (!x) continue;
        if (!count) *first = 64 * w + __builtin_ctzll(x);
        count += __builtin_popcountll(x) > 1 ? 2 : 1;
        if (count > 1) return 2;
    }
    return count;
}

/* The last point p: whether a group's part with a label of its own at p is one labelling with at least
 * min_blocks labels (one word at a time, nothing stored). */
static int finish(Scan *s, int j, int p)
{
    const Level *from = &s->levels[j];
    for (int g = 0; g < from->n; g++) {
        const uint64_t *set = from->bits + (size_t)g * s->W;
        const int *blocks = from->blocks + (size_t)g * MAX_K;
        int nb = from->nblocks[g], first = -1;
        s->work += (unsigned long long)(nb + 1) * s->W;
        if (nb + 1 >= s->min_blocks && few_new(s, set, blocks, nb, p, &first) == 1) {
            s->found_board = first;
            s->found_size = j + 1;
            return FOUND;
        }
        for (int b = 0; nb >= s->min_blocks && b < nb; b++) {
            const uint64_t *same = s->eq + ((size_t)blocks[b] * s->N + p) * s->W;
            if (few_both(set, same, s->W, &first) == 1) {
                s->found_board = first;
                s->found_size = j + 1;
                return FOUND;
            }
        }
    }
    return NONE;
}

/* The groups at depth j + 1 from those at depth j and the new point p (a part that could not reach
 * min_blocks labels is not made). */
static int extend(Scan *s, int j, int p)
{
    if (j + 1 == s->k) return finish(s, j, p);
    Level *from = &s->levels[j];
    int W = s->W, viable = s->min_blocks - (s->k - j - 1); /* blocks a part needs to be kept */
    s->levels[j + 1].n = 0;
    uint64_t *child = s->rest + W;
    for (int g = 0; g < from->n; g++) {
        const uint64_t *set = from->bits + (size_t)g * W;
        int *blocks = from->blocks + (size_t)g * MAX_K, nb = from->nblocks[g];
        memcpy(s->rest, set, W * sizeof *set);
        for (int b = 0; b < nb; b++) {
            const uint64_t *same = s->eq + ((size_t)blocks[b] * s->N + p) * W;
            if (nb < viable) {
                for (int w = 0; w < W; w++) s->rest[w] &= ~same[w];
                continue;
            }
            for (int w = 0; w < W; w++) {
                child[w] = set[w] & same[w];
                s->rest[w] &= ~same[w];
            }
            int r = keep(s, j + 1, child, blocks, nb);
            if (r != NONE) return r;
        }
        blocks[nb] = p;
        int r = keep(s, j + 1, s->rest, blocks, nb + 1);
        if (r != NONE) return r;
        s->work += (unsigned long long)(nb + 1) * W;
    }
    return NONE;
}

static int search(Scan *s, int j, int from)
{
    for (int p = from; p <= s->N - (s->k - j); p++) {
        if (++s->visits % CHECK_EVERY == 0 && PyErr_CheckSignals() < 0) return FAILED;
        if (s->work > s->budget) return BUDGET;
        s->chosen[j] = p;
        int r = extend(s, j, p);
        if (r != NONE) return r;
        if (j + 1 < s->k && s->levels[j + 1].n) {
            r = search(s, j + 1, p + 1);
            if (r != NONE) return r;
        }
    }
    return NONE;
}

static PyObject *unique_pattern(PyObject *self, PyObject *args)
{
    Py_buffer labels;
    int B, N, k, min_blocks;
    unsigned long long budget;
    if (!PyArg_ParseTuple(args, "y*iiiiK", &labels, &B, &N, &k, &min_blocks, &budget)) return NULL;
    if (B < 1 || N < 1 || k < 1 || k > MAX_K || k > N || labels.len != (Py_ssize_t)B * N) {
        PyBuffer_Release(&labels);
        PyErr_SetString(PyExc_ValueError, "need B * N labels, B >= 1, 1 <= k <= min(N, 64)");
        return NULL;
    }
    const unsigned char *lab = labels.buf;
    Scan s = {0};
    s.B = B; s.N = N; s.W = (B + 63) / 64; s.k = k; s.min_blocks = min_blocks; s.budget = budget;
    s.found_board = -1;
    s.eq = calloc((size_t)N * N * s.W, sizeof *s.eq);
    s.rest = malloc(2 * (size_t)s.W * sizeof *s.rest);
    int status = s.eq && s.rest && reserve(&s.levels[0], s.W, 1) ? NONE : FAILED;
    if (status == NONE) {
        for (int t = 0; t < B; t++)
            for (int q = 0; q < N; q++)
                for (int p = q + 1; p < N; p++)
                    if (lab[(size_t)t * N + q] == lab[(size_t)t * N + p])
                        s.eq[((size_t)q * N + p) * s.W + t / 64] |= 1ULL << (t % 64);
        Level *root = &s.levels[0];
        memset(root->bits, 0, s.W * sizeof *root->bits);
        for (int t = 0; t < B; t++) root->bits[t / 64] |= 1ULL << (t % 64);
        root->nblocks[0] = 0;
        root->n = 1;
        status = B == 1 && min_blocks <= 0 ? (s.found_board = 0, s.found_size = 0, FOUND) : search(&s, 0, 0);
    }
    PyBuffer_Release(&labels);
    for (int j = 0; j <= MAX_K; j++) {
        free(s.levels[j].bits); free(s.levels[j].blocks); free(s.levels[j].nblocks);
    }
    free(s.eq); free(s.rest);
    if (status == FAILED) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        return NULL;
    }
    if (status == NONE) Py_RETURN_NONE;
    if (status == BUDGET) Py_RETURN_FALSE;
    PyObject *points = PyList_New(s.found_size);
    if (!points) return NULL;
    for (int j = 0; j < s.found_size; j++) PyList_SET_ITEM(points, j, PyLong_FromLong(s.chosen[j]));
    return Py_BuildValue("(iN)", s.found_board, points);
}

static PyMethodDef methods[] = {
    {"unique_pattern", unique_pattern, METH_VARARGS,
     "unique_pattern(labels, B, N, k, min_blocks, budget) -> (labelling, points) | None | False: the first "
     "set of at most k points (in increasing order) on which one of the B labellings of N points (labels: "
     "B * N bytes) has a pattern of shared labels no other has, among patterns of at least min_blocks "
     "labels; None when there is none, False when `budget` words of bitsets were visited first."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_patterns", NULL, -1, methods};

PyMODINIT_FUNC PyInit__patterns(void) { return PyModule_Create(&module); }
