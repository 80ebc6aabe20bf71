"""The first line of a benchmark's output: the date, the machine and the exact command, for RESULTS.md."""

from __future__ import annotations

import os
import platform
import sys
import time


def header() -> str:
    """'# date, machine, cores, Python; command: python benchmarks/NAME.py ARGS' for the running script."""
    script = os.path.relpath(sys.argv[0]) if sys.argv[0] else "python"
    return (
        f"# {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; command: python {' '.join([script, *sys.argv[1:]])}"
    )
