"""`dlx-latin approx run|bench|generate`: approximation algorithms for C-PLSE beside exact optima."""

from __future__ import annotations

import importlib.util
import json
from fractions import Fraction

import click

from dlx_latin.approx.algorithms import ALGORITHMS, PATHWIDTH
from dlx_latin.approx.instance import CONDITIONS
from dlx_latin.cli import FiniteRange
from dlx_latin.cli.options import json_option

condition_option = click.option(
    "--condition",
    type=click.Choice(list(CONDITIONS)),
    default="null",
    show_default=True,
    help="The extra condition C.",
)
order_option = click.option("--n", "n", type=click.IntRange(min=1, max=64), default=9, show_default=True)
density_option = click.option(
    "--density",
    type=FiniteRange(0, 1),
    default=0.4,
    show_default=True,
    help="Share of filled cells in L.",
)
hard_option = click.option(
    "--hard", is_flag=True, help="Instances as in the paper's hardness proofs (null: Thm 2, fut: Thm 4)."
)
r_option = click.option(
    "--r",
    "r",
    type=click.IntRange(min=0),
    default=None,
    help="Local searches: swap r' <= r packed sets for r' + 1 [default: 2; pathwidth local search 4].",
)
pathwidth_option = click.option(
    "--pathwidth",
    type=click.IntRange(min=1),
    default=PATHWIDTH,
    show_default=True,
    help="Pathwidth local search: only swaps whose conflict graph has pathwidth at most this.",
)


@click.group()
def approx() -> None:
    """Fill as many empty cells as possible (C-PLSE, Haraguchi & Ono): greedy, matching, local searches."""


def need_scipy() -> None:
    """Refuse, in one line, a command that needs the approx extra (its --help works without it)."""
    if importlib.util.find_spec("scipy") is None:
        raise click.ClickException("this command needs scipy; in the checkout: pip install -e '.[approx]'")


@approx.command(name="run")
@click.argument("instance", type=click.Path(dir_okay=False))
@click.option("--algorithm", type=click.Choice(ALGORITHMS), default="greedy", show_default=True)
@r_option
@pathwidth_option
@click.option("--seed", type=int, default=0, show_default=True, help="Orders for greedy (and its start).")
@json_option("One JSON object: sizes, ratio, the filled grid.")
def run_command(
    instance: str, algorithm: str, r: int | None, pathwidth: int, seed: int, as_json: bool
) -> None:
    """Run one algorithm on an INSTANCE file and report |A| beside the exact optimum |A*|, the theorem's
    bound and the ratio these parameters prove (checked: a run below it is a bug and exits non-zero)."""
    need_scipy()
    from dlx_latin.approx.algorithms import run
    from dlx_latin.approx.exact import optimum
    from dlx_latin.approx.experiments import bound
    from dlx_latin.approx.instance import read_instance

    if r is None:
        r = 4 if algorithm == "pathwidth-local-search" else 2
    inst = read_instance(instance)
    found = run(inst, algorithm, r, seed, pathwidth)
    best = len(optimum(inst))
    ratio = Fraction(len(found), best) if best else Fraction(1)
    floor, theorem = bound(inst, algorithm, r, pathwidth)
    if ratio < floor:
        raise click.ClickException(f"{algorithm} reached {float(ratio):.3f}, below the proven {floor}: a bug")
    grid = inst.grid(found)
    if as_json:
        record = {"algorithm": algorithm, "filled": len(found), "optimum": best, "ratio": float(ratio)}
        fields = {"bound": theorem, "checked_bound": str(floor), "empty": len(inst.empty), "grid": grid}
        click.echo(json.dumps({**record, **fields}))
        return
    checked = "" if str(floor) in theorem else f"; checked >= {floor}"
    click.echo(
        f"{algorithm}: filled {len(found)} of {len(inst.empty)} empty cells; optimum {best}; ratio "
        f"{float(ratio):.3f} (proven bound {theorem}{checked})"
    )
    width = len(str(inst.n))
    for row in grid:
        click.echo(" ".join(str(k).rjust(width) if k else ".".rjust(width) for k in row))


@approx.command(name="generate")
@condition_option
@order_option
@density_option
@click.option("--seed", type=int, default=0, show_default=True)
@hard_option
def generate_command(condition: str, n: int, density: float, seed: int, hard: bool) -> None:
    """Print a random instance as JSON (the format `approx run` reads)."""
    from dlx_latin.approx.experiments import random_instance

    try:
        inst = random_instance(condition, n, density, seed, hard=hard)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    click.echo(json.dumps(inst.to_json()))


@approx.command(name="bench")
@condition_option
@order_option
@click.option("--instances", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Instance k uses seed + k.")
@density_option
@r_option
@click.option(
    "--pathwidth-r",
    type=click.IntRange(min=0),
    default=4,
    show_default=True,
    help="Pathwidth local search: swap r' <= this many packed sets.",
)
@pathwidth_option
@hard_option
@click.option("--plot", type=click.Path(dir_okay=False), help="Also draw the ratios as an SVG file.")
@json_option("One JSON object: the settings and a row per algorithm.")
def bench_command(
    condition: str,
    n: int,
    instances: int,
    seed: int,
    density: float,
    r: int | None,
    pathwidth_r: int,
    pathwidth: int,
    hard: bool,
    plot: str | None,
    as_json: bool,
) -> None:
    """Every applicable algorithm on random instances: min and mean |A| / |A*| beside the proven bound.
    Any ratio below its bound is a bug and stops the run with an error."""
    need_scipy()
    from dlx_latin.approx.experiments import bench

    try:
        rows, exact_seconds = bench(
            condition, n, instances, seed, density, 2 if r is None else r, hard, pathwidth_r, pathwidth
        )
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    if plot:
        from pathlib import Path

        from dlx_latin.approx.plot import ratio_svg

        title = f"{condition}, n = {n}: {instances} random instances (red: lowest ratio the bounds allow)"
        Path(plot).write_text(ratio_svg(rows, title))
    if as_json:
        fields = {"condition": condition, "n": n, "instances": instances, "density": density, "seed": seed}
        table = [
            {
                "algorithm": row.algorithm,
                "min_ratio": row.minimum,
                "mean_ratio": row.mean,
                "bound": row.theorem,
                "checked_bound": str(row.floor),
                "seconds": row.seconds,
            }
            for row in rows
        ]
        click.echo(json.dumps({**fields, "exact_seconds": exact_seconds, "rows": table}))
        return
    click.echo(
        f"# {condition}, n = {n}, {instances} instances, density {density}, seed {seed}; exact optima "
        f"{exact_seconds:.2f} s"
    )
    click.echo(f"{'algorithm':22s} {'min':>6s} {'mean':>6s}  {'bound':18s} {'checked':>8s} {'seconds':>8s}")
    for row in rows:
        click.echo(
            f"{row.algorithm:22s} {row.minimum:6.3f} {row.mean:6.3f}  {row.theorem:18s} {str(row.floor):>8s} "
            f"{row.seconds:8.3f}"
        )
