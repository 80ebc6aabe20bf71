"""What a board is, from its structure alone: the family whose construction it is isomorphic to.

A count's fast path (Sudoku by bands, Latin squares in halves, their classes by cycle types) holds for every
board whose point-asterism incidence structure is that family's, whatever its name or its point numbering,
and for no other.  So a board is recognised by nauty's canonical certificate of its incidence graph (points
and asterisms in two colour classes) compared with the certificate of each candidate construction of the
same size: latin:n (n^2 points, 2n asterisms of n) and sudoku:RxC (n^2 points, 3n asterisms of n = RC,
1 < R <= C; sudoku:CxR is its transpose).  The isomorphism found is carried as a point map.  A board's name
is a label for people and never changes what it is recognised as.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache

from dlx_latin.boards import Board
from dlx_latin.latin import PartialBoard
from symmetry.board_graph import board_graph

MAX_ORDER = 32  # no fast path counts beyond (bands: 3 bands; halves: order 9), so nauty is not asked
# (recognising sudoku:6x6, 1,296 points, takes nauty seconds; latin:30 a third of one)


@dataclass(frozen=True)
class Recognised:
    """A board found isomorphic to a family's construction: `spec` names the construction (e.g. "latin:5",
    "sudoku:2x3"), `family` and `parameters` say what it is, and `point_map[p]` is the construction's point
    that the board's point p is (asterisms go to asterisms)."""

    spec: str
    family: str
    parameters: tuple[int, ...]
    point_map: tuple[int, ...]


def incidence_graph(board: Board):
    """The point-asterism incidence graph as a pynauty Graph: vertices 0..n-1 are the points, n.. the
    asterisms, in two colour classes (the one graph nauty sees of a board)."""
    return board_graph(board)


def certificate(board: Board) -> str:
    """A hex digest of nauty's canonical certificate of the board's incidence structure: equal for two
    boards exactly when one is the other with its points (and asterisms) renumbered.

    >>> from dlx_latin.boards import board_from_spec
    >>> certificate(board_from_spec("sudoku:2x3")) == certificate(board_from_spec("sudoku:3x2"))
    True
    """
    return _certificate_and_labels(board)[0]


def _certificate_and_labels(board: Board) -> tuple[str, list[int]]:
    """The certificate and nauty's canonical labelling, from one nauty run: the certificate is a digest of
    the canonical graph, each asterism's canonical position with its points' positions."""
    import pynauty

    labels = pynauty.canon_label(incidence_graph(board))
    position = [0] * len(labels)
    for at, vertex in enumerate(labels):
        position[vertex] = at
    n = board.n_points
    canonical = sorted(
        (position[n + a], sorted(position[p] for p in asterism)) for a, asterism in enumerate(board.asterisms)
    )
    digest = hashlib.sha256(json.dumps(canonical).encode()).hexdigest()
    return f"{board.n_points}:{len(board.asterisms)}:{digest}", labels


def candidates(board: Board) -> list[tuple[str, tuple[int, ...]]]:
    """The (family, parameters) whose construction has the board's numbers of points and asterisms and
    asterism size (the only ones it can be isomorphic to), for asterisms of at most MAX_ORDER points."""
    n = board.asterism_size
    if not 2 <= n <= MAX_ORDER or board.n_points != n * n:
        return []
    if len(board.asterisms) == 2 * n:
        return [("latin", (n,))]
    if len(board.asterisms) == 3 * n:
        return [("sudoku", (r, n // r)) for r in range(2, n) if n % r == 0 and r <= n // r]
    return []


@lru_cache(maxsize=64)
def _construction(family: str, parameters: tuple[int, ...]) -> tuple[Board, str, tuple[int, ...]]:
    from dlx_latin.boards.squares import latin, sudoku

    board = latin(*parameters) if family == "latin" else sudoku(*parameters)
    cert, labels = _certificate_and_labels(board)
    return board, cert, tuple(labels)


def recognise(board: Board) -> Recognised | None:
    """The family construction the board is isomorphic to, with the point map, else None.

    >>> from dlx_latin.boards import Board, board_from_spec
    >>> rows = board_from_spec("latin:3")
    >>> renamed = Board("sudoku:3x3", 9, [[8 - p for p in a] for a in rows.asterisms])
    >>> recognise(renamed).spec
    'latin:3'
    >>> recognise(board_from_spec("diagonal:4")) is None
    True
    """
    found = candidates(board)
    if not found:
        return None
    cert, labels = _certificate_and_labels(board)
    for family, parameters in found:
        model, model_cert, model_labels = _construction(family, parameters)
        if cert != model_cert:
            continue
        n = board.n_points
        point_map = [0] * n
        for mine, theirs in zip(labels, model_labels, strict=True):  # one canonical position
            if mine < n:
                point_map[mine] = theirs
        mapped = {frozenset(point_map[p] for p in a) for a in board.asterisms}
        if mapped != set(map(frozenset, model.asterisms)):
            raise AssertionError(f"nauty's isomorphism does not map {board.name}'s asterisms onto {family}'s")
        spec = f"{family}:" + "x".join(map(str, parameters))
        return Recognised(spec, family, parameters, tuple(point_map))
    return None


def recognised_empty(pb: PartialBoard) -> tuple[Recognised, PartialBoard] | None:
    """For an empty board with distinct labels whose structure is a family's construction: what it is and
    the construction with the same multiset (it has the same counts and classes, so a fast path runs on
    it, in the family's own point numbering); else None."""
    if pb.clues or len(set(pb.multiset.labels)) != pb.multiset.size:
        return None
    found = recognise(pb.board)
    if found is None:
        return None
    return found, PartialBoard(_construction(found.family, found.parameters)[0], pb.multiset)
