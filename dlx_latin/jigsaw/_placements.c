/*
 * Jigsaw Latin squares of a cover, counted by label placements, and summed over every cover of a square.
 *
 * In a Latin square whose regions also hold every label once, the cells of one label form a placement: one
 * cell in each row, each column and each region.  A square is a partition of the cells into n placements,
 * and its labels are fixed by the first row (the placement through (0, c) takes the label of column c), so
 * the squares are n! times the partitions.  The placements of a cover are listed (a permutation of the
 * columns, row by row, meeting each region once), grouped by their cell in row 0 and stored as bitsets
 * whose groups start on word boundaries; `conflict[p]` holds the placements meeting placement p.
 *
 * The partitions are counted placement by placement, live meaning disjoint from those chosen: through the
 * cell with fewest live placements (each placement takes one group, by its cell in row 0).  With five left,
 * only the HINT cells with fewest placements at six are looked at: the counts change little in one step, and
 * looking at every cell cost more than the search it saved.  A state is the set of covered cells, and its
 * count is remembered from five groups left upwards (from four on covers with many placements, where they
 * repeat: those with several whole rows as regions).  The last groups need no search: the cells left by k
 * placements hold k cells in each row, column and region, so whatever one cell in each row, column and
 * region of them is itself a placement.  With two groups left the count is the live placements of one group
 * (the other takes the rest); with three it is the disjoint pairs of live placements from two groups, with
 * four the triples from three, counted straight from the branch with five left.
 *
 * `covers` walks the covers of the square by tiles (the first uncovered cell starts the next tile, so the
 * regions come lettered by first appearance), keeps one cover per orbit of the square's 8 symmetries (the
 * least region string among its images) and adds its squares times its orbit's size.  Each tile laid is
 * checked at once: a symmetry mapping the tiles laid so far to a lesser string (on the cells laid in both)
 * ends the branch, and one mapping them to a greater string is not looked at again below it.  Most covers
 * are not the least of their orbit, and most of those are known so after their first few tiles.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../u128.h"

#define MAX_N 8
#define MAX_WORDS 80 /* words of one group: (MAX_N - 1)! placements, padded */
#define HINT 6 /* cells looked at with five placements left: those with fewest placements at six */
#define CHECK_EVERY 65536 /* steps of the walk between two looks for Ctrl-C */
#define MEMO_FOUR_FROM 1600 /* placements from which states with four left repeat enough to remember them */

typedef struct {
    int n, words;               /* words: bitset length, each group padded to whole words */
    int lo[MAX_N], hi[MAX_N];   /* the words of each group (placements through (0, g)) */
    uint64_t *cells;            /* cells[p]: the cells of placement p (0 for padding) */
    uint64_t *through;          /* cells x words: the placements through each cell */
    uint64_t *conflict;         /* words x words-per-placement: placements meeting p, p included */
    uint64_t *alive;            /* scratch: one bitset per depth */
    uint64_t *keys, *values, mask, used; /* the memo: covered cells (complemented, never 0) -> count */
    uint64_t below;             /* the cells outside row 0 */
    int memo_four;              /* remember states with four placements left too (many placements) */
    int placements;             /* the cover's placements */
    int failed;
} Squares;

static inline uint64_t hash64(uint64_t x)
{
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return x;
}

/* Append every placement extending rows 0..r-1 to `out`: `open[i]` holds the columns of row i still free
 * (column and region unused), and a row left with none ends the branch. */
static void list_placements(const int8_t *region, const uint32_t (*in_region)[MAX_N], int n, int r,
                            const uint32_t *open, uint64_t cells, uint64_t *out, int *count)
{
    if (r == n) { out[(*count)++] = cells; return; }
    for (uint32_t free = open[r]; free; free &= free - 1) {
        int c = __builtin_ctz(free), g = region[r * n + c], dead = 0;
        uint32_t next[MAX_N] = {0};
        for (int i = r + 1; i < n; i++)  /* column c and the region of (r, c) are taken */
            dead |= !(next[i] = open[i] & ~(1u << c | in_region[i][g]));
        if (!dead) list_placements(region, in_region, n, r + 1, next, cells | 1ULL << (r * n + c), out,
                                   count);
    }
}

static void release(Squares *s)
{
    free(s->cells); free(s->through); free(s->conflict); free(s->alive); free(s->keys); free(s->values);
    memset(s, 0, sizeof *s);
}

/* The placements of a cover (regions 0..n-1 per cell, row-major) and their conflicts; 0 when out of memory.
 * Leaves s->words 0 when the cover has no placement through some cell of row 0 (no square at all). */
static int prepare(Squares *s, const int8_t *region, int n)
{
    int factorial = 1, found = 0;
    for (int i = 2; i <= n; i++) factorial *= i;
    uint64_t *listed = malloc(factorial * sizeof *listed);
    if (!listed) return 0;
    uint32_t in_region[MAX_N][MAX_N] = {{0}}, open[MAX_N] = {0}; /* the columns of row r in region g */
    for (int c = 0; c < n * n; c++) in_region[c / n][region[c]] |= 1u << (c % n);
    for (int r = 0; r < n; r++) open[r] = (1u << n) - 1;
    list_placements(region, (const uint32_t(*)[MAX_N])in_region, n, 0, open, 0, listed, &found);
    s->n = n;
    int at = 0, j = 0, empty = 0;
    for (int g = 0; g < n; g++) {  /* listed in order of their column in row 0 */
        s->lo[g] = at / 64;
        while (j < found && (listed[j] & ((1ULL << n) - 1)) == 1ULL << g) at++, j++;
        s->hi[g] = (at + 63) / 64;
        if (s->hi[g] == s->lo[g]) empty = 1;
        at = s->hi[g] * 64;
    }
    int words = at / 64;
    s->cells = calloc(at ? at : 1, sizeof *s->cells);
    s->conflict = calloc((size_t)(at ? at : 1) * (words ? words : 1), sizeof *s->conflict);
    s->alive = calloc((size_t)(n + 1) * (words ? words : 1), sizeof *s->alive);
    uint64_t *through = s->through = calloc((size_t)n * n * (words ? words : 1), sizeof *through);
    if (!s->cells || !s->conflict || !s->alive || !through) { free(listed); return 0; }
    at = j = 0;
    for (int g = 0; g < n; g++) {
        at = s->lo[g] * 64;
        while (j < found && (listed[j] & ((1ULL << n) - 1)) == 1ULL << g) s->cells[at++] = listed[j++];
    }
    free(listed);
    if (empty) { s->words = 0; return 1; }
    s->words = words;
    s->memo_four = found > MEMO_FOUR_FROM;
    s->placements = found;
    s->below = (n * n == 64 ? UINT64_MAX : (1ULL << (n * n)) - 1) & ~((1ULL << n) - 1);
    for (int p = 0; p < words * 64; p++)
        for (uint64_t m = s->cells[p]; m; m &= m - 1)
            through[(size_t)__builtin_ctzll(m) * words + p / 64] |= 1ULL << (p % 64);
    for (int p = 0; p < words * 64; p++) {
        if (!s->cells[p]) continue;  /* padding: meets nothing */
        const uint64_t *t[MAX_N];
        int i = 0;
        for (uint64_t m = s->cells[p]; m; m &= m - 1) t[i++] = through + (size_t)__builtin_ctzll(m) * words;
        uint64_t *meets = s->conflict + (size_t)p * words;
        for (int w = 0; w < words; w++) {
            uint64_t v = 0;
            for (int j = 0; j < n; j++) v |= t[j][w];
            meets[w] = v;
        }
        s->alive[p / 64] |= 1ULL << (p % 64);
    }
    return 1;
}

static int grow(Squares *s)
{
    uint64_t slots = s->keys ? 2 * (s->mask + 1) : 1 << 12;
    uint64_t *keys = calloc(slots, sizeof *keys), *values = malloc(slots * sizeof *values);
    if (!keys || !values) { free(keys); free(values); s->failed = 1; return 0; }
    for (uint64_t i = 0; s->keys && i <= s->mask; i++) {
        if (!s->keys[i]) continue;
        uint64_t h = hash64(s->keys[i]) & (slots - 1);
        while (keys[h]) h = (h + 1) & (slots - 1);
        keys[h] = s->keys[i]; values[h] = s->values[i];
    }
    free(s->keys); free(s->values);
    s->keys = keys; s->values = values; s->mask = slots - 1;
    return 1;
}

/* The counting, compiled twice on x86: with the POPCNT instruction, used where the processor has it, and
 * without. */
#define COUNTER(SUFFIX, ATTRIBUTE)                                                                        \
    ATTRIBUTE static inline int live_##SUFFIX(const Squares *s, const uint64_t *alive, int g)             \
    {                                                                                                     \
        int c = 0;                                                                                        \
        for (int w = s->lo[g]; w < s->hi[g]; w++) c += __builtin_popcountll(alive[w]);                    \
        return c;                                                                                         \
    }                                                                                                     \
    /* Four placements left: the disjoint triples of live placements from groups a, b and d (the          \
     * fourth group takes the cells they leave).  A placement p of a and q of b add the placements of d   \
     * meeting neither; d has one or two words in most covers, and those widths get their own loops. */   \
    ATTRIBUTE static uint64_t triples_##SUFFIX(const Squares *s, const uint64_t *alive, int a, int b,     \
                                               int d)                                                     \
    {                                                                                                     \
        const int words = s->words, ld = s->lo[d], wd = s->hi[d] - ld;                                    \
        uint64_t total = 0;                                                                               \
        for (int w = s->lo[a]; w < s->hi[a]; w++)                                                         \
            for (uint64_t bits = alive[w]; bits; bits &= bits - 1) {                                      \
                const uint64_t *mp = s->conflict + (size_t)(w * 64 + __builtin_ctzll(bits)) * words;      \
                uint64_t f[MAX_WORDS], any = 0; /* the live placements of d that p does not meet */       \
                for (int x = 0; x < wd; x++) any |= f[x] = alive[ld + x] & ~mp[ld + x];                   \
                if (!any) continue;                                                                       \
                const uint64_t *m = s->conflict + ld; /* + q * words: the placements of d meeting q */    \
                if (wd == 1) {                                                                            \
                    for (int u = s->lo[b]; u < s->hi[b]; u++)                                             \
                        for (uint64_t q = alive[u] & ~mp[u]; q; q &= q - 1) {                             \
                            const uint64_t *mq = m + (size_t)(u * 64 + __builtin_ctzll(q)) * words;       \
                            total += (uint64_t)__builtin_popcountll(f[0] & ~mq[0]);                       \
                        }                                                                                 \
                } else if (wd == 2) {                                                                     \
                    for (int u = s->lo[b]; u < s->hi[b]; u++)                                             \
                        for (uint64_t q = alive[u] & ~mp[u]; q; q &= q - 1) {                             \
                            const uint64_t *mq = m + (size_t)(u * 64 + __builtin_ctzll(q)) * words;       \
                            total += (uint64_t)(__builtin_popcountll(f[0] & ~mq[0]) +                     \
                                                __builtin_popcountll(f[1] & ~mq[1]));                     \
                        }                                                                                 \
                } else {                                                                                  \
                    for (int u = s->lo[b]; u < s->hi[b]; u++)                                             \
                        for (uint64_t q = alive[u] & ~mp[u]; q; q &= q - 1) {                             \
                            const uint64_t *mq = m + (size_t)(u * 64 + __builtin_ctzll(q)) * words;       \
                            for (int x = 0; x < wd; x++)                                                  \
                                total += (uint64_t)__builtin_popcountll(f[x] & ~mq[x]);                   \
                        }                                                                                 \
                }                                                                                         \
            }                                                                                             \
        return total;                                                                                     \
    }                                                                                                     \
    /* The four groups left, by their live placements `count`: triples of the fewest, next and most. */   \
    ATTRIBUTE static uint64_t four_##SUFFIX(const Squares *s, const uint64_t *alive, uint32_t groups,     \
                                            const int *count)                                             \
    {                                                                                                     \
        int g[4], m = 0;                                                                                  \
        for (uint32_t r = groups; r; r &= r - 1) {                                                        \
            int h = __builtin_ctz(r), i = m++;                                                            \
            if (!count[h]) return 0;                                                                      \
            for (; i > 0 && count[g[i - 1]] > count[h]; i--) g[i] = g[i - 1];                             \
            g[i] = h;                                                                                     \
        }                                                                                                 \
        return triples_##SUFFIX(s, alive, g[0], g[1], g[3]);                                              \
    }                                                                                                     \
    /* The partitions of the cells outside `covered` into the k placements left, `alive` the live         \
     * ones; with five left, the cells to branch on are among those of `hint` (0: any). */                \
    ATTRIBUTE static uint64_t partitions_##SUFFIX(Squares *s, uint64_t covered, int k, uint64_t hint)     \
    {                                                                                                     \
        const int n = s->n, words = s->words;                                                             \
        const uint64_t *alive = s->alive + (size_t)k * words;                                             \
        uint32_t groups = (uint32_t)(~covered & ((1ULL << n) - 1));                                       \
        if (k <= 2) return (uint64_t)live_##SUFFIX(s, alive, __builtin_ctz(groups));                      \
        int best = 0, fewest = INT32_MAX, count[MAX_N];                                                   \
        for (uint32_t r = groups; r; r &= r - 1) {                                                        \
            int g = __builtin_ctz(r), c = count[g] = live_##SUFFIX(s, alive, g);                          \
            if (c < fewest) fewest = c, best = g;                                                         \
        }                                                                                                 \
        if (!fewest) return 0;                                                                            \
        uint64_t total = 0;                                                                               \
        if (k == 3) { /* pairs: a live placement of `best`, one of `other` that it does not meet */       \
            int other = __builtin_ctz(groups & ~(1u << best));                                            \
            for (int w = s->lo[best]; w < s->hi[best]; w++)                                               \
                for (uint64_t b = alive[w]; b; b &= b - 1) {                                              \
                    const uint64_t *meets = s->conflict + (size_t)(w * 64 + __builtin_ctzll(b)) * words;  \
                    for (int u = s->lo[other]; u < s->hi[other]; u++)                                     \
                        total += (uint64_t)__builtin_popcountll(alive[u] & ~meets[u]);                    \
                }                                                                                         \
            return total;                                                                                 \
        }                                                                                                 \
        if (k == 4 && !s->memo_four) return four_##SUFFIX(s, alive, groups, count);                       \
        uint64_t key = ~covered, h = hash64(key) & s->mask;                                               \
        for (; s->keys[h]; h = (h + 1) & s->mask)                                                         \
            if (s->keys[h] == key) return s->values[h];                                                   \
        if (k == 4) {                                                                                     \
            total = four_##SUFFIX(s, alive, groups, count);                                               \
            goto remember;                                                                                \
        }                                                                                                 \
        /* branch on the cell with fewest live placements through it, in row 0 or not */                  \
        int x = best, m = 0, scanned[MAX_N * MAX_N]; /* (count << 8 | cell) of the cells outside row 0 */ \
        for (uint64_t r = ~covered & s->below & (k == 5 && hint ? hint : ~0ULL); r; r &= r - 1) {         \
            int y = __builtin_ctzll(r), c = 0;                                                            \
            const uint64_t *t = s->through + (size_t)y * words;                                           \
            for (uint32_t gs = groups; gs; gs &= gs - 1)                                                  \
                for (int u = s->lo[__builtin_ctz(gs)]; u < s->hi[__builtin_ctz(gs)]; u++)                 \
                    c += __builtin_popcountll(alive[u] & t[u]);                                           \
            scanned[m++] = c << 8 | y;                                                                    \
            if (c < fewest) fewest = c, x = y;                                                            \
        }                                                                                                 \
        if (!fewest) return 0;                                                                            \
        uint64_t pass = 0; /* with six left, the children look at the HINT cells with fewest here only */ \
        for (int i = 0; k == 6 && i < HINT && i < m; i++) {                                               \
            int least = i;                                                                                \
            for (int j = i + 1; j < m; j++)                                                               \
                if (scanned[j] < scanned[least]) least = j;                                               \
            int t = scanned[i];                                                                           \
            scanned[i] = scanned[least], scanned[least] = t;                                              \
            pass |= 1ULL << (scanned[i] & 255);                                                           \
        }                                                                                                 \
        const uint64_t *tx = s->through + (size_t)x * words;                                              \
        uint64_t *next = s->alive + (size_t)(k - 1) * words;                                              \
        const int direct = k == 5 && !s->memo_four; /* count the four left here, live counts as made */   \
        for (uint32_t gp = groups; gp; gp &= gp - 1)                                                      \
            for (int w = s->lo[__builtin_ctz(gp)]; w < s->hi[__builtin_ctz(gp)]; w++)                     \
                for (uint64_t b = alive[w] & tx[w]; b; b &= b - 1) {                                      \
                    int p = w * 64 + __builtin_ctzll(b);                                                  \
                    const uint64_t *meets = s->conflict + (size_t)p * words;                              \
                    uint32_t left = groups & ~(uint32_t)s->cells[p]; /* p's group is covered */           \
                    for (uint32_t gs = left; gs; gs &= gs - 1) {                                          \
                        int g = __builtin_ctz(gs), c = 0;                                                 \
                        for (int u = s->lo[g]; u < s->hi[g]; u++)                                         \
                            c += __builtin_popcountll(next[u] = alive[u] & ~meets[u]);                    \
                        count[g] = c; /* used when direct; the child counts again otherwise */            \
                    }                                                                                     \
                    if (direct) total += four_##SUFFIX(s, next, left, count);                             \
                    else total += partitions_##SUFFIX(s, covered | s->cells[p], k - 1, pass);             \
                    if (s->failed) return 0;                                                              \
                }                                                                                         \
    remember:                                                                                             \
        if (2 * (s->used + 1) > s->mask + 1 && !grow(s)) return 0;                                        \
        for (h = hash64(key) & s->mask; s->keys[h]; h = (h + 1) & s->mask) {}                             \
        s->keys[h] = key; s->values[h] = total; s->used++;                                                \
        return total;                                                                                     \
    }

#if defined(__x86_64__) || defined(__i386__)
COUNTER(popcnt, __attribute__((target("popcnt"))))
#endif
COUNTER(any, )

/* The partitions of a prepared cover (the squares with row 0 in order); sets s->failed when out of memory. */
static uint64_t partitions(Squares *s)
{
    if (!s->words) return 0;
    if (!grow(s)) return 0;  /* a fresh memo per cover */
    /* the alive bitset of depth n is the initial one (prepare fills the first words; move it there) */
    if (s->n) memmove(s->alive + (size_t)s->n * s->words, s->alive, s->words * sizeof *s->alive);
#if defined(__x86_64__) || defined(__i386__)
    static int has_popcnt = -1;
    if (has_popcnt < 0) has_popcnt = __builtin_cpu_supports("popcnt") ? 1 : 0;
    if (has_popcnt) return partitions_popcnt(s, 0, s->n, 0);
#endif
    return partitions_any(s, 0, s->n, 0);
}

static u128 factorial(int n)
{
    u128 f = 1;
    for (int i = 2; i <= n; i++) f *= (u128)i;
    return f;
}

/* Covers met again: a cover's squares are those of any cover it maps to by permuting rows, permuting
 * columns, transposing or renaming regions, and many covers of one walk are such images of each other (a
 * cover with whole rows as regions, those rows anywhere).  Such a cover is named by a key: rows and
 * columns are coloured, KEY_ROUNDS times, by what they meet (a row by the regions it meets, with their
 * colours, their cells in it and the colours of those cells' columns; a region by the colours of its rows
 * and columns, with its cells in each), sorted by colour (ties in their order), the regions renamed by
 * first appearance; the lesser of the cover's and its transpose's.  Two covers with one key are images of
 * each other, so the memo is exact; an image sorted differently on a tie is only a miss.  The covers with
 * at least MEMO_FROM placements are remembered (the others count faster than they are looked up), in one
 * table per process, kept across walks of the same order, of at most MEMO_SLOTS slots. */
#define KEY_ROUNDS 3
#define MEMO_FROM 200
#define MEMO_SLOTS (1u << 24) /* 512 MB at most */

typedef struct { uint64_t w[3]; } CoverKey; /* 3 bits per cell, 21 cells a word; bit 63 of w[0]: in use */

static struct {
    CoverKey *keys;
    uint64_t *values, mask, used, hits, misses;
    int order;
    pthread_mutex_t lock;
} memo = {NULL, NULL, 0, 0, 0, 0, 0, PTHREAD_MUTEX_INITIALIZER};

static inline uint64_t mix(uint64_t a, uint64_t b) { return hash64(a * 0x9e3779b97f4a7c15ULL ^ b); }

static CoverKey cover_key(const int8_t *region, int n)
{
    CoverKey best = {{0, 0, 0}};
    for (int t = 0; t < 2; t++) {
        int8_t g[MAX_N][MAX_N];
        int in_row[MAX_N][MAX_N] = {{0}}, in_col[MAX_N][MAX_N] = {{0}}; /* [region][line]: its cells */
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                g[i][j] = t ? region[j * n + i] : region[i * n + j];
                in_row[g[i][j]][i]++, in_col[g[i][j]][j]++;
            }
        uint64_t row[MAX_N] = {0}, col[MAX_N] = {0}, colour[MAX_N] = {0};
        for (int round = 0; round < KEY_ROUNDS; round++) {
            uint64_t next_row[MAX_N], next_col[MAX_N];
            for (int line = 0; line < n; line++) {
                uint64_t by_row[MAX_N] = {0}, by_col[MAX_N] = {0}, r = 0, c = 0;
                for (int x = 0; x < n; x++) {
                    by_row[g[line][x]] += hash64(col[x] + 1); /* row `line` meets column x there */
                    by_col[g[x][line]] += hash64(row[x] + 2);
                }
                for (int h = 0; h < n; h++) {
                    if (in_row[h][line]) r += mix(colour[h], by_row[h] + (uint64_t)in_row[h][line]);
                    if (in_col[h][line]) c += mix(colour[h], by_col[h] + (uint64_t)in_col[h][line]);
                }
                next_row[line] = hash64(r + 3), next_col[line] = hash64(c + 4);
            }
            for (int h = 0; h < n; h++) {
                uint64_t v = 0;
                for (int line = 0; line < n; line++) {
                    if (in_row[h][line]) v += mix(row[line], (uint64_t)in_row[h][line]);
                    if (in_col[h][line]) v += mix(col[line] + 5, (uint64_t)in_col[h][line]);
                }
                colour[h] = hash64(v + 6);
            }
            memcpy(row, next_row, sizeof row), memcpy(col, next_col, sizeof col);
        }
        int by_r[MAX_N], by_c[MAX_N];
        for (int a = 0; a < n; a++) { /* insertion sorts, stable */
            int i = a, j = a;
            for (; i > 0 && row[by_r[i - 1]] > row[a]; i--) by_r[i] = by_r[i - 1];
            by_r[i] = a;
            for (; j > 0 && col[by_c[j - 1]] > col[a]; j--) by_c[j] = by_c[j - 1];
            by_c[j] = a;
        }
        int8_t name[MAX_N];
        memset(name, -1, sizeof name);
        int named = 0, cell = 0;
        CoverKey k = {{1ULL << 63, 0, 0}};
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++, cell++) {
                int h = g[by_r[a]][by_c[b]];
                if (name[h] < 0) name[h] = (int8_t)named++;
                k.w[cell / 21] |= (uint64_t)name[h] << (3 * (cell % 21));
            }
        if (!t || memcmp(&k, &best, sizeof k) < 0) best = k;
    }
    return best;
}

static inline uint64_t key_slot(const CoverKey *k)
{
    return hash64(k->w[0] ^ hash64(k->w[1] ^ hash64(k->w[2])));
}

/* The remembered partitions of the cover keyed `k` of order n, or -1 when not known (the table is emptied
 * for a new order). */
static int64_t recall(const CoverKey *k, int n)
{
    int64_t found = -1;
    pthread_mutex_lock(&memo.lock);
    if (memo.order != n) {
        free(memo.keys), free(memo.values);
        memo.keys = NULL, memo.values = NULL, memo.mask = memo.used = 0, memo.order = n;
    }
    for (uint64_t h = key_slot(k) & memo.mask; memo.keys && memo.keys[h].w[0]; h = (h + 1) & memo.mask)
        if (!memcmp(&memo.keys[h], k, sizeof *k)) { found = (int64_t)memo.values[h]; break; }
    if (found < 0) memo.misses++;
    else memo.hits++;
    pthread_mutex_unlock(&memo.lock);
    return found;
}

/* Remember the partitions of the cover keyed `k`, unless the table is full (or memory short: a miss). */
static void remember(const CoverKey *k, int n, uint64_t partitions)
{
    pthread_mutex_lock(&memo.lock);
    /* memo.order is checked again: a thread counting another order may have emptied the memo for its own
     * order since this thread's recall. */
    if (memo.order == n && 2 * (memo.used + 1) > memo.mask + 1 && memo.mask + 1 < MEMO_SLOTS) {
        uint64_t slots = memo.keys ? 2 * (memo.mask + 1) : 1 << 12, mask = slots - 1;
        CoverKey *keys = calloc(slots, sizeof *keys);
        uint64_t *values = malloc(slots * sizeof *values);
        if (keys && values) {
            for (uint64_t i = 0; memo.keys && i <= memo.mask; i++) {
                if (!memo.keys[i].w[0]) continue;
                uint64_t h = key_slot(&memo.keys[i]) & mask;
                while (keys[h].w[0]) h = (h + 1) & mask;
                keys[h] = memo.keys[i], values[h] = memo.values[i];
            }
            free(memo.keys), free(memo.values);
            memo.keys = keys, memo.values = values, memo.mask = mask;
        } else {
            free(keys), free(values);
        }
    }
    if (memo.order == n && memo.keys && 2 * (memo.used + 1) <= memo.mask + 1) {
        uint64_t h = key_slot(k) & memo.mask;
        while (memo.keys[h].w[0] && memcmp(&memo.keys[h], k, sizeof *k)) h = (h + 1) & memo.mask;
        if (!memo.keys[h].w[0]) memo.used++;
        memo.keys[h] = *k, memo.values[h] = partitions;
    }
    pthread_mutex_unlock(&memo.lock);
}

/* The squares of one cover, looked up in the memo first when `recalled` (a walk's covers); -1 when out of
 * memory. */
static int cover_squares(const int8_t *region, int n, int recalled, u128 *found)
{
    Squares s = {0};
    int ok = prepare(&s, region, n);
    uint64_t parts = 0;
    if (ok && s.words) {
        int keyed = recalled && n * n <= 63 && s.placements >= MEMO_FROM;
        CoverKey k;
        int64_t known = -1;
        if (keyed) k = cover_key(region, n), known = recall(&k, n);
        if (known >= 0) {
            parts = (uint64_t)known;
        } else {
            parts = partitions(&s);
            ok = !s.failed;
            if (ok && keyed) remember(&k, n, parts);
        }
    }
    release(&s);
    *found = (u128)parts * factorial(n);
    return ok ? 0 : -1;
}

static int parse_regions(PyObject *regions, int n, int8_t *region)
{
    Py_ssize_t length = PySequence_Length(regions);
    if (length < 0) return -1;
    if (length != (Py_ssize_t)n * n) {
        PyErr_Format(PyExc_ValueError, "a cover of order %d has %d cells, not %zd", n, n * n, length);
        return -1;
    }
    int size[MAX_N] = {0};
    for (Py_ssize_t c = 0; c < length; c++) {
        PyObject *item = PySequence_GetItem(regions, c);
        if (!item) return -1;
        long g = PyLong_AsLong(item);
        Py_DECREF(item);
        if (g == -1 && PyErr_Occurred()) return -1;
        if (g < 0 || g >= n) {
            PyErr_Format(PyExc_ValueError, "cell %zd is in region %ld, outside 0..%d", c, g, n - 1);
            return -1;
        }
        region[c] = (int8_t)g;
        size[g]++;
    }
    for (int g = 0; g < n; g++)
        if (size[g] != n) {
            PyErr_Format(PyExc_ValueError, "region %d has %d cells, not %d", g, size[g], n);
            return -1;
        }
    return 0;
}

static PyObject *py_squares(PyObject *self, PyObject *args)
{
    int n;
    PyObject *regions;
    if (!PyArg_ParseTuple(args, "iO", &n, &regions)) return NULL;
    if (n < 1 || n > MAX_N) return PyErr_Format(PyExc_ValueError, "order %d outside 1..%d", n, MAX_N);
    int8_t region[MAX_N * MAX_N];
    if (parse_regions(regions, n, region) < 0) return NULL;
    u128 found;
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = cover_squares(region, n, 0, &found);
    Py_END_ALLOW_THREADS
    if (failed) return PyErr_NoMemory();
    return u128_to_pylong(found);
}

static PyObject *py_key(PyObject *self, PyObject *args)
{
    int n;
    PyObject *regions;
    if (!PyArg_ParseTuple(args, "iO", &n, &regions)) return NULL;
    if (n < 1 || n * n > 63) return PyErr_Format(PyExc_ValueError, "covers are keyed up to order 7, not %d", n);
    int8_t region[MAX_N * MAX_N];
    if (parse_regions(regions, n, region) < 0) return NULL;
    CoverKey k = cover_key(region, n);
    k.w[0] &= ~(1ULL << 63);
    PyObject *result = PyLong_FromUnsignedLongLong(k.w[2]), *shift = PyLong_FromLong(63);
    for (int i = 1; i >= 0 && result && shift; i--) { /* result << 63 | w[i] */
        PyObject *moved = PyNumber_Lshift(result, shift), *word = PyLong_FromUnsignedLongLong(k.w[i]);
        Py_DECREF(result);
        result = moved && word ? PyNumber_Or(moved, word) : NULL;
        Py_XDECREF(moved), Py_XDECREF(word);
    }
    Py_XDECREF(shift);
    return result;
}

static PyObject *py_memo(PyObject *self, PyObject *args)
{
    int forget = 0;
    if (!PyArg_ParseTuple(args, "|p", &forget)) return NULL;
    pthread_mutex_lock(&memo.lock);
    unsigned long long used = memo.used, hits = memo.hits, misses = memo.misses;
    if (forget) {
        free(memo.keys), free(memo.values);
        memo.keys = NULL, memo.values = NULL, memo.mask = memo.used = memo.hits = memo.misses = 0;
    }
    pthread_mutex_unlock(&memo.lock);
    return Py_BuildValue("KKK", used, hits, misses);
}

typedef struct {
    int n, cells;
    uint64_t full;
    uint64_t **tiles; int *ntiles;   /* tiles[c]: the tiles whose first cell is c */
    int transforms[8][MAX_N * MAX_N]; /* inverse images: cell d of an image comes from cell inverse[d] */
    int8_t owner[MAX_N * MAX_N];
    u128 squares;                     /* squares times orbit sizes, over the canonical covers */
    uint64_t covers, orbits, walked;
    int identities;                   /* the transforms fixing every cell, never compared */
    PyThreadState *thread;
    int failed;                       /* 1: out of memory, 2: a signal */
} Walk;

/* The symmetries of `live` that may still map the laid tiles (the cells of `covered`, w->owner) to a region
 * string no greater than theirs, or -1 when one maps them to a lesser one: no cover completing them is then
 * the least of its orbit.  The strings are compared from cell 0 on, as far as the cell and the cell it comes
 * from are both laid; a symmetry whose image is already greater is dropped for every cover below.  On a
 * whole cover, the symmetries left are those fixing it. */
static int standing(const Walk *w, uint64_t covered, int live)
{
    for (int rest = live; rest; rest &= rest - 1) {
        const int t = __builtin_ctz(rest), *from = w->transforms[t];
        int8_t name[MAX_N];
        memset(name, -1, sizeof name);
        int named = 0;
        for (int d = 0; d < w->cells && (covered >> from[d] & covered >> d & 1); d++) {
            int g = w->owner[from[d]];
            if (name[g] < 0) name[g] = (int8_t)named++;
            if (name[g] != w->owner[d]) {
                if (name[g] < w->owner[d]) return -1;
                live &= ~(1 << t);
                break;
            }
        }
    }
    return live;
}

/* Lays tiles from the first uncovered cell on, `live` the symmetries (other than the identity) still to
 * compare with the tiles laid, as `standing` leaves them: on a whole cover, those fixing it. */
static void walk(Walk *w, uint64_t covered, int next, int live)
{
    if (++w->walked % CHECK_EVERY == 0) {
        PyEval_RestoreThread(w->thread);
        if (PyErr_CheckSignals() < 0) w->failed = 2;
        w->thread = PyEval_SaveThread();
    }
    if (w->failed) return;
    if (covered == w->full) {
        int orbit = 8 / (w->identities + __builtin_popcount(live));
        w->orbits++;
        w->covers += orbit;
        u128 found;
        if (cover_squares(w->owner, w->n, 1, &found) < 0) { w->failed = 1; return; }
        w->squares += (u128)orbit * found;
        return;
    }
    int c = __builtin_ctzll(~covered);
    for (int i = 0; i < w->ntiles[c]; i++) {
        uint64_t tile = w->tiles[c][i];
        if (tile & covered) continue;
        for (uint64_t m = tile; m; m &= m - 1) w->owner[__builtin_ctzll(m)] = (int8_t)next;
        int left = standing(w, covered | tile, live);
        if (left >= 0) walk(w, covered | tile, next + 1, left);
    }
}

static PyObject *py_covers(PyObject *self, PyObject *args)
{
    int n;
    PyObject *by_first, *transforms, *prefix;
    if (!PyArg_ParseTuple(args, "iOOO", &n, &by_first, &transforms, &prefix)) return NULL;
    if (n < 1 || n > MAX_N) return PyErr_Format(PyExc_ValueError, "order %d outside 1..%d", n, MAX_N);
    Walk w = {0};
    w.n = n; w.cells = n * n;
    w.full = w.cells == 64 ? UINT64_MAX : (1ULL << w.cells) - 1;
    PyObject *result = NULL;
    if (PySequence_Length(by_first) != w.cells || PySequence_Length(transforms) != 8) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "tiles under each of the n*n cells, and 8 transforms");
        return NULL;
    }
    for (int t = 0; t < 8; t++) {
        PyObject *image = PySequence_GetItem(transforms, t);
        if (!image) return NULL;
        int seen[MAX_N * MAX_N] = {0}, bad = PySequence_Length(image) != w.cells;
        for (int c = 0; c < w.cells && !bad; c++) {
            PyObject *item = PySequence_GetItem(image, c);
            long d = item ? PyLong_AsLong(item) : -1;
            Py_XDECREF(item);
            if (d < 0 || d >= w.cells || seen[d]) { bad = 1; break; }
            seen[d] = 1;
            w.transforms[t][d] = c;  /* cell c goes to d */
        }
        Py_DECREF(image);
        if (bad) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a transform is not a cell permutation");
            return NULL;
        }
    }
    w.tiles = calloc(w.cells, sizeof *w.tiles);
    w.ntiles = calloc(w.cells, sizeof *w.ntiles);
    if (!w.tiles || !w.ntiles) { PyErr_NoMemory(); goto done; }
    for (int c = 0; c < w.cells; c++) {
        PyObject *row = PySequence_GetItem(by_first, c);
        PyObject *fast = row ? PySequence_Fast(row, "tiles by first cell") : NULL;
        Py_XDECREF(row);
        if (!fast) goto done;
        Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
        w.tiles[c] = malloc((m ? m : 1) * sizeof(uint64_t));
        if (!w.tiles[c]) { Py_DECREF(fast); PyErr_NoMemory(); goto done; }
        for (Py_ssize_t i = 0; i < m; i++) {
            uint64_t tile = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
            if (PyErr_Occurred()) break;
            if (__builtin_popcountll(tile) != n || (tile & ~w.full) || __builtin_ctzll(tile) != c) {
                PyErr_Format(PyExc_ValueError, "tile %zd under cell %d does not hold %d cells starting there",
                             i, c, n);
                break;
            }
            w.tiles[c][w.ntiles[c]++] = tile;
        }
        Py_DECREF(fast);
        if (PyErr_Occurred()) goto done;
    }
    PyObject *fast = PySequence_Fast(prefix, "the first tiles of the covers");
    if (!fast) goto done;
    uint64_t covered = 0;
    int next = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        uint64_t tile = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) break;
        if (__builtin_popcountll(tile) != n || (tile & ~w.full) || (tile & covered) ||
            __builtin_ctzll(tile) != __builtin_ctzll(~covered)) {
            PyErr_Format(PyExc_ValueError, "prefix tile %zd does not start at the first uncovered cell", i);
            break;
        }
        for (uint64_t m = tile; m; m &= m - 1) w.owner[__builtin_ctzll(m)] = (int8_t)next;
        covered |= tile;
        next++;
    }
    Py_DECREF(fast);
    if (PyErr_Occurred()) goto done;
    int live = 0;
    for (int t = 0; t < 8; t++) {
        int moved = 0;
        for (int c = 0; c < w.cells; c++) moved |= w.transforms[t][c] != c;
        if (moved) live |= 1 << t;
        else w.identities++;
    }
    if (!w.identities) {
        PyErr_SetString(PyExc_ValueError, "the 8 transforms hold no identity");
        goto done;
    }
    w.thread = PyEval_SaveThread();
    live = standing(&w, covered, live);
    if (live >= 0) walk(&w, covered, next, live);
    PyEval_RestoreThread(w.thread);
    if (w.failed == 1) { PyErr_NoMemory(); goto done; }
    if (w.failed == 2) goto done;  /* the signal handler's exception is set */
    PyObject *squares = u128_to_pylong(w.squares);
    if (squares)
        result = Py_BuildValue("NKK", squares, (unsigned long long)w.covers, (unsigned long long)w.orbits);
done:
    for (int c = 0; w.tiles && c < w.cells; c++) free(w.tiles[c]);
    free(w.tiles); free(w.ntiles);
    return result;
}

static PyMethodDef methods[] = {
    {"squares", py_squares, METH_VARARGS,
     "squares(n, regions) -> the jigsaw Latin squares of one cover (its region 0..n-1 per cell, row-major)."},
    {"covers", py_covers, METH_VARARGS,
     "covers(n, tiles_by_first_cell, transforms, prefix) -> (squares, covers, orbits): over the covers "
     "starting with the `prefix` tiles (bitsets), the squares of one cover per orbit of the 8 `transforms` "
     "(cell c goes to image[c]) times its orbit's size, the covers of those orbits and the orbits counted."},
    {"key", py_key, METH_VARARGS,
     "key(n, regions) -> the cover's memo key (an int): equal for two covers only when one is the other's "
     "image by permuting rows and columns, transposing and renaming regions."},
    {"memo", py_memo, METH_VARARGS,
     "memo(forget=False) -> (covers remembered, hits, misses) of this process's memo; forget empties it."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_placements", NULL, -1, methods};

PyMODINIT_FUNC PyInit__placements(void) { return PyModule_Create(&module); }
