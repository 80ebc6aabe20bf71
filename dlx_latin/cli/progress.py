"""A one-line progress bar on stderr, fed by the engine's progress callback."""

from __future__ import annotations

import sys
import time

import click


class ProgressBar:
    """Call it with (nodes, fraction_done) -- or whatever `unit` counts -- and it redraws at most ten times a
    second.  Close it when done."""

    def __init__(self, width: int = 30, unit: str = "nodes") -> None:
        self.width = width
        self.unit = unit
        self.start = time.monotonic()
        self.last = 0.0
        self.drawn = False

    def __call__(self, nodes: int, fraction: float) -> None:
        now = time.monotonic()
        if now - self.last < 0.1:
            return
        self.last = now
        filled = int(self.width * min(max(fraction, 0.0), 1.0))
        bar = "#" * filled + "-" * (self.width - filled)
        line = f"\r[{bar}] {100 * fraction:5.1f}%  {nodes:,} {self.unit}  {now - self.start:6.1f} s"
        click.echo(line, nl=False, err=True)
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            click.echo("\r\033[K", nl=False, err=True)


def wants_progress(flag: bool | None) -> bool:
    """--progress/--no-progress, defaulting to on when stderr is a terminal."""
    return flag if flag is not None else sys.stderr.isatty()
