"""Partial Latin boards and Latin puzzles: a board, a label multiset, clues, and an inscription.

Palomo's definitions (Latin Puzzles, section 3.3): a partial labeled board is *partial Latin* when no label
exceeds its count in any asterism (Def. 3.7), *completable* when it extends to a Latin board (Def. 3.8), a
*Latin puzzle* when it extends to exactly one (Def. 3.9).  An *inscription* is a set of clues that always
stays among the clues (Def. 3.11).  A PartialBoard is an immutable value: removing a clue makes a new one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from dlx_latin.boards.board import Board
from dlx_latin.errors import UserInputError
from dlx_latin.latin.multiset import InvalidMultisetError, Label, Multiset


class InvalidCluesError(UserInputError):
    """Clues that cannot be placed: a point off the board, or a label not in the multiset."""


@dataclass(frozen=True)
class PartialBoard:
    """A board with a multiset and some clues (point -> label); `inscription` lists clue points that stay.

    >>> from dlx_latin.boards import board_from_spec
    >>> pb = PartialBoard(board_from_spec("latin:3"), clues={0: 1, 1: 1})  # two 1s in row 0
    >>> pb.multiset.labels, pb.is_partial_latin()
    ((1, 2, 3), False)
    """

    board: Board
    multiset: Multiset = None  # type: ignore[assignment]
    clues: Mapping[int, Label] = field(default_factory=dict)
    inscription: frozenset[int] = frozenset()

    def _repr_svg_(self) -> str:
        """The board drawn with its clues (a full Latin board with all its labels), for notebooks."""
        from dlx_latin.render import render_svg

        return render_svg(self)

    def __post_init__(self) -> None:
        k = self.board.asterism_size
        if self.multiset is None:
            object.__setattr__(self, "multiset", Multiset.default(k))
        if self.multiset.size != k:
            raise InvalidMultisetError(
                f"the multiset has {self.multiset.size} labels but the asterisms of "
                f"{self.board.name} have {k} points"
            )
        clues = {}
        for point, label in dict(self.clues).items():
            if isinstance(point, bool) or not isinstance(point, int) or not 0 <= point < self.board.n_points:
                raise InvalidCluesError(
                    f"clue at point {point!r}: the board's points are 0..{self.board.n_points - 1}"
                )
            if label not in self.multiset.count_of:
                raise InvalidCluesError(
                    f"clue at point {point}: label {label!r} is not in the multiset {self.multiset}"
                )
            clues[point] = label
        object.__setattr__(self, "clues", clues)
        inscription = frozenset(self.inscription)
        loose = sorted(inscription - clues.keys())
        if loose:
            raise InvalidCluesError(f"inscription point {loose[0]} holds no clue")
        object.__setattr__(self, "inscription", inscription)

    def is_partial_latin(self) -> bool:
        """Def. 3.7: no label exceeds its count in the multiset in any asterism."""
        return not self.overfull()

    def overfull(self) -> list[tuple[int, Label]]:
        """The (asterism, label) pairs where the clues exceed the label's count."""
        bad = []
        for a, asterism in enumerate(self.board.asterisms):
            seen = Counter(self.clues[p] for p in asterism if p in self.clues)
            bad += [(a, label) for label, c in seen.items() if c > self.multiset.count_of[label]]
        return bad

    def is_full(self) -> bool:
        """Every point holds a label."""
        return len(self.clues) == self.board.n_points

    def without(self, points: Iterable[int]) -> PartialBoard:
        """The same puzzle with the clues at `points` removed (inscription clues stay)."""
        drop = set(points) - self.inscription
        return PartialBoard(
            self.board,
            self.multiset,
            {p: v for p, v in self.clues.items() if p not in drop},
            self.inscription,
        )

    def with_clues(self, clues: Mapping[int, Label]) -> PartialBoard:
        """The same puzzle with more clues."""
        return PartialBoard(self.board, self.multiset, {**self.clues, **clues}, self.inscription)

    def labelling(self) -> list[Label | None]:
        """The labels in point order, None where empty."""
        return [self.clues.get(p) for p in range(self.board.n_points)]
