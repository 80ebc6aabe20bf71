"""De Ruiter's cannibals: a polyomino (or polycube, cells joined by faces) that cuts its interior off from
its exterior, the interior holding exactly as many cells as the polyomino itself.  The thesis gives 23 as
the smallest in two dimensions and a polycube of 139 as the smallest it found in three.

Two searches, both bounded in time:
- exhaustive: every fixed polyform of 1, 2, ... cells (Redelmeier's enumeration), each one's enclosed cells
  counted by a flood fill from outside its bounding box; this gives the smallest polyform with any hole and
  rules out cannibals up to the size it reaches;
- constructive: walls around box-shaped cavities (boxes, and boxes with a layer added on every face as in
  the thesis's 139, less up to two opposite corners): the cavity's face-neighbours, joined into one piece
  by single cells at the gaps, then cells moved from the cavity to the wall (and at most one added
  outside) until the two sizes agree; every cannibal returned is checked by flood fill.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from dlx_latin.cells import Cell, connected, neighbours


def enclosed(wall: Iterable[Cell]) -> set[Cell]:
    """The cells the wall cuts off from the outside: those of its bounding box (grown by one) that are not
    wall and that no path of face-neighbours from outside reaches."""
    wall = set(wall)
    low = [min(c[a] for c in wall) - 1 for a in range(len(next(iter(wall))))]
    high = [max(c[a] for c in wall) + 1 for a in range(len(low))]
    box = set(itertools.product(*(range(lo, hi + 1) for lo, hi in zip(low, high, strict=True))))
    start = tuple(low)
    seen, todo = {start}, [start]
    while todo:
        for d in neighbours(todo.pop()):
            if d in box and d not in wall and d not in seen:
                seen.add(d)
                todo.append(d)
    return box - wall - seen


def polyforms(size: int, dim: int) -> Iterator[frozenset[Cell]]:
    """Every fixed polyform of `size` cells in `dim` dimensions, once each (Redelmeier: grow from the
    origin, the least cell, through an untried set of cells above it in lexicographic order)."""
    origin = (0,) * dim

    def allowed(c: Cell) -> bool:
        return c > origin

    def grow(shape: list[Cell], untried: list[Cell], reached: set[Cell]) -> Iterator[frozenset[Cell]]:
        while untried:
            cell = untried.pop()
            shape.append(cell)
            if len(shape) == size:
                yield frozenset(shape)
            else:
                new = [d for d in neighbours(cell) if allowed(d) and d not in reached]
                yield from grow(shape, untried + new, reached | set(new))
            shape.pop()

    first = [d for d in neighbours(origin) if allowed(d)]
    if size == 1:
        yield frozenset([origin])
        return
    yield from grow([origin], first, {origin, *first})


@dataclass
class SmallCase:
    """Every fixed polyform of one size, searched: how many, the largest interior, a cannibal if any."""

    size: int
    polyforms: int
    largest_interior: int
    cannibal: frozenset[Cell] | None


def small_cases(dim: int, seconds: float, max_size: int = 64) -> Iterator[SmallCase]:
    """SmallCase for sizes 1, 2, ... while the time lasts (a size not finished is not reported)."""
    deadline = time.monotonic() + seconds
    for size in range(1, max_size + 1):
        count, largest, cannibal = 0, 0, None
        for shape in polyforms(size, dim):
            count += 1
            inside = len(enclosed(shape)) if size >= 4 else 0
            largest = max(largest, inside)
            if inside == size and cannibal is None:
                cannibal = shape
            if count % 4096 == 0 and time.monotonic() > deadline:
                return
        yield SmallCase(size, count, largest, cannibal)
        if time.monotonic() > deadline:
            return


def wall_around(cavity: set[Cell]) -> set[Cell] | None:
    """The cavity's face-neighbours, joined into one piece: while there are several pieces, add the
    outside cell that touches the most of them (every gap of a box-like cavity is one such cell); None
    if at some point no single cell joins two pieces."""
    wall = {d for c in cavity for d in neighbours(c) if d not in cavity}
    while True:
        piece: dict[Cell, int] = {}
        for number, start in enumerate(wall):
            if start in piece:
                continue
            piece[start] = number
            todo = [start]
            while todo:
                for d in neighbours(todo.pop()):
                    if d in wall and d not in piece:
                        piece[d] = number
                        todo.append(d)
        pieces = set(piece.values())
        if len(pieces) == 1:
            return wall
        best, joined = None, 1
        for c in sorted({d for w in wall for d in neighbours(w)} - wall - cavity):
            touching = {piece[d] for d in neighbours(c) if d in wall}
            if len(touching) > joined:
                best, joined = c, len(touching)
        if best is None:
            return None
        wall.add(best)


def cannibal_around(cavity: set[Cell]) -> set[Cell] | None:
    """A cannibal whose interior lies in the cavity: the wall around it, then interior cells next to the
    wall moved into it two sizes at a time, and one outside cell added when one size is left; None when
    the wall is already larger than what it encloses."""
    if len({d for c in cavity for d in neighbours(c)} - cavity) > len(cavity):
        return None  # the wall holds at least the cavity's neighbours: more than it can enclose here
    wall = wall_around(cavity) if cavity else None
    if wall is None:
        return None
    inside = enclosed(wall)
    if len(inside) < len(wall):
        return None
    while len(inside) - len(wall) >= 2:
        cell = min(c for c in inside if any(d in wall for d in neighbours(c)))
        wall.add(cell)
        inside.discard(cell)
    if len(inside) > len(wall):
        wall = _moved_in(wall, len(wall)) or wall | {_outside_step(wall)}
    assert connected(wall) and len(enclosed(wall)) == len(wall)
    return wall


def _moved_in(wall: set[Cell], size: int) -> set[Cell] | None:
    """The wall with one cell moved onto an interior neighbour so that it still is one piece and encloses
    exactly `size` cells, if some move does."""
    inside = enclosed(wall)
    for y in sorted(inside):
        for x in sorted(d for d in neighbours(y) if d in wall):
            moved = (wall - {x}) | {y}
            if connected(moved) and len(enclosed(moved)) == size:
                return moved
    return None


def _outside_step(wall: set[Cell]) -> Cell:
    """A cell outside the wall next to its greatest cell, encloses nothing new."""
    top = max(wall)
    return (top[0] + 1,) + top[1:]


def cavities(dim: int, largest: int) -> Iterator[tuple[str, set[Cell]]]:
    """(description, cells) of box-shaped cavities with sides up to `largest`: boxes, and boxes with a
    layer added on every face (the edges left out), each less none, one or two opposite corners."""
    for sides in itertools.combinations_with_replacement(range(1, largest + 1), dim):
        box = set(itertools.product(*(range(s) for s in sides)))
        shapes = [("box " + "x".join(map(str, sides)), box)]
        if min(sides) >= 3:
            layers = set(box)
            for axis, s in enumerate(sides):
                for c in box:
                    if all(1 <= c[a] <= sides[a] - 2 for a in range(dim) if a != axis):
                        if c[axis] == 0:
                            layers.add(c[:axis] + (-1,) + c[axis + 1 :])
                        if c[axis] == s - 1:
                            layers.add(c[:axis] + (s,) + c[axis + 1 :])
            shapes.append(("rounded box " + "x".join(map(str, sides)), layers))
        low, high = (0,) * dim, tuple(s - 1 for s in sides)  # opposite corners of the box
        for name, cells in shapes:
            yield name, cells
            yield name + " less a corner", cells - {low}
            yield name + " less two corners", cells - {low, high}


def smallest_constructed(dim: int, seconds: float, largest: int = 12) -> tuple[str, set[Cell]] | None:
    """The smallest cannibal built around the cavities (description, wall), smallest cavities first,
    within the time.  A cavity of k cells gives a cannibal of at least k / 2, so larger ones are skipped."""
    deadline = time.monotonic() + seconds
    best: tuple[str, set[Cell]] | None = None
    for name, cavity in sorted(cavities(dim, largest), key=lambda nc: len(nc[1])):
        if best and len(cavity) > 2 * len(best[1]):
            break
        found = cannibal_around(set(cavity))
        if found and (best is None or len(found) < len(best[1])):
            best = (name, found)
        if time.monotonic() > deadline:
            break
    return best


def drawing(cells: set[Cell]) -> list[str]:
    """A two-dimensional polyform as text: # for its cells, . for its interior, space outside."""
    inside = enclosed(cells)
    rows = range(min(c[0] for c in cells), max(c[0] for c in cells) + 1)
    cols = range(min(c[1] for c in cells), max(c[1] for c in cells) + 1)
    return ["".join("#" if (i, j) in cells else "." if (i, j) in inside else " " for j in cols) for i in rows]
