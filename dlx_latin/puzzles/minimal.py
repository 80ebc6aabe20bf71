"""Smallest critical sets and minimal puzzles (Palomo Def. 3.14), exactly.

A set of clues taken from a Latin board S is a puzzle for S when no other Latin board agrees with S on it.
For any other board S', the points where S' differs from S form an *unavoidable set*: a puzzle for S must
hold a clue in it.  So the smallest puzzles for S are the smallest *hitting sets* of all unavoidable sets.
They are found by the implicit hitting set method: keep a few unavoidable sets, find a smallest set H
hitting them (exact branch and bound), and ask the board's PuzzleBatch whether H's clues have another
completion; if not, H is optimal (every puzzle must hit the sets kept, so none is smaller), otherwise the
new completions give new unavoidable sets and the loop goes on.  The answer is exact, not a heuristic.

The minimal puzzles of a board are the smallest over all its Latin boards; a board's symmetries and
relabellings keep clue counts, so one Latin board per class (`symmetry.all_classes`) suffices.  When each
label appears once, `patterns.pattern_scan` looks at all the Latin boards at once first: it settles most
boards outright, and where it gives up, the size it reached bounds the search below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from dlx_latin.latin.batch import batch_for
from dlx_latin.latin.completion import completions
from dlx_latin.latin.multiset import Label
from dlx_latin.latin.partial import PartialBoard
from dlx_latin.puzzles.attrition import bits
from dlx_latin.puzzles.hitting import add_minimal, smallest_hitting_set, unhit
from dlx_latin.puzzles.patterns import ONE_BOARD_BUDGET, pattern_scan

NEW_SETS = 16  # other completions asked for at each round (each gives an unavoidable set)
SEED_LIMIT = 64  # completions listed per region when seeding small unavoidable sets


@dataclass(frozen=True)
class Minimum:
    """The fewest clues of a puzzle, and puzzles with that many clues."""

    clues: int
    witnesses: tuple[PartialBoard, ...]


def _seed_sets(solved: PartialBoard, solution: list[Label]) -> list[int]:
    """Small unavoidable sets to start from: the other ways to place two labels on the points that hold
    them, everything else fixed, and the other ways to fill two asterisms, everything else fixed."""
    board, m = solved.board, solved.multiset
    regions = []
    for i, a in enumerate(m.labels):
        for b in m.labels[i + 1 :]:
            regions.append({p for p in range(board.n_points) if solution[p] in (a, b)})
    for i, a in enumerate(board.asterisms):
        for b in board.asterisms[i + 1 :]:
            regions.append(set(a) | set(b))
    out: list[int] = []
    for region in regions:
        fixed = {p: solution[p] for p in range(board.n_points) if p not in region}
        for other in batch_for(board, m).completions(fixed, SEED_LIMIT):
            if other != solution:
                add_minimal(out, sum(1 << p for p in region if other[p] != solution[p]))
    return out


def fewest_possible(pb: PartialBoard) -> int:
    """A lower bound on the clues of any puzzle of the board: two labels with the same count in the
    multiset can be swapped on any Latin board, so a puzzle shows all but at most one of each such group
    of labels (and holds its inscription)."""
    return max(sum(len(group) - 1 for group in pb.multiset.by_count), len(pb.inscription))


def smallest_puzzle(
    solved: PartialBoard,
    below: int | None = None,
    progress: Callable[[int, int], object] | None = None,
    at_least: int = 0,
) -> PartialBoard | None:
    """A puzzle with the fewest clues whose only completion is the Latin board `solved` (every point a
    clue); the clues of its inscription always stay and are counted.  With `below`, None when every puzzle
    for `solved` has at least `below` clues (the search stops as soon as that is proved); `at_least`: a
    number of clues every puzzle is known to have (the search starts there)."""
    board, m = solved.board, solved.multiset
    solution: list[Label] = [solved.clues[p] for p in range(board.n_points)]
    kept = {p: solution[p] for p in solved.inscription}
    inscribed = sum(1 << p for p in kept)
    unavoidable: list[int] = []
    for found in _seed_sets(solved, solution):
        add_minimal(unavoidable, found & ~inscribed)
    size = max(0, at_least - len(kept))
    while True:
        at_most = None if below is None else below - 1 - len(kept)
        hitting = smallest_hitting_set(unavoidable, size, at_most)
        if hitting is None:
            return None
        size = hitting.bit_count()
        clues = {**kept, **{p: solution[p] for p in bits(hitting)}}
        others = [c for c in batch_for(board, m).completions(clues, NEW_SETS + 1) if c != solution]
        if not others:
            return PartialBoard(board, m, clues, solved.inscription)
        for other in others:
            differ = sum(1 << p for p in range(board.n_points) if other[p] != solution[p])
            add_minimal(unavoidable, differ & ~inscribed)
        if progress is not None:
            progress(len(unavoidable), size)


def minimal_puzzles(
    pb: PartialBoard,
    witnesses: int = 1,
    boards: Iterable[Sequence[Label]] | None = None,
    progress: Callable[[int, float], object] | None = None,
    scan_budget: int = ONE_BOARD_BUDGET,
    symmetries: np.ndarray | None = None,
) -> Minimum:
    """The fewest clues of any Latin puzzle on an empty board (Def. 3.14), with up to `witnesses` puzzles
    that have that many: by the pattern scan when it settles it within `scan_budget` (one witness), else
    the smallest puzzle of each Latin board in `boards`, until puzzles as small as the scan's bound turn up.

    Symmetric Latin boards have equally small puzzles, so `boards` need only hold one Latin board per class
    under the board's symmetries (`f.labelling for f in symmetry.all_classes(pb)`: 2 for the 4x4 Sudoku
    instead of 288; read only when needed); None tries every Latin board of `pb`.  `progress(boards done,
    fraction)` after each (the fraction is 0 when `boards` has no length).  `symmetries`: the board's
    automorphisms, for the scan (`patterns.pattern_scan`)."""
    scan = pattern_scan(pb, scan_budget, symmetries=symmetries)
    if scan is not None and scan.puzzle is not None and witnesses == 1:
        return Minimum(scan.at_least, (PartialBoard(pb.board, pb.multiset, scan.puzzle),))
    floor = fewest_possible(pb) if scan is None else max(scan.at_least, fewest_possible(pb))
    best: list[PartialBoard] = []
    total = len(boards) if isinstance(boards, Sequence) else 0
    for done, labelling in enumerate(completions(pb) if boards is None else boards, start=1):
        solved = PartialBoard(pb.board, pb.multiset, dict(enumerate(labelling)))
        below = None if not best else len(best[0].clues) + (len(best) < witnesses)
        puzzle = smallest_puzzle(solved, below, at_least=floor)
        if progress is not None:
            progress(done, done / total if total else 0.0)
        if puzzle is None:
            continue
        if not best or len(puzzle.clues) < len(best[0].clues):
            best = [puzzle]
        elif len(puzzle.clues) == len(best[0].clues) and len(best) < witnesses:
            best.append(puzzle)
        if len(best[0].clues) <= floor and len(best) >= witnesses:
            break  # no puzzle has fewer clues
    return Minimum(len(best[0].clues), tuple(best))


class NotTheFewest(ValueError):
    """A puzzle with fewer clues than asked for turned up: the clue count given was not the fewest."""


def puzzles_with_fewest_clues(solved: PartialBoard, clues: int) -> list[int]:
    """Every puzzle for the full Latin board `solved` with `clues` clues (bitmasks over the points), where
    `clues` is the fewest any puzzle of the board has (`minimal_puzzles`).

    The hitting sets of the unavoidable sets known so far are enumerated exactly once each (branch on the
    points of a smallest set not yet hit, each branch forbidding the points tried before it, pruned by a
    packing of disjoint sets).  A hitting set is asked of the engine: if the board is its only completion it
    is a puzzle; if not, the other completions give new unavoidable sets, none of them hit, and the
    enumeration goes on below the same node.  Every puzzle hits every unavoidable set, so none is missed."""
    board, m = solved.board, solved.multiset
    solution: list[Label] = [solved.clues[p] for p in range(board.n_points)]
    unavoidable = _seed_sets(solved, solution)
    found: list[int] = []

    def unique(chosen: int) -> bool:
        clues = {p: solution[p] for p in bits(chosen)}
        others = [c for c in batch_for(board, m).completions(clues, NEW_SETS + 1) if c != solution]
        for other in others:
            add_minimal(unavoidable, sum(1 << p for p in range(board.n_points) if other[p] != solution[p]))
        return not others

    def enumerate_below(chosen: int, forbidden: int, left: int) -> None:
        while True:
            missed = unhit(unavoidable, chosen, forbidden)
            if missed is None:
                return
            smallest, packing = missed
            if smallest:
                break
            if unique(chosen):  # every known set is hit: a puzzle, or new sets that it misses
                if left:
                    raise NotTheFewest(f"a puzzle with {chosen.bit_count()} clues exists")
                found.append(chosen)
                return
        if packing > left:
            return
        for e in bits(smallest):
            enumerate_below(chosen | 1 << e, forbidden, left - 1)
            forbidden |= 1 << e

    enumerate_below(0, 0, clues)
    return found
