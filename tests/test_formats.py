"""Puzzle files: native JSON, grid strings and ipuz Sudoku, round trips and errors."""

import json
from pathlib import Path

import pytest
from cli import run_cli

from dlx_latin.boards import board_from_spec
from dlx_latin.formats.ipuz import read_ipuz, write_ipuz
from dlx_latin.formats.puzzle import PuzzleFormatError, read_puzzle, write_puzzle
from dlx_latin.latin import Multiset, PartialBoard, completions, count_completions
from dlx_latin.latin.grid import GridStringError, format_grid, label_char, parse_grid

EXAMPLES = Path(__file__).parent.parent / "examples"
JIGSAW = "jigsaw:AABBBBAACCBBACCCDDAECDDDEEEFFDEEFFFF"


@pytest.mark.parametrize("name", ["sudoku-fig1", "sudoku-ripeto-fig21"])
def test_native_and_ipuz_round_trips(name):
    pf = read_puzzle((EXAMPLES / f"{name}.json").read_text())
    again = read_puzzle(write_puzzle(pf.partial, pf.solution, pf.board_spec))
    assert (again.partial.clues, again.solution, again.partial.multiset) == (
        pf.partial.clues,
        pf.solution,
        pf.partial.multiset,
    )
    via_ipuz = read_ipuz(write_ipuz(pf.partial, pf.solution))
    assert via_ipuz.board_spec == "sudoku:3x3"
    assert (via_ipuz.partial.clues, via_ipuz.solution, via_ipuz.partial.multiset) == (
        pf.partial.clues,
        pf.solution,
        pf.partial.multiset,
    )


def test_ipuz_zones_carry_jigsaw_regions_and_extra_asterisms():
    board = board_from_spec(JIGSAW)
    solution = next(completions(PartialBoard(board)))
    pb = PartialBoard(board, clues={p: solution[p] for p in range(0, 36, 3)})
    again = read_ipuz(write_ipuz(pb, solution))
    assert again.board_spec == JIGSAW and again.partial.clues == pb.clues and again.solution == solution
    quadoku = read_ipuz(write_ipuz(PartialBoard(board_from_spec("quadoku"))))
    assert (
        quadoku.partial.board.asterisms == board_from_spec("quadoku").asterisms
        or len(quadoku.partial.board.asterisms) == 31
    )
    assert count_completions(PartialBoard(quadoku.partial.board), limit=5) == 5


def test_ipuz_reads_a_handwritten_file():
    text = json.dumps(
        {
            "version": "http://ipuz.org/v2",
            "kind": ["http://ipuz.org/sudoku#1"],
            "charset": "1234",
            "boxes": True,
            "dimensions": {"width": 4, "height": 4},
            "empty": "0",
            "puzzle": [[1, "0", {"given": 3}, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, None]],
        }
    )
    pf = read_ipuz(text)
    assert pf.board_spec == "sudoku:2x2" and pf.partial.clues == {0: 1, 2: 3}


@pytest.mark.parametrize(
    "data, message",
    [
        ({"kind": ["http://ipuz.org/crossword#1"]}, "not an ipuz Sudoku file"),
        ({"kind": ["http://ipuz.org/sudoku#1"], "dimensions": {"width": 4, "height": 5}}, "square grid"),
        (
            {"kind": ["http://ipuz.org/sudoku#1"], "dimensions": {"width": 4, "height": 4}, "puzzle": [[0]]},
            "4 rows of 4 cells",
        ),
        (
            {
                "kind": ["http://ipuz.org/sudoku#1"],
                "dimensions": {"width": 4, "height": 4},
                "zones": [{"cells": [[5, 1]]}],
                "puzzle": [[0] * 4] * 4,
            },
            "outside the 4x4 grid",
        ),
    ],
)
def test_bad_ipuz(data, message):
    with pytest.raises(PuzzleFormatError, match=message):
        read_ipuz(json.dumps(data))


def test_grid_strings():
    m = Multiset.parse("1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16")
    assert label_char(10) == "A" and label_char(16) == "G"
    assert parse_grid("1A" + "." * 254, 256, m) == {0: 1, 1: 10}
    assert parse_grid("12\n34", 4, Multiset.parse("1,2,3,4")) == {0: 1, 1: 2, 2: 3, 3: 4}
    assert parse_grid("0x..", 4, Multiset.parse("x,y,z,w")) == {1: "x"}
    assert parse_grid("0...", 4, Multiset.parse("0,1,2,3")) == {0: 0}
    assert format_grid([1, None, 3, 4], (2, 2)) == "1.\n34"
    with pytest.raises(GridStringError, match="no one-character form"):
        label_char("ab")


def test_cli_convert_round_trip(tmp_path):
    run = run_cli
    out = run("convert", str(EXAMPLES / "sudoku-fig1.json"), "--to", "ipuz")
    assert out.returncode == 0
    ipuz = tmp_path / "fig1.ipuz"
    ipuz.write_text(out.stdout)
    solved = json.loads(run("solve", str(ipuz), "--unique", "--json").stdout)
    assert solved["solutions"][0] == json.loads((EXAMPLES / "sudoku-fig1.json").read_text())["solution"]
    grid = run("convert", str(ipuz), "--to", "grid").stdout.split()
    assert len(grid) == 9 and grid[0] == "1.6..23.."
    bad = run("convert", str(EXAMPLES / "queens8.dlx"), "--to", "grid")
    assert bad.returncode == 1 and "neither a dlx-latin puzzle file nor an ipuz Sudoku file" in bad.stderr
