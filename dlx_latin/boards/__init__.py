"""Boards: points and asterisms (Palomo, Def. 3.1), and the built-in families."""

from dlx_latin.boards.board import Board, BoardWarning, InvalidBoardError
from dlx_latin.boards.families import FAMILIES, board_from_spec

__all__ = ["FAMILIES", "Board", "BoardWarning", "InvalidBoardError", "board_from_spec"]
