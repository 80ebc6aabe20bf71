"""`dlx-latin kenken solve|check|generate`: KenKen puzzles on the exact-cover kernel."""

from __future__ import annotations

import json

import click

from dlx_latin.cli import EXIT_NO_SOLUTION, EXIT_NOT_UNIQUE
from dlx_latin.cli.options import json_option
from dlx_latin.kenken import KenKen, random_kenken, read_kenken


@click.group()
def kenken() -> None:
    """KenKen: Latin squares whose cages meet +, -, *, / or = targets (files: docs/kenken.md)."""


def show(grid: list[list[int]]) -> None:
    width = len(str(len(grid)))
    for row in grid:
        click.echo(" ".join(str(v).rjust(width) for v in row))


@kenken.command(name="solve")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--limit", type=click.IntRange(min=1), default=1, show_default=True, help="Solutions to print.")
@click.option("--unique", is_flag=True, help="Fail (exit 4) unless the puzzle has exactly one solution.")
@json_option("One JSON object: the solutions as rows.")
def solve(file: str, limit: int, unique: bool, as_json: bool) -> None:
    """Print up to --limit solutions of a KenKen FILE (exit 3: none)."""
    puzzle = read_kenken(file)
    found = list(puzzle.solutions(max(limit, 2) if unique else limit))
    if unique and len(found) > 1:
        click.echo("dlx-latin: not unique: the puzzle has more than one solution", err=True)
        raise SystemExit(EXIT_NOT_UNIQUE)
    found = found[:limit]
    if as_json:
        click.echo(json.dumps({"solutions": found}))
    else:
        for k, grid in enumerate(found):
            if k:
                click.echo()
            show(grid)
    if not found:
        click.echo("dlx-latin: no solution", err=True)
        raise SystemExit(EXIT_NO_SOLUTION)


@kenken.command(name="check")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--cap", type=click.IntRange(min=2, max=2**62), default=1000, show_default=True, help="Count up to this."
)
@json_option("One JSON object: cages, solutions, unique.")
def check(file: str, cap: int, as_json: bool) -> None:
    """Count a KenKen FILE's solutions (up to --cap) and say whether it is a puzzle (exactly one)."""
    puzzle = read_kenken(file)
    solutions = puzzle.count(cap)
    report = {"n": puzzle.n, "cages": len(puzzle.cages), "solutions": solutions, "unique": solutions == 1}
    if as_json:
        click.echo(json.dumps(report))
        return
    shown = f"at least {cap}" if solutions == cap else str(solutions)
    click.echo(f"cages: {len(puzzle.cages)}\nsolutions: {shown}\nunique: {'yes' if solutions == 1 else 'no'}")


@kenken.command(name="generate")
@click.option("--n", "n", type=click.IntRange(min=1, max=9), default=6, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--max-cage", type=click.IntRange(min=1), default=4, show_default=True, help="Largest cage.")
@click.option("--unique", is_flag=True, help="Draw until the puzzle has exactly one solution.")
def generate(n: int, seed: int, max_cage: int, unique: bool) -> None:
    """Print a random KenKen puzzle as JSON (the format solve and check read): cages drawn on a random
    Latin square, their operations and targets read off it."""
    puzzle: KenKen = random_kenken(n, seed, max_cage, unique)
    click.echo(json.dumps(puzzle.to_json()))
