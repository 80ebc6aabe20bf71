"""Sudoku by bands (symmetry/bands.py) and its group's classes from structure (symmetry/sudoku_group.py),
against the plain count, brute force, the listed group, the listing of classes and published counts."""

import math
from collections import Counter

import pytest
from cli import run_cli

from dlx_latin.boards import board_from_spec
from dlx_latin.exact_cover import CountSettings
from dlx_latin.latin import Multiset, PartialBoard, count_completions
from symmetry.bands import Bands, BandsTooLargeError, count_by_bands, count_sudoku, sudoku_shape
from symmetry.burnside import point_classes
from symmetry.counting import classes_up_to_symmetry, count_up_to_symmetry
from symmetry.groups import automorphism_group, maps_asterisms
from symmetry.sudoku_group import group_order, sudoku_classes


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 2)])
def test_band_count_equals_the_plain_count(rows, cols):
    plain = count_completions(PartialBoard(board_from_spec(f"sudoku:{rows}x{cols}")), None, CountSettings())
    assert Bands(rows, cols).count() == plain  # both orientations: 3x2 forces band 2, 2x3 enumerates it


def band_fillings_by_brute_force(rows: int, cols: int) -> Counter:
    """Every filling of one band of sudoku:RxC (R rows, boxes R x C), cell by cell, counted per column-set
    choice."""
    n = rows * cols
    by_sets: Counter = Counter()
    grid = [[None] * n for _ in range(rows)]

    def fill(k: int) -> None:
        if k == rows * n:
            by_sets[tuple(frozenset(grid[r][c] for r in range(rows)) for c in range(n))] += 1
            return
        r, c = divmod(k, n)
        box = [grid[i][j] for i in range(rows) for j in range(c // cols * cols, c // cols * cols + cols)]
        for v in range(n):
            if v not in grid[r] and v not in box and all(grid[i][c] != v for i in range(r)):
                grid[r][c] = v
                fill(k + 1)
                grid[r][c] = None

    fill(0)
    return by_sets


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3)])  # 3x2's 18 cells: its count above checks it
def test_band_fillings_and_patterns_by_brute_force(rows, cols):
    bands = Bands(rows, cols)
    found = band_fillings_by_brute_force(rows, cols)
    for columns, fillings in found.items():
        types = [
            tuple(next(j for j in range(cols) if v in columns[s * cols + j]) for s in range(rows))
            for v in range(rows * cols)
        ]
        pattern = tuple(sorted(bands.code(t) for t in types))
        assert bands.band_fillings(pattern) == fillings
    # Every column-set choice with a filling is one the patterns stand for, and no other.
    with_fillings = sum(w for p, w in bands.patterns.items() if bands.band_fillings(p))
    assert with_fillings == len(found)


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 2), (4, 2)])
def test_classes_stand_for_every_column_set_choice(rows, cols):
    bands = Bands(rows, cols)
    n = rows * cols
    per_stack = math.factorial(n) // math.factorial(rows) ** cols
    assert sum(bands.classes[2]) == sum(bands.patterns.values()) == per_stack**rows


def test_8x8_sudoku_published_count():
    # 8x8 Sudoku with 2x4 boxes (Russell & Jarvis), both ways round.
    assert count_by_bands(2, 4) == count_by_bands(4, 2) == 29_136_487_207_403_520


@pytest.mark.slow
def test_9x9_sudoku_felgenhauer_jarvis():
    bands = Bands(3, 3)
    assert bands.count() == 6_670_903_752_021_072_936_960  # A107739
    assert len(bands.classes[1]) == 44  # Felgenhauer & Jarvis's 44 classes of first bands


def test_shapes_beyond_the_method_are_refused():
    with pytest.raises(BandsTooLargeError, match="4 bands"):
        Bands(4, 4)
    assert count_sudoku(PartialBoard(board_from_spec("sudoku:4x4"))) is None


def test_only_empty_sudoku_with_distinct_labels_goes_by_bands():
    board = board_from_spec("sudoku:2x3")
    assert sudoku_shape(PartialBoard(board)) == (2, 3)
    assert sudoku_shape(PartialBoard(board, clues={0: 1})) is None
    assert sudoku_shape(PartialBoard(board, Multiset.parse("1^2,2^2,3^2"))) is None
    assert sudoku_shape(PartialBoard(board_from_spec("latin:6"))) is None


def test_cli_counts_sudoku_by_bands():
    ran = run_cli("count", "sudoku:2x4", "--json")
    assert ran.returncode == 0 and ran.stdout.strip() == '{"count": 29136487207403520}'
    assert run_cli("count", "sudoku:2x3", "--no-memo").stdout.strip() == "28200960"  # the search, raw
    assert run_cli("count", "sudoku:2x3", "--up-to", "labels").stdout.strip() == str(28_200_960 // 720)


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 2), (3, 3)])
def test_sudoku_group_classes_from_structure(rows, cols):
    board = board_from_spec(f"sudoku:{rows}x{cols}")
    classes = sudoku_classes(rows, cols)
    assert sum(size for _, size in classes) == group_order(rows, cols) == automorphism_group(board).order()
    assert all(maps_asterisms(board, image) for image, _ in classes)
    if rows * cols <= 6:  # the classes of the listed group, conjugation by conjugation
        listed = point_classes(automorphism_group(board))
        assert sorted(size for _, size in classes) == sorted(size for _, size in listed)
    if rows == cols == 3:
        assert len(classes) == 275  # Russell & Jarvis


@pytest.mark.parametrize("spec, classes", [("sudoku:2x2", 2), ("sudoku:2x3", 49), ("sudoku:3x2", 49)])
def test_sudoku_classes_by_structure_match_listing(spec, classes):
    pb = PartialBoard(board_from_spec(spec))
    assert count_up_to_symmetry(pb) == len(classes_up_to_symmetry(pb)) == classes


@pytest.mark.slow
def test_9x9_sudoku_essentially_different_grids():
    pb = PartialBoard(board_from_spec("sudoku:3x3"))
    assert count_up_to_symmetry(pb, jobs=2) == 5_472_730_538  # Russell & Jarvis 2006
