"""Latin squares counted in halves: the first k rows meet the other n - k only through column sets.

The first k rows of a Latin square of order n put k labels in each column: a k-regular bipartite graph G
between columns and labels.  The last n - k rows hold the complement graph G', so

    L(n) = sum over k-regular G of R(G) R(G'),

R(G) being the Latin rectangles whose columns hold the label sets of G.  R is the same for G and for any
graph that permuting columns and labels makes of it, so G runs over the isomorphism classes (columns and
labels kept apart), each weighted by its n!^2 / |Aut G| labelled graphs.  The classes come column by
column: after each column, one partial graph per class (nauty's certificate), a label never taking more
than k columns nor more than the columns left can give it.  For n = 8, k = 4: 194 classes, found and
counted in a few seconds (A002860: 108,776,032,459,082,956,800).  R is an exact-cover count on the
kernel, the rows' order fixed by the first column (times k!).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

from dlx_latin.exact_cover import ExactCoverProblem
from symmetry.errors import SymmetryTooLargeError

MAX_ORDER = 8  # latin:9 takes 3,529 classes but its 5-row rectangles are too slow to count here

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
    """The Latin rectangles whose column c holds the labels columns[c]: an exact cover of (row, column),
    (row, label) and (column, label) by (row, column, label), column 0's labels in order down the rows (each
    order of the rows is one of k! rectangles)."""
    n, k = len(columns), len(columns[0])
    items = [("rc", r, c) for r in range(k) for c in range(n)]
    items += [("rv", r, v) for r in range(k) for v in range(n)]
    items += [("cv", c, v) for c in range(n) for v in columns[c]]
    first = sorted(columns[0])
    options = [
        [("rc", r, c), ("rv", r, v), ("cv", c, v)]
        for r in range(k)
        for c in range(n)
        for v in columns[c]
        if c or v == first[r]
    ]
    return math.factorial(k) * ExactCoverProblem(items, options).count()


def count_latin_squares(n: int) -> int:
    """The Latin squares of order n (A002860), in halves of n // 2 and n - n // 2 rows.

    >>> [count_latin_squares(n) for n in range(2, 7)]
    [2, 12, 576, 161280, 812851200]
    """
    if not 2 <= n <= MAX_ORDER:
        raise SymmetryTooLargeError(f"counting in halves takes orders 2 to {MAX_ORDER}, not {n}")
    k = n // 2
    everything = frozenset(range(n))
    return sum(
        weight * rectangles(columns) * rectangles(tuple(everything - labels for labels in columns))
        for columns, weight in column_set_classes(n, k)
    )
