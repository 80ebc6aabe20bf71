"""Grid strings: one character per point of a square board, row-major.

A label is written as its own text when that is one character (`1`..`9`, `A`, `x`), and an integer label
10..35 as a base-36 digit (`A` = 10 ... `Z` = 35), as Sudoku collections write 16x16 grids.  Empty points
are `.`, `-`, `_`, or `0` when 0 is not a label.  Whitespace is ignored, so a grid may span lines.
"""

from __future__ import annotations

import string

from dlx_latin.errors import UserInputError
from dlx_latin.latin.multiset import Label, Multiset

EMPTY = ".-_"
_DIGITS36 = string.digits + string.ascii_uppercase


class GridStringError(UserInputError):
    """A grid string that does not fit the board or the multiset."""


def label_char(label: Label) -> str:
    """The one character that stands for a label in a grid string."""
    text = str(label)
    if len(text) == 1:
        return text
    if isinstance(label, int) and 10 <= label < 36:
        return _DIGITS36[label]
    raise GridStringError(f"label {label!r} has no one-character form for a grid string")


def label_chars(multiset: Multiset) -> dict[str, Label]:
    """The multiset's labels by the character that writes them (labels with no one-character form out)."""
    by_char: dict[str, Label] = {}
    for label in multiset.labels:
        try:
            by_char[label_char(label)] = label
        except GridStringError:
            continue
    return by_char


def parse_grid(text: str, n_points: int, multiset: Multiset) -> dict[int, Label]:
    """The clues (point -> label) of a grid string.

    >>> parse_grid("1.2. .... .... ....", 16, Multiset.parse("1,2,3,4"))
    {0: 1, 2: 2}
    """
    chars = [c for c in text if not c.isspace()]
    if len(chars) > n_points:  # a puzzle with text after it: name what is extra, not a cell count
        extra = "".join(chars[n_points:])
        shown = extra if len(extra) <= 20 else extra[:20] + "..."
        raise GridStringError(
            f"the line has {len(extra)} characters after the board's {n_points} cells ({shown!r}): one grid "
            "string per line, nothing after it"
        )
    if len(chars) != n_points:
        raise GridStringError(f"the grid string has {len(chars)} cells; the board has {n_points}")
    by_char = label_chars(multiset)
    clues = {}
    for p, c in enumerate(chars):
        if c in EMPTY or (c == "0" and "0" not in by_char):
            continue
        if c not in by_char:
            raise GridStringError(f"grid string cell {p}: {c!r} is not a label of the multiset {multiset}")
        clues[p] = by_char[c]
    return clues


def format_grid(labelling: list, shape: tuple[int, int]) -> str:
    """A labelling as grid-string rows, one line per row, `.` for empty points."""
    rows, cols = shape
    return "\n".join(
        "".join(
            "." if labelling[r * cols + c] is None else label_char(labelling[r * cols + c])
            for c in range(cols)
        )
        for r in range(rows)
    )
