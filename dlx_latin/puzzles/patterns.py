"""The fewest clues of any puzzle on an empty board, over all its Latin boards at once.

When each label appears once in the multiset, relabelling maps Latin boards to Latin boards.  List one
Latin board R per relabelling class (the first asterism's labels fixed in order).  The completions of a
Latin board T's clues on points P are then the boards sigma(R) with sigma(R) = T on P.  Such sigma exist
exactly when R repeats labels on P where T does (the same *pattern*), and (n - b)! of them do, for the b
labels T shows on P.  So T's clues on P form a puzzle exactly when b >= n - 1 and no other listed board
has T's pattern on P.  That is a question about bytes, which `_patterns.unique_pattern` answers at C speed
for all point sets of each size in turn.  The first size with an answer is the fewest clues: adding a clue
to a puzzle leaves a puzzle.

A symmetry of the board maps a puzzle to a puzzle, so given the board's automorphisms the scan looks at
one point set per orbit (the points chosen one by one, each the least of its orbit under the symmetries
fixing those before it): the strip-like jigsaw covers of order 6, with hundreds of thousands of Latin
squares and over a thousand symmetries, are settled this way.

The scan is cheap when the listed boards are few (a few thousand for most jigsaw covers of order 6) and
the answer is small, and hopeless for a large one (the Latin squares of order 6 need 9 of 36 points).  So
it stops at a budget, and what it proved (no puzzle has fewer clues than the size reached) still bounds
the slower method that finishes the job (`minimal.minimal_puzzles`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dlx_latin.latin.batch import batch_for
from dlx_latin.latin.multiset import Label
from dlx_latin.latin.partial import PartialBoard
from dlx_latin.puzzles._patterns import unique_pattern

TABLE_BYTES = 64 << 20  # the most memory for the bitsets of pairs of points (points^2 / 8 bytes per board)
BUDGET = 1_000_000_000  # words of bitsets visited per size of clue set before the scan gives up (about 0.5 s)
ONE_BOARD_BUDGET = 100 * BUDGET  # (under a minute) for one board's minimum, hitting sets would take as long
LONG_BUDGET = 1000 * BUDGET  # (minutes) for a board that would otherwise take far longer in hitting sets


@dataclass(frozen=True)
class PatternScan:
    """What the scan proved: every puzzle has at least `at_least` clues, and `puzzle` (when not None) is
    one with exactly that many; `boards`: the Latin boards it listed (one per relabelling class)."""

    at_least: int
    puzzle: dict[int, Label] | None
    boards: int


def listed_boards(pb: PartialBoard, max_boards: int | None = None) -> tuple[int, bytes] | None:
    """One Latin board per relabelling class of an empty board whose multiset holds each label once (the
    first asterism labelled in order), as label indices (a byte per point, board after board) with their
    number; None when there are more than `max_boards` (by default as many as TABLE_BYTES allows), or
    labels repeat."""
    m = pb.multiset
    if pb.clues or any(c != 1 for c in m.counts) or len(m.labels) > 255:
        return None
    if max_boards is None:
        max_boards = TABLE_BYTES * 8 // pb.board.n_points**2
    first = dict(zip(pb.board.asterisms[0], m.labels, strict=True))
    count, labels = batch_for(pb.board, m).label_indices(first, max_boards + 1)
    return None if count > max_boards else (count, labels)


def pattern_scan(
    pb: PartialBoard,
    budget: int = BUDGET,
    max_boards: int | None = None,
    symmetries: np.ndarray | None = None,
) -> PatternScan | None:
    """The fewest clues of any puzzle on the empty board `pb` and one such puzzle, or when the scan gives
    up (more than `budget` words for one size), the size it proved every puzzle reaches; None when the scan
    does not apply (labels repeat, more than `max_boards` Latin boards, or none at all).  `symmetries`:
    every element of a group of automorphisms of the board (`symmetry.automorphism_elements`), one row of
    point images each, so that one point set per orbit is looked at."""
    listed = listed_boards(pb, max_boards)
    if listed is None or listed[0] == 0:
        return None
    count, labels = listed
    n_points, floor = pb.board.n_points, len(pb.multiset.labels) - 1
    group = None
    if symmetries is not None:
        group = np.ascontiguousarray(symmetries, dtype=np.int32)
        if group.ndim != 2 or group.shape[1] != n_points:
            raise ValueError(f"symmetries need one row of {n_points} point images each, not {group.shape}")
    for k in range(max(floor, 1), n_points + 1):
        found = unique_pattern(labels, count, n_points, k, floor, budget, group)
        if found is False:
            return PatternScan(k, None, count)
        if found is not None:
            board, points = found
            row = labels[board * n_points : (board + 1) * n_points]
            return PatternScan(len(points), {p: pb.multiset.labels[row[p]] for p in points}, count)
    raise AssertionError("every point of a Latin board is a puzzle with one completion")
