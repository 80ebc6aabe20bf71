"""One runner for a count split into parts: the parts run here, in worker processes (`workers`) or on an
executor (a Dask client's), each finished part recorded in the settings' checkpoint under its key, so a
rerun counts only the parts not recorded yet, and progress reported with a share per part.

Every strategy that sums the counts of independent parts (Latin squares in halves, Sudoku by bands, the
jigsaw walk's parts) goes through `count_in_parts`, so --jobs, --checkpoint, --scheduler and --progress mean
the same in each and none can drop them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import nullcontext
from functools import partial

from dlx_latin.exact_cover.checkpoint import WholeCounts
from dlx_latin.exact_cover.settings import DEFAULT, CountSettings
from dlx_latin.workers import as_finished, process_pool

Part = tuple[str, tuple]  # (key: what the part is, independent of --jobs; arguments of the part's count)


def count_in_parts(
    function: Callable[..., int],
    parts: Sequence[Part],
    settings: CountSettings = DEFAULT,
    shuffle: int | None = None,
) -> int:
    """The sum of function(*arguments) over the parts, run as `settings` say (jobs, executor, checkpoint,
    progress(parts done, fraction done)); `shuffle`: a seed to run the parts in a shuffled but fixed order
    (for parts of very different sizes, so the fraction done gives an honest ETA).  `function` is a
    module-level function when the parts run in processes.

    >>> count_in_parts(pow, [("2^3", (2, 3)), ("3^2", (3, 2))])
    17
    """
    keys = [key for key, _ in parts]
    if len(set(keys)) != len(keys):
        raise ValueError("two parts share a key: their records in a checkpoint would be confused")
    recorded = WholeCounts(settings.checkpoint) if settings.checkpoint is not None else None
    known = recorded.done if recorded is not None else {}
    total = sum(known[key] for key in keys if key in known)
    todo = [(key, arguments) for key, arguments in parts if key not in known]
    if shuffle is not None:
        random.Random(shuffle).shuffle(todo)
    done = len(parts) - len(todo)
    for key, value in _finished(function, todo, settings):
        total += value
        done += 1
        if recorded is not None:
            recorded.add({key: value})
        if settings.progress is not None:
            settings.progress(done, done / len(parts))
    return total


def _finished(
    function: Callable[..., int], todo: list[Part], settings: CountSettings
) -> Iterator[tuple[str, int]]:
    """(key, value) of each part as it finishes; a pool is left (its queued parts cancelled and its workers
    stopped) when the caller stops reading, Ctrl-C included."""
    if not settings.parallel or len(todo) < 2:
        for key, arguments in todo:
            yield key, function(*arguments)
        return
    own = settings.executor is None
    with process_pool(min(settings.jobs or 1, len(todo))) if own else nullcontext(settings.executor) as pool:
        for (key, _), value in as_finished(pool, partial(_keyed, function), todo):
            yield key, value


def _keyed(function: Callable[..., int], part: Part) -> int:
    """function(*arguments) of a (key, arguments) part: the task a pool runs."""
    return function(*part[1])
