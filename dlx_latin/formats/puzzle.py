"""The native puzzle file: JSON with a format tag and a version (see ../shared/DESIGN.md, "Formats").

    {"format": "dlx-latin", "version": 1,
     "board": "sudoku:3x3" | {board object},
     "multiset": [1, 1, 2, 2] | "1^2,2^2",            optional: 1..k
     "clues": [[3, 0, ...], ...] | [3, null, ...] | {"<point>": label},
     "inscription": [point, ...],                     optional
     "solution": same shapes as clues,                optional
     "source": "...",                                 optional}

Grids are lists of rows (square boards), flat lists are in point order; null is empty, and 0 is empty only
when 0 is not a label of the multiset.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dlx_latin.boards import Board, board_from_spec
from dlx_latin.boards.board import BOARD_KEYS as BOARD_OBJECT_KEYS
from dlx_latin.boards.board import InvalidBoardError
from dlx_latin.errors import UserInputError
from dlx_latin.latin.multiset import Label, Multiset
from dlx_latin.latin.partial import PartialBoard

FORMAT, VERSION = "dlx-latin", 1
PUZZLE_KEYS = frozenset(
    {"format", "version", "board", "multiset", "clues", "inscription", "solution", "source"}
)
# what `generate --json` and catalog exports say of a puzzle beside it: facts a reader passes over
REPORT_KEYS = frozenset({"clue_count", "critical", "fair", "rating", "score", "seed", "orbit_size"})
# a catalog export line (catalog.exchange): a stored puzzle, or a stored canonical solution
CATALOG_PUZZLE_KEYS = frozenset({"board", "multiset", "puzzle", "solution"}) | REPORT_KEYS
CATALOG_SOLUTION_KEYS = frozenset({"board", "multiset", "labelling", "orbit_size", "automorphisms"})
BOARD_KEYS = frozenset(BOARD_OBJECT_KEYS)
KINDS = (
    'a puzzle file declares "format": "dlx-latin" and "version": 1; an ipuz Sudoku file a "kind" list; a '
    "board file holds only name, points, asterisms, shape and faces; a catalog export line holds "
    "'board' with 'puzzle' or 'labelling'"
)


class PuzzleFormatError(UserInputError):
    """A puzzle file that cannot be read: the message names the field and what is wrong."""


@dataclass(frozen=True)
class PuzzleFile:
    """What a puzzle file holds: the partial board, its board spec as written, and the optional solution."""

    partial: PartialBoard
    board_spec: str | dict
    solution: list[Label] | None = None
    source: str | None = None


def read_puzzle(text: str) -> PuzzleFile:
    """Parse a native puzzle file; a value of the wrong type anywhere is a PuzzleFormatError."""
    return puzzle_from_json(parse_json(text))


def puzzle_from_json(data: Any) -> PuzzleFile:
    """A native puzzle file's puzzle from its parsed JSON (see `read_puzzle`)."""
    return built(data, _from_data, "puzzle file")


def parse_json(text: str) -> Any:
    """A JSON document's value; malformed or too deeply nested JSON is one PuzzleFormatError."""
    try:
        return json.loads(text)
    except ValueError as e:
        raise PuzzleFormatError(f"not valid JSON: {e}") from None
    except RecursionError:
        raise PuzzleFormatError("not valid JSON: nested too deeply") from None


def built(data: Any, build: Callable[[Any], PuzzleFile], what: str) -> PuzzleFile:
    """`build(data)`, a value of the wrong type anywhere in `data` being one PuzzleFormatError naming `what`
    the document should be."""
    try:
        return build(data)
    except UserInputError:
        raise
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError) as e:
        raise PuzzleFormatError(f"malformed {what}: {e}") from None


def _from_data(data: Any) -> PuzzleFile:
    if not isinstance(data, dict):
        raise PuzzleFormatError("a puzzle file must hold a JSON object")
    if data.get("format") != FORMAT:
        raise PuzzleFormatError(f"not a dlx-latin puzzle file: 'format' must be {FORMAT!r}")
    if data.get("version") != VERSION:
        raise PuzzleFormatError(
            f"unsupported version {data.get('version')!r}: this dlx-latin reads version {VERSION}"
        )
    unknown = sorted(set(data) - PUZZLE_KEYS - REPORT_KEYS, key=str)
    if unknown:
        raise PuzzleFormatError(
            f"unknown key {unknown[0]!r} in a puzzle file (it takes {', '.join(sorted(PUZZLE_KEYS))}, and "
            f"{', '.join(sorted(REPORT_KEYS))} as reported facts)"
        )
    spec = data.get("board")
    if isinstance(spec, str):
        board = board_from_spec(spec, files=False)
    elif isinstance(spec, dict):
        board = Board.from_json(spec)
    else:
        raise PuzzleFormatError("'board' must be a board spec string or a board object")
    multiset = _multiset(data.get("multiset"), board)
    clues = _labels(data.get("clues", {}), board, multiset, "clues")
    inscription = data.get("inscription", [])
    if not isinstance(inscription, list) or not all(isinstance(p, int) for p in inscription):
        raise PuzzleFormatError("'inscription' must be a list of point indices")
    partial = PartialBoard(board, multiset, clues, frozenset(inscription))
    return PuzzleFile(partial, spec, _solution(data, board, multiset), data.get("source"))


def is_ipuz(data: Any) -> bool:
    """Whether a JSON value declares itself an ipuz Sudoku file: a 'kind' list naming the Sudoku kind."""
    kind = data.get("kind") if isinstance(data, dict) else None
    return isinstance(kind, list) and any(str(k).startswith("http://ipuz.org/sudoku") for k in kind)


def document_kind(data: Any) -> str:
    """What a JSON document declares itself to be: "puzzle", "ipuz", "board", "catalog puzzle" or "catalog
    solution"; anything else is one PuzzleFormatError naming the key that does not fit and the kinds read
    (a reader never guesses: a document with 'board' and 'clues' but no 'format' is refused, not read as
    an empty board).

    >>> document_kind({"points": 4, "asterisms": [[0, 1], [2, 3], [0, 2], [1, 3]]})
    'board'
    >>> try:
    ...     document_kind({"board": "sudoku:2x2", "clues": {}})
    ... except PuzzleFormatError as e:
    ...     print(str(e)[:42])
    a document with 'board' but no 'format': a
    """
    if not isinstance(data, dict):
        raise PuzzleFormatError(f"a JSON {type(data).__name__} is not a file dlx-latin reads: {KINDS}")
    keys = set(data)
    if "format" in data:
        return "puzzle"
    if is_ipuz(data):
        return "ipuz"
    if "asterisms" in keys and "board" not in keys:
        return "board"  # its reader names any key a board object does not take
    if "board" in keys and "puzzle" in keys and keys <= CATALOG_PUZZLE_KEYS:
        return "catalog puzzle"
    if "board" in keys and "labelling" in keys and keys <= CATALOG_SOLUTION_KEYS:
        return "catalog solution"
    if "board" in keys:
        raise PuzzleFormatError(f"a document with 'board' but no 'format': {KINDS}")
    if "kind" in keys:
        raise PuzzleFormatError(f"'kind' {data['kind']!r:.60} is not an ipuz Sudoku kind list: {KINDS}")
    known = BOARD_KEYS | CATALOG_PUZZLE_KEYS | CATALOG_SOLUTION_KEYS | PUZZLE_KEYS
    odd = sorted(keys - known, key=str) or sorted(keys, key=str) or ["(none)"]
    raise PuzzleFormatError(f"key {odd[0]!r} fits no file dlx-latin reads: {KINDS}")


def read_catalog_record(text: str) -> PuzzleFile:
    """The puzzle of a catalog export line (`catalog export`): its 'puzzle' as clues (a stored solution:
    every label a clue), with its solution; the board must be a built-in spec."""
    return catalog_record_from_json(parse_json(text))


def catalog_record_from_json(data: Any) -> PuzzleFile:
    """A catalog export line's puzzle from its parsed JSON (see `read_catalog_record`)."""
    return built(data, _from_catalog_record, "catalog export line")


def _from_catalog_record(data: dict) -> PuzzleFile:
    board = board_from_spec(data["board"], files=False)
    multiset = _multiset(data.get("multiset"), board)
    field = "puzzle" if "puzzle" in data else "labelling"
    clues = _labels(data[field], board, multiset, field)
    return PuzzleFile(PartialBoard(board, multiset, clues), data["board"], _solution(data, board, multiset))


def _solution(data: dict, board: Board, multiset: Multiset | None) -> list[Label] | None:
    """The optional 'solution' of a document, in point order."""
    if data.get("solution") is None:
        return None
    given = _labels(data["solution"], board, multiset, "solution")
    return [given.get(p) for p in range(board.n_points)]


def _multiset(value: Any, board: Board) -> Multiset | None:
    if value is None:
        return None
    if isinstance(value, str):
        return Multiset.parse(value)
    if isinstance(value, list):
        return Multiset.of(value)
    raise PuzzleFormatError("'multiset' must be a list of labels or a spec such as \"1^2,2^2\"")


def _labels(value: Any, board: Board, multiset: Multiset | None, field: str) -> dict[int, Label]:
    """Point -> label from a grid of rows, a flat list or an object keyed by point index."""
    labels = set(multiset.labels) if multiset else set(range(1, board.asterism_size + 1))
    zero_is_empty = 0 not in labels

    def empty(x: Any) -> bool:
        return x is None or (x == 0 and zero_is_empty and not isinstance(x, bool))

    if isinstance(value, dict):
        out = {}
        for key, label in value.items():
            try:
                point = int(key)
            except ValueError:
                raise PuzzleFormatError(f"'{field}' key {key!r} is not a point index") from None
            if not empty(label):
                out[point] = label
        return out
    if not isinstance(value, list):
        raise PuzzleFormatError(f"'{field}' must be a grid of rows, a list in point order or an object")
    if value and all(isinstance(row, list) for row in value):
        if not board.shape:
            raise PuzzleFormatError(f"'{field}' is a grid of rows but {board.name} is not a square grid")
        rows, cols = board.shape
        if len(value) != rows or any(len(row) != cols for row in value):
            raise PuzzleFormatError(f"'{field}' must be {rows} rows of {cols} for {board.name}")
        flat = [x for row in value for x in row]
    else:
        flat = value
        if len(flat) != board.n_points:
            raise PuzzleFormatError(f"'{field}' lists {len(flat)} points; {board.name} has {board.n_points}")
    return {p: x for p, x in enumerate(flat) if not empty(x)}


def labelling_json(labelling: list, board: Board) -> list:
    """A labelling as JSON: rows for square grids, a flat list in point order otherwise."""
    if board.shape:
        rows, cols = board.shape
        return [labelling[r * cols : (r + 1) * cols] for r in range(rows)]
    return list(labelling)


def write_puzzle(pb: PartialBoard, solution: list | None = None, board_spec: str | dict | None = None) -> str:
    """A native puzzle file for a partial board (and optionally its solution)."""
    board = pb.board
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    data["board"] = board_spec if board_spec is not None else _spec_or_object(board)
    data["multiset"] = pb.multiset.as_list()
    data["clues"] = labelling_json(pb.labelling(), board)
    if pb.inscription:
        data["inscription"] = sorted(pb.inscription)
    if solution is not None:
        data["solution"] = labelling_json(solution, board)
    return json.dumps(data)


def _spec_or_object(board: Board) -> str | dict:
    try:
        again = board_from_spec(board.name, files=False)
    except (InvalidBoardError, OSError):
        return board.to_json()
    return board.name if again.asterisms == board.asterisms else board.to_json()
