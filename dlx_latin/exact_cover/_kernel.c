/*
 * _kernel.c -- exact cover with colors: Knuth's Algorithm C (TAOCP 7.2.2.1), which is Algorithm X
 * when no option carries a color.  The kernel knows items, options and colors only; boards live in Python.
 *
 * PROBLEM.  Items 1..N; items 1..N1 are primary (covered exactly once), N1+1..N are secondary (covered at
 * most once, or several times by options that all give them the same color).  An option is a list of
 * distinct items; an entry on a secondary item may carry a color > 0.
 *
 * DATA (Knuth's node table, as in DLX2; each node one struct of TOP, ULINK, DLINK, COLOR).
 *   item list:  LLINK/RLINK, a doubly linked circular list of the active primary items with head 0, and one of
 *               the secondary items with head N+1.
 *   nodes 1..N: item headers; TOP(i) is LEN(i), the number of active options holding item i, and
 *               ULINK/DLINK run through the nodes of those options (a circular list through the header).
 *   node N+1..: options one after another, each preceded by a spacer.  For an option node TOP is its item,
 *               COLOR its color (0 none; -1 while another option of the same color purifies its item).  For a spacer TOP
 *               is -k where k options precede it, ULINK is the first node of the option before it and DLINK
 *               the last node of the option after it.
 *   Invariant: a node is in its item's vertical list exactly when its option is still compatible with the
 *   choices made so far (or is the option being tried on that item).
 *   Plain problems where a choice removes many options (tilings, packings, queens) are searched on bitsets
 *   instead of this table: see "Algorithm X on bitsets" below.
 *
 * SEARCH.  The steps are Knuth's C1..C8, written as one loop with labels.  Branching is on the active primary
 * item with the fewest options (MRV), the first such item on ties; the scan stops at the first item with at
 * most one option (a forced move needs no better rival: on reduced Latin 7 this cuts a quarter of the time).
 * When every item is primary and uncolored, a node where every active item has exactly one option left has
 * exactly one solution (two of those options cannot share an item, which would then have two): it is
 * visited at once, its options read off the items, without descending the chain of forced moves (the loop
 * keeps the sum of the active items' lengths, which then equals their number).  The loop is resumable: it
 * returns after a budget of nodes (so the caller can look for Ctrl-C and report progress) or when a batch of
 * solutions is full, and continues where it stopped on the next call.  The GIL is released while it runs.
 *
 * MULTIPLICITIES (Algorithm M).  A primary item i may carry bounds [u, v]: it must lie in at least u and at
 * most v of the chosen options.  BOUND(i) is how many more options may still take it and SLACK(i) = v - u.
 * The search branches on the active item with the least branching degree LEN + 1 - max(BOUND - SLACK, 0)
 * ("MRV with slack"; ties go to the smaller slack, then the longer list).  When BOUND(i) drops to 0 and
 * SLACK(i) is 0 the item is covered as in Algorithm C; otherwise the options of i are tried from the top of
 * its list, each "tweaked" out (its option removed from every list) before the next is tried, so that every
 * combination of options is produced exactly once; when the list runs out and i needs no more options, the
 * "null move" makes i inactive without choosing an option.  Problems whose bounds are all [1, 1] run the
 * plain Algorithm C loop, so they pay nothing for multiplicities.
 *
 * SUBPROBLEMS.  The search is deterministic, so a node of its tree is named by its path: the index of the
 * branch taken at each level.  Given a path, the loop replays it (skipping, and in Algorithm M tweaking, the
 * branches before the one named) and explores only the subtree below; in probe mode it stops there and
 * reports the node's branching degree (-1 for a solution, 0 for a dead end).  Paths split a problem into
 * independent parts whose counts add up to the whole.  Per level the loop also keeps the branch being tried
 * and the branching degree, from which fraction_done estimates the progress (Knuth's estimate).
 *
 * MEMO.  When counting every solution of a problem without colors, the number of solutions below a node
 * depends only on its remaining state.  In Algorithm C that is the set of covered items (the remaining
 * options are exactly those with no covered item), which the loop keeps as a bitset; in Algorithm M it is
 * that set, the bounds left and the options tweaked out by branchings under way (m_key).  A bounded hash
 * table (two-way, full keys compared, never a bare hash) remembers the count of each subtree the loop
 * finished, so a state reached again is counted at once.  Only nodes that branch look up and store: a
 * forced move's count is its child's, and most nodes of a Latin square's tree are forced moves, so keying
 * them too spends a cache miss per node and fills the table with chains of equal counts (reduced Latin 7:
 * 4.2 s -> 3.0 s with 15% more nodes).  The table is made once the search has visited
 * memo_start nodes (so small problems never pay for it, nor do the levels already on the stack then),
 * starts at MEMO_FIRST slots and doubles whenever half full, up to the size asked for, so memory does not
 * grow with the number of solutions.  A lookup is a cache miss, so a level whose first 4096 lookups hit
 * less than one time in 16 stops using the memo (queens rarely meet a state twice; Latin squares do, deep
 * down).  Searches of the subproblems of one problem may share a table while they run in threads
 * (share_memo: the table is made at full size and never regrown; a sequence lock per slot keeps every
 * count read exact).
 *
 * COUNTS are kept in an unsigned 128-bit integer; reaching 2^128 - 1 raises OverflowError rather than wrap.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "../u128.h"

enum { AT_C2, AT_C8, AT_END };                       /* where a paused search resumes */
enum { RAN_BUDGET, RAN_BATCH, RAN_LIMIT, RAN_DONE, RAN_OVERFLOW, RAN_PROBE };

/* A node of the table: the four fields a step reads together share one 16-byte slot (one cache line
 * holds four nodes), where four separate arrays would cost four cache lines per node. */
typedef struct {
    int top, ulink, dlink, color;
} node;

typedef struct {
    PyObject_HEAD
    int n_items, n_primary, n_options, n_nodes;
    int *llink, *rlink;                  /* item list, size n_items + 2 */
    node *nd;                            /* the node table, size n_nodes */
    int *x;                              /* x[l]: node tried at level l (an item header: the null move) */
    int *scan;                           /* the primary items in the list's order: MRV reads their LENs here */
    int *hint, n_hints;                  /* items whose LEN fell to 1 or 0: where MRV looks first (MARKED) */
    int *bound, *slack, *first_tweak;    /* Algorithm M only: per item, and per level */
    int multiplicities;                  /* 1: some bound is not [1, 1], so run Algorithm M */
    int *dull;                           /* sharp preference: per item, SHARP_PENALTY for a primary item that is
                                          * not sharp (NULL: no preference) */
    int colored;                         /* 1: some option gives a color */
    int *path, path_len;                 /* a subproblem: at level l < path_len take only branch path[l] */
    int probe, probe_result;             /* probe: stop at level path_len and report its branching degree */
    int *tried, *degree;                 /* per level: branches tried so far, and branching degree */
    int *left_len, *left_items;          /* per level: lengths summed, and active primary items, once i is covered */
    uint64_t *covered;                   /* bitset of covered items (kept by COVER and UNCOVER) */
    int *mult, n_mult;                   /* Algorithm M: the primary items whose bounds are not [1, 1] */
    int item_words;                      /* words of an item bitset */
    int key_words, memo_from;            /* words per key; first level where the memo is used */
    uint64_t memo_wanted;                /* slots asked for (a power of 2; 0: no memo) */
    uint64_t memo_mask;                  /* slots - 1 once the table exists (0 before) */
    int depth;                           /* most levels the search can reach */
    char *level_saved;                   /* per level: 1 when its key was saved at entry */
    uint64_t *memo;                      /* the table: slot_words per slot (see memo_allocate) */
    int slot_words;                      /* words per slot: a power of 2, so a slot stays in one cache line */
    PyObject *memo_owner;                /* the search whose table this one shares (NULL: its own) */
    uint64_t *level_key;                 /* per level: the key at entry, key_words each */
    u128 *count_before;                  /* per level: the count at entry */
    uint32_t *level_lookups, *level_hits;  /* per level, to switch the memo off where it does not pay */
    char *level_memo;                    /* per level: 1 while the memo is used there */
    uint64_t memo_hits, memo_start;      /* nodes visited before the table is made */
    uint64_t memo_filled;                /* slots filled since the table was made (it grows at half) */
    int memo_shared;                     /* 1: other searches use this table, so it keeps its size */
    int level, best_item, resume;
    u128 count, limit;                   /* limit 0 means none */
    uint64_t nodes, updates;
    int *batch;                          /* solutions of the current batch, option indices, -1 ends each */
    Py_ssize_t batch_len, batch_cap;
    int batch_solutions;
    int init_called, ready, busy;        /* __init__ ran (once only); it succeeded; a run is under way */
    int stop_asked;                      /* stop() was called: runs return at their next slice, unfinished */
    int bits, bw;                        /* bits: count on bitsets (run_b), bw words per option set */
    uint64_t *b_optsof;                  /* per item 1..N: the options holding it (bw words) */
    uint64_t *b_live, *b_rest;           /* per level: live options, branches left in a word */
    uint64_t *b_cov;                     /* a memo key: the covered items (item_words) */
    int *b_unc, *b_tot;                  /* per level: uncovered primary items, their LENs summed */
    int *b_item, *b_word, *b_start, *b_items;  /* per level: item, word of its branches; the options' items */
    int *b_pstart, *b_pitems;            /* the options' primary items */
    int pw;                              /* words of a primary item set */
    uint64_t *b_pun;                     /* per level: the uncovered primary items (pw words) */
    int *b_nz, *b_nnz;                   /* per level: the nonzero words of live, and how many */
    uint64_t *b_conf;                    /* per option: the options sharing an item with it (NULL: too big) */
    uint64_t *b_pmask, *b_imask;         /* per option: its primary items (pw words), its items (item_words);
                                          * NULL when too big */
    uint64_t *b_wide, *b_wdull;          /* for mrv512 (NULL: not used): OPTSOF of eight items per vector, and
                                          * their sharp penalties */
    int b_blocks;                        /* vectors of eight primary items (item 0 a blank) */
    node *pristine;                      /* batch(): the node table and item list before any search */
    int *pristine_llink, *pristine_rlink, *option_first;  /* ... and each option's first node */
} Search;

/* ---- the elementary operations of Algorithm C ------------------------------------------------------ */

/* COLORED is a compile-time 0 in the loop specialized for problems without colors, KEYED a compile-time 0
 * in the loops that keep no memo (so they do not keep the covered set either). */
#define COLORED 1
#define KEYED 1
#define MARKED 1
/* Where MARKED (problems without colors or bounds), a covered item's LEN also holds COVERED_MARK, so MRV can
 * read the LENs of all primary items in one pass (`scan`) with no chase along the item list: a covered item
 * is never chosen.  Its LEN does not change while it is covered (every option through it is hidden). */
#define COVERED_MARK (1 << 29)
/* MRV's hints: an item whose LEN falls to 1 or 0 is noted, and MRV takes a noted primary item still that
 * short before scanning them all (forced moves, most of a puzzle's search, then cost no scan).  A hint is
 * only a hint: the choice is checked, and the scan still finds what the hints miss. */
#define HINTS 64
/* Knuth's sharp preference: when some primary items are marked sharp, an item not sharp is chosen only when
 * it is forced (LEN <= 1) or no sharp item is left; its LEN counts SHARP_PENALTY more in MRV (less than the
 * COVERED_MARK, so a covered item still never wins). */
#define SHARP_PENALTY (1 << 28)
#define HIDE(p) do {                                                                                \
    int q_ = (p) + 1;                                                                              \
    while (q_ != (p)) {                                                                            \
        int x_ = nd[q_].top, u_ = nd[q_].ulink, d_ = nd[q_].dlink;                                          \
        if (x_ <= 0) q_ = u_;                                                                      \
        else { if (!COLORED || nd[q_].color >= 0) { nd[u_].dlink = d_; nd[d_].ulink = u_; updates++;     \
                   if (--nd[x_].top <= 1 && MARKED && n_hints < HINTS) hint[n_hints++] = x_; } q_++; }    \
    }                                                                                              \
} while (0)

#define UNHIDE(p) do {                                                                              \
    int q_ = (p) - 1;                                                                              \
    while (q_ != (p)) {                                                                            \
        int x_ = nd[q_].top, u_ = nd[q_].ulink, d_ = nd[q_].dlink;                                          \
        if (x_ <= 0) q_ = d_;                                                                      \
        else { if (!COLORED || nd[q_].color >= 0) { nd[u_].dlink = q_; nd[d_].ulink = q_; nd[x_].top++; } q_--; }          \
    }                                                                                              \
} while (0)

#define COVER(i) do {                                                                               \
    int i_ = (i), l_ = llink[i_], r_ = rlink[i_];                                                  \
    for (int p_ = nd[i_].dlink; p_ != i_; p_ = nd[p_].dlink) HIDE(p_);                                   \
    rlink[l_] = r_; llink[r_] = l_;                                                                \
    if (MARKED) nd[i_].top += COVERED_MARK;                                                        \
    if (KEYED) covered[i_ >> 6] ^= 1ull << (i_ & 63);                                              \
} while (0)

#define UNCOVER(i) do {                                                                             \
    int i_ = (i), l_ = llink[i_], r_ = rlink[i_];                                                  \
    if (MARKED) nd[i_].top -= COVERED_MARK;                                                        \
    if (KEYED) covered[i_ >> 6] ^= 1ull << (i_ & 63);                                              \
    rlink[l_] = i_; llink[r_] = i_;                                                                \
    for (int p_ = nd[i_].ulink; p_ != i_; p_ = nd[p_].ulink) UNHIDE(p_);                                 \
} while (0)

#define PURIFY(p) do {                                                                              \
    int c_ = nd[p].color, i_ = nd[p].top;                                                                \
    for (int r_ = nd[i_].dlink; r_ != i_; r_ = nd[r_].dlink) {                                           \
        if (nd[r_].color != c_) HIDE(r_); else if (r_ != (p)) nd[r_].color = -1;                        \
    }                                                                                              \
} while (0)

#define UNPURIFY(p, c) do {                                                                         \
    int c_ = (c), i_ = nd[p].top;                                                                     \
    for (int r_ = nd[i_].ulink; r_ != i_; r_ = nd[r_].ulink) {                                           \
        if (nd[r_].color < 0) nd[r_].color = c_; else if (r_ != (p)) UNHIDE(r_);                        \
    }                                                                                              \
} while (0)

/* splitmix64: a small, well-mixed generator for the seeded branching order. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Fisher-Yates with splitmix64 (the modulo's bias is below 2^-32 for any array that fits in memory). */
static void shuffle(int *a, int n, uint64_t *state)
{
    for (int k = n - 1; k > 0; k--) {
        int j = (int)(next_random(state) % (uint64_t)(k + 1)), t = a[k];
        a[k] = a[j]; a[j] = t;
    }
}

/* The option number of an option node: walk to the spacer that ends its option. */
static int option_of(const node *nd, int p)
{
    while (nd[p].top > 0) p++;
    return -nd[p].top - 1;
}

static int record_solution(Search *s, int level)
{
    if (s->batch_len + level + 1 > s->batch_cap) {
        Py_ssize_t cap = 2 * s->batch_cap + level + 1;
        int *grown = realloc(s->batch, cap * sizeof(int));
        if (!grown) return -1;
        s->batch = grown;
        s->batch_cap = cap;
    }
    for (int k = 0; k < level; k++)
        if (s->x[k] > s->n_items) s->batch[s->batch_len++] = option_of(s->nd, s->x[k]);
    s->batch[s->batch_len++] = -1;
    s->batch_solutions++;
    return 0;
}

/* Whether runs of this search use the bitset loop (batches of puzzles always dance: they restore the table). */
#define ON_BITS(s) ((s)->bits && !(s)->pristine)

/* A solution of the bitset loop: x_0..x_{l-1} are option numbers already. */
static int record_options(Search *s, int level)
{
    if (s->batch_len + level + 1 > s->batch_cap) {
        Py_ssize_t cap = 2 * s->batch_cap + level + 1;
        int *grown = realloc(s->batch, cap * sizeof(int));
        if (!grown) return -1;
        s->batch = grown;
        s->batch_cap = cap;
    }
    for (int k = 0; k < level; k++) s->batch[s->batch_len++] = s->x[k];
    s->batch[s->batch_len++] = -1;
    s->batch_solutions++;
    return 0;
}

#define GO_ON 100

/* Visit the solution x_0..x_{l-1}: count it (and record it when batching); GO_ON unless the run must stop. */
static inline int visit(Search *s, int l, int max_batch)
{
    if (s->probe) { s->probe_result = -1; s->resume = AT_END; return RAN_PROBE; }
    if (s->count == U128_MAX) { s->resume = AT_END; return RAN_OVERFLOW; }
    s->count++;
    if (max_batch && (ON_BITS(s) ? record_options(s, l) : record_solution(s, l)) < 0) { s->resume = AT_END; return -1; }
    if (s->limit && s->count >= s->limit) { s->resume = AT_END; return RAN_LIMIT; }
    if (max_batch && s->batch_solutions >= max_batch) { s->resume = AT_C8; return RAN_BATCH; }
    return GO_ON;
}

/* ---- the memo ------------------------------------------------------------------------------------- */

#define MEMO_TRIAL 4096u
#define MEMO_START (1u << 16)
#define MEMO_FIRST (1u << 12)           /* slots of a new table that is not shared */
#define MEMO_MAX_SLOTS (1ull << 32)     /* the most slots a search may ask for (exported as MAX_MEMO_SLOTS) */
#define MEMO_MAX_KEY_WORDS 1024         /* keys of problems with more items are not memoized */
#define MEMO_MAX_LEVEL_WORDS (1ll << 24)   /* nor when saving a key per level would take over 128 MiB */

static size_t memo_bytes(const Search *s, uint64_t slots)
{
    return (size_t)slots * s->slot_words * sizeof(uint64_t);
}

/* Make a table of `slots` entries (on the search's thread, without the GIL); on failure the search goes on
 * with the table it had, or without one.  A slot is [sequence lock, count + 1 (0: empty), key words...],
 * slot_words long, aligned to it: a lookup touches one cache line.  The table is mapped on its own, aligned
 * to 2 MiB and marked for huge pages where the system has them, since lookups land anywhere in it (with
 * 4 KiB pages nearly every lookup in a large table would also miss the TLB). */
#define HUGE_PAGE ((size_t)2 << 20)
static int memo_allocate(Search *s, uint64_t slots)
{
    size_t bytes = memo_bytes(s, slots), extra = bytes >= HUGE_PAGE ? HUGE_PAGE : 0;
    char *map = mmap(NULL, bytes + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        if (!s->memo_mask) s->memo_wanted = 0;
        return -1;
    }
    char *table = map;
    if (extra) {                                         /* keep the 2 MiB-aligned part of the mapping */
        table = (char *)(((uintptr_t)map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
        if (table > map) munmap(map, table - map);
        if (map + extra > table) munmap(table + bytes, map + extra - table);
#ifdef MADV_HUGEPAGE
        madvise(table, bytes, MADV_HUGEPAGE);
#endif
    }
    s->memo = (uint64_t *)table;
    s->memo_mask = slots - 1;
    s->memo_filled = 0;
    return 0;
}

/* Unmap the search's own table, if it has one. */
static void memo_free(Search *s)
{
    if (s->memo) munmap(s->memo, memo_bytes(s, s->memo_mask + 1));
    s->memo = NULL;
}

/* The first table of a search: small, unless other searches share it. */
static void memo_start_table(Search *s)
{
    memo_allocate(s, s->memo_shared || s->memo_wanted < MEMO_FIRST ? s->memo_wanted : MEMO_FIRST);
}

static inline uint64_t memo_hash(const uint64_t *key, int words);
static inline void memo_store(Search *s, const uint64_t *key, u128 count);

/* Double a table that is half full (never one shared with other searches, which start at full size): a
 * small problem never pays for touching a large table. */
static void memo_grow(Search *s)
{
    uint64_t old_slots = s->memo_mask + 1, *old = s->memo;
    if (memo_allocate(s, 2 * old_slots) < 0) { s->memo_wanted = old_slots; return; }
    for (uint64_t k = 0; k < old_slots; k++) {
        const uint64_t *slot = old + k * s->slot_words;
        if (slot[1]) memo_store(s, slot + 2, (u128)slot[1] - 1);
    }
    munmap(old, memo_bytes(s, old_slots));
}

static inline uint64_t memo_hash(const uint64_t *key, int words)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int w = 0; w < words; w++) {
        h ^= key[w] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
    }
    return h;
}

/*
 * Searches running in threads may share one table, so each slot has a sequence lock: a writer makes the
 * slot's number odd, fills the slot and makes it even again; a reader trusts what it read only if the number
 * was even and unchanged across the read.  A busy slot is a miss (or not stored), never a wrong count.
 */

/* The remembered count + 1 of `key`, or 0. */
static inline uint64_t memo_get(const Search *s, const uint64_t *key)
{
    uint64_t at = memo_hash(key, s->key_words) & s->memo_mask;
    for (int way = 0; way < 2; way++, at ^= 1) {
        uint64_t *slot = s->memo + at * s->slot_words;
        uint64_t before = __atomic_load_n(&slot[0], __ATOMIC_ACQUIRE);
        if (before & 1) continue;
        uint64_t value = __atomic_load_n(&slot[1], __ATOMIC_RELAXED);
        int same = value != 0;
        for (int w = 0; same && w < s->key_words; w++) same = __atomic_load_n(&slot[2 + w], __ATOMIC_RELAXED) == key[w];
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (same && __atomic_load_n(&slot[0], __ATOMIC_RELAXED) == before) return value;
    }
    return 0;
}

/* Remember a finished subtree's count, evicting the smaller of the two entries of its bucket if need be. */
static inline void memo_store(Search *s, const uint64_t *key, u128 count)
{
    if (count >= (u128)UINT64_MAX) return;               /* too big to store: it will be counted again */
    uint64_t at = memo_hash(key, s->key_words) & s->memo_mask;
    uint64_t *slot = s->memo + at * s->slot_words, *other = s->memo + (at ^ 1) * s->slot_words;
    uint64_t here = __atomic_load_n(&slot[1], __ATOMIC_RELAXED);
    uint64_t there = __atomic_load_n(&other[1], __ATOMIC_RELAXED);
    if (here && (!there || there < here)) { slot = other; here = there; }   /* here: the value replaced */
    uint64_t seq = __atomic_load_n(&slot[0], __ATOMIC_RELAXED);
    if ((seq & 1) || !__atomic_compare_exchange_n(&slot[0], &seq, seq + 1, 0, __ATOMIC_ACQUIRE,
                                                  __ATOMIC_RELAXED))
        return;                                          /* another thread is writing this slot */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    for (int w = 0; w < s->key_words; w++) __atomic_store_n(&slot[2 + w], key[w], __ATOMIC_RELAXED);
    __atomic_store_n(&slot[1], (uint64_t)count + 1, __ATOMIC_RELAXED);
    __atomic_store_n(&slot[0], seq + 2, __ATOMIC_RELEASE);
    if (!here && ++s->memo_filled > (s->memo_mask + 1) / 2 && s->memo_mask + 1 < s->memo_wanted && !s->memo_shared)
        memo_grow(s);
}

/* Look a state up at level l: 1 when found (its count is added), 0 when not, -1 when the count would
 * overflow.  A level whose first MEMO_TRIAL lookups hit less than one time in 16 stops looking. */
static inline int memo_lookup(Search *s, int l, const uint64_t *key)
{
    uint64_t found = memo_get(s, key);
    if (++s->level_lookups[l] == MEMO_TRIAL && s->level_hits[l] < MEMO_TRIAL / 16) s->level_memo[l] = 0;
    if (!found) return 0;
    s->level_hits[l]++;
    u128 add = found - 1;
    if (s->count > U128_MAX - add) return -1;
    s->count += add;
    s->memo_hits++;
    return 1;
}

/*
 * Run the search until the budget of nodes is spent, a batch of max_batch solutions is recorded
 * (max_batch 0: record nothing, just count), the limit is reached, or the search is over.
 */
static inline __attribute__((always_inline)) int run_c(Search *s, uint64_t budget, int max_batch,
                                                       const int colored, const int keyed)
{
#undef COLORED
#define COLORED colored
#undef KEYED
#define KEYED keyed
#undef MARKED
#define MARKED (!colored)
    int *llink = s->llink, *rlink = s->rlink;
    int *hint = s->hint, n_hints = 0;                      /* hints are not kept across a pause */
    const int *dull = s->dull;
    node *nd = s->nd;
    int *x = s->x;
    int *path = s->path, path_len = s->path_len, *tried = s->tried, *degree = s->degree;
    uint64_t *covered = s->covered;
    int memo = keyed && !max_batch && !s->limit && !s->probe, words = s->key_words;
    const int probe = s->probe, memo_from = s->memo_from;
    int l = s->level, i = s->best_item, p, j;
    uint64_t nodes = s->nodes, updates = s->updates, stop = s->nodes + budget, before;
    int why;
    /* The sum of the active primary items' lengths, and their number: equal (and no item empty) when every
     * item has one option left, so the node has exactly one solution.  Kept only where every item is
     * primary (a hide then unlinks one node of a primary item per update). */
    const int tail = !colored && s->n_items == s->n_primary;
    int *left_len = s->left_len, *left_items = s->left_items, total = 0, active = 0;
    for (int k = rlink[0]; k != 0; k = rlink[k]) { total += nd[k].top; active++; }

    switch (s->resume) {
    case AT_C2: goto C2;
    case AT_C8: goto C8;
    default: return RAN_DONE;
    }

C2: /* [Enter level l.] */
    if (rlink[0] == 0) {                                   /* every primary item is covered: visit */
        if (l < path_len) goto C8;                         /* the path runs past a solution: no such node */
        if ((why = visit(s, l, max_batch)) != GO_ON) goto out;
        goto C8;
    }
    if (tail && total == active && l >= path_len && !probe) {
        /* Every active item has at most one option: none empty means they form the one solution below. */
        int m = l;
        for (int k = rlink[0]; k != 0; k = rlink[k]) {
            p = nd[k].dlink;
            if (p == k) goto C8;                           /* an item with no option: a dead end */
            if (max_batch && nd[p - 1].top <= 0) x[m++] = p;   /* an option once, by its first item */
        }
        nodes++;
        if ((why = visit(s, m, max_batch)) != GO_ON) goto out;
        goto C8;
    }
    if (memo && l >= memo_from) {
        s->level_saved[l] = 0;
        if (!s->memo_mask && nodes >= s->memo_start) memo_start_table(s);
    }
    if (nodes >= stop) { why = RAN_BUDGET; s->resume = AT_C2; goto out; }
    nodes++;
    /* C3 [Choose i.]  MRV over the active primary items. */
    {
        int best = INT32_MAX;
        if (MARKED) {                                      /* the same choice as the list's, sooner */
            const int *scan = s->scan, n1 = s->n_primary;
            while (n_hints > 0 && l >= path_len && !probe) {    /* a path is walked by the scan alone */
                int k = hint[--n_hints];
                if (k <= n1 && nd[k].top <= 1) { best = nd[k].top; i = k; goto chosen; }
            }
            if (!dull)
                for (int t = 0; t < n1; t++) {
                    int k = scan[t], len = nd[k].top;
                    if (len < best) { best = len; i = k; if (best <= 1) break; }
                }
            else                                           /* LENs above 1 of items not sharp count more */
                for (int t = 0, eff = INT32_MAX; t < n1; t++) {
                    int k = scan[t], len = nd[k].top, e = len + (len > 1 ? dull[k] : 0);
                    if (e < eff) { eff = e; best = len; i = k; if (len <= 1) break; }
                }
        } else {
            for (int k = rlink[0], eff = INT32_MAX; k != 0; k = rlink[k]) {
                int len = nd[k].top, e = len + (dull && len > 1 ? dull[k] : 0);
                if (e < eff) { eff = e; best = len; i = k; if (best <= 1) break; }
            }
        }
chosen:
        if (probe && l == path_len) { s->probe_result = best; why = RAN_PROBE; s->resume = AT_END; goto out; }
        degree[l] = best;
        /* A state seen before is counted at once.  Only where the search branches: a forced move's count is
         * its child's, so looking both up would spend a cache miss and a slot on one subtree. */
        if (memo && best >= 2 && l >= memo_from && s->memo_mask && s->level_memo[l]) {
            int hit = memo_lookup(s, l, covered);
            if (hit < 0) { why = RAN_OVERFLOW; s->resume = AT_END; goto out; }
            if (hit) goto C8;
            memcpy(s->level_key + (size_t)l * words, covered, words * 8);
            s->count_before[l] = s->count;
            s->level_saved[l] = 1;
        }
    }
    /* C4 [Cover i.] */
    before = updates;
    total -= nd[i].top;
    COVER(i);
    left_len[l] = total - (int)(updates - before);
    left_items[l] = active - 1;
    x[l] = nd[i].dlink;
    tried[l] = 0;
    if (l < path_len)
        for (int t = path[l]; t > 0 && x[l] != i; t--) { x[l] = nd[x[l]].dlink; tried[l]++; }
C5: /* [Try x_l.] */
    if (x[l] == i) goto C7;
    tried[l]++;
    before = updates;
    total = left_len[l];
    active = left_items[l];
    for (p = x[l] + 1; p != x[l];) {
        j = nd[p].top;
        if (j <= 0) p = nd[p].ulink;
        else {
            if (!colored || nd[p].color == 0) { total -= nd[j].top; active--; COVER(j); }
            else if (nd[p].color > 0) PURIFY(p);
            p++;
        }
    }
    total -= (int)(updates - before);
    l++;
    goto C2;
C6: /* [Try again.] */
    for (p = x[l] - 1; p != x[l];) {
        j = nd[p].top;
        if (j <= 0) p = nd[p].dlink;
        else {
            if (!colored || nd[p].color == 0) UNCOVER(j);
            else if (nd[p].color > 0) UNPURIFY(p, nd[p].color);
            p--;
        }
    }
    i = nd[x[l]].top;
    if (l < path_len) goto C7;                             /* a subproblem takes one branch here */
    x[l] = nd[x[l]].dlink;
    goto C5;
C7: /* [Backtrack.] */
    UNCOVER(i);
    if (memo && l >= memo_from && s->level_saved[l] && s->level_memo[l])
        memo_store(s, s->level_key + (size_t)l * words, s->count - s->count_before[l]);
C8: /* [Leave level l.] */
    if (l == 0) { why = RAN_DONE; s->resume = AT_END; goto out; }
    l--;
    goto C6;

out:
    s->level = l;
    s->best_item = i;
    s->nodes = nodes;
    s->updates = updates;
    return why;
}

#undef COLORED
#define COLORED 1
#undef KEYED
#define KEYED 0
#undef MARKED
#define MARKED 0

/* The Algorithm C loop, compiled for problems with colors (never memoized), and for problems without colors
 * with and without a memo. */
static int run(Search *s, uint64_t budget, int max_batch)
{
    if (s->colored) return run_c(s, budget, max_batch, 1, 0);
    return s->memo_wanted ? run_c(s, budget, max_batch, 0, 1) : run_c(s, budget, max_batch, 0, 0);
}

/* ---- Algorithm X on bitsets: plain problems counted and listed without dancing ------------------------ */

/* For problems without colors, bounds or a seed, and of moderate size, the loop below replaces the node
 * table by bitsets.  Per level it keeps the set of live options (compatible with the choices above), the
 * list of live's nonzero words, and the set of uncovered primary items; nothing else.  Choosing option o
 * removes R = live & (options sharing an item with o) -- kept per option when those sets fit in 4 MiB, else
 * a few words per item of o -- and backtracking is a level down, with nothing to undo.  MRV counts: the LEN of item i is popcount(live & OPTSOF(i)) over live's
 * nonzero words only, so a node costs (uncovered items) x (nonzero words) AND-POPCNTs, however many options
 * it removes.  Dancing links (and an earlier version of this loop, which decremented the LENs of the items
 * of every removed option) pay per removed option instead: a pentomino placement removes hundreds of
 * options of six items each, so counting is four times faster on the 6x10 box, three on Soma, and ahead on
 * Langford pairs and queens up to 40 (benchmarks/RESULTS.md, twenty-first session).
 * The tree is plain MRV: the first uncovered primary item of least LEN, a node whose least LEN is 0 a dead
 * end; options in their order; the same paths, probes, budgets and memo keys (the covered items) as the
 * node table, and the one-solution tail (LENs summing to their number, none 0).  `updates` counts the
 * options removed.
 */
#define BITS_MIN_RATIO 4                   /* options per primary item, at least: Latin squares (2.3) and Sudoku
                                            * (2.25) remove few options per node, where dancing links win */
#define BITS_PER_UPDATE 12                 /* AND-POPCNTs as dear as one link update, about */
#define BITS_MAX_BYTES (64u << 20)         /* the bitsets' memory, at most */
#define BITS_CONF_BYTES (4u << 20)         /* each option's conflicts kept when they fit in this */

/* Whether the bitsets pay: a node costs them up to n1 x words AND-POPCNTs, and dancing links an update per
 * item of each option removed, about D = (the options sharing an item with an option) x (its primary
 * items), averaged over the options.  Measured crossover (queens 50, D/(n1 x words) = 0.08): links win on
 * queens 70 (0.04) and reduced Latin 7 (0.08), bitsets on queens 40 (0.13), Langford pairs 40 (0.12) and
 * pentominoes on a 20x20 board (0.16, five times faster). */
static int bits_pay(int n1, int n, int n_opt, const int32_t *starts, const int32_t *items)
{
    int w = (n_opt + 63) / 64;
    if (n_opt < BITS_MIN_RATIO * n1 || (double)(n + 1 + n1 + 2) * w * 8 > BITS_MAX_BYTES) return 0;
    int *len = calloc((size_t)n + 1, sizeof(int));
    if (!len) return 0;
    for (int32_t e = 0; e < starts[n_opt]; e++) len[items[e]]++;
    double shared = 0, primary = 0;
    for (int32_t e = 0; e < starts[n_opt]; e++) { shared += len[items[e]]; primary += items[e] <= n1; }
    free(len);
    double d = shared / n_opt * (primary / n_opt);
    return BITS_PER_UPDATE * d >= (double)n1 * w;
}

/* MRV on AVX-512: the LENs of eight primary items at once, VPOPCNTQ on each word of live against the
 * eight items' words of OPTSOF (kept side by side in b_wide: vector (b, v) holds word v of items 8b..8b+7).
 * Where the scalar scan spends an AND-POPCNT per (item, word), this spends one per eight; the choice is the
 * scalar scan's, key for key (the least (effective LEN, item); an uncovered item of LEN 0 ends the scan).
 * Used where the processor has AVX-512F and VPOPCNTDQ, unless DLX_LATIN_NO_AVX512 is set (the tests
 * compare both). */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && (__GNUC__ >= 8 || defined(__clang__))
#include <immintrin.h>
#define HAVE_MRV512 1
__attribute__((target("avx512f,avx512vpopcntdq"))) static uint64_t
mrv512(const uint64_t *wide, int w, int blocks, const uint64_t *pun, const uint64_t *live, const int *nz, int nn,
       const uint64_t *wdull, int *sum)
{
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
    __m512i item = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), eight = _mm512_set1_epi64(8);
    __m512i top = _mm512_set1_epi64(-1), total = zero;
    const uint8_t *open = (const uint8_t *)pun;            /* byte b: items 8b..8b+7 uncovered (x86: little end) */
    for (int b = 0; b < blocks; b++, item = _mm512_add_epi64(item, eight)) {
        __mmask8 m = open[b];
        if (!m) continue;
        const __m512i *col = (const __m512i *)(wide + (size_t)b * w * 8);
        __m512i len = zero;
        for (int j = 0; j < nn; j++) {
            int v = nz[j];
            __m512i both = _mm512_and_si512(_mm512_load_si512(col + v), _mm512_set1_epi64((long long)live[v]));
            len = _mm512_add_epi64(len, _mm512_popcnt_epi64(both));
        }
        __mmask8 dead = _mm512_mask_cmpeq_epu64_mask(m, len, zero);
        if (dead) return (uint64_t)(b * 8 + __builtin_ctz(dead));
        total = _mm512_mask_add_epi64(total, m, total, len);
        if (wdull)
            len = _mm512_mask_add_epi64(len, _mm512_cmpgt_epu64_mask(len, one), len,
                                        _mm512_load_si512(wdull + (size_t)b * 8));
        top = _mm512_mask_min_epu64(top, m, top, _mm512_or_si512(_mm512_slli_epi64(len, 32), item));
    }
    *sum = (int)_mm512_reduce_add_epi64(total);
    return (uint64_t)_mm512_reduce_min_epu64(top);
}
#endif

/* Lays out OPTSOF for mrv512 when the processor has it (b_wide stays NULL otherwise). */
static void wide_prepare(Search *s)
{
#ifdef HAVE_MRV512
    const char *off = getenv("DLX_LATIN_NO_AVX512");
    if ((off && *off) || !__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512vpopcntdq")) return;
    int w = s->bw, n1 = s->n_primary, blocks = (n1 + 8) / 8;
    size_t bytes = (size_t)blocks * w * 64;
    if (!(s->b_wide = aligned_alloc(64, bytes))) return;
    memset(s->b_wide, 0, bytes);
    for (int k = 1; k <= n1; k++)
        for (int v = 0; v < w; v++)
            s->b_wide[((size_t)(k / 8) * w + v) * 8 + k % 8] = s->b_optsof[(size_t)k * w + v];
    if (s->dull) {
        if (!(s->b_wdull = aligned_alloc(64, (size_t)blocks * 64))) { free(s->b_wide); s->b_wide = NULL; return; }
        for (int k = 0; k < blocks * 8; k++) s->b_wdull[k] = k >= 1 && k <= n1 ? (uint64_t)s->dull[k] : 0;
    }
    s->b_blocks = blocks;
#else
    (void)s;
#endif
}

static int bits_prepare(Search *s, const int32_t *starts, const int32_t *items)
{
    int n = s->n_items, n1 = s->n_primary, w = (s->n_options + 63) / 64, levels = n1 + 2, pw = (n1 + 64) / 64;
    s->bw = w;
    s->pw = pw;
    s->b_optsof = calloc((size_t)(n + 1) * w, sizeof(uint64_t));
    s->b_live = calloc((size_t)levels * w, sizeof(uint64_t));
    s->b_nz = malloc((size_t)levels * w * sizeof(int));
    s->b_nnz = calloc(levels, sizeof(int));
    s->b_pun = calloc((size_t)levels * pw, sizeof(uint64_t));
    s->b_pstart = malloc(((size_t)s->n_options + 1) * sizeof(int));
    s->b_pitems = malloc(((size_t)starts[s->n_options] + 1) * sizeof(int));
    s->b_cov = calloc(s->item_words, sizeof(uint64_t));
    s->b_unc = calloc(levels, sizeof(int)); s->b_tot = calloc(levels, sizeof(int));
    s->b_item = calloc(levels, sizeof(int)); s->b_word = calloc(levels, sizeof(int));
    s->b_rest = calloc(levels, sizeof(uint64_t));
    s->b_start = malloc(((size_t)s->n_options + 1) * sizeof(int));
    s->b_items = malloc(((size_t)starts[s->n_options] + 1) * sizeof(int));
    if (!s->b_optsof || !s->b_live || !s->b_nz || !s->b_nnz || !s->b_pun || !s->b_cov || !s->b_unc ||
        !s->b_tot || !s->b_pstart || !s->b_pitems || !s->b_item || !s->b_word || !s->b_rest || !s->b_start ||
        !s->b_items) { PyErr_NoMemory(); return -1; }
    int np = 0;
    for (int k = 0; k < s->n_options; k++) {
        s->b_start[k] = starts[k];
        s->b_pstart[k] = np;
        for (int32_t e = starts[k]; e < starts[k + 1]; e++) if (items[e] <= n1) s->b_pitems[np++] = items[e];
        s->b_live[k >> 6] |= 1ull << (k & 63);
        for (int32_t e = starts[k]; e < starts[k + 1]; e++) {
            s->b_items[e] = items[e];
            s->b_optsof[(size_t)items[e] * w + (k >> 6)] |= 1ull << (k & 63);
        }
    }
    s->b_start[s->n_options] = starts[s->n_options];
    s->b_pstart[s->n_options] = np;
    if ((double)s->n_options * w * 8 <= BITS_CONF_BYTES && (s->b_conf = calloc((size_t)s->n_options * w, 8)))
        for (int k = 0; k < s->n_options; k++)
            for (int32_t e = starts[k]; e < starts[k + 1]; e++)
                for (int v = 0; v < w; v++) s->b_conf[(size_t)k * w + v] |= s->b_optsof[(size_t)items[e] * w + v];
    size_t iw = s->item_words;
    if ((double)s->n_options * (pw + iw) * 8 <= BITS_CONF_BYTES && (s->b_pmask = calloc((size_t)s->n_options * pw, 8)) &&
        (s->b_imask = calloc((size_t)s->n_options * iw, 8)))
        for (int k = 0; k < s->n_options; k++)
            for (int32_t e = starts[k]; e < starts[k + 1]; e++) {
                if (items[e] <= n1) s->b_pmask[(size_t)k * pw + (items[e] >> 6)] |= 1ull << (items[e] & 63);
                s->b_imask[(size_t)k * iw + (items[e] >> 6)] |= 1ull << (items[e] & 63);
            }
    if (!s->b_imask) { free(s->b_pmask); s->b_pmask = NULL; }
    wide_prepare(s);
    for (int v = 0; v < w; v++) s->b_nz[v] = v;
    s->b_nnz[0] = w;
    for (int k = 1; k <= n1; k++) s->b_pun[k >> 6] |= 1ull << (k & 63);
    s->b_unc[0] = n1;
    s->bits = 1;
    return 0;
}

static inline __attribute__((always_inline)) int run_b(Search *s, uint64_t budget, int max_batch, const int keyed)
{
    const int w = s->bw, pw = s->pw, iw = s->item_words;
    const int *start = s->b_start, *items = s->b_items, *pstart = s->b_pstart, *pitems = s->b_pitems;
    const uint64_t *optsof = s->b_optsof, *pmask = s->b_pmask, *imask = s->b_imask;
    const int *dull = s->dull;
    int *x = s->x, *path = s->path, path_len = s->path_len, *tried = s->tried, *degree = s->degree;
    int *unc = s->b_unc, *tot = s->b_tot, *bitem = s->b_item, *bword = s->b_word, *nnz = s->b_nnz;
    uint64_t *rest = s->b_rest;
    int memo = keyed && !max_batch && !s->limit && !s->probe, words = s->key_words;
    const int probe = s->probe, memo_from = s->memo_from;
    const int tail = s->n_items == s->n_primary;
    int l = s->level, i, why;
    uint64_t nodes = s->nodes, updates = s->updates, stop = s->nodes + budget;
    uint64_t *live;
    int *nz;                                               /* the level's nonzero words of live */

    switch (s->resume) {
    case AT_C2: goto B2;
    case AT_C8: goto B8;
    default: return RAN_DONE;
    }

B2: /* [Enter level l.] */
    if (unc[l] == 0) {
        if (l < path_len) goto B8;
        if ((why = visit(s, l, max_batch)) != GO_ON) goto out;
        goto B8;
    }
    if (memo && l >= memo_from) {
        s->level_saved[l] = 0;
        if (!s->memo_mask && nodes >= s->memo_start) memo_start_table(s);
    }
    if (nodes >= stop) { why = RAN_BUDGET; s->resume = AT_C2; goto out; }
    nodes++;
    live = s->b_live + (size_t)l * w;
    nz = s->b_nz + (size_t)l * w;
    {   /* [Choose i.]  MRV: LENs counted on live's nonzero words; an empty item ends the scan. */
        const uint64_t *pun = s->b_pun + (size_t)l * pw;
        const int nn = nnz[l];
        int best = INT32_MAX, sum = 0;
        uint64_t top = UINT64_MAX;                         /* (effective LEN, item): the least wins, no branch */
        i = 0;
#ifdef HAVE_MRV512
        if (s->b_wide) {
            top = mrv512(s->b_wide, w, s->b_blocks, pun, live, nz, nn, s->b_wdull, &sum);
            if (!(top >> 32)) { best = 0; i = (int)top; goto chosen; }
        } else
#endif
        for (int v = 0; v < pw; v++)
            for (uint64_t m = pun[v]; m; m &= m - 1) {
                int k = v * 64 + __builtin_ctzll(m), c = 0;
                const uint64_t *ok = optsof + (size_t)k * w;
                for (int j = 0; j < nn; j++) c += __builtin_popcountll(live[nz[j]] & ok[nz[j]]);
                if (c == 0) { best = 0; i = k; goto chosen; }
                sum += c;
                uint64_t key = ((uint64_t)(c + (dull && c > 1 ? dull[k] : 0)) << 32) | (uint32_t)k;
                top = key < top ? key : top;
            }
        tot[l] = sum;
        i = (int)(uint32_t)top;
        best = (int)(top >> 32);
        if (dull && best > 1) best -= dull[i];
chosen:
        if (probe && l == path_len) { s->probe_result = best; why = RAN_PROBE; s->resume = AT_END; goto out; }
        if (unc[l] == 1 && best > 1 && !max_batch && !s->limit && l >= path_len) {
            /* the last primary item: each of its live options ends a solution, so they are counted at once
             * (branching on them cost a pass over live each: quadratic in an item's options) */
            if (s->count > U128_MAX - (u128)best) { why = RAN_OVERFLOW; s->resume = AT_END; goto out; }
            s->count += (u128)best;
            goto B8;
        }
        if (tail && !max_batch && best == 1 && tot[l] == unc[l] && l >= path_len) {
            /* every LEN is 1: disjoint options (two sharing an item would give it LEN 2), one solution */
            if ((why = visit(s, l, 0)) != GO_ON) goto out;
            goto B8;
        }
        degree[l] = best;
        if (memo && best >= 2 && l >= memo_from && s->memo_mask && s->level_memo[l]) {
            uint64_t *key = s->b_cov;                      /* the covered items, from the options chosen */
            memset(key, 0, (size_t)iw * 8);
            for (int j = 0; j < l; j++) {
                int o = x[j];
                if (imask) for (int v = 0; v < iw; v++) key[v] |= imask[(size_t)o * iw + v];
                else for (int e = start[o]; e < start[o + 1]; e++) key[items[e] >> 6] |= 1ull << (items[e] & 63);
            }
            int hit = memo_lookup(s, l, key);
            if (hit < 0) { why = RAN_OVERFLOW; s->resume = AT_END; goto out; }
            if (hit) goto B8;
            memcpy(s->level_key + (size_t)l * words, key, words * 8);
            s->count_before[l] = s->count;
            s->level_saved[l] = 1;
        }
    }
    bitem[l] = i;
    bword[l] = 0;                                          /* an index into nz */
    rest[l] = nnz[l] ? live[nz[0]] & optsof[(size_t)i * w + nz[0]] : 0;
    tried[l] = 0;
    if (l < path_len) {                                    /* skip to the branch the path names */
        for (int t = path[l]; t > 0; t--) {
            while (!rest[l] && ++bword[l] < nnz[l]) rest[l] = live[nz[bword[l]]] & optsof[(size_t)i * w + nz[bword[l]]];
            if (!rest[l]) goto B7;
            rest[l] &= rest[l] - 1;
            tried[l]++;
        }
    }
B5: /* [Try the next option of i.] */
    live = s->b_live + (size_t)l * w;
    nz = s->b_nz + (size_t)l * w;
    i = bitem[l];
    while (!rest[l] && ++bword[l] < nnz[l]) rest[l] = live[nz[bword[l]]] & optsof[(size_t)i * w + nz[bword[l]]];
    if (!rest[l]) goto B7;
    {
        int o = nz[bword[l]] * 64 + __builtin_ctzll(rest[l]);
        rest[l] &= rest[l] - 1;
        tried[l]++;
        x[l] = o;
        uint64_t *live2 = live + w, *pun2 = s->b_pun + (size_t)(l + 1) * pw;
        int *nz2 = nz + w, e0 = start[o], e1 = start[o + 1], nn = nnz[l], nn2 = 0, removed = 0;
        const uint64_t *conf = s->b_conf ? s->b_conf + (size_t)o * w : NULL;
        for (int j = 0; j < nn; j++) {                     /* words dead above stay dead: skip them */
            int v = nz[j];
            uint64_t hit = 0;
            if (conf) hit = conf[v];
            else for (int e = e0; e < e1; e++) hit |= optsof[(size_t)items[e] * w + v];
            removed += __builtin_popcountll(live[v] & hit);
            live2[v] = live[v] & ~hit;
            nz2[nn2] = v;
            nn2 += live2[v] != 0;
        }
        nnz[l + 1] = nn2;
        if (pmask)                                         /* a word or two, no chain through memory */
            for (int v = 0; v < pw; v++) pun2[v] = pun2[v - pw] & ~pmask[(size_t)o * pw + v];
        else {
            for (int v = 0; v < pw; v++) pun2[v] = pun2[v - pw];
            for (int f = pstart[o]; f < pstart[o + 1]; f++) pun2[pitems[f] >> 6] &= ~(1ull << (pitems[f] & 63));
        }
        updates += removed;
        unc[l + 1] = unc[l] - (pstart[o + 1] - pstart[o]);
    }
    l++;
    goto B2;
B6: /* [Back at level l.] */
    if (l < path_len) goto B7;                             /* a subproblem takes one branch here */
    goto B5;
B7: /* [Level done.] */
    if (memo && l >= memo_from && s->level_saved[l] && s->level_memo[l])
        memo_store(s, s->level_key + (size_t)l * words, s->count - s->count_before[l]);
B8: /* [Leave level l.] */
    if (l == 0) { why = RAN_DONE; s->resume = AT_END; goto out; }
    l--;
    goto B6;

out:
    s->level = l;
    s->nodes = nodes;
    s->updates = updates;
    return why;
}

/* The bitset loop with and without a memo; on x86 also compiled for the POPCNT instruction, used when the
 * processor has it (every x86-64 since 2008): without it a popcount is a dozen instructions. */
static int run_bits_any(Search *s, uint64_t budget, int max_batch)
{
    return s->memo_wanted ? run_b(s, budget, max_batch, 1) : run_b(s, budget, max_batch, 0);
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("popcnt"))) static int run_bits_popcnt(Search *s, uint64_t budget, int max_batch)
{
    return s->memo_wanted ? run_b(s, budget, max_batch, 1) : run_b(s, budget, max_batch, 0);
}

static int run_bits(Search *s, uint64_t budget, int max_batch)
{
    static int has_popcnt = -1;
    if (has_popcnt < 0) has_popcnt = __builtin_cpu_supports("popcnt") ? 1 : 0;
    return has_popcnt ? run_bits_popcnt(s, budget, max_batch) : run_bits_any(s, budget, max_batch);
}
#else
static int run_bits(Search *s, uint64_t budget, int max_batch) { return run_bits_any(s, budget, max_batch); }
#endif

/* ---- Algorithm M: multiplicities -------------------------------------------------------------------- */

/* Remove the whole option of node n from every list (n included: it is the top of its item's list). */
static inline void tweak(Search *s, int n)
{
    node *nd = s->nd;
    for (int q = n + 1;;) {
        int x = nd[q].top, u = nd[q].ulink, d = nd[q].dlink;
        if (x <= 0) { q = u; continue; }
        if (nd[q].color >= 0) { nd[u].dlink = d; nd[d].ulink = u; nd[x].top--; s->updates++; }
        if (q == n) break;
        q++;
    }
}

/* Put back, top down, the options tweaked out of item i's list since its top was node ft.  When i is
 * covered (`covered`), the options' other nodes stay hidden: uncovering i restores them. */
static inline void untweak(Search *s, int i, int ft, int covered)
{
    node *nd = s->nd;
    int z = nd[i].dlink, k = 0, prev = i, r;
    nd[i].dlink = ft;
    for (r = ft; r != z; prev = r, r = nd[r].dlink) {
        nd[r].ulink = prev;
        k++;
        if (covered) continue;
        for (int q = r + 1; q != r;) {
            int x = nd[q].top, u = nd[q].ulink, d = nd[q].dlink;
            if (x <= 0) { q = u; continue; }
            if (nd[q].color >= 0) { nd[u].dlink = q; nd[d].ulink = q; nd[x].top++; }
            q++;
        }
    }
    nd[z].ulink = prev;
    nd[i].top += k;
}

/*
 * The key of an Algorithm M state.  The count below a node depends only on the options still available and
 * the bounds left.  The available options are those holding no covered item and not tweaked out by a
 * branching still under way, so the key is the covered items, the bounds of the items with multiplicities
 * and the tweaked options that hold no covered item (the others are gone anyway; leaving them out lets more
 * states meet).  Which items the null move made inactive need not be kept: such an item has met its lower
 * bound and has no option left, so it would take the null move again.
 */
static void m_key(const Search *s, int l, uint64_t *key)
{
    const node *nd = s->nd;
    const uint64_t *covered = s->covered;
    int cw = s->item_words, n = s->n_items;
    memcpy(key, covered, cw * sizeof(uint64_t));
    uint64_t *kb = key + cw, *ko = kb + (s->n_mult + 7) / 8;
    memset(kb, 0, (s->key_words - cw) * sizeof(uint64_t));
    for (int t = 0; t < s->n_mult; t++) kb[t >> 3] |= (uint64_t)s->bound[s->mult[t]] << ((t & 7) << 3);
    for (int k = 0; k < l; k++) {
        int f = s->first_tweak[k];
        if (!f) continue;                                  /* level k tweaks nothing */
        int it = s->x[k] <= n ? s->x[k] : nd[s->x[k]].top;
        if (s->bound[it] == 0) continue;                   /* it is covered, and so are its options */
        for (int r = f; r != it && r != nd[it].dlink; r = nd[r].dlink) {
            int q = r + 1, live = 1;
            while (nd[q].top > 0) q++;                     /* the spacer after r's option */
            for (int e = nd[q].ulink; e < q && live; e++) live = !(covered[nd[e].top >> 6] >> (nd[e].top & 63) & 1);
            if (live) { int o = -nd[q].top - 1; ko[o >> 6] |= 1ull << (o & 63); }
        }
    }
}

static inline __attribute__((always_inline)) int run_m(Search *s, uint64_t budget, int max_batch,
                                                       const int keyed)
{
#undef KEYED
#define KEYED keyed
    int *llink = s->llink, *rlink = s->rlink;
    int *hint = NULL, n_hints = 0;                         /* no hints in Algorithm M (MARKED is 0) */
    node *nd = s->nd;
    int *x = s->x;
    int *bound = s->bound, *slack = s->slack, *ft = s->first_tweak;
    int *path = s->path, path_len = s->path_len, *tried = s->tried, *degree = s->degree;
    uint64_t *covered = s->covered;
    int n = s->n_items, n1 = s->n_primary;
    int memo = keyed && !max_batch && !s->limit && !s->probe, words = s->key_words;
    const int memo_from = s->memo_from;
    int l = s->level, i = s->best_item, p, j, skip = 0;
    uint64_t nodes = s->nodes, updates = s->updates, stop = s->nodes + budget;
    int why;

    switch (s->resume) {
    case AT_C2: goto M2;
    case AT_C8: goto M9;
    default: return RAN_DONE;
    }

M2: /* [Enter level l.] */
    if (rlink[0] == 0) {
        if (l < path_len) goto M9;                         /* the path runs past a solution: no such node */
        if ((why = visit(s, l, max_batch)) != GO_ON) goto out;
        goto M9;
    }
    if (memo && l >= memo_from) {
        s->level_saved[l] = 0;
        if (!s->memo_mask && nodes >= s->memo_start) memo_start_table(s);
    }
    if (nodes >= stop) { why = RAN_BUDGET; s->resume = AT_C2; goto out; }
    nodes++;
    /* M3 [Choose i.]  Least branching degree; ties: smaller slack, then longer list. */
    {
        int best = INT32_MAX, best_s = INT32_MAX, best_len = -1, eff = INT32_MAX;
        for (int k = rlink[0]; k != 0; k = rlink[k]) {
            int b = bound[k], sl = slack[k] < b ? slack[k] : b, len = nd[k].top, t = len + sl - b + 1;
            int e = t + (s->dull && t > 1 ? s->dull[k] : 0);
            if (e < eff || (e == eff && (sl < best_s || (sl == best_s && len > best_len)))) {
                eff = e; best = t; best_s = sl; best_len = len; i = k;
                if (best <= 1) break;                      /* forced (or dead): no rival can do better */
            }
        }
        if (s->probe && l == path_len) {
            s->probe_result = best > 0 ? best : 0;
            why = RAN_PROBE; s->resume = AT_END; goto out;
        }
        if (best <= 0) goto M9;                            /* i cannot get enough options */
        degree[l] = best;
        if (memo && best >= 2 && l >= memo_from && s->memo_mask && s->level_memo[l]) {   /* as in run_c */
            uint64_t *key = s->level_key + (size_t)l * words;
            m_key(s, l, key);
            int hit = memo_lookup(s, l, key);
            if (hit < 0) { why = RAN_OVERFLOW; s->resume = AT_END; goto out; }
            if (hit) goto M9;
            s->count_before[l] = s->count;
            s->level_saved[l] = 1;
        }
    }
    /* M4 [Prepare to branch on i.]  When i can take no more options, cover it: that hides its options. */
    x[l] = nd[i].dlink;
    bound[i]--;
    if (bound[i] == 0) COVER(i);
    ft[l] = bound[i] != 0 || slack[i] != 0 ? x[l] : 0;   /* 0: this level tweaks nothing */
    tried[l] = 0;
    skip = l < path_len ? path[l] : 0;
M5: /* [Possibly tweak x_l.]  (A subproblem skips the first `skip` branches: they are tweaked, not tried.) */
    if (bound[i] == 0 && slack[i] == 0) {
        if (x[l] == i) goto M8;
    } else if (nd[i].top <= bound[i] - slack[i]) {
        goto M8;                                           /* too few options left for the lower bound */
    } else if (x[l] != i) {
        if (bound[i] != 0) tweak(s, x[l]);
        else {                                             /* i is covered: just drop x_l from its list */
            int d = nd[x[l]].dlink;
            nd[i].dlink = d; nd[d].ulink = i; nd[i].top--;
        }
    } else {                                               /* the null move: i takes no more options */
        if (skip) goto M8;                                 /* the path names a branch beyond the last */
        tried[l]++;
        if (bound[i] != 0) { rlink[llink[i]] = rlink[i]; llink[rlink[i]] = llink[i]; }
        goto M7;
    }
    tried[l]++;
    if (skip) { skip--; x[l] = nd[x[l]].dlink; goto M5; }
    /* M6 [Try x_l.]  Commit the other items of its option. */
    for (p = x[l] + 1; p != x[l];) {
        j = nd[p].top;
        if (j <= 0) p = nd[p].ulink;
        else {
            if (j <= n1) { if (--bound[j] == 0) COVER(j); }
            else if (nd[p].color == 0) COVER(j);
            else if (nd[p].color > 0) PURIFY(p);
            p++;
        }
    }
M7: /* [Increase l.] */
    l++;
    goto M2;
M8: /* [Restore i.] */
    if (bound[i] != 0 || slack[i] != 0) untweak(s, i, ft[l], bound[i] == 0);
    if (bound[i] == 0) UNCOVER(i);
    bound[i]++;
    if (memo && l >= memo_from && s->level_saved[l] && s->level_memo[l])
        memo_store(s, s->level_key + (size_t)l * words, s->count - s->count_before[l]);
M9: /* [Leave level l.] */
    if (l == 0) { why = RAN_DONE; s->resume = AT_END; goto out; }
    l--;
    if (x[l] <= n) {                                       /* undo a null move */
        i = x[l];
        if (bound[i] != 0) { rlink[llink[i]] = i; llink[rlink[i]] = i; }
        goto M8;
    }
    for (p = x[l] - 1; p != x[l];) {
        j = nd[p].top;
        if (j <= 0) p = nd[p].dlink;
        else {
            if (j <= n1) { if (bound[j] == 0) UNCOVER(j); bound[j]++; }
            else if (nd[p].color == 0) UNCOVER(j);
            else if (nd[p].color > 0) UNPURIFY(p, nd[p].color);
            p--;
        }
    }
    i = nd[x[l]].top;
    if (l < path_len) goto M8;                             /* a subproblem takes one branch here */
    x[l] = nd[x[l]].dlink;
    skip = 0;
    goto M5;

out:
    s->level = l;
    s->best_item = i;
    s->nodes = nodes;
    s->updates = updates;
    return why;
}

#undef KEYED
#define KEYED 0

/* The Algorithm M loop, compiled with and without a memo. */
static int run_mult(Search *s, uint64_t budget, int max_batch)
{
    return s->memo_wanted ? run_m(s, budget, max_batch, 1) : run_m(s, budget, max_batch, 0);
}

/* ---- Python face --------------------------------------------------------------------------------- */

static void search_dealloc(Search *s)
{
    free(s->llink); free(s->rlink); free(s->nd);
    free(s->dull);
    free(s->x); free(s->scan); free(s->hint); free(s->batch); free(s->bound); free(s->slack); free(s->first_tweak);
    free(s->path); free(s->tried); free(s->degree); free(s->left_len); free(s->left_items);
    if (s->memo_owner) Py_DECREF(s->memo_owner);
    else memo_free(s);
    free(s->covered); free(s->mult); free(s->level_key); free(s->count_before);
    free(s->pristine); free(s->pristine_llink); free(s->pristine_rlink); free(s->option_first);
    free(s->level_lookups); free(s->level_hits); free(s->level_memo); free(s->level_saved);
    free(s->b_optsof); free(s->b_live); free(s->b_cov); free(s->b_rest); free(s->b_unc); free(s->b_pstart); free(s->b_pitems);
    free(s->b_tot); free(s->b_item); free(s->b_word); free(s->b_start); free(s->b_items); free(s->b_pun); free(s->b_nz); free(s->b_nnz); free(s->b_conf); free(s->b_pmask); free(s->b_imask);
    free(s->b_wide); free(s->b_wdull);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

/* Search(n_primary, n_secondary, starts, items, colors, lower, upper, limit_hi, limit_lo, path,
 *        memo_slots=0, memo_start=MEMO_START, *, memo_bytes=0, seed=None)
 * starts: int32[n_options + 1] offsets into items/colors; items: int32 item numbers 1..N; colors: int32 >= 0;
 * lower, upper: int32[n_primary], the bounds of the primary items (0 <= lower <= upper, upper >= 1);
 * path: int32 branch indices naming the subproblem (empty: the whole problem);
 * memo_slots: entries of the count memo (rounded down to a power of 2; 0: none), or memo_bytes: as many
 * entries as fit in that memory (at most 2^20) -- the slot layout is known here only.  The memo is used
 * when counting everything of a problem without colors (and bounds at most 255); memo_start: nodes to
 * visit before the memo is made (tests make it 0 to exercise the memo on small problems).
 * seed: branch in a random order drawn from it -- the primary items' tie order and every item's option
 * order are shuffled once, here (a random solution is the first one found; solutions keep their numbers). */
static int search_init(Search *s, PyObject *args, PyObject *kw)
{
    int n1, n2;
    unsigned long long lim_hi, lim_lo;
    Py_buffer bs = {0}, bi = {0}, bc = {0}, blo = {0}, bhi = {0}, bp = {0}, bsh = {0};
    int ok = -1;
    unsigned long long memo_slots = 0, memo_start = MEMO_START, memo_bytes = 0;
    PyObject *seed = Py_None;
    static char *kwlist[] = {"n_primary", "n_secondary", "starts", "items", "colors", "lower", "upper",
                             "limit_hi", "limit_lo", "path", "memo_slots", "memo_start", "memo_bytes",
                             "seed", "sharp", NULL};
    if (s->init_called) {                                /* a second __init__ would leak or tear the table */
        PyErr_SetString(PyExc_RuntimeError, "a Search is initialized once; make a new one");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iiy*y*y*y*y*KKy*|KK$KOy*", kwlist, &n1, &n2, &bs, &bi, &bc,
                                     &blo, &bhi, &lim_hi, &lim_lo, &bp, &memo_slots, &memo_start, &memo_bytes,
                                     &seed, &bsh))
        return -1;
    uint64_t rng = 0;
    if (seed != Py_None) {
        rng = PyLong_AsUnsignedLongLongMask(seed);
        if (rng == (uint64_t)-1 && PyErr_Occurred()) goto done;
    }
    s->init_called = 1;
    const int32_t *starts = bs.buf, *items = bi.buf, *colors = bc.buf, *lower = blo.buf, *upper = bhi.buf;
    if (bs.len < 4 || bs.len % 4 || bi.len % 4 || bc.len != bi.len || blo.len % 4 || bp.len % 4 ||
        n1 < 0 || n2 < 0 || (long long)n1 + n2 > INT32_MAX / 4 ||
        blo.len != 4 * (Py_ssize_t)n1 || bhi.len != 4 * (Py_ssize_t)n1) {
        PyErr_SetString(PyExc_ValueError, "inconsistent option arrays");
        goto done;
    }
    Py_ssize_t n_opt = bs.len / 4 - 1, n_ent = bi.len / 4;
    if (starts[0] != 0 || starts[n_opt] != n_ent) {
        PyErr_SetString(PyExc_ValueError, "option starts must run from 0 to the number of entries");
        goto done;
    }
    for (Py_ssize_t k = 0; k < n_opt; k++)
        if (starts[k + 1] < starts[k]) {
            PyErr_SetString(PyExc_ValueError, "option starts must not decrease");
            goto done;
        }
    if (memo_slots > MEMO_MAX_SLOTS) {
        PyErr_Format(PyExc_ValueError, "memo_slots may be at most %llu", (unsigned long long)MEMO_MAX_SLOTS);
        goto done;
    }
    int n = n1 + n2;
    long long n_nodes = (long long)n + 1 + (n_opt + 1) + n_ent;
    if (n_nodes >= INT32_MAX / 2) { PyErr_SetString(PyExc_ValueError, "problem too large"); goto done; }
    s->n_items = n; s->n_primary = n1; s->n_options = (int)n_opt; s->n_nodes = (int)n_nodes;
    if (bsh.obj && bsh.len) {                            /* sharp: a flag per primary item */
        if (bsh.len != 4 * (Py_ssize_t)n1) { PyErr_SetString(PyExc_ValueError, "sharp needs a flag per primary item"); goto done; }
        s->dull = calloc((size_t)n + 2, sizeof(int));
        if (!s->dull) { PyErr_NoMemory(); goto done; }
        for (int k = 1; k <= n1; k++) s->dull[k] = ((const int32_t *)bsh.buf)[k - 1] ? 0 : SHARP_PENALTY;
    }
    s->llink = malloc((n + 2) * sizeof(int)); s->rlink = malloc((n + 2) * sizeof(int));
    s->nd = calloc(n_nodes, sizeof(node));
    /* A level covers at least one unit of a primary item or makes one item inactive. */
    long long depth = 1;
    s->multiplicities = 0;
    for (int k = 0; k < n1; k++) {
        if (lower[k] < 0 || upper[k] < 1 || lower[k] > upper[k]) {
            PyErr_SetString(PyExc_ValueError, "bad bounds in option arrays");
            goto done;
        }
        if (lower[k] != 1 || upper[k] != 1) s->multiplicities = 1;
        depth += (long long)upper[k] + 1;                /* in 64 bits: n1 bounds near 2^31 do not wrap */
        if (depth > (long long)n_opt + n1 + 1) depth = (long long)n_opt + n1 + 1;
    }
    if (depth > n_opt + n1 + 1) depth = n_opt + n1 + 1;
    s->x = malloc(depth * sizeof(int));
    s->bound = malloc((n + 2) * sizeof(int));
    s->slack = malloc((n + 2) * sizeof(int));
    s->first_tweak = malloc(depth * sizeof(int));
    s->tried = calloc(depth, sizeof(int));
    s->degree = calloc(depth, sizeof(int));
    s->left_len = calloc(depth, sizeof(int));
    s->left_items = calloc(depth, sizeof(int));
    s->path_len = (int)(bp.len / 4);
    s->path = malloc((s->path_len + 1) * sizeof(int));
    if (!s->llink || !s->rlink || !s->nd || !s->x || !s->bound ||
        !s->slack || !s->first_tweak || !s->tried || !s->degree || !s->path || !s->left_len || !s->left_items) {
        PyErr_NoMemory();
        goto done;
    }
    /* C1 [Initialize.]  Primary items in the list headed by 0, secondary items in the list headed by N+1. */
    for (int k = 0; k <= n; k++) { s->rlink[k] = k + 1; s->llink[k + 1] = k; }
    s->rlink[n1] = 0; s->llink[0] = n1;
    s->llink[n1 + 1] = n + 1; s->rlink[n + 1] = n1 + 1;
    if (n2 == 0) s->llink[n + 1] = s->rlink[n + 1] = n + 1;
    if (seed != Py_None && n1 > 1) {                    /* primary items in a random order: MRV's ties */
        int *order = malloc(n1 * sizeof(int));
        if (!order) { PyErr_NoMemory(); goto done; }
        for (int k = 0; k < n1; k++) order[k] = k + 1;
        shuffle(order, n1, &rng);
        int prev = 0;
        for (int k = 0; k < n1; k++) { s->rlink[prev] = order[k]; s->llink[order[k]] = prev; prev = order[k]; }
        s->rlink[prev] = 0; s->llink[0] = prev;
        free(order);
    }
    s->scan = malloc((n1 + 1) * sizeof(int));
    s->hint = malloc(HINTS * sizeof(int));
    if (!s->scan || !s->hint) { PyErr_NoMemory(); goto done; }
    for (int k = s->rlink[0], t = 0; k != 0; k = s->rlink[k]) s->scan[t++] = k;
    for (int k = 1; k <= n; k++) { s->nd[k].top = 0; s->nd[k].ulink = s->nd[k].dlink = k; }
    for (int k = 1; k <= n1; k++) { s->bound[k] = upper[k - 1]; s->slack[k] = upper[k - 1] - lower[k - 1]; }
    int p = n + 1;                                       /* the first spacer */
    s->nd[p].top = 0;
    int *seen = calloc(n + 1, sizeof(int));              /* seen[item] = k + 1 once option k holds it */
    if (!seen) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t k = 0; k < n_opt; k++) {
        int spacer = p, first = p + 1;
        for (int32_t e = starts[k]; e < starts[k + 1]; e++) {
            int it = items[e];
            if (it < 1 || it > n || colors[e] < 0 || (colors[e] && it <= n1)) {
                PyErr_SetString(PyExc_ValueError, "bad item number or color in option arrays");
                free(seen);
                goto done;
            }
            if (seen[it] == k + 1) {                     /* twice in one option would tear its links */
                PyErr_SetString(PyExc_ValueError, "an option holds an item twice");
                free(seen);
                goto done;
            }
            seen[it] = (int)k + 1;
            p++;
            s->nd[p].top = it; s->nd[p].color = colors[e];
        }
        s->nd[spacer].dlink = p;
        p++;
        s->nd[p].top = (int)-(k + 1);
        s->nd[p].ulink = first;
    }
    free(seen);
    /* Vertical lists: options in their order, or in a random one. */
    int *option_order = malloc((n_opt + 1) * sizeof(int)), *option_first = malloc((n_opt + 1) * sizeof(int));
    if (!option_order || !option_first) { free(option_order); free(option_first); PyErr_NoMemory(); goto done; }
    for (Py_ssize_t k = 0, q = n + 2; k < n_opt; k++) {
        option_order[k] = (int)k;
        option_first[k] = (int)q;
        q += starts[k + 1] - starts[k] + 1;
    }
    if (seed != Py_None) shuffle(option_order, (int)n_opt, &rng);
    for (Py_ssize_t j = 0; j < n_opt; j++) {
        int k = option_order[j];
        for (int q = option_first[k]; q < option_first[k] + starts[k + 1] - starts[k]; q++) {
            int it = s->nd[q].top;
            s->nd[q].ulink = s->nd[it].ulink; s->nd[s->nd[it].ulink].dlink = q;
            s->nd[q].dlink = it; s->nd[it].ulink = q;
            s->nd[it].top++;
        }
    }
    free(option_order); free(option_first);
    if (s->path_len >= depth) { PyErr_SetString(PyExc_ValueError, "path longer than the search can go"); goto done; }
    for (int k = 0; k < s->path_len; k++) {
        s->path[k] = ((const int32_t *)bp.buf)[k];
        if (s->path[k] < 0) { PyErr_SetString(PyExc_ValueError, "negative branch index in path"); goto done; }
    }
    s->probe = 0; s->probe_result = 0;
    s->item_words = (n + 2 + 63) / 64;
    s->covered = calloc(s->item_words, sizeof(uint64_t));
    s->mult = malloc((n1 + 1) * sizeof(int));
    if (!s->covered || !s->mult) { PyErr_NoMemory(); goto done; }
    int colored = 0, big_bound = 0;
    for (Py_ssize_t e = 0; e < n_ent; e++) colored |= colors[e] != 0;
    s->colored = colored;
    s->n_mult = 0;
    for (int k = 1; k <= n1; k++)
        if (lower[k - 1] != 1 || upper[k - 1] != 1) {
            s->mult[s->n_mult++] = k;
            big_bound |= upper[k - 1] > 255;                /* a key keeps a bound in 8 bits */
        }
    /* Algorithm C keys: the covered items.  Algorithm M keys: see m_key. */
    s->key_words = s->item_words;
    if (s->multiplicities) s->key_words = s->item_words + (s->n_mult + 7) / 8 + ((int)n_opt + 63) / 64;
    for (s->slot_words = 4; s->slot_words < s->key_words + 2; s->slot_words *= 2) {}
    s->memo_mask = 0; s->memo_wanted = 0; s->memo_hits = 0; s->memo_start = memo_start; s->depth = (int)depth;
    s->memo_from = s->path_len > 1 ? s->path_len : 1;
    /* A key of more than MEMO_MAX_KEY_WORDS words (an item bitset of a huge problem) would make each level's
     * saved key and each slot cost more than the memo saves: such problems are counted without it. */
    int huge_keys = s->key_words > MEMO_MAX_KEY_WORDS || (long long)depth * s->key_words > MEMO_MAX_LEVEL_WORDS;
    if (!memo_slots && memo_bytes) {                    /* as many slots as fit, at most 2^20 */
        memo_slots = memo_bytes / (8 * (uint64_t)s->slot_words);
        if (memo_slots > (1u << 20)) memo_slots = 1u << 20;
    }
    if (memo_slots >= 2 && !colored && !big_bound && !huge_keys) {
        uint64_t slots = 1;
        while (slots * 2 <= memo_slots) slots *= 2;
        s->level_key = calloc((size_t)depth * s->key_words, sizeof(uint64_t));
        s->level_saved = calloc(depth, 1);
        s->count_before = calloc(depth, sizeof(u128));
        s->level_lookups = calloc(depth, sizeof(uint32_t));
        s->level_hits = calloc(depth, sizeof(uint32_t));
        s->level_memo = malloc(depth);
        if (!s->level_key || !s->level_saved || !s->count_before || !s->level_lookups || !s->level_hits ||
            !s->level_memo) {
            PyErr_NoMemory();
            goto done;
        }
        memset(s->level_memo, 1, depth);
        s->memo_wanted = slots;
    }
    s->level = 0; s->best_item = 0; s->resume = AT_C2;
    s->count = 0; s->limit = ((u128)lim_hi << 64) | lim_lo;
    s->nodes = s->updates = 0;
    if (!colored && !s->multiplicities && seed == Py_None && n1 >= 1 &&
        bits_pay(n1, n, (int)n_opt, starts, items) && bits_prepare(s, starts, items) < 0)
        goto done;
    s->ready = 1;
    ok = 0;
done:
    PyBuffer_Release(&bs); PyBuffer_Release(&bi); PyBuffer_Release(&bc);
    PyBuffer_Release(&blo); PyBuffer_Release(&bhi); PyBuffer_Release(&bp);
    if (bsh.obj) PyBuffer_Release(&bsh);
    return ok;
}

#define NODE_BUDGET (1u << 18)

/* Knuth's estimate of the fraction of the (sub)tree explored: branch k of d at a level counts (k-1)/d. */
static double fraction_done(const Search *s)
{
    if (s->resume == AT_END) return 1.0;
    double f = 0.0, scale = 1.0;
    for (int l = s->path_len; l < s->level; l++) {
        if (s->degree[l] <= 0) break;
        scale *= s->degree[l];
        f += (s->tried[l] - 1) / scale;
    }
    return f + 0.5 / scale;
}

/* Whether a method may touch the search: it was initialized, and no run of it is under way (in another
 * thread, or below its own progress callback).  Checked and set with the GIL held, so it cannot race. */
static int usable(Search *s)
{
    if (!s->ready) {
        PyErr_SetString(PyExc_RuntimeError, "this Search was not initialized");
        return 0;
    }
    if (s->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this Search is already running (a Search is not shared between threads)");
        return 0;
    }
    return 1;
}

/* Run with the GIL released, in slices of NODE_BUDGET nodes, looking for signals between slices; stop,
 * unfinished (done stays False, and the search can resume), once max_nodes nodes are visited (0: no budget)
 * or stop() was called. */
static int run_slices(Search *s, int max_batch, PyObject *progress, uint64_t max_nodes)
{
    for (;;) {
        int why;
        uint64_t slice = NODE_BUDGET;
        if (s->stop_asked) return RAN_BUDGET;
        if (max_nodes) {
            if (s->nodes >= max_nodes) return RAN_BUDGET;
            if (max_nodes - s->nodes < slice) slice = max_nodes - s->nodes;
        }
        Py_BEGIN_ALLOW_THREADS
        if (ON_BITS(s)) why = run_bits(s, slice, max_batch);
        else why = s->multiplicities ? run_mult(s, slice, max_batch) : run(s, slice, max_batch);
        Py_END_ALLOW_THREADS
        if (why == -1) { PyErr_NoMemory(); return -1; }
        if (why == RAN_OVERFLOW) {
            PyErr_SetString(PyExc_OverflowError, "solution count reached 2**128 - 1");
            return -1;
        }
        if (why != RAN_BUDGET) return why;
        if (PyErr_CheckSignals() < 0) return -1;
        if (progress && progress != Py_None) {
            PyObject *r = PyObject_CallFunction(progress, "Kd", (unsigned long long)s->nodes, fraction_done(s));
            if (!r) return -1;
            Py_DECREF(r);
        }
    }
}

/* run_slices on a search no other run is using. */
static int run_checked(Search *s, int max_batch, PyObject *progress, uint64_t max_nodes)
{
    if (!usable(s)) return -1;
    s->busy = 1;
    int why = run_slices(s, max_batch, progress, max_nodes);
    s->busy = 0;
    return why;
}

/* count(progress=None, max_nodes=0): run to the end, the limit or the node budget; the count so far. */
static PyObject *search_count(Search *s, PyObject *args, PyObject *kw)
{
    PyObject *progress = NULL;
    unsigned long long max_nodes = 0;
    static char *kwlist[] = {"progress", "max_nodes", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OK", kwlist, &progress, &max_nodes)) return NULL;
    if (run_checked(s, 0, progress, max_nodes) < 0) return NULL;
    return u128_to_pylong(s->count);
}

/* next_batch(size, progress=None, max_nodes=0): a list of up to `size` solutions, each a tuple of option
 * numbers; [] when exhausted (done) or when the node budget ran out first (not done). */
static PyObject *search_next_batch(Search *s, PyObject *args, PyObject *kw)
{
    int size;
    PyObject *progress = NULL;
    unsigned long long max_nodes = 0;
    static char *kwlist[] = {"size", "progress", "max_nodes", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|OK", kwlist, &size, &progress, &max_nodes)) return NULL;
    if (size < 1) { PyErr_SetString(PyExc_ValueError, "batch size must be positive"); return NULL; }
    s->batch_len = 0;
    s->batch_solutions = 0;
    if (run_checked(s, size, progress, max_nodes) < 0) return NULL;
    PyObject *out = PyList_New(s->batch_solutions);
    if (!out) return NULL;
    Py_ssize_t at = 0;
    for (int k = 0; k < s->batch_solutions; k++) {
        Py_ssize_t end = at;
        while (s->batch[end] >= 0) end++;
        PyObject *sol = PyTuple_New(end - at);
        if (!sol) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, k, sol);
        for (Py_ssize_t e = at; e < end; e++) {
            PyObject *o = PyLong_FromLong(s->batch[e]);
            if (!o) { Py_DECREF(out); return NULL; }
            PyTuple_SET_ITEM(sol, e - at, o);
        }
        at = end + 1;
    }
    return out;
}

static PyObject *search_get_nodes(Search *s, void *c) { return PyLong_FromUnsignedLongLong(s->nodes); }
static PyObject *search_get_updates(Search *s, void *c) { return PyLong_FromUnsignedLongLong(s->updates); }
static PyObject *search_get_count(Search *s, void *c) { return u128_to_pylong(s->count); }
static PyObject *search_get_done(Search *s, void *c) { return PyBool_FromLong(s->resume == AT_END); }
static PyObject *search_get_memo_hits(Search *s, void *c) { return PyLong_FromUnsignedLongLong(s->memo_hits); }
static PyObject *search_get_memo_slots(Search *s, void *c)
{
    return PyLong_FromUnsignedLongLong(s->memo_mask ? s->memo_mask + 1 : 0);
}
static PyObject *search_get_layout(Search *s, void *c) { return PyUnicode_FromString(s->bits ? "bitsets" : "links"); }
static PyObject *search_get_fraction(Search *s, void *c) { return PyFloat_FromDouble(fraction_done(s)); }

/* share_memo(owner): count with the memo of another search of the same problem (made now if need be), even
 * while that one, or others sharing it, run in other threads.  Keys are whole states, so a count
 * remembered under one subproblem is right under any other.  False when either search has no memo, or the
 * owner has counted on a table of its own (which may have grown). */
static PyObject *search_share_memo(Search *s, PyObject *arg)
{
    if (!PyObject_TypeCheck(arg, Py_TYPE(s))) {
        PyErr_SetString(PyExc_TypeError, "share_memo() needs another Search");
        return NULL;
    }
    if (!usable(s)) return NULL;
    if (!((Search *)arg)->ready) {
        PyErr_SetString(PyExc_RuntimeError, "share_memo() needs an initialized Search");
        return NULL;
    }
    Search *owner = (Search *)arg;
    while (owner->memo_owner) owner = (Search *)owner->memo_owner;
    if (owner == s || !s->memo_wanted || !owner->memo_wanted || s->key_words != owner->key_words ||
        s->n_items != owner->n_items || s->nodes || s->memo_owner || (owner->nodes && !owner->memo_shared))
        Py_RETURN_FALSE;
    owner->memo_shared = 1;                              /* full size from the start, and never regrown */
    if (!owner->memo_mask) memo_start_table(owner);
    if (!owner->memo_mask) Py_RETURN_FALSE;
    memo_free(s);
    s->memo = owner->memo;
    s->memo_mask = owner->memo_mask; s->memo_wanted = owner->memo_mask + 1;
    Py_INCREF(owner);
    s->memo_owner = (PyObject *)owner;
    Py_RETURN_TRUE;
}

/* ---- batches of puzzles: one problem, many sets of forced options ------------------------------------ */

/* Keep the fresh search's node table and item list, and where each option starts, for batch(). */
static int batch_prepare(Search *s)
{
    if (s->pristine) return 0;
    size_t items = (size_t)s->n_items + 2;
    s->pristine = malloc((size_t)s->n_nodes * sizeof(node));
    s->pristine_llink = malloc(items * sizeof(int));
    s->pristine_rlink = malloc(items * sizeof(int));
    s->option_first = malloc(((size_t)s->n_options + 1) * sizeof(int));
    if (!s->pristine || !s->pristine_llink || !s->pristine_rlink || !s->option_first) {
        free(s->pristine); free(s->pristine_llink); free(s->pristine_rlink); free(s->option_first);
        s->pristine = NULL; s->pristine_llink = s->pristine_rlink = s->option_first = NULL;
        PyErr_NoMemory();
        return -1;
    }
    memcpy(s->pristine, s->nd, (size_t)s->n_nodes * sizeof(node));
    memcpy(s->pristine_llink, s->llink, items * sizeof(int));
    memcpy(s->pristine_rlink, s->rlink, items * sizeof(int));
    for (int k = 0, p = s->n_items + 2; k < s->n_options; k++) {  /* options follow the first spacer */
        s->option_first[k] = p;
        while (s->nd[p].top > 0) p++;
        p++;                                                          /* the spacer ending option k */
    }
    return 0;
}

/* Back to the fresh search: the pristine table and list, level 0, nothing counted. */
static void batch_restore(Search *s)
{
    memcpy(s->nd, s->pristine, (size_t)s->n_nodes * sizeof(node));
    memcpy(s->llink, s->pristine_llink, ((size_t)s->n_items + 2) * sizeof(int));
    memcpy(s->rlink, s->pristine_rlink, ((size_t)s->n_items + 2) * sizeof(int));
    s->level = 0; s->best_item = 0; s->resume = AT_C2; s->count = 0;
    s->batch_len = 0; s->batch_solutions = 0;
}

/* Choose option k before the search, as a branching would: cover each of its items.  0 when an item is
 * already covered (by an earlier forced option): the forced options clash, so nothing completes them. */
static int batch_force(Search *s, int k)
{
    node *nd = s->nd;
    int *llink = s->llink, *rlink = s->rlink;
    uint64_t updates = 0;
    int first = s->option_first[k];
    for (int q = first; nd[q].top > 0; q++) {
        int i = nd[q].top;
        if (rlink[llink[i]] != i) return 0;
    }
    for (int q = first; nd[q].top > 0; q++) {
        int i = nd[q].top, l = llink[i], r = rlink[i];
        for (int p = nd[i].dlink; p != i; p = nd[p].dlink) {
            int t = p + 1;                                      /* HIDE(p) without colors */
            while (t != p) {
                int x = nd[t].top, u = nd[t].ulink, d = nd[t].dlink;
                if (x <= 0) t = u;
                else { nd[u].dlink = d; nd[d].ulink = u; nd[x].top--; updates++; t++; }
            }
        }
        rlink[l] = r; llink[r] = l;
        nd[i].top += COVERED_MARK;                              /* batches: no colors or bounds */
    }
    s->updates += updates;
    return 1;
}

/* The options of the first solution recorded in the batch buffer, as a tuple (NULL on error). */
static PyObject *batch_first(Search *s)
{
    Py_ssize_t end = 0;
    while (s->batch[end] >= 0) end++;
    PyObject *first = PyTuple_New(end);
    for (Py_ssize_t e = 0; first && e < end; e++) {
        PyObject *o = PyLong_FromLong(s->batch[e]);
        if (!o) { Py_CLEAR(first); break; }
        PyTuple_SET_ITEM(first, e, o);
    }
    return first;
}

/* Check that a search can take batches (1 <= cap < 2**31, no bounds, colors, memo or path; fresh or
 * restored) and keep its fresh table; -1 with an exception set when not. */
static int batch_begin(Search *s, unsigned long long cap)
{
    if (!usable(s)) return -1;
    if (s->multiplicities || s->colored || s->memo_wanted || s->path_len || cap < 1 || cap > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError,
                        "batch() needs a search without bounds, colors, memo or path, and 1 <= cap < 2**31");
        return -1;
    }
    if (!s->pristine && (s->resume != AT_C2 || s->nodes)) {   /* later batches find it restored */
        PyErr_SetString(PyExc_RuntimeError, "batch() needs a fresh search");
        return -1;
    }
    return batch_prepare(s);
}

/* One puzzle: the fresh table, the options forced[0..n) chosen, a search for up to cap solutions.  The
 * number found (0 when the forced options clash), or -1 with an exception set. */
static long long batch_one(Search *s, const int32_t *forced, Py_ssize_t n, unsigned long long cap)
{
    batch_restore(s);
    s->limit = cap;
    for (Py_ssize_t e = 0; e < n; e++)
        if (!batch_force(s, forced[e])) return 0;
    if (run_slices(s, (int)cap, NULL, 0) < 0) return -1;
    return (long long)s->count;
}

/* batch(starts, forced, cap): for each puzzle j -- the options forced[starts[j]:starts[j+1]] chosen first --
 * (solutions up to cap, the first solution's other options or None).  The problem is built once; each
 * puzzle restores the fresh table (one copy), covers its options and searches.  For problems without
 * bounds, colors, memo or path. */
static PyObject *search_batch(Search *s, PyObject *args)
{
    Py_buffer bs = {0}, bf = {0};
    unsigned long long cap;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "y*y*K", &bs, &bf, &cap)) return NULL;
    const int32_t *starts = bs.buf, *forced = bf.buf;
    Py_ssize_t m = bs.len / 4 - 1, n_forced = bf.len / 4;
    if (bs.len < 4 || bs.len % 4 || bf.len % 4 || starts[0] != 0 || starts[m] != n_forced) {
        PyErr_SetString(PyExc_ValueError, "batch starts must run from 0 to the number of forced options");
        goto done;
    }
    for (Py_ssize_t j = 0; j < m; j++)
        if (starts[j + 1] < starts[j]) { PyErr_SetString(PyExc_ValueError, "batch starts must not decrease"); goto done; }
    for (Py_ssize_t e = 0; e < n_forced; e++)
        if (forced[e] < 0 || forced[e] >= s->n_options) {
            PyErr_Format(PyExc_ValueError, "forced option %d is not one of the problem's", (int)forced[e]);
            goto done;
        }
    if (batch_begin(s, cap) < 0) goto done;
    out = PyList_New(m);
    if (!out) goto done;
    s->busy = 1;
    for (Py_ssize_t j = 0; j < m; j++) {
        long long found = batch_one(s, forced + starts[j], starts[j + 1] - starts[j], cap);
        if (found < 0) { Py_CLEAR(out); break; }
        PyObject *first = !found ? (Py_INCREF(Py_None), Py_None) : batch_first(s);
        if (!first) { Py_CLEAR(out); break; }
        PyObject *item = Py_BuildValue("(LN)", found, first);
        if (!item) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, j, item);
    }
    batch_restore(s);                                        /* fresh again: any later run starts clean */
    s->busy = 0;
done:
    PyBuffer_Release(&bs); PyBuffer_Release(&bf);
    return out;
}

/* stop(): make the run under way (in another thread) return at its next slice, unfinished, and every later
 * run return at once.  Callable while the search runs: it only sets a flag read between slices. */
static PyObject *search_stop(Search *s, PyObject *unused)
{
    s->stop_asked = 1;
    Py_RETURN_NONE;
}

/* degree(): the branching degree of the node named by the path (-1: a solution; 0: a dead end or no node). */
static PyObject *search_degree(Search *s, PyObject *unused)
{
    if (!usable(s)) return NULL;
    if (s->resume != AT_C2 || s->nodes) {
        PyErr_SetString(PyExc_RuntimeError, "degree() needs a fresh search");
        return NULL;
    }
    s->probe = 1;
    if (run_checked(s, 0, NULL, 0) < 0) return NULL;
    return PyLong_FromLong(s->probe_result);
}

/* sanity(): check the links of a paused search, as Knuth's sanity() does -- every item list is a circular
 * doubly linked list, every vertical list too, through nodes of that item only, as long as its LEN says.
 * None when they hold; RuntimeError naming the first broken link otherwise.  For tests. */
static PyObject *search_sanity(Search *s, PyObject *unused)
{
    if (!usable(s)) return NULL;
    const node *nd = s->nd;
    int n = s->n_items;
    for (int head = 0; head <= n + 1; head += n + 1) {
        int steps = 0;
        for (int k = s->rlink[head]; k != head; k = s->rlink[k]) {
            if (k < 0 || k > n + 1 || s->llink[s->rlink[k]] != k || ++steps > n)
                return PyErr_Format(PyExc_RuntimeError, "item list broken at item %d", k);
        }
    }
    for (int k = 1; k <= n; k++) {
        int len = 0;
        for (int q = nd[k].dlink; q != k; q = nd[q].dlink) {
            if (q <= n || q >= s->n_nodes || nd[q].top != k || nd[nd[q].dlink].ulink != q || ++len > s->n_nodes)
                return PyErr_Format(PyExc_RuntimeError, "vertical list of item %d broken at node %d", k, q);
        }
        if (nd[nd[k].dlink].ulink != k || len != nd[k].top % COVERED_MARK)
            return PyErr_Format(PyExc_RuntimeError, "item %d has %d nodes but LEN %d", k, len, nd[k].top);
    }
    Py_RETURN_NONE;
}

static PyMethodDef search_methods[] = {
    {"sanity", (PyCFunction)search_sanity, METH_NOARGS, "Check every link and length (None, or RuntimeError)."},
    {"count", (PyCFunction)search_count, METH_VARARGS | METH_KEYWORDS,
     "Run to the end (or the limit, or max_nodes nodes in all); return the count so far."},
    {"next_batch", (PyCFunction)search_next_batch, METH_VARARGS | METH_KEYWORDS,
     "Up to size more solutions (fewer when max_nodes nodes in all are reached first)."},
    {"stop", (PyCFunction)search_stop, METH_NOARGS, "Make the current and later runs return unfinished."},
    {"batch", (PyCFunction)search_batch, METH_VARARGS,
     "Per puzzle (forced options): solutions up to cap and the first one's other options."},
    {"degree", (PyCFunction)search_degree, METH_NOARGS, "Branching degree at the end of the path."},
    {"share_memo", (PyCFunction)search_share_memo, METH_O, "Count with another search's memo."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef search_getset[] = {
    {"nodes", (getter)search_get_nodes, NULL, "Search tree nodes visited so far.", NULL},
    {"updates", (getter)search_get_updates, NULL, "Link updates made so far.", NULL},
    {"solutions_found", (getter)search_get_count, NULL, "Solutions found so far.", NULL},
    {"done", (getter)search_get_done, NULL, "True once the search is over.", NULL},
    {"fraction_done", (getter)search_get_fraction, NULL, "Estimated fraction of the search done.", NULL},
    {"memo_hits", (getter)search_get_memo_hits, NULL, "Subtrees counted from the memo.", NULL},
    {"memo_slots", (getter)search_get_memo_slots, NULL, "Entries of the count memo (0: none).", NULL},
    {"layout", (getter)search_get_layout, NULL, "How counts search: 'bitsets' or 'links' (dancing links).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "dlx_latin.exact_cover._kernel.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One resumable run of Algorithm C over a problem given as option arrays.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)search_init,
    .tp_dealloc = (destructor)search_dealloc,
    .tp_methods = search_methods,
    .tp_getset = search_getset,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel",
                                    "Exact cover with colors (Knuth's Algorithm C) in C.", -1, NULL};

PyMODINIT_FUNC PyInit__kernel(void)
{
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) { Py_DECREF(m); return NULL; }
    if (PyModule_AddObject(m, "MAX_MEMO_SLOTS", PyLong_FromUnsignedLongLong(MEMO_MAX_SLOTS)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
