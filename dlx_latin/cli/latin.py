"""`dlx-latin boards|info|count|enumerate|solve|check|convert`: Latin boards from the command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click

from dlx_latin.boards import FAMILIES, Board, board_from_spec
from dlx_latin.cli import EXIT_NO_SOLUTION, EXIT_NOT_UNIQUE
from dlx_latin.cli.options import (
    checkpoint_option,
    clues_option,
    jobs_option,
    json_option,
    memo_setting,
    memo_size_option,
    multiset_option,
    no_memo_option,
    progress_option,
    scheduler_option,
    target_argument,
)
from dlx_latin.cli.progress import ProgressBar, echo, progress_bar, wants_progress
from dlx_latin.cli.text import plural
from dlx_latin.distributed import dask_executor
from dlx_latin.exact_cover.settings import CountSettings
from dlx_latin.formats.inputs import load_target, read_puzzle_file
from dlx_latin.formats.ipuz import write_ipuz
from dlx_latin.formats.puzzle import (
    labelling_json,
    write_puzzle,
)
from dlx_latin.latin import (
    PartialBoard,
    completions,
    estimate_completions,
    is_critical,
)
from dlx_latin.latin.completion import completable_within, label_group_order
from dlx_latin.latin.grid import GridStringError, format_grid, label_char
from dlx_latin.puzzles.proof import LEVELS as RATINGS

SINGLE_PASS_BOARDS = 16  # Latin boards enumerated per puzzle asked for, when puzzles are filtered


def batch_options(command: Callable) -> Callable:
    """--batch FILE, --keep-blank, --jobs and --progress: `solve` and `check` on a collection of puzzles."""
    command = progress_option(command)
    command = click.option(
        "--keep-blank",
        is_flag=True,
        help="--batch: an empty output line for each blank or '#' line, so output line k answers input line "
        "k (--json lines carry the input's line number instead).",
    )(command)
    command = jobs_option("--batch: processes at work.")(command)
    return click.option(
        "--batch",
        "batch_source",
        metavar="FILE",
        help="A collection: one grid string per line ('-': standard input; blank and '#' lines skipped), "
        "answered line by line in input order.",
    )(command)


@click.command()
@json_option()
def boards(as_json: bool) -> None:
    """List the built-in board families."""
    if as_json:
        rows = [
            {"family": f.name, "usage": f.usage, "description": f.description, "example": f.example}
            for f in FAMILIES.values()
        ]
        click.echo(json.dumps({"families": rows}))
        return
    width = max(len(f.usage) for f in FAMILIES.values())
    for f in FAMILIES.values():
        click.echo(f"{f.usage:<{width}}  {f.description}")


INFO_NODES = 1_000_000  # search nodes `info` spends finding whether a board has Latin boards


@click.command()
@click.argument("board", metavar="BOARD")
@json_option()
def info(board: str, as_json: bool) -> None:
    """The structure of a BOARD: points, asterisms, k, asterisms per point, its group orders, and whether
    it has Latin boards (when a short search can tell)."""
    b = board_from_spec(board)
    data = {
        "name": b.name,
        "points": b.n_points,
        "asterisms": [list(a) for a in b.asterisms],
        "asterism_size": b.asterism_size,
        "asterisms_per_point": list(b.asterisms_per_point),
    }
    if b.shape:
        data["shape"] = list(b.shape)
    from symmetry import automorphism_group, geometric_group  # the symmetry layer sits above the core

    data["automorphism_group_order"] = int(automorphism_group(b).order())
    geometric = geometric_group(b)
    if geometric is not None:
        data["geometric_group_order"] = int(geometric.order())
    data["has_latin_boards"] = completable_within(PartialBoard(b), INFO_NODES)
    if as_json:
        click.echo(json.dumps(data))
        return
    r = sorted(set(b.asterisms_per_point))
    latin = {True: "yes", False: "none", None: f"not found within {INFO_NODES:,} search nodes"}
    click.echo(
        f"{b.name}: {b.n_points} points, {len(b.asterisms)} asterisms of {b.asterism_size}, "
        f"r = {', '.join(map(str, r))}; automorphism group order {data['automorphism_group_order']}"
        + (f", geometric group order {data['geometric_group_order']}" if geometric is not None else "")
        + f"; Latin boards: {latin[data['has_latin_boards']]}"
    )


@click.command()
@target_argument
@multiset_option
@clues_option
@click.option(
    "--up-to",
    "up_to",
    type=click.Choice(["labels", "symmetry", "geometry", "isotopy"]),
    help="Count classes under relabelling; under automorphisms and relabelling; under the board's "
    "rotations and reflections and relabelling (Latin polygons and polyhedra, by Burnside's lemma); or, "
    "for latin:n, under row, column and symbol permutations (isotopy classes).",
)
@jobs_option(
    "Count with N workers: threads sharing one memo for a search, processes for a count in parts (Latin "
    "squares in halves, Sudoku by bands, Burnside's terms)."
)
@scheduler_option("Count on a Dask cluster at tcp://HOST:PORT.")
@progress_option
@no_memo_option
@memo_size_option
@checkpoint_option
@json_option()
def count(
    target: str,
    multiset: str | None,
    clues: str | None,
    up_to: str | None,
    jobs: int,
    scheduler: str | None,
    progress: bool | None,
    no_memo: bool,
    memo_size: int | None,
    checkpoint: str | None,
    as_json: bool,
) -> None:
    """Count the Latin boards of a BOARD (or completing a puzzle FILE), exactly."""
    pb = load_target(target, multiset, clues)
    if up_to and pb.clues:
        raise click.UsageError(f"--up-to {up_to} counts empty boards (clues break the symmetry)")
    if up_to == "isotopy" and (checkpoint or jobs != 1):
        raise click.UsageError("--up-to isotopy sums small fixed counts: nothing to checkpoint or share out")
    if up_to in ("symmetry", "geometry", "isotopy"):
        import symmetry  # the layer above the core

        if no_memo or memo_size is not None or scheduler:
            raise click.UsageError(f"--no-memo, --memo-size and --scheduler do not go with --up-to {up_to}")
        if up_to == "isotopy":
            n = symmetry.count_up_to_isotopy(pb)
        else:
            wanted = wants_progress(progress)
            bar = ProgressBar() if wanted else None  # the plain count: Burnside's identity term
            terms = ProgressBar(unit="other Burnside terms") if wanted else None
            try:
                settings = CountSettings(jobs=jobs, progress=bar, checkpoint=checkpoint)
                n = getattr(symmetry, f"count_up_to_{up_to}")(pb, settings, terms)
            finally:
                for drawn in (bar, terms):
                    if drawn:
                        drawn.close()
        click.echo(json.dumps({"count": n}) if as_json else n)
        return
    from symmetry.counting import recorded_structure_count  # Sudoku by bands, Latin squares in halves
    from symmetry.pruned import count_by_orbits  # nauty only: the board's symmetries prune the search

    bar = ProgressBar() if wants_progress(progress) else None
    settings = CountSettings(
        jobs=jobs, progress=bar, memo=memo_setting(no_memo, memo_size), checkpoint=checkpoint
    )
    try:
        n = None if no_memo or scheduler else recorded_structure_count(pb, settings)
        if n is None:
            if scheduler:
                with dask_executor(scheduler) as (executor, workers):
                    n = count_by_orbits(pb, settings.updated(jobs=workers, executor=executor))
            else:
                n = count_by_orbits(pb, settings)
    finally:
        if bar:
            bar.close()
    if up_to == "labels":
        n //= label_group_order(pb.multiset)
    click.echo(json.dumps({"count": n}) if as_json else n)


@click.command()
@target_argument
@multiset_option
@clues_option
@click.option("--probes", type=click.IntRange(min=2), default=10_000, show_default=True, help="Random walks.")
@click.option("--seed", type=int, help="Make the estimate reproducible.")
@progress_option
@json_option()
def estimate(
    target: str,
    multiset: str | None,
    clues: str | None,
    probes: int,
    seed: int | None,
    progress: bool | None,
    as_json: bool,
) -> None:
    """Estimate how many Latin boards a BOARD has (or complete a puzzle FILE), for boards too large to count:
    Knuth's random walks down the search `count` would make, with their standard error.  For an empty board
    it also estimates a lower bound on its symmetry classes (no orbit is larger than the symmetry group, so
    the classes are at least the count over the group's order); an estimate, never a proven bound."""
    pb = load_target(target, multiset, clues)
    with progress_bar(progress, "probes") as bar:
        e = estimate_completions(pb, probes, seed, bar)
    data = {
        "estimated": True,  # every number here is an estimate, not a count or a proven bound
        "estimate": e.solutions,
        "stderr": e.stderr,
        "nodes": e.nodes,
        "probes": e.probes,
        "hits": e.hits,
    }
    if not pb.clues:
        from symmetry.groups import automorphism_group  # the symmetry layer sits above the core

        group = int(automorphism_group(pb.board).order()) * label_group_order(pb.multiset)
        data["group_order"] = group
        data["classes_bound_estimate"] = e.solutions / group  # estimates count / |G| <= classes
        data["classes_bound_stderr"] = e.stderr / group
    if as_json:
        click.echo(json.dumps(data))
        return
    if not pb.is_partial_latin():  # no completion at all: exactly 0, as `count` says
        click.echo("0 Latin boards: the clues put a label too often in an asterism")
        return
    if not e.hits:
        raise click.ClickException(
            f"none of the {e.probes} probes ended in a Latin board: too few probes to estimate (try more)"
        )
    bound = (
        f"; count / group order, a lower bound on the symmetry classes, estimated at about "
        f"{data['classes_bound_estimate']:.3g} ± {data['classes_bound_stderr']:.2g}"
    )
    click.echo(
        f"estimate: about {e.solutions:.4g} ± {e.stderr:.2g} Latin boards (standard error; {e.hits} of "
        f"{e.probes} probes ended in a board); a count would visit about {e.nodes:.3g} nodes"
        + (bound if not pb.clues else "")
    )


@click.command(name="enumerate")
@target_argument
@multiset_option
@clues_option
@click.option(
    "--canonical",
    is_flag=True,
    help="One canonical form per class under the board's automorphisms and relabelling, with its orbit size.",
)
@click.option("--limit", type=click.IntRange(min=1), help="Stop after N lines.")
@json_option("JSON lines (the only output; for uniformity).")
@progress_option
def enumerate_(
    target: str,
    multiset: str | None,
    clues: str | None,
    canonical: bool,
    limit: int | None,
    as_json: bool,
    progress: bool | None,
) -> None:
    """Stream the Latin boards of a BOARD (or the completions of a puzzle FILE) as JSON lines; with
    --canonical, one per class as found (--progress shows how far the search for classes is)."""
    pb = load_target(target, multiset, clues)
    with progress_bar(progress if canonical else False, "classes") as bar:
        _enumerate(pb, canonical, limit, bar)


def _enumerate(pb: PartialBoard, canonical: bool, limit: int | None, bar: ProgressBar | None) -> None:
    if canonical:
        if pb.clues:
            raise click.UsageError(
                "--canonical lists the classes of an empty board (clues break the symmetry)"
            )
        from symmetry.counting import all_classes  # the symmetry layer sits above the core

        forms = all_classes(pb, bar)
        lines = (
            {
                "labelling": labelling_json(list(f.labelling), pb.board),
                "orbit_size": f.orbit_size,
                "stabilizer_order": f.stabilizer_order,
            }
            for f in forms
        )
    else:
        lines = ({"labelling": labelling_json(x, pb.board)} for x in completions(pb))
    for k, line in enumerate(lines):
        if limit is not None and k >= limit:
            break
        echo(json.dumps(line, separators=(",", ":")), bar)


def _text(labelling: list, board: Board) -> str:
    """A Latin board as text: a square board's rows (labels as grid characters when they all have one), else
    lines of labels in point order (`_grid_text`)."""
    if not board.shape:
        return _grid_text(labelling, board)
    try:
        shown = [label_char(x) for x in labelling]
    except GridStringError:
        shown = [str(x) for x in labelling]
    width, (rows, cols) = max(map(len, shown)), board.shape
    return "\n".join(" ".join(x.rjust(width) for x in shown[r * cols : (r + 1) * cols]) for r in range(rows))


@click.command()
@target_argument
@multiset_option
@clues_option
@click.option(
    "--limit", type=click.IntRange(min=1), default=1, show_default=True, help="List up to N solutions."
)
@click.option(
    "--unique",
    is_flag=True,
    help="Assert exactly one solution: exit 3 if none, 4 if several (--batch: '?' for several).",
)
@click.option("--explain", is_flag=True, help="Print the attrition proof, step by step, before the solution.")
@batch_options
@json_option()
def solve(
    target: str,
    multiset: str | None,
    clues: str | None,
    limit: int,
    unique: bool,
    explain: bool,
    batch_source: str | None,
    keep_blank: bool,
    jobs: int,
    progress: bool | None,
    as_json: bool,
) -> None:
    """Complete a puzzle FILE, or latinize a BOARD (with --multiset and --clues); with --batch, solve a
    collection of puzzles of BOARD: one line per puzzle, its solution as a grid string ('-': none)."""
    pb = load_target(target, multiset, clues)
    if batch_source is not None:
        if explain or limit != 1:
            raise click.UsageError("--explain and --limit do not go with --batch")
        from dlx_latin.cli.batch import run_batch

        how = {"jobs": jobs, "progress": progress, "as_json": as_json, "keep_blank": keep_blank}
        code = run_batch(pb, batch_source, unique=unique, **how)
        raise SystemExit(code)
    if jobs != 1 or progress is not None or keep_blank:
        raise click.UsageError("--jobs, --progress and --keep-blank go with --batch")
    extra = _explain(pb, as_json) if explain else {}
    found = list(completions(pb, limit=max(limit, 2) if unique else limit))
    if unique and len(found) > 1:
        click.echo("dlx-latin: not unique: the puzzle has more than one solution", err=True)
        raise SystemExit(EXIT_NOT_UNIQUE)
    found = found[:limit]
    if as_json:
        click.echo(json.dumps({"solutions": [labelling_json(x, pb.board) for x in found], **extra}))
    else:
        click.echo("\n\n".join(_text(x, pb.board) for x in found))
    if not found:
        click.echo("dlx-latin: no solution", err=True)
        raise SystemExit(EXIT_NO_SOLUTION)


@click.command()
@target_argument
@multiset_option
@click.option(
    "--count", "how_many", type=click.IntRange(min=1), default=1, show_default=True, help="Puzzles."
)
@click.option("--fair", is_flag=True, help="Only puzzles that attrition alone solves.")
@click.option("--rating", type=click.Choice(RATINGS), help="Only fair puzzles of this rating.")
@click.option(
    "--inscription",
    type=click.Path(dir_okay=False),
    help="A puzzle FILE on the same board whose clues every puzzle keeps.",
)
@click.option("--seed", type=int, help="Make the run reproducible (each output line records its seed).")
@jobs_option("Processes making puzzles (the output is the same, in the same order).")
@click.option(
    "--single-pass",
    is_flag=True,
    help="Read puzzles off the enumeration of Latin boards itself (Palomo 5.3.1) instead.",
)
@json_option()
def generate(
    target: str,
    multiset: str | None,
    how_many: int,
    fair: bool,
    rating: str | None,
    inscription: str | None,
    seed: int | None,
    jobs: int,
    single_pass: bool,
    as_json: bool,
) -> None:
    """Generate unique, critical Latin puzzles on a BOARD: a random Latin board, then clue removal."""
    import random

    from dlx_latin.puzzles.generate import generate as make
    from dlx_latin.workers import ordered_map

    pb = load_target(target, multiset, None)
    if inscription:
        kept = read_puzzle_file(Path(inscription))
        if kept.partial.board.asterisms != pb.board.asterisms:
            raise click.UsageError(f"the inscription in {inscription} is not on {pb.board.name}")
        pb = PartialBoard(pb.board, pb.multiset, {**pb.clues, **kept.partial.clues})
    if single_pass:
        _single_pass(target, pb, how_many, fair, rating, as_json)
        return
    seed = random.SystemRandom().randrange(2**31) if seed is None else seed
    tasks = ((pb, f"{seed}/{k}", fair, rating) for k in range(how_many))
    for k, made in enumerate(ordered_map(make, tasks, jobs)):  # each puzzle from its own seed
        proof = made.verdict
        facts = {
            "clue_count": len(made.puzzle.clues),
            "critical": made.critical,
            "fair": proof.fair,
            "rating": proof.rating,
            "score": proof.score,
            "seed": f"{seed}/{k}",
        }
        if as_json:
            record = json.loads(write_puzzle(made.puzzle, list(made.solution), _spec(target, pb)))
            click.echo(json.dumps({**record, **facts}))
            continue
        verdict = f"fair, rated {proof.rating}" if proof.fair else "not fair"
        critical = "critical" if made.critical else "not critical (fairness needs every clue left)"
        click.echo(
            f"# puzzle {k + 1}: {plural(facts['clue_count'], 'clue')}, {verdict}, {critical}; seed {seed}/{k}"
        )
        click.echo(_grid_text(made.puzzle.labelling(), pb.board))


@click.command()
@target_argument
@multiset_option
@clues_option
@click.option(
    "--witnesses", type=click.IntRange(min=1), default=1, show_default=True, help="Puzzles to show."
)
@click.option(
    "--critical",
    is_flag=True,
    help="Instead, count every critical puzzle (no clue can go: minimal, as Sudoku people say) by its "
    "number of clues, in all and up to symmetry, without storing them (boards of at most 50,000,000 Latin "
    "boards: 4x4 and 6x6 Sudoku, Latin squares up to order 5).",
)
@jobs_option("--critical: processes at work.")
@click.option(
    "--checkpoint",
    type=click.Path(dir_okay=False),
    help="--critical: record each finished class of solutions in FILE; the same command resumes after an "
    "interruption.",
)
@progress_option
@json_option()
def minimal(
    target: str,
    multiset: str | None,
    clues: str | None,
    witnesses: int,
    critical: bool,
    jobs: int,
    checkpoint: str | None,
    progress: bool | None,
    as_json: bool,
) -> None:
    """The fewest clues of a Latin puzzle on an empty BOARD (over all its Latin boards, one per symmetry
    class), or of a puzzle for one full Latin board (a FILE or --clues holding every point), exactly; with
    --critical, how many critical puzzles an empty BOARD has, by number of clues."""
    from dlx_latin.puzzles.minimal import Minimum, minimal_puzzles, smallest_puzzle
    from symmetry.counting import all_classes
    from symmetry.groups import automorphism_elements

    pb = load_target(target, multiset, clues)
    if not critical and (jobs != 1 or checkpoint):
        raise click.UsageError("--jobs and --checkpoint go with --critical")
    if critical:
        if pb.clues:
            raise click.UsageError("minimal --critical counts the puzzles of an empty BOARD")
        _critical_census(pb, jobs, checkpoint, progress, as_json)
        return
    if pb.is_full():
        if not pb.is_partial_latin():
            raise click.UsageError("the full labelling given is not a Latin board")
        puzzle = smallest_puzzle(pb)
        assert puzzle is not None
        found = Minimum(len(puzzle.clues), (puzzle,))
    elif pb.clues:
        raise click.UsageError("minimal takes an empty BOARD or a full Latin board, not a partial one")
    else:
        with progress_bar(progress, "classes of Latin boards found") as bar:  # listed only when needed
            classes = (f.labelling for f in all_classes(pb, bar))
            symmetries = automorphism_elements(pb.board)
            found = minimal_puzzles(pb, witnesses, classes, symmetries=symmetries)
    if as_json:
        spec = _spec(target, pb)
        shown = [json.loads(write_puzzle(w, None, spec)) for w in found.witnesses]
        click.echo(json.dumps({"clues": found.clues, "witnesses": shown}))
        return
    click.echo(plural(found.clues, "clue"))
    for w in found.witnesses:
        click.echo()
        click.echo(_grid_text(w.labelling(), pb.board))


def _critical_census(
    pb: PartialBoard, jobs: int, checkpoint: str | None, progress: bool | None, as_json: bool
) -> None:
    """Print the critical puzzles of an empty board by number of clues: in all, and classes."""
    from dlx_latin.puzzles.census import critical_census
    from symmetry.counting import all_classes
    from symmetry.nauty_form import point_automorphisms

    bar = ProgressBar(unit="classes of solutions") if wants_progress(progress) else None
    try:
        report = (lambda done, parts: bar(done, done / parts)) if bar else None
        census = critical_census(pb, all_classes(pb), point_automorphisms, checkpoint, jobs, report)
    finally:
        if bar:
            bar.close()
    sizes = sorted(census.puzzles)
    puzzles, classes = sum(census.puzzles.values()), sum(census.classes.values())
    if as_json:
        by_clues = {str(c): {"puzzles": census.puzzles[c], "classes": census.classes[c]} for c in sizes}
        click.echo(json.dumps({"critical": by_clues, "puzzles": puzzles, "classes": classes}))
        return
    width = max(len("puzzles"), len(f"{puzzles:,}"))
    click.echo(f"{'clues':>5}  {'puzzles':>{width}}  classes")
    for c in sizes:
        click.echo(f"{c:>5}  {census.puzzles[c]:>{width},}  {census.classes[c]:,}")
    click.echo(f"{'all':>5}  {puzzles:>{width},}  {classes:,}")


def _single_pass(target: str, pb: PartialBoard, how_many: int, fair: bool, rating: str | None, as_json: bool):
    """Print up to `how_many` single-pass puzzles (fair ones, of `rating`, when asked)."""
    from dlx_latin.puzzles.generate import single_pass_puzzles
    from dlx_latin.puzzles.proof import explain

    shown = 0
    boards = (SINGLE_PASS_BOARDS if fair or rating else 2) * how_many + 1
    for found in single_pass_puzzles(pb, boards):
        proof = explain(found.puzzle)
        if (fair or rating) and not proof.fair or rating not in (None, proof.rating):
            continue
        facts = {
            "clue_count": len(found.puzzle.clues),
            "critical": is_critical(found.puzzle),
            "fair": proof.fair,
            "rating": proof.rating,
            "score": proof.score,
        }
        shown += 1
        if as_json:
            record = json.loads(
                write_puzzle(found.puzzle, list(proof.labelling) if proof.fair else None, _spec(target, pb))
            )
            click.echo(json.dumps({**record, **facts}))
        else:
            verdict = f"fair, rated {proof.rating}" if proof.fair else "not fair"
            click.echo(f"# single-pass puzzle {shown}: {plural(facts['clue_count'], 'clue')}, {verdict}")
            click.echo(_grid_text(found.puzzle.labelling(), pb.board))
        if shown == how_many:
            return
    click.echo(f"dlx-latin: only {shown} such puzzles among the first {boards} Latin boards", err=True)
    if not shown:
        raise SystemExit(EXIT_NO_SOLUTION)


def _spec(target: str, pb: PartialBoard) -> str | None:
    """The board spec to record in a puzzle file: the BOARD argument when it is a spec."""
    return None if Path(target).is_file() else target


POINTS_PER_LINE = 12


def _grid_text(labelling: list, board: Board) -> str:
    """A labelling as text: a square board's grid, else lines of POINTS_PER_LINE labels in point order,
    each led by its first point's index (`render` draws any board)."""
    if board.shape:
        return format_grid(labelling, board.shape)
    shown = ["." if x is None else str(x) for x in labelling]
    width, lead = max(map(len, shown), default=1), len(str(len(shown)))
    return "\n".join(
        f"{start:>{lead}}: " + " ".join(x.rjust(width) for x in shown[start : start + POINTS_PER_LINE])
        for start in range(0, len(shown), POINTS_PER_LINE)
    )


def _explain(pb: PartialBoard, as_json: bool) -> dict:
    """Print the attrition proof of a puzzle; with --json return it as fields of the JSON output."""
    from dlx_latin.puzzles.proof import describe, explain, step_json

    proof = explain(pb)
    if as_json:
        steps = [step_json(s) for s in proof.steps]
        return {"proof": steps, "fair": proof.fair, "rating": proof.rating, "score": proof.score}
    click.echo("Each clue's label leaves the other points of its asterisms (saturation; not listed).")
    shown = [s for s in proof.steps if s.rule != "saturation"]
    for k, step in enumerate(shown, 1):
        click.echo(f"{k}. {describe(step, pb.board)}")
    empty = sum(x is None for x in proof.labelling)
    if proof.contradiction:
        click.echo(f"Contradiction: {proof.contradiction}: the clues admit no completion.")
    elif proof.fair:
        click.echo(f"Solved by attrition alone: fair, rated {proof.rating} (score {proof.score}).")
    else:
        click.echo(f"Attrition stops with {empty} empty points: not fair; the search finishes it.")
    click.echo()
    return {}


@click.command()
@target_argument
@multiset_option
@clues_option
@click.option(
    "--cap",
    type=click.IntRange(min=2, max=2**62),
    help="Count solutions up to this many (default 1000; with --batch, 2).",
)
@batch_options
@click.option("--critical", is_flag=True, help="--batch: also whether each unique puzzle is critical.")
@click.option("--rate", is_flag=True, help="--batch: also attrition's verdict: fair, rating, score.")
@json_option()
def check(
    target: str,
    multiset: str | None,
    clues: str | None,
    cap: int | None,
    batch_source: str | None,
    keep_blank: bool,
    jobs: int,
    progress: bool | None,
    critical: bool,
    rate: bool,
    as_json: bool,
) -> None:
    """Palomo's tests of a puzzle: partial Latin, completable, unique, critical, removable clues; for a
    Latin puzzle also fair (solved by attrition alone), its rating and score.  With --batch, a collection
    of puzzles of BOARD, one line each: solutions (up to --cap), unique; --critical and --rate add the
    costlier facts."""
    pb = load_target(target, multiset, clues)
    if batch_source is not None:
        from dlx_latin.cli.batch import run_batch

        code = run_batch(
            pb,
            batch_source,
            check=True,
            cap=cap or 2,
            jobs=jobs,
            progress=progress,
            as_json=as_json,
            critical=critical,
            rate=rate,
            keep_blank=keep_blank,
        )
        raise SystemExit(code)
    if jobs != 1 or progress is not None or critical or rate or keep_blank:
        raise click.UsageError("--jobs, --progress, --critical, --rate and --keep-blank go with --batch")
    from dlx_latin.puzzles.report import CAP, check_report

    cap = cap or CAP
    report = check_report(pb, cap)
    solutions = report["solutions"]
    if as_json:
        click.echo(json.dumps(report))
        return
    for key, value in report.items():
        shown = "n/a" if value is None else ("yes" if value is True else "no" if value is False else value)
        if key == "solutions" and solutions == cap:
            shown = f"at least {cap}"
        if key == "removable_clues" and value is not None:
            shown = ", ".join(map(str, value)) or "none"
        click.echo(f"{key.replace('_', ' ')}: {shown}")


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--to", "fmt", type=click.Choice(["native", "ipuz", "grid"]), required=True, help="Output format."
)
def convert(file: str, fmt: str) -> None:
    """Convert a puzzle FILE (native or ipuz Sudoku) to another format, on stdout."""
    puzzle = read_puzzle_file(Path(file))
    pb = puzzle.partial
    if fmt == "native":
        click.echo(write_puzzle(pb, puzzle.solution, puzzle.board_spec))
    elif fmt == "ipuz":
        click.echo(write_ipuz(pb, puzzle.solution, puzzle.source))
    else:
        if not pb.board.shape:
            raise GridStringError(f"grid strings are for square boards; {pb.board.name} is not one")
        click.echo(format_grid(pb.labelling(), pb.board.shape))
