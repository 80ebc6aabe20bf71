"""`dlx-latin xc`: generalized exact cover on files in Knuth's DLX format."""

from __future__ import annotations

import json
import sys
import time

import click

from dlx_latin.errors import InputFileError
from dlx_latin.formats.dlx import DLXProblem, read_dlx


def read_input(path: str) -> str:
    """The text of a file, or of standard input for '-'."""
    try:
        if path == "-":
            if sys.stdin is None:
                raise InputFileError("standard input is closed")
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise InputFileError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise InputFileError(f"cannot read {path}: not UTF-8 text") from None


def _load(path: str) -> DLXProblem:
    return read_dlx(read_input(path))


def _report_stats(search, seconds: float) -> None:
    click.echo(f"dlx-latin: {search.nodes} nodes, {search.updates} updates, {seconds:.3f} s", err=True)


@click.group()
def xc() -> None:
    """Generalized exact cover in Knuth's DLX format (dlx1/dlx2 files)."""


@xc.command()
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help='Print {"count": N}.')
@click.option("--stats", is_flag=True, help="Report nodes, updates and time on stderr.")
def count(file: str, as_json: bool, stats: bool) -> None:
    """Count the solutions of FILE ('-' for standard input) without listing them."""
    problem = _load(file).problem
    start = time.perf_counter()
    search = problem.search()
    n = search.count()
    if stats:
        _report_stats(search, time.perf_counter() - start)
    click.echo(json.dumps({"count": n}) if as_json else n)


@xc.command()
@click.argument("file")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="Stop after N solutions.")
@click.option("--json", "as_json", is_flag=True, help='Print {"solutions": [[option lines...], ...]}.')
def solve(file: str, limit: int | None, as_json: bool) -> None:
    """List the solutions of FILE ('-' for standard input), each as its option lines."""
    loaded = _load(file)
    solutions = loaded.problem.solutions(limit)
    if as_json:
        found = [loaded.solution_lines(s) for s in solutions]
        click.echo(json.dumps({"solutions": found}))
        return
    n = 0
    for n, solution in enumerate(solutions, start=1):
        click.echo(f"solution {n}:")
        for line in loaded.solution_lines(solution):
            click.echo(f"  {line}")
    click.echo(f"dlx-latin: {n} solution{'s' if n != 1 else ''}", err=True)
