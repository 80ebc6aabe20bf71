"""ipuz Sudoku files (kind http://ipuz.org/sudoku#1): import and export.

Read: `dimensions` (square), `puzzle` and optional `solution` (rows; `empty` marks an empty cell, 0 by
default; a cell may also be {"given": label} or {"value": label}), `boxes` (standard boxes) and `zones`
(more asterisms: jigsaw regions or extra regions, each {"cells": [[column, row], ...]} with ipuz's 1-based
coordinates, or {"rect": [[c1, r1], [c2, r2]]}).  The board is rows + columns + boxes + zones, named by its
spec when it is a built-in family.  A multiset with repeated labels travels in the extension field
"http://dlx-latin.org/multiset"; catalog exports add the board's spec and the orbit size in
"http://dlx-latin.org/board" and "http://dlx-latin.org/orbit_size".
"""

from __future__ import annotations

import json
import math
from typing import Any

from dlx_latin.boards import Board, board_from_spec
from dlx_latin.boards.board import InvalidBoardError
from dlx_latin.boards.families import MOST
from dlx_latin.boards.squares import boxes, columns, grid_board, rows
from dlx_latin.formats.puzzle import PuzzleFile, PuzzleFormatError, built, is_ipuz, parse_json
from dlx_latin.latin.multiset import Multiset
from dlx_latin.latin.partial import PartialBoard

KIND = "http://ipuz.org/sudoku#1"
MULTISET_FIELD = "http://dlx-latin.org/multiset"  # ipuz extensions are named by URIs
BOARD_FIELD = "http://dlx-latin.org/board"
ORBIT_SIZE_FIELD = "http://dlx-latin.org/orbit_size"


def _box_shape(n: int) -> tuple[int, int]:
    """Standard boxes: r rows by c columns, r <= c, as square as possible (3x3 for 9, 2x3 for 6)."""
    r = math.isqrt(n)
    while n % r:
        r -= 1
    return r, n // r


MAX_ORDER = MOST["sudoku"]  # the largest grid read, as for sudoku:RxC


def _zone_cells(zone: Any, n: int) -> list[int]:
    if not isinstance(zone, dict):
        raise PuzzleFormatError("each ipuz zone must be an object with 'cells' or 'rect'")
    if "rect" in zone:
        corners = zone["rect"]
        if not (
            isinstance(corners, list)
            and len(corners) == 2
            and all(isinstance(x, list) and len(x) == 2 for x in corners)
            and all(type(v) is int and 1 <= v <= n for x in corners for v in x)
        ):
            raise PuzzleFormatError(
                f"an ipuz zone 'rect' must be two [column, row] corners inside the {n}x{n} grid"
            )
        (c1, r1), (c2, r2) = corners
        cells = [[c, r] for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]
    else:
        cells = zone.get("cells")
    if not isinstance(cells, list) or not all(isinstance(x, list) and len(x) == 2 for x in cells):
        raise PuzzleFormatError("ipuz zone cells must be [column, row] pairs")
    out = []
    for c, r in cells:
        if not (type(c) is int and type(r) is int and 1 <= c <= n and 1 <= r <= n):
            raise PuzzleFormatError(f"ipuz zone cell [{c}, {r}] is outside the {n}x{n} grid")
        out.append((r - 1) * n + c - 1)
    return out


def _cell(value: Any, empty: Any) -> Any:
    if isinstance(value, dict):
        value = value.get("given", value.get("value", value.get("cell")))
    if value is None or str(value) == str(empty):
        return None
    if isinstance(value, str) and value.lstrip("-").isdigit():
        return int(value)
    return value


def read_ipuz(text: str) -> PuzzleFile:
    """A puzzle from an ipuz Sudoku file; a value of the wrong type anywhere is a PuzzleFormatError."""
    return ipuz_from_json(parse_json(text))


def ipuz_from_json(data: Any) -> PuzzleFile:
    """An ipuz Sudoku file's puzzle from its parsed JSON (see `read_ipuz`)."""
    return built(data, _from_ipuz, "ipuz file")


def _from_ipuz(data: Any) -> PuzzleFile:
    if not is_ipuz(data):
        raise PuzzleFormatError(f"not an ipuz Sudoku file: 'kind' must include {KIND}")
    dims = data.get("dimensions", {})
    n = dims.get("width")
    if type(n) is not int or n != dims.get("height") or not 2 <= n <= MAX_ORDER:
        raise PuzzleFormatError(
            f"ipuz 'dimensions' must be a square grid of width = height, 2 to {MAX_ORDER}"
        )
    asterisms = rows(n) + columns(n)
    if data.get("boxes", False):
        asterisms += boxes(*_box_shape(n))
    asterisms += [_zone_cells(z, n) for z in data.get("zones", [])]
    board = _named(grid_board("ipuz", n, asterisms))
    empty = data.get("empty", 0)
    grids = {}
    for field in ("puzzle", "solution"):
        grid = data.get(field)
        if grid is None:
            continue
        if (
            not isinstance(grid, list)
            or len(grid) != n
            or any(not isinstance(row, list) or len(row) != n for row in grid)
        ):
            raise PuzzleFormatError(f"ipuz '{field}' must be {n} rows of {n} cells")
        grids[field] = [_cell(x, empty) for row in grid for x in row]
    if "puzzle" not in grids:
        raise PuzzleFormatError("the ipuz file has no 'puzzle' grid")
    if MULTISET_FIELD in data:
        multiset = Multiset.of(data[MULTISET_FIELD])
    elif data.get("charset"):
        multiset = Multiset.of([int(c) if c.isdigit() else c for c in str(data["charset"])])
    else:
        multiset = None
    clues = {p: x for p, x in enumerate(grids["puzzle"]) if x is not None}
    partial = PartialBoard(board, multiset, clues)
    return PuzzleFile(
        partial,
        board.name if board.name != "ipuz" else board.to_json(),
        grids.get("solution"),
        data.get("title"),
    )


def _named(board: Board) -> Board:
    """The board under its family spec when it is sudoku:RxC or jigsaw:REGIONS, else as it is."""
    n = board.shape[0]
    extra = [set(a) for a in board.asterisms[2 * n :]]
    candidates = []
    if len(extra) == n:
        r, c = _box_shape(n)
        candidates.append(f"sudoku:{r}x{c}")
        if set().union(*extra) == set(range(n * n)):
            symbols = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
            if n <= len(symbols):
                region = {p: symbols[k] for k, a in enumerate(extra) for p in a}
                candidates.append("jigsaw:" + "".join(region[p] for p in range(n * n)))
    for spec in candidates:
        try:
            named = board_from_spec(spec, files=False)
        except InvalidBoardError:
            continue
        if {frozenset(a) for a in named.asterisms} == {frozenset(a) for a in board.asterisms}:
            return named
    return board


def write_ipuz(pb: PartialBoard, solution: list | None = None, title: str | None = None) -> str:
    """An ipuz Sudoku file for a partial board on a square grid that has its rows and columns as asterisms."""
    board = pb.board
    if not board.shape or board.shape[0] != board.shape[1]:
        raise PuzzleFormatError(f"ipuz Sudoku needs a square grid; {board.name} is not one")
    n = board.shape[0]
    lines = {frozenset(a) for a in rows(n) + columns(n)}
    if not lines <= {frozenset(a) for a in board.asterisms}:
        raise PuzzleFormatError(
            f"ipuz Sudoku needs rows and columns among the asterisms; {board.name} lacks them"
        )
    standard = {frozenset(a) for a in boxes(*_box_shape(n))}
    others = [a for a in board.asterisms if frozenset(a) not in lines]
    has_boxes = standard <= {frozenset(a) for a in others}
    zones = [a for a in others if not (has_boxes and frozenset(a) in standard)]
    data: dict[str, Any] = {
        "version": "http://ipuz.org/v2",
        "kind": [KIND],
        "dimensions": {"width": n, "height": n},
    }
    if title:
        data["title"] = title
    data["charset"] = "".join(str(x) for x in pb.multiset.labels)
    if not pb.multiset.distinct:
        data[MULTISET_FIELD] = pb.multiset.as_list()
    data["boxes"] = has_boxes
    if zones:
        data["zones"] = [{"cells": [[p % n + 1, p // n + 1] for p in zone]} for zone in zones]
    data["empty"] = 0
    labelling = pb.labelling()
    data["puzzle"] = [
        [0 if labelling[r * n + c] is None else labelling[r * n + c] for c in range(n)] for r in range(n)
    ]
    if solution is not None:
        data["solution"] = [[solution[r * n + c] for c in range(n)] for r in range(n)]
    return json.dumps(data)
