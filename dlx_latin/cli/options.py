"""The options several commands share, defined once: what they parse and how they are named; each command
gives its own help line where the option means something particular to it."""

from __future__ import annotations

from collections.abc import Callable

import click

from dlx_latin.cli import JOBS
from dlx_latin.exact_cover.kernel import MAX_MEMO_SLOTS

Decorator = Callable[[Callable], Callable]

target_argument = click.argument("target", metavar="FILE|BOARD")
multiset_option = click.option(
    "--multiset", metavar="M", help="Labels, e.g. 1,1,2,2 or 1^2,2^2 (default 1..k)."
)
clues_option = click.option("--clues", metavar="GRID", help="Clues as a grid string (square boards).")
progress_option = click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress on stderr: done, rate, time left (default: on a terminal).",
)
no_memo_option = click.option(
    "--no-memo", is_flag=True, help="Raw search: visit every node (no memo of finished subtrees)."
)
checkpoint_option = click.option(
    "--checkpoint",
    metavar="FILE",
    help="Record finished parts of the count in FILE; the same command resumes after an interruption.",
)
memo_size_option = click.option(
    "--memo-size",
    type=click.IntRange(min=2, max=MAX_MEMO_SLOTS),
    metavar="N",
    help="Entries of the count memo (default: 64 MiB).",
)


def json_option(help: str = "Print JSON.") -> Decorator:
    """--json (the parameter `as_json`): every command that prints results takes it."""
    return click.option("--json", "as_json", is_flag=True, help=help)


def jobs_option(help: str) -> Decorator:
    """--jobs N, 1 to MAX_JOBS (each job is a process or a thread of this machine)."""
    return click.option("--jobs", type=JOBS, default=1, show_default=True, help=help)


def scheduler_option(help: str = "Work the parts on a Dask cluster at tcp://HOST:PORT.") -> Decorator:
    """--scheduler ADDR: a Dask scheduler's address."""
    return click.option("--scheduler", metavar="ADDR", help=help)


def memo_setting(no_memo: bool, memo_size: int | None) -> bool | int:
    """The engine's `memo` argument from --no-memo and --memo-size."""
    return False if no_memo else (memo_size or True)
