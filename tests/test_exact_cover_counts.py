"""The kernel against published counts, in every mode."""

import itertools

import pytest

from dlx_latin.exact_cover import Colored, ExactCoverProblem
from dlx_latin.exact_cover.classic import latin_square, queens

A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]  # n queens, n = 1..10
A002860 = [1, 2, 12, 576, 161_280]  # Latin squares of order n = 1..5


@pytest.mark.parametrize("n", range(1, 11))
def test_queens(n):
    assert queens(n).count() == A000170[n - 1]


@pytest.mark.parametrize("n", range(1, 6))
def test_latin_squares(n):
    assert latin_square(n).count() == A002860[n - 1]


def test_reduced_latin_squares_of_order_6():
    assert latin_square(6, fix="reduced").count() == 9408  # A000315(6)


def test_sudoku_4x4():
    assert latin_square(4, box=(2, 2)).count() == 288


def test_every_mode_agrees_on_latin_4():
    p = latin_square(4)
    every = list(p.solutions())
    assert len(every) == len(set(every)) == p.count() == 576
    assert all(len(s) == 16 and list(s) == sorted(s) for s in every)
    assert list(p.solutions(limit=10)) == every[:10]
    assert p.first_solution() == every[0]
    assert p.count(limit=100) == 100
    assert p.count(limit=10**40) == 576  # limits are Python ints of any size
    assert p.count(limit=0) == 0 and list(p.solutions(limit=0)) == []
    assert not p.is_unique()


def test_each_solution_is_an_exact_cover():
    p = latin_square(3)
    for solution in p.solutions():
        covered = list(itertools.chain.from_iterable(p.option_items(k) for k in solution))
        assert sorted(covered) == sorted(p.primary)


def test_streaming_crosses_batches():
    # 161,280 solutions come back in many batches of 1024; none lost, none repeated
    seen = set(latin_square(5).solutions())
    assert len(seen) == 161_280


def test_unique_and_none():
    assert ExactCoverProblem(["a"], [["a"]]).is_unique()
    empty = ExactCoverProblem(["a", "b"], [["a"]])
    assert empty.count() == 0 and empty.first_solution() is None and not empty.is_unique()


def test_no_primary_item_has_the_empty_solution():
    assert ExactCoverProblem([], [], ["x"]).count() == 1


def test_statistics_are_reported():
    search = queens(8).search()
    assert search.count() == 92
    assert search.done and search.solutions_found == 92
    assert search.nodes > 92 and search.updates > search.nodes


def test_progress_callback_reports_nodes_and_a_growing_fraction():
    seen = []
    report = lambda nodes, fraction: seen.append((nodes, fraction))  # noqa: E731
    assert latin_square(5).count(progress=report, memo=False) == 161_280
    assert len(seen) >= 3  # about a million nodes, reported every 2**18
    assert seen == sorted(seen) and 0 < seen[0][1] < seen[-1][1] < 1
    search = latin_square(5).search()
    search.count()
    assert search.fraction_done == 1.0


# Knuth's example of colors, TAOCP 7.2.2.1 (49): exactly one solution.
KNUTH_COLORS = ExactCoverProblem(
    "pqr",
    [
        ["p", "q", "x", Colored("y", "A")],
        ["p", "r", Colored("x", "A"), "y"],
        ["p", Colored("x", "B")],
        ["q", Colored("x", "A")],
        ["r", Colored("y", "B")],
    ],
    "xy",
)


def test_colors_that_agree():
    assert list(KNUTH_COLORS.solutions()) == [(1, 3)]


def test_colors_that_cannot_agree():
    p = ExactCoverProblem(
        ["a", "b"], [["a", Colored("x", "red")], ["b", Colored("x", "blue")], ["b", "x"]], ["x"]
    )
    assert p.count() == 0


def test_same_color_may_share_a_secondary_item_uncolored_may_not():
    shared = ExactCoverProblem(["a", "b"], [["a", Colored("x", 1)], ["b", Colored("x", 1)]], ["x"])
    assert shared.count() == 1
    exclusive = ExactCoverProblem(["a", "b"], [["a", "x"], ["b", Colored("x", 1)]], ["x"])
    assert exclusive.count() == 0
