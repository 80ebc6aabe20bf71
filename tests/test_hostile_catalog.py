"""Catalog imports check every fact a record claims; a catalog file never makes the tool open other files."""

import json

import pytest
from cli import run_cli

from catalog.build import build_fewest_clue_puzzles, build_solutions
from catalog.exchange import export_lines, import_lines
from catalog.store import CatalogError, open_catalog
from dlx_latin.boards import board_from_spec
from dlx_latin.latin import PartialBoard


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The export of a sudoku:2x2 catalog: its 2 classes of solutions, 13 classes of minimal puzzles."""
    db = open_catalog(tmp_path_factory.mktemp("cat") / "a.sqlite")
    pb = PartialBoard(board_from_spec("sudoku:2x2"))
    build_solutions(db, pb, "sudoku:2x2")
    build_fewest_clue_puzzles(db, pb, "sudoku:2x2")
    return list(export_lines(db))


def _import(tmp_path, records):
    return import_lines(open_catalog(tmp_path / "b.sqlite"), [json.dumps(r) for r in records])


def test_the_export_imports_whole(tmp_path, exported):
    assert _import(tmp_path, exported) == len(exported) == 2 + 13  # 13 classes of 4-clue puzzles


def solution(exported):
    return dict(next(r for r in exported if "labelling" in r))


def puzzle(exported):
    return dict(next(r for r in exported if "puzzle" in r))


FORGERIES = {
    "all ones": (solution, lambda r: r.update(labelling=[1] * 16), "not a Latin board"),
    "a label outside the multiset": (solution, lambda r: r["labelling"].__setitem__(0, 7), "holds 7"),
    "too few labels": (solution, lambda r: r.update(labelling=r["labelling"][:15]), "one label per point"),
    "a wrong orbit size": (solution, lambda r: r.update(orbit_size=r["orbit_size"] + 1), "orbit size is"),
    "a wrong automorphism count": (solution, lambda r: r.update(automorphisms=5), "automorphisms"),
    "not canonical": (  # labels 1 and 2 swapped: the same class, another labelling
        solution,
        lambda r: r.update(labelling=[{1: 2, 2: 1}.get(x, x) for x in r["labelling"]]),
        "canonical form",
    ),
    "an orbit size of the wrong type": (solution, lambda r: r.update(orbit_size="x"), "orbit size is"),
    "a puzzle claiming to be not critical": (puzzle, lambda r: r.update(critical=False), "'critical' is"),
    "a puzzle with a clue removed": (
        puzzle,
        lambda r: r["puzzle"].__setitem__(next(i for i, x in enumerate(r["puzzle"]) if x), None),
        "not a Latin puzzle",
    ),
    "a puzzle with another solution": (
        puzzle,
        lambda r: r.update(solution=[5 - x for x in r["solution"]]),
        "disagree",
    ),
    "a wrong clue count": (puzzle, lambda r: r.update(clue_count=3), "clues, not 3"),
    "a forged rating": (puzzle, lambda r: r.update(score=r["score"] + 1), "rating or score"),
    "a board file named in the data": (solution, lambda r: r.update(board="/dev/zero"), "never a file"),
    "a board that is not a string": (solution, lambda r: r.update(board=["latin:4"]), "strings"),
}


@pytest.mark.parametrize("name", list(FORGERIES))
def test_a_forged_record_is_refused_and_nothing_is_stored(tmp_path, exported, name):
    pick, change, message = FORGERIES[name]
    record = json.loads(json.dumps(pick(exported)))
    change(record)
    with pytest.raises(CatalogError, match=message):
        _import(tmp_path, [*exported[:1], record])
    assert _import(tmp_path, []) == 0
    db = open_catalog(tmp_path / "b.sqlite")
    assert db.execute("SELECT count(*) FROM solutions").fetchone() == (0,)  # the first line was rolled back


def test_certify_after_a_refused_import_is_not_complete(tmp_path):
    forged = {
        "board": "latin:3",
        "multiset": "1,2,3",
        "labelling": [1] * 9,
        "orbit_size": 12,
        "automorphisms": 3,
    }
    (tmp_path / "f.jsonl").write_text(json.dumps(forged) + "\n")
    out = run_cli("catalog", "import", str(tmp_path / "f.jsonl"), "--db", str(tmp_path / "c.sqlite"))
    assert out.returncode == 1 and out.stderr.count("\n") == 1
    assert "line 1 is not an exported solution or puzzle: the labelling is not a Latin board" in out.stderr


def test_a_puzzle_file_naming_a_path_is_refused(tmp_path):
    for target in ["/dev/zero", str(tmp_path / "p.json"), "examples/queens8.dlx"]:
        puzzle_file = tmp_path / "p.json"
        puzzle_file.write_text(
            json.dumps({"format": "dlx-latin", "version": 1, "board": target, "clues": {}})
        )
        out = run_cli("check", str(puzzle_file), timeout=30)
        assert out.returncode == 1 and out.stderr.count("\n") == 1 and "never a file" in out.stderr
