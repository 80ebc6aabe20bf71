"""Counts on orbit representatives, against the plain count and published totals."""

import random

import pytest
from cli import run_cli
from sympy.combinatorics import Permutation, PermutationGroup

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import Multiset, PartialBoard, completions, count_completions
from symmetry.groups import maps_asterisms
from symmetry.pruned import count_by_orbits, filling_orbits, fillings, leaves, merge_symmetric, stabilizer

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


@pytest.mark.parametrize("spec,multiset", [("sudoku:2x3", None), ("latin:5", "1^2,2^2,3"), ("cube:2", None)])
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
    it, then the reduced squares (A000315(7) = 16,942,080) counted plainly."""
    parts = leaves(partial("latin:7"))
    assert [leaf.weight for leaf in parts] == [5040 * 720]
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
    pb = partial("sudoku:2x3").with_clues({0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6})
    generators, order = stabilizer(pb, 6)  # column 0
    assert order == 8
    column = set(pb.board.asterisms[6])
    for g in generators:
        assert maps_asterisms(pb.board, g)
        assert all(pb.clues.get(g[p]) == label for p, label in pb.clues.items())
        assert {g[p] for p in column} == column


def test_filling_orbits_against_listed_group():
    """Orbits by union-find under generators agree with orbits under every listed group element."""
    pb = partial("latin:5").with_clues({p: p + 1 for p in range(5)})
    column = 5
    free = [p for p in pb.board.asterisms[column] if p not in pb.clues]
    found = fillings(pb, column)
    assert len(found) == 24  # 4! arrangements of the first column below the fixed first row
    generators, _ = stabilizer(pb, column)
    group = PermutationGroup([Permutation(g) for g in generators])
    seen, sizes = set(), []
    for f in found:
        if f in seen:
            continue
        orbit = set()
        for g in group.generate():
            image = dict(zip((g.array_form[p] for p in free), f, strict=True))
            orbit.add(tuple(image[p] for p in free))
        seen |= orbit
        sizes.append(len(orbit))
    assert sorted(size for _, size in filling_orbits(free, found, generators)) == sorted(sizes)


def test_fillings_respect_partial_latin():
    pb = partial("latin:4").with_clues({0: 1, 5: 1})
    for f in fillings(pb, 4):  # column 0 holds points 0, 4, 8, 12
        filled = pb.with_clues(dict(zip([4, 8, 12], f, strict=True)))
        assert filled.is_partial_latin()
    assert fillings(pb, 4, cap=1) is None


def test_cli_count_uses_symmetry():
    result = run_cli("count", "latin:6")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "812851200"  # A002860(6)
