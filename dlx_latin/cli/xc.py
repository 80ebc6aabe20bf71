"""`dlx-latin xc`: generalized exact cover on files in Knuth's DLX format."""

from __future__ import annotations

import json
import time

import click

from dlx_latin.cli.options import (
    checkpoint_option,
    jobs_option,
    json_option,
    memo_setting,
    memo_size_option,
    no_memo_option,
    progress_option,
    scheduler_option,
)
from dlx_latin.cli.progress import ProgressBar, wants_progress
from dlx_latin.cli.text import printable
from dlx_latin.exact_cover import CountSettings, ExactCoverProblem
from dlx_latin.files import read_text
from dlx_latin.formats.dlx import DLXProblem, read_dlx


def read_input(path: str) -> str:
    """The text of a file, or of standard input for '-' (a regular file of bounded size)."""
    return read_text(path, "input file")


def _load(path: str, sharp: bool = False) -> DLXProblem:
    return read_dlx(read_input(path), sharp)


sharp_option = click.option(
    "--sharp",
    is_flag=True,
    help="Knuth's sharp preference: branch on primary items named '#...' first (unless another is forced).",
)


@click.group()
def xc() -> None:
    """Generalized exact cover in Knuth's DLX format (dlx1/dlx2/dlx3 files)."""


@xc.command()
@click.argument("file")
@json_option('Print {"count": N}.')
@jobs_option("Count with N threads sharing one memo.")
@scheduler_option("Count on a Dask cluster at tcp://HOST:PORT (extra 'dask').")
@progress_option
@click.option("--stats", is_flag=True, help="Report nodes, updates and time on stderr (serial runs).")
@no_memo_option
@memo_size_option
@checkpoint_option
@click.option(
    "--up-to",
    "up_to",
    type=click.Choice(["symmetry"]),
    help="Count classes of solutions under the problem's automorphisms (found by nauty; Burnside's lemma).",
)
@click.option(
    "--break-symmetry",
    is_flag=True,
    help="Count every solution, searching one branch per orbit of the problem's automorphisms.",
)
@sharp_option
def count(
    file: str,
    as_json: bool,
    jobs: int,
    scheduler: str | None,
    progress: bool | None,
    stats: bool,
    no_memo: bool,
    memo_size: int | None,
    checkpoint: str | None,
    up_to: str | None,
    break_symmetry: bool,
    sharp: bool,
) -> None:
    """Count the solutions of FILE ('-' for standard input) without listing them."""
    problem = _load(file, sharp).problem
    memo = memo_setting(no_memo, memo_size)
    bar = ProgressBar() if wants_progress(progress) else None
    start = time.perf_counter()
    if up_to or break_symmetry:
        flag = "--up-to symmetry" if up_to else "--break-symmetry"
        if scheduler or checkpoint:
            raise click.UsageError(f"--scheduler and --checkpoint do not go with {flag}")
        try:
            _count_with_symmetry(
                problem, bool(up_to), CountSettings(jobs=jobs, progress=bar, memo=memo), as_json, stats
            )
        finally:
            if bar:
                bar.close()
        return
    try:
        if scheduler:
            from dlx_latin.distributed import dask_executor

            with dask_executor(scheduler) as (executor, workers):
                n = problem.count(
                    jobs=workers, executor=executor, progress=bar, memo=memo, checkpoint=checkpoint
                )
        elif jobs > 1 or checkpoint:
            n = problem.count(jobs=jobs, progress=bar, memo=memo, checkpoint=checkpoint)
        else:
            search = problem.search(memo=memo)
            n = search.count(bar)
            if stats:
                click.echo(
                    f"dlx-latin: {search.nodes} nodes, {search.updates} updates, "
                    f"{search.memo_hits} memo hits ({search.memo_slots} memo slots), "
                    f"{time.perf_counter() - start:.3f} s",
                    err=True,
                )
    finally:
        if bar:
            bar.close()
    click.echo(json.dumps({"count": n}) if as_json else n)


def _count_with_symmetry(
    problem: ExactCoverProblem, classes: bool, settings: CountSettings, as_json: bool, stats: bool
) -> None:
    """xc count --up-to symmetry (classes, by Burnside's lemma) or --break-symmetry (every solution)."""
    from dlx_latin.exact_cover.automorphisms import Automorphisms
    from dlx_latin.exact_cover.symmetric_counts import count_breaking_symmetry, count_classes

    start = time.perf_counter()
    autos = Automorphisms(problem.kernel_arrays)
    parts: list[int] = []
    if classes:
        found = count_classes(problem.kernel_arrays, settings, autos)
        n, detail = found.classes, f"{len(found.terms)} conjugacy classes"
    else:
        n = count_breaking_symmetry(problem.kernel_arrays, settings, autos, lambda k, _: parts.append(k))
        detail = f"{parts[0]} parts"
    if stats:
        click.echo(
            f"dlx-latin: {autos.order} automorphisms, {detail}, {time.perf_counter() - start:.3f} s", err=True
        )
    if as_json:
        click.echo(
            json.dumps(
                {"count": n, "automorphisms": autos.order} | ({"up_to": "symmetry"} if classes else {})
            )
        )
    else:
        click.echo(n)


@xc.command()
@click.argument("file")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="Stop after N solutions.")
@json_option('Print {"solutions": [[option lines...], ...]}.')
@sharp_option
def solve(file: str, limit: int | None, as_json: bool, sharp: bool) -> None:
    """List the solutions of FILE ('-' for standard input), each as its option lines."""
    loaded = _load(file, sharp)
    solutions = loaded.problem.solutions(limit)
    if as_json:
        found = [loaded.solution_lines(s) for s in solutions]
        click.echo(json.dumps({"solutions": found}))
        return
    n = 0
    for n, solution in enumerate(solutions, start=1):
        click.echo(f"solution {n}:")
        for line in loaded.solution_lines(solution):
            click.echo(f"  {printable(line)}")
    click.echo(f"dlx-latin: {n} solution{'s' if n != 1 else ''}", err=True)
