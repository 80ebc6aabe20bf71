/*
 * Distinguishing sets of points, over many labellings at once.
 *
 * Given B labellings of N points (small integer labels), find k points and one labelling whose *pattern*
 * on them -- which of the k points share a label -- no other labelling has.  Subsets are searched in
 * increasing order (p0 < p1 < ...), and at each prefix the labellings are kept in groups of equal pattern,
 * each group a bitset over the labellings with one representative point per label block.  Adding a point
 * splits a group by the block whose label the new point repeats, or none (a new block).  A group is
 * dropped when it is empty, or when even all-new labels on the points still to come would leave it with
 * fewer than `min_blocks` blocks; a group of one labelling with at least `min_blocks` blocks is the answer.
 *
 * Given a group of point permutations under which the labellings, up to renaming labels, are closed, only
 * one set of each orbit needs a look: the j-th point must be the least of its orbit under the permutations
 * fixing the points before it, and no later point may be moved below an earlier point p_i by the
 * permutations fixing the points before p_i.  (Any set is mapped to one such set by choosing, step by step,
 * the point that the permutations fixing those chosen so far can move lowest.)  The module knows
 * labellings, points, permutations and bitsets, nothing of boards.
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
    int G;              /* permutations in the group (0: none given) */
    const int32_t *img; /* img[g * N + p]: where permutation g sends p */
    int *stab;          /* stab[j * G ...]: the permutations fixing the points chosen before depth j */
    int nstab[MAX_K + 1];
    int *least;         /* least[j * N + p]: the lowest image of p under those permutations */
    unsigned char *allowed; /* allowed[j * N + p]: no permutation fixing the points before p_i moves p
                             * below p_i, for each i < j */
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

/* The permutations fixing the points before depth j, and the lowest image of each point under them. */
static void stabilize(Scan *s, int j)
{
    int N = s->N, *least = s->least + (size_t)j * N;
    if (j > 0) {
        const int *from = s->stab + (size_t)(j - 1) * s->G;
        int *to = s->stab + (size_t)j * s->G, n = 0, p = s->chosen[j - 1];
        for (int i = 0; i < s->nstab[j - 1]; i++)
            if (s->img[(size_t)from[i] * N + p] == p) to[n++] = from[i];
        s->nstab[j] = n;
    }
    const int *stab = s->stab + (size_t)j * s->G;
    for (int p = 0; p < N; p++) least[p] = p;
    for (int i = 0; i < s->nstab[j]; i++) {
        const int32_t *g = s->img + (size_t)stab[i] * N;
        for (int p = 0; p < N; p++)
            if (g[p] < least[p]) least[p] = g[p];
    }
    if (j > 0) {
        const unsigned char *before = s->allowed + (size_t)(j - 1) * N;
        const int *lower = s->least + (size_t)(j - 1) * N, chosen = s->chosen[j - 1];
        for (int p = 0; p < N; p++) s->allowed[(size_t)j * N + p] = before[p] && lower[p] >= chosen;
    }
}

/* Whether point p may come at depth j (always, without a group). */
static int canonical(const Scan *s, int j, int p)
{
    return !s->G || (s->allowed[(size_t)j * s->N + p] && s->least[(size_t)j * s->N + p] == p);
}

static int search(Scan *s, int j, int from)
{
    for (int p = from; p <= s->N - (s->k - j); p++) {
        if (++s->visits % CHECK_EVERY == 0 && PyErr_CheckSignals() < 0) return FAILED;
        if (s->work > s->budget) return BUDGET;
        if (!canonical(s, j, p)) continue;
        s->chosen[j] = p;
        int r = extend(s, j, p);
        if (r != NONE) return r;
        if (j + 1 < s->k && s->levels[j + 1].n) {
            if (s->G) stabilize(s, j + 1);
            r = search(s, j + 1, p + 1);
            if (r != NONE) return r;
        }
    }
    return NONE;
}

static PyObject *unique_pattern(PyObject *self, PyObject *args)
{
    Py_buffer labels, group = {0};
    int B, N, k, min_blocks;
    unsigned long long budget;
    if (!PyArg_ParseTuple(args, "y*iiiiK|z*", &labels, &B, &N, &k, &min_blocks, &budget, &group)) return NULL;
    Scan s = {0};
    s.G = group.buf ? (int)(group.len / (4 * (Py_ssize_t)N)) : 0;
    s.img = group.buf;
    int valid = B >= 1 && N >= 1 && k >= 1 && k <= MAX_K && k <= N && labels.len == (Py_ssize_t)B * N &&
                (!group.buf || group.len == (Py_ssize_t)s.G * N * 4);
    for (Py_ssize_t i = 0; valid && i < (Py_ssize_t)s.G * N; i++) valid = s.img[i] >= 0 && s.img[i] < N;
    if (!valid) {
        PyBuffer_Release(&labels);
        if (group.buf) PyBuffer_Release(&group);
        PyErr_SetString(PyExc_ValueError, "need B * N labels, B >= 1, 1 <= k <= min(N, 64), and a group of "
                                          "G * N int32 point images below N");
        return NULL;
    }
    const unsigned char *lab = labels.buf;
    s.B = B; s.N = N; s.W = (B + 63) / 64; s.k = k; s.min_blocks = min_blocks; s.budget = budget;
    s.found_board = -1;
    s.eq = calloc((size_t)N * N * s.W, sizeof *s.eq);
    s.rest = malloc(2 * (size_t)s.W * sizeof *s.rest);
    int status = s.eq && s.rest && reserve(&s.levels[0], s.W, 1) ? NONE : FAILED;
    if (status == NONE && s.G) {
        s.stab = malloc((size_t)(k + 1) * s.G * sizeof *s.stab);
        s.least = malloc((size_t)(k + 1) * N * sizeof *s.least);
        s.allowed = malloc((size_t)(k + 1) * N);
        if (!s.stab || !s.least || !s.allowed) status = FAILED;
        else {
            for (int g = 0; g < s.G; g++) s.stab[g] = g;
            s.nstab[0] = s.G;
            memset(s.allowed, 1, N);
            stabilize(&s, 0);
        }
    }
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
    if (group.buf) PyBuffer_Release(&group);
    for (int j = 0; j <= MAX_K; j++) {
        free(s.levels[j].bits); free(s.levels[j].blocks); free(s.levels[j].nblocks);
    }
    free(s.eq); free(s.rest); free(s.stab); free(s.least); free(s.allowed);
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
     "unique_pattern(labels, B, N, k, min_blocks, budget, group=None) -> (labelling, points) | None | False: "
     "the first set of at most k points (in increasing order) on which one of the B labellings of N points "
     "(labels: B * N bytes) has a pattern of shared labels no other has, among patterns of at least "
     "min_blocks labels; None when there is none, False when `budget` words of bitsets were visited first. "
     "`group`: every element of a group of point permutations (G * N native int32 images) that maps the "
     "labellings' patterns to theirs; then one set per orbit is looked at."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_patterns", NULL, -1, methods};

PyMODINIT_FUNC PyInit__patterns(void) { return PyModule_Create(&module); }
