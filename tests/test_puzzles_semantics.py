"""Palomo's definitions (partial Latin, completable, Latin puzzle, critical, removable clues, inscriptions),
cross-checked against brute force on small boards."""

import random
from pathlib import Path

import pytest
from checker import brute_force_completions

from dlx_latin.boards import board_from_spec
from dlx_latin.formats.puzzle import read_puzzle
from dlx_latin.latin import (
    InvalidCluesError,
    InvalidMultisetError,
    Multiset,
    NotUniqueError,
    PartialBoard,
    completions,
    count_completions,
    is_completable,
    is_critical,
    is_latin_puzzle,
    removable_clues,
)

EXAMPLES = Path(__file__).parent.parent / "examples"


def random_partial(spec: str, multiset: str | None, empty: int, rng: random.Random) -> PartialBoard:
    """A random Latin board of the family with `empty` random points emptied."""
    board = board_from_spec(spec)
    m = Multiset.parse(multiset) if multiset else None
    solution = rng.choice(list(completions(PartialBoard(board, m), limit=200)))
    holes = set(rng.sample(range(board.n_points), empty))
    return PartialBoard(board, m, {p: label for p, label in enumerate(solution) if p not in holes})


@pytest.mark.parametrize("seed", range(40))
def test_counts_and_removable_clues_match_brute_force(seed):
    rng = random.Random(seed)
    spec, multiset = rng.choice(
        [("latin:4", None), ("latin:4", "1,1,2,2"), ("sudoku:2x2", None), ("diagonal:4", None)]
    )
    pb = random_partial(spec, multiset, rng.randint(4, 12), rng)
    brute = brute_force_completions(pb)
    assert count_completions(pb) == len(brute)
    assert sorted(map(tuple, completions(pb))) == sorted(map(tuple, brute))
    assert is_completable(pb) == bool(brute)
    assert is_latin_puzzle(pb) == (len(brute) == 1)
    if len(brute) == 1:
        expected = [p for p in sorted(pb.clues) if len(brute_force_completions(pb.without([p]))) == 1]
        assert removable_clues(pb) == expected
        assert is_critical(pb) == (not expected)
    else:
        with pytest.raises(NotUniqueError):
            removable_clues(pb)


def test_not_partial_latin_has_no_completion():
    pb = PartialBoard(board_from_spec("latin:3"), clues={0: 1, 1: 1})
    assert not pb.is_partial_latin() and pb.overfull() == [(0, 1)]
    assert count_completions(pb) == 0 and list(completions(pb)) == [] and not is_completable(pb)


def test_repeated_labels_respect_their_counts():
    pb = PartialBoard(board_from_spec("latin:4"), Multiset.parse("1,1,2,2"), {0: 1, 1: 1})
    assert pb.is_partial_latin()
    assert not pb.with_clues({2: 1}).is_partial_latin()


def test_inscription_clues_stay_and_are_exempt_from_criticality():
    pf = read_puzzle(Path(EXAMPLES, "sudoku-fig1.json").read_text())
    pb = pf.partial
    removable = removable_clues(pb)
    inscribed = PartialBoard(pb.board, pb.multiset, pb.clues, frozenset(removable[:3]))
    assert removable_clues(inscribed) == removable[3:]
    assert set(inscribed.without(removable[:3]).clues) == set(pb.clues)  # inscription clues do not go


def test_shared_examples_solve_uniquely_to_their_solutions():
    for name in ("sudoku-fig1", "sudoku-ripeto-fig21"):
        pf = read_puzzle(Path(EXAMPLES, f"{name}.json").read_text())
        assert is_latin_puzzle(pf.partial)
        assert list(completions(pf.partial)) == [pf.solution]


@pytest.mark.parametrize(
    "make, error, message",
    [
        (
            lambda b: PartialBoard(b, Multiset.parse("1,2,3")),
            InvalidMultisetError,
            "the multiset has 3 labels",
        ),
        (
            lambda b: PartialBoard(b, clues={0: 9}),
            InvalidCluesError,
            "label 9 is not in the multiset 1,2,3,4",
        ),
        (lambda b: PartialBoard(b, clues={16: 1}), InvalidCluesError, "clue at point 16"),
        (
            lambda b: PartialBoard(b, clues={0: 1}, inscription=frozenset({3})),
            InvalidCluesError,
            "inscription point 3",
        ),
    ],
)
def test_bad_partial_boards(make, error, message):
    with pytest.raises(error, match=message):
        make(board_from_spec("latin:4"))


@pytest.mark.parametrize(
    "spec, message", [("1,,2", "empty label"), ("1^x", "bad repeat"), ("", "empty label")]
)
def test_bad_multisets(spec, message):
    with pytest.raises(InvalidMultisetError, match=message):
        Multiset.parse(spec)
