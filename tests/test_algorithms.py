"""Palomo's Algorithms 1-3 and the critical-puzzle fast path."""

import random

import pytest
from checker import brute_force_completions

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import Multiset, NotUniqueError, PartialBoard, completions, is_critical, is_latin_puzzle
from dlx_latin.latin.algorithms import (
    critical_puzzle,
    list_latin_boards,
    puzzles_from_latin_board,
    puzzles_from_partial_board,
)


def latin_board(spec: str, multiset: str | None = None, pick: int = 0) -> PartialBoard:
    board = board_from_spec(spec)
    m = Multiset.parse(multiset) if multiset else None
    solution = list(completions(PartialBoard(board, m), limit=pick + 1))[pick]
    return PartialBoard(board, m, dict(enumerate(solution)))


def test_algorithm_1_lists_boards():
    pb = PartialBoard(board_from_spec("latin:4"), clues={0: 1, 5: 1})
    assert len(list_latin_boards(pb)) == len(brute_force_completions(pb))
    assert len(list_latin_boards(pb, limit=3)) == 3
    assert list_latin_boards(PartialBoard(board_from_spec("latin:3"), clues={0: 1, 1: 1})) == []


@pytest.mark.parametrize("seed", range(12))
def test_algorithm_2_chain_on_small_boards_against_brute_force(seed):
    rng = random.Random(seed)
    spec, multiset = rng.choice(
        [("latin:4", None), ("sudoku:2x2", None), ("latin:4", "1,1,2,2"), ("diagonal:4", None)]
    )
    lb = latin_board(spec, multiset, pick=rng.randrange(20))
    chain = puzzles_from_latin_board(lb, seed=seed)
    assert [len(p.clues) for p in chain] == list(range(15, 15 - len(chain), -1))
    for puzzle in chain:
        assert len(brute_force_completions(puzzle)) == 1
    last = chain[-1]
    for p in last.clues:  # critical, by brute force
        assert len(brute_force_completions(last.without([p]))) > 1
    assert critical_puzzle(lb, seed=seed).clues == last.clues


@pytest.mark.parametrize(
    "spec, multiset",
    [
        ("sudoku:3x3", None),
        ("sudoku:3x3", "1^3,2^3,3^3"),
        ("hexagon:3", None),
        ("icosahedron:2", None),
        ("tartan", None),
    ],
)
def test_critical_puzzles_on_larger_boards(spec, multiset):
    lb = latin_board(spec, multiset)
    puzzle = critical_puzzle(lb, seed=7)
    assert is_latin_puzzle(puzzle) and is_critical(puzzle)
    assert list(completions(puzzle)) == [lb.labelling()]


def test_inscription_stays():
    lb = latin_board("sudoku:2x2")
    inscribed = PartialBoard(lb.board, lb.multiset, lb.clues, frozenset({0, 1, 2, 3}))
    for puzzle in puzzles_from_latin_board(inscribed, seed=3):
        assert {0, 1, 2, 3} <= set(puzzle.clues) and puzzle.inscription == {0, 1, 2, 3}
    final = critical_puzzle(inscribed, seed=3)
    assert is_critical(final)


def test_algorithm_3_from_a_partial_board():
    pb = PartialBoard(board_from_spec("sudoku:2x2"), clues={0: 1, 1: 2, 2: 3, 3: 4})
    puzzles = puzzles_from_partial_board(pb, limit=3, seed=1)
    solutions = {tuple(next(completions(p))) for p in puzzles}
    assert len(solutions) == 3 and all(is_latin_puzzle(p) for p in puzzles)


def test_removal_needs_a_puzzle():
    with pytest.raises(NotUniqueError):
        puzzles_from_latin_board(PartialBoard(board_from_spec("latin:3")))
