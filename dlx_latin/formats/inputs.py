"""The files and specs named on the command line: a JSON input file read and parsed once and taken for what
it declares (`read_input`), and a command's FILE|BOARD with its --multiset and --clues (`load_target`).

The kinds are told apart by `formats.puzzle.document_kind` (a native puzzle file, an ipuz Sudoku file, a
catalog export line, a board file); anything else is refused in one line naming the key that does not fit.
"""

from __future__ import annotations

import os
from pathlib import Path

from dlx_latin.boards import Board, board_from_spec
from dlx_latin.boards.board import InvalidBoardError
from dlx_latin.errors import OptionConflictError
from dlx_latin.files import read_text
from dlx_latin.formats.ipuz import ipuz_from_json
from dlx_latin.formats.puzzle import (
    PuzzleFile,
    PuzzleFormatError,
    catalog_record_from_json,
    document_kind,
    parse_json,
    puzzle_from_json,
)
from dlx_latin.latin import Multiset, PartialBoard
from dlx_latin.latin.grid import GridStringError, parse_grid

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


def read_puzzle_file(path: Path) -> PuzzleFile:
    """The puzzle in a file (native, ipuz Sudoku, a catalog export line); a board file is refused."""
    found = read_input(path)
    if isinstance(found, Board):
        raise PuzzleFormatError(f"{path} is a board file, neither a dlx-latin puzzle file nor an ipuz one")
    return found


def load_target(target: str, multiset: str | None = None, clues: str | None = None) -> PartialBoard:
    """A puzzle file, or a BOARD spec (or board file) with an optional --multiset and --clues grid string."""
    path = Path(target)
    found = read_input(path) if path.is_file() else board_from_spec(target)
    if isinstance(found, PuzzleFile):
        if multiset or clues:
            raise OptionConflictError(
                f"{target} is a puzzle file, which holds its own labels and clues: --multiset and --clues "
                "apply to a BOARD"
            )
        return found.partial
    board = found
    m = Multiset.parse(multiset) if multiset else None
    pb = PartialBoard(board, m)
    if clues:
        if not board.shape:
            raise GridStringError(
                f"--clues takes a grid string, for square boards; {board.name} needs a puzzle file"
            )
        pb = pb.with_clues(parse_grid(clues, board.n_points, pb.multiset))
    return pb
