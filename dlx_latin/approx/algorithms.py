"""Haraguchi & Ono's three approximation algorithms for C-PLSE: greedy, MATCHING and local search.

- greedy: fill empty cells one at a time with any value that keeps a solution, until blocked.  A blocked
  solution is a 1/3 (null), 1/4 (sud), 1/(3+delta) (fut) or 1/(2+Delta) (bs) approximation (Thms 5-8).
- matching: value by value, a maximum matching of rows to columns over the cells that can take the value
  (1/2: Thms 9-11).  It needs a value placed at (i, j) to block other cells only in row i and column j, so
  it refuses sud and bs with blocks not inside one line.
- local search: the instance as t-set packing (elements (row, col), (row, value), (col, value) and, for
  sud, (box, value); t = 3 or 4), improved by swapping r' <= r packed sets for r' + 1 (2/t - eps, Thm
  12-14).  fut and bs have no such reduction (the paper gives them no local-search result), so it refuses
  them.
- pathwidth local search (Cygan 2013): the same swaps, but only those whose conflict graph (the added and
  the dropped sets, joined when they meet) has pathwidth at most p; that restriction is what lets r grow
  (3/(t+1) - eps: Thms 15-16).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

import numpy as np

from dlx_latin.approx.instance import Cell, Instance, State
from dlx_latin.errors import UserInputError

ALGORITHMS = ("greedy", "matching", "local-search", "pathwidth-local-search")
PATHWIDTH = 2  # the default pathwidth bound p of pathwidth local search


class NotApplicable(UserInputError):
    """The algorithm does not apply to this condition (why, in the message: the paper has no such result)."""


def greedy(inst: Instance, seed: int | None = 0) -> dict[Cell, int]:
    """A blocked solution: the empty cells in a random order, each given a random value that fits.  One
    pass suffices: a value that does not fit a cell now never will, since placements only add limits."""
    rng = random.Random(seed)
    state = State(inst)
    cells = inst.empty
    rng.shuffle(cells)
    values = list(range(1, inst.n + 1))
    for cell in cells:
        rng.shuffle(values)
        for k in values:
            if state.can_place(cell, k):
                state.place(cell, k)
                break
    return state.solution


def _matching_applies(inst: Instance) -> None:
    refusal = inst.rule.matching_refusal(inst)
    if refusal:
        raise NotApplicable(refusal)


def matching(inst: Instance) -> dict[Cell, int]:
    """MATCHING: for k = 1..n, a maximum matching of rows to columns on the edges (i, j) where k fits,
    then k placed on every matched cell."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    _matching_applies(inst)
    n, state = inst.n, State(inst)
    for k in range(1, n + 1):
        edges = [(i, j) for i, j in inst.empty if state.can_place((i, j), k)]
        if not edges:
            continue
        rows, cols = zip(*edges, strict=True)
        graph = csr_matrix((np.ones(len(edges)), (rows, cols)), shape=(n, n))
        match = maximum_bipartite_matching(graph, perm_type="column")
        for i in range(n):
            if match[i] >= 0:
                state.place((i, int(match[i])), k)
    return state.solution


def packing_sets(inst: Instance) -> list[tuple[tuple, ...]]:
    """The t-set packing instance: one set per (empty cell, value) that L allows, its elements the cell,
    the value in the row, the value in the column (and the value in the box for sud)."""
    refusal = inst.rule.packing_refusal()
    if refusal:
        raise NotApplicable(refusal)
    state = State(inst)
    out = []
    for i, j in inst.empty:
        for k in range(1, inst.n + 1):
            if state.can_place((i, j), k):
                elements = (("cell", i, j), ("row", i, k), ("col", j, k))
                out.append(elements + inst.rule.packing_elements(inst, (i, j), k))
    return out


class Packing:
    """A packing of sets, with for each element the packed set holding it."""

    def __init__(self, sets: list[tuple[tuple, ...]]) -> None:
        self.sets = sets
        self.holder: dict[tuple, int] = {}
        self.packed: set[int] = set()

    def conflicts(self, s: int) -> set[int]:
        return {self.holder[e] for e in self.sets[s] if e in self.holder}

    def add(self, s: int) -> None:
        self.packed.add(s)
        for e in self.sets[s]:
            self.holder[e] = s

    def remove(self, s: int) -> None:
        self.packed.discard(s)
        for e in self.sets[s]:
            del self.holder[e]


@functools.lru_cache(maxsize=1 << 16)
def pathwidth_at_most(graph: tuple[int, ...], p: int) -> bool:
    """Whether the graph (neighbours of vertex v as the bitmask graph[v]) has pathwidth at most p: its vertex
    separation number, searched over orderings by the set placed so far, pruned where more than p placed
    vertices still have an unplaced neighbour (Kinnersley: the two numbers are equal)."""
    full = (1 << len(graph)) - 1
    seen = {0}
    stack = [0]
    while stack:
        placed = stack.pop()
        if placed == full:
            return True
        for v in range(len(graph)):
            if placed >> v & 1:
                continue
            more = placed | 1 << v
            if more in seen:
                continue
            seen.add(more)
            if sum(1 for u in range(len(graph)) if more >> u & 1 and graph[u] & ~more) <= p:
                stack.append(more)
    return False


def _conflict_graph(p: Packing, added: list[int], dropped: set[int]) -> tuple[int, ...]:
    """The swap's conflict graph: added and dropped sets, joined where an added set meets a dropped one."""
    vertices = added + sorted(dropped)
    graph = [0] * len(vertices)
    for a, s in enumerate(added):
        for b, d in enumerate(vertices[len(added) :], start=len(added)):
            if not set(p.sets[s]).isdisjoint(p.sets[d]):
                graph[a] |= 1 << b
                graph[b] |= 1 << a
    return tuple(graph)


def _improvements(
    p: Packing, by_element: dict[tuple, list[int]], r: int, pathwidth: int | None = None
) -> Iterator[tuple[set[int], list[int]]]:
    """(packed sets to drop, r'+1 sets to add) for improvements with r' <= r, each found by growing a group
    of mutually disjoint unpacked sets whose conflicts stay within r packed sets.  Each new set shares an
    element with a set already dropped: a smallest improvement is connected that way (otherwise one of its
    parts would be a smaller improvement), so none is missed.  With `pathwidth`, a group whose conflict
    graph has pathwidth above it is not grown further (pathwidth never falls as a graph grows), so exactly
    the improvements of pathwidth at most that are found."""
    grown: set[frozenset[int]] = set()

    def grow(chosen: list[int], used: set, dropped: set[int]) -> Iterator[tuple[set[int], list[int]]]:
        key = frozenset(chosen)
        if key in grown:
            return
        grown.add(key)
        wide = pathwidth is not None and min(len(chosen), len(dropped)) > pathwidth
        if wide and not pathwidth_at_most(_conflict_graph(p, chosen, dropped), pathwidth):
            return
        if len(chosen) == len(dropped) + 1:
            yield dropped, chosen
            return
        near = {t for d in dropped for e in p.sets[d] for t in by_element[e]}
        for t in sorted(near):
            if t in chosen or t in p.packed or used.intersection(p.sets[t]):
                continue
            more = dropped | p.conflicts(t)
            if len(more) <= r:
                yield from grow(chosen + [t], used.union(p.sets[t]), more)

    for s in range(len(p.sets)):
        if s not in p.packed:
            first = p.conflicts(s)
            if len(first) <= r:
                yield from grow([s], set(p.sets[s]), first)


def local_search(
    inst: Instance, r: int = 2, seed: int | None = 0, pathwidth: int | None = None
) -> dict[Cell, int]:
    """Local search for the packing: start from the greedy solution's sets (a maximal packing), then
    apply improvements (drop r' <= r packed sets, add r' + 1) until none is left.  With `pathwidth`, only
    improvements whose conflict graph has pathwidth at most that (Cygan's bounded-pathwidth local search)."""
    if r < 0:
        raise ValueError(f"r must be at least 0, not {r}")
    if pathwidth is not None and pathwidth < 1:
        raise ValueError(f"the pathwidth bound must be at least 1, not {pathwidth}")
    sets = packing_sets(inst)
    index = {(e[0][1], e[0][2], e[1][2]): s for s, e in enumerate(sets)}
    p = Packing(sets)
    for (i, j), k in greedy(inst, seed).items():
        p.add(index[i, j, k])
    by_element: dict[tuple, list[int]] = {}
    for s, elements in enumerate(sets):
        for e in elements:
            by_element.setdefault(e, []).append(s)
    improved = True
    while improved:
        improved = False
        for dropped, added in _improvements(p, by_element, r, pathwidth):
            for d in dropped:
                p.remove(d)
            for t in added:
                p.add(t)
            improved = True
            break
    return {(sets[s][0][1], sets[s][0][2]): sets[s][1][2] for s in p.packed}


def pathwidth_local_search(
    inst: Instance, r: int = 4, seed: int | None = 0, pathwidth: int = PATHWIDTH
) -> dict[Cell, int]:
    """Cygan's bounded-pathwidth local search: swaps of up to r packed sets for one more, of pathwidth at
    most `pathwidth` (at least 1)."""
    return local_search(inst, r, seed, pathwidth)


def run(
    inst: Instance, algorithm: str, r: int = 2, seed: int | None = 0, pathwidth: int = PATHWIDTH
) -> dict[Cell, int]:
    """One algorithm by name on one instance."""
    if algorithm == "greedy":
        return greedy(inst, seed)
    if algorithm == "matching":
        return matching(inst)
    if algorithm == "local-search":
        return local_search(inst, r, seed)
    if algorithm == "pathwidth-local-search":
        return pathwidth_local_search(inst, r, seed, pathwidth)
    raise ValueError(f"unknown algorithm {algorithm!r}: one of {', '.join(ALGORITHMS)}")
