"""The board: points and a constellation of equal-sized asterisms (Palomo, Def. 3.1-3.2).

A board is an immutable value.  Points are numbered 0..n-1 and may carry 2-D or 3-D coordinates (for
pictures and geometric symmetry); square grids also record their shape, row-major.  Validation names the
culprit: unequal asterism sizes, a point in no asterism, an index out of range, a point repeated inside an
asterism.  Identical asterisms are kept once, with a warning.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, wraps
from typing import Any, TypeVar

import numpy as np

from dlx_latin.errors import UserInputError

T = TypeVar("T")
BOARD_KEYS = ("name", "points", "asterisms", "shape", "faces")  # a board object holds these and no other


class InvalidBoardError(UserInputError):
    """A board that cannot be built, or a spec that names no board: the message names the culprit."""


class BoardWarning(UserWarning):
    """Something a board tolerates, such as an asterism given twice."""


@dataclass(frozen=True, eq=False)
class Board:
    """n points and a constellation of asterisms, all of the same size k.

    >>> b = Board("two rows", 4, [(0, 1), (2, 3), (0, 2), (1, 3)], shape=(2, 2))
    >>> b.asterism_size, b.asterisms_per_point
    (2, (2, 2, 2, 2))
    """

    name: str
    n_points: int
    asterisms: tuple[tuple[int, ...], ...]
    coordinates: np.ndarray | None = field(default=None, repr=False)
    shape: tuple[int, int] | None = None
    faces: tuple[np.ndarray, ...] | None = field(default=None, repr=False)  # a polyhedron's, for pictures

    def __init__(
        self,
        name: str,
        n_points: int,
        asterisms: Iterable[Sequence[int]],
        coordinates: Any = None,
        shape: tuple[int, int] | None = None,
        faces: Any = None,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "name", name)
        set_(self, "n_points", _check_point_count(n_points))
        set_(self, "asterisms", _checked_asterisms(n_points, asterisms))
        set_(self, "coordinates", _checked_coordinates(n_points, coordinates))
        if shape is not None and (len(shape) != 2 or shape[0] * shape[1] != n_points):
            raise InvalidBoardError(f"shape {tuple(shape)} does not hold {n_points} points")
        set_(self, "shape", None if shape is None else (int(shape[0]), int(shape[1])))
        set_(self, "faces", _checked_faces(faces, self.coordinates))

    @property
    def asterism_size(self) -> int:
        """k: the size of every asterism (and of the label multiset)."""
        return len(self.asterisms[0])

    @cached_property
    def point_asterisms(self) -> tuple[tuple[int, ...], ...]:
        """For each point, the indices of the asterisms holding it."""
        holding: list[list[int]] = [[] for _ in range(self.n_points)]
        for a, asterism in enumerate(self.asterisms):
            for p in asterism:
                holding[p].append(a)
        return tuple(tuple(h) for h in holding)

    @property
    def asterisms_per_point(self) -> tuple[int, ...]:
        """r for each point (not uniform on every board)."""
        return tuple(len(h) for h in self.point_asterisms)

    def to_json(self) -> dict:
        """The board as a JSON-ready object, readable by `Board.from_json`."""
        out: dict[str, Any] = {"name": self.name}
        out["points"] = self.coordinates.tolist() if self.coordinates is not None else self.n_points
        out["asterisms"] = [list(a) for a in self.asterisms]
        if self.shape:
            out["shape"] = list(self.shape)
        if self.faces:
            out["faces"] = [face.tolist() for face in self.faces]
        return out

    @classmethod
    def from_json(cls, data: Any) -> Board:
        """A custom board: {"name", "points": n or a list of coordinates, "asterisms", "shape"?, "faces"?}
        (faces: a polyhedron's faces, each its corners' 3-D coordinates in order round the face).  Values of
        the wrong type anywhere are an InvalidBoardError naming what failed."""
        try:
            return cls._from_json(data)
        except InvalidBoardError:
            raise
        except (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError) as e:
            raise InvalidBoardError(f"malformed board object: {e}") from None

    @classmethod
    def _from_json(cls, data: Any) -> Board:
        if not isinstance(data, dict):
            raise InvalidBoardError("a board object must be a JSON object with 'points' and 'asterisms'")
        for key in ("points", "asterisms"):
            if key not in data:
                raise InvalidBoardError(f"the board object has no '{key}'")
        unknown = sorted(set(data) - set(BOARD_KEYS), key=str)
        if unknown:
            raise InvalidBoardError(
                f"unknown key {unknown[0]!r} in a board object (it takes {', '.join(BOARD_KEYS)})"
            )
        points = data["points"]
        if isinstance(points, list):
            n, coordinates = len(points), points
        elif isinstance(points, int) and not isinstance(points, bool):
            n, coordinates = points, None
        else:
            raise InvalidBoardError("'points' must be a number of points or a list of coordinates")
        asterisms = data["asterisms"]
        if not isinstance(asterisms, list) or not all(isinstance(a, list) for a in asterisms):
            raise InvalidBoardError("'asterisms' must be a list of lists of point indices")
        shape = data.get("shape")
        return cls(
            str(data.get("name", "custom")),
            n,
            asterisms,
            coordinates,
            tuple(shape) if shape else None,
            data.get("faces"),
        )

    def __repr__(self) -> str:
        shape = f"{len(self.asterisms)} asterisms of {self.asterism_size}"
        return f"Board({self.name!r}: {self.n_points} points, {shape})"

    def _repr_svg_(self) -> str:
        """The board drawn (`dlx_latin.render`), for notebooks."""
        from dlx_latin.render import render_svg

        return render_svg(self)


def per_board(make: Callable[[Board, Any], T]) -> Callable[[Board, Any], T]:
    """`make(board, multiset)` made once per board and multiset in each process, the latest kept: for the
    heavy helpers a worker builds from a task's board (which pickles small) and reuses across its tasks."""
    held: dict[tuple, T] = {}

    @wraps(make)
    def made(board: Board, multiset: Any) -> T:
        key = (board.asterisms, str(multiset))
        if key not in held:
            held.clear()
            held[key] = make(board, multiset)
        return held[key]

    return made


MAX_COORDINATE = 1e12  # beyond, drawings and isometry checks lose all precision
MAX_POINTS = 1 << 16  # the most points of a board (sudoku:16x16 has 65,536)


def _check_point_count(n: int) -> int:
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
        raise InvalidBoardError(f"a board needs a positive number of points, not {n!r}")
    if n > MAX_POINTS:
        raise InvalidBoardError(f"a board may have at most {MAX_POINTS} points, not {n}")
    return int(n)


def _checked_asterisms(n: int, asterisms: Iterable[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    kept: list[tuple[int, ...]] = []
    seen: dict[frozenset, int] = {}
    size = None
    for a, asterism in enumerate(asterisms):
        points = tuple(asterism)
        for p in points:
            if not isinstance(p, (int, np.integer)) or isinstance(p, bool):
                raise InvalidBoardError(f"asterism {a} holds {p!r}, which is not a point index")
            if not 0 <= p < n:
                raise InvalidBoardError(f"asterism {a} names point {p}, outside 0..{n - 1}")
        if len(set(points)) != len(points):
            twice = next(p for p in points if points.count(p) > 1)
            raise InvalidBoardError(f"asterism {a} holds point {twice} twice")
        if size is None:
            size = len(points)
        elif len(points) != size:
            raise InvalidBoardError(
                f"asterism {a} has {len(points)} points but asterism 0 has {size}: "
                "all must have the same size"
            )
        key = frozenset(points)
        if key in seen:
            warnings.warn(
                f"asterism {a} repeats asterism {seen[key]}; it is kept once", BoardWarning, stacklevel=3
            )
            continue
        seen[key] = a
        kept.append(tuple(int(p) for p in points))
    if not kept or size == 0:
        raise InvalidBoardError("a board needs at least one non-empty asterism")
    covered = np.zeros(n, dtype=bool)
    for asterism in kept:
        covered[list(asterism)] = True
    if not covered.all():
        raise InvalidBoardError(f"point {int(np.flatnonzero(~covered)[0])} is in no asterism")
    return tuple(kept)


def _checked_faces(faces: Any, coordinates: np.ndarray | None) -> tuple[np.ndarray, ...] | None:
    """A polyhedron's faces (each its corners, three or more 3-D points in order round it), for pictures."""
    if faces is None:
        return None
    if coordinates is None or coordinates.shape[1] != 3:
        raise InvalidBoardError("faces need points with 3-D coordinates")
    out = []
    for face in faces:
        try:
            corners = np.array(face, dtype=float)
        except (TypeError, ValueError):
            raise InvalidBoardError("a face must be a list of corners, each 3 numbers") from None
        if corners.ndim != 2 or corners.shape[1] != 3 or len(corners) < 3:
            raise InvalidBoardError("a face must be a list of at least 3 corners, each 3 numbers")
        corners.setflags(write=False)
        out.append(corners)
    return tuple(out) or None


def _checked_coordinates(n: int, coordinates: Any) -> np.ndarray | None:
    if coordinates is None:
        return None
    try:
        c = np.array(coordinates, dtype=float)
    except (TypeError, ValueError):
        raise InvalidBoardError("point coordinates must be lists of numbers") from None
    if c.ndim != 2 or c.shape[0] != n or c.shape[1] not in (2, 3):
        raise InvalidBoardError(f"coordinates must be {n} points of 2 or 3 numbers each")
    if not np.isfinite(c).all() or (np.abs(c) > MAX_COORDINATE).any():
        raise InvalidBoardError(
            f"point coordinates must be finite numbers of at most {MAX_COORDINATE:g} in size (no NaN or inf)"
        )
    c.setflags(write=False)
    return c
