"""The one nauty graph of a board, for every symmetry computation on it (automorphisms, canonical forms,
stabilizers of clues, recognising a construction).

Vertices 0..n-1 are the points and n..n+m-1 the asterisms, each joined to its points.  With a multiset,
vertices n+m.. are its labels, coloured by multiplicity (`Multiset.by_count`: only labels of one count may
be exchanged), and a labelled point is joined to its label's vertex.  Colour cells come in that order --
the points' (one, unless `point_cells` splits them), the asterisms', the labels' -- so a canonical labelling
puts points first, then asterisms, then labels.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dlx_latin.boards import Board
from dlx_latin.latin.multiset import Label, Multiset


def board_graph(
    board: Board,
    multiset: Multiset | None = None,
    labels: Mapping[int, Label] | None = None,
    point_cells: Iterable[Iterable[int]] | None = None,
) -> Any:
    """The pynauty Graph of `board` (and of `labels` on its points, from `multiset`); `point_cells`: the
    colour cells the points are split into (default: one cell of every point); empty cells are dropped."""
    import pynauty

    n, m = board.n_points, len(board.asterisms)
    adjacency = {n + a: list(points) for a, points in enumerate(board.asterisms)}
    cells = [set(c) for c in point_cells] if point_cells is not None else [set(range(n))]
    cells.append(set(range(n, n + m)))
    k = 0
    if multiset is not None:
        k = len(multiset.labels)
        index = {label: j for j, label in enumerate(multiset.labels)}
        for p, label in (labels or {}).items():
            adjacency[p] = [n + m + index[label]]
        cells += [{n + m + j for j in group} for group in multiset.by_count]
    return pynauty.Graph(
        n + m + k, directed=False, adjacency_dict=adjacency, vertex_coloring=[c for c in cells if c]
    )
