"""C-PLSE instances (Haraguchi & Ono): a partial Latin square L and a condition C; fill as many empty cells as
possible keeping the Latin condition and C.

The conditions ("null", "sud", "fut", "bs", "kk") are `Condition` types (`dlx_latin.approx.conditions`), found
by name in CONDITIONS; an instance's `rule` is its condition's.  Cells are (row, column) from 0; values
1..n, 0 for empty.  A solution is a dict cell -> value on L's empty cells; `State.can_place` says whether one
more value keeps it a solution, the one test every algorithm shares.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from pathlib import Path

from dlx_latin.errors import UserInputError
from dlx_latin.kenken import Cage, KenKenError, cage_from_json

Cell = tuple[int, int]
FORMAT = "dlx-latin-plse"


class InstanceError(UserInputError):
    """A malformed or inconsistent C-PLSE instance."""


class Condition:
    """What a condition C adds to the Latin condition: by default nothing, and no results beyond the Latin
    square's.  Each condition overrides what it changes."""

    name = ""
    t = 0  # elements of a placement's set in the t-set packing reduction (0: the condition has none)

    def json_fields(self, inst: Instance) -> dict:
        """The condition's data in the instance's JSON object."""
        return {}

    def lines(self, inst: Instance) -> list[list[Cell]]:
        """Groups of cells beyond rows and columns that may not repeat a value (checked in L)."""
        return []

    def check(self, inst: Instance) -> None:
        """Raise InstanceError naming the first thing wrong with the condition's data."""

    def mark(self, state: State, cell: Cell, k: int) -> None:
        """Record in `state` what the condition needs of value k placed at `cell`."""

    def allows(self, state: State, cell: Cell, k: int) -> bool:
        """Whether the condition lets value k go at the empty `cell` (the Latin condition already holds)."""
        return True

    def matching_refusal(self, inst: Instance) -> str | None:
        """Why MATCHING does not apply to this instance (None: it does, with ratio 1/2)."""
        return None

    def packing_refusal(self) -> str | None:
        """Why local search does not apply (None: a placement is a t-set, ratio 2/t - eps)."""
        if self.t:
            return None
        return (
            f"local search does not apply to {self.name}: the paper gives it no local-search result (no "
            "set-packing reduction: the condition ties the values of different cells beyond a line or box)"
        )

    def packing_elements(self, inst: Instance, cell: Cell, k: int) -> tuple:
        """The elements value k at `cell` adds to its set beyond cell, (row, value) and (column, value)."""
        return ()

    def milp_rows(self, inst: Instance, variables: list, state: State) -> Iterable:
        """The integer program's rows beyond one value per cell and per line: (terms, upper bound)."""
        return ()

    def greedy_bound(self, inst: Instance) -> tuple[Fraction, str]:
        """The ratio any blocked solution reaches on this instance, and the theorem's bound as text."""
        raise NotImplementedError

    def random_instance(self, n: int, density: float, rng: random.Random, **options: object) -> Instance:
        """A random instance of order n (see each condition)."""
        raise NotImplementedError

    def hard_instance(self, n: int, density: float, seed: int) -> Instance:
        """An instance built as the paper's hardness proofs build them."""
        raise ValueError(
            f"hard instances are built for null and fut (the paper's reductions), not {self.name}"
        )

    def tight_greedy_example(self, n: int) -> tuple[Instance, dict[Cell, int]]:
        """An instance and a blocked solution reaching exactly the greedy bound."""
        raise NotImplementedError


CONDITIONS: dict[str, Condition] = {}  # by name; filled by dlx_latin.approx.conditions


@dataclass(frozen=True, eq=False)
class Instance:
    """n, the partial Latin square `given` (rows, 0 = empty) and the condition with its data."""

    n: int
    given: tuple[tuple[int, ...], ...]
    condition: str = "null"
    box: tuple[int, int] | None = None  # sud: n0 x n1 blocks
    signs: tuple[tuple[Cell, Cell], ...] = ()  # fut: (a, b) means value(a) < value(b)
    blocks: tuple[tuple[Cell, ...], ...] = ()  # bs: the partition
    capacities: tuple[int, ...] = ()  # bs: one per block
    cages: tuple[Cage, ...] = ()  # kk: KenKen cages over the empty cells

    def __post_init__(self) -> None:
        check(self)

    @property
    def rule(self) -> Condition:
        """The condition's type: its placement rule, checks, rows, generators and bounds."""
        return CONDITIONS[self.condition]

    @cached_property
    def _block_of(self) -> dict[Cell, int]:
        return {cell: b for b, block in enumerate(self.blocks) for cell in block}

    @cached_property
    def _cage_of(self) -> dict[Cell, int]:
        return {cell: c for c, cage in enumerate(self.cages) for cell in cage.cells}

    def cage_of(self, cell: Cell) -> int | None:
        return self._cage_of.get(cell)

    @cached_property
    def _signs_at(self) -> dict[Cell, list[tuple[Cell, int]]]:
        out: dict[Cell, list[tuple[Cell, int]]] = {}
        for a, b in self.signs:  # at a: (other, +1) means a < other; at b: (a, -1) means b > a
            out.setdefault(a, []).append((b, 1))
            out.setdefault(b, []).append((a, -1))
        return out

    @property
    def empty(self) -> list[Cell]:
        """L's empty cells, row by row."""
        return [(i, j) for i in range(self.n) for j in range(self.n) if not self.given[i][j]]

    def box_of(self, cell: Cell) -> int:
        n0, n1 = self.box or (self.n, self.n)
        return (cell[0] // n0) * (self.n // n1) + cell[1] // n1

    def block_of(self, cell: Cell) -> int:
        return self._block_of[cell]

    def signs_at(self, cell: Cell) -> list[tuple[Cell, int]]:
        """(other cell, +1 if this cell must be smaller, -1 if larger) for each sign at `cell`."""
        return self._signs_at.get(cell, [])

    def grid(self, solution: dict[Cell, int]) -> list[list[int]]:
        """L with the solution's values written in."""
        out = [list(row) for row in self.given]
        for (i, j), k in solution.items():
            out[i][j] = k
        return out

    def to_json(self) -> dict:
        data: dict = {"format": FORMAT, "n": self.n, "condition": self.condition, "given": self.given}
        return json.loads(json.dumps({**data, **self.rule.json_fields(self)}))


class State:
    """A solution being built: the grid and, per row, column, box and block, what it already holds."""

    def __init__(self, instance: Instance, solution: dict[Cell, int] | None = None) -> None:
        self.instance = inst = instance
        n = inst.n
        self.grid = [list(row) for row in inst.given]
        self.rows = [set() for _ in range(n)]
        self.cols = [set() for _ in range(n)]
        self.boxes = [set() for _ in range(n)]
        self.sums = [0] * len(inst.blocks)
        self.cage_values: list[list[int]] = [[] for _ in inst.cages]
        self.solution: dict[Cell, int] = {}
        for i in range(n):
            for j in range(n):
                if inst.given[i][j]:
                    self._mark((i, j), inst.given[i][j])
        for cell, k in (solution or {}).items():
            self.place(cell, k)

    def _mark(self, cell: Cell, k: int) -> None:
        i, j = cell
        self.grid[i][j] = k
        self.rows[i].add(k)
        self.cols[j].add(k)
        self.instance.rule.mark(self, cell, k)

    def can_place(self, cell: Cell, k: int) -> bool:
        """Whether value k may go in the empty cell and leave a solution (the Latin condition and C)."""
        i, j = cell
        if self.grid[i][j] or k in self.rows[i] or k in self.cols[j]:
            return False
        return self.instance.rule.allows(self, cell, k)

    def place(self, cell: Cell, k: int) -> None:
        if not self.can_place(cell, k):
            raise ValueError(f"value {k} cannot go at {cell}")
        self._mark(cell, k)
        self.solution[cell] = k

    def is_blocked(self) -> bool:
        """Whether no empty cell can take any value (no extension is a solution)."""
        n = self.instance.n
        return not any(
            self.can_place((i, j), k)
            for i in range(n)
            for j in range(n)
            if not self.grid[i][j]
            for k in range(1, n + 1)
        )


def is_solution(instance: Instance, solution: dict[Cell, int]) -> bool:
    """Whether values on L's empty cells keep the Latin condition and C (placed in any order)."""
    try:
        State(instance, solution)
    except ValueError:
        return False
    return all(not instance.given[i][j] for i, j in solution)


def _cell(value: object, n: int, what: str) -> Cell:
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(x, int) for x in value)):
        raise InstanceError(f"{what}: a cell is [row, column], not {value!r}")
    i, j = value
    if not (0 <= i < n and 0 <= j < n):
        raise InstanceError(f"{what}: cell {[i, j]} is outside the {n} x {n} grid")
    return (i, j)


def _sign(pair: object, n: int) -> tuple[Cell, Cell]:
    if not (isinstance(pair, list) and len(pair) == 2):
        raise InstanceError(f"a sign is [[row, column], [row, column]] (first < second), not {pair!r}")
    return _cell(pair[0], n, "sign"), _cell(pair[1], n, "sign")


def check(inst: Instance) -> None:
    """Raise InstanceError naming the first thing wrong with an instance."""
    n = inst.n
    if not isinstance(n, int) or n < 1:
        raise InstanceError(f"n must be a positive integer, not {n!r}")
    if inst.condition not in CONDITIONS:
        raise InstanceError(f"unknown condition {inst.condition!r}: one of {', '.join(CONDITIONS)}")
    if len(inst.given) != n or any(len(row) != n for row in inst.given):
        raise InstanceError(f"the given square must have {n} rows of {n} values")
    for i, row in enumerate(inst.given):
        for j, k in enumerate(row):
            if not isinstance(k, int) or not 0 <= k <= n:
                raise InstanceError(f"value {k!r} at {[i, j]} is not in 0..{n}")
    rule = CONDITIONS[inst.condition]
    lines = [[(i, j) for j in range(n)] for i in range(n)] + [[(i, j) for i in range(n)] for j in range(n)]
    for line in lines + rule.lines(inst):
        seen: dict[int, Cell] = {}
        for i, j in line:
            k = inst.given[i][j]
            if k and k in seen:
                raise InstanceError(
                    f"value {k} appears twice, at {list(seen[k])} and {[i, j]}: not a partial Latin square"
                )
            seen[k] = (i, j)
    rule.check(inst)


def from_json(data: object) -> Instance:
    """An instance from its JSON object, checked."""
    if not isinstance(data, dict):
        raise InstanceError("an instance is a JSON object")
    n = data.get("n")
    if not isinstance(n, int) or n < 1:
        raise InstanceError(f"n must be a positive integer, not {n!r}")
    given = data.get("given", [[0] * n for _ in range(n)])
    if not isinstance(given, list) or not all(isinstance(row, list) for row in given):
        raise InstanceError("given must be a list of rows")
    condition = data.get("condition", "null")
    box = data.get("box")
    signs = tuple(_sign(pair, n) for pair in data.get("signs", []))
    blocks = tuple(tuple(_cell(c, n, "block") for c in block) for block in data.get("blocks", []))
    cages = data.get("cages", [])
    if not isinstance(cages, list):
        raise InstanceError("cages must be a list")
    try:
        kenken_cages = tuple(cage_from_json(cage, n, number) for number, cage in enumerate(cages))
    except KenKenError as err:
        raise InstanceError(str(err)) from None
    return Instance(
        n,
        tuple(tuple(row) for row in given),
        condition,
        tuple(box) if isinstance(box, list) else None,
        signs,
        blocks,
        tuple(data.get("capacities", [])),
        kenken_cages,
    )


def read_instance(path: str | Path) -> Instance:
    """An instance from a JSON file."""
    from dlx_latin.files import read_json

    return from_json(read_json(path, "instance file", InstanceError))
