"""The built-in board families and the BOARD spec strings that name them.

A spec is `family[:parameter[:variant]]`, e.g. `latin:5`, `sudoku:2x3`, `jigsaw:AABB...`,
`free-square:8:mirror`, `dodecahedron:decagonal`, or the path of a board JSON file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dlx_latin.boards import polygons, polyhedra, squares
from dlx_latin.boards.board import Board, InvalidBoardError


@dataclass(frozen=True)
class Family:
    name: str
    usage: str
    description: str
    build: Callable[[list[str]], Board]
    example: str


# Boards are refused before they are built when their points times asterism size would pass about two
# million (latin:128 has 128^3): the exact-cover problem of a larger board has more options than any count or
# search here can use, and building it would only fill memory.  The most each family's parameter may be:
MOST = {
    "latin": 128,
    "sudoku": 128,  # R*C
    "jigsaw": 128,  # the order n of an n*n region string
    "diagonal": 128,
    "free-square": 128,
    "triangle": 100,  # n^2 points, stripes of 2n
    "hexagon": 36,  # 6n^2 points, stripes of 6n
    "tetrahedron": 50,  # 4f^2 points, stripes of 4f
    "cube": 44,  # 6f^2 points, stripes of 4f
    "octahedron": 35,  # 8f^2 points, stripes of 6f
    "icosahedron": 21,  # 20f^2 points, stripes of 10f
}


def _int(value: str, family: str, what: str = "order") -> int:
    if not re.fullmatch(r"\d{1,9}", value):
        raise InvalidBoardError(f"{family}: the {what} must be a whole number, not {value!r}")
    return _within(int(value), family, what)


def _within(n: int, family: str, what: str = "order") -> int:
    """`n` when at most the family's limit (MOST), else a refusal naming it."""
    if n > MOST[family]:
        raise InvalidBoardError(
            f"{family}: the {what} may be at most {MOST[family]} (larger boards are out of reach)"
        )
    return n


def _one(params: list[str], family: str, usage: str, least: int = 1, most: int = 1) -> None:
    if not least <= len(params) <= most:
        raise InvalidBoardError(f"{family} takes {usage}")


def _latin(p: list[str]) -> Board:
    _one(p, "latin", "one order: latin:n")
    return squares.latin(_int(p[0], "latin"))


def _sudoku(p: list[str]) -> Board:
    _one(p, "sudoku", "box sizes: sudoku:RxC (or sudoku for 3x3)", 0)
    if not p:
        return squares.sudoku(3, 3)
    match = re.fullmatch(r"(\d{1,9})x(\d{1,9})", p[0])
    if not match:
        raise InvalidBoardError(f"sudoku: write the box as RxC (rows x columns), not {p[0]!r}")
    rows, cols = int(match[1]), int(match[2])
    _within(rows * cols, "sudoku", "box size R*C")
    return squares.sudoku(rows, cols)


def _jigsaw(p: list[str]) -> Board:
    if not p or not p[0]:
        raise InvalidBoardError("jigsaw takes a region string: jigsaw:<n*n symbols, one per cell, row-major>")
    _within(int(len(":".join(p)) ** 0.5), "jigsaw", "order n of the n*n region string")
    return squares.jigsaw(":".join(p))


def _diagonal(p: list[str]) -> Board:
    _one(p, "diagonal", "one order: diagonal:n")
    return squares.diagonal(_int(p[0], "diagonal"))


def _fixed(
    name: str, build: Callable[[], Board], allowed: tuple[str, ...] = ()
) -> Callable[[list[str]], Board]:
    def parse(p: list[str]) -> Board:
        if p and p[0] not in allowed:
            raise InvalidBoardError(
                f"{name} takes no parameter" if not allowed else f"{name} takes only {allowed[0]}"
            )
        return build()

    return parse


def _free_square(p: list[str]) -> Board:
    _one(
        p,
        "free-square",
        "an even order and an optional pairing: free-square:2m[:shift|mirror|adjacent]",
        1,
        2,
    )
    return squares.free_square(_int(p[0], "free-square"), p[1] if len(p) > 1 else "shift")


def _sized(name: str, build: Callable[[int], Board], what: str) -> Callable[[list[str]], Board]:
    def parse(p: list[str]) -> Board:
        _one(p, name, f"one {what}: {name}:{what[0]}")
        return build(_int(p[0], name, what))

    return parse


def _dodecahedron(p: list[str]) -> Board:
    _one(p, "dodecahedron", "an optional variant: dodecahedron[:hexagonal|decagonal]", 0)
    return polyhedra.dodecahedron(p[0] if p else "hexagonal")


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in [
        Family("latin", "latin:n", "Latin square: rows and columns", _latin, "latin:5"),
        Family(
            "sudoku",
            "sudoku:RxC",
            "rows, columns and boxes of R rows by C columns (n = RC)",
            _sudoku,
            "sudoku:2x3",
        ),
        Family(
            "jigsaw",
            "jigsaw:REGIONS",
            "gerechte: rows, columns and n regions given as n*n symbols",
            _jigsaw,
            "jigsaw:AABBAABBCCDDCCDD",
        ),
        Family(
            "diagonal",
            "diagonal:n",
            "Latin square plus both main diagonals (Latin boards from n = 4)",
            _diagonal,
            "diagonal:5",
        ),
        Family("win", "win", "Win One: latin:9 plus four 3x3 windows", _fixed("win", squares.win), "win"),
        Family(
            "quadoku",
            "quadoku[:3x3]",
            "Quadoku One (Hyper Sudoku): sudoku:3x3 plus four windows",
            _fixed("quadoku", squares.quadoku, ("3x3",)),
            "quadoku:3x3",
        ),
        Family(
            "free-square",
            "free-square:2m[:shift|mirror|adjacent]",
            "free Latin square: pairs of rows and pairs of columns",
            _free_square,
            "free-square:8",
        ),
        Family(
            "tartan",
            "tartan",
            "Tartan One: free-square:8 plus its four 4x4 quadrants",
            _fixed("tartan", squares.tartan),
            "tartan",
        ),
        Family(
            "triangle",
            "triangle:n",
            "Latin triangle (n even; Latin boards from n = 6): pairs of parallel stripes",
            _sized("triangle", polygons.triangle, "n (even, at least 4)"),
            "triangle:6",
        ),
        Family(
            "hexagon",
            "hexagon:n",
            "Latin hexagon of side n: pairs of parallel stripes",
            _sized("hexagon", polygons.hexagon, "n (side)"),
            "hexagon:2",
        ),
        Family(
            "dodecagon",
            "dodecagon",
            "the {12/3} star: 36 points on 12 lines of 6",
            _fixed("dodecagon", polygons.dodecagon),
            "dodecagon",
        ),
        Family(
            "tetrahedron",
            "tetrahedron:f",
            "faces at frequency f; stripes about edge-midpoint axes (none at f = 2)",
            _sized("tetrahedron", polyhedra.tetrahedron, "f (frequency)"),
            "tetrahedron:3",
        ),
        Family(
            "cube",
            "cube:f",
            "free Latin cube: faces at frequency f; stripes about face normals (none at f = 3)",
            _sized("cube", polyhedra.cube, "f (frequency)"),
            "cube:2",
        ),
        Family(
            "octahedron",
            "octahedron:f",
            "faces at frequency f; stripes about face normals (none at f = 2)",
            _sized("octahedron", polyhedra.octahedron, "f (frequency)"),
            "octahedron:3",
        ),
        Family(
            "icosahedron",
            "icosahedron:f",
            "faces at frequency f; stripes about vertex axes",
            _sized("icosahedron", polyhedra.icosahedron, "f (frequency)"),
            "icosahedron:2",
        ),
        Family(
            "dodecahedron",
            "dodecahedron[:hexagonal|decagonal]",
            "30 edge midpoints on 10 hexagonal (or 6 decagonal) great circles",
            _dodecahedron,
            "dodecahedron",
        ),
    ]
}


def board_from_spec(spec: str, files: bool = True) -> Board:
    """The board a spec names: a built-in family with its parameters, or (when `files`) a board JSON file.

    A board named inside a data file (a puzzle file, a catalog) is read with files=False: data never makes
    the tool open another file, only the user's command line does.

    >>> board_from_spec("sudoku:2x3")
    Board('sudoku:2x3': 36 points, 18 asterisms of 6)
    """
    if not isinstance(spec, str):
        raise InvalidBoardError(f"a board spec is a string, not {type(spec).__name__}")
    family, _, rest = spec.partition(":")
    if family in FAMILIES:
        return FAMILIES[family].build(rest.split(":") if rest else [])
    if not files:
        raise InvalidBoardError(
            f"unknown board {spec!r}: a board named inside a data file must be a built-in spec "
            "(see `dlx-latin boards`) or a board object, never a file"
        )
    path = Path(spec)
    if path.suffix == ".json" or path.exists():
        return board_from_file(path)
    raise InvalidBoardError(f"unknown board {spec!r}: not a family (see `dlx-latin boards`) nor a board file")


def board_from_file(path: Path) -> Board:
    """A custom board from a JSON file: the board object itself, or the board a puzzle file (one that
    declares its format) is on; anything else is refused."""
    from dlx_latin.files import read_text

    text = read_text(path, "board file")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise InvalidBoardError(f"board file {path} is not valid JSON: {e}") from None
    if isinstance(data, dict) and "board" in data and "asterisms" not in data:
        if data.get("format") != "dlx-latin":  # only a puzzle file declares the board it is on
            raise InvalidBoardError(
                f'{path} has \'board\' but no "format": "dlx-latin": neither a puzzle file nor a board '
                "file (which holds 'points' and 'asterisms')"
            )
        data = data["board"]
        if isinstance(data, str):
            return board_from_spec(data, files=False)
    return Board.from_json(data)
