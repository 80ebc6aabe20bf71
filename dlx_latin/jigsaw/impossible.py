"""Covers of the square that admit no jigsaw Latin square: every one for small n, and one for every n >= 4."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from dlx_latin.boards import Board
from dlx_latin.jigsaw.counts import per_cover_counts
from dlx_latin.jigsaw.dissections import JigsawOrderError, region_string


def impossible_covers(n: int, jobs: int = 1) -> dict[str, int]:
    """The covers (one per orbit of the square's symmetries -> orbit size) that admit no jigsaw Latin
    square at all."""
    return dict(each_impossible_cover(n, jobs))


def each_impossible_cover(
    n: int, jobs: int = 1, progress: Callable[[int, float], object] | None = None
) -> Iterator[tuple[str, int]]:
    """(cover, orbit size) of the covers that admit no jigsaw Latin square, one per orbit, as they are found
    (in the order of the region strings); `progress(covers tried, fraction)`."""
    for regions, orbit, count in per_cover_counts(n, jobs, limit=1, progress=progress):
        if count == 0:
            yield regions, orbit


SMALL_IMPOSSIBLE = {4: "aaabacbbccdbcddd", 5: "aaaabacbbbccddbcddeecdeee"}  # from impossible_covers(4), (5)


def impossible_cover(n: int) -> str:
    """A cover of the n x n square (n >= 4) that admits no jigsaw Latin square.

    For n = 4, 5 one found by `impossible_covers`.  For n >= 6: row 0 is one region; c is column n-1
    below row 0 plus (1, n-2); d is column n-2 below row 1 plus (2, n-4), (2, n-3); b is row 1 up to
    column n-3 plus (2, n-6), (2, n-5); the rest (rows 3.. left of column n-2, and row 2 left of column
    n-6) is cut along a snake into n-cell pieces.  No labelling fits:
    1. c holds n-1 cells of column n-1, so its other cell (1, n-2) has the label x of the column's
       other cell (0, n-1).
    2. c and d hold every label twice, as do columns n-2 and n-1; they differ only in d's (2, n-4),
       (2, n-3) and the columns' (0, n-2), (0, n-1), so one of d's two cells has the label x.
    3. Rows 1 and 2 hold every label twice and b once, so their n cells outside b hold every label once;
       but (1, n-2) and one of (2, n-4), (2, n-3) are among them, both labelled x.
    """
    if n < 4:
        raise JigsawOrderError(f"every cover of order {n} < 4 admits a jigsaw Latin square")
    if n in SMALL_IMPOSSIBLE:
        return SMALL_IMPOSSIBLE[n]
    cell = {}
    for k in range(n):
        cell[0, k] = 0
    for r in range(1, n):
        cell[r, n - 1] = 2
    cell[1, n - 2] = 2
    for r in range(2, n):
        cell[r, n - 2] = 3
    cell[2, n - 4] = cell[2, n - 3] = 3
    for k in range(n - 2):
        cell[1, k] = 1
    cell[2, n - 6] = cell[2, n - 5] = 1
    snake = []
    for r in range(n - 1, 2, -1):  # rows n-1 .. 3 alternately, row 3 right to left, then row 2
        columns = range(n - 2) if (r - 3) % 2 else range(n - 3, -1, -1)
        snake += [(r, k) for k in columns]
    snake += [(2, k) for k in range(n - 6)]
    for i, at in enumerate(snake):
        cell[at] = 4 + i // n
    return region_string(
        n, [tuple(r * n + k for (r, k), g in cell.items() if g == group) for group in range(n)]
    )


def impossible_core(n: int) -> Board:
    """The asterisms the proof of `impossible_cover(n)` (n >= 6) uses - rows 1, 2, columns n-2, n-1 and
    the regions b, c, d - as a board on their points: that it has no Latin labelling already shows the
    whole cover has none, and the engine shows it in well under a second up to n = 9."""
    if n < 6:
        raise JigsawOrderError("the impossible covers of orders 4 and 5 are checked whole")
    regions = impossible_cover(n)
    lines = [[r * n + k for k in range(n)] for r in (1, 2)] + [
        [r * n + k for r in range(n)] for k in (n - 2, n - 1)
    ]
    named = (regions[n], regions[2 * n - 1], regions[3 * n - 2])  # b at (1, 0), c at (1, n-1), d at (2, n-2)
    asterisms = lines + [[c for c in range(n * n) if regions[c] == g] for g in named]
    points = sorted({c for a in asterisms for c in a})
    index = {c: i for i, c in enumerate(points)}
    return Board(f"core of jigsaw:{regions}", len(points), [[index[c] for c in a] for a in asterisms])
