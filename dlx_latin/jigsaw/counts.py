"""Jigsaw Latin squares over all covers (A172478).

The whole count walks every cover of the square in C (`_placements.c`): it keeps one cover per orbit of
the square's 8 symmetries (the least region string of the orbit; a symmetry of the square maps the jigsaw
Latin squares of a cover onto those of its image) and adds its squares times the orbit's size.  A cover's
squares are counted by label placements: the cells of one label meet every row, column and region once,
and a square is a partition of the cells into such placements, n! times over (the labels of the first
row).  Covers met again up to row and column permutations, transposition and renaming (`cover_key`)
take their count from a memo kept by each process.  The walk is split into parts by its first
PREFIX_TILES tiles, which processes or a Dask cluster count and a checkpoint file records as they finish
(by their tiles), so a rerun counts only the parts missing.  `cover_count` counts one cover by
placements too, or with the generic engine (`count_completions`) when given a limit (`jigsaw impossible`
asks for at most one square).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import nullcontext
from functools import cache, partial

from dlx_latin.boards import BoardWarning, board_from_spec
from dlx_latin.exact_cover.settings import CountSettings
from dlx_latin.jigsaw import _placements
from dlx_latin.jigsaw.dissections import JigsawOrderError, covers_up_to_symmetry, square_transforms, tiles
from dlx_latin.latin import PartialBoard, count_completions
from dlx_latin.runner import count_in_parts
from dlx_latin.workers import process_pool

PREFIX_TILES = 2  # the first tiles fixed by a part (more after whole rows): most parts take seconds or less
MAX_ORDER = 8  # the walk keeps a cover's cells in 64 bits


def cover_board(regions: str) -> PartialBoard:
    """The empty jigsaw board of one cover (region string)."""
    with warnings.catch_warnings():  # a region may be a whole row or column: the board keeps it once
        warnings.simplefilter("ignore", BoardWarning)
        return PartialBoard(board_from_spec(f"jigsaw:{regions}"))


def cover_count(regions: str, limit: int | None = None) -> int:
    """The jigsaw Latin squares on one cover (region string): by label placements (`_placements.c`), or,
    given a `limit`, by the generic engine counting at most that many."""
    if limit is not None:
        return count_completions(cover_board(regions), limit=limit)
    return _placements.squares(*_numbered(regions))


def cover_key(regions: str) -> int:
    """A name of the cover (region string, order at most 7) up to permuting rows, permuting columns,
    transposing and renaming regions: covers sharing it have equally many squares, so the walk remembers
    counts by it (`_placements.c`); an image of a cover may still get another key (a miss, never an error)."""
    return _placements.key(*_numbered(regions))


def _numbered(regions: str) -> tuple[int, list[int]]:
    """(order, the cells' regions renamed 0, 1, ... by first appearance), as `_placements` takes a cover."""
    names: dict[str, int] = {}
    return round(len(regions) ** 0.5), [names.setdefault(x, len(names)) for x in regions]


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


@cache
def tiles_by_first(n: int) -> list[list[int]]:
    """The tiles of the n x n square as bitsets, listed under their first cell."""
    by_first: list[list[int]] = [[] for _ in range(n * n)]
    for tile in tiles(n):
        by_first[tile[0]].append(sum(1 << c for c in tile))
    return by_first


def cover_parts(n: int) -> list[tuple[str, tuple[int, ...]]]:
    """The parts of the walk over the covers: every way to lay its first PREFIX_TILES tiles (each at the
    first uncovered cell, as bitsets), each with its checkpoint key.  A prefix of whole rows is laid one
    tile further: the covers with several whole rows as regions are the slowest to count (the rows add no
    constraint), and they would otherwise make one part as long as the rest."""
    if not 1 <= n <= MAX_ORDER:
        raise JigsawOrderError(f"jigsaw Latin squares are counted up to order {MAX_ORDER}, not {n}")
    by_first, full = tiles_by_first(n), (1 << (n * n)) - 1
    rows = {((1 << n) - 1) << (n * r) for r in range(n)}
    parts: list[tuple[int, ...]] = []

    def lay(covered: int, laid: tuple[int, ...]) -> None:
        if covered == full or (len(laid) >= PREFIX_TILES and not rows.issuperset(laid)):
            parts.append(laid)
            return
        first = (~covered & (covered + 1)).bit_length() - 1
        for tile in by_first[first]:
            if not tile & covered:
                lay(covered | tile, (*laid, tile))

    lay(0, ())
    return [(f"jigsaw {n} tiles " + " ".join(f"{t:x}" for t in laid), laid) for laid in parts]


def walk(n: int, prefix: tuple[int, ...]) -> tuple[int, int, int]:
    """Over the covers starting with the `prefix` tiles: the jigsaw Latin squares of one cover per orbit
    weighted by its orbit's size, the covers of those orbits (their sizes summed) and the orbits counted."""
    return _placements.covers(n, tiles_by_first(n), square_transforms(n), list(prefix))


def part_count(n: int, prefix: tuple[int, ...]) -> int:
    """The jigsaw Latin squares of a part's covers (a worker's task; see `walk`)."""
    return walk(n, prefix)[0]


def jigsaw_count(
    n: int,
    jobs: int = 1,
    executor: Executor | None = None,
    checkpoint: str | None = None,
    progress: Callable[[int, float], object] | None = None,
) -> int:
    """The number of jigsaw Latin squares of order n, over all covers (A172478): the parts of the walk
    (`cover_parts`) counted here, in `jobs` processes or on `executor` (a Dask client's), in a shuffled but
    fixed order (parts differ widely, so the fraction of parts done gives an honest ETA), recorded in
    `checkpoint` as they finish; `progress(parts done, fraction)`.

    >>> [jigsaw_count(n) for n in range(1, 5)]
    [1, 4, 72, 13872]
    """
    parts = [(key, (n, prefix)) for key, prefix in cover_parts(n)]
    settings = CountSettings(jobs=jobs, executor=executor, progress=progress, checkpoint=checkpoint)
    return count_in_parts(part_count, parts, settings, shuffle=n)
