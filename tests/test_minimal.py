"""Smallest puzzles: the implicit hitting set method against brute force, and the published minima."""

import itertools
import random

import pytest
from checker import brute_force_completions
from cli import run_cli

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import Multiset, PartialBoard, completions, count_completions, is_critical
from dlx_latin.puzzles.minimal import (
    NotTheFewest,
    minimal_puzzles,
    puzzles_with_fewest_clues,
    smallest_hitting_set,
    smallest_puzzle,
)
from symmetry.counting import all_classes


def minimum(pb, witnesses=1):
    """`minimal_puzzles` over one Latin board per symmetry class, as the command line runs it."""
    return minimal_puzzles(pb, witnesses, [f.labelling for f in all_classes(pb)])


def partial(spec, multiset=None, clues=None):
    board = board_from_spec(spec)
    m = Multiset.parse(multiset) if multiset else Multiset.default(board.asterism_size)
    return PartialBoard(board, m, clues or {})


def brute_smallest(solved):
    """The fewest clues of a puzzle for `solved`, trying every clue set by size (brute-force completions)."""
    n = solved.board.n_points
    for k in range(n + 1):
        for points in itertools.combinations(range(n), k):
            trial = PartialBoard(solved.board, solved.multiset, {p: solved.clues[p] for p in points})
            if len(brute_force_completions(trial)) == 1:
                return k
    raise AssertionError


def test_hitting_sets_against_brute_force():
    rng = random.Random(4)
    for _ in range(60):
        sets = [
            sum(1 << e for e in rng.sample(range(10), rng.randint(1, 4))) for _ in range(rng.randint(1, 8))
        ]
        best = min(
            k
            for k in range(11)
            for chosen in itertools.combinations(range(10), k)
            if all(s & sum(1 << e for e in chosen) for s in sets)
        )
        found = smallest_hitting_set(sets)
        assert found.bit_count() == best and all(s & found for s in sets)
        assert smallest_hitting_set(sets, at_most=best - 1) is None


@pytest.mark.parametrize(
    "spec,multiset", [("latin:3", None), ("latin:4", None), ("sudoku:2x2", None), ("latin:4", "1^2,2^2")]
)
def test_smallest_puzzle_against_brute_force(spec, multiset):
    pb = partial(spec, multiset)
    every = list(completions(pb))
    for labelling in random.Random(spec).sample(every, 3):
        solved = pb.with_clues(dict(enumerate(labelling)))
        puzzle = smallest_puzzle(solved)
        assert count_completions(puzzle) == 1 and is_critical(puzzle)
        assert len(puzzle.clues) == brute_smallest(solved)


@pytest.mark.parametrize("spec,multiset", [("sudoku:2x2", None), ("latin:4", None), ("latin:4", "1^2,2^2")])
def test_puzzles_with_fewest_clues_against_every_clue_set(spec, multiset):
    """The lazy hitting-set enumeration finds exactly the clue sets of the fewest size that every other
    Latin board of the board misses somewhere (all 2^16 clue sets tried by dlx_latin.puzzles.critical)."""
    from dlx_latin.puzzles.critical import LatinBoards

    pb = partial(spec, multiset)
    fewest = minimum(pb).clues
    held = LatinBoards(pb)
    for labelling in random.Random(spec).sample(list(completions(pb)), 4):
        solved = pb.with_clues(dict(enumerate(labelling)))
        found = puzzles_with_fewest_clues(solved, fewest)
        assert len(found) == len(set(found))
        every = {m for m in held.critical_masks(labelling) if m.bit_count() == fewest}
        assert set(found) == every


def test_a_clue_count_above_the_fewest_is_refused():
    pb = partial("sudoku:2x2")
    solved = pb.with_clues(dict(enumerate(next(iter(completions(pb))))))
    assert puzzles_with_fewest_clues(solved, 4)  # this board has 4-clue puzzles
    with pytest.raises(NotTheFewest):
        puzzles_with_fewest_clues(solved, 5)


def test_smallest_critical_sets_of_latin_squares():
    """Smallest critical sets of Latin squares of order 2..5: 1, 2, 4, 6."""
    assert [minimum(partial(f"latin:{n}")).clues for n in range(2, 6)] == [1, 2, 4, 6]


def test_minimal_sudoku_puzzles():
    assert minimum(partial("sudoku:2x2")).clues == 4  # no 3-clue 4x4 Sudoku puzzle
    found = minimum(partial("sudoku:2x3"), 2)
    assert found.clues == 8  # A372224: no 7-clue 6x6 Sudoku puzzle
    assert all(count_completions(w) == 1 and len(w.clues) == 8 for w in found.witnesses)


def test_inscription_counts_and_stays():
    pb = partial("latin:4")
    labelling = next(completions(pb))
    solved = PartialBoard(pb.board, pb.multiset, dict(enumerate(labelling)), {5, 10})
    puzzle = smallest_puzzle(solved)
    assert {5, 10} <= set(puzzle.clues) and count_completions(puzzle) == 1


def test_cli_minimal():
    out = run_cli("minimal", "sudoku:2x2", "--json")
    assert out.returncode == 0, out.stderr
    assert '"clues": 4' in out.stdout
    partial_board = run_cli("minimal", "latin:4", "--clues", "1234............")
    assert partial_board.returncode == 2 and "empty BOARD or a full Latin board" in partial_board.stderr
