"""Catalog export and import as JSON lines, one canonical solution per line; importing an export gives back
the same catalog rows (boards are rebuilt from their specs and checked against the stored fingerprint)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator

from catalog.store import CatalogError, board_id
from dlx_latin.boards import board_from_spec


def export_lines(db: sqlite3.Connection, spec: str | None = None) -> Iterator[dict]:
    """Every stored solution (of one board if `spec`), as JSON-ready records in a fixed order."""
    query = (
        "SELECT b.spec, b.multiset, s.canonical, s.orbit_size, s.automorphisms FROM solutions s "
        "JOIN boards b ON b.id = s.board_id"
    )
    args: tuple = ()
    if spec is not None:
        query += " WHERE b.spec = ?"
        args = (spec,)
    for board, multiset, canonical, orbit, automorphisms in db.execute(
        query + " ORDER BY b.spec, s.canonical", args
    ):
        yield {
            "board": board,
            "multiset": multiset,
            "labelling": json.loads(canonical),
            "orbit_size": int(orbit),
            "automorphisms": int(automorphisms),
        }


def import_lines(db: sqlite3.Connection, lines: Iterable[str]) -> int:
    """Add the solutions of exported JSON lines (all in one transaction); the number of new rows."""
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
                labelling, orbit, automorphisms = (
                    record["labelling"],
                    record["orbit_size"],
                    record["automorphisms"],
                )
            except (json.JSONDecodeError, KeyError, TypeError) as err:
                raise CatalogError(f"line {number} is not an exported solution: {err}") from None
            if key not in boards:
                board = board_from_spec(key[0])
                boards[key] = board_id(db, key[0], key[1], board.n_points, [list(a) for a in board.asterisms])
            if (
                len(labelling)
                != db.execute("SELECT points FROM boards WHERE id=?", (boards[key],)).fetchone()[0]
            ):
                raise CatalogError(
                    f"line {number}: the labelling does not have one label per point of {key[0]}"
                )
            cursor = db.execute(
                "INSERT OR IGNORE INTO solutions VALUES (?, ?, ?, ?)",
                (boards[key], json.dumps(labelling, separators=(",", ":")), str(orbit), str(automorphisms)),
            )
            added += cursor.rowcount
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return added
