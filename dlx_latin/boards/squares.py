"""Square-grid boards (../shared/boards.md, "Square grids").  Cell (i, j) is point i*n + j at (j, -i)."""

from __future__ import annotations

from collections.abc import Sequence

from dlx_latin.boards.board import Board, InvalidBoardError


def grid_board(name: str, n: int, asterisms: Sequence[Sequence[int]]) -> Board:
    """An n x n board with the given asterisms, coordinates (j, -i) and shape (n, n)."""
    coordinates = [(j, -i) for i in range(n) for j in range(n)]
    return Board(name, n * n, asterisms, coordinates, shape=(n, n))


def rows(n: int) -> list[list[int]]:
    return [[i * n + j for j in range(n)] for i in range(n)]


def columns(n: int) -> list[list[int]]:
    return [[i * n + j for i in range(n)] for j in range(n)]


def boxes(r: int, c: int) -> list[list[int]]:
    """The n = r*c boxes of r rows by c columns, in reading order."""
    n = r * c
    return [
        [(bi * r + i) * n + bj * c + j for i in range(r) for j in range(c)]
        for bi in range(c)
        for bj in range(r)
    ]


def windows() -> list[list[int]]:
    """The four 3x3 windows of a 9x9 board at rows/columns 1-3 and 5-7."""
    return [[(r0 + i) * 9 + c0 + j for i in range(3) for j in range(3)] for r0 in (1, 5) for c0 in (1, 5)]


def _order(n: int, family: str, least: int = 2) -> int:
    if n < least:
        raise InvalidBoardError(f"{family}:{n} is degenerate: the order must be at least {least}")
    return n


def latin(n: int) -> Board:
    """`latin:n`: rows and columns; k = n, r = 2."""
    _order(n, "latin")
    return grid_board(f"latin:{n}", n, rows(n) + columns(n))


def sudoku(r: int, c: int) -> Board:
    """`sudoku:RxC`: rows, columns and boxes of R rows by C columns; n = R*C, r = 3."""
    if r < 1 or c < 1 or r * c < 2:
        raise InvalidBoardError(f"sudoku:{r}x{c} is degenerate: boxes need R*C >= 2")
    n = r * c
    return grid_board(f"sudoku:{r}x{c}", n, rows(n) + columns(n) + boxes(r, c))


def jigsaw(regions: str) -> Board:
    """`jigsaw:REGIONS` (gerechte): rows, columns and n regions of n cells, one symbol per cell, row-major."""
    n = round(len(regions) ** 0.5)
    if n * n != len(regions) or n < 2:
        raise InvalidBoardError(
            f"a jigsaw region string needs n*n symbols (n >= 2), not {len(regions)}: one symbol per cell"
        )
    cells: dict[str, list[int]] = {}
    for p, symbol in enumerate(regions):
        cells.setdefault(symbol, []).append(p)
    for symbol, members in cells.items():
        if len(members) != n:
            raise InvalidBoardError(
                f"region {symbol!r} has {len(members)} cells; a jigsaw of order {n} needs {n}"
            )
    return grid_board(f"jigsaw:{regions}", n, rows(n) + columns(n) + list(cells.values()))


def diagonal(n: int) -> Board:
    """`diagonal:n`: a Latin square plus both main diagonals (r = 2, 3, or 4 at an odd centre)."""
    _order(n, "diagonal")
    diagonals = [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
    return grid_board(f"diagonal:{n}", n, rows(n) + columns(n) + diagonals)


def win() -> Board:
    """`win` (Win One): latin:9 plus the four 3x3 windows; |A| = 22."""
    return grid_board("win", 9, rows(9) + columns(9) + windows())


def quadoku() -> Board:
    """`quadoku` (`quadoku:3x3`; Hyper Sudoku): sudoku:3x3 plus the four windows; |A| = 31."""
    return grid_board("quadoku:3x3", 9, rows(9) + columns(9) + boxes(3, 3) + windows())


PAIRINGS = ("shift", "mirror", "adjacent")


def _pairs(two_m: int, variant: str) -> list[tuple[int, int]]:
    m = two_m // 2
    if variant == "shift":
        return [(i, i + m) for i in range(m)]
    if variant == "mirror":
        return [(i, two_m - 1 - i) for i in range(m)]
    if variant == "adjacent":
        return [(2 * i, 2 * i + 1) for i in range(m)]
    raise InvalidBoardError(f"unknown free-square pairing {variant!r}: choose one of {', '.join(PAIRINGS)}")


def free_square(two_m: int, variant: str = "shift") -> Board:
    """`free-square:2m[:shift|mirror|adjacent]`: pairs of rows and pairs of columns as asterisms; k = 4m.

    The default pairing is {i, i+m} (the one Tartan One satisfies); `mirror` pairs {i, 2m-1-i} and
    `adjacent` pairs {2i, 2i+1}.
    """
    if two_m < 2 or two_m % 2:
        raise InvalidBoardError(f"free-square:{two_m} needs an even order of at least 2")
    n = two_m
    pairs = _pairs(n, variant)
    asterisms = [[a * n + j for a in pair for j in range(n)] for pair in pairs]
    asterisms += [[i * n + b for b in pair for i in range(n)] for pair in pairs]
    suffix = "" if variant == "shift" else f":{variant}"
    return grid_board(f"free-square:{n}{suffix}", n, asterisms)


def tartan() -> Board:
    """`tartan` (Tartan One): free-square:8 plus the four 4x4 quadrants; 12 asterisms of 16, r = 3."""
    base = free_square(8)
    quadrants = [
        [(r0 + i) * 8 + c0 + j for i in range(4) for j in range(4)] for r0 in (0, 4) for c0 in (0, 4)
    ]
    return grid_board("tartan", 8, [list(a) for a in base.asterisms] + quadrants)
