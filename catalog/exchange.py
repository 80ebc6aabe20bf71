"""Catalog export and import as JSON lines, one canonical solution or puzzle per line; importing an export
gives back the same catalog rows.  Boards are rebuilt from their specs (built-in specs only: a catalog file
never makes the tool open another file) and checked against the stored fingerprint; every record is checked
before it is stored -- a Latin board of that board and multiset, in canonical form, with the orbit size,
automorphisms, uniqueness, criticality and rating it claims.  Puzzles and solutions of square grids also
export as ipuz (the open puzzle format's Sudoku kind), one ipuz document per line, with the board and
multiset in namespaced fields."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator

from catalog.build import canonizer
from catalog.store import CatalogError, board_id
from dlx_latin.boards import Board, board_from_spec
from dlx_latin.formats.ipuz import BOARD_FIELD, KIND, MULTISET_FIELD, ORBIT_SIZE_FIELD
from dlx_latin.latin import Multiset, PartialBoard
from dlx_latin.latin.batch import batch_for, is_critical

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
        "kind": [KIND],
        "dimensions": {"width": cols, "height": rows},
        "empty": empty,
        "puzzle": grid(given),
        "solution": grid(solution),
        BOARD_FIELD: record["board"],
        MULTISET_FIELD: Multiset.parse(record["multiset"]).as_list(),
        ORBIT_SIZE_FIELD: record["orbit_size"],
    }
    if all(len(x) == 1 for x in labels):
        out["charset"] = "".join(labels)
    spec = record["board"]
    if spec.startswith("sudoku:") and rows == cols and int(rows**0.5) ** 2 == rows:
        out["boxes"] = spec == f"sudoku:{int(rows**0.5)}x{int(rows**0.5)}"
    if record.get("fair"):
        out["difficulty"] = record["rating"]
    return out


def _row(record: dict, pb: PartialBoard) -> tuple[str, tuple]:
    """The table and values an exported record goes back to, after checking every fact it claims."""
    if "puzzle" in record:
        facts = _checked_puzzle(record, pb)
        values = (_compact(record["solution"]), _compact(record["puzzle"]), *facts)
        return "puzzles", values
    labelling = _labels(record["labelling"], pb, "labelling")
    full = PartialBoard(pb.board, pb.multiset, dict(enumerate(labelling)))
    _claim(not full.overfull(), "the labelling is not a Latin board of this board and multiset")
    form = canonizer(pb.board, pb.multiset).form(labelling)
    _claim(form.labelling == tuple(labelling), "the labelling is not in canonical form")
    _claim_orbit(record, form.orbit_size)
    _claim(
        record["automorphisms"] == form.stabilizer_order,
        f"it has {form.stabilizer_order} automorphisms, not {record['automorphisms']}",
    )
    return "solutions", (_compact(labelling), str(form.orbit_size), str(form.stabilizer_order))


def _checked_puzzle(record: dict, pb: PartialBoard) -> tuple:
    """The stored facts of an exported puzzle (clue count, critical, orbit size, fair, rating, score),
    each recomputed and compared with what the record claims."""
    from dlx_latin.puzzles.proof import explain

    grid = _labels(record["puzzle"], pb, "puzzle", empty=True)
    solution = _labels(record["solution"], pb, "solution")
    clues = {p: x for p, x in enumerate(grid) if x is not None}
    puzzle = PartialBoard(pb.board, pb.multiset, clues)
    _claim(all(solution[p] == x for p, x in clues.items()), "its clues disagree with its solution")
    found = batch_for(pb.board, pb.multiset).completions(clues, limit=2)
    _claim(found == [list(solution)], "it is not a Latin puzzle with that solution")
    _claim(record["clue_count"] == len(clues), f"it has {len(clues)} clues, not {record['clue_count']}")
    _claim(record["critical"] is is_critical(puzzle), f"'critical' is {not record['critical']}")
    form = canonizer(pb.board, pb.multiset).form(grid)
    _claim(form.labelling == tuple(grid), "the puzzle is not in canonical form")
    _claim_orbit(record, form.orbit_size)
    proof = explain(puzzle)
    claimed = (record["fair"], record["rating"], record["score"])
    _claim(claimed == (proof.fair, proof.rating, proof.score), "its fair, rating or score is not what it is")
    return (
        len(clues),
        int(record["critical"]),
        str(form.orbit_size),
        int(proof.fair),
        proof.rating,
        proof.score,
    )


def _labels(values: object, pb: PartialBoard, what: str, empty: bool = False) -> list:
    """A record's labelling, checked: one label of the multiset (or None, if `empty`) per point."""
    if not isinstance(values, list) or len(values) != pb.board.n_points:
        raise ValueError(f"the {what} does not have one label per point of the board")
    for x in values:
        if not (x is None and empty) and (isinstance(x, bool) or x not in pb.multiset.count_of):
            raise ValueError(f"the {what} holds {x!r}, not a label of the multiset {pb.multiset}")
    return values


def _claim_orbit(record: dict, orbit_size: int) -> None:
    _claim(record["orbit_size"] == orbit_size, f"its orbit size is {orbit_size}, not {record['orbit_size']}")


def _claim(holds: bool, otherwise: str) -> None:
    """Refuse a record that claims what is not so."""
    if not holds:
        raise ValueError(otherwise)


def import_lines(db: sqlite3.Connection, lines: Iterable[str]) -> int:
    """Add the solutions and puzzles of exported JSON lines (all in one transaction); the new rows."""
    boards: dict[tuple[str, str], tuple[int, PartialBoard]] = {}
    added = 0
    db.execute("BEGIN")
    try:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                if not isinstance(record, dict):
                    raise TypeError("a record is a JSON object")
                key = (record["board"], record["multiset"])
                if not all(isinstance(k, str) for k in key):
                    raise TypeError("board and multiset are strings")
                if key not in boards:
                    board = board_from_spec(key[0], files=False)
                    pb = PartialBoard(board, Multiset.parse(key[1]))
                    row = board_id(
                        db, key[0], str(pb.multiset), board.n_points, [list(a) for a in board.asterisms]
                    )
                    boards[key] = (row, pb)
                row, pb = boards[key]
                table, values = _row(record, pb)
            except (KeyError, TypeError, ValueError, RecursionError) as err:
                what = f"missing field {err}" if isinstance(err, KeyError) else str(err)
                raise CatalogError(f"line {number} is not an exported solution or puzzle: {what}") from None
            marks = ", ".join("?" * (len(values) + 1))
            added += db.execute(f"INSERT OR IGNORE INTO {table} VALUES ({marks})", (row, *values)).rowcount
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return added
