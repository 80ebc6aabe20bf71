"""Boards: points and asterisms (Palomo, Def. 3.1), and the built-in families."""

from dlx_latin.boards.board import Board, BoardWarning, InvalidBoardError, per_board
from dlx_latin.boards.families import FAMILIES, board_from_spec

__all__ = ["FAMILIES", "Board", "BoardWarning", "InvalidBoardError", "board_from_spec", "per_board"]
