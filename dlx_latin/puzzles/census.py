"""How many critical puzzles a board has, by number of clues, in all and up to symmetry, without storing
them: for boards with too many to catalog (6×6 Sudoku: about a million per grid).

Each canonical solution S (one per class of Latin boards, with its orbit size: `symmetry.all_classes`)
contributes its critical clue sets (`dlx_latin.puzzles.critical.LatinBoards`) times its orbit size to the
puzzles, and their orbits under S's own symmetries (`symmetry.nauty_form.point_automorphisms`) to the
classes: a puzzle determines its solution, so puzzles of different solutions are never equivalent.  The
classes and the automorphisms are given by the caller: symmetry sits above the puzzles.  Each finished
solution is appended to a checkpoint file as one JSON line, so a census that is interrupted (Ctrl-C, a
crash, SIGKILL) goes on from the solutions done when run again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Protocol

from dlx_latin.boards.board import Board
from dlx_latin.exact_cover.checkpoint import RecordLog, natural, read_records, unusable
from dlx_latin.latin import PartialBoard
from dlx_latin.latin.multiset import Label, Multiset
from dlx_latin.puzzles.critical import check_within_reach, latin_boards, orbit_representatives
from dlx_latin.workers import new_pool, stop


@dataclass
class Census:
    """Critical puzzles by number of clues: in all, and classes under the board's symmetries and
    relabelling."""

    puzzles: Counter[int] = field(default_factory=Counter)
    classes: Counter[int] = field(default_factory=Counter)
    solutions: int = 0  # classes of Latin boards (canonical solutions) counted

    def add(self, orbit_size: int, puzzles: dict[int, int], classes: dict[int, int]) -> None:
        for clues, n in puzzles.items():
            self.puzzles[clues] += orbit_size * n
        self.classes.update(classes)
        self.solutions += 1


Automorphisms = Callable[[Board, Multiset, Sequence[Label]], list[list[int]]]


class SolutionClass(Protocol):
    """A class of Latin boards: one of them (canonical) and the size of the class."""

    labelling: list[Label]
    orbit_size: int


def solution_census(
    board: Board, multiset: Multiset, automorphisms: Automorphisms, solution: tuple[Label, ...]
) -> tuple[dict, dict]:
    """(critical clue sets, their classes under the solution's own symmetries), each by number of clues, of
    one canonical solution (a worker's task)."""
    masks = latin_boards(board, multiset).critical_masks(solution)
    generators = automorphisms(board, multiset, solution)
    least = orbit_representatives(masks, generators)
    return dict(Counter(m.bit_count() for m in masks)), dict(Counter(m.bit_count() for m in least))


def census_key(pb: PartialBoard) -> str:
    """What a checkpoint line's census is of: the board's asterisms and multiset."""
    text = json.dumps([sorted(sorted(a) for a in pb.board.asterisms), str(pb.multiset)])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


_FIELDS = frozenset({"census", "solution", "orbit_size", "puzzles", "classes"})


def _valid(record: dict) -> bool:
    """Whether a census record holds a key, a solution, an orbit size (a decimal string) and counts of
    puzzles and classes by number of clues."""
    by_clues = [record["puzzles"], record["classes"]]
    return (
        isinstance(record["census"], str)
        and isinstance(record["solution"], list)
        and isinstance(record["orbit_size"], str)
        and record["orbit_size"].isdecimal()
        and all(isinstance(d, dict) for d in by_clues)
        and all(c.isdecimal() and natural(n) for d in by_clues for c, n in d.items())
    )


def _finished(path: Path, key: str) -> dict[str, tuple[int, dict, dict]]:
    """The solutions already counted in a checkpoint file: canonical solution (JSON) -> (orbit size,
    puzzles, classes)."""
    done: dict[str, tuple[int, dict, dict]] = {}
    for record in read_records(path, _FIELDS, _valid, "a census checkpoint"):
        if record["census"] == key:
            by_clues = ({int(c): n for c, n in record[k].items()} for k in ("puzzles", "classes"))
            done[json.dumps(record["solution"])] = (int(record["orbit_size"]), *by_clues)
    return done


def critical_census(
    pb: PartialBoard,
    classes: Iterable[SolutionClass],
    automorphisms: Automorphisms,
    checkpoint: str | os.PathLike | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], object] | None = None,
) -> Census:
    """Every critical puzzle of an empty board counted by number of clues, in all and up to symmetry
    (boards within `dlx_latin.puzzles.critical.check_within_reach`), from one Latin board per class of
    `classes` (read only after that check, so a lazy iterable costs nothing on a refused board) and the
    `automorphisms` of a Latin board (a picklable function, for `jobs` > 1).  With `checkpoint`, finished
    solutions are recorded there and skipped when the same census runs again; `jobs` processes share them."""
    check_within_reach(pb)  # a refusal comes before finding the classes of solutions
    forms = sorted(classes, key=lambda f: json.dumps(f.labelling))
    key, path = census_key(pb), None if checkpoint is None else Path(checkpoint)
    try:
        done = {} if path is None else _finished(path, key)
        log = None if path is None else RecordLog(path)
    except (OSError, UnicodeDecodeError) as e:
        raise unusable(checkpoint, e) from None
    census = Census()
    todo = []
    for form in forms:
        text = json.dumps(form.labelling)
        if text in done:
            census.add(*done[text])
        else:
            todo.append(form)
    task = partial(solution_census, pb.board, pb.multiset, automorphisms)
    pool = new_pool(jobs) if jobs > 1 and len(todo) > 1 else None
    results = pool.map(task, [f.labelling for f in todo]) if pool else map(task, (f.labelling for f in todo))
    try:
        for form, (puzzles, classes) in zip(todo, results, strict=True):
            census.add(form.orbit_size, puzzles, classes)
            if log is not None:
                record = {"census": key, "solution": form.labelling, "orbit_size": str(form.orbit_size)}
                log.write({**record, "puzzles": puzzles, "classes": classes})
            if progress is not None:
                progress(census.solutions, len(forms))
    except BaseException:
        if pool is not None:
            stop(pool)  # Ctrl-C: the workers stop now, not when their solutions are done
        raise
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        if log is not None:
            log.close()
    return census
