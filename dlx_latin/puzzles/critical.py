"""Every critical puzzle of a Latin board, for boards whose Latin boards can all be listed.

A clue set taken from a Latin board S is a puzzle when it meets every unavoidable set of S (the points
where another Latin board differs from S), and critical when no clue can go: exactly the *minimal hitting
sets* (minimal transversals) of S's inclusion-minimal unavoidable sets.  They are enumerated, each once, by
Murakami and Uno's MMCS: branch on the elements of one set not yet hit, keep only extensions in which every
chosen element is still the only one hitting some set (so each partial choice stays minimal), and let the
elements already tried at a branching be chosen no more below it (`dlx_latin.puzzles.hitting`).
A puzzle determines its solution, so puzzles of different classes of solutions are never equivalent: the
catalogs and the census take each canonical solution's critical puzzles once per orbit under its own
symmetries (`orbit_representatives`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dlx_latin.boards import Board, per_board
from dlx_latin.errors import UserInputError
from dlx_latin.latin import PartialBoard, completions, count_completions
from dlx_latin.latin.completion import fixed_first_asterism, label_group_order, label_permutations
from dlx_latin.latin.multiset import Label, Multiset
from dlx_latin.puzzles.hitting import distinct, least_sets, minimal_hitting_sets

MAX_POINTS = 64  # an unavoidable set is one 64-bit word
MAX_LISTED = 200_000  # Latin boards listed: those whose first asterism is in a canonical arrangement
MAX_COMPARED = 50_000_000  # Latin boards each solution is compared with: those times the relabellings
MAX_RELABELLINGS = 1_000_000  # relabellings held in memory (9! = 362,880 of them for 9 distinct labels)
CHUNK = 1 << 22  # board comparisons in one numpy step (32 MiB of masks)


class TooLargeForPuzzles(UserInputError):
    """A board with too many points or Latin boards to list every critical puzzle."""


def check_within_reach(pb: PartialBoard) -> int:
    """The number of Latin boards with the first asterism in a canonical arrangement, refusing
    (TooLargeForPuzzles) a board whose critical puzzles are beyond reach: too many points, or too many
    such boards or Latin boards in all.  Cheap: the counts stop past the limits."""
    if pb.board.n_points > MAX_POINTS:
        raise TooLargeForPuzzles(
            f"critical puzzles are found for boards of at most {MAX_POINTS} points, not {pb.board.n_points}"
        )
    relabellings = label_group_order(pb.multiset)
    if relabellings > MAX_RELABELLINGS:
        raise TooLargeForPuzzles(
            f"critical puzzles are found for multisets with at most {MAX_RELABELLINGS:,} relabellings, "
            f"not {relabellings:,}"
        )
    limit = min(MAX_LISTED, MAX_COMPARED // relabellings)
    listed = 0
    for part in fixed_first_asterism(pb.board, pb.multiset):
        listed += count_completions(part, limit + 1 - listed)
        if listed > limit:
            raise TooLargeForPuzzles(
                f"critical puzzles are found for boards of at most {MAX_COMPARED:,} Latin boards, held as at "
                f"most {MAX_LISTED:,} with the first asterism fixed times the relabellings "
                f"({relabellings:,} here)"
            )
    return listed


class LatinBoards:
    """Every Latin board of an empty board, held compactly: the boards whose first asterism is in a canonical
    arrangement (one per orbit under relabelling) and the relabellings, whose images are all the others
    (6×6 Sudoku's 28,200,960 grids are 39,168 boards and 720 relabellings).  Enough to find where each one
    differs from a given Latin board: its unavoidable sets, hence its critical puzzles."""

    def __init__(self, pb: PartialBoard) -> None:
        check_within_reach(pb)
        self.n = pb.board.n_points
        self.labels = list(pb.multiset.labels)
        index = {x: k for k, x in enumerate(self.labels)}
        parts = fixed_first_asterism(pb.board, pb.multiset)
        listed = [[index[x] for x in b] for part in parts for b in completions(part)]
        table = np.array(listed, dtype=np.uint8).reshape(len(listed), self.n)
        weights = np.left_shift(np.uint64(1), np.arange(self.n, dtype=np.uint64))
        # equal[a]: per listed board, the points holding label a (a bitmask)
        self.equal = np.stack(
            [np.bitwise_or.reduce(np.where(table == a, weights, 0), axis=1) for a in range(len(self.labels))]
        )
        images = [[index[s[x]] for x in self.labels] for s in label_permutations(pb.multiset)]
        self.relabellings = np.array(images, dtype=np.uint8)

    def unavoidable_sets(self, solution: Sequence[Label]) -> list[int]:
        """The inclusion-minimal unavoidable sets of the Latin board `solution` (bitmasks over the points,
        smallest first): the least sets of points where another Latin board differs from it."""
        index = {x: k for k, x in enumerate(self.labels)}
        holding = np.zeros(len(self.labels), dtype=np.uint64)  # per label, the points where solution has it
        for p, x in enumerate(solution):
            holding[index[x]] |= np.uint64(1 << p)
        # The image of listed board H under relabelling s agrees with the solution at p exactly when H
        # holds at p the label a that s sends to the solution's label there: the agreeing points are the
        # union over a of equal[a] & holding[s(a)].
        step = max(1, CHUNK // self.equal.shape[1])
        agreeing = []
        for start in range(0, len(self.relabellings), step):
            images = self.relabellings[start : start + step]
            same = np.zeros((len(images), self.equal.shape[1]), dtype=np.uint64)
            for a in range(len(self.labels)):
                same |= self.equal[a][None, :] & holding[images[:, a]][:, None]
            agreeing.append(distinct(same.ravel()))
        everywhere = np.uint64((1 << self.n) - 1)
        differ = everywhere ^ distinct(np.concatenate(agreeing))
        return least_sets(differ[differ != 0])

    def critical_masks(self, solution: Sequence[Label]) -> list[int]:
        """Every critical clue set of the Latin board `solution` as a bitmask over the points."""
        return list(minimal_hitting_sets(self.unavoidable_sets(solution)))


@per_board
def latin_boards(board: Board, multiset: Multiset) -> LatinBoards:
    """The LatinBoards of an empty board, made once per board in each process (workers get board and
    multiset, which pickle small, and list the boards themselves)."""
    return LatinBoards(PartialBoard(board, multiset))


def orbit_representatives(masks: list[int], generators: list[list[int]]) -> list[int]:
    """The least mask of each orbit of `masks` (point sets, closed under the group) under the group of
    point permutations generated by `generators`, in increasing order."""
    if not masks:
        return []
    ordered = distinct(np.array(masks, dtype=np.uint64))
    images = []
    for g in generators:
        image = np.zeros_like(ordered)
        for p, q in enumerate(g):
            image |= ((ordered >> np.uint64(p)) & np.uint64(1)) << np.uint64(q)
        images.append(np.searchsorted(ordered, image))
    root = np.arange(len(ordered))  # label propagation: every mask ends with the least index of its orbit
    while True:
        before = root.copy()
        for image in images:
            np.minimum(root, root[image], out=root)
            root[image] = np.minimum(root[image], root)
        root = root[root]
        if np.array_equal(root, before):
            return [int(m) for m in ordered[distinct(root)]]
