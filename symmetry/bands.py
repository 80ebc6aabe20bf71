"""Sudoku counted band by band, in column sets instead of grids (after Felgenhauer & Jarvis, 2005).

sudoku:RxC has C bands of R rows and R stacks of C columns.  A band's filling puts R labels in each of its
columns, and within a stack the C columns' label sets partition the n = RC labels (the band's boxes).  The
other bands see a band only through those column sets, so a grid is a choice of column sets Z1, ..., ZC for
the bands (each column's sets partitioning the labels) and, for each band, one of f(Zb) arrangements of
its column sets into rows:

    count = sum over Z1, ..., ZC of f(Z1) f(Z2) ... f(ZC).

f(Z) depends only on the band's *pattern*: the multiset, over the labels, of each label's *type* (its
column in each stack), since renaming labels of one type keeps Z.  A pattern stands for n!/prod(m!) column
set choices (m: the multiplicities of its types), and patterns fall into classes under the grid symmetries
that keep the band (columns within a stack, stacks), which keep f and the number of completions.  So the
first band takes one pattern per class, weighted by the column-set choices the class stands for; the
second band's column sets are enumerated (stack by stack, each label to a column it has not used in that
stack, vectorized over the stacks), and the last band's are forced.  f of each class is an exact-cover
count on the kernel.  For 9x9 Sudoku: 22,620 patterns in a few hundred classes, 56^3 second bands each.

The method runs when the bands are at most 3 (sudoku:RxC and sudoku:CxR have the same count, by
transposition, so the orientation with fewer bands is taken); beyond, `BandsTooLargeError`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from dlx_latin.exact_cover import ExactCoverProblem
from dlx_latin.exact_cover.settings import DEFAULT, CountSettings
from dlx_latin.latin import PartialBoard
from dlx_latin.runner import count_in_parts
from symmetry.errors import SymmetryTooLargeError

MAX_BANDS = 3  # band 1 by classes, band 2 enumerated, band 3 forced
MAX_SECOND_BANDS = 5_000_000  # second bands enumerated at once for one first band
CLASSES_PER_PART = 4  # first-band classes per part of the count (sudoku:3x3: 44 classes, 11 parts)
MAX_SYMMETRIES = 50_000  # grid symmetries that keep the bands, run through to class the patterns

Pattern = tuple[int, ...]  # each label's type code (sum of column_in_stack_s * C**s), sorted


class BandsTooLargeError(SymmetryTooLargeError):
    """A Sudoku shape whose bands are too many or too wide for the band method."""


def sudoku_shape(pb: PartialBoard) -> tuple[int, int] | None:
    """(R, C) when `pb` is an empty board with n distinct labels whose structure is sudoku:RxC's, whatever
    its name and point numbering (`symmetry.recognise`); the band method counts it."""
    from symmetry.recognise import recognised_empty

    found = recognised_empty(pb)
    if found is None or found[0].family != "sudoku":
        return None
    r, c = found[0].parameters
    return r, c


@dataclass
class Bands:
    """The band method for sudoku:RxC as given: `stacks` = R stacks of `width` = C columns (and C bands)."""

    stacks: int
    width: int

    def __post_init__(self) -> None:
        if self.width > MAX_BANDS:
            raise BandsTooLargeError(
                f"sudoku:{self.stacks}x{self.width} has {self.width} bands; the band method takes at most "
                f"{MAX_BANDS}"
            )
        if self.width < 2 or self.stacks < 1:
            raise BandsTooLargeError(f"sudoku:{self.stacks}x{self.width} has no bands to count by")
        if (self.stacks + 1) ** (self.width**self.stacks) >= 2**62:
            raise BandsTooLargeError(
                f"sudoku:{self.stacks}x{self.width}'s band patterns do not fit a 64-bit key"
            )

    @property
    def n(self) -> int:
        return self.stacks * self.width

    def code(self, columns: tuple[int, ...]) -> int:
        """The type code of a label with column `columns[s]` in stack s."""
        return sum(c * self.width**s for s, c in enumerate(columns))

    def columns(self, code: int) -> tuple[int, ...]:
        """The columns, stack by stack, of a type code."""
        return tuple(code // self.width**s % self.width for s in range(self.stacks))

    # ---- patterns and their classes ---------------------------------------------------------------
    @cached_property
    def patterns(self) -> dict[Pattern, int]:
        """Every pattern of a band, with the number of column-set choices it stands for (n!/prod(m!))."""
        level: list[tuple[dict[tuple[int, ...], int], int]] = [({(): self.n}, 1)]
        for _ in range(self.stacks):
            level = [(refined, weight * w) for types, weight in level for refined, w in self._refine(types)]
        out = {}
        for types, weight in level:
            pattern = tuple(sorted(self.code(t) for t, m in types.items() for _ in range(m)))
            out[pattern] = weight
        return out

    def _refine(self, types: dict[tuple[int, ...], int]) -> Iterator[tuple[dict[tuple[int, ...], int], int]]:
        """The types extended by one more stack: each type's labels spread over the stack's columns, every
        column taking R labels, with the number of ways to choose which labels go where."""
        items = sorted(types.items())
        width, height = self.width, self.stacks

        def spread(m: int, room: list[int], j: int = 0) -> Iterator[tuple[int, ...]]:
            if j == width - 1:
                if m <= room[j]:
                    yield (m,)
                return
            for a in range(min(m, room[j]) + 1):
                for rest in spread(m - a, room, j + 1):
                    yield (a, *rest)

        def extend(k: int, room: list[int], acc: dict, weight: int) -> Iterator[tuple[dict, int]]:
            if k == len(items):
                if not any(room):
                    yield dict(acc), weight
                return
            t, m = items[k]
            for parts in spread(m, room):
                grown = dict(acc)
                for j, a in enumerate(parts):
                    if a:
                        grown[(*t, j)] = a
                ways = math.factorial(m) // math.prod(math.factorial(a) for a in parts)
                yield from extend(
                    k + 1, [r - a for r, a in zip(room, parts, strict=True)], grown, weight * ways
                )

        yield from extend(0, [height] * width, {}, 1)

    def _symmetry_maps(self) -> np.ndarray:
        """Each grid symmetry keeping the bands (columns within stacks, stacks) as a map of type codes."""
        count = math.factorial(self.width) ** self.stacks * math.factorial(self.stacks)
        if count > MAX_SYMMETRIES:
            raise BandsTooLargeError(f"{count:,} symmetries to class the band patterns: too many")
        codes = range(self.width**self.stacks)
        maps = []
        for order in itertools.permutations(range(self.stacks)):
            for perms in itertools.product(itertools.permutations(range(self.width)), repeat=self.stacks):
                maps.append(
                    [
                        self.code(tuple(perms[s][cols[order[s]]] for s in range(self.stacks)))
                        for cols in map(self.columns, codes)
                    ]
                )
        return np.array(maps, dtype=np.int32)

    @cached_property
    def _powers(self) -> np.ndarray:
        """(R+1)**code for each type code: a pattern's key is the sum over its labels (a type has at most R
        labels, the R of one column), so equal keys are equal patterns and no sorting is needed."""
        base, types = self.stacks + 1, self.width**self.stacks
        return base ** np.arange(types, dtype=np.int64)

    def keys(self, codes: np.ndarray) -> np.ndarray:
        """The key of each band given as a row of label type codes."""
        return self._powers[codes].sum(axis=1)

    @cached_property
    def classes(self) -> tuple[dict[int, int], list[Pattern], list[int]]:
        """(class of every pattern key, a representative per class, column-set choices per class)."""
        patterns = list(self.patterns)
        rows = np.array(patterns, dtype=np.int64)
        keys = self.keys(rows)
        best = keys.copy()
        for cmap in self._symmetry_maps():
            np.minimum(best, self.keys(cmap[rows]), out=best)
        _, first_seen, which = np.unique(best, return_index=True, return_inverse=True)
        which = which.ravel().tolist()
        weights = [0] * len(first_seen)
        for pattern, k in zip(patterns, which, strict=True):
            weights[k] += self.patterns[pattern]
        of = dict(zip(keys.tolist(), which, strict=True))
        return of, [patterns[k] for k in first_seen.tolist()], weights

    @cached_property
    def fillings(self) -> list[int]:
        """f of each class: the ways to arrange a band's column sets of that pattern into rows."""
        return [self.band_fillings(rep) for rep in self.classes[1]]

    def band_fillings(self, pattern: Pattern) -> int:
        """The band fillings with the column sets of `pattern` (label k of type pattern[k]): an exact
        cover of (label, stack), (label, row) and (stack, column, row) by (label, stack, row)."""
        h = self.stacks
        types = [self.columns(code) for code in pattern]
        items = [("ls", v, s) for v in range(self.n) for s in range(h)]
        items += [("lr", v, r) for v in range(self.n) for r in range(h)]
        items += [("cr", s, j, r) for s in range(h) for j in range(self.width) for r in range(h)]
        options = [
            [("ls", v, s), ("lr", v, r), ("cr", s, types[v][s], r)]
            for v in range(self.n)
            for s in range(h)
            for r in range(h)
        ]
        return ExactCoverProblem(items, options).count()

    def f(self, key: int) -> int:
        """f of a pattern given by its key, through its class."""
        return self.fillings[self.classes[0][key]]

    # ---- the count ----------------------------------------------------------------------------------
    def completions(self, pattern: Pattern) -> int:
        """The ways to fill bands 2.. (arrangements included) once band 1 has the column sets of
        `pattern` (label k of type pattern[k])."""
        used = np.array([self.columns(code) for code in pattern], dtype=np.int64)  # label x stack
        if self.width == 2:
            codes = (1 - used) @ (self.width ** np.arange(self.stacks))
            return self.f(int(self.keys(codes[None, :])[0]))
        return self._two_bands(used)

    def _stack_choices(self, used: np.ndarray) -> np.ndarray:
        """For one stack: every band-2 column per label (not the label's band-1 column), R labels a column."""
        free = [[j for j in range(self.width) if j != u] for u in used.tolist()]
        out = [
            choice
            for choice in itertools.product(*free)
            if all(choice.count(j) == self.stacks for j in range(self.width))
        ]
        return np.array(out, dtype=np.int64).reshape(len(out), self.n)

    def _two_bands(self, used: np.ndarray) -> int:
        """Sum over band 2's column sets of f(band 2) f(band 3) (3 bands: band 3 is forced)."""
        choices = [self._stack_choices(used[:, s]) for s in range(self.stacks)]
        total_choices = math.prod(len(c) for c in choices)
        if total_choices > MAX_SECOND_BANDS:
            raise BandsTooLargeError(
                f"sudoku:{self.stacks}x{self.width} has {total_choices:,} second bands per first band; the "
                f"band method enumerates at most {MAX_SECOND_BANDS:,}"
            )
        second = np.zeros((1, self.n), dtype=np.int64)
        third = np.zeros((1, self.n), dtype=np.int64)
        for s, c in enumerate(choices):
            power = self.width**s
            last = 3 - used[:, s] - c  # the column of the three neither band 1 nor band 2 uses
            second = (second[:, None, :] + power * c[None, :, :]).reshape(-1, self.n)
            third = (third[:, None, :] + power * last[None, :, :]).reshape(-1, self.n)
        unique2, at2 = np.unique(self.keys(second), return_inverse=True)
        f3 = self._f_keys(self.keys(third))
        per_second = np.zeros(len(unique2), dtype=np.int64)
        if int(f3.max()) * len(f3) >= 2**62:
            raise BandsTooLargeError(f"sudoku:{self.stacks}x{self.width}'s band sums overflow 64 bits")
        np.add.at(per_second, at2.ravel(), f3)  # sum of f(band 3) for each pattern of band 2
        return sum(self.f(k) * s for k, s in zip(unique2.tolist(), per_second.tolist(), strict=True))

    def _f_keys(self, keys: np.ndarray) -> np.ndarray:
        """f of each band given by its pattern key."""
        unique, inverse = np.unique(keys, return_inverse=True)
        return np.array([self.f(k) for k in unique.tolist()], dtype=np.int64)[inverse.ravel()]

    def count(self, settings: CountSettings = DEFAULT) -> int:
        """The number of Sudoku grids of this shape: the first band's classes in parts of CLASSES_PER_PART,
        run as `settings` say (`runner.count_in_parts`: processes, a checkpoint, progress)."""
        classes = len(self.classes[2])
        self.fillings  # found once here, sent with the parts  # noqa: B018
        parts = [
            (f"sudoku:{self.stacks}x{self.width} by bands, first-band classes {i} to {j - 1}", (self, i, j))
            for i in range(0, classes, CLASSES_PER_PART)
            for j in [min(i + CLASSES_PER_PART, classes)]
        ]
        return count_in_parts(_classes_share, parts, settings)

    def share(self, first: int, stop: int) -> int:
        """The grids whose first band is in the classes first..stop-1."""
        _, reps, weights = self.classes
        return sum(weights[k] * self.fillings[k] * self.completions(reps[k]) for k in range(first, stop))

    def __getstate__(self) -> dict:
        """What a worker needs: the classes and their fillings, not every pattern (sent with each part)."""
        return {k: v for k, v in self.__dict__.items() if k != "patterns"}


def _classes_share(bands: Bands, first: int, stop: int) -> int:
    """`Bands.share`, as a task for a pool."""
    return bands.share(first, stop)


def count_by_bands(rows: int, cols: int, settings: CountSettings = DEFAULT) -> int:
    """The number of sudoku:RxC grids (R = rows, C = cols of a box) by the band method, in the orientation
    with fewer bands, run as `settings` say.

    >>> count_by_bands(2, 3)  # Sudoku 6x6
    28200960
    """
    stacks, width = (rows, cols) if cols <= rows else (cols, rows)
    return Bands(stacks, width).count(settings)


def count_sudoku(pb: PartialBoard, settings: CountSettings = DEFAULT) -> int | None:
    """The number of Latin boards of an empty sudoku:RxC with distinct labels by the band method; None for
    any other board, or a shape the method does not take (more than 3 bands both ways: sudoku:4x4)."""
    shape = sudoku_shape(pb)
    if shape is None:
        return None
    try:
        return count_by_bands(*shape, settings)
    except BandsTooLargeError:
        return None
