"""Classes of Latin boards found asterism by asterism, keeping one partial board per class at each level.

Fill the asterisms of an empty board one at a time, in an order fixed by what is filled (the asterism with
the most filled points next); when an asterism has too many free points to list their fillings (hexagon:3:
12 free points, up to 12! fillings), fill them a few at a time, as many as keep the arrangements of
distinct labels under MAX_FILLINGS.  After each level, keep one partial board per class under the board's
automorphisms and relabelling (nauty canonical keys), and only those with a completion.  Every class of
Latin boards is reached: the points filled at each level depend only on the points filled before, so if F
is a Latin board and h maps F's points of level k onto a kept partial board R, then h keeps those points,
h(F) completes R and its points of the next level are one of R's fillings.  At the last level the kept
boards are the classes themselves.

This finds classes without listing every Latin board: latin:7 has 61,479,419,904,000 Latin squares and 324
classes under rows, columns, transposition and relabelling, reached through at most 21,039 partial squares
per level, and hexagon:3's 13,936,573,991,099,572,420,608,000 Latin hexagons make a single class, reached
through at most 17 partial boards per level.  Listing the completions of the symmetry leaves
(`symmetry.counting.canonical_classes`) stays the faster way for boards with few Latin boards.
"""

from __future__ import annotations

import math
from collections.abc import Container, Iterable

from dlx_latin.boards import Board
from dlx_latin.exact_cover.kernel import Progress
from dlx_latin.latin import PartialBoard, is_completable
from dlx_latin.latin.completion import first_asterism_arrangements
from symmetry.canonical import CanonicalForm
from symmetry.errors import SymmetryTooLargeError
from symmetry.nauty_form import NautyCanonizer
from symmetry.pruned import MAX_FILLINGS, point_fillings

MAX_LEVEL = 200_000  # partial boards kept at one level before refusing
MAX_LEVEL_KEYS = 500_000  # canonical forms at one level, a few minutes (latin:7: 146,206 at all its levels)
PROJECT_FROM = 50_000  # canonical forms after which a level's total is projected from its boards so far
MAX_POINTS = 64  # larger boards are refused at once: their levels grow far beyond MAX_LEVEL (sudoku:3x3)


def next_asterism(board: Board, filled: Container[int]) -> int | None:
    """The asterism to fill next when the points `filled` are: the one with the most filled points among
    those not full (the first on ties); None when every point is filled."""
    best, chosen = -1, None
    for a, points in enumerate(board.asterisms):
        count = sum(p in filled for p in points)
        if best < count < len(points):
            best, chosen = count, a
    return chosen


def next_points(board: Board, filled: Container[int]) -> list[int] | None:
    """The points to fill at the next level: the free points of the next asterism, or the first of them
    when all would have more than MAX_FILLINGS arrangements of distinct labels; None when every point is
    filled."""
    a = next_asterism(board, filled)
    if a is None:
        return None
    free = [p for p in board.asterisms[a] if p not in filled]
    k = 1
    while k < len(free) and math.perm(len(free), k + 1) <= MAX_FILLINGS:
        k += 1
    return free[:k]


def levels(pb: PartialBoard) -> int:
    """How many levels follow the first asterism before the empty board `pb` is full."""
    filled, steps = set(pb.board.asterisms[0]), 0
    while (points := next_points(pb.board, filled)) is not None:
        filled.update(points)
        steps += 1
    return steps


def first_level(pb: PartialBoard) -> list[PartialBoard]:
    """The empty board's first asterism filled, one arrangement per orbit of the label group."""
    first = pb.board.asterisms[0]
    return [pb.with_clues(dict(zip(first, a, strict=True))) for a in first_asterism_arrangements(pb.multiset)]


def next_level(boards: Iterable[PartialBoard], canonizer: NautyCanonizer) -> list[PartialBoard]:
    """One completable partial board per class among the boards' fillings of their next points; refused
    when the level would take more than MAX_LEVEL_KEYS canonical forms (projected from the boards so far,
    once past PROJECT_FROM, so that a hopeless board is refused in seconds, not hours)."""
    kept: dict[tuple, PartialBoard] = {}
    n = canonizer.board.n_points
    boards = list(boards)
    keys = 0
    for done, pb in enumerate(boards, start=1):
        free = next_points(pb.board, pb.clues)
        if free is None:
            raise ValueError("a full board has no next level")
        fillings = point_fillings(pb, free)
        keys += len(fillings)
        projected = keys * len(boards) // done
        if keys >= PROJECT_FROM and projected > MAX_LEVEL_KEYS:  # projected >= keys: the cap holds too
            raise SymmetryTooLargeError(
                f"{pb.board.name} would need about {projected:,} canonical forms at one level (more than "
                f"{MAX_LEVEL_KEYS:,}) to find its classes up to symmetry"
            )
        for filling in fillings:
            child = pb.with_clues(dict(zip(free, filling, strict=True)))
            key = canonizer.key([child.clues.get(p) for p in range(n)])
            if key not in kept:
                kept[key] = child
        if len(kept) > MAX_LEVEL:
            raise SymmetryTooLargeError(
                f"{pb.board.name} has more than {MAX_LEVEL} classes of partial boards at one level"
            )
    return [child for child in kept.values() if is_completable(child)]


def expand(
    boards: list[PartialBoard],
    canonizer: NautyCanonizer,
    until: int | None = None,
    progress: Progress | None = None,
) -> list[PartialBoard]:
    """Level after level until every board is full, or (with `until`) until there are at least `until`
    boards; the boards of one level all have the same points filled.  `progress(boards, share of the points
    filled)` after each level."""
    while (
        boards
        and next_points(boards[0].board, boards[0].clues) is not None
        and (until is None or len(boards) < until)
    ):
        boards = next_level(boards, canonizer)
        if progress is not None and boards:
            progress(len(boards), len(boards[0].clues) / canonizer.board.n_points)
    return boards


def canonical_forms(full: Iterable[PartialBoard], canonizer: NautyCanonizer) -> list[CanonicalForm]:
    """The canonical forms (with orbit sizes) of full boards of the last level, each class once."""
    n = canonizer.board.n_points
    forms = (canonizer.form([b.clues[p] for p in range(n)]) for b in full)
    return list({f.labelling: f for f in forms}.values())
