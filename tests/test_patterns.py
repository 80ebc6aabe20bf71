"""The pattern scan: its C search against brute force on random labellings, and its fewest clues against
implicit hitting sets run board by board, on Latin squares, Sudoku and jigsaw covers."""

import itertools
import random

import pytest

from dlx_latin.boards import board_from_spec
from dlx_latin.jigsaw.counts import cover_board
from dlx_latin.jigsaw.dissections import covers_up_to_symmetry
from dlx_latin.latin import Multiset, PartialBoard, count_completions
from dlx_latin.latin.batch import batch_for
from dlx_latin.puzzles.minimal import fewest_possible, minimal_puzzles, smallest_puzzle
from dlx_latin.puzzles.patterns import listed_boards, pattern_scan, unique_pattern
from symmetry.counting import all_classes


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
