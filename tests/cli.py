"""Running the command line as a user does: a fresh `python -m dlx_latin` process."""

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).parent.parent / "examples"


def run_cli(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run `dlx-latin ARGS...` with text output captured; standard input is `stdin` or closed."""
    return subprocess.run(
        [sys.executable, "-m", "dlx_latin", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )
