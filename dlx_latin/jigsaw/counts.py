"""Jigsaw Latin squares over all covers (A172478).

They are counted cover by cover, one cover per orbit of the square's 8 symmetries (a symmetry of the
square maps the jigsaw Latin squares of a cover onto those of its image), each count weighted by its
orbit's size; each cover's count fixes the labels of one asterism and multiplies by n! (`count_completions`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from functools import partial

from dlx_latin.boards import BoardWarning, board_from_spec
from dlx_latin.jigsaw.dissections import covers_up_to_symmetry
from dlx_latin.latin import PartialBoard, count_completions
from dlx_latin.workers import process_pool


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


def jigsaw_count(n: int, jobs: int = 1) -> int:
    """The number of jigsaw Latin squares of order n, over all covers (A172478).

    >>> [jigsaw_count(n) for n in range(1, 5)]
    [1, 4, 72, 13872]
    """
    if n == 1:
        return 1
    return sum(orbit * count for _, orbit, count in per_cover_counts(n, jobs))
