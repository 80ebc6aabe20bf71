"""Building a catalog of canonical solutions, resumably.

The Latin boards of an empty board are the completions of the symmetry leaves; each class of boards under
the board's automorphisms and relabelling meets them, so the nauty canonical forms of the leaves'
completions are exactly the classes (as in `symmetry.counting`).  The leaves are the run's parts: each part
is listed and written in one transaction, then marked done.  At the end the orbit sizes must add up to the
plain count, which is stored as the run's total.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from catalog.store import board_id
from dlx_latin.latin import PartialBoard, completions, count_completions
from symmetry.counting import MAX_BOARDS, SymmetryTooLargeError
from symmetry.nauty_form import NautyCanonizer
from symmetry.pruned import count_by_orbits, leaves

KILL_PART = "DLX_LATIN_CATALOG_KILL_PART"  # tests: SIGKILL this process inside that part's transaction


@dataclass(frozen=True)
class Built:
    """What a build left in the catalog: classes, the sum of their orbit sizes, parts done this time."""

    classes: int
    total: int
    parts: int
    parts_run: int


def _encode(labelling) -> str:
    return json.dumps(list(labelling), separators=(",", ":"))


def _new_run(db: sqlite3.Connection, board: int, kind: str, parts: list[tuple[str, str]]) -> tuple[int, int]:
    """Record a run and its parts (what to do, weight) in one transaction."""
    db.execute("BEGIN")
    cursor = db.execute(
        "INSERT INTO runs (board_id, kind, parts, status) VALUES (?, ?, ?, 'running')",
        (board, kind, len(parts)),
    )
    run = int(cursor.lastrowid)
    db.executemany(
        "INSERT INTO run_parts (run_id, part, clues, weight) VALUES (?, ?, ?, ?)",
        [(run, k, what, weight) for k, (what, weight) in enumerate(parts)],
    )
    db.execute("COMMIT")
    return run, len(parts)


def _existing_run(db: sqlite3.Connection, board: int, kind: str) -> tuple[int, int] | None:
    row = db.execute("SELECT id, parts FROM runs WHERE board_id=? AND kind=?", (board, kind)).fetchone()
    return None if row is None else (row[0], row[1])


def _run(db: sqlite3.Connection, board: int, pb: PartialBoard, max_boards: int) -> tuple[int, int]:
    """(run id, number of parts) of the board's solutions run, made with its parts if new."""
    existing = _existing_run(db, board, "solutions")
    if existing is not None:
        return existing
    parts = leaves(pb)
    listed = 0
    for leaf in parts:
        listed += count_completions(leaf.partial, max_boards + 1 - listed)
        if listed > max_boards:
            raise SymmetryTooLargeError(
                f"{pb.board.name} needs more than {max_boards} Latin boards listed for its catalog of "
                "solutions; raise --max-boards to build it anyway"
            )
    db.execute("BEGIN")
    cursor = db.execute(
        "INSERT INTO runs (board_id, kind, parts, status) VALUES (?, 'solutions', ?, 'running')",
        (board, len(parts)),
    )
    run = int(cursor.lastrowid)
    db.executemany(
        "INSERT INTO run_parts (run_id, part, clues, weight) VALUES (?, ?, ?, ?)",
        [
            (run, k, json.dumps(sorted(leaf.partial.clues.items())), str(leaf.weight))
            for k, leaf in enumerate(parts)
        ],
    )
    db.execute("COMMIT")
    return run, len(parts)


def build_solutions(
    db: sqlite3.Connection,
    pb: PartialBoard,
    spec: str,
    max_boards: int = MAX_BOARDS,
    progress: Callable[[int, int], object] | None = None,
) -> Built:
    """Add one canonical solution per class of `pb`'s Latin boards to the catalog, resuming a killed build;
    `progress(parts done, parts)` after each part."""
    if pb.clues:
        raise SymmetryTooLargeError("a catalog of solutions needs an empty board: clues break the symmetry")
    board = board_id(db, spec, str(pb.multiset), pb.board.n_points, [list(a) for a in pb.board.asterisms])
    run, parts = _run(db, board, pb, max_boards)
    todo = db.execute(
        "SELECT part, clues FROM run_parts WHERE run_id=? AND done=0 ORDER BY part", (run,)
    ).fetchall()
    canon = NautyCanonizer(pb.board, pb.multiset)
    kill = int(os.environ.get(KILL_PART, -1))
    for step, (part, clues) in enumerate(todo):
        leaf = PartialBoard(pb.board, pb.multiset, {int(p): v for p, v in json.loads(clues)})
        forms = {}
        for labelling in completions(leaf):
            form = canon.form(labelling)
            forms[form.labelling] = form
        db.execute("BEGIN")
        db.executemany(
            "INSERT OR IGNORE INTO solutions VALUES (?, ?, ?, ?)",
            [
                (board, _encode(f.labelling), str(f.orbit_size), str(f.stabilizer_order))
                for f in forms.values()
            ],
        )
        if part == kill:
            os.kill(os.getpid(), signal.SIGKILL)
        db.execute("UPDATE run_parts SET done=1 WHERE run_id=? AND part=?", (run, part))
        db.execute("COMMIT")
        if progress is not None:
            progress(parts - len(todo) + step + 1, parts)
    classes, total = db.execute(
        "SELECT count(*), coalesce(sum(CAST(orbit_size AS INTEGER)), 0) FROM solutions WHERE board_id=?",
        (board,),
    ).fetchone()
    expected = count_by_orbits(pb)
    if total != expected:
        raise AssertionError(f"the catalog's orbit sizes add up to {total}, not to the count {expected}")
    db.execute("UPDATE runs SET status='done', total=? WHERE id=?", (str(expected), run))
    return Built(classes, expected, parts, len(todo))


def build_critical_puzzles(
    db: sqlite3.Connection, pb: PartialBoard, spec: str, progress: Callable[[int, int], object] | None = None
) -> Built:
    """Add every critical puzzle of a small board, one per symmetry class, after its solutions (built first
    if needed); one part per canonical solution, resumable like `build_solutions`.  `Built.total` is the sum
    of the puzzles' orbit sizes: all critical puzzles of the board."""
    from catalog.puzzles import all_boards, critical_masks

    boards = all_boards(pb)
    build_solutions(db, pb, spec)
    board = board_id(db, spec, str(pb.multiset), pb.board.n_points, [list(a) for a in pb.board.asterisms])
    existing = _existing_run(db, board, "critical-puzzles")
    if existing is None:
        solutions = db.execute(
            "SELECT canonical FROM solutions WHERE board_id=? ORDER BY canonical", (board,)
        )
        existing = _new_run(db, board, "critical-puzzles", [(row[0], "1") for row in solutions])
    run, parts = existing
    todo = db.execute(
        "SELECT part, clues FROM run_parts WHERE run_id=? AND done=0 ORDER BY part", (run,)
    ).fetchall()
    canon = NautyCanonizer(pb.board, pb.multiset)
    kill = int(os.environ.get(KILL_PART, -1))
    n = pb.board.n_points
    for step, (part, solution_text) in enumerate(todo):
        solution = tuple(json.loads(solution_text))
        forms = {}
        for mask in critical_masks(solution, boards).tolist():
            form = canon.form([solution[p] if mask >> p & 1 else None for p in range(n)])
            forms[form.labelling] = form
        rows = []
        for f in forms.values():  # the canonical puzzle's own completion: S moved the way the puzzle was
            clues = {p: x for p, x in enumerate(f.labelling) if x is not None}
            (completion,) = completions(PartialBoard(pb.board, pb.multiset, clues), limit=2)
            rows.append((board, _encode(completion), _encode(f.labelling), len(clues), str(f.orbit_size)))
        db.execute("BEGIN")
        db.executemany("INSERT OR IGNORE INTO puzzles VALUES (?, ?, ?, ?, 1, ?)", rows)
        if part == kill:
            os.kill(os.getpid(), signal.SIGKILL)
        db.execute("UPDATE run_parts SET done=1 WHERE run_id=? AND part=?", (run, part))
        db.execute("COMMIT")
        if progress is not None:
            progress(parts - len(todo) + step + 1, parts)
    classes, total = db.execute(
        "SELECT count(*), coalesce(sum(CAST(orbit_size AS INTEGER)), 0) FROM puzzles WHERE board_id=?",
        (board,),
    ).fetchone()
    db.execute("UPDATE runs SET status='done', total=? WHERE id=?", (str(total), run))
    return Built(classes, total, parts, len(todo))
