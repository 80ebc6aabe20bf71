"""Latin polygons (../shared/boards.md): the triangle (D3), the hexagon (D6) and the dodecagon star (D12).

Triangles and hexagons are made of unit triangles, indexed by integer triples (a, b, c) >= 0 with
a + b + c = N - 1 (pointing up) or N - 2 (pointing down) in a side-N triangle; the centroid has barycentric
coordinates (a + t, b + t, c + t) / N with t = 1/3 (up) or 2/3 (down).  A stripe is all cells with one
coordinate fixed; asterisms are pairs of parallel stripes.  Points are numbered in reading order.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from dlx_latin.boards.board import Board, InvalidBoardError

# the triangle's corners for the a, b and c axes: top, bottom left, bottom right (circumradius 1)
_CORNERS = np.array([[0.0, 1.0], [-math.sqrt(3) / 2, -0.5], [math.sqrt(3) / 2, -0.5]])

Cell = tuple[int, int, int, int]  # (a, b, c, 0 up | 1 down)


def _unit_triangles(side: int, keep: Callable[[Cell], bool]) -> tuple[list[Cell], np.ndarray]:
    """The kept unit triangles of a side-`side` triangle, in reading order, and their centroids."""
    cells = []
    for down in (0, 1):
        total = side - 1 - down
        for a in range(total + 1):
            for b in range(total - a + 1):
                cell = (a, b, total - a - b, down)
                if keep(cell):
                    cells.append(cell)
    t = np.array([(1 + cell[3]) / 3 for cell in cells])
    weights = (np.array([cell[:3] for cell in cells], dtype=float) + t[:, None]) / side
    centroids = weights @ _CORNERS
    order = np.lexsort((np.round(centroids[:, 0], 9), -np.round(centroids[:, 1], 9)))
    return [cells[k] for k in order], centroids[order]


def _stripe_pairs(cells: list[Cell], pairs: list[tuple[int, int]]) -> list[list[int]]:
    """For each axis and each pair (u, v) of coordinate values, the cells whose coordinate is u or v."""
    return [[p for p, cell in enumerate(cells) if cell[axis] in pair] for axis in range(3) for pair in pairs]


def triangle(n: int) -> Board:
    """`triangle:n` (n even >= 4): n^2 unit triangles; asterisms pair stripes i and n-1-i; k = 2n, r = 3."""
    if n < 4 or n % 2:
        raise InvalidBoardError(
            f"triangle:{n} is not a Latin triangle: n must be even and at least 4 (triangle:2 is degenerate)"
        )
    cells, centroids = _unit_triangles(n, lambda cell: True)
    return Board(
        f"triangle:{n}", len(cells), _stripe_pairs(cells, [(i, n - 1 - i) for i in range(n // 2)]), centroids
    )


def hexagon(n: int) -> Board:
    """`hexagon:n` (n >= 2): the 6n^2 unit triangles of a side-n hexagon; stripes j and j+n; k = 6n."""
    if n < 2:
        raise InvalidBoardError(f"hexagon:{n} is degenerate: the side must be at least 2")
    cells, centroids = _unit_triangles(3 * n, lambda cell: max(cell[:3]) <= 2 * n - 1)
    return Board(f"hexagon:{n}", len(cells), _stripe_pairs(cells, [(j, j + n) for j in range(n)]), centroids)


def dodecagon() -> Board:
    """`dodecagon`: the {12/3} star, 36 points on 12 lines of 6 (r = 2).

    V_k (radius 1, angle 30k), A_k (radius sqrt(3)-1, angle 30k) and B_k (radius sqrt(6)/3, angle
    30k+15); line L_i = V_i, B_i, A_{i+1}, A_{i+2}, B_{i+2}, V_{i+3} (indices mod 12), in that order.
    Points are numbered V_0..V_11, A_0..A_11, B_0..B_11.
    """

    def at(radius: float, degrees: float) -> tuple[float, float]:
        return radius * math.cos(math.radians(degrees)), radius * math.sin(math.radians(degrees))

    coordinates = [at(1.0, 30 * k) for k in range(12)]
    coordinates += [at(math.sqrt(3) - 1, 30 * k) for k in range(12)]
    coordinates += [at(math.sqrt(6) / 3, 30 * k + 15) for k in range(12)]

    def v(k: int) -> int:
        return k % 12

    def a(k: int) -> int:
        return 12 + k % 12

    def b(k: int) -> int:
        return 24 + k % 12

    lines = [[v(i), b(i), a(i + 1), a(i + 2), b(i + 2), v(i + 3)] for i in range(12)]
    return Board("dodecagon", 36, lines, coordinates)
