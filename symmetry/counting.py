"""Counting Latin boards up to symmetry: the board's automorphisms combined with relabelling.

This first method enumerates the Latin boards and keeps one canonical form per class, so it serves boards
whose automorphism group and Latin boards are both few (the 4x4 Sudoku, Latin squares up to order 4, small
gerechte designs); larger boards are refused with a clear message.  Orbit sizes add up to the plain count,
which the function checks.
"""

from __future__ import annotations

from dlx_latin.errors import UserInputError
from dlx_latin.latin import PartialBoard, completions, count_completions
from dlx_latin.latin.multiset import Label
from symmetry.canonical import MAX_ELEMENTS, canonical_form, group_elements
from symmetry.groups import automorphism_group

MAX_BOARDS = 200_000


class SymmetryTooLargeError(UserInputError):
    """A count up to symmetry that this method cannot do in reasonable time and memory."""


def classes_up_to_symmetry(pb: PartialBoard) -> dict[tuple[Label, ...], int]:
    """Canonical form -> orbit size of every class of Latin boards of an empty board under its
    automorphism group combined with the label group.

    >>> from dlx_latin.boards import board_from_spec
    >>> len(classes_up_to_symmetry(PartialBoard(board_from_spec("sudoku:2x2"))))  # essentially different
    2
    """
    if pb.clues:
        raise SymmetryTooLargeError("counting up to symmetry needs an empty board: clues break the symmetry")
    group = automorphism_group(pb.board)
    if group.order() > MAX_ELEMENTS:
        raise SymmetryTooLargeError(
            f"{pb.board.name} has {group.order()} automorphisms; counting up to symmetry handles at most "
            f"{MAX_ELEMENTS} for now"
        )
    total = count_completions(pb)
    if total > MAX_BOARDS:
        raise SymmetryTooLargeError(
            f"{pb.board.name} has {total} Latin boards; counting up to symmetry enumerates at most "
            f"{MAX_BOARDS} for now"
        )
    elements = group_elements(group)
    found: dict[tuple[Label, ...], int] = {}
    for labelling in completions(pb):
        form = canonical_form(labelling, pb.multiset, elements)
        found[form.labelling] = form.orbit_size
    assert sum(found.values()) == total, "orbit sizes must add up to the count"
    return found


def count_up_to_symmetry(pb: PartialBoard) -> int:
    """The number of classes of Latin boards under automorphisms and relabelling."""
    return len(classes_up_to_symmetry(pb))
