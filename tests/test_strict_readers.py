"""Each file kind is recognised by what it declares; anything else is one error naming the key, never a
silent fallback that drops clues (issue 54, "Strict readers")."""

import json

import pytest
from cli import run_cli

from dlx_latin.formats.puzzle import PuzzleFormatError, document_kind

_ = None
PUZZLE = [4, _, 2, _, _, 3, _, _, _, _, _, _, _, _, 4, _]  # 4 clues, one completion
SOLUTION = [4, 1, 2, 3, 2, 3, 1, 4, 1, 4, 3, 2, 3, 2, 4, 1]


def write(tmp_path, data, name="input.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def check(path: str) -> dict:
    out = run_cli("check", path, "--json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def refused(*args: str) -> str:
    out = run_cli(*args)
    assert out.returncode == 1 and out.stdout == "", (out.stdout, out.stderr)
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
    return out.stderr


def test_a_catalog_export_line_is_read_with_its_clues(tmp_path):
    record = {"board": "sudoku:2x2", "multiset": "1,2,3,4", "puzzle": PUZZLE, "solution": SOLUTION}
    record |= {"clue_count": 4, "critical": True, "orbit_size": 3072, "fair": True, "rating": "x", "score": 1}
    report = check(write(tmp_path, record))
    assert report["solutions"] == 1 and report["unique"] is True  # not the 288 of the empty grid
    solved = run_cli("solve", write(tmp_path, record), "--json")
    assert json.loads(solved.stdout)["solutions"] == [[SOLUTION[r * 4 : r * 4 + 4] for r in range(4)]]


def test_a_catalog_solution_line_is_a_full_board(tmp_path):
    record = {"board": "sudoku:2x2", "multiset": "1,2,3,4", "labelling": SOLUTION, "orbit_size": 96}
    report = check(write(tmp_path, record | {"automorphisms": 4}))
    assert report["solutions"] == 1 and report["partial_latin"] is True


@pytest.mark.parametrize("command", ["check", "solve", "count", "render"])
def test_board_and_clues_without_format_are_refused(tmp_path, command):
    path = write(tmp_path, {"board": "sudoku:2x2", "clues": PUZZLE})
    assert "'board' but no 'format'" in refused(command, path)


def test_a_misspelled_key_in_a_puzzle_file_is_named(tmp_path):
    data = {"format": "dlx-latin", "version": 1, "board": "sudoku:2x2", "clue": PUZZLE}
    assert "unknown key 'clue'" in refused("check", write(tmp_path, data))


def test_generate_json_lines_are_puzzle_files(tmp_path):
    out = run_cli("generate", "sudoku:2x2", "--seed", "3", "--json")
    assert out.returncode == 0, out.stderr
    line = out.stdout.splitlines()[0]
    report = check(write(tmp_path, line))
    assert report["unique"] is True and report["solutions"] == 1
    clues = json.loads(line)["clues"]
    assert json.loads(line)["clue_count"] == sum(x is not None for row in clues for x in row)


def test_a_board_object_with_an_unknown_key_is_refused(tmp_path):
    data = {"name": "b", "points": 4, "asterisms": [[0, 1], [2, 3], [0, 2], [1, 3]], "clues": [1, 0, 0, 0]}
    assert "clues" in refused("count", write(tmp_path, data))


@pytest.mark.parametrize(
    "text, named",
    [
        ('{"kind": 5}', "'kind'"),  # not an ipuz kind list: not read as one
        ('{"kind": ["http://ipuz.org/crossword#1"]}', "'kind'"),
        ("[]", "JSON list"),
        ("null", "JSON NoneType"),
        ('"sudoku:2x2"', "JSON str"),
        ("{}", "(none)"),
        ('{"format": "dlx-latin-kenken", "n": 2, "cages": []}', "'format' must be 'dlx-latin'"),
    ],
)
def test_documents_of_no_kind_are_refused(tmp_path, text, named):
    assert named in refused("check", write(tmp_path, text))


def test_document_kind_reads_declarations():
    assert document_kind({"format": "dlx-latin"}) == "puzzle"
    assert document_kind({"kind": ["http://ipuz.org/sudoku#1"]}) == "ipuz"
    assert document_kind({"board": "latin:3", "labelling": [1] * 9}) == "catalog solution"
    with pytest.raises(PuzzleFormatError, match="'board' but no 'format'"):
        document_kind({"board": "latin:3", "puzzle": [], "clues": []})
