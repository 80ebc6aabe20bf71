"""`dlx-latin catalog build|stats|query`: SQLite catalogs of canonical solutions, built resumably."""

from __future__ import annotations

import json
import sqlite3

import click

from catalog.store import board_stats, holding, stored_puzzles, stored_solutions
from dlx_latin.cli.options import jobs_option, json_option, progress_option, scheduler_option
from dlx_latin.cli.text import plural
from dlx_latin.errors import UserInputError
from dlx_latin.formats.inputs import load_target
from dlx_latin.puzzles.proof import LEVELS as RATINGS

MAX_RUN_PARTS = 10_000_000  # a run keeps a row per part (per seed): more would only fill the disk

db_option = click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False),
    default="catalog.sqlite",
    show_default=True,
    help="The catalog file.",
)


class CatalogGroup(click.Group):
    """The catalog commands: a catalog file that is damaged (a dropped table, values no build writes) or
    cannot be written (a full or read-only disk) is reported in one line, as bad input."""

    def invoke(self, ctx: click.Context) -> object:
        import sqlite3

        from catalog.store import CatalogError

        try:
            return super().invoke(ctx)
        except sqlite3.Error as err:
            raise CatalogError(f"the catalog cannot be used: {err}") from None
        except UserInputError:
            raise
        except (ValueError, TypeError, KeyError, IndexError) as err:
            raise CatalogError(f"the catalog holds a value no build writes ({err}): it is damaged") from None


def catalog_file(path: str, **how: bool) -> sqlite3.Connection:
    """The catalog at `path` (`catalog.store.open_catalog`), closed when the command ends: its last writes
    are then in the database file itself, not only in SQLite's write-ahead log."""
    from catalog.store import open_catalog

    db = open_catalog(path, **how)
    click.get_current_context().call_on_close(db.close)
    return db


@click.group(cls=CatalogGroup)
def catalog() -> None:
    """Catalogs of canonical Latin boards (one per symmetry class, with orbit sizes), kept in SQLite."""


@catalog.command(name="build")
@click.argument("target", metavar="BOARD")
@click.option("--multiset", help="Labels with multiplicities, e.g. 1^2,2^2 (default 1..k).")
@click.option(
    "--minimal-puzzles",
    is_flag=True,
    help="Also every critical puzzle (no clue can go: minimal, as Sudoku people say) up to symmetry "
    "(6x6 Sudoku: 17 million classes; `minimal BOARD --critical` counts them without storing).",
)
@click.option(
    "--fewest-clues",
    is_flag=True,
    help="Also every puzzle with the fewest clues of any on the board, up to symmetry (any board size).",
)
@click.option(
    "--puzzles",
    "generated",
    type=click.IntRange(min=0, max=MAX_RUN_PARTS),
    default=0,
    help=f"Also generate this many puzzles (at most {MAX_RUN_PARTS:,} in one catalog).",
)
@click.option("--rating", type=click.Choice(RATINGS), help="Generated puzzles: fair and of this rating.")
@click.option(
    "--solutions",
    is_flag=True,
    help="Every class of Latin boards (the default when nothing else is asked; with --puzzles or "
    "--sample, this too).",
)
@click.option(
    "--sample",
    type=click.IntRange(min=1, max=MAX_RUN_PARTS * 100),
    help="Instead of finding every class, add the classes of N random Latin boards (in parts of 100), for "
    "boards with too many to list: the catalog is complete once its orbit sizes add up to `count BOARD`.",
)
@click.option(
    "--max-boards",
    type=click.IntRange(min=1),
    default=2_000,
    show_default=True,
    help="List the Latin boards of the symmetry leaves when at most this many; else find the classes "
    "asterism by asterism (faster beyond a few thousand; boards of at most 64 points).",
)
@progress_option
@jobs_option("Processes working parts.")
@scheduler_option("Work the parts on a Dask cluster at tcp://HOST:PORT.")
@db_option
@json_option("One JSON object at the end: what the catalog holds.")
def build(
    target: str,
    multiset: str | None,
    minimal_puzzles: bool,
    fewest_clues: bool,
    generated: int,
    rating: str | None,
    solutions: bool,
    sample: int | None,
    max_boards: int,
    progress: bool | None,
    jobs: int,
    scheduler: str | None,
    db_path: str,
    as_json: bool,
) -> None:
    """Add one canonical solution per symmetry class of BOARD's Latin boards to the catalog (with
    --minimal-puzzles, its critical puzzles, for boards of at most 50,000,000 Latin boards; with
    --fewest-clues, its puzzles with the fewest clues, for any board); with --puzzles N, N generated puzzles
    instead, and with --sample N the classes of N random Latin boards instead (solutions too when
    --minimal-puzzles or --fewest-clues is also given).  Interrupt it at any moment and run it again: it goes
    on from the parts already written."""
    from contextlib import ExitStack

    from catalog.build import (
        build_critical_puzzles,
        build_fewest_clue_puzzles,
        build_generated_puzzles,
        build_sampled_solutions,
        build_solutions,
    )
    from dlx_latin.cli.progress import ProgressBar, wants_progress

    pb = load_target(target, multiset, None)
    db = catalog_file(db_path)
    bar = ProgressBar(unit="parts") if wants_progress(progress) else None
    report = (lambda done, parts: bar(done, done / parts)) if bar else None
    if rating and not generated:
        raise click.UsageError("--rating applies to generated puzzles: give --puzzles N")
    result: dict = {"board": target, "multiset": str(pb.multiset)}
    say = (lambda text: None) if as_json else click.echo
    stack = ExitStack()
    try:
        executor = None
        if scheduler:
            from dlx_latin.distributed import dask_executor

            executor, _workers = stack.enter_context(dask_executor(scheduler))
        if generated:
            made = build_generated_puzzles(db, pb, target, generated, rating, report, jobs, executor)
            result.update(puzzle_classes=made.classes, puzzles_generated=made.parts_run)
            say(f"{target}: {made.classes} puzzle classes in the catalog ({made.parts_run} generated now)")
        if minimal_puzzles:
            from dlx_latin.puzzles.critical import check_within_reach

            check_within_reach(pb)  # before the solutions: a refusal should not come after minutes of work
        if sample:
            made = build_sampled_solutions(db, pb, target, sample, report, jobs, executor)
            result.update(classes=made.classes, total=made.total, parts=made.parts, parts_run=made.parts_run)
            say(
                f"{target}: {made.classes} classes in the catalog, orbit sizes summing to {made.total} "
                f"({made.parts_run} parts sampled now, {made.parts} in all)"
            )
        if solutions or not (generated or sample) or minimal_puzzles or fewest_clues:
            built = build_solutions(db, pb, target, max_boards, report, jobs, executor)
            result.update(
                classes=built.classes,
                total=built.total,
                parts=built.parts,
                parts_done=built.parts,
                parts_run=built.parts_run,
            )
            resumed = built.parts - built.parts_run
            note = f", {resumed} of {built.parts} parts already built" if resumed else ""
            say(f"{target}: {built.classes} classes, orbit sizes summing to {built.total}{note}")
        if minimal_puzzles:
            puzzles = build_critical_puzzles(db, pb, target, report, jobs, executor)
            result.update(puzzle_classes=puzzles.classes, puzzles=puzzles.total)
            say(f"{target}: {puzzles.classes} classes of critical puzzles, {puzzles.total} puzzles in all")
        if fewest_clues:
            puzzles = build_fewest_clue_puzzles(db, pb, target, report)
            result.update(puzzle_classes=puzzles.classes, puzzles=puzzles.total)
            say(
                f"{target}: {puzzles.classes} classes of puzzles with the fewest clues, "
                f"{puzzles.total} puzzles in all"
            )
    finally:
        stack.close()
        if bar:
            bar.close()
    if as_json:
        held = holding(db, target, str(pb.multiset))
        click.echo(json.dumps({"parts": 0, "parts_done": 0, **result, **held}))  # parts: the solutions build


@catalog.command(name="stats")
@db_option
@json_option("JSON lines.")
def stats(db_path: str, as_json: bool) -> None:
    """Per board: solution classes stored, the sum of their orbit sizes, the build's state, puzzle classes,
    and whether the classes are all there (when the count is known: an exhaustive build, or `certify`)."""
    db = catalog_file(db_path, read_only=True)
    for r in board_stats(db):
        if as_json:
            click.echo(json.dumps(r))
            continue
        count = r["count"]
        known = "" if count is None else "; complete" if r["complete"] else f"; the count is {count}"
        click.echo(
            f"{r['board']} [{r['multiset']}]: {r['classes']} classes, orbit sizes sum {r['total']}; build "
            f"{r['status']} ({r['parts_done']}/{r['parts']} parts); {r['puzzle_classes']} puzzle classes"
            + (f"; {r['sampled_boards']} random boards sampled" if r["sampled_boards"] else "")
            + known
        )


@catalog.command(name="certify")
@click.argument("target", metavar="BOARD")
@click.option("--multiset", help="Labels with multiplicities, as built.")
@jobs_option("Threads counting.")
@click.option(
    "--checkpoint",
    type=click.Path(dir_okay=False),
    help="Record finished parts of the count in FILE; the same command resumes after an interruption.",
)
@progress_option
@db_option
@json_option("Print JSON.")
def certify(
    target: str,
    multiset: str | None,
    jobs: int,
    checkpoint: str | None,
    progress: bool | None,
    db_path: str,
    as_json: bool,
) -> None:
    """Whether the catalog holds every class of BOARD's Latin boards: the orbit sizes of its solutions
    against the exact count (counted once and kept in the catalog; an exhaustive build's serves).  For
    sampled catalogs (`build --sample`), which are complete only when the two agree."""
    from catalog.build import certify as certify_catalog
    from dlx_latin.cli.progress import ProgressBar, wants_progress

    pb = load_target(target, multiset, None)
    db = catalog_file(db_path, create=False)
    bar = ProgressBar() if wants_progress(progress) else None
    try:
        found = certify_catalog(db, pb, target, bar, jobs, checkpoint)
    finally:
        if bar:
            bar.close()
    if as_json:
        record = {"board": target, "classes": found.classes, "held": found.held, "count": found.count}
        click.echo(json.dumps({**record, "complete": found.complete}))
    elif found.complete:
        click.echo(f"{target}: complete: {found.classes} classes hold all {found.count} Latin boards")
    else:
        share = 100 * found.held / found.count if found.count else 0.0
        click.echo(
            f"{target}: incomplete: {found.classes} classes hold {found.held} of {found.count} Latin boards "
            f"({share:.4g}%)"
        )


@catalog.command(name="query")
@json_option("JSON lines (the only output; for uniformity).")
@click.option("--board", "spec", required=True, help="The board's spec as built.")
@click.option("--puzzles", is_flag=True, help="Critical puzzles instead of solutions.")
@click.option(
    "--clue-count",
    "--clues",
    "clue_count",
    type=click.IntRange(min=0),
    help="Puzzles with this many clues (--clues, the older name, still works; elsewhere --clues is a grid).",
)
@click.option("--minimal", is_flag=True, help="Puzzles with the fewest clues of any on the board.")
@click.option("--fair/--not-fair", default=None, help="Puzzles attrition solves (or does not).")
@click.option("--rating", type=click.Choice(RATINGS), help="Puzzles of this rating.")
@click.option("--limit", type=click.IntRange(min=1), help="At most this many.")
@db_option
def query(
    spec: str,
    puzzles: bool,
    clue_count: int | None,
    minimal: bool,
    fair: bool | None,
    rating: str | None,
    limit: int | None,
    db_path: str,
    as_json: bool,
) -> None:
    """Canonical solutions (labelling in point order, orbit size, automorphisms; largest orbits first) or,
    with --puzzles, puzzles (clues, solution, clue count, orbit size, critical, minimal, fair, rating,
    score, and the lines of imported collections that fell in the class) as JSON lines."""

    db = catalog_file(db_path, read_only=True)
    if puzzles:
        records = stored_puzzles(
            db, spec, clue_count=clue_count, minimal=minimal, fair=fair, rating=rating, limit=limit
        )
    else:
        records = stored_solutions(db, spec, limit=limit)
    for record in records:
        click.echo(json.dumps(record))


@catalog.command(name="export")
@click.option("--board", "spec", help="Only this board.")
@click.option(
    "--format", "fmt", type=click.Choice(["jsonl", "ipuz", "grid"]), default="jsonl", show_default=True
)
@db_option
def export(spec: str | None, fmt: str, db_path: str) -> None:
    """Print the stored solutions and puzzles: JSON lines (what `catalog import` reads), ipuz documents (one
    per line) or grids, of square boards for the last two."""
    from catalog.exchange import export_lines, to_ipuz
    from dlx_latin.boards import board_from_spec
    from dlx_latin.latin.grid import format_grid

    db = catalog_file(db_path, read_only=True)
    boards: dict = {}
    shapes: dict[str, tuple[int, int] | None] = {}
    for record in export_lines(db, spec):
        if fmt == "jsonl":
            click.echo(json.dumps(record))
            continue
        board = record["board"]
        if board not in boards:
            boards[board] = board_from_spec(board, files=False)
            shapes[board] = boards[board].shape
        if shapes[board] is None:
            raise click.ClickException(f"{board} is not a square grid: export it as jsonl")
        if fmt == "ipuz":
            click.echo(json.dumps(to_ipuz(record, boards[board])))
            continue
        if "puzzle" in record:
            verdict = f"fair, {record['rating']}" if record["fair"] else "not fair"
            size = record["orbit_size"]
            click.echo(
                f"# {board} puzzle, {plural(record['clue_count'], 'clue')}, {verdict}, orbit size {size}"
            )
            click.echo(format_grid(record["puzzle"], shapes[board]))
        else:
            click.echo(
                f"# {board}, orbit size {record['orbit_size']}, automorphisms {record['automorphisms']}"
            )
            click.echo(format_grid(record["labelling"], shapes[board]))


@catalog.command(name="import")
@click.argument("source", metavar="FILE|BOARD")
@click.option(
    "--grid",
    "grids",
    metavar="FILE",
    help="A collection of BOARD's puzzles, one grid string per line (- for standard input), as "
    "`solve --batch` reads: each Latin puzzle stored once per symmetry class, duplicates counted.",
)
@click.option("--multiset", help="Labels with multiplicities, for a BOARD.")
@jobs_option("Processes (with --grid).")
@progress_option
@db_option
@json_option('{"added": N, ...}.')
def import_(
    source: str,
    grids: str | None,
    multiset: str | None,
    jobs: int,
    progress: bool | None,
    db_path: str,
    as_json: bool,
) -> None:
    """Add the solutions and puzzles of an exported JSON-lines FILE (- for standard input) to the catalog;
    or, with --grid, the puzzles of a collection of BOARD's puzzles (lines that are not Latin puzzles of
    the board are reported by number, and the exit code is then 1)."""
    from dlx_latin.files import read_text

    if grids is not None:
        raise SystemExit(_import_grids(source, grids, multiset, jobs, progress, db_path, as_json))
    if multiset is not None:
        raise click.UsageError("--multiset goes with --grid")
    from catalog.exchange import import_lines

    added = import_lines(catalog_file(db_path), read_text(source, "catalog export").splitlines())
    click.echo(
        json.dumps({"added": added}) if as_json else f"{added} {'row' if added == 1 else 'rows'} added"
    )


def _import_grids(
    spec: str, grids: str, multiset: str | None, jobs: int, progress: bool | None, db_path: str, as_json: bool
) -> int:
    """`catalog import BOARD --grid FILE`: the exit code (1 when some line was rejected)."""
    from catalog.collection import import_grids
    from dlx_latin.cli.progress import progress_bar
    from dlx_latin.cli.text import printable
    from dlx_latin.files import text_lines

    pb = load_target(spec, multiset, None)
    if pb.clues:
        raise click.UsageError("--grid takes a BOARD: the puzzles are the file's lines")
    db = catalog_file(db_path)
    with progress_bar(progress, "lines") as bar:
        found = import_grids(
            db, pb, spec, text_lines(grids, "collection of puzzles"), jobs, bar and (lambda n: bar(n, 0.0))
        )
    for bad in found.rejected:
        click.echo(f"dlx-latin: error: line {bad.line}: {printable(bad.message)}", err=True)
    record = {
        "board": spec,
        "lines": found.lines,
        "puzzles": found.puzzles,
        "classes": found.classes,
        "duplicates": found.duplicates,
        "added": found.added,
        "rejected": len(found.rejected),
    }
    if as_json:
        click.echo(json.dumps(record))
    else:
        click.echo(
            f"{spec}: {plural(found.lines, 'line')}, {plural(found.puzzles, 'Latin puzzle')} in "
            f"{plural(found.classes, 'class', 'classes')} ({found.duplicates} duplicates up to symmetry "
            f"merged), {found.added} new to the catalog, {len(found.rejected)} rejected"
        )
    return 1 if found.rejected else 0


@click.command()
@click.argument("targets", metavar="FILE|BOARD...", nargs=-1, required=True)
@click.option("--multiset", help="Labels with multiplicities, for a BOARD.")
@click.option("--clues", help="Clues as a grid string, for a BOARD.")
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False), help="Write here (.svg, or .png with the 'png' extra)."
)
@click.option("--solution", is_flag=True, help="Also show a completion's labels (light).")
@click.option("--highlight", type=click.IntRange(min=0), help="Shade this asterism (by number).")
@click.option("--columns", type=click.IntRange(min=1), default=2, show_default=True, help="Pictures per row.")
def render(
    targets: tuple[str, ...],
    multiset: str | None,
    clues: str | None,
    output: str | None,
    solution: bool,
    highlight: int | None,
    columns: int,
) -> None:
    """Draw a board or puzzle as SVG (or PNG): grids with region borders and shaded extra asterisms, Latin
    triangles and hexagons as unit triangles, other boards from their points' coordinates; clues bold.
    Several FILE|BOARD make one printable sheet, each captioned with its name."""
    from pathlib import Path

    from dlx_latin.latin import completions
    from dlx_latin.render import render_sheet, render_svg, svg_to_png

    if output and not output.endswith((".svg", ".png")):
        raise click.BadParameter("give a name ending in .svg or .png", param_hint="-o")
    pictures = []
    for target in targets:
        pb = load_target(target, multiset, clues)
        filled = None
        if solution:
            filled = next(iter(completions(pb, limit=1)), None)
            if filled is None:
                click.echo(f"dlx-latin: warning: {target} has no completion: drawn without one", err=True)
        try:
            pictures.append(render_svg(pb, filled, highlight))
        except ValueError as err:
            raise click.BadParameter(str(err), param_hint="--highlight") from None
    picture = pictures[0] if len(pictures) == 1 else render_sheet(pictures, list(targets), columns)
    if output and output.endswith(".png"):
        Path(output).write_bytes(svg_to_png(picture))
    elif output:
        Path(output).write_text(picture)
    else:
        click.echo(picture, nl=False)
