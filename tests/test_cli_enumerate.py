"""`dlx-latin enumerate`: every Latin board as JSON lines, or one canonical form per class."""

import json
import subprocess
import sys

import pytest
from checker import is_latin_board
from cli import run_cli

from dlx_latin.boards import board_from_spec


def lines(result):
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_every_latin_square_of_order_4():
    found = lines(run_cli("enumerate", "latin:4"))
    grids = {tuple(v for row in x["labelling"] for v in row) for x in found}
    assert len(found) == len(grids) == 576  # A002860(4)
    board = board_from_spec("latin:4")
    assert all(is_latin_board(board, [1, 2, 3, 4], list(g)) for g in grids)


def test_canonical_classes_of_the_6x6_sudoku():
    found = lines(run_cli("enumerate", "sudoku:2x3", "--canonical"))
    assert len(found) == 49  # essentially different 6x6 Sudoku grids
    assert sum(x["orbit_size"] for x in found) == 28_200_960
    assert all(x["orbit_size"] * x["stabilizer_order"] == 3456 * 720 for x in found)
    board = board_from_spec("sudoku:2x3")
    for x in found:
        assert is_latin_board(board, list(range(1, 7)), [v for row in x["labelling"] for v in row])


@pytest.mark.parametrize(
    "spec,classes,total",
    [
        ("latin:6", 17, 812_851_200),
        ("triangle:6", 1, 39_730_308_710_400),
        ("hexagon:3", 1, 13936573991099572420608000),
    ],
)
def test_canonical_classes_found_level_by_level(spec, classes, total):
    """Boards whose symmetry leaves hold too many Latin boards to list stream their classes found level by
    level: Latin squares of order 6 (17 classes, A002860(6) squares), Latin triangles and hexagons."""
    found = lines(run_cli("enumerate", spec, "--canonical"))
    assert len(found) == classes and sum(x["orbit_size"] for x in found) == total
    board = board_from_spec(spec)
    labels = list(range(1, board.asterism_size + 1))
    for x in found:
        flat = [v for row in x["labelling"] for v in (row if isinstance(row, list) else [row])]
        assert is_latin_board(board, labels, flat)


def test_limit_and_repeated_labels():
    found = lines(run_cli("enumerate", "latin:4", "--multiset", "1^2,2^2", "--canonical"))
    assert sum(x["orbit_size"] for x in found) == 90  # A058527(4): 4x4 binary squares, two of each per line
    assert len(lines(run_cli("enumerate", "latin:5", "--limit", "7"))) == 7


def test_canonical_needs_an_empty_board():
    result = run_cli("enumerate", "latin:4", "--clues", "1...............", "--canonical")
    assert result.returncode == 2
    assert "clues break the symmetry" in result.stderr


def test_a_closed_pipe_ends_quietly():
    shell = f"'{sys.executable}' -m dlx_latin enumerate latin:6 | head -n 1"
    done = subprocess.run(
        ["bash", "-c", "set -o pipefail; " + shell], capture_output=True, text=True, timeout=60
    )
    assert len(done.stdout.splitlines()) == 1
    assert "Traceback" not in done.stderr and "Error" not in done.stderr
