/*
 * dancing_cells.c -- a measured prototype, not part of the product: the raw count of an exact-cover problem
 * (primary items only) with Knuth's "dancing cells" layout (sparse sets, as in his SSXC programs) instead of
 * the kernel's node table, to see whether the layout alone would make the raw search faster.
 *
 * Each item keeps its options' nodes in a segment of SET; the first SIZE(i) are the active ones.  Hiding a
 * node swaps it with the last active node of its item and shrinks SIZE: nothing is relinked, and undoing
 * is restoring sizes, kept on a trail (an item's size is saved the first time a branch changes it).  The
 * active items form a sparse set too.  Branching is on the first active item with the fewest options,
 * stopping at one with at most one, as the kernel does.
 *
 * Input (benchmarks/dancing_cells.py writes it): "N1 N2 OPTIONS", then one line of item numbers (1..N1)
 * per option.  Output: count, nodes, updates and the search's time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { int item, loc; } cell;    /* a node: its item (<= 0: a spacer) and its place in SET */

int main(int argc, char **argv)
{
    FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
    int n1, n2, n_options;
    if (!f || fscanf(f, "%d %d %d\n", &n1, &n2, &n_options) != 3 || n2 != 0) return 2;
    cell *nd = malloc((1 << 22) * sizeof(cell));
    int *len = calloc(n1 + 2, sizeof(int)), p = 0;
    nd[p++].item = 0;                      /* a leading spacer */
    char line[4096];
    for (int k = 0; k < n_options; k++) {
        if (!fgets(line, sizeof line, f)) return 2;
        int first = p, v, used;
        for (char *s = line; sscanf(s, "%d%n", &v, &used) == 1; s += used) { nd[p].item = v; len[v]++; p++; }
        nd[p++].item = -first;             /* a spacer: minus the first node of the option before it */
    }
    int n_nodes = p;
    int *base = malloc((n1 + 2) * sizeof(int)), *size = malloc((n1 + 2) * sizeof(int));
    int *set = malloc(n_nodes * sizeof(int));
    for (int i = 1, at = 0; i <= n1; i++) { base[i] = at; size[i] = 0; at += len[i]; }
    for (int x = 0; x < n_nodes; x++)
        if (nd[x].item > 0) { int i = nd[x].item; nd[x].loc = base[i] + size[i]; set[base[i] + size[i]++] = x; }
    int *act = malloc((n1 + 1) * sizeof(int)), *apos = malloc((n1 + 2) * sizeof(int)), n_active = n1;
    for (int k = 0; k < n1; k++) { act[k] = k + 1; apos[k + 1] = k; }
    int depth = n1 + 2;
    int *trail = malloc((size_t)depth * 2 * (n1 + 1) * sizeof(int));  /* (item, size) pairs */
    int *trail_at = malloc(depth * sizeof(int)), *active_at = malloc(depth * sizeof(int));
    int *item_at = malloc(depth * sizeof(int)), *branch_at = malloc(depth * sizeof(int));
    unsigned *stamp = calloc(n1 + 2, sizeof(unsigned)), branch_id = 0;
    int tp = 0, l = 0, i = 0, t;
    uint64_t count = 0, nodes = 0, updates = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);

enter:
    if (n_active == 0) { count++; goto leave; }
    nodes++;
    {
        int best = 1 << 30;
        trail_at[l] = tp; active_at[l] = n_active;
        for (int k = 0; k < n_active; k++) {
            int it = act[k], sz = size[it];
            if (sz < best) { best = sz; i = it; if (sz <= 1) break; }
        }
        item_at[l] = i;
        if (best == 0) goto leave;
        t = 0;
    }
try:
    {
        int x = set[base[i] + t], q = x;
        branch_id++;
        do {                               /* the option's items leave the active set */
            int j = nd[q].item;
            if (j <= 0) { q = -j; continue; }
            int pj = apos[j], last = act[--n_active];
            act[pj] = last; apos[last] = pj; act[n_active] = j; apos[j] = n_active;
            q++;
        } while (q != x);
        q = x;
        do {                               /* every other option of those items is hidden */
            int j = nd[q].item;
            if (j <= 0) { q = -j; continue; }
            for (int k = base[j], e = base[j] + size[j]; k < e; k++) {
                int r = set[k];
                if (r == q) continue;
                for (int u = r + 1; u != r;) {
                    int m = nd[u].item;
                    if (m <= 0) { u = -m; continue; }
                    if (apos[m] < n_active) {
                        if (stamp[m] != branch_id) { stamp[m] = branch_id; trail[tp++] = m; trail[tp++] = size[m]; }
                        int pos = nd[u].loc, last = base[m] + --size[m], w = set[last];
                        set[pos] = w; nd[w].loc = pos; set[last] = u; nd[u].loc = last;
                        updates++;
                    }
                    u++;
                }
            }
            q++;
        } while (q != x);
        branch_at[l] = t;
        l++;
        goto enter;
    }
leave:
    if (l == 0) goto done;
    l--;
    i = item_at[l];
    n_active = active_at[l];
    while (tp > trail_at[l]) { tp -= 2; size[trail[tp]] = trail[tp + 1]; }
    t = branch_at[l] + 1;
    if (t < size[i]) goto try;
    goto leave;
done:
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("count %llu nodes %llu updates %llu time %.3f\n", (unsigned long long)count,
           (unsigned long long)nodes, (unsigned long long)updates,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    return 0;
}
