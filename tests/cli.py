"""Running the command line as a user does: in-process (`run_cli`, click's test runner around the same
entry point the console script calls) or, where a real process matters -- signals, exit on SIGKILL,
start-up -- a fresh `python -m dlx_latin` process (`run_process`)."""

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from dlx_latin.cli import run

EXAMPLES = Path(__file__).parent.parent / "examples"


@dataclass
class Ran:
    """What a command printed and its exit code (the fields of a CompletedProcess that tests read)."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str


def run_cli(*args: str, stdin: str | None = None, timeout: float | None = None) -> Ran:
    """Run `dlx-latin ARGS...` in this process, output captured; standard input is `stdin` or empty.  With a
    `timeout` (seconds), in a fresh process that is killed then, as hostile inputs and long runs need."""
    if timeout is not None:
        done = run_process(*args, stdin=stdin, timeout=timeout)
        return Ran(tuple(args), done.returncode, done.stdout, done.stderr)
    with CliRunner().isolation(input=stdin) as streams:
        code = run(args)
    return Ran(args, code, streams[0].getvalue().decode(), streams[1].getvalue().decode())


def run_process(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `dlx-latin ARGS...` as a fresh process with text output captured; standard input is `stdin` or
    closed."""
    return subprocess.run(
        [sys.executable, "-m", "dlx_latin", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )
