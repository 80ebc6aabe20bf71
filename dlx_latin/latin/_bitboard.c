/*
 * _bitboard.c -- puzzles of one partial Latin board answered on label bitsets, with attrition by singles.
 *
 * The exact-cover kernel (exact_cover/_kernel.c) knows items and options only; this module is the one piece
 * of C that knows the Latin framework -- points, asterisms and a multiset -- and still no board family.
 * It exists for collections: a 17-clue Sudoku costs the kernel about 100 dancing-links nodes, most of them
 * forced moves that each unlink a few dozen nodes; here a forced move is a few word operations.
 *
 * BOARD.  Points 0..P-1; asterisms, lists of points; labels 0..L-1 (L <= 64), label v held need[v] times by
 * every asterism (the needs add up to each asterism's size).
 *
 * STATE (a frame per search level, see Frame).  lab[p]: the labels point p may still take, a 64-bit set (one
 * bit when p is filled).  Invariant: no asterism holds a label more than its need, and an open point's set
 * lacks every label that is full in one of its asterisms (ELIMINATION, done by place()).
 *
 * ATTRITION.  Two rules run to a fixpoint after every placement.  Naked single: an open point with one label
 * left takes it (a queue of such points, filled by elimination).  Hidden single, for multisets: when the
 * points of an asterism that may hold label v number exactly need[v], they all take v; fewer is a dead end.
 * With distinct labels elimination is branch-free over p's peers, and the hidden singles are bit-sliced --
 * OR over an asterism's sets gives the labels seen at least once and at least twice.  Only DIRTY asterisms
 * are looked at: those holding a point whose set changed since (a bitset of asterisms, OR-ed in without a
 * branch per peer: 17-clue Sudoku a third faster than sweeping every asterism).  When singles are done and
 * points are still open, LOCKED labels (Palomo's intersection rule, distinct labels): where two asterisms
 * meet in two points or more, a label whose places in one of them all lie in the meeting leaves the other's
 * points outside it (16x16 critical puzzles: a quarter of the branchings, twice as fast).
 *
 * SEARCH.  Depth first: branch on the open point with the fewest labels (the first such point; the scan
 * stops at two), trying its labels in increasing order on a copy of the frame.  Every completion is a
 * different labelling, so counts are exact; a search stops at `cap` completions, keeping the first few.  The
 * GIL is released while a puzzle is searched, taken back every 2^16 nodes to look for Ctrl-C.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#define MAX_LABELS 64
#define SIGNAL_EVERY 0xFFFF

typedef struct {
    PyObject_HEAD
    int n_points, n_labels, n_asterisms, distinct, busy, ready;  /* ready: BitBoard(...) succeeded */
    int need[MAX_LABELS];
    uint64_t full;                       /* every label */
    int *ast_start, *ast_pts;            /* the points of asterism a: ast_pts[ast_start[a] .. ast_start[a+1]) */
    int *of_start, *of_ast;              /* the asterisms of point p, likewise */
    int *peer_start, *peers;             /* the other points of p's asterisms, each once, likewise */
    int *pairs, pairs_len;               /* asterisms meeting in 2+ points: a, c, |I|, |a-I|, |c-I|, then the
                                            points of I, a-I and c-I (distinct labels only) */
    uint64_t *frames;                    /* a frame per level, frame_words each (see frame_at) */
    uint64_t *pristine;                  /* the frame of the empty board */
    int frame_words, levels;             /* words per frame; frames allocated */
    int *branch_point;                   /* per level: the point branched on */
    uint64_t *branch_rest;               /* per level: its labels not tried yet */
    int *queue, n_queue;                 /* naked singles to place */
    uint64_t *dirty;                     /* asterisms whose sets changed since their hidden singles were sought */
    uint64_t *of_mask;                   /* per point, its asterisms as a bitset (dirty_words each) */
    int dirty_words;
    int8_t *first;                       /* the first `keep` completions found, n_points labels each */
    Py_ssize_t keep, first_room;         /* completions kept per search; room for that many */
    uint64_t nodes;
    PyThreadState *thread;               /* while a search runs without the GIL */
} BitBoard;

/* A level's state: lab[p] the labels point p may still take (one bit once filled), done[a] the labels
 * asterism a holds already (distinct labels only), val[p] the label p holds or -1, and how many points are
 * open. */
typedef struct {
    uint64_t *lab, *done;
    int8_t *val;
    int *open;
} Frame;

static inline Frame frame_at(const BitBoard *b, uint64_t *base)
{
    Frame f = {base, base + b->n_points, (int8_t *)(base + b->n_points + b->n_asterisms + 1),
               (int *)(base + b->n_points + b->n_asterisms)};
    return f;
}

/* Forget pending singles and dirty asterisms (after a dead end). */
static inline void settle(BitBoard *b)
{
    b->n_queue = 0;
    memset(b->dirty, 0, b->dirty_words * sizeof(uint64_t));
}

/* Mark the asterisms of point p dirty. */
static inline void touch(BitBoard *b, int p)
{
    const uint64_t *m = b->of_mask + (size_t)p * b->dirty_words;
    for (int w = 0; w < b->dirty_words; w++) b->dirty[w] |= m[w];
}

/* Put label v on point p and take it from the points it may no longer go to: 0 when that is impossible
 * (p holds another label, v is not left at p, or some point loses its last label).  Distinct labels take v
 * from p's peers, unconditionally: a filled peer holds another label, so its set does not change. */
static int place(BitBoard *b, Frame f, int p, int v)
{
    const uint64_t bit = 1ull << v;
    uint64_t *lab = f.lab;
    if (f.val[p] >= 0) return f.val[p] == v;
    if (!(lab[p] & bit)) return 0;
    f.val[p] = (int8_t)v;
    lab[p] = bit;
    (*f.open)--;
    touch(b, p);
    if (b->distinct) {
        int *queue = b->queue, n = b->n_queue, dead = 0;
        for (int e = b->of_start[p]; e < b->of_start[p + 1]; e++) f.done[b->of_ast[e]] |= bit;
        if (b->dirty_words == 1) {                          /* the asterisms of the peers that lost v */
            uint64_t dirty = 0;
            for (int e = b->peer_start[p]; e < b->peer_start[p + 1]; e++) {
                int q = b->peers[e];
                uint64_t old = lab[q], left = old & ~bit;
                lab[q] = left;
                dead |= left == 0;
                dirty |= b->of_mask[q] & -(uint64_t)(left != old);
                queue[n] = q;
                n += (left != old) & ((left & (left - 1)) == 0);
            }
            b->dirty[0] |= dirty;
        } else {
            for (int e = b->peer_start[p]; e < b->peer_start[p + 1]; e++) {
                int q = b->peers[e];
                uint64_t old = lab[q], left = old & ~bit;
                if (left == old) continue;
                lab[q] = left;
                dead |= left == 0;
                touch(b, q);
                queue[n] = q;
                n += (left & (left - 1)) == 0;
            }
        }
        b->n_queue = n;
        return !dead;
    }
    for (int e = b->of_start[p]; e < b->of_start[p + 1]; e++) {
        int a = b->of_ast[e];
        const int *pts = b->ast_pts + b->ast_start[a], k = b->ast_start[a + 1] - b->ast_start[a];
        int have = 0;
        for (int t = 0; t < k; t++) have += f.val[pts[t]] == v;
        if (have < b->need[v]) continue;
        for (int t = 0; t < k; t++) {
            int q = pts[t];
            if (f.val[q] >= 0 || !(lab[q] & bit)) continue;
            uint64_t left = lab[q] &= ~bit;
            if (!left) return 0;
            if (!(left & (left - 1))) b->queue[b->n_queue++] = q;
            touch(b, q);
        }
    }
    return 1;
}

/* The hidden singles of asterism a placed: 0 at a dead end (a label with too few places left). */
static inline int hidden(BitBoard *b, Frame f, int a)
{
    const int *pts = b->ast_pts + b->ast_start[a], k = b->ast_start[a + 1] - b->ast_start[a];
    const uint64_t *lab = f.lab;
    if (b->distinct) {
        uint64_t ones = 0, twos = 0;
        for (int t = 0; t < k; t++) {
            uint64_t m = lab[pts[t]];
            twos |= ones & m;
            ones |= m;
        }
        if (ones != b->full) return 0;
        uint64_t single = ones & ~twos & ~f.done[a];
        for (int t = 0; single && t < k; t++) {
            int q = pts[t];
            uint64_t s = lab[q] & single;
            if (!s) continue;
            if (s & (s - 1)) return 0;                       /* two labels that only q can take */
            single &= ~s;
            if (!place(b, f, q, __builtin_ctzll(s))) return 0;
        }
        return 1;
    }
    int seen[MAX_LABELS] = {0};
    for (int t = 0; t < k; t++)
        for (uint64_t m = lab[pts[t]]; m; m &= m - 1) seen[__builtin_ctzll(m)]++;
    for (int v = 0; v < b->n_labels; v++) {
        if (seen[v] < b->need[v]) return 0;
        if (seen[v] > b->need[v]) continue;
        for (int t = 0; t < k; t++)
            if (f.val[pts[t]] < 0 && (lab[pts[t]] >> v & 1) && !place(b, f, pts[t], v)) return 0;
    }
    return 1;
}

/* Take the labels `gone` from the open points pts[0..n): -1 at a dead end, else whether a set changed. */
static int take(BitBoard *b, Frame f, const int *pts, int n, uint64_t gone)
{
    int changed = 0;
    for (int t = 0; t < n; t++) {
        int q = pts[t];
        uint64_t old = f.lab[q], left = old & ~gone;
        if (f.val[q] >= 0 || left == old) continue;
        if (!left) return -1;
        f.lab[q] = left;
        if (!(left & (left - 1))) b->queue[b->n_queue++] = q;
        touch(b, q);
        changed = 1;
    }
    return changed;
}

/* Locked labels (pointing and claiming): where asterisms a and c meet in I, a label whose places in a all
 * lie in I leaves the points of c outside I, and the other way round.  -1 at a dead end, else whether a
 * set changed. */
static int locked(BitBoard *b, Frame f)
{
    int changed = 0;
    for (int at = 0; at < b->pairs_len;) {
        const int *e = b->pairs + at, a = e[0], c = e[1], ni = e[2], na = e[3], nc = e[4];
        const int *in = e + 5, *a_out = in + ni, *c_out = a_out + na;
        at += 5 + ni + na + nc;
        uint64_t inside = 0, outside_a = 0, outside_c = 0;
        for (int t = 0; t < ni; t++) inside |= f.lab[in[t]];
        for (int t = 0; t < na; t++) outside_a |= f.lab[a_out[t]];
        for (int t = 0; t < nc; t++) outside_c |= f.lab[c_out[t]];
        uint64_t from_c = inside & ~outside_a & ~f.done[a] & outside_c;
        uint64_t from_a = inside & ~outside_c & ~f.done[c] & outside_a;
        if (from_c) {
            int r = take(b, f, c_out, nc, from_c);
            if (r < 0) return -1;
            changed |= r;
        }
        if (from_a) {
            int r = take(b, f, a_out, na, from_a);
            if (r < 0) return -1;
            changed |= r;
        }
    }
    return changed;
}

/* Attrition to a fixpoint: naked singles first, then the hidden singles of a dirty asterism, then locked
 * labels, again until none is left. */
static int propagate(BitBoard *b, Frame f)
{
    for (int w = 0;;) {
        while (b->n_queue) {
            int q = b->queue[--b->n_queue];
            if (f.val[q] < 0 && !place(b, f, q, __builtin_ctzll(f.lab[q]))) return 0;
        }
        while (w < b->dirty_words && !b->dirty[w]) w++;
        if (w == b->dirty_words) {
            int r = b->pairs_len && *f.open ? locked(b, f) : 0;   /* a filled board needs no more */
            if (r < 0) return 0;
            if (!r) return 1;
            w = 0;
            continue;
        }
        int a = 64 * w + __builtin_ctzll(b->dirty[w]);
        b->dirty[w] &= b->dirty[w] - 1;
        if (!hidden(b, f, a)) return 0;
        w = 0;
    }
}

/* Frames for `levels` levels (0 when out of memory). */
static int grow(BitBoard *b, int levels)
{
    if (levels <= b->levels) return 1;
    uint64_t *frames = realloc(b->frames, (size_t)levels * b->frame_words * sizeof(uint64_t));
    if (frames) b->frames = frames;
    int *bp = realloc(b->branch_point, levels * sizeof(int));
    if (bp) b->branch_point = bp;
    uint64_t *br = realloc(b->branch_rest, levels * sizeof(uint64_t));
    if (br) b->branch_rest = br;
    if (!frames || !bp || !br) return 0;
    b->levels = levels;
    return 1;
}

/* Look for Ctrl-C with the GIL taken back: 0 when an exception is set. */
static int still_wanted(BitBoard *b)
{
    PyEval_RestoreThread(b->thread);
    int stop = PyErr_CheckSignals();
    b->thread = PyEval_SaveThread();
    return !stop;
}

/* The completions of the clues (points[e] holds labels[e]), counted up to cap; the first b->keep are left in
 * b->first.  -1 with an exception set (out of memory, or interrupted).  Called without the GIL. */
static long long solve_one(BitBoard *b, const int32_t *points, const int32_t *labels, Py_ssize_t n, long long cap)
{
    const int P = b->n_points, words = b->frame_words;
    long long count = 0;
    int d = 0;
    Frame f = frame_at(b, b->frames);
    memcpy(b->frames, b->pristine, words * sizeof(uint64_t));
    for (int a = 0; a < b->n_asterisms; a++) b->dirty[a / 64] |= 1ull << (a % 64);
    for (Py_ssize_t e = 0; e < n; e++)
        if (!place(b, f, points[e], labels[e])) { settle(b); return 0; }
    if (!propagate(b, f)) { settle(b); return 0; }
enter:
    f = frame_at(b, b->frames + (size_t)d * words);
    if (*f.open == 0) {
        if (count < b->keep) memcpy(b->first + count * P, f.val, P);
        if (++count >= cap) return count;
        goto back;
    }
    {
        int best = MAX_LABELS + 1, at = -1;
        for (int p = 0; p < P; p++) {
            if (f.val[p] >= 0) continue;
            int c = __builtin_popcountll(f.lab[p]);
            if (c < best) { best = c; at = p; if (c <= 2) break; }
        }
        b->branch_point[d] = at;
        b->branch_rest[d] = f.lab[at];
    }
next:
    if (!b->branch_rest[d]) goto back;
    {
        int v = __builtin_ctzll(b->branch_rest[d]);
        b->branch_rest[d] &= b->branch_rest[d] - 1;
        if ((++b->nodes & SIGNAL_EVERY) == 0 && !still_wanted(b)) return -1;
        if (d + 2 > b->levels && !grow(b, 2 * b->levels)) {
            PyEval_RestoreThread(b->thread);
            PyErr_NoMemory();
            b->thread = PyEval_SaveThread();
            return -1;
        }
        uint64_t *here = b->frames + (size_t)d * words;
        memcpy(here + words, here, words * sizeof(uint64_t));
        Frame g = frame_at(b, here + words);
        if (place(b, g, b->branch_point[d], v) && propagate(b, g)) {
            d++;
            goto enter;
        }
        settle(b);
        goto next;
    }
back:
    if (d == 0) return count;
    d--;
    goto next;
}

/* solve_one() with the GIL released (the caller holds it). */
static long long solve_released(BitBoard *b, const int32_t *points, const int32_t *labels, Py_ssize_t n,
                                long long cap)
{
    b->thread = PyEval_SaveThread();
    long long found = solve_one(b, points, labels, n, cap);
    PyEval_RestoreThread(b->thread);
    return found;
}

/* ---- the Python type ---------------------------------------------------------------------------------- */

static void bitboard_dealloc(BitBoard *b)
{
    free(b->ast_start); free(b->ast_pts); free(b->of_start); free(b->of_ast);
    free(b->peer_start); free(b->peers); free(b->frames); free(b->pristine);
    free(b->branch_point); free(b->branch_rest); free(b->queue); free(b->first);
    free(b->dirty); free(b->of_mask); free(b->pairs);
    Py_TYPE(b)->tp_free((PyObject *)b);
}

/* The pairs of asterisms meeting in two points or more, for locked(); `mark` is n_points zero bytes, left
 * so.  0 when out of memory. */
static int pairs_of(BitBoard *b, char *mark)
{
    size_t room = 64, len = 0;
    int *pairs = malloc(room * sizeof(int));
    for (int a = 0; pairs && a < b->n_asterisms; a++) {
        const int *pa = b->ast_pts + b->ast_start[a], k = b->ast_start[a + 1] - b->ast_start[a];
        for (int t = 0; t < k; t++) mark[pa[t]] = 1;
        for (int c = a + 1; pairs && c < b->n_asterisms; c++) {
            const int *pc = b->ast_pts + b->ast_start[c];
            int ni = 0;
            for (int t = 0; t < k; t++) ni += mark[pc[t]];
            if (ni < 2 || ni == k) continue;
            if (len + 5 + 2 * k > room) {
                room = 2 * room + 5 + 2 * k;
                int *grown = realloc(pairs, room * sizeof(int));
                if (!grown) { free(pairs); pairs = NULL; break; }
                pairs = grown;
            }
            int *e = pairs + len, n = 5;
            e[0] = a; e[1] = c; e[2] = ni; e[3] = k - ni; e[4] = k - ni;
            for (int t = 0; t < k; t++) if (mark[pc[t]]) e[n++] = pc[t];
            for (int t = 0; t < k; t++) mark[pc[t]] |= 2;
            for (int t = 0; t < k; t++) if (mark[pa[t]] == 1) e[n++] = pa[t];
            for (int t = 0; t < k; t++) if (!mark[pc[t]] || mark[pc[t]] == 2) e[n++] = pc[t];
            for (int t = 0; t < k; t++) mark[pc[t]] &= 1;
            len += n;
        }
        for (int t = 0; t < k; t++) mark[pa[t]] = 0;
    }
    if (!pairs) return 0;
    b->pairs = pairs;
    b->pairs_len = (int)len;
    return 1;
}

/* BitBoard(n_points, asterisms, needs): asterisms a list of lists of points, needs[v] how many times label v
 * is in every asterism (at most 64 labels; each asterism's size is their sum). */
static int bitboard_init(BitBoard *b, PyObject *args, PyObject *kw)
{
    int P;
    PyObject *asterisms, *needs;
    if (b->ast_start) { PyErr_SetString(PyExc_RuntimeError, "BitBoard is made once"); return -1; }
    if (!PyArg_ParseTuple(args, "iO!O!", &P, &PyList_Type, &asterisms, &PyList_Type, &needs)) return -1;
    Py_ssize_t A = PyList_GET_SIZE(asterisms), L = PyList_GET_SIZE(needs), k = 0, total = 0;
    if (P < 1 || L < 1 || L > MAX_LABELS) {
        PyErr_SetString(PyExc_ValueError, "a BitBoard needs points and 1 to 64 labels");
        return -1;
    }
    b->n_points = P; b->n_labels = (int)L; b->n_asterisms = (int)A; b->distinct = 1;
    b->full = L == 64 ? ~0ull : (1ull << L) - 1;
    for (Py_ssize_t v = 0; v < L; v++) {
        long need = PyLong_AsLong(PyList_GET_ITEM(needs, v));
        if (need == -1 && PyErr_Occurred()) return -1;
        if (need < 1 || need > P) { PyErr_SetString(PyExc_ValueError, "each need must be positive"); return -1; }
        b->need[v] = (int)need;
        b->distinct &= need == 1;
        k += need;
    }
    for (Py_ssize_t a = 0; a < A; a++) {
        PyObject *pts = PyList_GET_ITEM(asterisms, a);
        if (!PyList_Check(pts) || PyList_GET_SIZE(pts) != k) {
            PyErr_SetString(PyExc_ValueError, "every asterism is a list as long as the needs add up to");
            return -1;
        }
        total += k;
    }
    b->ast_start = malloc((A + 1) * sizeof(int));
    b->ast_pts = malloc((total + 1) * sizeof(int));
    b->of_start = calloc(P + 1, sizeof(int));
    b->of_ast = malloc((total + 1) * sizeof(int));
    b->queue = malloc((P + 1) * sizeof(int));
    b->first = malloc(P);
    b->keep = b->first_room = 1;
    b->frame_words = P + (int)A + 1 + (P + 7) / 8;
    b->dirty_words = (int)(A / 64 + 1);
    b->dirty = calloc(b->dirty_words, sizeof(uint64_t));
    b->of_mask = calloc((size_t)P * b->dirty_words, sizeof(uint64_t));
    b->pristine = calloc(b->frame_words, sizeof(uint64_t));
    if (!b->ast_start || !b->ast_pts || !b->of_start || !b->of_ast || !b->queue || !b->first || !b->pristine || !b->dirty || !b->of_mask || !grow(b, 16)) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t at = 0;
    for (Py_ssize_t a = 0; a < A; a++) {
        PyObject *pts = PyList_GET_ITEM(asterisms, a);
        b->ast_start[a] = (int)at;
        for (Py_ssize_t t = 0; t < k; t++) {
            long p = PyLong_AsLong(PyList_GET_ITEM(pts, t));
            if (p == -1 && PyErr_Occurred()) return -1;
            if (p < 0 || p >= P) { PyErr_Format(PyExc_ValueError, "point %ld is not on the board", p); return -1; }
            for (Py_ssize_t u = b->ast_start[a]; u < at; u++)
                if (b->ast_pts[u] == p) { PyErr_SetString(PyExc_ValueError, "an asterism repeats a point"); return -1; }
            b->ast_pts[at++] = (int)p;
            b->of_start[p + 1]++;
        }
    }
    b->ast_start[A] = (int)at;
    for (int p = 0; p < P; p++) b->of_start[p + 1] += b->of_start[p];
    int *fill = calloc(P, sizeof(int));
    if (!fill) { PyErr_NoMemory(); return -1; }
    for (int a = 0; a < A; a++)
        for (int u = b->ast_start[a]; u < b->ast_start[a + 1]; u++) {
            int p = b->ast_pts[u];
            b->of_ast[b->of_start[p] + fill[p]++] = a;
            b->of_mask[(size_t)p * b->dirty_words + a / 64] |= 1ull << (a % 64);
        }
    /* peers: the points sharing an asterism with p, each once (a mark per point, cleared after) */
    b->peer_start = calloc(P + 1, sizeof(int));
    char *seen = calloc(P, 1);
    Py_ssize_t most = 0;
    for (int p = 0; p < P; p++) most += (Py_ssize_t)(b->of_start[p + 1] - b->of_start[p]) * (k - 1);
    b->peers = malloc((most + 1) * sizeof(int));
    if (!b->peer_start || !seen || !b->peers) { free(fill); free(seen); PyErr_NoMemory(); return -1; }
    for (int p = 0, n = 0; p < P; p++) {
        seen[p] = 1;
        for (int e = b->of_start[p]; e < b->of_start[p + 1]; e++) {
            int a = b->of_ast[e];
            for (int u = b->ast_start[a]; u < b->ast_start[a + 1]; u++)
                if (!seen[b->ast_pts[u]]) { seen[b->ast_pts[u]] = 1; b->peers[n++] = b->ast_pts[u]; }
        }
        b->peer_start[p + 1] = n;
        seen[p] = 0;
        for (int e = b->peer_start[p]; e < n; e++) seen[b->peers[e]] = 0;
    }
    free(fill);
    if (b->distinct && !pairs_of(b, seen)) { free(seen); PyErr_NoMemory(); return -1; }
    free(seen);
    Frame f = frame_at(b, b->pristine);
    for (int p = 0; p < P; p++) f.lab[p] = b->full;
    memset(f.val, -1, P);
    *f.open = P;
    b->ready = 1;
    return 0;
}

/* Whether b was made by a BitBoard(...) that succeeded; if not, a RuntimeError is set (a bare
 * BitBoard.__new__ has no points, and dividing by its n_points would kill the process). */
static int made(const BitBoard *b)
{
    if (b->ready) return 1;
    PyErr_SetString(PyExc_RuntimeError, "this BitBoard was not made: call BitBoard(n_points, asterisms, needs)");
    return 0;
}

/* The completions kept from a search that found `found`, as bytes. */
static PyObject *labels_of(BitBoard *b, long long found)
{
    return PyBytes_FromStringAndSize((const char *)b->first, (found < b->keep ? found : b->keep) * b->n_points);
}

/* solve_clues(puzzles, labels, cap, keep=1): clue dicts {point: label} read and searched here (generation
 * asks one puzzle at a time, thousands of times).  labels maps each label to its index.  Per dict:
 * (completions up to cap, the first `keep` of them as bytes -- n_points label indices each -- or None), or
 * None when the dict does not read -- not a dict, a point that is not an int of the board, a label that is
 * not an int or str of the multiset: the caller checks that one and names what is wrong. */
static PyObject *bitboard_solve_clues(BitBoard *b, PyObject *args)
{
    if (!made(b)) return NULL;
    PyObject *puzzles, *index, *out = NULL;
    long long cap;
    Py_ssize_t keep = 1;
    if (!PyArg_ParseTuple(args, "O!O!L|n", &PyList_Type, &puzzles, &PyDict_Type, &index, &cap, &keep)) return NULL;
    if (cap < 1 || keep < 1 || keep > PY_SSIZE_T_MAX / b->n_points) {
        PyErr_SetString(PyExc_ValueError, "cap and keep must be at least 1");
        return NULL;
    }
    if (b->busy) { PyErr_SetString(PyExc_RuntimeError, "this BitBoard is searching in another thread"); return NULL; }
    const Py_ssize_t P = b->n_points, m = PyList_GET_SIZE(puzzles);
    if (keep > cap) keep = (Py_ssize_t)cap;
    if (keep > b->first_room) {
        int8_t *room = realloc(b->first, keep * P);
        if (!room) return PyErr_NoMemory();
        b->first = room;
        b->first_room = keep;
    }
    b->keep = keep;
    int32_t *points = malloc(P * sizeof(int32_t)), *labels = malloc(P * sizeof(int32_t));
    out = PyList_New(m);
    if (!points || !labels || !out) { Py_CLEAR(out); PyErr_NoMemory(); goto done; }
    b->busy = 1;
    for (Py_ssize_t j = 0; j < m; j++) {
        PyObject *clues = PyList_GET_ITEM(puzzles, j), *key, *value, *item;
        Py_ssize_t at = 0, n = 0;
        int readable = PyDict_Check(clues) && PyDict_GET_SIZE(clues) <= P;
        while (readable && PyDict_Next(clues, &at, &key, &value)) {
            long p = PyLong_CheckExact(key) ? PyLong_AsLong(key) : -1;
            PyObject *v = PyLong_CheckExact(value) || PyUnicode_CheckExact(value) ? PyDict_GetItemWithError(index, value) : NULL;
            if (PyErr_Occurred()) { Py_CLEAR(out); goto stop; }
            long label = v && PyLong_CheckExact(v) ? PyLong_AsLong(v) : -1;
            if (p < 0 || p >= P || label < 0 || label >= b->n_labels) { readable = 0; break; }
            points[n] = (int32_t)p;
            labels[n++] = (int32_t)label;
        }
        if (!readable) {
            Py_INCREF(Py_None);
            PyList_SET_ITEM(out, j, Py_None);
            continue;
        }
        long long found = solve_released(b, points, labels, n, cap);
        item = found < 0 ? NULL : found ? Py_BuildValue("(LN)", found, labels_of(b, found)) : Py_BuildValue("(LO)", found, Py_None);
        if (!item) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, j, item);
    }
stop:
    b->busy = 0;
    b->keep = 1;
done:
    free(points); free(labels);
    return out;
}

/* The grid-text tables of solve_text() and solve_block(), checked: symbols[c] (128 int32) is what ASCII
 * character c means (a label index, -1 empty, -2 not allowed) and spell[v] (bytes) the character of label v. */
static int text_tables(BitBoard *b, Py_buffer *bsym, Py_buffer *bspell, long long cap)
{
    const int32_t *symbols = bsym->buf;
    if (cap < 1) { PyErr_SetString(PyExc_ValueError, "cap must be at least 1"); return 0; }
    if (bsym->len != 128 * 4 || bspell->len != b->n_labels) {
        PyErr_SetString(PyExc_ValueError, "a grid text needs 128 symbols and one character per label");
        return 0;
    }
    for (int c = 0; c < 128; c++)
        if (symbols[c] < -2 || symbols[c] >= b->n_labels) {
            PyErr_SetString(PyExc_ValueError, "a symbol is not one of the labels");
            return 0;
        }
    if (b->busy) { PyErr_SetString(PyExc_RuntimeError, "this BitBoard is searching in another thread"); return 0; }
    return 1;
}

/* One grid line chars[0..len) read, ASCII whitespace skipped: its cells into text[], its clues into
 * points[]/labels[] (*n of them).  1 when read; 0 when it does not read (wrong length, a character not
 * allowed or not ASCII); -1 when it is no puzzle at all (blank, or a '#' comment). */
static int read_grid(const BitBoard *b, const char *chars, Py_ssize_t len, const int32_t *symbols, char *text,
                     int32_t *points, int32_t *labels, Py_ssize_t *n)
{
    Py_ssize_t pos = 0;
    *n = 0;
    for (Py_ssize_t k = 0; k < len; k++) {
        unsigned char c = (unsigned char)chars[k];
        if (c == ' ' || (c >= '\t' && c <= '\r')) continue;
        if (pos == 0 && c == '#') return -1;
        if (c >= 128 || pos == b->n_points || symbols[c] == -2) return 0;
        text[pos] = (char)c;
        if (symbols[c] >= 0) { points[*n] = (int32_t)pos; labels[(*n)++] = symbols[c]; }
        pos++;
    }
    return pos == 0 ? -1 : pos == b->n_points;
}

/* solve_text(lines, symbols, spell, cap): solve_clues() for grid strings read and written here, so no Python
 * object is made per cell (the tables as text_tables() says).  Per line: (completions up to cap, the line
 * with the first completion written in, or None), or None when the line does not read (wrong length, a
 * character not allowed or not ASCII, blank): the caller reads that one and names what is wrong. */
static PyObject *bitboard_solve_text(BitBoard *b, PyObject *args)
{
    if (!made(b)) return NULL;
    PyObject *lines, *out = NULL;
    Py_buffer bsym = {0}, bspell = {0};
    long long cap;
    int32_t *points = NULL, *labels = NULL;
    char *text = NULL;
    if (!PyArg_ParseTuple(args, "O!y*y*L", &PyList_Type, &lines, &bsym, &bspell, &cap)) return NULL;
    const int32_t *symbols = bsym.buf;
    const char *spell = bspell.buf;
    const Py_ssize_t P = b->n_points;
    if (!text_tables(b, &bsym, &bspell, cap)) goto done;
    points = malloc(P * sizeof(int32_t));
    labels = malloc(P * sizeof(int32_t));
    text = malloc(P + 1);
    Py_ssize_t m = PyList_GET_SIZE(lines);
    out = PyList_New(m);
    if (!points || !labels || !text || !out) { Py_CLEAR(out); PyErr_NoMemory(); goto done; }
    b->busy = 1;
    for (Py_ssize_t j = 0; j < m; j++) {
        PyObject *line = PyList_GET_ITEM(lines, j), *item;
        Py_ssize_t len = 0, n = 0;
        const char *chars = PyUnicode_Check(line) && PyUnicode_IS_ASCII(line) ? PyUnicode_AsUTF8AndSize(line, &len) : NULL;
        if (!chars && PyErr_Occurred()) { Py_CLEAR(out); break; }
        if (!chars || read_grid(b, chars, len, symbols, text, points, labels, &n) != 1) {
            Py_INCREF(Py_None);
            PyList_SET_ITEM(out, j, Py_None);
            continue;
        }
        long long found = solve_released(b, points, labels, n, cap);
        if (found < 0) { Py_CLEAR(out); break; }
        if (found) {
            for (Py_ssize_t p = 0; p < P; p++) text[p] = spell[b->first[p]];
            item = Py_BuildValue("(Ls#)", found, text, P);
        } else {
            item = Py_BuildValue("(LO)", found, Py_None);
        }
        if (!item) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, j, item);
    }
    b->busy = 0;
done:
    free(points); free(labels); free(text);
    PyBuffer_Release(&bsym); PyBuffer_Release(&bspell);
    return out;
}

/* Room for `more` bytes at the end of a growing output buffer; 0 when out of memory. */
static int room(char **buf, Py_ssize_t *size, Py_ssize_t used, Py_ssize_t more)
{
    if (used + more <= *size) return 1;
    Py_ssize_t want = 2 * (used + more);
    char *bigger = realloc(*buf, want);
    if (!bigger) return 0;
    *buf = bigger;
    *size = want;
    return 1;
}

/* solve_block(data, symbols, spell, cap, style): a block of a collection's lines ('\n'-separated bytes)
 * answered as the output text of `solve --batch` (style 0: the first solution, '-' when none; style 1: '?'
 * when several) or of `check --batch` (style 2: "N unique|none|several"), one line per puzzle line; blank
 * and '#' lines are skipped.  Returns (output bytes, puzzle lines answered, odd): odd lists (offset in the
 * output, line index in the block) of each line this could not read, for the caller to answer or report
 * there -- so a collection's lines cost Python nothing at all. */
static PyObject *bitboard_solve_block(BitBoard *b, PyObject *args)
{
    if (!made(b)) return NULL;
    Py_buffer data = {0}, bsym = {0}, bspell = {0};
    long long cap;
    int style;
    PyObject *odd = NULL, *result = NULL;
    int32_t *points = NULL, *labels = NULL;
    char *text = NULL, *buf = NULL;
    Py_ssize_t size = 0, used = 0, answered = 0;
    if (!PyArg_ParseTuple(args, "y*y*y*Li", &data, &bsym, &bspell, &cap, &style)) return NULL;
    const int32_t *symbols = bsym.buf;
    const char *spell = bspell.buf, *chars = data.buf;
    const Py_ssize_t P = b->n_points;
    if (style < 0 || style > 2) { PyErr_SetString(PyExc_ValueError, "style is 0, 1 or 2"); goto done; }
    if (!text_tables(b, &bsym, &bspell, cap)) goto done;
    points = malloc(P * sizeof(int32_t));
    labels = malloc(P * sizeof(int32_t));
    text = malloc(P + 1);
    odd = PyList_New(0);
    if (!points || !labels || !text || !odd || !room(&buf, &size, 0, 4096)) { PyErr_NoMemory(); goto done; }
    b->busy = 1;
    Py_ssize_t start = 0, index = 0;
    while (start < data.len) {
        const char *nl = memchr(chars + start, '\n', data.len - start);
        Py_ssize_t end = nl ? nl - chars : data.len, n = 0;
        int read = read_grid(b, chars + start, end - start, symbols, text, points, labels, &n);
        if (read == 0) {
            PyObject *at = Py_BuildValue("(nn)", used, index);
            if (!at || PyList_Append(odd, at) < 0) { Py_XDECREF(at); b->busy = 0; goto done; }
            Py_DECREF(at);
        } else if (read == 1) {
            long long found = solve_released(b, points, labels, n, cap);
            if (found < 0) { b->busy = 0; goto done; }
            if (!room(&buf, &size, used, P + 64)) { b->busy = 0; PyErr_NoMemory(); goto done; }
            if (style == 2)
                used += sprintf(buf + used, "%lld %s\n", found, found == 1 ? "unique" : found ? "several" : "none");
            else if (found == 0 || (found > 1 && style == 1))
                used += sprintf(buf + used, "%s\n", found ? "?" : "-");
            else {
                for (Py_ssize_t p = 0; p < P; p++) buf[used + p] = spell[b->first[p]];
                buf[used + P] = '\n';
                used += P + 1;
            }
            answered++;
        }
        start = end + 1;
        index++;
    }
    b->busy = 0;
    result = Py_BuildValue("(y#nO)", buf, used, answered, odd);
done:
    Py_XDECREF(odd);
    free(points); free(labels); free(text); free(buf);
    PyBuffer_Release(&data); PyBuffer_Release(&bsym); PyBuffer_Release(&bspell);
    return result;
}

/* cheap_rules(domains, values): attrition's cheap rules to a fixpoint, by the sweeps of
 * `dlx_latin.puzzles.attrition.propagate` -- saturation and singles, then forced placements (a sweep finds
 * those of every asterism on one state, then places them all) -- on a board whose point p may take the labels of the bitmask
 * domains[p] and holds label index values[p] (-1: empty).  Returns (domains, values, forced steps, whether
 * anything changed), or None at a contradiction: the caller then asks the rules themselves, which name it. */
static PyObject *bitboard_cheap_rules(BitBoard *b, PyObject *args)
{
    if (!made(b)) return NULL;
    PyObject *domains, *values, *result = NULL, *dom = NULL, *val = NULL;
    if (!PyArg_ParseTuple(args, "O!O!", &PyList_Type, &domains, &PyList_Type, &values)) return NULL;
    const int P = b->n_points, A = b->n_asterisms, L = b->n_labels;
    if (PyList_GET_SIZE(domains) != P || PyList_GET_SIZE(values) != P) {
        PyErr_SetString(PyExc_ValueError, "cheap_rules needs a domain and a value per point");
        return NULL;
    }
    if (b->busy) { PyErr_SetString(PyExc_RuntimeError, "this BitBoard is searching in another thread"); return NULL; }
    uint64_t *given = malloc(P * sizeof(uint64_t));
    int8_t *held = malloc(P);
    int *pairs = malloc(2 * (size_t)(b->ast_start[A] + 1) * sizeof(int));  /* a point once per asterism */
    if (!given || !held || !pairs) { PyErr_NoMemory(); goto done; }
    for (int p = 0; p < P; p++) {
        given[p] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(domains, p));
        long v = PyLong_AsLong(PyList_GET_ITEM(values, p));
        if (PyErr_Occurred()) goto done;
        if (v < -1 || v >= L || (given[p] & ~b->full)) {
            PyErr_SetString(PyExc_ValueError, "a domain or value is not of the board's labels");
            goto done;
        }
        held[p] = (int8_t)v;
    }
    Frame f = frame_at(b, b->frames);
    memcpy(b->frames, b->pristine, b->frame_words * sizeof(uint64_t));
    settle(b);
    long forced = 0;
    int alive = 1;
    for (int p = 0; p < P && alive; p++)
        if (held[p] >= 0) alive = place(b, f, p, held[p]);
    for (int p = 0; p < P && alive; p++) {                /* what the other rules removed already */
        uint64_t old = f.lab[p], left = old & given[p];
        if (f.val[p] >= 0 || left == old) continue;
        alive = left != 0;
        f.lab[p] = left;
        if (!(left & (left - 1))) b->queue[b->n_queue++] = p;
    }
    while (alive) {
        while (alive && b->n_queue) {                        /* singles (saturation is place()'s) */
            int q = b->queue[--b->n_queue];
            if (f.val[q] < 0) alive = place(b, f, q, __builtin_ctzll(f.lab[q]));
        }
        if (!alive || *f.open == 0) break;
        int n = 0;                                           /* a sweep of forced placements */
        for (int a = 0; a < A && alive; a++) {
            const int *pts = b->ast_pts + b->ast_start[a], k = b->ast_start[a + 1] - b->ast_start[a];
            int have[MAX_LABELS] = {0}, can[MAX_LABELS] = {0};
            for (int t = 0; t < k; t++) {
                int q = pts[t];
                if (f.val[q] >= 0) have[f.val[q]]++;
                else
                    for (uint64_t m = f.lab[q]; m; m &= m - 1) can[__builtin_ctzll(m)]++;
            }
            for (int v = 0; v < L && alive; v++) {
                int need = b->need[v] - have[v];
                if (need <= 0 || can[v] > need) continue;
                alive = can[v] == need;
                forced++;
                for (int t = 0; t < k && alive; t++)
                    if (f.val[pts[t]] < 0 && (f.lab[pts[t]] >> v & 1)) { pairs[n++] = pts[t]; pairs[n++] = v; }
            }
        }
        if (!n) break;
        for (int e = 0; e < n && alive; e += 2) alive = place(b, f, pairs[e], pairs[e + 1]);
    }
    settle(b);
    if (!alive) { result = Py_NewRef(Py_None); goto done; }
    int changed = 0;
    dom = PyList_New(P);
    val = PyList_New(P);
    if (!dom || !val) goto done;
    for (int p = 0; p < P; p++) {
        changed |= f.lab[p] != given[p] || f.val[p] != held[p];
        PyObject *d = PyLong_FromUnsignedLongLong(f.lab[p]), *v = PyLong_FromLong(f.val[p]);
        if (!d || !v) { Py_XDECREF(d); Py_XDECREF(v); goto done; }
        PyList_SET_ITEM(dom, p, d);
        PyList_SET_ITEM(val, p, v);
    }
    result = Py_BuildValue("(OOlO)", dom, val, forced, changed ? Py_True : Py_False);
done:
    Py_XDECREF(dom); Py_XDECREF(val);
    free(given); free(held); free(pairs);
    return result;
}

static PyObject *bitboard_nodes(BitBoard *b, void *unused)
{
    return PyLong_FromUnsignedLongLong(b->nodes);
}

static PyMethodDef bitboard_methods[] = {
    {"solve_clues", (PyCFunction)bitboard_solve_clues, METH_VARARGS,
     "solve_clues(puzzles, labels, cap, keep=1): per clue dict, (completions up to cap, the first keep of them)"},
    {"solve_text", (PyCFunction)bitboard_solve_text, METH_VARARGS,
     "solve_text(lines, symbols, spell, cap): solve_clues() for grid strings; None for a line that does not read"},
    {"cheap_rules", (PyCFunction)bitboard_cheap_rules, METH_VARARGS,
     "cheap_rules(domains, values): attrition's saturation, singles and forced placements to a fixpoint"},
    {"solve_block", (PyCFunction)bitboard_solve_block, METH_VARARGS,
     "solve_block(data, symbols, spell, cap, style): a block of grid lines answered as output text"},
    {NULL},
};

static PyGetSetDef bitboard_getset[] = {
    {"nodes", (getter)bitboard_nodes, NULL, "branchings tried so far, over every puzzle", NULL},
    {NULL},
};

static PyTypeObject BitBoardType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "dlx_latin.latin._bitboard.BitBoard",
    .tp_doc = "A partial Latin board's puzzles answered on label bitsets: BitBoard(n_points, asterisms, needs).",
    .tp_basicsize = sizeof(BitBoard),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)bitboard_init,
    .tp_dealloc = (destructor)bitboard_dealloc,
    .tp_methods = bitboard_methods,
    .tp_getset = bitboard_getset,
};

static struct PyModuleDef bitboard_module = {
    PyModuleDef_HEAD_INIT, "_bitboard",
    "Puzzles of one partial Latin board answered on label bitsets, with attrition by singles.", -1, NULL,
};

PyMODINIT_FUNC PyInit__bitboard(void)
{
    if (PyType_Ready(&BitBoardType) < 0) return NULL;
    PyObject *m = PyModule_Create(&bitboard_module);
    if (!m) return NULL;
    Py_INCREF(&BitBoardType);
    if (PyModule_AddObject(m, "BitBoard", (PyObject *)&BitBoardType) < 0) {
        Py_DECREF(&BitBoardType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAX_LABELS", MAX_LABELS) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
