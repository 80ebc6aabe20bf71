"""Progress on stderr for long work, fed by the engine's progress callback: tqdm's bar, with the fraction
done (Knuth's estimate for a search), the rate, the time spent and the time left."""

from __future__ import annotations

import sys


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
            leave=False,
            dynamic_ncols=True,
            bar_format="{percentage:5.1f}%|{bar}| {desc} [{elapsed}<{remaining}]",
        )
        self.done = 0

    def __call__(self, done: int, fraction: float) -> None:
        fraction = min(max(fraction, 0.0), 1.0)
        self.done = done
        elapsed = self.bar.format_dict["elapsed"] or 1e-9
        self.bar.set_description_str(f"{done:,} {self.unit}, {done / elapsed:,.0f}/s", refresh=False)
        self.bar.update(fraction - self.bar.n)

    def close(self) -> None:
        self.bar.close()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def wants_progress(flag: bool | None) -> bool:
    """--progress/--no-progress, defaulting to on when stderr is a terminal."""
    return flag if flag is not None else sys.stderr.isatty()
