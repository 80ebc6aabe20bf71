"""Canonical forms under a board's whole automorphism group and the label group, through nauty.

A (partial) labelling L becomes a coloured graph: point vertices, asterism vertices (an edge per incidence)
and label vertices (an edge from each labelled point to its label), label vertices coloured by multiplicity
so that only labels of equal multiplicity can be exchanged.  Its automorphisms are exactly the pairs (point
automorphism, label permutation) that keep L, and nauty's canonical labelling puts every labelling of an
orbit onto the same canonical graph C.

To read a labelling of the board itself back from C, the point-and-asterism part of C (a copy of the bare
constellation) is put in nauty's canonical order too, which is the bare constellation's own canonical
order; that gives a point automorphism phi, and the canonical form is L moved by phi with the labels renamed
by their canonical positions.  Everything is read from C, so the result is the same for the whole orbit, and
it lies in the orbit.  It is a canonical representative, not the lexicographically least image.

Cost: two nauty calls on n + m + k vertices (a 9x9 Sudoku grid: 81 + 27 + 9), never a walk over the group.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cached_property

from dlx_latin.boards import Board
from dlx_latin.latin.multiset import Label, Multiset
from symmetry.board_graph import board_graph
from symmetry.canonical import CanonicalForm

Labelling = tuple[Label | None, ...]


class NautyCanonizer:
    """Canonical forms of the labellings of one board with one multiset under Aut(constellation) x labels."""

    def __init__(self, board: Board, multiset: Multiset) -> None:
        self.board, self.multiset = board, multiset
        self.n, self.m, self.k = board.n_points, len(board.asterisms), len(multiset.labels)
        self._classes = [list(group) for group in multiset.by_count]  # label indices, by multiplicity
        self._index = {label: j for j, label in enumerate(multiset.labels)}
        self.label_group_order = math.prod(math.factorial(len(c)) for c in self._classes)

    def _bare(self) -> object:
        return board_graph(self.board)

    @cached_property
    def _bare_canon(self) -> list[int]:
        import pynauty

        return pynauty.canon_label(self._bare())

    @cached_property
    def group_order(self) -> int:
        """The exact order of the constellation's automorphism group."""
        from symmetry.groups import automorphism_group

        return int(automorphism_group(self.board).order())

    def form(self, labelling: Sequence[Label | None]) -> CanonicalForm:
        """The canonical form of a labelling (None at empty points), its stabilizer order and orbit size."""
        return self.form_carrying(labelling, labelling)[0]

    def form_carrying(
        self, labelling: Sequence[Label | None], other: Sequence[Label | None]
    ) -> tuple[CanonicalForm, Labelling]:
        """The canonical form of a labelling, and `other` moved by the same symmetry and relabelling (a
        puzzle's completion, say, which becomes the canonical puzzle's completion without a search)."""
        import pynauty

        out, graph, move = self._canonical(labelling)
        _, mantissa, exponent, _, _ = pynauty.autgrp(graph)
        stabilizer = round(mantissa * 10**exponent)
        if stabilizer >= 2**53:
            raise ValueError("the labelling's stabilizer is too large to count exactly in floating point")
        orbit = self.group_order * self.label_group_order // stabilizer
        return CanonicalForm(out, stabilizer, orbit), move(other)

    def point_automorphisms(self, labelling: Sequence[Label | None]) -> list[list[int]]:
        """Generators of the labelling's own symmetries (board automorphisms that, with a relabelling, keep
        it), each as the image of every point."""
        import pynauty

        graph = self._canonical(labelling)[1]
        return [list(g[: self.n]) for g in pynauty.autgrp(graph)[0]]

    def key(self, labelling: Sequence[Label | None]) -> tuple[Label | None, ...]:
        """The canonical labelling alone: equal for two labellings exactly when a symmetry of the board
        and a relabelling map one onto the other (no group order needed, so sympy is never loaded)."""
        return self._canonical(labelling)[0]

    def _canonical(
        self, labelling: Sequence[Label | None]
    ) -> tuple[
        tuple[Label | None, ...], object, Callable[[Sequence[Label | None]], tuple[Label | None, ...]]
    ]:
        """The canonical labelling, the coloured graph it was read from, and the move that took the labelling
        to it (a point automorphism and a relabelling), for other labellings of the board."""
        import pynauty

        n, m, k = self.n, self.m, self.k
        if len(labelling) != n:
            raise ValueError(f"a labelling of {self.board.name} has {n} labels, not {len(labelling)}")
        labels = {p: label for p, label in enumerate(labelling) if label is not None}
        graph = board_graph(self.board, self.multiset, labels)
        lab = pynauty.canon_label(graph)  # lab[i]: the vertex of `graph` at canonical position i
        position = [0] * (n + m + k)
        for i, v in enumerate(lab):
            position[v] = i
        # The constellation part of the canonical graph, and its own canonical order.
        asterisms = enumerate(self.board.asterisms)
        part = {position[n + a]: [position[p] for p in points] for a, points in asterisms}
        points_at = {position[p] for p in range(n)}
        part_graph = pynauty.Graph(
            n + m,
            directed=False,
            adjacency_dict=part,
            vertex_coloring=[points_at, set(range(n + m)) - points_at],
        )
        d = pynauty.canon_label(part_graph)
        # Canonical position d[j] of the part corresponds to vertex c0[j] of the bare constellation.
        c0 = self._bare_canon
        target = [0] * (n + m)
        for j in range(n + m):
            target[d[j]] = c0[j]
        # Labels renamed by the canonical positions of their vertices, within each multiplicity class.
        name: dict[int, Label] = {}
        for cls in self._classes:
            ranked = sorted(cls, key=lambda j: position[n + m + j])
            for j, to in zip(ranked, cls, strict=True):
                name[j] = self.multiset.labels[to]

        def move(some: Sequence[Label | None]) -> Labelling:
            out: list[Label | None] = [None] * n
            for p, label in enumerate(some):
                if label is not None:
                    out[target[position[p]]] = name[self._index[label]]
            return tuple(out)

        return move(labelling), graph, move


def point_automorphisms(board: Board, multiset: Multiset, labelling: Sequence[Label]) -> list[list[int]]:
    """Generators of a Latin board's own symmetries (`NautyCanonizer.point_automorphisms`), as a picklable
    function of plain values: what `dlx_latin.puzzles.census` asks of the symmetry layer."""
    return NautyCanonizer(board, multiset).point_automorphisms(labelling)
