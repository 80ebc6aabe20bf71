"""Catalog export and import as JSON lines, one canonical solution or puzzle per line; importing an export
gives back the same catalog rows (boards are rebuilt from their specs and checked against the stored
fingerprint).  Puzzles and solutions of square grids also export as ipuz (the open puzzle format's Sudoku
kind), one ipuz document per line, with the board and multiset in namespaced fields."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator

from catalog.store import CatalogError, board_id
from dlx_latin.boards import Board, board_from_spec

PUZZLE_FIELDS = ("solution", "clues", "clue_count", "critical", "orbit_size", "fair", "rating", "score")


def _compact(labelling: list) -> str:
    return json.dumps(labelling, separators=(",", ":"))


def export_lines(db: sqlite3.Connection, spec: str | None = None) -> Iterator[dict]:
    """Every stored solution, then every puzzle (of one board if `spec`), as JSON-ready records in a fixed
    order."""
    where, args = ("WHERE b.spec = ?", (spec,)) if spec is not None else ("", ())
    solutions = db.execute(
        "SELECT b.spec, b.multiset, s.canonical, s.orbit_size, s.automorphisms FROM solutions s "
        f"JOIN boards b ON b.id = s.board_id {where} ORDER BY b.spec, s.canonical",
        args,
    )
    for board, multiset, canonical, orbit, automorphisms in solutions:
        yield {
            "board": board,
            "multiset": multiset,
            "labelling": json.loads(canonical),
            "orbit_size": int(orbit),
            "automorphisms": int(automorphisms),
        }
    puzzles = db.execute(
        f"SELECT b.spec, b.multiset, {', '.join('p.' + f for f in PUZZLE_FIELDS)} FROM puzzles p "
        f"JOIN boards b ON b.id = p.board_id {where} ORDER BY b.spec, p.clues",
        args,
    )
    for board, multiset, solution, clues, count, critical, orbit, fair, rating, score in puzzles:
        yield {
            "board": board,
            "multiset": multiset,
            "puzzle": json.loads(clues),
            "solution": json.loads(solution),
            "clue_count": count,
            "critical": bool(critical),
            "orbit_size": int(orbit),
            "fair": bool(fair),
            "rating": rating,
            "score": score,
        }


IPUZ_SUDOKU = "http://ipuz.org/sudoku#1"


def to_ipuz(record: dict, board: Board) -> dict:
    """An exported record of a square grid as an ipuz Sudoku document (a stored solution is a puzzle whose
    every cell is given).  Empty cells hold 0 when the labels are numbers, else "."."""
    if board.shape is None:
        raise CatalogError(f"{record['board']} is not a square grid: ipuz holds grids only")
    rows, cols = board.shape
    solution = record.get("solution", record.get("labelling"))
    given = record.get("puzzle", solution)
    labels = sorted({str(x) for x in solution})
    empty = 0 if all(isinstance(x, int) and x != 0 for x in solution) else "."

    def grid(values: list) -> list[list]:
        return [[empty if v is None else v for v in values[r * cols : (r + 1) * cols]] for r in range(rows)]

    out = {
        "version": "http://ipuz.org/v2",
        "kind": [IPUZ_SUDOKU],
        "dimensions": {"width": cols, "height": rows},
        "empty": empty,
        "puzzle": grid(given),
        "solution": grid(solution),
        "org.dlx-latin:board": record["board"],
        "org.dlx-latin:multiset": record["multiset"],
        "org.dlx-latin:orbit_size": record["orbit_size"],
    }
    if all(len(x) == 1 for x in labels):
        out["charset"] = "".join(labels)
    spec = record["board"]
    if spec.startswith("sudoku:") and rows == cols and int(rows**0.5) ** 2 == rows:
        out["boxes"] = spec == f"sudoku:{int(rows**0.5)}x{int(rows**0.5)}"
    if record.get("fair"):
        out["difficulty"] = record["rating"]
    return out


def _row(db: sqlite3.Connection, board: int, record: dict) -> tuple[str, tuple]:
    """The table and row an exported record goes back to."""
    if "puzzle" in record:
        values = (
            _compact(record["solution"]),
            _compact(record["puzzle"]),
            int(record["clue_count"]),
            int(record["critical"]),
            str(record["orbit_size"]),
            int(record["fair"]),
            record["rating"],
            int(record["score"]),
        )
        labelling = record["puzzle"]
        table = "puzzles"
    else:
        labelling = record["labelling"]
        values = (_compact(labelling), str(record["orbit_size"]), str(record["automorphisms"]))
        table = "solutions"
    if len(labelling) != db.execute("SELECT points FROM boards WHERE id=?", (board,)).fetchone()[0]:
        raise ValueError("the labelling does not have one label per point of the board")
    return table, (board, *values)


def import_lines(db: sqlite3.Connection, lines: Iterable[str]) -> int:
    """Add the solutions and puzzles of exported JSON lines (all in one transaction); the new rows."""
    boards: dict[tuple[str, str], int] = {}
    added = 0
    db.execute("BEGIN")
    try:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                key = (record["board"], record["multiset"])
                if key not in boards:
                    board = board_from_spec(key[0])
                    boards[key] = board_id(db, *key, board.n_points, [list(a) for a in board.asterisms])
                table, row = _row(db, boards[key], record)
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as err:
                raise CatalogError(f"line {number} is not an exported solution or puzzle: {err}") from None
            marks = ", ".join("?" * len(row))
            added += db.execute(f"INSERT OR IGNORE INTO {table} VALUES ({marks})", row).rowcount
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return added
