"""C-PLSE approximation (Haraguchi & Ono): instances, the three algorithms, exact optima, measured ratios."""

import itertools
import json
import re

import pytest
from cli import run_cli

from dlx_latin.approx.algorithms import NotApplicable, greedy, local_search, matching, packing_sets
from dlx_latin.approx.exact import optimum
from dlx_latin.approx.experiments import bench, random_instance
from dlx_latin.approx.instance import Instance, InstanceError, State, from_json, is_solution

CONDITIONS = ("null", "sud", "fut", "bs", "kk")


def brute_optimum(inst):
    """The largest solution by trying every assignment of 0..n to the empty cells."""
    cells = inst.empty
    best = 0
    for values in itertools.product(range(inst.n + 1), repeat=len(cells)):
        chosen = {c: k for c, k in zip(cells, values, strict=True) if k}
        if len(chosen) > best and is_solution(inst, chosen):
            best = len(chosen)
    return best


def test_exact_optimum_equals_brute_force():
    checked = 0
    for condition in CONDITIONS:
        for seed in range(40):
            inst = random_instance(condition, 4 if condition == "sud" else 3, 0.5, seed)
            if len(inst.empty) > 7:
                continue
            found = optimum(inst)
            assert is_solution(inst, found)
            assert len(found) == brute_optimum(inst), (condition, seed)
            checked += 1
    assert checked >= 80


@pytest.mark.parametrize("condition", CONDITIONS)
def test_algorithms_return_valid_solutions(condition):
    for seed in range(15):
        inst = random_instance(condition, 6 if condition != "sud" else 4, 0.3, seed)
        blocked = greedy(inst, seed)
        assert is_solution(inst, blocked) and State(inst, blocked).is_blocked()
        for algorithm in (matching, local_search):
            try:
                found = algorithm(inst)
            except NotApplicable:
                continue
            assert is_solution(inst, found) and len(found) <= len(optimum(inst))


@pytest.mark.parametrize("condition", CONDITIONS)
def test_ratios_never_below_the_proven_bounds(condition):
    """A few hundred instances per condition (bench raises BoundViolated below a bound)."""
    rows, _ = bench(condition, 5 if condition != "sud" else 4, 200, seed=1000)
    assert {row.algorithm for row in rows} >= {"greedy"}
    assert all(len(row.ratios) for row in rows)
    assert all(0 < row.minimum <= row.mean <= 1 for row in rows)


def test_local_search_leaves_no_one_for_two_swap():
    for seed in range(10):
        inst = random_instance("null", 5, 0.3, seed)
        found = local_search(inst, r=1)
        sets = packing_sets(inst)
        packed = [s for s in sets if found.get((s[0][1], s[0][2])) == s[1][2]]
        used = {e for s in packed for e in s}
        assert not [s for s in sets if not used.intersection(s)]  # maximal
        for drop in packed:
            rest = used.difference(drop)
            free = [s for s in sets if s != drop and not rest.intersection(s)]
            assert not any(not set(a).intersection(b) for a, b in itertools.combinations(free, 2))


def test_matching_and_local_search_refuse_with_the_reason():
    with pytest.raises(NotApplicable, match="box"):
        matching(random_instance("sud", 4, 0.3, 1))
    with pytest.raises(NotApplicable, match="set-packing"):
        local_search(random_instance("bs", 4, 0.3, 1))


def test_bad_instances_are_named():
    base = {"n": 3, "given": [[1, 0, 0], [0, 0, 0], [0, 0, 0]]}
    cases = [
        ({**base, "given": [[1, 1, 0], [0, 0, 0], [0, 0, 0]]}, "appears twice"),
        ({**base, "given": [[4, 0, 0], [0, 0, 0], [0, 0, 0]]}, "not in 0..3"),
        ({**base, "condition": "fut", "signs": [[[0, 1], [1, 2]]]}, "not adjacent"),
        ({**base, "condition": "fut", "signs": [[[0, 1], [5, 1]]]}, "outside the 3 x 3"),
        ({**base, "condition": "sud", "box": [2, 2]}, "n0 * n1 = 3"),
        ({**base, "condition": "odd"}, "unknown condition"),
        (
            {
                "n": 3,
                "condition": "bs",
                "blocks": [[[0, 0], [0, 1], [0, 2]], [[1, 0], [1, 1], [1, 2]], [[2, 0], [2, 1], [2, 2]]],
                "capacities": ["a", 6, 6],
            },
            "the capacity of block 0 must be an integer, not 'a'",
        ),
        (
            {
                **base,
                "condition": "bs",
                "blocks": [[[0, 0]], [[0, 1], [0, 2]], [[1, 0], [1, 1], [1, 2]], [[2, 0], [2, 1], [2, 2]]],
                "capacities": [1, 5, 6, 5],
            },
            "sum to 17, not n^2 (n+1)/2 = 18",
        ),
        (
            {
                **base,
                "condition": "bs",
                "blocks": [[[0, 0], [0, 1]], [[0, 2]], [[1, 0], [1, 1], [1, 2]], [[2, 0], [2, 1], [2, 2]]],
                "capacities": [3, 3, 6, 6],
            },
            "filled cells are unit blocks",
        ),
    ]
    for data, message in cases:
        with pytest.raises(InstanceError, match=re.escape(message)):
            from_json(data)


def test_cli(tmp_path):
    path = tmp_path / "fut.json"
    path.write_text(run_cli("approx", "generate", "--condition", "fut", "--n", "5", "--seed", "2").stdout)
    out = json.loads(run_cli("approx", "run", str(path), "--algorithm", "matching", "--json").stdout)
    assert out["optimum"] == len(Instance(5, tuple(map(tuple, json.loads(path.read_text())["given"]))).empty)
    assert 0.5 <= out["ratio"] <= 1 and out["bound"] == "1/2"
    plot = tmp_path / "ratios.svg"
    table = run_cli(
        "approx", "bench", "--condition", "null", "--n", "6", "--instances", "5", "--plot", str(plot)
    ).stdout
    from xml.dom.minidom import parse

    assert len(parse(str(plot)).getElementsByTagName("circle")) == 4 * 5
    assert "greedy" in table and "matching" in table and "local-search" in table and "2/3 - eps" in table
    refused = run_cli("approx", "run", str(path), "--algorithm", "local-search")
    assert (
        refused.returncode == 1 and "set-packing" in refused.stderr and len(refused.stderr.splitlines()) == 1
    )
    bad = tmp_path / "bad.json"
    bad.write_text('{"n": 2, "given": [[1, 1], [0, 0]]}')
    wrong = run_cli("approx", "run", str(bad))
    assert wrong.returncode == 1 and "appears twice" in wrong.stderr


def test_tight_greedy_examples_reach_the_bounds_exactly():
    from fractions import Fraction

    from dlx_latin.approx.experiments import bound, tight_greedy_example

    cases = [
        ("null", 2, 3),
        ("null", 7, 3),
        ("sud", 4, 4),
        ("sud", 6, 4),
        ("sud", 9, 4),
        ("fut", 5, 7),
        ("fut", 8, 7),
    ]
    for condition, n, ratio in cases:
        inst, blocked = tight_greedy_example(condition, n)
        assert is_solution(inst, blocked) and State(inst, blocked).is_blocked()
        assert Fraction(len(blocked), len(optimum(inst))) == Fraction(1, ratio) == bound(inst, "greedy")[0]
        assert any(len(greedy(inst, seed)) == 1 for seed in range(200))  # greedy itself can end there
    with pytest.raises(ValueError, match="prime"):
        tight_greedy_example("sud", 7)


def test_hard_instances_follow_the_reductions():
    from dlx_latin.approx.conditions import futoshiki_from_plse

    for seed in range(6):
        base = random_instance("null", 4, 0.5, seed)
        reduced = futoshiki_from_plse(base)
        assert reduced.n == 8 and len(reduced.empty) == len(base.empty)
        assert len(optimum(reduced)) == len(optimum(base))  # Theorem 4: the same optimum
    hard = random_instance("null", 7, seed=3, hard=True)
    assert all(sum(1 for k in row if k == 0) == 3 for row in hard.given)
    assert len(optimum(hard)) == 21
    fut = random_instance("fut", 10, seed=2, hard=True)  # Theorem 4 on Theorem 2's instance of order 5
    empty_per_row = [sum(1 for k in row if k == 0) for row in fut.given]
    assert empty_per_row == [3, 0] * 5 and len(optimum(fut)) == 15
    fits = {k for i, j in fut.empty for k in range(1, 11) if State(fut).can_place((i, j), k)}
    assert fits == {1, 2, 3}  # three values, as in Theorem 2
    rows, _ = bench("fut", 8, 20, seed=5, hard=True)
    assert {row.algorithm for row in rows} == {"greedy", "matching"}
    with pytest.raises(ValueError, match="even order"):
        random_instance("fut", 7, hard=True)
    with pytest.raises(ValueError, match="at least 6"):
        random_instance("fut", 4, hard=True)


def test_help_works_without_the_approx_extra():
    """`approx bench --help` needs nothing; running it without scipy is one line naming the extra."""
    import subprocess
    import sys

    def without_scipy(*args):
        code = "\n".join(
            [
                "import sys",
                "sys.modules['scipy'] = None",
                "from dlx_latin.cli import run",
                "sys.exit(run(sys.argv[1:]))",
            ]
        )
        return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)

    helped = without_scipy("approx", "bench", "--help")
    assert helped.returncode == 0 and "--instances" in helped.stdout
    refused = without_scipy("approx", "bench")
    assert refused.returncode == 1 and "pip install -e '.[approx]'" in refused.stderr
