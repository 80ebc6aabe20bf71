"""Latin squares counted in halves: the first k rows meet the other n - k only through column sets.

The first k rows of a Latin square of order n put k labels in each column: a k-regular bipartite graph G
between columns and labels.  The last n - k rows hold the complement graph G', so

    L(n) = sum over k-regular G of R(G) R(G'),

R(G) being the Latin rectangles whose columns hold the label sets of G.  R is the same for G and for any
graph that permuting columns and labels makes of it, so G runs over the isomorphism classes (columns and
labels kept apart), each weighted by its n!^2 / |Aut G| labelled graphs.  The classes come column by
column: after each column, one partial graph per class (nauty's certificate), a label never taking more
than k columns nor more than the columns left can give it.  For n = 8, k = 4: 194 classes, found and
counted in a few seconds (A002860: 108,776,032,459,082,956,800); for n = 9: 3,529 classes.  R counts the
decompositions of G into k perfect matchings, one per row, in C (`_rectangles.c`): the first column's
labels in order down the rows (times k!), the last two rows at once from the cycles of what is left.
Classes are counted in chunks, in processes with `jobs`, each chunk's sum recorded in the checkpoint.
"""

from __future__ import annotations

import array
import itertools
import math
from collections.abc import Iterator, Sequence

from dlx_latin.exact_cover.settings import DEFAULT, CountSettings
from dlx_latin.runner import count_in_parts
from symmetry import _rectangles
from symmetry.errors import SymmetryTooLargeError

MAX_ORDER = 9  # latin:10 would take far more classes than nauty can sort here
CHUNK = 64  # classes per recorded part

ColumnSets = tuple[frozenset[int], ...]


def _graph(columns: ColumnSets, n: int) -> object:
    """The bipartite graph of column sets: column vertices, then label vertices, in two colours."""
    import pynauty

    j = len(columns)
    adjacency = {c: [j + v for v in labels] for c, labels in enumerate(columns)}
    colouring = [set(range(j)), set(range(j, j + n))]
    return pynauty.Graph(j + n, directed=False, adjacency_dict=adjacency, vertex_coloring=colouring)


def column_set_classes(n: int, k: int) -> Iterator[tuple[ColumnSets, int]]:
    """One k-regular bipartite graph (n columns' label sets) per class under column and label
    permutations, with the number of labelled graphs in its class."""
    import pynauty

    subsets = [frozenset(s) for s in itertools.combinations(range(n), k)]
    level: dict[bytes, ColumnSets] = {b"": ()}
    for j in range(n):
        after = n - j - 1  # columns still to come
        grown: dict[bytes, ColumnSets] = {}
        for columns in level.values():
            degree = [0] * n
            for labels in columns:
                for v in labels:
                    degree[v] += 1
            for labels in subsets:
                new = [degree[v] + (v in labels) for v in range(n)]
                if max(new) > k or min(new) < k - after:
                    continue
                child = (*columns, labels)
                grown.setdefault(pynauty.certificate(_graph(child, n)), child)
        level = grown
    square = math.factorial(n) ** 2
    for columns in level.values():
        _, mantissa, exponent, _, _ = pynauty.autgrp(_graph(columns, n))
        automorphisms = round(mantissa * 10**exponent)
        if square % automorphisms:
            raise AssertionError(f"|Aut G| = {automorphisms} does not divide n!^2")
        yield columns, square // automorphisms


def rectangles(columns: ColumnSets) -> int:
    """The Latin rectangles whose column c holds the labels columns[c] (labels 0 .. n-1)."""
    k = len(columns[0])
    masks = array.array("H", [sum(1 << v for v in labels) for labels in columns])
    return math.factorial(k) * _rectangles.count(masks.tobytes(), k)


def _part(n: int, classes: Sequence[tuple[ColumnSets, int]]) -> int:
    """The classes' share of L(n): their weights times the rectangles above and below."""
    everything = frozenset(range(n))
    return sum(
        weight * rectangles(columns) * rectangles(tuple(everything - labels for labels in columns))
        for columns, weight in classes
    )


def count_latin_squares(n: int, settings: CountSettings = DEFAULT) -> int:
    """The Latin squares of order n (A002860), in halves of n // 2 and n - n // 2 rows; `settings`: jobs
    (processes) or an executor, progress, and a checkpoint recording each part's sum.

    >>> [count_latin_squares(n) for n in range(2, 7)]
    [2, 12, 576, 161280, 812851200]
    """
    if not 2 <= n <= MAX_ORDER:
        raise SymmetryTooLargeError(f"counting in halves takes orders 2 to {MAX_ORDER}, not {n}")
    classes = list(column_set_classes(n, n // 2))
    parts = [
        (
            f"latin:{n} in halves, column-set classes {i} to {min(i + CHUNK, len(classes)) - 1}",
            (n, classes[i : i + CHUNK]),
        )
        for i in range(0, len(classes), CHUNK)
    ]
    return count_in_parts(_part, parts, settings)
