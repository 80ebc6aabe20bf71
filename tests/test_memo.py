"""The count memo: memoized, raw and tiny-table counts agree on every oracle and on random problems."""

import pytest
from hypothesis import given, settings
from oracles import brute_force_solutions
from test_exact_cover_properties import problems
from test_multiplicities import bounded_problems

from dlx_latin.exact_cover import Colored, ExactCoverProblem
from dlx_latin.exact_cover.classic import latin_square, pentominoes, queens
from dlx_latin.exact_cover.kernel import kernel_search
from dlx_latin.exact_cover.parallel import split


def count_with_memo_from_the_start(p: ExactCoverProblem, slots: int) -> int:
    """Count with a memo of `slots` entries made at the first node (the engine waits 65,536 nodes, so
    small problems would otherwise never use it)."""
    return kernel_search(p.kernel_arrays, memo=slots, memo_start=0).count()


ORACLES = [
    ("queens 8", lambda: queens(8), 92),
    ("queens 10", lambda: queens(10), 724),
    ("latin 5", lambda: latin_square(5), 161_280),
    ("reduced latin 6", lambda: latin_square(6, fix="reduced"), 9408),
    ("latin 6, first row", lambda: latin_square(6, fix="row"), 1_128_960),
    ("sudoku 4x4", lambda: latin_square(4, box=(2, 2)), 288),
    ("sudoku 6x6, first row", lambda: latin_square(6, box=(2, 3), fix="row"), 39_168),
]


@pytest.mark.parametrize("name, make, expected", ORACLES, ids=[o[0] for o in ORACLES])
def test_memo_raw_and_tiny_tables_agree(name, make, expected):
    p = make()
    for memo in (False, True, 2, 64, 1 << 12):
        assert p.count(memo=memo) == expected, memo


def test_memo_is_used_and_saves_nodes():
    p = latin_square(6, fix="row")
    raw, memo = p.search(memo=False), p.search(memo=True)
    assert raw.count() == memo.count() == 1_128_960
    assert memo.memo_hits > 0 and memo.nodes < raw.nodes / 5
    assert raw.memo_slots == 0 and memo.memo_slots >= 1 << 10


def test_memo_is_off_for_colors_limits_and_enumeration():
    colored = ExactCoverProblem(["p"], [["p", Colored("s", "A")]] * 70_000, ["s"])
    search = colored.search(memo=True)
    assert search.count() == 70_000 and search.memo_slots == 0
    search = latin_square(5).search(limit=100, memo=True)
    assert search.count() == 100 and search.memo_hits == 0
    assert len(set(latin_square(4).solutions())) == 576


def test_memo_with_multiplicities():
    """Algorithm M counts with the memo too: 6x6 and 7x7 arrays with three 1s in every row and column
    (A001501), and a three-label multiset against the raw search."""
    p = latin_square(6, multiset=[1, 1, 1, 2, 2, 2])
    raw, memo = p.search(memo=False), p.search(memo=True)
    assert raw.count() == memo.count() == 297_200
    assert memo.memo_hits > 0 and memo.nodes < raw.nodes / 10
    assert latin_square(7, multiset=[1, 1, 1, 2, 2, 2, 2]).count() == 68_938_800
    p = latin_square(5, multiset=[1, 1, 2, 2, 3])
    assert p.count(memo=True) == p.count(memo=64) == p.count(memo=False) == 25_920
    for slots in (2, 64, 1 << 12):
        assert count_with_memo_from_the_start(p, slots) == 25_920


def test_a_small_problem_keeps_a_small_table():
    """The table starts small and doubles when half full, up to the size asked for."""
    search = latin_square(6, multiset=[1, 1, 1, 2, 2, 2]).search(memo=True)
    assert search.count() == 297_200
    assert 1 << 12 <= search.memo_slots < 1 << 18
    search = latin_square(6, multiset=[1, 1, 1, 2, 2, 2]).search(memo=1 << 12)
    assert search.count() == 297_200 and search.memo_slots == 1 << 12


def test_memo_with_subproblem_paths():
    p = latin_square(6, fix="row")
    assert sum(p.search(path=q, memo=True).count() for q in split(p.kernel_arrays, 30)) == 1_128_960


@settings(max_examples=300, deadline=None)
@given(problems(colors=False))
def test_memo_counts_match_brute_force(p):
    expected = len(brute_force_solutions(p))
    assert p.count(memo=True) == p.count(memo=2) == p.count(memo=False) == expected
    assert count_with_memo_from_the_start(p, 2) == count_with_memo_from_the_start(p, 64) == expected


@settings(max_examples=400, deadline=None)
@given(bounded_problems(colors=False))
def test_memo_counts_with_multiplicities_match_brute_force(p):
    expected = len(brute_force_solutions(p))
    assert count_with_memo_from_the_start(p, 2) == count_with_memo_from_the_start(p, 64) == expected
    assert p.count(memo=True) == p.count(memo=False) == expected


def test_pentomino_boxes():
    assert pentominoes(3, 20).count() == 8  # 2 tilings up to the box's 4 symmetries
    assert pentominoes(3, 20).count(memo=False) == 8


@pytest.mark.slow
def test_pentomino_6x10():
    assert pentominoes(6, 10).count() == 9356  # 2,339 up to symmetry


def test_a_memo_shared_between_subproblems_keeps_counts_exact():
    p = latin_square(6, fix="row")
    owner = p.search(memo=True)
    total, shared, hits = 0, 0, 0
    for path in split(p.kernel_arrays, 12):
        search = p.search(path=path, memo=True)
        shared += search.share_memo(owner)
        total += search.count()
        hits += search.memo_hits
    assert total == 1_128_960
    assert shared == len(split(p.kernel_arrays, 12)) and hits > 0


def test_searches_sharing_a_memo_in_threads_count_exactly():
    from concurrent.futures import ThreadPoolExecutor

    p = latin_square(6, fix="row")
    for memo in (True, 64):  # a tiny table: threads keep overwriting each other's slots
        owner = p.search(memo=memo)
        searches = [p.search(path=path, memo=memo) for path in split(p.kernel_arrays, 24)]
        assert all(s.share_memo(owner) for s in searches)
        with ThreadPoolExecutor(2) as pool:
            assert sum(pool.map(lambda s: s.count(), searches)) == 1_128_960


def test_count_with_jobs_equals_the_plain_count():
    p = latin_square(5)
    assert p.count(jobs=2) == p.count(jobs=2, memo=False) == 161_280
