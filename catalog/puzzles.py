"""Critical puzzles of small boards, up to symmetry, for catalogs.

A clue set taken from a Latin board S is a puzzle when it meets every unavoidable set of S (the points
where another Latin board differs from S), and critical when each clue is the only one in some unavoidable
set.  On boards with few points and few Latin boards every clue set is tried at once as a bitmask (numpy).
A puzzle determines its solution, so puzzles of different classes of solutions are never equivalent: each
canonical solution's critical puzzles are put in nauty canonical form and kept once, with orbit sizes.
"""

from __future__ import annotations

import numpy as np

from dlx_latin.errors import UserInputError
from dlx_latin.latin import PartialBoard, completions
from dlx_latin.latin.multiset import Label

MAX_POINTS = 20  # 2^20 clue sets
MAX_BOARDS = 20_000
CHUNK = 1 << 14  # clue sets tried at once


class TooLargeForPuzzles(UserInputError):
    """A board with too many points or Latin boards to try every clue set."""


def all_boards(pb: PartialBoard) -> list[tuple[Label, ...]]:
    """Every Latin board of an empty small board (refusing large ones)."""
    if pb.board.n_points > MAX_POINTS:
        raise TooLargeForPuzzles(
            f"critical puzzles are listed for boards of at most {MAX_POINTS} points, not {pb.board.n_points}"
        )
    found = [tuple(b) for b in completions(pb, limit=MAX_BOARDS + 1)]
    if len(found) > MAX_BOARDS:
        raise TooLargeForPuzzles(
            f"critical puzzles are listed for boards with at most {MAX_BOARDS} Latin boards"
        )
    return found


def critical_masks(solution: tuple, boards: list[tuple]) -> np.ndarray:
    """Every critical clue set of `solution` as a bitmask over the points."""
    n = len(solution)
    unavoidable = sorted(
        {sum(1 << p for p in range(n) if other[p] != solution[p]) for other in boards if other != solution}
    )
    kept: list[int] = []
    for u in sorted(unavoidable, key=int.bit_count):  # minimal ones suffice
        if not any(k & u == k for k in kept):
            kept.append(u)
    if not kept:
        return np.zeros(1, dtype=np.int64)  # the only Latin board: no clue is needed
    sets = np.array(kept, dtype=np.int64)
    found = []
    for start in range(0, 1 << n, CHUNK):
        masks = np.arange(start, min(start + CHUNK, 1 << n), dtype=np.int64)
        meet = masks[:, None] & sets[None, :]
        puzzles = (meet != 0).all(axis=1)
        single = (meet != 0) & ((meet & (meet - 1)) == 0)
        needed = np.bitwise_or.reduce(np.where(single, meet, 0), axis=1)
        found.append(masks[puzzles & (needed == masks)])
    return np.concatenate(found)
