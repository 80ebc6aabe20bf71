"""Cygan's bounded-pathwidth local search (Haraguchi & Ono, Theorems 15-16) and the local searches'
checked bounds (Hurkens & Schrijver): exact pathwidth, no improving swap left, bounds reached."""

import itertools
import json
from fractions import Fraction

import pytest
from cli import run_cli

from dlx_latin.approx.algorithms import local_search, packing_sets, pathwidth_at_most, pathwidth_local_search
from dlx_latin.approx.exact import optimum
from dlx_latin.approx.experiments import bench, bound, hurkens_schrijver, random_instance
from dlx_latin.approx.instance import is_solution


def graph(n, edges):
    adj = [0] * n
    for a, b in edges:
        adj[a] |= 1 << b
        adj[b] |= 1 << a
    return tuple(adj)


def brute_pathwidth(adj):
    """The least vertex separation over every ordering of the vertices."""
    n = len(adj)
    best = n
    for order in itertools.permutations(range(n)):
        placed, worst = 0, 0
        for v in order:
            placed |= 1 << v
            worst = max(worst, sum(1 for u in range(n) if placed >> u & 1 and adj[u] & ~placed))
        best = min(best, worst)
    return best


def test_pathwidth_of_known_graphs():
    path = graph(6, [(i, i + 1) for i in range(5)])
    cycle = graph(6, [(i, (i + 1) % 6) for i in range(6)])
    k33 = graph(6, [(a, b) for a in range(3) for b in range(3, 6)])
    spider = graph(7, [(0, 1), (1, 2), (0, 3), (3, 4), (0, 5), (5, 6)])  # three legs of two: pathwidth 2
    for adj, width in ((path, 1), (cycle, 2), (k33, 3), (spider, 2), (graph(3, []), 0)):
        assert pathwidth_at_most(adj, width) and (width == 0 or not pathwidth_at_most(adj, width - 1))


def test_pathwidth_equals_brute_force_on_random_graphs():
    import random

    rng = random.Random(7)
    for _ in range(60):
        n = rng.randint(2, 7)
        edges = [e for e in itertools.combinations(range(n), 2) if rng.random() < 0.4]
        adj = graph(n, edges)
        width = brute_pathwidth(adj)
        assert pathwidth_at_most(adj, width) and (width == 0 or not pathwidth_at_most(adj, width - 1))


def test_hurkens_schrijver_bounds():
    for t in (3, 4, 5):
        assert hurkens_schrijver(t, 1) == Fraction(1, t)  # any maximal packing
        assert hurkens_schrijver(t, 2) == Fraction(2, t + 1)  # one-for-two swaps
        ratios = [hurkens_schrijver(t, s) for s in range(1, 30)]
        assert ratios == sorted(ratios) and ratios[-1] < Fraction(2, t) < ratios[-1] + Fraction(1, 10**4)
    assert hurkens_schrijver(3, 3) == Fraction(5, 9) and hurkens_schrijver(4, 3) == Fraction(7, 16)


def improving_swaps(inst, found, size, pathwidth):
    """Each swap of up to `size` new sets for fewer packed ones, pathwidth <= `pathwidth` (brute force)."""
    sets = packing_sets(inst)
    packed = [s for s in sets if found.get((s[0][1], s[0][2])) == s[1][2]]
    unpacked = [s for s in sets if s not in packed]
    for k in range(1, size + 1):
        for group in itertools.combinations(unpacked, k):
            if any(set(a) & set(b) for a, b in itertools.combinations(group, 2)):
                continue
            dropped = [s for s in packed if any(set(s) & set(g) for g in group)]
            if len(dropped) >= k:
                continue
            vertices = list(group) + dropped
            edges = [
                (a, b)
                for a, b in itertools.combinations(range(len(vertices)), 2)
                if set(vertices[a]) & set(vertices[b])
            ]
            if pathwidth_at_most(graph(len(vertices), edges), pathwidth):
                yield group


@pytest.mark.parametrize("r, pathwidth", [(2, 1), (3, 1), (3, 2)])
def test_pathwidth_local_search_leaves_no_improving_swap(r, pathwidth):
    for seed in range(8):
        inst = random_instance("null", 4, 0.3, seed)
        found = pathwidth_local_search(inst, r=r, seed=seed, pathwidth=pathwidth)
        assert is_solution(inst, found)
        assert not list(improving_swaps(inst, found, r + 1, pathwidth)), seed


def test_plain_local_search_leaves_no_improving_swap():
    """Local search with r = 2 leaves no swap of up to 3 new sets of any pathwidth (brute force)."""
    for seed in range(8):
        inst = random_instance("null", 4, 0.3, seed)
        found = local_search(inst, r=2, seed=seed)
        assert not list(improving_swaps(inst, found, 3, 3))


def test_checked_bound_is_reached_exactly():
    """null, n = 4, seed 28: local search with r = 1 from greedy seed 2 stops at 4 of an optimum 8, the
    ratio 1/2 = hurkens_schrijver(3, 2) the run checks, so that check cannot be raised."""
    inst = random_instance("null", 4, 0.5, 28)
    found = local_search(inst, r=1, seed=2)
    assert (len(found), len(optimum(inst))) == (4, 8)
    assert Fraction(len(found), 8) == bound(inst, "local-search", 1)[0] == Fraction(1, 2)
    assert len(pathwidth_local_search(inst, r=3, seed=2, pathwidth=1)) == 8


def test_bounds_shown_and_checked():
    inst = random_instance("null", 5, 0.4, 0)
    assert bound(inst, "local-search", 2) == (Fraction(5, 9), "2/3 - eps")
    assert bound(inst, "pathwidth-local-search", 6, 2) == (Fraction(5, 9), "3/4 - eps")
    assert bound(inst, "pathwidth-local-search", 6, 4)[0] == hurkens_schrijver(3, 5)
    sud = random_instance("sud", 4, 0.4, 0)
    assert bound(sud, "pathwidth-local-search", 4, 2) == (Fraction(7, 16), "3/5 - eps")


@pytest.mark.parametrize("condition", ["null", "sud"])
def test_pathwidth_local_search_never_below_its_bound(condition):
    rows, _ = bench(condition, 6 if condition == "null" else 4, 30, seed=500, pathwidth_r=4, pathwidth=2)
    row = next(row for row in rows if row.algorithm == "pathwidth-local-search")
    assert len(row.ratios) == 30 and row.minimum >= row.floor


def test_cli_pathwidth_local_search(tmp_path):
    path = tmp_path / "null.json"
    path.write_text(run_cli("approx", "generate", "--n", "6", "--seed", "3").stdout)
    out = run_cli("approx", "run", str(path), "--algorithm", "pathwidth-local-search", "--r", "4", "--json")
    record = json.loads(out.stdout)
    assert record["bound"] == "3/4 - eps" and record["checked_bound"] == "5/9"
    assert record["filled"] <= record["optimum"] and record["ratio"] >= 5 / 9
    text = run_cli(
        "approx", "run", str(path), "--algorithm", "pathwidth-local-search", "--pathwidth", "1"
    ).stdout
    assert "3/4 - eps; checked >= 1/2" in text
    table = json.loads(run_cli("approx", "bench", "--n", "5", "--instances", "3", "--json").stdout)
    names = {row["algorithm"]: row for row in table["rows"]}
    assert (
        names["local-search"]["checked_bound"] == "5/9"
        and names["pathwidth-local-search"]["bound"] == "3/4 - eps"
    )
    refused = run_cli("approx", "run", str(path), "--algorithm", "pathwidth-local-search", "--pathwidth", "0")
    assert refused.returncode == 2 and "--pathwidth" in refused.stderr
