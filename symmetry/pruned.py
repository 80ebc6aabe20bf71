"""Counting Latin boards on orbit representatives: the board's own symmetries prune the top of the search.

A partial Latin board P is kept by the pairs (point permutation mapping asterisms to asterisms, relabelling
keeping the multiset) that map every clue to a clue of the renamed label; call them Stab(P).  Pick an
asterism A with free points and let K be the elements of Stab(P) that map A onto itself.  Every completion
of P fills A somehow; K permutes those fillings and keeps the number of completions of each, so

    completions(P) = sum over K-orbits of fillings f of A:  |orbit of f| * completions(P + f).

The step repeats on P + f with Stab(P + f) for a few levels, then each leaf is an ordinary exact-cover
count.  After each level, leaves that the board's whole group with a relabelling maps onto each other are
merged (their weights added): they have equally many completions, so a subtree symmetric to one already
kept is never searched (symmetric no-goods).  An empty board first takes one arrangement of its first
asterism per orbit of the label group (as `count_completions` does) and multiplies back by that group's
order.  For Latin squares of order n the steps give the reduced squares: the first row is fixed, then the
n - 1 other rows permute the first column's (n - 1)! fillings in one orbit; below, rows, columns and labels
permuted alike keep both, and split the second row's fillings into orbits.  Without the relabelling a first
row of distinct labels would be kept by no point permutation at all, and a diagonal Latin square of order 8
would be counted as 8! times all 7,447,587,840 of its squares with a fixed first row.

A need not be a whole asterism: any set of free points that K maps onto itself will do.  When no asterism's
fillings can be listed (asterisms of 16 points or more), the free points two asterisms share are split
instead.  Groups come from nauty (pynauty) on the graph of points, asterisms and labels (each clue joined to
its label, A's free points in a colour of their own); orbits of fillings from union-find under the
generators, so no group is ever listed element by element.  Every count stays exact: orbit sizes are
counted, not estimated.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from dlx_latin.exact_cover.settings import DEFAULT, CountSettings
from dlx_latin.latin import PartialBoard, count_completions
from dlx_latin.latin.completion import (
    first_asterism_arrangements,
    label_group_order,
    scaled_progress,
)
from dlx_latin.latin.multiset import Label
from symmetry.board_graph import board_graph

MAX_FILLINGS = 50_000  # fillings of one asterism enumerated to find their orbits
LEVELS = 3  # asterisms filled by orbit representatives before the plain count
MIN_GAIN = 4  # split only when the fillings fall into orbits of at least this size on average
MAX_LEAVES = 1_000  # plain counts at the leaves
MAX_ASTERISMS = 1_000  # two nauty calls per asterism per split: larger boards are counted plainly


@dataclass(frozen=True)
class Leaf:
    """A partial board to count plainly, standing for `weight` boards of the whole count."""

    partial: PartialBoard
    weight: int


Symmetry = tuple[list[int], dict[Label, Label]]  # a point permutation (images) and a relabelling


def stabilizer(
    pb: PartialBoard, points: Collection[int] = (), pointwise: bool = False
) -> tuple[list[Symmetry], float]:
    """Generators and order of the pairs (point permutation, relabelling) that keep the constellation and the
    clues of `pb` (a clue's point goes to a clue's point, its label renamed) and map the free `points` onto
    themselves (`pointwise`: fix each); the order is nauty's floating-point value.  Relabelling is what lets
    a board with distinct labels in its first row still be split: the row stays, its columns and labels
    permuted alike."""
    import pynauty

    board, m = pb.board, pb.multiset
    n, n_ast = board.n_points, len(board.asterisms)
    moved = set(points) - set(pb.clues)
    free = set(range(n)) - set(pb.clues) - moved
    cells = [free, set(pb.clues), *([{p} for p in sorted(moved)] if pointwise else [moved])]
    graph = board_graph(board, m, pb.clues, cells)
    generators, mantissa, exponent, _, _ = pynauty.autgrp(graph)
    out = []
    for g in generators:
        relabel = {label: m.labels[g[n + n_ast + j] - n - n_ast] for j, label in enumerate(m.labels)}
        if g[:n] != list(range(n)) or any(a != b for a, b in relabel.items()):
            out.append((list(g[:n]), relabel))
    return out, mantissa * 10**exponent


def arrangements(pb: PartialBoard, asterism: int) -> int:
    """The arrangements over an asterism's free points of the labels it still lacks: at least as many as its
    fillings, so an asterism with at most MAX_FILLINGS of them is surely listable."""
    lacking = dict(zip(pb.multiset.labels, pb.multiset.counts, strict=True))
    points = pb.board.asterisms[asterism]
    for p in points:
        if p in pb.clues:
            lacking[pb.clues[p]] -= 1
    free = sum(p not in pb.clues for p in points)
    return math.factorial(free) // math.prod(math.factorial(max(c, 0)) for c in lacking.values())


def point_fillings(
    pb: PartialBoard, free: list[int], cap: int | None = None
) -> list[tuple[Label, ...]] | None:
    """Every way to label the free points `free` (in that order) that keeps `pb` partial Latin; None when
    there are more than `cap` (None: no cap)."""
    board, m = pb.board, pb.multiset
    held: dict[tuple[int, Label], int] = {}
    for p, label in pb.clues.items():
        for a in board.point_asterisms[p]:
            held[a, label] = held.get((a, label), 0) + 1
    limit = m.count_of
    out: list[tuple[Label, ...]] = []
    chosen: list[Label] = []

    def extend(k: int) -> bool:
        if k == len(free):
            out.append(tuple(chosen))
            return cap is None or len(out) <= cap
        through = board.point_asterisms[free[k]]
        for label in m.labels:
            if all(held.get((a, label), 0) < limit[label] for a in through):
                for a in through:
                    held[a, label] = held.get((a, label), 0) + 1
                chosen.append(label)
                going = extend(k + 1)
                chosen.pop()
                for a in through:
                    held[a, label] -= 1
                if not going:
                    return False
        return True

    return out if extend(0) else None


def orbit_roots(n: int, pairs: Iterable[tuple[int, int]]) -> list[int]:
    """For items 0..n-1 joined by `pairs` (an item and its image under a generator), the least item of
    each one's orbit (union-find)."""
    parent = list(range(n))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for k, j in pairs:
        a, b = root(k), root(j)
        if a != b:
            parent[max(a, b)] = min(a, b)
    return [root(k) for k in range(n)]


def filling_orbits(
    free: list[int], found: list[tuple[Label, ...]], generators: list[Symmetry]
) -> list[tuple[tuple[Label, ...], int]]:
    """(representative, orbit size) of the orbits of fillings of the points `free` under the group
    generated by `generators` (each maps `free` onto itself)."""
    index = {f: k for k, f in enumerate(found)}
    position = {p: k for k, p in enumerate(free)}

    def moved(g: Symmetry, f: tuple[Label, ...]) -> tuple[Label, ...]:
        """The image of filling f puts f's label at point p, renamed, onto point g(p)."""
        points, relabel = g
        image: list[Label | None] = [None] * len(free)
        for src, p in enumerate(free):
            image[position[points[p]]] = relabel[f[src]]
        return tuple(image)

    roots = orbit_roots(
        len(found), ((k, index[moved(g, f)]) for g in generators for k, f in enumerate(found))
    )
    sizes: dict[int, int] = {}
    for r in roots:
        sizes[r] = sizes.get(r, 0) + 1
    return [(found[r], size) for r, size in sizes.items()]


def merge_symmetric(frontier: list[Leaf]) -> list[Leaf]:
    """One leaf per class of leaves that a symmetry of the board with a relabelling maps onto each other,
    weighing the classes' weights together: symmetric partial boards have equally many completions, so a
    subtree symmetric to one already kept is never searched (symmetric no-goods, for counting)."""
    if len(frontier) < 2 or len(frontier[0].partial.board.asterisms) > MAX_ASTERISMS:
        return frontier
    from symmetry.nauty_form import NautyCanonizer

    first = frontier[0].partial
    canonizer = NautyCanonizer(first.board, first.multiset)
    points = range(first.board.n_points)
    kept: dict[tuple, Leaf] = {}
    for leaf in frontier:
        key = canonizer.key([leaf.partial.clues.get(p) for p in points])
        seen = kept.get(key)
        kept[key] = leaf if seen is None else Leaf(seen.partial, seen.weight + leaf.weight)
    return list(kept.values())


def leaves(pb: PartialBoard, levels: int = LEVELS) -> list[Leaf]:
    """Partial boards and weights whose weighted completions add up to the completions of `pb`.

    Level by level, a board is split on the asterism whose free points its stabilizer moves in the largest
    group, and only when that pays:
    the fillings must fall into orbits of MIN_GAIN or more on average, and the leaves stay within
    MAX_LEAVES (each leaf costs a search of its own).  After each level, leaves symmetric under the
    board's whole group and relabelling are merged (merge_symmetric)."""
    if not pb.is_partial_latin():
        return []
    if pb.clues:
        frontier = [Leaf(pb, 1)]
    else:
        board, m = pb.board, pb.multiset
        first, order = board.asterisms[0], label_group_order(m)
        frontier = [
            Leaf(PartialBoard(board, m, dict(zip(first, arrangement, strict=True))), order)
            for arrangement in first_asterism_arrangements(m)
        ]
    if len(pb.board.asterisms) > MAX_ASTERISMS:
        return frontier
    frontier = merge_symmetric(frontier)
    for _ in range(levels):
        grown: list[Leaf] = []
        frontier.sort(key=lambda leaf: len(leaf.partial.clues))  # the largest first, should MAX_LEAVES stop
        for k, leaf in enumerate(frontier):
            parts = _split(leaf) if len(grown) + len(frontier) - k < MAX_LEAVES else None
            grown += parts if parts is not None and len(grown) + len(parts) <= MAX_LEAVES else [leaf]
        if grown == frontier:
            break
        frontier = merge_symmetric(grown)
    return frontier


def _candidates(pb: PartialBoard) -> dict[tuple[int, ...], int]:
    """Free point sets a leaf may be split on, each with a bound on its fillings: every asterism's free
    points, and, when none of those is surely listable (asterisms of 16 or more points), the free points
    two asterisms share."""
    asterisms = pb.board.asterisms
    free = [tuple(p for p in points if p not in pb.clues) for points in asterisms]
    out = {f: arrangements(pb, a) for a, f in enumerate(free) if f}
    if all(bound > MAX_FILLINGS for bound in out.values()):
        for a, b in itertools.combinations(range(len(asterisms)), 2):
            other = set(free[b])
            shared = tuple(p for p in free[a] if p in other)
            if len(shared) > 1:
                bound = min(math.perm(len(free[a]), len(shared)), math.perm(len(free[b]), len(shared)))
                out.setdefault(shared, bound)
    return out


def _split(leaf: Leaf) -> list[Leaf] | None:
    """The leaf split on the orbits of fillings of one free point set; None when that does not pay."""
    pb = leaf.partial
    if stabilizer(pb)[1] < 1.5:  # nothing keeps the clues: no asterism can be split (most puzzles)
        return None
    best: tuple | None = None  # (listable for sure, acting order, -points, points, generators)
    for free, bound in _candidates(pb).items():
        if bound > 100 * MAX_FILLINGS:  # too many to list, and costly to find out
            continue
        generators, order = stabilizer(pb, free)
        acting = order / stabilizer(pb, free, pointwise=True)[1]
        key = (bound <= MAX_FILLINGS, acting, -len(free))
        if acting > 1.5 and (best is None or key > best[:3]):
            best = (*key, free, generators)
    if best is None:
        return None
    free, generators = list(best[3]), best[4]
    found = point_fillings(pb, free, MAX_FILLINGS)
    if not found:
        return None
    orbits = filling_orbits(free, found, generators)
    if len(found) < MIN_GAIN * len(orbits):
        return None
    return [
        Leaf(pb.with_clues(dict(zip(free, rep, strict=True))), leaf.weight * size) for rep, size in orbits
    ]


def count_by_orbits(pb: PartialBoard, settings: CountSettings = DEFAULT, **how: Any) -> int:
    """The exact number of Latin boards completing `pb`, counted on orbit representatives; `settings` (or
    its fields as keywords) say how the engine runs, as for `count_completions`.

    >>> from dlx_latin.boards import board_from_spec
    >>> count_by_orbits(PartialBoard(board_from_spec("latin:5")))  # A002860
    161280
    """
    settings = settings.updated(**how)
    parts = leaves(pb)
    total = 0
    for k, leaf in enumerate(parts):
        scaled = settings.progress and scaled_progress(settings.progress, k, len(parts))
        total += leaf.weight * count_completions(leaf.partial, None, settings.updated(progress=scaled))
    return total
