"""`dlx-latin boards|info|count|solve|check` as a user runs them."""

import json

import pytest
from cli import EXAMPLES, run_cli

run = run_cli


def data(*args: str) -> dict:
    out = run(*args, "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_boards_lists_every_family():
    families = {f["family"] for f in data("boards")["families"]}
    assert {
        "latin",
        "sudoku",
        "jigsaw",
        "diagonal",
        "win",
        "quadoku",
        "free-square",
        "tartan",
        "triangle",
        "hexagon",
        "dodecagon",
        "tetrahedron",
        "cube",
        "octahedron",
        "icosahedron",
        "dodecahedron",
    } == families


def test_info():
    info = data("info", "sudoku:2x3")
    assert (info["points"], len(info["asterisms"]), info["asterism_size"]) == (36, 18, 6)
    assert info["asterisms"][12] == [0, 1, 2, 6, 7, 8] and set(info["asterisms_per_point"]) == {3}


@pytest.mark.parametrize(
    "args, count",
    [
        (["sudoku:2x3"], 28_200_960),
        (["latin:5"], 161_280),
        (["diagonal:6"], 92_160),
        (["latin:6", "--multiset", "1^3,2^3"], 297_200),
        (["latin:4", "--multiset", "1,1,2,2"], 90),
        (["sudoku:2x3", "--up-to", "labels"], 39_168),
        (["latin:6", "--multiset", "1^3,2^3", "--up-to", "labels"], 148_600),
        (["sudoku:2x2", "--clues", "1...........4..."], 24),
        (["sudoku:2x3", "--jobs", "2"], 28_200_960),
    ],
)
def test_count(args, count):
    assert data("count", *args) == {"count": count}


def test_solve_puzzle_file_unique():
    pf = json.loads((EXAMPLES / "sudoku-fig1.json").read_text())
    assert data("solve", str(EXAMPLES / "sudoku-fig1.json"), "--unique") == {"solutions": [pf["solution"]]}


def test_solve_latinizes_with_named_labels():
    out = data("solve", "dodecagon", "--multiset", "H,E,L,I,O,S", "--limit", "3")
    assert len(out["solutions"]) == 3 and len({tuple(s) for s in out["solutions"]}) == 3
    assert all(sorted(s) == sorted("HELIOS" * 6) for s in out["solutions"])


def test_solve_text_grid():
    out = run("solve", "sudoku:2x2", "--clues", "1234............")
    assert out.returncode == 0 and out.stdout.splitlines()[0] == "1 2 3 4"


def test_solve_exit_codes():
    none = run("solve", "triangle:4")
    assert (none.returncode, none.stderr) == (3, "dlx-latin: no solution\n")
    several = run("solve", "latin:3", "--unique")
    assert several.returncode == 4 and "not unique" in several.stderr


def test_check_reports():
    report = data("check", str(EXAMPLES / "sudoku-fig1.json"))
    assert report["partial_latin"] and report["completable"] and report["unique"]
    assert report["solutions"] == 1 and report["critical"] is False and len(report["removable_clues"]) > 0
    assert report["fair"] is True and report["rating"] == "very easy"
    loose = data("check", "latin:3", "--clues", "1........")
    assert loose == {
        "partial_latin": True,
        "completable": True,
        "solutions": 4,
        "unique": False,
        "critical": None,
        "removable_clues": None,
        "fair": None,
        "rating": None,
        "score": None,
    }
    bad = data("check", "latin:3", "--clues", "11.......")
    assert bad["partial_latin"] is False and bad["solutions"] == 0 and bad["completable"] is False


@pytest.mark.parametrize(
    "args, message",
    [
        (["count", "rhombus:3"], "dlx-latin: error: unknown board 'rhombus:3'"),
        (["count", "latin:4", "--multiset", "1,2,3"], "dlx-latin: error: the multiset has 3 labels"),
        (
            ["solve", "latin:4", "--clues", "9..............."],
            "dlx-latin: error: grid string cell 0: '9' is not a label",
        ),
        (
            ["solve", "latin:4", "--clues", "1.."],
            "dlx-latin: error: the grid string has 3 cells; the board has 16",
        ),
        (["solve", "hexagon:2", "--clues", "1"], "dlx-latin: error: --clues takes a grid string"),
        (["info", "triangle:2"], "dlx-latin: error: triangle:2 is not a Latin triangle"),
    ],
)
def test_bad_input_is_one_line(args, message):
    out = run(*args)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith(message) and out.stderr.count("\n") == 1


def test_bad_puzzle_files(tmp_path):
    cases = {
        "notjson": ("{", "not valid JSON"),
        "format": ('{"format": "other", "version": 1}', "not a dlx-latin puzzle file"),
        "version": ('{"format": "dlx-latin", "version": 7, "board": "latin:3"}', "unsupported version 7"),
        "rows": (
            '{"format": "dlx-latin", "version": 1, "board": "latin:3", "clues": [[1, 2]]}',
            "must be 3 rows of 3",
        ),
        "label": (
            '{"format": "dlx-latin", "version": 1, "board": "latin:3", "clues": {"0": 5}}',
            "label 5 is not",
        ),
        "point": (
            '{"format": "dlx-latin", "version": 1, "board": "latin:3", "clues": {"99": 1}}',
            "clue at point 99",
        ),
        "size": (
            '{"format": "dlx-latin", "version": 1, "board": "latin:3", "multiset": [1, 2]}',
            "the multiset has 2 labels",
        ),
        "board": ('{"format": "dlx-latin", "version": 1, "board": "cube:1"}', "cube:1 is degenerate"),
        "flat": (
            '{"format": "dlx-latin", "version": 1, "board": "hexagon:2", "clues": [1, 2]}',
            "lists 2 points",
        ),
    }
    for name, (text, message) in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        out = run("check", str(path))
        assert out.returncode == 1 and message in out.stderr and out.stderr.count("\n") == 1, name


def test_puzzle_file_with_options_is_a_usage_error():
    out = run("solve", str(EXAMPLES / "sudoku-fig1.json"), "--multiset", "1,2")
    assert out.returncode == 2


def test_count_up_to_symmetry():
    assert data("count", "sudoku:2x2", "--up-to", "symmetry") == {"count": 2}
    big = run("count", "sudoku:4x4", "--up-to", "symmetry")
    assert big.returncode == 1 and big.stderr.count("\n") == 1
    assert "more than 500000 Latin boards" in big.stderr
    clued = run("count", "latin:3", "--clues", "1........", "--up-to", "symmetry")
    assert clued.returncode == 2
