"""A collection of puzzles (one grid string per line, as `solve --batch` reads) taken into a catalog.

Each line's uniqueness comes from the board's PuzzleBatch; each Latin puzzle is stored once per symmetry
class, in canonical form with its canonical completion and `check`'s verdicts (critical, fair, rating,
score), and the table `collected` counts how many lines of the collections imported so far fell in each
class.  Lines that are not puzzles of the board, or whose puzzle has no or several solutions, are reported
by number and not stored.  One import is one transaction: interrupted, it leaves the catalog as it was.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from catalog.build import board_row, canonizer, encode
from catalog.store import COLLECTED
from dlx_latin.boards import Board
from dlx_latin.latin import PartialBoard
from dlx_latin.latin.batch import BadLine, answer_chunk, batch_for, chunked, puzzle_lines
from dlx_latin.latin.multiset import Multiset
from dlx_latin.workers import ordered_map

FORMS_CHUNK = 256  # lines per task: canonical forms cost milliseconds each, so tasks stay short


@dataclass
class Imported:
    """What an import found: puzzle lines read, Latin puzzles among them, their classes, the classes new
    to the catalog, and the rejected lines (line number, why)."""

    lines: int = 0
    puzzles: int = 0
    classes: int = 0
    added: int = 0
    rejected: list[BadLine] = field(default_factory=list)

    @property
    def duplicates(self) -> int:
        """Puzzles merged into a class another line of this import already gave."""
        return self.puzzles - self.classes


def _forms(board: Board, multiset: Multiset, chunk: list[tuple[int, str]]) -> list[tuple]:
    """Per numbered line: a BadLine, or (canonical clues, canonical completion, orbit size, clue count)
    (a worker's task)."""
    canon = canonizer(board, multiset)
    out: list[tuple] = []
    for line, answer in answer_chunk(batch_for(board, multiset), chunk, 2):
        if isinstance(answer, BadLine):
            out.append((answer,))
        elif answer.solutions != 1:
            why = "has no solution" if answer.solutions == 0 else "has several solutions"
            out.append((BadLine(line, f"the puzzle {why}: not a Latin puzzle"),))
        else:
            grid = [answer.clues.get(p) for p in range(board.n_points)]
            form, completion = canon.form_carrying(grid, answer.solution)
            out.append((encode(form.labelling), encode(completion), form.orbit_size, len(answer.clues)))
    return out


def _facts(board: Board, multiset: Multiset, clues: list[str]) -> list[tuple[int, bool, str | None, int]]:
    """(critical, fair, rating, score) of canonical puzzles (a worker's task)."""
    import json

    from dlx_latin.puzzles.proof import explain

    batch = batch_for(board, multiset)
    out = []
    for text in clues:
        given = {p: x for p, x in enumerate(json.loads(text)) if x is not None}
        proof = explain(PartialBoard(board, multiset, given))
        out.append((int(batch.is_critical(given)), int(proof.fair), proof.rating, proof.score))
    return out


def import_grids(
    db,
    pb: PartialBoard,
    spec: str,
    lines: Iterable[str],
    jobs: int = 1,
    progress: Callable[[int], object] | None = None,
) -> Imported:
    """Store the Latin puzzles of a collection's lines (blank lines and '#' comments skipped) on `pb`'s
    board, one row per symmetry class, in one transaction; `progress(lines done)` after each chunk."""
    found = Imported()
    classes: dict[str, list] = {}  # canonical clues -> [completion, orbit size, clue count, lines]
    tasks = ((pb.board, pb.multiset, chunk) for chunk in chunked(puzzle_lines(lines), FORMS_CHUNK))
    for rows in ordered_map(_forms, tasks, jobs):
        found.lines += len(rows)
        for row in rows:
            if isinstance(row[0], BadLine):
                found.rejected.append(row[0])
                continue
            found.puzzles += 1
            clues, completion, orbit, count = row
            if clues in classes:
                classes[clues][3] += 1
            else:
                classes[clues] = [completion, orbit, count, 1]
        if progress is not None:
            progress(found.lines)
    found.classes = len(classes)
    board = board_row(db, pb, spec)
    db.execute(COLLECTED)
    stored = {
        row[0]
        for row in db.execute("SELECT clues FROM puzzles WHERE board_id = ?", (board,))
        if row[0] in classes
    }
    new = [clues for clues in classes if clues not in stored]
    tasks = ((pb.board, pb.multiset, part) for part in chunked(new, 64))
    facts = itertools.chain.from_iterable(ordered_map(_facts, tasks, jobs))
    db.execute("BEGIN")
    try:
        for clues, (critical, fair, rating, score) in zip(new, facts, strict=True):
            completion, orbit, count, _ = classes[clues]
            db.execute(
                "INSERT INTO puzzles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (board, completion, clues, count, critical, str(orbit), fair, rating, score),
            )
            found.added += 1
        db.executemany(
            "INSERT INTO collected VALUES (?, ?, ?) "
            "ON CONFLICT (board_id, clues) DO UPDATE SET lines = lines + excluded.lines",
            ((board, clues, entry[3]) for clues, entry in classes.items()),
        )
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return found
