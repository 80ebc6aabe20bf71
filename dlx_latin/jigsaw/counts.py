"""Counts on jigsaw boards: jigsaw Latin squares over all covers (A172478) and border fillings (A173104).

Jigsaw Latin squares of order n are counted cover by cover, one cover per orbit of the square's 8
symmetries (a symmetry of the square maps the jigsaw Latin squares of a cover onto those of its image),
each count weighted by its orbit's size; each cover's count fixes the labels of one asterism and multiplies
by n! (`count_completions`).  Border fillings label the border cells of the n x n square with 1..n, no label
twice in a row or column; the first row's labels are fixed in order and the count multiplied by n!.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from dlx_latin.boards import Board, BoardWarning, board_from_spec
from dlx_latin.exact_cover import ExactCoverProblem
from dlx_latin.jigsaw.dissections import JigsawOrderError, covers_up_to_symmetry, region_string
from dlx_latin.latin import PartialBoard, count_completions


def cover_board(regions: str) -> PartialBoard:
    """The empty jigsaw board of one cover (region string)."""
    with warnings.catch_warnings():  # a region may be a whole row or column: the board keeps it once
        warnings.simplefilter("ignore", BoardWarning)
        return PartialBoard(board_from_spec(f"jigsaw:{regions}"))


def cover_count(regions: str, limit: int | None = None) -> int:
    """The jigsaw Latin squares on one cover (region string), counting at most `limit` if given."""
    return count_completions(cover_board(regions), limit=limit)


def per_cover_counts(n: int, jobs: int = 1, limit: int | None = None) -> Iterator[tuple[str, int, int]]:
    """(canonical cover, orbit size under the square's symmetries, jigsaw Latin squares on it, at most
    `limit` if given), in the order of the region strings; `jobs` > 1 counts in that many processes."""
    orbits = sorted(covers_up_to_symmetry(n).items())
    task = partial(cover_count, limit=limit)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            counts: Iterator[int] = pool.map(task, [r for r, _ in orbits], chunksize=64)
            yield from ((r, orbit, c) for (r, orbit), c in zip(orbits, counts, strict=True))
        return
    for r, orbit in orbits:
        yield r, orbit, task(r)


def jigsaw_count(n: int, jobs: int = 1) -> int:
    """The number of jigsaw Latin squares of order n, over all covers (A172478).

    >>> [jigsaw_count(n) for n in range(1, 5)]
    [1, 4, 72, 13872]
    """
    if n == 1:
        return 1
    return sum(orbit * count for _, orbit, count in per_cover_counts(n, jobs))


def impossible_covers(n: int, jobs: int = 1) -> dict[str, int]:
    """The covers (one per orbit of the square's symmetries -> orbit size) that admit no jigsaw Latin
    square at all."""
    return {regions: orbit for regions, orbit, count in per_cover_counts(n, jobs, limit=1) if count == 0}


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


def border_problem(n: int) -> ExactCoverProblem:
    """Border cells of the n x n square labelled 1..n, no label twice in a row or column, the first row
    fixed to 1..n (n >= 2)."""
    border = [c for c in range(n * n) if c < n or c >= n * (n - 1) or c % n in (0, n - 1)]
    options = []
    for c in border:
        r, k = divmod(c, n)
        labels = [k] if r == 0 else range(n)
        for x in labels:
            options.append([("cell", c), ("row", r, x), ("col", k, x)])
    secondary = [(kind, i, x) for kind in ("row", "col") for i in range(n) for x in range(n)]
    return ExactCoverProblem([("cell", c) for c in border], options, secondary)


def border_fillings(n: int) -> int:
    """The number of ways to fill the border cells of an n x n square with 1..n, no label repeated in any
    row or column (A173104).

    >>> [border_fillings(n) for n in range(1, 6)]
    [1, 2, 12, 624, 110880]
    """
    if n == 1:
        return 1
    return math.factorial(n) * border_problem(n).count()


def derangements(n: int) -> int:
    """Permutations of n things without a fixed point (A000166).

    >>> [derangements(n) for n in range(7)]
    [1, 0, 1, 2, 9, 44, 265]
    """
    previous, current = 0, 1  # d(-1) stands in as 0: d(1) = 0 * (d(0) + d(-1))
    for k in range(1, n + 1):
        previous, current = current, (k - 1) * (current + previous)
    return current


def border_formula(n: int) -> int:
    """A173104 in closed form, for every n (equal to `border_fillings`).

    With the top row 0..n-1 (times n!), the bottom row is a derangement of it, since every column holds
    both.  The left column's n-2 inner cells take the labels missing from its two ends in (n-2)! orders,
    and the right column's inner cells take theirs avoiding, row by row, the left label when it is one of
    theirs: k shared labels leave e(k) = sum_j (-1)^j C(k, j) (n-2-j)! orders, i.e. d(n-2), d(n-2) +
    d(n-3) and d(n-2) + 2 d(n-3) + d(n-4) for k = n-2, n-3, n-4 (d: derangements).  k counts how many of
    the bottom corners are the top corners swapped: both for d(n-2) bottom rows, one for 2 d(n-1), none
    for the other d(n) - 2 d(n-1) - d(n-2).

    >>> [border_formula(n) for n in range(1, 8)]
    [1, 2, 12, 624, 110880, 58769280, 67704940800]
    """
    if n < 4:
        return [1, 1, 2, 12][n]
    d = derangements
    both, one, neither = d(n - 2), 2 * d(n - 1), d(n) - 2 * d(n - 1) - d(n - 2)
    inner = both * d(n - 2) + one * (d(n - 2) + d(n - 3)) + neither * (d(n - 2) + 2 * d(n - 3) + d(n - 4))
    return math.factorial(n) * math.factorial(n - 2) * inner
