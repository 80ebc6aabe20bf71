"""The catalog file: one SQLite database (WAL) of boards, canonical solutions, puzzles and build runs.

A build is split into parts (the symmetry leaves of `symmetry.pruned.leaves`, stored with the run so a
resumed build uses the very same parts); each part's rows and the mark that the part is done are written
in one transaction, so a build killed at any moment (SIGKILL
included) loses at most the part in progress, and running it again does only the parts not marked.
Canonical forms are primary keys, so nothing is stored twice.  Imported collections of puzzles add, per
puzzle class, how many of their lines fell in it (table `collected`).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from dlx_latin.errors import UserInputError

SCHEMA_VERSION = 1
DEFAULT_PATH = "catalog.sqlite"
OPEN_WAIT = 30.0  # seconds to retry opening a catalog that another process holds locked

# Lines of imported collections per puzzle class (`catalog import BOARD --grid`); made on first use, so
# catalogs made before it need no new schema version.
COLLECTED = """CREATE TABLE IF NOT EXISTS collected (
    board_id INTEGER NOT NULL REFERENCES boards(id),
    clues TEXT NOT NULL,
    lines INTEGER NOT NULL,
    PRIMARY KEY (board_id, clues)
)"""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS boards (
    id INTEGER PRIMARY KEY,
    spec TEXT NOT NULL,
    multiset TEXT NOT NULL,
    points INTEGER NOT NULL,
    asterisms INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    UNIQUE (spec, multiset)
);
CREATE TABLE IF NOT EXISTS solutions (
    board_id INTEGER NOT NULL REFERENCES boards(id),
    canonical TEXT NOT NULL,
    orbit_size TEXT NOT NULL,
    automorphisms TEXT NOT NULL,
    PRIMARY KEY (board_id, canonical)
);
CREATE TABLE IF NOT EXISTS puzzles (
    board_id INTEGER NOT NULL REFERENCES boards(id),
    solution TEXT NOT NULL,
    clues TEXT NOT NULL,
    clue_count INTEGER NOT NULL,
    critical INTEGER NOT NULL,
    orbit_size TEXT NOT NULL,
    fair INTEGER NOT NULL,
    rating TEXT,
    score INTEGER NOT NULL,
    PRIMARY KEY (board_id, clues)
);
CREATE INDEX IF NOT EXISTS puzzles_by_count ON puzzles (board_id, clue_count);
CREATE INDEX IF NOT EXISTS puzzles_by_rating ON puzzles (board_id, rating);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    board_id INTEGER NOT NULL REFERENCES boards(id),
    kind TEXT NOT NULL,
    parts INTEGER NOT NULL,
    total TEXT,
    status TEXT NOT NULL,
    UNIQUE (board_id, kind)
);
CREATE TABLE IF NOT EXISTS run_parts (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    part INTEGER NOT NULL,
    clues TEXT NOT NULL,
    weight TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, part)
);
"""


class CatalogError(UserInputError):
    """A catalog file that cannot be used (another schema version, not a catalog, unreadable)."""


class ExactSum:
    """SQL aggregate `exact_sum(text)`: the exact sum of integers stored as text, as text ('0' for no rows).
    SQLite's own sum stops at 2^63, and orbit sizes of Latin hexagons reach 10^25."""

    def __init__(self) -> None:
        self.total = 0

    def step(self, value: str | None) -> None:
        if value is not None:
            self.total += int(value)

    def finalize(self) -> str:
        return str(self.total)


def known_count(board: str) -> str:
    """SQL selecting the exact count of a board's Latin boards when the catalog knows it (an exhaustive
    build's total or `catalog certify`'s count); `board` is a parameter or column holding the board's id."""
    return (
        f"SELECT q.total FROM runs q WHERE q.board_id = {board} AND q.kind IN ('count', 'solutions') "
        "AND q.status = 'done'"
    )


def open_catalog(
    path: str | Path = DEFAULT_PATH, create: bool = True, read_only: bool = False
) -> sqlite3.Connection:
    """The catalog at `path`, made if missing (when `create`), its schema version checked.  With `read_only`
    it is opened for reading alone (a catalog on a read-only disk, or another user's, can still be read)."""
    path = Path(path)
    if (read_only or not create) and not path.exists():
        raise CatalogError(f"no catalog at {path}")
    deadline = time.monotonic() + OPEN_WAIT
    while True:
        db = None
        try:
            db = _connect(path, read_only)
            if not read_only:
                _create_schema(db, path)
            version = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            break
        except sqlite3.OperationalError as err:
            # SQLite reports "locked" without waiting when a new file is switching to WAL in another
            # process (its busy handler is not called there): open again shortly
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise CatalogError(f"{path} is not a usable catalog: {err}") from None
            if db is not None:
                db.close()
            time.sleep(0.1)
        except sqlite3.DatabaseError as err:
            raise CatalogError(f"{path} is not a usable catalog: {err}") from None
    if version is None or not str(version[0]).isdecimal() or int(version[0]) != SCHEMA_VERSION:
        found = "none" if version is None else version[0]
        raise CatalogError(
            f"{path} has catalog schema version {found}; this dlx-latin reads version {SCHEMA_VERSION}"
        )
    _current_ratings(db, path, read_only)
    return db


def _current_ratings(db: sqlite3.Connection, path: Path, read_only: bool) -> None:
    """Puzzles rated under older attrition rules (`proof.RULES_VERSION`; no mark: version 1) are rated
    again, in one transaction, before anything reads them (a catalog opened read-only is opened for writing
    for that); a catalog that cannot be written is refused rather than read with stale ratings."""
    from dlx_latin.puzzles.proof import RULES_VERSION

    def current(db: sqlite3.Connection) -> bool:
        row = db.execute("SELECT value FROM meta WHERE key='rating_rules'").fetchone()
        return row is not None and row[0] == str(RULES_VERSION)

    if current(db) or (read_only and db.execute("SELECT 1 FROM puzzles LIMIT 1").fetchone() is None):
        return
    writer = None
    try:
        writer = _connect(path, False) if read_only else db
        writer.execute("BEGIN IMMEDIATE")
        try:
            if not current(writer):  # another process may have rated them meanwhile
                rerate(writer)
                writer.execute(
                    "INSERT OR REPLACE INTO meta VALUES ('rating_rules', ?)", (str(RULES_VERSION),)
                )
            writer.execute("COMMIT")
        except BaseException:
            writer.execute("ROLLBACK")
            raise
    except sqlite3.OperationalError as err:
        raise CatalogError(
            f"{path} holds puzzles rated by older attrition rules and cannot be written to rate them again "
            f"({err})"
        ) from None
    except (ValueError, TypeError, KeyError, IndexError) as err:
        raise CatalogError(f"{path} holds a puzzle no build writes ({err}): it is damaged") from None
    finally:
        if writer is not None and writer is not db:
            writer.close()


def rerate(db: sqlite3.Connection) -> None:
    """Rate every stored puzzle again by `proof.verdict` (inside the caller's transaction).  The
    board is rebuilt from its stored asterisms: a rating depends on the structure alone."""
    from dlx_latin.boards import Board
    from dlx_latin.latin import Multiset, PartialBoard
    from dlx_latin.puzzles.proof import verdict

    boards = db.execute("SELECT id, multiset, points, fingerprint FROM boards").fetchall()
    for row, multiset, points, fingerprint in boards:
        board = Board("catalog", points, json.loads(fingerprint))
        m = Multiset.parse(multiset)
        puzzles = db.execute("SELECT clues FROM puzzles WHERE board_id=?", (row,)).fetchall()
        for (clues,) in puzzles:
            labelling = json.loads(clues)
            pb = PartialBoard(board, m, {p: x for p, x in enumerate(labelling) if x is not None})
            v = verdict(pb)
            db.execute(
                "UPDATE puzzles SET fair=?, rating=?, score=? WHERE board_id=? AND clues=?",
                (int(v.fair), v.rating, v.score, row, clues),
            )


def _connect(path: Path, read_only: bool) -> sqlite3.Connection:
    """A connection with explicit transactions and the exact_sum aggregate; WAL unless read-only."""
    if read_only:
        uri = f"file:{quote(str(path.resolve()))}?mode=ro"
        db = sqlite3.connect(uri, uri=True, isolation_level=None)
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError:  # WAL on a read-only disk: read the file as it stands
            db.close()
            db = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
    else:
        db = sqlite3.connect(path, isolation_level=None, timeout=30)  # transactions are explicit
        db.execute("PRAGMA journal_mode=WAL")
    db.create_aggregate("exact_sum", 1, ExactSum)
    db.execute("PRAGMA foreign_keys=ON")
    return db


def _create_schema(db: sqlite3.Connection, path: Path) -> None:
    """Make the tables of a new catalog, holding the write lock, so that of two processes creating one
    catalog at once the second waits and then finds it made."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone():
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        if db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone() is None:
            if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise CatalogError(f"{path} is an SQLite file but not a dlx-latin catalog")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def board_id(db: sqlite3.Connection, spec: str, multiset: str, points: int, asterisms: list) -> int:
    """The row of a board (added if new); the fingerprint is its sorted asterisms, to tell boards apart."""
    fingerprint = json.dumps(sorted(sorted(a) for a in asterisms))
    row = db.execute(
        "SELECT id, fingerprint FROM boards WHERE spec=? AND multiset=?", (spec, multiset)
    ).fetchone()
    if row is not None:
        if row[1] != fingerprint:
            raise CatalogError(f"the catalog's board {spec} has other asterisms than this one")
        return row[0]
    db.execute(  # OR IGNORE: another process may add the same board at the same moment
        "INSERT OR IGNORE INTO boards (spec, multiset, points, asterisms, fingerprint) "
        "VALUES (?, ?, ?, ?, ?)",
        (spec, multiset, points, len(asterisms), fingerprint),
    )
    return board_id(db, spec, multiset, points, asterisms)


SAMPLE_BATCH = 100  # random Latin boards per part of a sampled run (`catalog.build.add_samples`)


def holding(db: sqlite3.Connection, spec: str, multiset: str) -> dict:
    """What the catalog holds for a board: solution classes, the sum of their orbit sizes, puzzle classes."""
    classes, total, puzzles = db.execute(
        "SELECT (SELECT count(*) FROM solutions s WHERE s.board_id = b.id), "
        "(SELECT exact_sum(s.orbit_size) FROM solutions s WHERE s.board_id = b.id), "
        "(SELECT count(*) FROM puzzles z WHERE z.board_id = b.id) "
        "FROM boards b WHERE b.spec = ? AND b.multiset = ?",
        (spec, multiset),
    ).fetchone() or (0, 0, 0)
    return {"classes": classes, "total": int(total or 0), "puzzle_classes": puzzles}


def board_stats(db: sqlite3.Connection) -> Iterator[dict]:
    """Per board, by spec: solution classes, the sum of their orbit sizes, the build's status and parts,
    puzzle classes, random boards sampled, the count when known (an exhaustive build, or `certify`) and
    whether the classes hold it all."""
    rows = db.execute(
        "SELECT b.spec, b.multiset, count(s.canonical), exact_sum(s.orbit_size), "
        "coalesce(r.status, 'none'), coalesce(r.parts, 0), "
        "(SELECT count(*) FROM run_parts p WHERE p.run_id = r.id AND p.done = 1), "
        "(SELECT count(*) FROM puzzles z WHERE z.board_id = b.id), "
        "(SELECT count(*) FROM runs q JOIN run_parts p ON p.run_id = q.id "
        " WHERE q.board_id = b.id AND q.kind = 'sampled' AND p.done = 1), "
        f"({known_count('b.id')}) "
        "FROM boards b LEFT JOIN solutions s ON s.board_id = b.id "
        "LEFT JOIN runs r ON r.board_id = b.id AND r.kind = 'solutions' GROUP BY b.id ORDER BY b.spec"
    ).fetchall()
    for spec, m, classes, total, status, parts, done, puzzles, sampled, count in rows:
        count = None if count is None else int(count)
        yield {
            "board": spec,
            "multiset": m,
            "classes": classes,
            "total": int(total),
            "status": status,
            "parts": parts,
            "parts_done": done,
            "puzzle_classes": puzzles,
            "sampled_boards": sampled * SAMPLE_BATCH,
            "count": count,
            "complete": None if count is None else int(total) == count,
        }


def _board(db: sqlite3.Connection, spec: str) -> int:
    found = db.execute("SELECT id FROM boards WHERE spec = ?", (spec,)).fetchone()
    if found is None:
        raise CatalogError(f"the catalog has no board {spec}")
    return found[0]


def stored_solutions(db: sqlite3.Connection, spec: str, limit: int | None = None) -> Iterator[dict]:
    """The canonical solutions of a board (labelling in point order, orbit size, automorphisms), largest
    orbits first."""
    rows = db.execute(
        "SELECT canonical, orbit_size, automorphisms FROM solutions WHERE board_id = ? "
        "ORDER BY CAST(orbit_size AS REAL) DESC, canonical LIMIT ?",
        (_board(db, spec), limit if limit else -1),
    ).fetchall()
    for canonical, orbit, automorphisms in rows:
        yield {
            "labelling": json.loads(canonical),
            "orbit_size": int(orbit),
            "automorphisms": int(automorphisms),
        }


def stored_puzzles(
    db: sqlite3.Connection,
    spec: str,
    *,
    clue_count: int | None = None,
    minimal: bool = False,
    fair: bool | None = None,
    rating: str | None = None,
    limit: int | None = None,
) -> Iterator[dict]:
    """The puzzles of a board that match (clues, solution, clue count, orbit size, critical, minimal, fair,
    rating, score, and the lines of imported collections that fell in the class), fewest clues first."""
    board = _board(db, spec)
    fewest = db.execute("SELECT min(clue_count) FROM puzzles WHERE board_id = ?", (board,)).fetchone()[0]
    where, args = "board_id = ?", [board]
    for column, value in (
        ("clue_count", clue_count),
        ("clue_count", fewest if minimal else None),
        ("fair", None if fair is None else int(fair)),
        ("rating", rating),
    ):
        if value is not None:
            where, args = f"{where} AND {column} = ?", [*args, value]
    collected = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'collected'").fetchone()
    lines = (
        "(SELECT c.lines FROM collected c WHERE c.board_id = puzzles.board_id AND c.clues = puzzles.clues)"
        if collected
        else "NULL"
    )
    rows = db.execute(
        f"SELECT clues, solution, clue_count, orbit_size, critical, fair, rating, score, {lines} "
        f"FROM puzzles WHERE {where} ORDER BY clue_count, clues LIMIT ?",
        (*args, limit if limit else -1),
    ).fetchall()
    for clues, solution, count, orbit, critical, is_fair, level, score, seen in rows:
        record = {"clues": json.loads(clues), "solution": json.loads(solution), "clue_count": count}
        record.update(orbit_size=int(orbit), critical=bool(critical), minimal=count == fewest)
        record.update(fair=bool(is_fair), rating=level, score=score, lines=seen or 0)
        yield record
