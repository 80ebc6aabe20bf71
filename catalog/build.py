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


def _run(db: sqlite3.Connection, board: int, pb: PartialBoard, max_boards: int) -> tuple[int, int]:
    """(run id, number of parts) of the board's solutions run, made with its parts if new."""
    row = db.execute("SELECT id, parts FROM runs WHERE board_id=? AND kind='solutions'", (board,)).fetchone()
    if row is not None:
        return row[0], row[1]
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
