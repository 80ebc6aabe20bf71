"""KenKen: a Latin square of order n whose cells are split into *cages*, each with an operation and a target
(+: the values sum to it, *: multiply to it, -: two cells differ by it, /: two cells, one the other times
it, =: one cell holding it).  Haraguchi & Ono's Section 5 names it as BlockSum's generalization.

A puzzle is solved on the exact-cover kernel: one primary item per cage and per (row, value) and (column,
value); one option per filling of a cage that meets its operation and repeats no value in a row or column,
covering the cage and its cells' (row, value) and (column, value).  Every cell is in one cage, so an exact
cover is a Latin square meeting every cage, and each solution is found once.

A cage also has a *partial* rule for partial fillings (`Cage.admits`), closed under emptying cells, as the
approximation condition `kk` needs: + the sum at most the target, * the product dividing it, - and / the
rule once both cells hold values, = the target.

File format (JSON): {"format": "dlx-latin-kenken", "n": 4, "cages": [{"cells": [[0, 0], [0, 1]], "op": "+",
"target": 3}, ...], "solution": optional rows}.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from dlx_latin.cells import connected
from dlx_latin.errors import UserInputError
from dlx_latin.exact_cover import ExactCoverProblem

Cell = tuple[int, int]
FORMAT = "dlx-latin-kenken"
OPS = ("+", "-", "*", "/", "=")
ALIASES = {"x": "*", "×": "*", "÷": "/", "−": "-"}
MAX_ORDER = 16
MAX_FILLINGS = 2_000_000  # fillings of one cage held in memory
MAX_SEARCH = 5_000_000  # prefixes of one cage's fillings tried, at most (about 5 s)


class KenKenError(UserInputError):
    """A malformed KenKen puzzle or cage: the message names what is wrong."""


@dataclass(frozen=True)
class Cage:
    """Cells (row, column), an operation in OPS and a positive integer target."""

    cells: tuple[Cell, ...]
    op: str
    target: int

    def fits(self, values: Sequence[int]) -> bool:
        """Whether one value per cell meets the operation."""
        t = self.target
        if self.op == "+":
            return sum(values) == t
        if self.op == "*":
            return math.prod(values) == t
        if self.op == "=":
            return values[0] == t
        a, b = sorted(values)
        return b - a == t if self.op == "-" else b == a * t

    def admits(self, values: Sequence[int]) -> bool:
        """Whether values on some of the cells keep the partial rule (closed under removing values)."""
        if not values:
            return True
        if self.op == "+":
            return sum(values) <= self.target
        if self.op == "*":
            return self.target % math.prod(values) == 0
        if self.op == "=":
            return all(v == self.target for v in values)
        return len(values) < 2 or self.fits(values)

    def fillings(self, n: int) -> Iterator[tuple[int, ...]]:
        """Every filling with values 1..n that meets the operation and repeats no value in a row or
        column of the cage, in lexicographic order: cell by cell, a prefix kept only while the cells left
        can still reach the target.  KenKenError past MAX_SEARCH prefixes (a huge cage)."""
        k, t = len(self.cells), self.target
        cells = self.cells
        before = [  # per cell, the earlier cells of its row or column (they take other values)
            [a for a in range(b) if cells[a][0] == cells[b][0] or cells[a][1] == cells[b][1]]
            for b in range(k)
        ]
        values = [0] * k
        visited = 0

        def reachable(i: int, total: int) -> bool:  # cells i.. can still bring the sum or product to t
            left = k - i
            if self.op == "+":
                return total + left <= t <= total + left * n
            if self.op == "*":
                return t % total == 0 and total * n**left >= t
            return True

        def extend(i: int, total: int) -> Iterator[tuple[int, ...]]:
            nonlocal visited
            if i == k:
                if self.fits(values):
                    yield tuple(values)
                return
            for v in range(1, n + 1):
                visited += 1
                if visited > MAX_SEARCH:
                    raise KenKenError(f"a cage of {k} cells is too large to list its fillings")
                if any(values[a] == v for a in before[i]):
                    continue
                values[i] = v
                grown = total + v if self.op == "+" else total * v
                if reachable(i + 1, grown):
                    yield from extend(i + 1, grown)

        return extend(0, 0 if self.op == "+" else 1)

    def to_json(self) -> dict:
        return {"cells": [list(c) for c in self.cells], "op": self.op, "target": self.target}


def cage_from_json(data: object, n: int, number: int) -> Cage:
    """A cage from {"cells": [[r, c], ...], "op": "+", "target": t}, checked on its own."""
    what = f"cage {number}"
    if not isinstance(data, dict):
        raise KenKenError(f"{what} must be an object with cells, op and target")
    cells = data.get("cells")
    if not isinstance(cells, list) or not cells:
        raise KenKenError(f"{what}: cells must be a non-empty list of [row, column]")
    out = []
    for cell in cells:
        if not (isinstance(cell, list) and len(cell) == 2 and all(type(x) is int for x in cell)):
            raise KenKenError(f"{what}: a cell is [row, column], not {cell!r}")
        if not all(0 <= x < n for x in cell):
            raise KenKenError(f"{what}: cell {cell} is outside the {n} x {n} grid")
        out.append((cell[0], cell[1]))
    if len(set(out)) != len(out):
        raise KenKenError(f"{what} lists a cell twice")
    op = data.get("op")
    op = ALIASES.get(op, op) if isinstance(op, str) else None
    if op not in OPS:
        raise KenKenError(f"{what}: unknown operation {data.get('op')!r}: one of {' '.join(OPS)}")
    target = data.get("target")
    if type(target) is not int or target < 1:
        raise KenKenError(f"{what}: the target must be a positive integer, not {target!r}")
    if op in "-/" and len(out) != 2:
        raise KenKenError(f"{what}: {op} cages have two cells, not {len(out)}")
    if op == "=" and len(out) != 1:
        raise KenKenError(f"{what}: = cages have one cell, not {len(out)}")
    if not connected(out):
        raise KenKenError(f"{what} is not connected")
    return Cage(tuple(out), op, target)


def check_disjoint(cages: Sequence[Cage]) -> dict[Cell, int]:
    """Cell -> its cage, refusing a cell in two cages."""
    owner: dict[Cell, int] = {}
    for c, cage in enumerate(cages):
        for cell in cage.cells:
            if cell in owner:
                raise KenKenError(f"cell {list(cell)} is in cages {owner[cell]} and {c}")
            owner[cell] = c
    return owner


@dataclass(frozen=True)
class KenKen:
    """A KenKen puzzle: order n and cages covering every cell once."""

    n: int
    cages: tuple[Cage, ...]

    def __post_init__(self) -> None:
        if type(self.n) is not int or not 1 <= self.n <= MAX_ORDER:
            raise KenKenError(f"n must be an integer from 1 to {MAX_ORDER}, not {self.n!r}")
        owner = check_disjoint(self.cages)
        missing = [(i, j) for i in range(self.n) for j in range(self.n) if (i, j) not in owner]
        if missing:
            raise KenKenError(f"cell {list(missing[0])} is in no cage: a KenKen's cages cover every cell")

    def problem(self) -> tuple[ExactCoverProblem, list[tuple[int, tuple[int, ...]]]]:
        """The exact-cover problem and, per option, (cage, filling)."""
        n = self.n
        items = [("cage", c) for c in range(len(self.cages))]
        items += [(line, k, v) for line in ("row", "col") for k in range(n) for v in range(1, n + 1)]
        options, meaning = [], []
        for c, cage in enumerate(self.cages):
            for count, values in enumerate(cage.fillings(n), start=1):
                if count > MAX_FILLINGS:
                    raise KenKenError(f"cage {c} has more than {MAX_FILLINGS} fillings: too large to list")
                option = [("cage", c)]
                for (i, j), v in zip(cage.cells, values, strict=True):
                    option += [("row", i, v), ("col", j, v)]
                options.append(option)
                meaning.append((c, values))
        return ExactCoverProblem(items, options), meaning

    def solutions(self, limit: int | None = None) -> Iterator[list[list[int]]]:
        """Each solution as rows of values."""
        problem, meaning = self.problem()
        for chosen in problem.solutions(limit):
            grid = [[0] * self.n for _ in range(self.n)]
            for k in chosen:
                c, values = meaning[k]
                for (i, j), v in zip(self.cages[c].cells, values, strict=True):
                    grid[i][j] = v
            yield grid

    def count(self, limit: int | None = None) -> int:
        """The number of solutions (up to `limit`)."""
        problem, _ = self.problem()
        return problem.count(limit)

    def to_json(self) -> dict:
        return {"format": FORMAT, "n": self.n, "cages": [cage.to_json() for cage in self.cages]}


def from_json(data: object) -> KenKen:
    """A puzzle from its JSON object, checked."""
    if not isinstance(data, dict):
        raise KenKenError("a KenKen puzzle is a JSON object with n and cages")
    if data.get("format", FORMAT) != FORMAT:
        raise KenKenError(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    unknown = sorted(set(data) - {"format", "n", "cages"}, key=str)
    if unknown:
        raise KenKenError(f"unknown key {unknown[0]!r} in a KenKen puzzle (it takes format, n and cages)")
    n = data.get("n")
    if type(n) is not int or not 1 <= n <= MAX_ORDER:
        raise KenKenError(f"n must be an integer from 1 to {MAX_ORDER}, not {n!r}")
    cages = data.get("cages")
    if not isinstance(cages, list):
        raise KenKenError("cages must be a list")
    return KenKen(n, tuple(cage_from_json(c, n, number) for number, c in enumerate(cages)))


def read_kenken(path: str | Path) -> KenKen:
    """A puzzle from a JSON file."""
    from dlx_latin.files import read_json

    return from_json(read_json(path, "KenKen file", KenKenError))


def random_square(n: int, rng: random.Random) -> list[list[int]]:
    """A random Latin square: the cyclic one with rows, columns and values shuffled."""
    rows, cols, values = (rng.sample(range(n), n) for _ in range(3))
    return [[values[(rows[i] + cols[j]) % n] + 1 for j in range(n)] for i in range(n)]


def random_partition(cells: Sequence[Cell], max_size: int, rng: random.Random) -> list[list[Cell]]:
    """The cells split into random connected groups of up to max_size, grown from random cells (one cell
    alone a sixth of the time, as KenKen's single given cells are few)."""
    free, groups = set(cells), []
    order = list(cells)
    rng.shuffle(order)
    for start in order:
        if start not in free:
            continue
        free.discard(start)
        group, size = [start], 1 if max_size < 2 or rng.random() < 1 / 6 else rng.randint(2, max_size)
        while len(group) < size:
            near = sorted(
                {d for i, j in group for d in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)) if d in free}
            )
            if not near:
                break
            d = rng.choice(near)
            free.discard(d)
            group.append(d)
        groups.append(group)
    return groups


def cage_on(cells: Sequence[Cell], square: Sequence[Sequence[int]], rng: random.Random) -> Cage:
    """A cage on these cells whose operation and target the square's values meet: = for one cell; for
    two, / when one divides the other (half the time), else - or + or *; + or * for more."""
    values = [square[i][j] for i, j in cells]
    if len(cells) == 1:
        return Cage(tuple(cells), "=", values[0])
    if len(cells) == 2:
        a, b = sorted(values)
        if b % a == 0 and rng.random() < 0.5:
            return Cage(tuple(cells), "/", b // a)
        op = rng.choice("-+*")
        target = {"-": b - a, "+": a + b, "*": a * b}[op]
        return Cage(tuple(cells), op, target)
    op = rng.choice("+*")
    return Cage(tuple(cells), op, sum(values) if op == "+" else math.prod(values))


def random_kenken(n: int, seed: int = 0, max_cage: int = 4, unique: bool = False, tries: int = 200) -> KenKen:
    """A random puzzle on a random Latin square; with `unique`, the first of up to `tries` whose solution
    is unique (KenKenError if none)."""
    rng = random.Random(seed)
    for _ in range(tries if unique else 1):
        square = random_square(n, rng)
        cells = [(i, j) for i in range(n) for j in range(n)]
        puzzle = KenKen(n, tuple(cage_on(g, square, rng) for g in random_partition(cells, max_cage, rng)))
        if not unique or puzzle.count(2) == 1:
            return puzzle
    raise KenKenError(f"no unique puzzle of order {n} in {tries} tries (seed {seed}); try smaller cages")
