"""The pattern scan: its C search against brute force on random labellings, and its fewest clues against
implicit hitting sets run board by board, on Latin squares, Sudoku and jigsaw covers."""

import itertools
import random

import numpy as np
import pytest

from dlx_latin.boards import board_from_spec
from dlx_latin.jigsaw.counts import cover_board
from dlx_latin.jigsaw.dissections import covers_up_to_symmetry
from dlx_latin.latin import Multiset, PartialBoard, count_completions
from dlx_latin.latin.batch import batch_for
from dlx_latin.puzzles.minimal import fewest_possible, minimal_puzzles, smallest_puzzle
from dlx_latin.puzzles.patterns import listed_boards, pattern_scan, unique_pattern
from symmetry.counting import all_classes
from symmetry.groups import automorphism_elements


def pattern(row, points):
    """Which of the points share a label: each label replaced by the order of its first appearance."""
    first = {}
    return tuple(first.setdefault(row[p], len(first)) for p in points)


def brute_unique(rows, n_points, min_blocks):
    """The fewest points on which some row's pattern (with at least min_blocks labels) is no other's."""
    for k in range(n_points + 1):
        for points in itertools.combinations(range(n_points), k):
            seen = [pattern(row, points) for row in rows]
            if any(seen.count(s) == 1 and len(set(s)) >= min_blocks for s in seen):
                return k
    return None


def test_unique_pattern_against_brute_force():
    rng = random.Random(7)
    for trial in range(150):
        n_points, n_labels = rng.randint(2, 7), rng.randint(2, 4)
        rows = {tuple(rng.randrange(n_labels) for _ in range(n_points)) for _ in range(rng.randint(1, 12))}
        rows = sorted(rows)
        min_blocks = rng.randint(0, 3)
        data = bytes(x for row in rows for x in row)
        best = brute_unique(rows, n_points, min_blocks)
        for k in range(1, n_points + 1):
            found = unique_pattern(data, len(rows), n_points, k, min_blocks, 10**12)
            if best is None or k < best:
                assert found is None, (trial, k, best)
                continue
            board, points = found
            assert len(points) == best, trial  # sizes are tried in turn: the first answer is the fewest
            mine = pattern(rows[board], points)
            assert [pattern(row, points) for row in rows].count(mine) == 1 and len(set(mine)) >= min_blocks
            break


def closure(generators, n_points):
    """Every element of the group the point permutations generate (images as tuples)."""
    identity = tuple(range(n_points))
    found, todo = {identity}, [identity]
    while todo:
        g = todo.pop()
        for h in generators:
            gh = tuple(h[g[p]] for p in range(n_points))
            if gh not in found:
                found.add(gh)
                todo.append(gh)
    return sorted(found)


def test_unique_pattern_with_a_group_against_brute_force():
    """Random patterns closed under a random group: looking at one point set per orbit finds the same
    fewest points as brute force over every set."""
    rng = random.Random(11)
    trials = 0
    while trials < 120:
        n_points, n_labels = rng.randint(3, 7), rng.randint(2, 4)
        generators = [tuple(rng.sample(range(n_points), n_points)) for _ in range(rng.randint(1, 2))]
        group = closure(generators, n_points)
        seeds = [tuple(rng.randrange(n_labels) for _ in range(n_points)) for _ in range(rng.randint(1, 4))]
        moved = set()
        for row, g in itertools.product(seeds, group):
            image = [0] * n_points
            for p in range(n_points):
                image[g[p]] = row[p]
            moved.add(pattern(image, range(n_points)))
        if len(group) > 120 or len(moved) > 40:
            continue
        trials += 1
        rows = sorted(moved)
        min_blocks = rng.randint(0, 3)
        data = bytes(x for row in rows for x in row)
        elements = np.array(group, dtype=np.int32)
        best = brute_unique(rows, n_points, min_blocks)
        for k in range(1, n_points + 1):
            found = unique_pattern(data, len(rows), n_points, k, min_blocks, 10**12, elements)
            if best is None or k < best:
                assert found is None, (trials, k, best)
                continue
            board, points = found
            assert len(points) == best, trials
            mine = pattern(rows[board], points)
            assert [pattern(row, points) for row in rows].count(mine) == 1 and len(set(mine)) >= min_blocks
            break


def hitting_set_minimum(pb):
    """The fewest clues by implicit hitting sets alone, board by board over the symmetry classes."""
    solved = (pb.with_clues(dict(enumerate(f.labelling))) for f in all_classes(pb))
    return min(len(smallest_puzzle(board).clues) for board in solved)


@pytest.mark.parametrize("spec,fewest", [("latin:3", 2), ("latin:4", 4), ("latin:5", 6), ("sudoku:2x2", 4)])
def test_scan_finds_the_published_minima(spec, fewest):
    pb = PartialBoard(board_from_spec(spec))
    scan = pattern_scan(pb)
    assert scan.at_least == len(scan.puzzle) == fewest == hitting_set_minimum(pb)
    assert count_completions(pb.with_clues(scan.puzzle)) == 1


def test_scan_agrees_with_hitting_sets_on_jigsaw_covers():
    """Every cover of order 4 and 40 of order 5 (seeded): the same fewest clues both ways."""
    orbits = sorted(covers_up_to_symmetry(4)) + random.Random(5).sample(sorted(covers_up_to_symmetry(5)), 40)
    for regions in orbits:
        pb = cover_board(regions)
        scan = pattern_scan(pb)
        if count_completions(pb, limit=1) == 0:
            assert scan is None
            continue
        assert scan.at_least == len(scan.puzzle) == hitting_set_minimum(pb), regions
        assert batch_for(pb.board, pb.multiset).count(scan.puzzle) == 1


@pytest.mark.parametrize("spec", ["latin:3", "latin:4", "latin:5", "sudoku:2x2", "jigsaw:aaaabbbbccccdddd"])
def test_symmetries_give_the_same_minima(spec):
    pb = cover_board(spec.split(":")[1]) if spec.startswith("jigsaw") else PartialBoard(board_from_spec(spec))
    plain = pattern_scan(pb)
    scan = pattern_scan(pb, symmetries=automorphism_elements(pb.board))
    assert scan.at_least == len(scan.puzzle) == plain.at_least
    assert count_completions(pb.with_clues(scan.puzzle)) == 1


def test_symmetries_settle_order_5_covers_alike():
    for regions in random.Random(6).sample(sorted(covers_up_to_symmetry(5)), 60):
        pb = cover_board(regions)
        plain = pattern_scan(pb)
        scan = pattern_scan(pb, symmetries=automorphism_elements(pb.board))
        if plain is None:
            assert scan is None
            continue
        assert scan.at_least == len(scan.puzzle) == plain.at_least, regions
        assert batch_for(pb.board, pb.multiset).count(scan.puzzle) == 1


def test_symmetries_cut_the_work():
    """With the 28,800 symmetries of latin:5 a budget that proves only 4 clues finds the 6."""
    pb = PartialBoard(board_from_spec("latin:5"))
    assert pattern_scan(pb, budget=10**6).puzzle is None
    scan = pattern_scan(pb, budget=10**6, symmetries=automorphism_elements(pb.board))
    assert len(scan.puzzle) == 6
    with pytest.raises(ValueError, match="25 point images"):
        pattern_scan(pb, symmetries=np.zeros((2, 24), dtype=np.int32))
    with pytest.raises(ValueError, match="point images below N"):
        unique_pattern(bytes(25), 1, 25, 2, 0, 10, np.full((1, 25), 25, dtype=np.int32))


def test_a_scan_that_gives_up_still_bounds_the_search():
    pb = PartialBoard(board_from_spec("latin:4"))
    scan = pattern_scan(pb, budget=1)
    assert scan.puzzle is None and scan.at_least == 3  # proved nothing beyond the swap bound
    assert minimal_puzzles(pb).clues == 4
    assert listed_boards(pb, max_boards=3) is None  # 24 Latin squares of order 4 with the first row fixed
    assert pattern_scan(pb, max_boards=3) is None


def test_the_swap_bound():
    assert fewest_possible(PartialBoard(board_from_spec("sudoku:3x3"))) == 8
    repeated = PartialBoard(board_from_spec("latin:4"), Multiset.parse("1^2,2^2"))
    assert fewest_possible(repeated) == 1 and pattern_scan(repeated) is None  # labels repeat: no scan
