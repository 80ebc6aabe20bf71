"""Every critical puzzle of a board whose Latin boards can be listed, up to symmetry, for catalogs.

A clue set taken from a Latin board S is a puzzle when it meets every unavoidable set of S (the points
where another Latin board differs from S), and critical when no clue can go: exactly the *minimal hitting
sets* (minimal transversals) of S's inclusion-minimal unavoidable sets.  They are enumerated, each once, by
Murakami and Uno's MMCS: branch on the elements of one set not yet hit, keep only extensions in which every
chosen element is still the only one hitting some set (so each partial choice stays minimal), and let the
elements already tried at a branching be chosen no more below it.
A puzzle determines its solution, so puzzles of different classes of solutions are never equivalent: each
canonical solution's critical puzzles are put in nauty canonical form and kept once, with orbit sizes.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from dlx_latin.errors import UserInputError
from dlx_latin.latin import PartialBoard, completions, count_completions
from dlx_latin.latin.multiset import Label
from dlx_latin.puzzles.attrition import bits

MAX_POINTS = 64  # an unavoidable set is one 64-bit word
MAX_BOARDS = 200_000  # Latin boards listed to find the unavoidable sets


class TooLargeForPuzzles(UserInputError):
    """A board with too many points or Latin boards to list every critical puzzle."""


def all_boards(pb: PartialBoard) -> list[tuple[Label, ...]]:
    """Every Latin board of an empty board with at most MAX_BOARDS of them (refusing others)."""
    if pb.board.n_points > MAX_POINTS:
        raise TooLargeForPuzzles(
            f"critical puzzles are listed for boards of at most {MAX_POINTS} points, not {pb.board.n_points}"
        )
    if count_completions(pb, MAX_BOARDS + 1) > MAX_BOARDS:
        raise TooLargeForPuzzles(
            f"critical puzzles are listed for boards with at most {MAX_BOARDS} Latin boards"
        )
    return [tuple(b) for b in completions(pb)]


def unavoidable_sets(solution: tuple, boards: list[tuple]) -> list[int]:
    """The inclusion-minimal unavoidable sets of `solution` (bitmasks over the points), smallest first."""
    labels = {x: k for k, x in enumerate(sorted(set(solution), key=str))}
    table = np.array([[labels[x] for x in b] for b in boards], dtype=np.int16).reshape(len(boards), -1)
    differ = table != np.array([labels[x] for x in solution], dtype=np.int16)
    weights = np.left_shift(np.uint64(1), np.arange(len(solution), dtype=np.uint64))
    masks = np.unique(np.bitwise_or.reduce(np.where(differ, weights, np.uint64(0)), axis=1))
    kept = np.zeros(0, dtype=np.uint64)
    for u in sorted((int(m) for m in masks if m), key=int.bit_count):
        word = np.uint64(u)
        if not np.any((kept & word) == kept):  # no smaller unavoidable set inside it
            kept = np.append(kept, word)
    return [int(k) for k in kept]


def minimal_hitting_sets(sets: list[int]) -> Iterator[int]:
    """Every inclusion-minimal set of elements (a bitmask) meeting each of `sets` (bitmasks), each once.

    >>> sorted(minimal_hitting_sets([0b011, 0b110]))  # {0, 1} and {1, 2}: hit by {1}, or by {0, 2}
    [2, 5]
    """
    if not sets:
        yield 0
        return
    holding: dict[int, int] = {}  # element -> the sets holding it (a bitmask over set indices)
    for j, s in enumerate(sets):
        for e in bits(s):
            holding[e] = holding.get(e, 0) | 1 << j
    stack = [(0, {}, sum(1 << e for e in holding), (1 << len(sets)) - 1)]
    while stack:
        chosen, critical, allowed, unhit = stack.pop()
        if not unhit:
            yield chosen
            continue
        first = (unhit & -unhit).bit_length() - 1  # the sets are smallest first: few branches
        branch = allowed & sets[first]
        allowed &= ~branch
        for e in bits(branch):
            kept = {f: c & ~holding[e] for f, c in critical.items()}
            if all(kept.values()):  # every clue chosen is still the only one in some set
                kept[e] = holding[e] & unhit
                stack.append((chosen | 1 << e, kept, allowed, unhit & ~holding[e]))
            allowed |= 1 << e


def critical_masks(solution: tuple, boards: list[tuple]) -> list[int]:
    """Every critical clue set of `solution` (one of `boards`, all Latin boards of its board) as a bitmask
    over the points."""
    return list(minimal_hitting_sets(unavoidable_sets(solution, boards)))
