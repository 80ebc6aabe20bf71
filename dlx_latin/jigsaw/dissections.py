"""Dissections ("covers") of the n x n square into n connected n-ominoes, as an exact-cover problem.

A tile is a connected set of n cells of the square (4-neighbour adjacency), in a fixed position.  A tile is
kept only if every connected part of the cells it leaves holds a multiple of n cells (otherwise no cover can
use it).  The covers are the exact covers of the n*n cells by tiles (A172477: 1, 2, 10, 117, 4006, 451206);
they are counted by a memoized frontier search (`_frontier.c`, to n = 8) or by the exact-cover engine.
A cover is written as a region string, one letter per cell in row-major order, the regions lettered in
order of first appearance — usable as the board `jigsaw:<regions>`.
"""

from __future__ import annotations

from collections.abc import Iterator

from dlx_latin.errors import UserInputError
from dlx_latin.exact_cover import ExactCoverProblem
from dlx_latin.jigsaw import _frontier

LETTERS = "abcdefghijklmnopqrstuvwxyz"


class JigsawOrderError(UserInputError):
    """An order n outside what the jigsaw commands handle."""


def _neighbours(n: int, c: int) -> Iterator[int]:
    r, k = divmod(c, n)
    if r:
        yield c - n
    if r < n - 1:
        yield c + n
    if k:
        yield c - 1
    if k < n - 1:
        yield c + 1


def parts_fit(n: int, taken: frozenset[int]) -> bool:
    """Whether every connected part of the cells outside `taken` has a multiple of n cells."""
    seen = set(taken)
    for start in range(n * n):
        if start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            c = stack.pop()
            size += 1
            for d in _neighbours(n, c):
                if d not in seen:
                    seen.add(d)
                    stack.append(d)
        if size % n:
            return False
    return True


def tiles(n: int) -> list[tuple[int, ...]]:
    """Every placement of a connected n-omino in the n x n square that can belong to a cover, as sorted
    cell tuples; each is grown from its smallest cell by adding larger neighbours."""
    if not 1 <= n <= 9:
        raise JigsawOrderError(f"jigsaw order {n} is outside 1..9")
    found: set[frozenset[int]] = set()
    for start in range(n * n):
        level = {frozenset([start])}
        for _ in range(n - 1):
            grown = set()
            for shape in level:
                for c in shape:
                    for d in _neighbours(n, c):
                        if d > start and d not in shape:
                            grown.add(shape | {d})
            level = grown
        found |= level
    return sorted(tuple(sorted(t)) for t in found if parts_fit(n, t))


def cover_problem(n: int) -> tuple[ExactCoverProblem, list[tuple[int, ...]]]:
    """The exact-cover problem whose solutions are the covers, and its tiles (option k is tile k)."""
    placed = tiles(n)
    return ExactCoverProblem(range(n * n), placed), placed


def count_covers(n: int, method: str = "frontier") -> int:
    """The number of dissections of the n x n square into n connected n-ominoes (A172477).

    `method` "frontier" (n <= 8) fills the cells in order, one tile from each first uncovered cell, and
    remembers the count of every set of covered cells (de Ruiter's frontier); "exact-cover" counts the
    exact covers of the cells by the tiles with the engine.  The two are independent and must agree.

    >>> [count_covers(n) for n in range(1, 6)]
    [1, 2, 10, 117, 4006]
    >>> count_covers(5, method="exact-cover")
    4006
    """
    if method == "exact-cover":
        return cover_problem(n)[0].count()
    if method != "frontier":
        raise ValueError(f"unknown method {method!r}: frontier or exact-cover")
    if n > 8:
        raise JigsawOrderError(f"the frontier count handles orders up to 8 (64 cells), not {n}")
    by_first: list[list[int]] = [[] for _ in range(n * n)]
    for tile in tiles(n):
        by_first[tile[0]].append(sum(1 << c for c in tile))
    found, _states = _frontier.count(n, n, 0, by_first)
    return found


def region_string(n: int, chosen: list[tuple[int, ...]]) -> str:
    """A cover as n*n letters in row-major order, regions lettered by first appearance."""
    owner = [0] * (n * n)
    for k, tile in enumerate(chosen):
        for c in tile:
            owner[c] = k
    names: dict[int, str] = {}
    return "".join(names.setdefault(owner[c], LETTERS[len(names)]) for c in range(n * n))


def covers(n: int) -> Iterator[str]:
    """Every cover of the n x n square, as region strings."""
    problem, placed = cover_problem(n)
    for solution in problem.solutions():
        yield region_string(n, [placed[k] for k in solution])


def square_transforms(n: int) -> list[list[int]]:
    """The 8 symmetries of the square as cell permutations (cell c goes to image[c])."""
    out = []
    for flip in (False, True):
        for turns in range(4):
            image = []
            for c in range(n * n):
                r, k = divmod(c, n)
                if flip:
                    k = n - 1 - k
                for _ in range(turns):
                    r, k = k, n - 1 - r
                image.append(r * n + k)
            out.append(image)
    return out


def canonical_cover(regions: str, transforms: list[list[int]]) -> str:
    """The least region string among the 8 images of a cover under the square's symmetries."""
    n2 = len(regions)
    best = None
    for image in transforms:
        moved = [""] * n2
        for c in range(n2):
            moved[image[c]] = regions[c]
        names: dict[str, str] = {}
        text = "".join(names.setdefault(x, LETTERS[len(names)]) for x in moved)
        if best is None or text < best:
            best = text
    assert best is not None
    return best


def covers_up_to_symmetry(n: int) -> dict[str, int]:
    """One canonical cover per orbit under the square's 8 symmetries -> the orbit's size.

    Orbits are found on tile numbers (the tiles are closed under the symmetries, so each symmetry permutes
    them); the lex-least region string is then computed once per orbit."""
    problem, placed = cover_problem(n)
    transforms = square_transforms(n)
    number = {tile: k for k, tile in enumerate(placed)}
    images = [[number[tuple(sorted(image[c] for c in tile))] for tile in placed] for image in transforms]
    orbits: dict[tuple[int, ...], int] = {}
    for solution in problem.solutions():
        key = min(tuple(sorted(image[k] for k in solution)) for image in images)
        orbits[key] = orbits.get(key, 0) + 1
    return {
        canonical_cover(region_string(n, [placed[k] for k in key]), transforms): size
        for key, size in orbits.items()
    }
