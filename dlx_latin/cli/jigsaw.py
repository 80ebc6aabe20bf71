"""`dlx-latin jigsaw covers|count|impossible|borders`: dissections of the square and jigsaw Latin squares."""

from __future__ import annotations

import json

import click

from dlx_latin.cli import SECONDS
from dlx_latin.cli.options import (
    checkpoint_option,
    jobs_option,
    json_option,
    progress_option,
    scheduler_option,
)
from dlx_latin.cli.progress import echo, progress_bar
from dlx_latin.cli.text import plural
from dlx_latin.distributed import dask_executor
from dlx_latin.jigsaw.borders import border_fillings, border_formula
from dlx_latin.jigsaw.counts import jigsaw_count, per_cover_counts
from dlx_latin.jigsaw.dissections import count_covers, covers, covers_up_to_symmetry
from dlx_latin.jigsaw.impossible import each_impossible_cover, impossible_cover

order_argument = click.argument("n", type=click.IntRange(min=1, max=9))


def echo_count(count: int, as_json: bool) -> None:
    """A count on stdout: the number, or {"count": N}."""
    click.echo(json.dumps({"count": count}) if as_json else count)


@click.group()
def jigsaw() -> None:
    """Jigsaw Sudoku: covers of the n x n square by n connected n-ominoes, and Latin squares on them."""


@jigsaw.command(name="covers")
@order_argument
@click.option("--count", "only_count", is_flag=True, help="Print only how many (A172477).")
@click.option(
    "--up-to",
    "up_to",
    type=click.Choice(["symmetry"]),
    help="One cover per orbit of the square's 8 symmetries.",
)
@click.option(
    "--method",
    type=click.Choice(["frontier", "exact-cover"]),
    default="frontier",
    show_default=True,
    help="How --count counts: memoized frontier search (n <= 8) or the exact-cover engine.",
)
@json_option('JSON lines (with orbit sizes up to symmetry); {"count"} with --count.')
def covers_command(n: int, only_count: bool, up_to: str | None, method: str, as_json: bool) -> None:
    """List the covers of the N x N square as region strings (boards `jigsaw:<regions>`)."""
    if up_to:
        orbits = covers_up_to_symmetry(n)
        if only_count:
            echo_count(len(orbits), as_json)
            return
        for regions, size in sorted(orbits.items()):
            click.echo(json.dumps({"regions": regions, "orbit_size": size}) if as_json else regions)
        return
    if only_count:
        echo_count(count_covers(n, method), as_json)
        return
    for regions in covers(n):
        click.echo(json.dumps({"regions": regions}) if as_json else regions)


@jigsaw.command(name="count")
@order_argument
@click.option("--per-cover", is_flag=True, help="JSON lines: each cover (up to symmetry), orbit size, count.")
@jobs_option("Processes counting covers.")
@scheduler_option("Count the parts on a Dask cluster at tcp://HOST:PORT.")
@checkpoint_option
@progress_option
@json_option('{"count": N} (--per-cover is JSON lines anyway).')
def count_command(
    n: int,
    per_cover: bool,
    jobs: int,
    scheduler: str | None,
    checkpoint: str | None,
    progress: bool | None,
    as_json: bool,
) -> None:
    """The number of jigsaw Latin squares of order N over all covers (A172478), counted in parts of covers
    (--checkpoint records them, so the same command resumes)."""
    if per_cover:
        if scheduler or checkpoint:
            raise click.UsageError(
                "--per-cover lists covers as they are counted: no --scheduler or --checkpoint"
            )
        for regions, orbit, count in per_cover_counts(n, jobs):
            click.echo(json.dumps({"regions": regions, "orbit_size": orbit, "count": count}))
        return
    with progress_bar(progress, "parts") as bar:
        if scheduler:
            with dask_executor(scheduler) as (executor, _):
                total = jigsaw_count(n, executor=executor, checkpoint=checkpoint, progress=bar)
        else:
            total = jigsaw_count(n, jobs, checkpoint=checkpoint, progress=bar)
    echo_count(total, as_json)


@jigsaw.command(name="impossible")
@click.argument("n", type=click.IntRange(min=1, max=128))
@json_option("JSON lines with orbit sizes.")
@jobs_option("Processes testing covers.")
@click.option("--construct", is_flag=True, help="Print one such cover for any N >= 4, built (not searched).")
@progress_option
def impossible_command(n: int, as_json: bool, jobs: int, construct: bool, progress: bool | None) -> None:
    """The covers of the N x N square that admit no jigsaw Latin square, one per symmetry orbit, as they are
    found, and (on stderr) how many covers that is in all; with --construct, one such cover for any N >= 4."""
    if construct:
        regions = impossible_cover(n)
        click.echo(json.dumps({"regions": regions}) if as_json else regions)
        return
    if n > 9:
        raise click.BadParameter(f"{n} is not in the range 1<=x<=9 (use --construct)", param_hint="N")
    found = {}
    with progress_bar(progress, "covers tried") as bar:
        for regions, orbit in each_impossible_cover(n, jobs, bar):
            found[regions] = orbit
            echo(json.dumps({"regions": regions, "orbit_size": orbit}) if as_json else regions, bar)
    covers, orbits = plural(sum(found.values()), "cover"), plural(len(found), "orbit")
    click.echo(f"{covers} in {orbits} admit no jigsaw Latin square", err=True)


@jigsaw.command(name="borders")
@click.argument("n", type=click.IntRange(min=1))
@click.option(
    "--method",
    type=click.Choice(["formula", "search"]),
    default="formula",
    show_default=True,
    help="The closed formula (any N) or an exact-cover count (small N).",
)
@json_option('{"count": N}.')
def borders_command(n: int, method: str, as_json: bool) -> None:
    """Fillings of the N x N square's border cells with 1..N, no label twice in a line (A173104)."""
    echo_count(border_formula(n) if method == "formula" else border_fillings(n), as_json)


@jigsaw.command(name="scs")
@click.argument("n", type=click.IntRange(min=2, max=9))
@jobs_option("Processes.")
@json_option("JSON lines: each cover, orbit size, fewest clues, a puzzle file.")
@checkpoint_option
@progress_option
def scs_command(n: int, jobs: int, as_json: bool, checkpoint: str | None, progress: bool | None) -> None:
    """Smallest critical sets: for every cover of the N x N square, the fewest clues of a jigsaw puzzle
    with one solution; prints how many covers need each number of clues ("none": no jigsaw Latin square).
    --checkpoint records each cover's minimum as it is found, so the same command resumes."""
    from dlx_latin.formats.puzzle import write_puzzle
    from dlx_latin.jigsaw.counts import cover_board
    from dlx_latin.jigsaw.critical import smallest_critical_sets

    tally: dict[int | None, int] = {}
    with progress_bar(progress, "covers") as bar:
        for regions, orbit, found in smallest_critical_sets(n, jobs, checkpoint, bar):
            clues = None if found is None else found[0]
            tally[clues] = tally.get(clues, 0) + orbit
            if as_json:
                record = {"regions": regions, "orbit_size": orbit, "clues": clues}
                if found is not None:
                    puzzle = cover_board(regions).with_clues(found[1])
                    record["puzzle"] = json.loads(write_puzzle(puzzle, None, f"jigsaw:{regions}"))
                echo(json.dumps(record), bar)
    if not as_json:
        click.echo("clues covers")
        for clues in sorted(tally, key=lambda k: (k is None, k or 0)):
            click.echo(f"{'none' if clues is None else clues} {tally[clues]}")


@jigsaw.command(name="cannibals")
@click.option("--dimension", type=click.IntRange(min=2, max=3), default=2, show_default=True)
@click.option("--seconds", type=SECONDS, default=30, show_default=True, help="Time for each search.")
@json_option("One JSON object: both searches' results.")
def cannibals_command(dimension: int, seconds: float, as_json: bool) -> None:
    """De Ruiter's cannibals: polyominoes (polycubes in 3-D) enclosing exactly their own number of cells.
    An exhaustive search over every fixed polyform of 1, 2, ... cells, as far as SECONDS allow, then the
    smallest cannibal built around box-shaped cavities (the thesis: 23 in 2-D, 139 in 3-D)."""
    from dlx_latin.jigsaw.cannibals import drawing, small_cases, smallest_constructed

    cases = list(small_cases(dimension, seconds))
    holed = next((c.size for c in cases if c.largest_interior), None)
    exhaustive_cannibal = next((c for c in cases if c.cannibal), None)
    built = smallest_constructed(dimension, seconds)
    best = exhaustive_cannibal.cannibal if exhaustive_cannibal else built[1] if built else None
    reach = cases[-1].size if cases else 0
    if as_json:
        record = {
            "dimension": dimension,
            "exhaustive": [
                {"size": c.size, "polyforms": c.polyforms, "largest_interior": c.largest_interior}
                for c in cases
            ],
            "exhaustive_reach": reach,
            "smallest_with_interior": holed,
            "cannibal": None
            if best is None
            else {
                "size": len(best),
                "found_by": "exhaustive" if exhaustive_cannibal else built[0],
                "cells": sorted(map(list, best)),
            },
        }
        click.echo(json.dumps(record))
        return
    kind = "polyominoes" if dimension == 2 else "polycubes"
    click.echo(f"# every fixed {kind[:-2] if dimension == 2 else kind[:-1]} of 1 to {reach} cells")
    click.echo(f"size {kind:>11s}  largest interior")
    for c in cases:
        click.echo(f"{c.size:4d} {c.polyforms:11d}  {c.largest_interior}")
    click.echo(f"smallest with an interior: {holed if holed else f'more than {reach} cells'}")
    if exhaustive_cannibal:
        click.echo(f"smallest cannibal: {exhaustive_cannibal.size} cells")
    else:
        click.echo(f"no cannibal of up to {reach} cells")
    if built:
        click.echo(f"# built around a {built[0]} cavity: a cannibal of {len(built[1])} cells")
        if dimension == 2:
            for line in drawing(built[1]):
                click.echo(line.rstrip())
