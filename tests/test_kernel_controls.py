"""The kernel's own stop conditions: a node budget, a stop flag another thread sets, and a seeded branching
order -- each leaves the counts and solutions exact."""

import random
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force_solutions
from test_exact_cover_properties import problems
from test_multiplicities import bounded_problems

from dlx_latin.exact_cover import CountSettings, ExactCoverProblem, NoSolutionFoundError
from dlx_latin.exact_cover import problem as problem_module
from dlx_latin.exact_cover.classic import latin_square, queens
from dlx_latin.exact_cover.kernel import kernel_search
from dlx_latin.exact_cover.parallel import ParallelRun, split


def test_a_node_budget_pauses_and_the_search_resumes_exactly():
    p = latin_square(5)
    search = p.search()
    first = search.count(max_nodes=1000)
    assert not search.done and search.nodes == 1000 and first < 161_280
    assert search.count() == 161_280 and search.done  # resumed where it stopped


def test_a_node_budget_ends_a_batch_early_without_ending_the_search():
    search = queens(12).search()
    assert search.next_batch(10, max_nodes=5) == [] and not search.done
    assert len(search.next_batch(10)) == 10


@settings(max_examples=150, deadline=None)
@given(problems(colors=True), st.integers(0, 2**64 - 1))
def test_a_seeded_search_finds_the_same_solutions(p, seed):
    expected = brute_force_solutions(p)
    search = kernel_search(p.kernel_arrays, seed=seed)
    found = [tuple(sorted(s)) for s in search.next_batch(10**6)]
    assert sorted(found) == sorted(expected) and len(found) == len(set(found))
    search.sanity()


@settings(max_examples=100, deadline=None)
@given(bounded_problems(colors=False), st.integers(0, 2**64 - 1))
def test_a_seeded_search_counts_bounded_problems_exactly(p, seed):
    assert kernel_search(p.kernel_arrays, seed=seed).count() == len(brute_force_solutions(p))


def test_seeds_draw_different_solutions_reproducibly():
    p = latin_square(6)
    draws = [p.random_solution(random.Random(k)) for k in range(8)]
    assert len(set(draws)) == 8
    assert draws[3] == p.random_solution(random.Random(3))
    options = [set(p.option_items(k)) for k in draws[0]]
    assert sum(len(o) for o in options) == len(set().union(*options))  # an exact cover
    assert len(set().union(*options)) == len(p.primary)


def test_random_solution_of_a_problem_without_one_is_none():
    assert ExactCoverProblem(["a", "b"], [["a"]]).random_solution(random.Random(0)) is None


def test_random_solution_gives_up_after_its_restarts(monkeypatch):
    monkeypatch.setattr(problem_module, "RESTART_NODES", 1)
    with pytest.raises(NoSolutionFoundError):
        latin_square(7).random_solution(random.Random(0), tries=2)


def test_stop_from_another_thread_ends_a_long_count():
    search = latin_square(7).search(memo=False)
    threading.Timer(0.2, search.stop).start()
    start = time.monotonic()
    search.count()
    assert not search.done and time.monotonic() - start < 5


def test_a_stopped_parallel_run_refuses_more_subproblems():
    p = latin_square(6, fix="row")
    run = ParallelRun(p.kernel_arrays, CountSettings(jobs=2))
    paths = split(p.kernel_arrays, 8)
    done = [count for _, (count, _) in run.results(paths[:2])]
    run.stop()
    with pytest.raises(Exception, match="stopped"):
        list(run.results(paths[2:]))
    assert len(done) == 2


def test_two_parallel_counts_in_one_process_do_not_share_a_memo():
    a, b = latin_square(5), latin_square(6, fix="row")
    results = {}
    threads = [
        threading.Thread(target=lambda name=name, p=p: results.__setitem__(name, p.count(jobs=2)))
        for name, p in (("a", a), ("b", b))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {"a": 161_280, "b": 1_128_960}


def test_count_settings_are_one_value():
    base = CountSettings(jobs=2)
    assert base.updated(memo=False) == CountSettings(jobs=2, memo=False)
    assert base.updated(progress=None) is base  # None leaves a field as it is
    with pytest.raises(ValueError):
        CountSettings(jobs=0)
    assert latin_square(5).count(settings=base, memo=False) == 161_280


def test_batch_refuses_what_it_cannot_do():
    from array import array

    search = latin_square(3).search()
    with pytest.raises(ValueError, match="starts"):
        search.batch(array("i", [0, 5]), array("i", [1]), 2)
    with pytest.raises(ValueError, match="forced option"):
        search.batch(array("i", [0, 1]), array("i", [10_000]), 2)
    with pytest.raises(ValueError, match="bounds"):
        search.batch(array("i", [0]), array("i", []), 0)
    bounded = ExactCoverProblem(["a"], [["a"]] * 3, bounds={"a": (1, 2)}).search()
    with pytest.raises(ValueError, match="bounds"):
        bounded.batch(array("i", [0, 0]), array("i", []), 2)
    p = latin_square(3)
    with_zero = [sol for sol in p.solutions() if 0 in sol]
    (whole, _), (forced, first) = p.search().batch(array("i", [0, 0, 1]), array("i", [0]), 1000)
    assert (whole, forced) == (12, len(with_zero)) and tuple(sorted(first + (0,))) in with_zero
