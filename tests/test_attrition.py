"""Attrition: every rule is sound (never removes a solution label) and the closure is monotonic; fair
puzzles are solved without search; the attrition solver agrees with the exact-cover engine."""

import random
from pathlib import Path

import pytest

from dlx_latin.boards import board_from_spec
from dlx_latin.formats.puzzle import read_puzzle
from dlx_latin.latin import Multiset, PartialBoard, completions
from dlx_latin.puzzles.attrition import RULES, Contradiction, Domains, propagate, solve

EXAMPLES = Path(__file__).parent.parent / "examples"

FAMILIES = [
    ("latin:5", None),
    ("latin:6", "1^3,2^3"),
    ("sudoku:2x3", None),
    ("sudoku:3x3", None),
    ("sudoku:3x3", "2^2,3^3,4^4"),  # Sudoku Ripeto's multiset
    ("diagonal:5", None),
    ("hexagon:2", None),
    ("jigsaw:aaabbbaacbbbacccddeccdddeeefdfeeffff", None),
]


def random_board(spec, multiset, rng):
    """A random Latin board of the family: the first completion with its labels permuted at random."""
    board = board_from_spec(spec)
    m = Multiset.parse(multiset) if multiset else Multiset.default(board.asterism_size)
    first = next(completions(PartialBoard(board, m)))
    same = {}
    for label, c in zip(m.labels, m.counts, strict=True):
        same.setdefault(c, []).append(label)
    rename = {}
    for group in same.values():
        rename.update(zip(group, rng.sample(group, len(group)), strict=True))
    return board, m, [rename[x] for x in first]


def partial_with(board, m, full, clues, rng):
    return PartialBoard(board, m, {p: full[p] for p in rng.sample(range(board.n_points), clues)})


@pytest.mark.parametrize("spec,multiset", FAMILIES)
def test_rules_never_remove_a_solution_label(spec, multiset):
    rng = random.Random(spec + str(multiset))
    board, m, full = random_board(spec, multiset, rng)
    for trial in range(12):
        pb = partial_with(board, m, full, rng.randrange(board.n_points // 3, board.n_points), rng)
        solutions = list(completions(pb, limit=200))
        d = Domains.of(pb)
        try:
            propagate(d)
        except Contradiction:
            pytest.fail("a completable board was called contradictory")
        index = {label: j for j, label in enumerate(m.labels)}
        for solution in solutions:
            for p, label in enumerate(solution):
                assert d.domain[p] >> index[label] & 1, (trial, p, label)


@pytest.mark.parametrize("spec,multiset", FAMILIES[:5])
def test_each_rule_alone_is_sound(spec, multiset):
    rng = random.Random(1 + len(spec))
    board, m, full = random_board(spec, multiset, rng)
    index = {label: j for j, label in enumerate(m.labels)}
    for rule in RULES:
        pb = partial_with(board, m, full, board.n_points // 2, rng)
        solutions = list(completions(pb, limit=100))
        d = Domains.of(pb)
        propagate(d, [RULES[0], rule])  # saturation keeps needs and domains in step
        for solution in solutions:
            assert all(d.domain[p] >> index[x] & 1 for p, x in enumerate(solution)), rule.__name__


@pytest.mark.parametrize("spec,multiset", FAMILIES)
def test_closure_is_monotonic(spec, multiset):
    """More clues (a more advanced domain) never give a weaker fixpoint: closure(D') is inside closure(D)."""
    rng = random.Random(spec)
    board, m, full = random_board(spec, multiset, rng)
    for _ in range(8):
        pb = partial_with(board, m, full, board.n_points // 3, rng)
        extra = {p: full[p] for p in rng.sample(range(board.n_points), 5)}
        wide, narrow = Domains.of(pb), Domains.of(pb.with_clues(extra))
        propagate(wide)
        propagate(narrow)
        assert all(n & ~w == 0 for n, w in zip(narrow.domain, wide.domain, strict=True))


def test_contradictions_are_found():
    board = board_from_spec("latin:4")
    # row 0 needs a 4 but column 3 already holds one and the row's other cells are full
    pb = PartialBoard(board, Multiset.default(4), {0: 1, 1: 2, 2: 3, 15: 4})
    with pytest.raises(Contradiction):
        propagate(Domains.of(pb))
    assert list(solve(pb)) == []


@pytest.mark.parametrize("spec,multiset", FAMILIES)
def test_attrition_solver_equals_exact_cover(spec, multiset):
    rng = random.Random(spec + "solve")
    board, m, full = random_board(spec, multiset, rng)
    for _ in range(6):
        pb = partial_with(board, m, full, rng.randrange(board.n_points // 3, board.n_points // 2 + 2), rng)
        engine = sorted(tuple(x) for x in completions(pb, limit=300))
        mine = sorted(tuple(x) for x in solve(pb, limit=300))
        if len(engine) < 300:
            assert mine == engine


def test_example_puzzles_are_fair():
    for name in ["sudoku-fig1.json", "sudoku-ripeto-fig21.json"]:
        pb = read_puzzle((EXAMPLES / name).read_text()).partial
        d = Domains.of(pb)
        propagate(d)
        assert d.solved()
        assert d.labelling() == next(completions(pb))


@pytest.mark.parametrize("spec,multiset", FAMILIES)
def test_verdict_equals_the_proofs(spec, multiset):
    """verdict() (the cheap rules in C, the rest in Python) gives explain()'s fair, rating and score, on
    partial boards of every fill (fair or not, unique or not) and on ones with a clashing clue."""
    from dlx_latin.puzzles.generate import generate
    from dlx_latin.puzzles.proof import explain, verdict

    rng = random.Random(f"verdict {spec}")
    board, m, full = random_board(spec, multiset, rng)
    n = board.n_points
    boards = [partial_with(board, m, full, rng.randrange(n // 3, n + 1), rng) for _ in range(40)]
    boards += [generate(PartialBoard(board, m), seed=k).puzzle for k in range(5)]
    clash = dict(boards[0].clues)
    clash[rng.choice([p for p in range(n) if p not in clash] or [0])] = full[0]
    boards.append(PartialBoard(board, m, clash))
    seen = set()
    for pb in boards:
        want = explain(pb).verdict
        assert verdict(pb) == want, pb.clues
        seen.add((want.fair, want.rating))
    assert len(seen) >= 2  # more than one kind of verdict was compared


def test_verdict_past_the_bitboards_labels(monkeypatch):
    """Past 64 labels there is no BitBoard: verdict is explain's own (the limit lowered to try it)."""
    from dlx_latin.puzzles import proof
    from dlx_latin.puzzles.generate import generate

    monkeypatch.setattr(proof, "MAX_LABELS", 2)
    monkeypatch.setattr(proof, "batch_for", None)  # never asked
    pb = generate(PartialBoard(board_from_spec("sudoku:2x3")), seed=3).puzzle
    assert proof.verdict(pb) == proof.explain(pb).verdict
