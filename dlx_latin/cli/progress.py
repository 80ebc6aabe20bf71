"""Progress on stderr for long work, fed by the engine's progress callback: tqdm's bar, with the fraction
done (Knuth's estimate for a search), the rate, the time spent and the time left."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click


class ProgressBar:
    """Call it with (done, fraction_done) -- `done` counts `unit`s: search nodes, parts, classes -- and it
    redraws at most ten times a second.  Close it when done (it is also a context manager)."""

    def __init__(self, unit: str = "nodes") -> None:
        from tqdm import tqdm  # only commands that show progress pay for the import

        self.unit = unit
        self.bar = tqdm(
            total=1.0,
            file=sys.stderr,
            mininterval=0.1,
            miniters=0,  # redraw by time alone: tqdm's adaptive default froze the bar when fractions crept
            leave=False,
            dynamic_ncols=True,
            bar_format="{percentage:5.1f}%|{bar}| {desc} [{elapsed}<{remaining}]",
        )
        self.done = 0

    def __call__(self, done: int, fraction: float) -> None:
        fraction = min(max(fraction, 0.0), 1.0)
        self.done = done
        elapsed = self.bar.format_dict["elapsed"] or 1e-9
        rate = done / elapsed
        shown = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}"
        self.bar.set_description_str(f"{done:,} {self.unit}, {shown}/s", refresh=False)
        self.bar.update(fraction - self.bar.n)

    def echo(self, text: str) -> None:
        """Print a result on stdout without tearing the bar (it is cleared and redrawn around it)."""
        with self.bar.external_write_mode(file=sys.stdout):
            click.echo(text)

    def close(self) -> None:
        self.bar.close()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def wants_progress(flag: bool | None) -> bool:
    """--progress/--no-progress, defaulting to on when stderr is a terminal."""
    return flag if flag is not None else sys.stderr.isatty()


@contextmanager
def progress_bar(flag: bool | None, unit: str = "nodes") -> Iterator[ProgressBar | None]:
    """A ProgressBar when --progress asks for one (`wants_progress`), else None; closed at the end."""
    bar = ProgressBar(unit) if wants_progress(flag) else None
    try:
        yield bar
    finally:
        if bar is not None:
            bar.close()


def echo(text: str, bar: ProgressBar | None) -> None:
    """A result on stdout while a bar may be drawn on stderr."""
    if bar is None:
        click.echo(text)
    else:
        bar.echo(text)
