"""The `dlx-latin` command line.

Exit codes: 0 ok, 1 error (bad input included), 2 usage, 3 no solution, 4 not unique, 130 interrupted.
Data goes to stdout; warnings, statistics and errors go to stderr, one line each.
"""

from __future__ import annotations

import importlib
import math
import os
import sys
import warnings
from collections.abc import Sequence
from typing import NoReturn

import click

from dlx_latin import __version__
from dlx_latin.cli.text import printable
from dlx_latin.errors import UserInputError

EXIT_NO_SOLUTION, EXIT_NOT_UNIQUE = 3, 4  # the commands' own codes, beside click's 2 (usage) and 1 (error)
MAX_JOBS = 256  # --jobs above this is a usage error: each job is a process or thread of this machine
JOBS = click.IntRange(min=1, max=MAX_JOBS)  # the type of every --jobs option
MAX_SECONDS = 10**6  # a time limit past this (11.6 days) is a usage error, as is NaN or infinity


class FiniteRange(click.FloatRange):
    """A float in a closed range, never NaN (which every comparison lets through) nor infinite."""

    name = "finite float range"

    def convert(self, value, param, ctx):  # noqa: ANN001, ANN201 (click's signature)
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


SECONDS = FiniteRange(min=0, max=MAX_SECONDS)  # the type of every time limit in seconds

# command name -> module defining it; a command's module is imported only when it runs, so that
# `dlx-latin xc count` starts without loading the board families (and numpy)
COMMANDS = {
    "boards": "dlx_latin.cli.latin",
    "info": "dlx_latin.cli.latin",
    "count": "dlx_latin.cli.latin",
    "estimate": "dlx_latin.cli.latin",
    "enumerate": "dlx_latin.cli.latin",
    "solve": "dlx_latin.cli.latin",
    "check": "dlx_latin.cli.latin",
    "generate": "dlx_latin.cli.latin",
    "minimal": "dlx_latin.cli.latin",
    "convert": "dlx_latin.cli.latin",
    "xc": "dlx_latin.cli.xc",
    "jigsaw": "dlx_latin.cli.jigsaw",
    "approx": "dlx_latin.cli.approx",
    "kenken": "dlx_latin.cli.kenken",
    "catalog": "dlx_latin.cli.catalog",
    "render": "dlx_latin.cli.catalog",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        return getattr(importlib.import_module(COMMANDS[name]), name.replace("enumerate", "enumerate_"))


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="dlx-latin")
def cli() -> None:
    """Count, enumerate and solve Latin boards and exact-cover problems.

    BOARD is a spec such as latin:5, sudoku:2x3, hexagon:3 (see `dlx-latin boards`) or a board JSON file.
    """


NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())  # click >= 8.2


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    click.echo(f"dlx-latin: warning: {message}", err=True)


def fail(message: str, code: int = 1) -> int:
    """Report a failure as one line on stderr (control characters shown escaped); `code`, to exit with."""
    click.echo(f"dlx-latin: error: {printable(message)}", err=True)
    return code


def main() -> NoReturn:
    """Console entry point: `run` the command line's arguments and exit with its code."""
    sys.exit(run(sys.argv[1:]))


def run(args: Sequence[str]) -> int:
    """Run one command line (without the program's name); its exit code.  Every failure is one line on
    stderr and a non-zero code.

    Bad input (UserInputError) and usage errors are the expected failures; disk, database and memory
    failures are reported by what failed.  Anything else is a bug, reported in one line as well (set
    DLX_LATIN_DEBUG=1 for its traceback).  The tests call this in-process.
    """
    warnings.showwarning = _show_warning
    try:
        with cli.make_context("dlx-latin", list(args)) as ctx:  # not cli.main: it prints a bare newline
            cli.invoke(ctx)  # on Ctrl-C, before the one line below
    except click.exceptions.Exit as e:
        return e.exit_code
    except SystemExit as e:  # a command's own exit code (3: no solution, 4: not unique)
        return e.code if isinstance(e.code, int) else 1
    except NO_ARGS_IS_HELP as e:  # `dlx-latin` or `dlx-latin xc` alone: the help, as asked
        e.show()
        return e.exit_code
    except click.ClickException as e:
        ctx = getattr(e, "ctx", None)
        hint = f" (see '{ctx.command_path} --help')" if isinstance(e, click.UsageError) and ctx else ""
        return fail(e.format_message() + hint, e.exit_code)
    except (KeyboardInterrupt, click.exceptions.Abort):  # click turns Ctrl-C into Abort
        click.echo("dlx-latin: interrupted", err=True)
        return 130
    except UserInputError as e:
        return fail(str(e), e.exit_code)
    except BrokenPipeError:  # the reader went away (`dlx-latin enumerate ... | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as e:  # noqa: BLE001 -- the last resort: one line, never a traceback
        if os.environ.get("DLX_LATIN_DEBUG"):
            raise
        return fail(describe(e))
    return 0


def describe(error: Exception) -> str:
    """One line for a failure that is not bad input: what failed, in the user's terms."""
    import sqlite3

    if isinstance(error, MemoryError):
        return "out of memory"
    if isinstance(error, RecursionError):
        return "input nested too deeply"
    if isinstance(error, OSError):
        where = f": {error.filename}" if error.filename else ""
        return f"{error.strerror or error}{where}"
    if isinstance(error, sqlite3.Error):
        return f"catalog database: {error}"
    return f"internal error ({type(error).__name__}: {error}); set DLX_LATIN_DEBUG=1 for the traceback"
