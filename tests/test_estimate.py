"""Knuth's estimate: unbiased by construction (checked exactly over every probe), close on known counts."""

import json
import random
from fractions import Fraction

import pytest
from cli import run_cli

from dlx_latin.boards import board_from_spec
from dlx_latin.exact_cover import ExactCoverProblem
from dlx_latin.exact_cover.estimate import estimate, probe
from dlx_latin.latin import Multiset, PartialBoard, count_completions, estimate_completions


def expected_probe(problem: ExactCoverProblem, path: tuple[int, ...] = (), chance=Fraction(1)):
    """The exact mean of a probe's (solutions, nodes) estimates: every walk weighted by its chance."""
    degree = problem.search(path=path).degree()
    weight = 1 / chance  # the product of the degrees above this node
    if degree < 0:
        return weight, weight
    if degree == 0:
        return Fraction(0), weight
    solutions, nodes = Fraction(0), weight
    for k in range(degree):
        s, n = expected_probe(problem, path + (k,), chance / degree)
        solutions, nodes = solutions + s / degree, nodes + n / degree
    return solutions, nodes


def random_problem(rng: random.Random) -> ExactCoverProblem:
    items = list(range(rng.randint(3, 6)))
    options = [rng.sample(items, rng.randint(1, 3)) for _ in range(rng.randint(4, 12))]
    return ExactCoverProblem(items, options)


@pytest.mark.parametrize("seed", range(20))
def test_the_mean_probe_is_the_exact_count(seed):
    """Unbiased: the mean over every walk is the count (the probe's branches are the search's children)."""
    problem = random_problem(random.Random(seed))
    solutions, nodes = expected_probe(problem)
    assert solutions == problem.count(memo=False)
    assert nodes >= 1


def test_a_probe_returns_exact_integers():
    problem = ExactCoverProblem(["a", "b"], [["a"], ["b"], ["a", "b"]])
    assert probe(problem, random.Random(0)) in {(2, 3), (2, 5)}
    assert estimate(problem, probes=50, seed=0).solutions == 2


@pytest.mark.parametrize(
    ("spec", "multiset", "exact"),
    [
        ("latin:5", None, 161_280),  # OEIS A002860
        ("sudoku:2x3", None, 28_200_960),  # A107739
        # Algorithm M: repeated labels; equal to the plain search's count (test_latin_counts, slow)
        ("latin:6", "1^2,2^2,3^2", 35_599_500),
        ("triangle:6", None, 39_730_308_710_400),  # classes found by levels add up to it (test_cli_enumerate)
    ],
)
def test_estimates_land_near_published_counts(spec, multiset, exact):
    board = board_from_spec(spec)
    pb = PartialBoard(board, Multiset.parse(multiset) if multiset else None)
    e = estimate_completions(pb, probes=2000, seed=7)
    assert e.hits > 1000
    assert abs(e.solutions - exact) < 4 * e.stderr
    assert e.stderr < 0.1 * exact


def test_a_puzzle_estimate_is_its_completions():
    board = board_from_spec("latin:4")
    pb = PartialBoard(board, None, {0: 1, 5: 1})
    e = estimate_completions(pb, probes=500, seed=1)
    assert abs(e.solutions - count_completions(pb)) < 4 * e.stderr + 1e-9


def test_cli_estimate_json_and_classes_bound():
    out = run_cli("estimate", "latin:5", "--probes", "500", "--seed", "2", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["probes"] == 500 and data["hits"] == 500
    assert data["group_order"] == 2 * 120**2 * 120  # automorphisms 2(n!)^2, relabellings n!
    assert data["classes_bound_estimate"] == pytest.approx(data["estimate"] / data["group_order"])
    assert data["classes_bound_stderr"] == pytest.approx(data["stderr"] / data["group_order"])
    assert data["estimated"] is True and "classes_at_least" not in data
    assert abs(data["estimate"] - 161_280) < 4 * data["stderr"]


@pytest.mark.parametrize("spec", ["sudoku:3x3", "sudoku:2x2"])
def test_an_estimate_never_says_at_least(spec):
    out = run_cli("estimate", spec, "--probes", "300", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert "at least" not in out.stdout and out.stdout.startswith("estimate: about ")


def test_cli_estimate_refuses_a_bad_probe_count():
    out = run_cli("estimate", "latin:5", "--probes", "1")
    assert out.returncode == 2 and "--probes" in out.stderr


def test_cli_estimate_refuses_when_no_probe_reaches_a_board():
    out = run_cli("estimate", "triangle:4", "--probes", "50")  # triangle:4 has no Latin labelling
    assert out.returncode == 1
    assert out.stderr.strip().splitlines() == [
        "dlx-latin: error: none of the 50 probes ended in a Latin board: "
        "too few probes to estimate (try more)"
    ]


def test_cli_estimate_of_clues_that_break_the_latin_condition_is_zero():
    out = run_cli("estimate", "latin:4", "--clues", "1111............", "--probes", "10")
    assert out.returncode == 0 and out.stdout.startswith("0 Latin boards")
