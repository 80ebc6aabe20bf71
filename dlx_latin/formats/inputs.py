"""A JSON input file named on the command line, read and parsed once and taken for what it declares.

The kinds are told apart by `formats.puzzle.document_kind` (a native puzzle file, an ipuz Sudoku file, a
catalog export line, a board file); anything else is refused in one line naming the key that does not fit.
"""

from __future__ import annotations

import os

from dlx_latin.boards import Board
from dlx_latin.boards.board import InvalidBoardError
from dlx_latin.formats.files import read_text
from dlx_latin.formats.ipuz import ipuz_from_json
from dlx_latin.formats.puzzle import (
    PuzzleFile,
    PuzzleFormatError,
    catalog_record_from_json,
    document_kind,
    parse_json,
    puzzle_from_json,
)

READERS = {"puzzle": puzzle_from_json, "ipuz": ipuz_from_json}  # the other puzzle kinds: catalog lines


def read_input(path: str | os.PathLike) -> PuzzleFile | Board:
    """The puzzle (native, ipuz Sudoku, a catalog export line) or the board a JSON file holds.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "b.json"
    >>> _ = f.write_text('{"points": 2, "asterisms": [[0, 1]]}')
    >>> read_input(f)
    Board('custom': 2 points, 1 asterisms of 2)
    """
    text = read_text(path, "input file")
    try:
        data = parse_json(text)
    except PuzzleFormatError as e:
        raise PuzzleFormatError(
            f"{path}: {e}; so neither a dlx-latin puzzle file nor an ipuz Sudoku file nor a board file"
        ) from None
    try:
        kind = document_kind(data)
    except PuzzleFormatError as e:
        raise PuzzleFormatError(f"{path}: {e}") from None
    if kind == "board":
        try:
            return Board.from_json(data)
        except InvalidBoardError as e:
            raise InvalidBoardError(f"{path}: {e}") from None
    return READERS.get(kind, catalog_record_from_json)(data)
