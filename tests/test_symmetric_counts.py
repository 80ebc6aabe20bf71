"""Automorphisms of exact-cover problems (nauty) and the counts that use them, against brute force.

Every count here is checked against an independent method: `--break-symmetry` against the plain count,
classes against orbits of listed solutions under every listed automorphism (each checked to be one).
"""

import random

import pytest
from cli import EXAMPLES, run_cli

from dlx_latin.exact_cover import Colored, CountSettings, ExactCoverProblem
from dlx_latin.exact_cover.automorphisms import Automorphisms, is_automorphism
from dlx_latin.exact_cover.classic import latin_square, pentominoes, queens
from dlx_latin.exact_cover.kernel import kernel_search
from dlx_latin.exact_cover.symmetric_counts import (
    GroupTooLargeError,
    Incidence,
    UnsupportedSymmetryError,
    count_breaking_symmetry,
    count_classes,
    restricted,
    symmetric_parts,
)


def symmetric_problem(seed: int) -> ExactCoverProblem:
    """A random problem closed under rotating its blocks of items (so it has automorphisms), with secondary
    items, colors and now and then a bounded item."""
    rng = random.Random(seed)
    blocks, size, extra = rng.randint(2, 4), rng.randint(1, 3), rng.randint(0, 2)
    primary = [(b, i) for b in range(blocks) for i in range(size)]
    secondary = [(b, "s", i) for b in range(blocks) for i in range(extra)]
    bounds = {(b, 0): (1, 2) for b in range(blocks)} if rng.random() < 0.25 else None
    options = set()
    for _ in range(rng.randint(3, 7)):
        chosen = rng.sample(primary, rng.randint(1, min(3, len(primary))))
        colored = []
        for s in rng.sample(secondary, rng.randint(0, len(secondary))):
            colored.append((s, rng.choice([None, "A", "B"])))
        for shift in range(blocks):
            moved = [((b + shift) % blocks, i) for b, i in chosen]
            moved += [
                ((b + shift) % blocks, "s", i) if c is None else Colored(((b + shift) % blocks, "s", i), c)
                for (b, _, i), c in colored
            ]
            options.add(tuple(sorted(moved, key=repr)))
    return ExactCoverProblem(primary, sorted(options, key=repr), secondary, bounds)


def orbits_of_solutions(problem: ExactCoverProblem, autos: Automorphisms) -> int:
    """Classes of solutions, by listing every solution and every automorphism."""
    n = autos.n_items
    elements = autos.group.elements
    seen, classes = set(), 0
    for solution in problem.solutions():
        if solution in seen:
            continue
        classes += 1
        for g in elements:
            seen.add(tuple(sorted(int(g[n + k]) - n for k in solution)))
    return classes


@pytest.mark.parametrize(
    "problem, order",
    [
        (pentominoes(6, 10), 4),  # the box's symmetries
        (queens(8), 8),  # the square's
        (latin_square(4, box=(2, 2)), 3072),  # 128 grid symmetries times 24 relabellings
        (latin_square(5), 10_368_000),  # rows, columns, symbols (5!^3) and the 6 conjugates
    ],
)
def test_automorphism_group_orders(problem, order):
    autos = Automorphisms(problem.kernel_arrays)
    assert autos.order == order
    assert all(is_automorphism(problem.kernel_arrays, g) for g in autos.generators)


def test_is_automorphism_refuses_a_non_automorphism():
    arrays = queens(5).kernel_arrays
    autos = Automorphisms(arrays)
    swapped = list(range(autos.degree))
    swapped[autos.option_point(0)], swapped[autos.option_point(1)] = (
        autos.option_point(1),
        autos.option_point(0),
    )
    assert not is_automorphism(arrays, swapped)


@pytest.mark.parametrize("seed", range(40))
def test_random_symmetric_problems_against_brute_force(seed):
    problem = symmetric_problem(seed)
    arrays = problem.kernel_arrays
    autos = Automorphisms(arrays)
    assert all(is_automorphism(arrays, g) for g in autos.generators)
    assert autos.order >= 2  # the rotation of blocks at least
    total = problem.count(memo=False)
    assert count_breaking_symmetry(arrays, CountSettings(memo=False), autos) == total
    parts = symmetric_parts(autos, max_parts=4)
    inc = Incidence(arrays)
    assert sum(p.weight * kernel_search(restricted(inc, p.chosen)).count() for p in parts) == total
    try:
        classes = count_classes(arrays, CountSettings(memo=False), autos)
    except UnsupportedSymmetryError:
        assert problem.bounds  # only bounded items covered twice by one orbit are refused
        return
    assert classes.classes == orbits_of_solutions(problem, autos)
    assert sum(size for _, size, _ in classes.terms) == autos.order


def test_restricted_problem_holds_the_solutions_with_the_chosen_options():
    problem = symmetric_problem(7)
    inc = Incidence(problem.kernel_arrays)
    solutions = list(problem.solutions())
    for k in range(len(problem.options)):
        expected = sum(1 for s in solutions if k in s)
        assert kernel_search(restricted(inc, (k,))).count() == expected


@pytest.mark.parametrize(
    "problem, classes",
    [
        (queens(8), 12),  # A002562
        (queens(10), 92),
        (pentominoes(3, 20), 2),
        (latin_square(4, box=(2, 2)), 2),  # the two essentially different 4x4 Sudoku
    ],
)
def test_published_class_counts(problem, classes):
    assert count_classes(problem.kernel_arrays).classes == classes


@pytest.mark.parametrize(
    "problem",
    [
        latin_square(5),
        latin_square(6, fix="reduced"),
        latin_square(6, multiset=[1, 1, 1, 2, 2, 2]),
        queens(11),
    ],
)
def test_breaking_large_groups_keeps_the_count(problem):
    assert count_breaking_symmetry(problem.kernel_arrays, CountSettings(jobs=2)) == problem.count()


def test_burnside_refuses_a_group_too_large_to_list():
    with pytest.raises(GroupTooLargeError, match="automorphisms"):
        count_classes(latin_square(5).kernel_arrays)


@pytest.mark.slow
def test_pentomino_box_6x10_classes():
    problem = pentominoes(6, 10)
    found = count_classes(problem.kernel_arrays, CountSettings(jobs=2))
    assert (found.classes, found.order) == (2339, 4)


def test_cli_up_to_symmetry_and_break_symmetry():
    queens8 = str(EXAMPLES / "queens8.dlx")
    assert run_cli("xc", "count", queens8, "--up-to", "symmetry").stdout == "12\n"
    ran = run_cli("xc", "count", str(EXAMPLES / "pentominoes-3x20.dlx"), "--up-to", "symmetry", "--json")
    assert ran.stdout == '{"count": 2, "automorphisms": 4, "up_to": "symmetry"}\n'
    ran = run_cli("xc", "count", str(EXAMPLES / "latin5.dlx"), "--break-symmetry", "--stats", "--jobs", "2")
    assert ran.returncode == 0 and ran.stdout == "161280\n"
    assert "10368000 automorphisms" in ran.stderr


def test_cli_symmetry_errors_are_one_line():
    ran = run_cli("xc", "count", str(EXAMPLES / "latin5.dlx"), "--up-to", "symmetry")
    assert ran.returncode == 1 and ran.stdout == ""
    assert ran.stderr.count("\n") == 1 and "too many to list" in ran.stderr
    ran = run_cli("xc", "count", str(EXAMPLES / "queens8.dlx"), "--break-symmetry", "--checkpoint", "x")
    assert ran.returncode == 2 and "do not go with --break-symmetry" in ran.stderr


def test_the_first_branching_is_on_an_item_many_symmetries_fix():
    """Every row of 13 queens has 13 options, but the middle row is fixed by half the square's symmetries
    (the first row by a quarter): splitting there leaves fewer parts, and the count stays exact."""
    problem = queens(13)
    autos = Automorphisms(problem.kernel_arrays)
    parts = symmetric_parts(autos)
    assert {problem.options[part.chosen[0]][0] for part in parts} == {"r6"}
    assert count_breaking_symmetry(problem.kernel_arrays, automorphisms=autos) == 73_712  # A000170
