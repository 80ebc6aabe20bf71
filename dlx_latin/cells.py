"""Cells of the square (or cubic) lattice as integer tuples: face neighbours and connectedness, shared by
KenKen's cages, BlockSum's blocks and de Ruiter's cannibals."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Cell = tuple[int, ...]


def neighbours(cell: Cell) -> Iterator[Cell]:
    """The cells sharing a face with `cell` (an edge, in the plane)."""
    for axis in range(len(cell)):
        for step in (-1, 1):
            yield cell[:axis] + (cell[axis] + step,) + cell[axis + 1 :]


def connected(cells: Iterable[Cell]) -> bool:
    """Whether the cells form one piece through shared faces (no cells: False)."""
    cells = set(cells)
    if not cells:
        return False
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for d in neighbours(todo.pop()):
            if d in cells and d not in seen:
                seen.add(d)
                todo.append(d)
    return len(seen) == len(cells)
