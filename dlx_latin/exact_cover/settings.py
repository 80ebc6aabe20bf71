"""How a count runs, as one value passed down every layer: jobs, executor, progress, memo and checkpoint."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from dlx_latin.exact_cover.kernel import Progress

if TYPE_CHECKING:  # concurrent.futures (and the logging it loads) stays out of the command line's start-up
    from concurrent.futures import Executor


@dataclass(frozen=True)
class CountSettings:
    """How to run a count; never what is counted, so any count takes any settings.

    jobs: parallel workers (threads for one problem, processes for many); executor: where subproblems run
    instead (a Dask client's `get_executor()`); progress(nodes, fraction_done): called now and then;
    memo: True, False or a number of entries (see `ExactCoverProblem.count`); checkpoint: a file recording
    finished parts, so that the same count after an interruption resumes.
    """

    jobs: int | None = None
    executor: Executor | None = None
    progress: Progress | None = None
    memo: bool | int = True
    checkpoint: str | os.PathLike | None = None

    def __post_init__(self) -> None:
        if self.jobs is not None and self.jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {self.jobs}")

    def updated(self, **changes: Any) -> CountSettings:
        """These settings with some fields changed (None values leave a field as it is)."""
        changes = {k: v for k, v in changes.items() if v is not None}
        return replace(self, **changes) if changes else self

    @property
    def parallel(self) -> bool:
        """Whether subproblems run elsewhere than in this thread."""
        return (self.jobs or 1) > 1 or self.executor is not None


DEFAULT = CountSettings()
