"""Building a catalog of canonical solutions and critical puzzles, resumably.

The Latin boards of an empty board are the completions of the symmetry leaves; each class of boards under
the board's automorphisms and relabelling meets them, so the nauty canonical forms of the leaves'
completions are exactly the classes (as in `symmetry.counting`).  The leaves are the solution run's parts;
a puzzle run has one part per canonical solution.  Each part is worked out, then written with its done mark
in one transaction.  At the end the solutions' orbit sizes must add up to the plain count.  Puzzles are
stored with their attrition proof's verdict: fair, rating and score (as `dlx-latin check` gives them).
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial

from catalog.store import SAMPLE_BATCH, CatalogError, board_id, known_count
from dlx_latin.boards import Board, per_board
from dlx_latin.latin import PartialBoard, completions
from dlx_latin.latin.multiset import Multiset
from dlx_latin.workers import new_pool, stop
from symmetry.counting import LEVELS_BEYOND, check_listable
from symmetry.errors import SymmetryTooLargeError
from symmetry.nauty_form import NautyCanonizer
from symmetry.pruned import count_by_orbits, leaves

LEVELS = "levels"  # the weight of the parts of a run that finds the classes level by level (symmetry.levels)
KILL_PART = "DLX_LATIN_CATALOG_KILL_PART"  # tests: SIGKILL this process inside that part's transaction
Progress = Callable[[int, int], object]


@dataclass(frozen=True)
class Built:
    """What a build left in the catalog: classes, the sum of their orbit sizes, parts done this time."""

    classes: int
    total: int
    parts: int
    parts_run: int


def encode(labelling) -> str:
    """A labelling as the catalog stores it: compact JSON."""
    return json.dumps(list(labelling), separators=(",", ":"))


def board_row(db: sqlite3.Connection, pb: PartialBoard, spec: str) -> int:
    """The catalog's row of a board (added if new)."""
    return board_id(db, spec, str(pb.multiset), pb.board.n_points, [list(a) for a in pb.board.asterisms])


def _run(db: sqlite3.Connection, board: int, kind: str, make_parts: Callable[[], list[tuple[str, str]]]):
    """(run id, number of parts) of a run; a new run is recorded with its parts (what, weight) at once."""
    row = db.execute("SELECT id, parts FROM runs WHERE board_id=? AND kind=?", (board, kind)).fetchone()
    if row is not None:
        return row[0], row[1]
    parts = make_parts()
    db.execute("BEGIN IMMEDIATE")
    row = db.execute("SELECT id, parts FROM runs WHERE board_id=? AND kind=?", (board, kind)).fetchone()
    if row is not None:  # another process recorded the run meanwhile: use its parts
        db.execute("ROLLBACK")
        return row[0], row[1]
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


def _work(
    db: sqlite3.Connection,
    run: int,
    parts: int,
    table: str,
    rows_of: Callable[[str], list[tuple]],
    progress: Progress | None,
    jobs: int = 1,
    executor: Executor | None = None,
) -> int:
    """Do the run's parts not yet done, each written with its done mark in one transaction; how many.
    With `jobs` > 1 the rows are worked out in that many processes, or by `executor` (a Dask client's, say)
    when given (`rows_of` must then pickle), and written here, in part order, by this process alone."""
    todo = db.execute(
        "SELECT part, clues FROM run_parts WHERE run_id=? AND done=0 ORDER BY part", (run,)
    ).fetchall()
    kill = int(os.environ.get(KILL_PART, -1))
    own = new_pool(jobs) if executor is None and jobs > 1 and len(todo) > 1 else None
    pool = executor or own
    results = pool.map(rows_of, [what for _, what in todo]) if pool else map(rows_of, (w for _, w in todo))
    try:
        for step, ((part, _), rows) in enumerate(zip(todo, results, strict=True)):
            _write(db, run, part, table, rows, kill)
            if progress is not None:
                progress(parts - len(todo) + step + 1, parts)
    except BaseException:
        if own:
            stop(own)  # Ctrl-C: the workers stop now, not when their parts end
        raise
    finally:
        if own:
            own.shutdown(cancel_futures=True)
    return len(todo)


def _write(db: sqlite3.Connection, run: int, part: int, table: str, rows: list[tuple], kill: int) -> None:
    """One part's rows and its done mark, in one transaction."""
    db.execute("BEGIN")
    if rows:
        marks = ", ".join("?" * len(rows[0]))
        db.executemany(f"INSERT OR IGNORE INTO {table} VALUES ({marks})", rows)
    if part == kill:
        os.kill(os.getpid(), signal.SIGKILL)
    db.execute("UPDATE run_parts SET done=1 WHERE run_id=? AND part=?", (run, part))
    db.execute("COMMIT")


def _tally(db: sqlite3.Connection, table: str, board: int, clue_count: int | None = None) -> tuple[int, int]:
    """(classes, the exact sum of their orbit sizes) of a board's rows in `table` (puzzles: only those with
    `clue_count` clues, when given)."""
    where, args = "board_id=?", [board]
    if clue_count is not None:
        where, args = where + " AND clue_count=?", [board, clue_count]
    classes, total = db.execute(
        f"SELECT count(*), exact_sum(orbit_size) FROM {table} WHERE {where}", args
    ).fetchone()
    return classes, int(total or 0)  # no rows: the aggregate is never made


@per_board
def canonizer(board: Board, multiset: Multiset) -> NautyCanonizer:
    """One canonizer per board and multiset in each process."""
    return NautyCanonizer(board, multiset)


@per_board
def _placements(board: Board, multiset: Multiset) -> object:
    """The board's symmetry.burnside.Placements, once per board in each process (it reduces the board)."""
    from symmetry.burnside import Placements

    return Placements(PartialBoard(board, multiset))


def _solution_rows(board: Board, multiset: Multiset, row: int, clues: str) -> list[tuple]:
    """The canonical forms of one leaf's completions, as solution rows (a worker's task)."""
    canon = canonizer(board, multiset)
    leaf = PartialBoard(board, multiset, {int(p): v for p, v in json.loads(clues)})
    forms = {f.labelling: f for f in map(canon.form, completions(leaf))}
    return [(row, encode(f.labelling), str(f.orbit_size), str(f.stabilizer_order)) for f in forms.values()]


def _work_levels(db: sqlite3.Connection, pb: PartialBoard, board: int, run: int, parts: int, progress) -> int:
    """Do the levels of a run by levels (symmetry.levels) not yet done, each in one transaction that stores
    the level's partial boards in its part (the last level's full boards go to the solutions instead); a
    killed run goes on from the last level stored.  How many levels were done now."""
    from symmetry.levels import canonical_forms, first_level, next_level

    canon = canonizer(pb.board, pb.multiset)
    kill = int(os.environ.get(KILL_PART, -1))
    stored = db.execute(
        "SELECT part, clues FROM run_parts WHERE run_id=? AND done=1 ORDER BY part DESC LIMIT 1", (run,)
    ).fetchone()
    if stored is not None and stored[0] == parts - 1:  # finished: its last level went to the solutions
        return 0
    boards, start = first_level(pb), 0
    if stored is not None:
        level = json.loads(stored[1])
        boards = [
            PartialBoard(pb.board, pb.multiset, dict(zip(level["points"], labels, strict=True)))
            for labels in level["boards"]
        ]
        start = stored[0] + 1
    for part in range(start, parts):
        boards = next_level(boards, canon)
        rows, text = [], ""
        if part == parts - 1:
            rows = [
                (board, encode(f.labelling), str(f.orbit_size), str(f.stabilizer_order))
                for f in canonical_forms(boards, canon)
            ]
        else:
            points = sorted(boards[0].clues) if boards else []
            text = json.dumps({"points": points, "boards": [[b.clues[p] for p in points] for b in boards]})
        db.execute("BEGIN")
        db.executemany("INSERT OR IGNORE INTO solutions VALUES (?, ?, ?, ?)", rows)
        if part == kill:
            os.kill(os.getpid(), signal.SIGKILL)
        db.execute("UPDATE run_parts SET clues=?, done=1 WHERE run_id=? AND part=?", (text, run, part))
        db.execute("COMMIT")
        if progress is not None:
            progress(part + 1, parts)
    return parts - start


def build_solutions(
    db: sqlite3.Connection,
    pb: PartialBoard,
    spec: str,
    max_boards: int = LEVELS_BEYOND,
    progress: Progress | None = None,
    jobs: int = 1,
    executor: Executor | None = None,
) -> Built:
    """Add one canonical solution per class of `pb`'s Latin boards to the catalog, resuming a killed build;
    `progress(parts done, parts)` after each part; parts worked out in `jobs` processes (or on
    `executor`)."""
    if pb.clues:
        raise SymmetryTooLargeError("a catalog of solutions needs an empty board: clues break the symmetry")
    board = board_row(db, pb, spec)

    def make_parts() -> list[tuple[str, str]]:
        from symmetry.levels import MAX_POINTS, levels

        found = leaves(pb)
        try:
            check_listable(
                pb,
                found,
                max_boards,
                f"it has more than {MAX_POINTS} points to find them asterism by asterism",
            )
        except SymmetryTooLargeError:  # too many boards to list: classes level by level, a part per level
            if pb.board.n_points > MAX_POINTS:
                raise
            return [("", LEVELS)] * levels(pb)
        return [(json.dumps(sorted(leaf.partial.clues.items())), str(leaf.weight)) for leaf in found]

    run, parts = _run(db, board, "solutions", make_parts)
    by_levels = db.execute("SELECT weight FROM run_parts WHERE run_id=? LIMIT 1", (run,)).fetchone()
    if by_levels and by_levels[0] == LEVELS:
        ran = _work_levels(db, pb, board, run, parts, progress)
    else:
        rows_of = partial(_solution_rows, pb.board, pb.multiset, board)
        ran = _work(db, run, parts, "solutions", rows_of, progress, jobs, executor)
    classes, total = _tally(db, "solutions", board)
    expected = count_by_orbits(pb)
    if total != expected:
        raise AssertionError(f"the catalog's orbit sizes add up to {total}, not to the count {expected}")
    db.execute("UPDATE runs SET status='done', total=? WHERE id=?", (str(expected), run))
    return Built(classes, expected, parts, ran)


SYMMETRIC_DRAWS = 20  # random boards fixed by each generator of a symmetric class's automorphisms


def build_sampled_solutions(
    db: sqlite3.Connection,
    pb: PartialBoard,
    spec: str,
    boards: int,
    progress: Progress | None = None,
    jobs: int = 1,
    executor: Executor | None = None,
) -> Built:
    """Add the classes of `boards` random Latin boards of `pb` (rounded up to whole parts of SAMPLE_BATCH
    seeds; asking for more later adds only the new parts), for boards whose classes are too many to list
    or to find level by level.  Then, since random boards rarely meet the classes with many automorphisms
    (their orbits are small), SYMMETRIC_DRAWS random boards fixed by each generator of the automorphisms of
    every symmetric class found (a part per class; Burnside's quotient problems) find their kin.  Every
    class stored is exact; the catalog holds them all once their orbit sizes add up to the count
    (`count_by_orbits`), which `certify` checks: it may take long."""
    if pb.clues:
        raise SymmetryTooLargeError("a catalog of solutions needs an empty board: clues break the symmetry")
    board = board_row(db, pb, spec)
    run, parts = _extend(db, board, "sampled", -(-boards // SAMPLE_BATCH))
    rows_of = partial(sampled_rows, pb.board, pb.multiset, board)
    ran = _work(db, run, parts, "solutions", rows_of, progress, jobs, executor)

    def symmetric_classes() -> list[tuple[str, str]]:
        found = db.execute(
            "SELECT canonical FROM solutions WHERE board_id=? AND automorphisms != '1' ORDER BY canonical",
            (board,),
        )
        return [(row[0], "1") for row in found]

    again, more = _run(db, board, f"sampled-symmetric:{parts}", symmetric_classes)
    rows_of = partial(_symmetric_rows, pb.board, pb.multiset, board, parts)
    ran += _work(db, again, more, "solutions", rows_of, progress, jobs, executor)
    classes, total = _tally(db, "solutions", board)
    db.execute("UPDATE runs SET status='done', total=? WHERE id=?", (str(total), run))
    return Built(classes, total, parts + more, ran)


@dataclass(frozen=True)
class Certificate:
    """What a catalog's solutions hold against the exact count of the board's Latin boards."""

    classes: int
    held: int  # the sum of the stored classes' orbit sizes
    count: int

    @property
    def complete(self) -> bool:
        return self.held == self.count


def certify(
    db: sqlite3.Connection,
    pb: PartialBoard,
    spec: str,
    progress: Callable[[int, float], object] | None = None,
    jobs: int = 1,
    checkpoint: str | None = None,
) -> Certificate:
    """Compare the catalog's solutions with the exact count of the board's Latin boards, counted once
    (`count_by_orbits`, resumable with `checkpoint`) and kept in the catalog as a run of its own; an
    exhaustive build's count serves as well.  A sampled catalog is complete exactly when they agree."""
    stored = db.execute("SELECT 1 FROM boards WHERE spec=? AND multiset=?", (spec, str(pb.multiset)))
    if stored.fetchone() is None:
        raise CatalogError(f"the catalog has no board {spec} [{pb.multiset}]: build it first")
    board = board_row(db, pb, spec)
    known = db.execute(known_count("?"), (board,)).fetchone()
    if known is not None:
        count = int(known[0])
    else:
        count = count_by_orbits(pb, jobs=jobs, progress=progress, checkpoint=checkpoint)
        db.execute(
            "INSERT INTO runs (board_id, kind, parts, total, status) VALUES (?, 'count', 0, ?, 'done')",
            (board, str(count)),
        )
    classes, held = _tally(db, "solutions", board)
    return Certificate(classes, held, count)


def _extend(db: sqlite3.Connection, board: int, kind: str, wanted: int) -> tuple[int, int]:
    """(run id, parts) of a run whose part k is the number k (a batch of seeds), grown to `wanted` parts."""
    run, parts = _run(db, board, kind, lambda: [])
    if wanted > parts:  # more seeds than before: append their parts
        db.execute("BEGIN")
        db.executemany(
            "INSERT INTO run_parts (run_id, part, clues, weight) VALUES (?, ?, ?, '1')",
            [(run, k, str(k)) for k in range(parts, wanted)],
        )
        db.execute("UPDATE runs SET parts = ?, status = 'running' WHERE id = ?", (wanted, run))
        db.execute("COMMIT")
        parts = wanted
    return run, parts


def sampled_rows(board: Board, multiset: Multiset, row: int, batch: str) -> list[tuple]:
    """The canonical forms of one batch of SAMPLE_BATCH random Latin boards, as solution rows (a worker's
    task)."""
    import random

    from dlx_latin.latin.completion import random_latin_board

    canon, pb = canonizer(board, multiset), PartialBoard(board, multiset)
    seeds = range(int(batch) * SAMPLE_BATCH, (int(batch) + 1) * SAMPLE_BATCH)
    boards = (random_latin_board(pb, random.Random(f"sample/{k}")) for k in seeds)
    forms = {f.labelling: f for f in map(canon.form, boards)}
    return [(row, encode(f.labelling), str(f.orbit_size), str(f.stabilizer_order)) for f in forms.values()]


def _symmetric_rows(board: Board, multiset: Multiset, row: int, after: int, canonical: str) -> list[tuple]:
    """The canonical forms of random Latin boards fixed by each generator of a class's automorphisms, as
    solution rows (a worker's task; `after`: the parts of random boards before, so each pass draws anew)."""
    import random

    from symmetry.burnside import random_fixed_boards

    canon, pb = canonizer(board, multiset), PartialBoard(board, multiset)
    form = json.loads(canonical)
    placements, rng = _placements(board, multiset), random.Random(f"symmetric/{after}/{canonical}")
    boards = []
    for g in canon.point_automorphisms(form):
        sigma = {form[p]: form[g[p]] for p in range(len(form))}  # the relabelling that goes with g
        boards += random_fixed_boards(pb, g, sigma, placements, rng, SYMMETRIC_DRAWS)
    forms = {f.labelling: f for f in map(canon.form, boards)}
    return [(row, encode(f.labelling), str(f.orbit_size), str(f.stabilizer_order)) for f in forms.values()]


def build_critical_puzzles(
    db: sqlite3.Connection,
    pb: PartialBoard,
    spec: str,
    progress: Progress | None = None,
    jobs: int = 1,
    executor: Executor | None = None,
) -> Built:
    """Add every critical puzzle of a board (within `dlx_latin.puzzles.critical.check_within_reach`), one
    per symmetry class, after its solutions (built first if needed); one part per canonical solution.
    `Built.total` is the sum of the puzzles' orbit sizes: all critical puzzles of the board."""
    from dlx_latin.puzzles.critical import check_within_reach

    check_within_reach(pb)
    build_solutions(db, pb, spec)
    board = board_row(db, pb, spec)

    def make_parts() -> list[tuple[str, str]]:
        found = db.execute("SELECT canonical FROM solutions WHERE board_id=? ORDER BY canonical", (board,))
        return [(row[0], "1") for row in found]

    run, parts = _run(db, board, "critical-puzzles", make_parts)
    rows_of = partial(_critical_rows, pb.board, pb.multiset, board)
    ran = _work(db, run, parts, "puzzles", rows_of, progress, jobs, executor)
    classes, total = _tally(db, "puzzles", board)
    db.execute("UPDATE runs SET status='done', total=? WHERE id=?", (str(total), run))
    return Built(classes, total, parts, ran)


def _critical_rows(board: Board, multiset: Multiset, row: int, canonical: str) -> list[tuple]:
    """The critical puzzles of one canonical solution, one row per class (a worker's task)."""
    from dlx_latin.puzzles.critical import latin_boards

    solution = tuple(json.loads(canonical))
    masks = latin_boards(board, multiset).critical_masks(solution)
    return _puzzle_rows(PartialBoard(board, multiset), row, solution, masks)


def _puzzle_rows(pb: PartialBoard, board: int, solution: tuple, masks: list[int]) -> list[tuple]:
    """Puzzle rows, one per symmetry class, of the clue sets `masks` (bitmasks) of a canonical solution."""
    from dlx_latin.puzzles.critical import orbit_representatives
    from dlx_latin.puzzles.proof import explain

    canon = canonizer(pb.board, pb.multiset)
    n = pb.board.n_points
    forms = {}
    for mask in orbit_representatives(masks, canon.point_automorphisms(solution)):
        # the canonical puzzle's own completion: S moved the way the puzzle was
        form, completion = canon.form_carrying(
            [solution[p] if mask >> p & 1 else None for p in range(n)], solution
        )
        forms[form.labelling] = (form, completion)
    rows = []
    for f, completion in forms.values():
        clues = {p: x for p, x in enumerate(f.labelling) if x is not None}
        puzzle = PartialBoard(pb.board, pb.multiset, clues)
        proof = explain(puzzle)
        rows.append(
            (
                board,
                encode(completion),
                encode(f.labelling),
                len(clues),
                1,
                str(f.orbit_size),
                int(proof.fair),
                proof.rating,
                proof.score,
            )
        )
    return rows


def build_fewest_clue_puzzles(
    db: sqlite3.Connection, pb: PartialBoard, spec: str, progress: Progress | None = None
) -> Built:
    """Add every puzzle with the fewest clues of any on the board (minimal in Palomo's sense), one per
    symmetry class, after the solutions (built first if needed), for boards of any size: the fewest clues
    come from `minimal_puzzles`, then each canonical solution's puzzles with that many clues from
    `puzzles_with_fewest_clues` (one part each; the clue count is kept as every part's weight).
    `Built.total` is the sum of their orbit sizes: every such puzzle of the board."""
    from dlx_latin.puzzles.minimal import minimal_puzzles, puzzles_with_fewest_clues
    from symmetry.counting import all_classes
    from symmetry.groups import automorphism_elements

    build_solutions(db, pb, spec)
    board = board_row(db, pb, spec)

    def make_parts() -> list[tuple[str, str]]:
        classes = [f.labelling for f in all_classes(pb)]
        fewest = minimal_puzzles(pb, boards=classes, symmetries=automorphism_elements(pb.board)).clues
        found = db.execute("SELECT canonical FROM solutions WHERE board_id=? ORDER BY canonical", (board,))
        return [(row[0], str(fewest)) for row in found]

    run, parts = _run(db, board, "fewest-clue-puzzles", make_parts)
    fewest = int(db.execute("SELECT weight FROM run_parts WHERE run_id=? LIMIT 1", (run,)).fetchone()[0])

    def puzzles(text: str) -> list[tuple]:
        solution = tuple(json.loads(text))
        solved = PartialBoard(pb.board, pb.multiset, dict(enumerate(solution)))
        return _puzzle_rows(pb, board, solution, puzzles_with_fewest_clues(solved, fewest))

    ran = _work(db, run, parts, "puzzles", puzzles, progress)
    classes, total = _tally(db, "puzzles", board, fewest)
    db.execute("UPDATE runs SET status='done', total=? WHERE id=?", (str(total), run))
    return Built(classes, total, parts, ran)


def build_generated_puzzles(
    db: sqlite3.Connection,
    pb: PartialBoard,
    spec: str,
    count: int,
    rating: str | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
    executor: Executor | None = None,
) -> Built:
    """Add `count` generated puzzles (fair and of `rating` when asked; `puzzles.generate`, seeds 0..count-1
    of this run) in canonical form, so a puzzle equivalent to one stored is not stored again.  One part
    per seed; a run is identified by its rating and asks for more seeds when `count` grows."""
    if pb.clues:
        raise SymmetryTooLargeError("generated catalog puzzles need an empty board: clues break the symmetry")
    board = board_row(db, pb, spec)
    kind = f"generated:{rating or 'any'}"
    run, parts = _extend(db, board, kind, count)
    rows_of = partial(_generated_rows, pb.board, pb.multiset, board, kind, rating)
    ran = _work(db, run, parts, "puzzles", rows_of, progress, jobs, executor)
    classes, total = _tally(db, "puzzles", board)
    db.execute("UPDATE runs SET status='done', total=? WHERE id=?", (str(total), run))
    return Built(classes, total, parts, ran)


def _generated_rows(
    board: Board, multiset: Multiset, row: int, kind: str, rating: str | None, seed: str
) -> list[tuple]:
    """One generated puzzle in canonical form, with its completion and verdict, as a row (a worker's task)."""
    from dlx_latin.puzzles.generate import generate

    made = generate(PartialBoard(board, multiset), f"{kind}/{seed}", fair=rating is not None, rating=rating)
    form, completion = canonizer(board, multiset).form_carrying(made.puzzle.labelling(), made.solution)
    clues = {p: x for p, x in enumerate(form.labelling) if x is not None}
    proof = made.verdict
    canonical = (encode(completion), encode(form.labelling), len(clues), int(made.critical))
    return [(row, *canonical, str(form.orbit_size), int(proof.fair), proof.rating, proof.score)]
