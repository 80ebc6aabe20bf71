"""Groups on board points: automorphism orders (computed, not hard-coded) and geometric orders per family."""

import math

import pytest

from dlx_latin.boards import Board, board_from_spec
from symmetry import automorphism_group, geometric_group, maps_asterisms


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_latin_square_automorphisms(n):
    assert automorphism_group(board_from_spec(f"latin:{n}")).order() == 2 * math.factorial(n) ** 2


@pytest.mark.parametrize(
    "spec, order", [("sudoku:2x3", 3456), ("sudoku:3x3", 3_359_232), ("sudoku:2x2", 128)]
)
def test_sudoku_automorphisms(spec, order):
    assert automorphism_group(board_from_spec(spec)).order() == order


GEOMETRIC = {
    "latin:5": 8,
    "sudoku:3x3": 8,
    "sudoku:2x3": 4,
    "quadoku": 8,
    "tartan": 8,
    "triangle:6": 6,
    "triangle:8": 6,
    "hexagon:2": 12,
    "hexagon:3": 12,
    "dodecagon": 24,
    "tetrahedron:3": 24,
    "tetrahedron:4": 24,
    "cube:2": 48,
    "cube:4": 48,
    "octahedron:3": 48,
    "icosahedron:2": 120,
    "dodecahedron": 120,
    "dodecahedron:decagonal": 120,
}


@pytest.mark.parametrize("spec", GEOMETRIC)
def test_geometric_groups(spec):
    b = board_from_spec(spec)
    g = geometric_group(b)
    assert g.order() == GEOMETRIC[spec]
    assert all(maps_asterisms(b, perm.array_form) for perm in g.generators)
    assert automorphism_group(b).order() % g.order() == 0  # isometries are automorphisms


def test_tetrahedron_is_a_folded_triangle():
    assert (
        automorphism_group(board_from_spec("tetrahedron:4")).order()
        == automorphism_group(board_from_spec("triangle:8")).order()
    )


def test_custom_board_without_coordinates():
    b = Board("path", 3, [(0, 1), (1, 2)])
    assert geometric_group(b) is None
    assert automorphism_group(b).order() == 2  # the reversal


def test_info_reports_group_orders():
    import json

    from cli import run_cli

    out = run_cli("info", "sudoku:3x3", "--json")
    data = json.loads(out.stdout)
    assert data["automorphism_group_order"] == 3_359_232 and data["geometric_group_order"] == 8
