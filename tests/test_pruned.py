"""Counts on orbit representatives, against the plain count and published totals."""

import random

import pytest
from cli import run_cli
from sympy.combinatorics import Permutation, PermutationGroup

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import Multiset, PartialBoard, completions, count_completions
from symmetry.groups import maps_asterisms
from symmetry.pruned import (
    count_by_orbits,
    filling_orbits,
    leaves,
    merge_symmetric,
    point_fillings,
    stabilizer,
)

SMALL = [
    ("latin:3", None),
    ("latin:4", None),
    ("latin:5", None),
    ("latin:6", None),
    ("latin:4", "1^2,2^2"),
    ("latin:6", "1^3,2^3"),
    ("latin:5", "1^2,2^2,3"),
    ("sudoku:2x2", None),
    ("sudoku:2x3", None),
    ("diagonal:5", None),
    ("triangle:4", None),
    ("hexagon:2", None),
    ("free-square:4", None),
    ("jigsaw:aabbaabbccddccdd", None),
]


def partial(spec, multiset=None, clues=None):
    board = board_from_spec(spec)
    m = Multiset.parse(multiset) if multiset else Multiset.default(board.asterism_size)
    return PartialBoard(board, m, clues or {})


@pytest.mark.parametrize("spec,multiset", SMALL)
def test_orbit_count_equals_plain_count(spec, multiset):
    pb = partial(spec, multiset)
    assert count_by_orbits(pb) == count_completions(pb)


@pytest.mark.parametrize("spec,multiset", SMALL)
def test_leaf_weights_add_up(spec, multiset):
    """Each leaf stands for `weight` boards per completion: weights times leaf counts give the total, and
    every leaf extends the empty board consistently."""
    pb = partial(spec, multiset)
    parts = leaves(pb)
    assert sum(leaf.weight * count_completions(leaf.partial) for leaf in parts) == count_completions(pb)
    assert all(leaf.partial.is_partial_latin() for leaf in parts)


@pytest.mark.parametrize("spec,multiset", [("diagonal:6", None), ("latin:5", "1^2,2^2,3"), ("latin:6", None)])
def test_symmetric_leaves_are_merged_only_when_their_counts_agree(spec, multiset, monkeypatch):
    """Symmetric no-goods: the leaves found without merging fall into classes under the board's group and
    relabelling; every leaf of a class has the same plain count, and the merged leaves keep the total."""
    import symmetry.pruned
    from symmetry.nauty_form import NautyCanonizer

    pb = partial(spec, multiset)
    with monkeypatch.context() as m:
        m.setattr(symmetry.pruned, "merge_symmetric", lambda frontier: frontier)
        raw = leaves(pb)
    merged = merge_symmetric(raw)
    assert len(merged) < len(raw)
    counts = [count_completions(leaf.partial) for leaf in raw]
    canonizer = NautyCanonizer(pb.board, pb.multiset)
    by_key: dict = {}
    for leaf, count in zip(raw, counts, strict=True):
        key = canonizer.key([leaf.partial.clues.get(p) for p in range(pb.board.n_points)])
        by_key.setdefault(key, set()).add(count)
    assert len(by_key) == len(merged) and all(len(c) == 1 for c in by_key.values())
    total = sum(leaf.weight * count for leaf, count in zip(raw, counts, strict=True))
    assert total == count_completions(pb)
    assert sum(leaf.weight * count_completions(leaf.partial) for leaf in merged) == total


def test_latin_7_through_symmetry():
    """A002860(7): the first row by the label group, the first column by the row permutations that keep
    it (the reduced squares, A000315(7) = 16,942,080); below, rows, columns and labels permuted alike keep
    both, so the reduced squares are counted by orbits of their next fillings, never one by one."""
    parts = leaves(partial("latin:7"))
    assert 1 < len(parts) < 100
    for leaf in parts:
        assert leaf.weight % (5040 * 720) == 0
        assert all(leaf.partial.clues[p] == p + 1 == leaf.partial.clues[7 * p] for p in range(7))
    reduced = sum(leaf.weight // (5040 * 720) * count_completions(leaf.partial) for leaf in parts)
    assert reduced == 16_942_080
    assert count_by_orbits(partial("latin:7")) == 61_479_419_904_000


def test_clued_boards_match_plain_counts():
    rng = random.Random(7)
    for spec in ["latin:5", "sudoku:2x3", "hexagon:2"]:
        pb = partial(spec)
        full = next(completions(pb))
        for size in [4, 8, 12]:
            clues = dict(rng.sample(sorted(enumerate(full)), size))
            clued = pb.with_clues(clues)
            assert count_by_orbits(clued) == count_completions(clued), (spec, clues)


def test_stabilizer_keeps_clues_and_asterism():
    """Column 0 of a 6x6 Sudoku below a first row 1..6: the row permutations keeping row 0 (the other bands
    and their rows), and the column permutations keeping column 0 with the labels renamed alike; every
    generator keeps the clues."""
    pb = partial("sudoku:2x3").with_clues({0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6})
    generators, order = stabilizer(pb, pb.board.asterisms[6])  # column 0
    assert order == 8 * 12  # rows: 2 bands x 2 x 2 rows; columns: 2 in the first stack x 3! in the second
    column = set(pb.board.asterisms[6])
    for points, relabel in generators:
        assert maps_asterisms(pb.board, points)
        assert all(pb.clues.get(points[p]) == relabel[label] for p, label in pb.clues.items())
        assert {points[p] for p in column} == column
    column0 = pb.board.asterisms[6]
    assert stabilizer(pb, column0)[1] > stabilizer(pb.with_clues({6: 4}), column0)[1]


def test_filling_orbits_against_listed_group():
    """Orbits by union-find under generators agree with orbits under every listed group element (points
    and labels moved together, as one permutation of points and labels)."""
    pb = partial("latin:5").with_clues({p: p + 1 for p in range(5)} | {5 * p: p + 1 for p in range(1, 5)})
    row = 1
    free = [p for p in pb.board.asterisms[row] if p not in pb.clues]
    found = point_fillings(pb, free)
    assert len(found) == 11  # the second rows below 1..5 starting with 2: arrangements of 1,3,4,5 avoiding
    generators, _ = stabilizer(pb, free)  # 3, 4, 5 in their columns (11 of 4! = 24)
    n = pb.board.n_points
    combined = [
        Permutation(points + [n + relabel[label] - 1 for label in range(1, 6)])
        for points, relabel in generators
    ]
    group = PermutationGroup(combined)
    seen, sizes = set(), []
    for f in found:
        if f in seen:
            continue
        orbit = set()
        for g in group.generate():
            a = g.array_form
            image = dict(zip((a[p] for p in free), (a[n + label - 1] - n + 1 for label in f), strict=True))
            orbit.add(tuple(image[p] for p in free))
        seen |= orbit
        sizes.append(len(orbit))
    assert sorted(size for _, size in filling_orbits(free, found, generators)) == sorted(sizes)
    assert len(sizes) < len(found)


def test_fillings_respect_partial_latin():
    pb = partial("latin:4").with_clues({0: 1, 5: 1})
    for f in point_fillings(pb, [4, 8, 12]):  # column 0 holds points 0, 4, 8, 12
        filled = pb.with_clues(dict(zip([4, 8, 12], f, strict=True)))
        assert filled.is_partial_latin()
    assert point_fillings(pb, [4, 8, 12], cap=1) is None


def test_cli_count_uses_symmetry():
    result = run_cli("count", "latin:6")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "812851200"  # A002860(6)


@pytest.mark.parametrize(
    "spec,total",
    [("triangle:6", 39_730_308_710_400), ("tetrahedron:3", 39_730_308_710_400), ("cube:2", 185_794_560)],
)
def test_split_on_points_two_asterisms_share(spec, total, monkeypatch):
    """With too few fillings allowed to list a whole asterism (as on boards of 16-point asterisms), leaves
    are split on the free points two asterisms share; the count stays the plain count."""
    import symmetry.pruned

    pb = partial(spec)
    split_on = []

    def recorded(free, found, generators):
        split_on.append(set(free))
        return filling_orbits(free, found, generators)

    monkeypatch.setattr(symmetry.pruned, "MAX_FILLINGS", 200)
    monkeypatch.setattr(symmetry.pruned, "filling_orbits", recorded)
    leaves(pb)
    whole = [set(points) for points in pb.board.asterisms]
    assert any(sum(free <= points for points in whole) == 2 for free in split_on)
    assert count_by_orbits(pb) == count_completions(pb) == total


def test_diagonal_7_by_orbits_of_relabelled_fillings():
    """A274806(7): a first row of distinct labels is split through relabelling (no point permutation alone
    keeps it), and the orbit count agrees with the plain count."""
    pb = partial("diagonal:7")
    assert len(leaves(pb)) > 10
    assert count_by_orbits(pb) == count_completions(pb) == 862_848_000


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_cli_count_diagonal_8():
    """A274806(8), out of reach of the plain count on two cores (hours) and counted by orbits."""
    result = run_cli("count", "diagonal:8", "--jobs", "2", "--json", timeout=1200)
    assert result.returncode == 0 and result.stdout.strip() == '{"count": 300286741708800}'
