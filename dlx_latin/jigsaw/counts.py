"""Jigsaw Latin squares over all covers (A172478).

They are counted cover by cover, one cover per orbit of the square's 8 symmetries (a symmetry of the
square maps the jigsaw Latin squares of a cover onto those of its image), each count weighted by its
orbit's size; each cover's count fixes the labels of one asterism and multiplies by n! (`count_completions`).
The whole count is a sum over parts of PART_COVERS covers (in the order of their region strings), which
processes or a Dask cluster count, and which a checkpoint file records as they finish (by a digest of
their region strings), so that a rerun counts only the parts missing.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import nullcontext
from functools import partial

from dlx_latin.boards import BoardWarning, board_from_spec
from dlx_latin.exact_cover.checkpoint import WholeCounts
from dlx_latin.jigsaw.dissections import covers_up_to_symmetry
from dlx_latin.latin import PartialBoard, count_completions
from dlx_latin.workers import as_finished, process_pool

PART_COVERS = 512  # covers counted by one task of a partitioned count


def cover_board(regions: str) -> PartialBoard:
    """The empty jigsaw board of one cover (region string)."""
    with warnings.catch_warnings():  # a region may be a whole row or column: the board keeps it once
        warnings.simplefilter("ignore", BoardWarning)
        return PartialBoard(board_from_spec(f"jigsaw:{regions}"))


def cover_count(regions: str, limit: int | None = None) -> int:
    """The jigsaw Latin squares on one cover (region string), counting at most `limit` if given."""
    return count_completions(cover_board(regions), limit=limit)


def per_cover_counts(
    n: int, jobs: int = 1, limit: int | None = None, progress: Callable[[int, float], object] | None = None
) -> Iterator[tuple[str, int, int]]:
    """(canonical cover, orbit size under the square's symmetries, jigsaw Latin squares on it, at most
    `limit` if given), as they are counted, in the order of the region strings; `jobs` > 1 counts in that
    many processes; `progress(covers done, fraction)` after each cover."""
    orbits = sorted(covers_up_to_symmetry(n).items())
    task = partial(cover_count, limit=limit)
    with process_pool(jobs) if jobs > 1 else nullcontext() as pool:
        regions = [r for r, _ in orbits]
        counts: Iterator[int] = pool.map(task, regions, chunksize=64) if pool else map(task, regions)
        for done, ((r, orbit), c) in enumerate(zip(orbits, counts, strict=True), start=1):
            yield r, orbit, c
            if progress is not None:
                progress(done, done / len(orbits))


def cover_parts(n: int) -> list[tuple[str, list[tuple[str, int]]]]:
    """The covers up to symmetry (with orbit sizes) in parts of PART_COVERS, each with its digest."""
    orbits = sorted(covers_up_to_symmetry(n).items())
    parts = []
    for at in range(0, len(orbits), PART_COVERS):
        part = orbits[at : at + PART_COVERS]
        text = "\n".join(f"{regions} {orbit}" for regions, orbit in part)
        parts.append((f"jigsaw {n} " + hashlib.sha256(text.encode()).hexdigest(), part))
    return parts


def part_count(part: list[tuple[str, int]]) -> int:
    """The jigsaw Latin squares of a part's covers, each weighted by its orbit's size (a worker's task)."""
    return sum(orbit * cover_count(regions) for regions, orbit in part)


def jigsaw_count(
    n: int,
    jobs: int = 1,
    executor: Executor | None = None,
    checkpoint: str | None = None,
    progress: Callable[[int, float], object] | None = None,
) -> int:
    """The number of jigsaw Latin squares of order n, over all covers (A172478): parts of covers counted
    here, in `jobs` processes or on `executor` (a Dask client's), recorded in `checkpoint` as they finish;
    `progress(parts done, fraction)`.

    >>> [jigsaw_count(n) for n in range(1, 5)]
    [1, 4, 72, 13872]
    """
    if n == 1:
        return 1
    parts = cover_parts(n)
    recorded = WholeCounts(checkpoint) if checkpoint is not None else None
    known = recorded.done if recorded is not None else {}
    total = sum(known[key] for key, _ in parts if key in known)
    todo = [(key, part) for key, part in parts if key not in known]
    done = len(parts) - len(todo)
    with nullcontext(executor) if executor is not None or jobs == 1 else process_pool(jobs) as pool:
        if pool is None:
            finished: Iterator[tuple[str, int]] = ((key, part_count(part)) for key, part in todo)
        else:
            finished = ((key, count) for (key, _), count in as_finished(pool, _keyed_count, todo))
        for key, count in finished:
            total += count
            done += 1
            if recorded is not None:
                recorded.add({key: count})
            if progress is not None:
                progress(done, done / len(parts))
    return total


def _keyed_count(keyed: tuple[str, list[tuple[str, int]]]) -> int:
    """part_count of a (key, part) pair: the task a pool runs."""
    return part_count(keyed[1])
