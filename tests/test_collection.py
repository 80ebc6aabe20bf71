"""`catalog import BOARD --grid FILE`: a collection's puzzles stored once per symmetry class, duplicates up
to symmetry merged and counted, lines that are not Latin puzzles rejected by number."""

import json
import random
import sqlite3

from cli import run_cli

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import PartialBoard, completions, count_completions
from dlx_latin.latin.grid import label_char


def shuffled(grid: str, rng: random.Random) -> str:
    """The 4x4 Sudoku grid moved by a random symmetry: rows within bands, bands, columns within stacks,
    stacks, transposition and relabelling (each a symmetry, so the class stays the same)."""
    rows = [2 * b + r for b in rng.sample(range(2), 2) for r in rng.sample(range(2), 2)]
    cols = [2 * s + c for s in rng.sample(range(2), 2) for c in rng.sample(range(2), 2)]
    labels = dict(zip("1234", rng.sample("1234", 4), strict=True), **{".": "."})
    at = (lambda r, c: cols[c] * 4 + rows[r]) if rng.random() < 0.5 else (lambda r, c: rows[r] * 4 + cols[c])
    return "".join(labels[grid[at(r, c)]] for r in range(4) for c in range(4))


def puzzles_by_clue_count(seed: int) -> list[str]:
    """One Latin puzzle of the 4x4 Sudoku for each clue count 4..12: no two in one class."""
    rng = random.Random(seed)
    board = board_from_spec("sudoku:2x2")
    full = next(completions(PartialBoard(board)))
    out = []
    for count in range(4, 13):
        while True:
            clues = {p: full[p] for p in rng.sample(range(16), count)}
            if count_completions(PartialBoard(board, clues=clues), limit=2) == 1:
                out.append("".join(label_char(clues[p]) if p in clues else "." for p in range(16)))
                break
    return out


def collected(db) -> dict:
    with sqlite3.connect(db) as con:
        return dict(con.execute("SELECT clues, lines FROM collected").fetchall())


def test_a_collection_with_duplicates_gives_its_classes(tmp_path):
    rng = random.Random(4)
    sources = puzzles_by_clue_count(4)
    lines = [shuffled(sources[k % len(sources)], rng) for k in range(90)]
    assert len(set(lines)) > 30  # the copies are mostly different strings
    path = tmp_path / "collection.txt"
    path.write_text("# 90 copies of 9 puzzles\n\n" + "\n".join(lines) + "\n")
    db = str(tmp_path / "c.sqlite")
    out = run_cli("catalog", "import", "sudoku:2x2", "--grid", str(path), "--db", db, "--json")
    record = json.loads(out.stdout)
    assert record == {
        "board": "sudoku:2x2",
        "lines": 90,
        "puzzles": 90,
        "classes": 9,
        "duplicates": 81,
        "added": 9,
        "rejected": 0,
    }
    assert sorted(collected(db).values()) == [10] * 9
    stored = run_cli("catalog", "query", "--board", "sudoku:2x2", "--puzzles", "--db", db).stdout
    puzzles = [json.loads(line) for line in stored.splitlines()]
    assert sorted(p["clue_count"] for p in puzzles) == list(range(4, 13))
    assert all(p["lines"] == 10 for p in puzzles)
    board = board_from_spec("sudoku:2x2")
    for p in puzzles:  # canonical clues and their canonical completion agree, and it is the only one
        clues = {k: x for k, x in enumerate(p["clues"]) if x is not None}
        assert list(completions(PartialBoard(board, clues=clues), limit=2)) == [p["solution"]]
        fewer = [{q: x for q, x in clues.items() if q != k} for k in clues]
        critical = all(count_completions(PartialBoard(board, clues=f), limit=2) == 2 for f in fewer)
        assert p["critical"] is critical
    # the same collection again, with two jobs: nothing new, every class seen twice as often
    again = run_cli("catalog", "import", "sudoku:2x2", "--grid", str(path), "--db", db, "--jobs", "2")
    assert again.stdout.strip() == (
        "sudoku:2x2: 90 lines, 90 Latin puzzles in 9 classes (81 duplicates up to symmetry merged), "
        "0 new to the catalog, 0 rejected"
    )
    assert sorted(collected(db).values()) == [20] * 9


def test_lines_that_are_not_latin_puzzles_are_rejected_by_number(tmp_path):
    unique = puzzles_by_clue_count(1)[0]
    path = tmp_path / "collection.txt"
    several = "1..............."
    none = "11.............."
    path.write_text(f"{unique}\n{several}\n\n12x\n{none}\n{unique}\n")
    db = str(tmp_path / "c.sqlite")
    out = run_cli("catalog", "import", "sudoku:2x2", "--grid", str(path), "--db", db, "--json")
    assert out.returncode == 1
    assert json.loads(out.stdout) == {
        "board": "sudoku:2x2",
        "lines": 5,
        "puzzles": 2,
        "classes": 1,
        "duplicates": 1,
        "added": 1,
        "rejected": 3,
    }
    assert out.stderr.splitlines() == [
        "dlx-latin: error: line 2: the puzzle has several solutions: not a Latin puzzle",
        "dlx-latin: error: line 4: the grid string has 3 cells; the board has 16",
        "dlx-latin: error: line 5: the puzzle has no solution: not a Latin puzzle",
    ]


def test_grid_import_takes_a_board():
    out = run_cli("catalog", "import", "sudoku:2x2", "--multiset", "1,2,3,4")
    assert out.returncode == 2 and "--multiset goes with --grid" in out.stderr
