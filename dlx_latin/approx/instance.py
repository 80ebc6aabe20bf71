"""C-PLSE instances (Haraguchi & Ono): a partial Latin square L and a condition C; fill as many empty cells as
possible keeping the Latin condition and C.

Conditions: "null" (none), "sud" (no value twice in an n0 x n1 block), "fut" (a sign set: ordered pairs
(a, b) of adjacent cells, at least one empty in L, meaning value(a) < value(b) when both are filled), "bs"
(a partition into connected blocks with capacities: the values in a block sum to at most its capacity;
L's filled cells are unit blocks whose capacity is their value, every empty cell is in a larger block, and
the capacities sum to n^2 (n+1)/2).  Cells are (row, column) from 0; values 1..n, 0 for empty.

A solution is a dict cell -> value on L's empty cells; `can_place` says whether one more value keeps it a
solution, the one test every algorithm shares.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from dlx_latin.errors import UserInputError

Cell = tuple[int, int]
CONDITIONS = ("null", "sud", "fut", "bs")
FORMAT = "dlx-latin-plse"


class InstanceError(UserInputError):
    """A malformed or inconsistent C-PLSE instance."""


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

    def __post_init__(self) -> None:
        check(self)

    @cached_property
    def _block_of(self) -> dict[Cell, int]:
        return {cell: b for b, block in enumerate(self.blocks) for cell in block}

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
        if self.condition == "sud":
            data["box"] = list(self.box or ())
        if self.condition == "fut":
            data["signs"] = [[list(a), list(b)] for a, b in self.signs]
        if self.condition == "bs":
            data["blocks"] = [[list(c) for c in block] for block in self.blocks]
            data["capacities"] = list(self.capacities)
        return json.loads(json.dumps(data))


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
        if self.instance.condition == "sud":
            self.boxes[self.instance.box_of(cell)].add(k)
        if self.instance.condition == "bs":
            self.sums[self.instance.block_of(cell)] += k

    def can_place(self, cell: Cell, k: int) -> bool:
        """Whether value k may go in the empty cell and leave a solution (the Latin condition and C)."""
        inst, (i, j) = self.instance, cell
        if self.grid[i][j] or k in self.rows[i] or k in self.cols[j]:
            return False
        if inst.condition == "sud":
            return k not in self.boxes[inst.box_of(cell)]
        if inst.condition == "fut":
            for (p, q), smaller in inst.signs_at(cell):
                other = self.grid[p][q]
                if other and (k >= other if smaller > 0 else k <= other):
                    return False
            return True
        if inst.condition == "bs":
            b = inst.block_of(cell)
            return self.sums[b] + k <= inst.capacities[b]
        return True

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
    lines = [[(i, j) for j in range(n)] for i in range(n)] + [[(i, j) for i in range(n)] for j in range(n)]
    if inst.condition == "sud":
        if not inst.box or len(inst.box) != 2 or inst.box[0] * inst.box[1] != n or min(inst.box) < 1:
            raise InstanceError(f"sud needs box [n0, n1] with n0 * n1 = {n}, not {inst.box!r}")
        n0, n1 = inst.box
        lines += [
            [(r + a, c + b) for a in range(n0) for b in range(n1)]
            for r in range(0, n, n0)
            for c in range(0, n, n1)
        ]
    for line in lines:
        seen: dict[int, Cell] = {}
        for i, j in line:
            k = inst.given[i][j]
            if k and k in seen:
                raise InstanceError(
                    f"value {k} appears twice, at {list(seen[k])} and {[i, j]}: not a partial Latin square"
                )
            seen[k] = (i, j)
    if inst.condition == "fut":
        pairs = set()
        for a, b in inst.signs:
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                raise InstanceError(f"sign between {list(a)} and {list(b)}: the cells are not adjacent")
            if inst.given[a[0]][a[1]] and inst.given[b[0]][b[1]]:
                raise InstanceError(f"sign between {list(a)} and {list(b)}: both cells are filled")
            if frozenset((a, b)) in pairs:
                raise InstanceError(f"two signs between {list(a)} and {list(b)}")
            pairs.add(frozenset((a, b)))
    if inst.condition == "bs":
        _check_blocks(inst)


def _check_blocks(inst: Instance) -> None:
    n = inst.n
    if len(inst.capacities) != len(inst.blocks):
        raise InstanceError(f"{len(inst.blocks)} blocks but {len(inst.capacities)} capacities")
    for b, capacity in enumerate(inst.capacities):
        if not isinstance(capacity, int):
            raise InstanceError(f"the capacity of block {b} must be an integer, not {capacity!r}")
    owner: dict[Cell, int] = {}
    for b, block in enumerate(inst.blocks):
        for cell in block:
            if cell in owner:
                raise InstanceError(f"cell {list(cell)} is in blocks {owner[cell]} and {b}")
            owner[cell] = b
        cells, start = set(block), block[0] if block else None
        if start is None:
            raise InstanceError(f"block {b} is empty")
        reached, stack = {start}, [start]
        while stack:
            i, j = stack.pop()
            for d in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if d in cells and d not in reached:
                    reached.add(d)
                    stack.append(d)
        if reached != cells:
            raise InstanceError(f"block {b} is not connected")
        filled = [c for c in block if inst.given[c[0]][c[1]]]
        if filled and len(block) > 1:
            raise InstanceError(
                f"block {b} holds the filled cell {list(filled[0])}: filled cells are unit blocks"
            )
        if filled and inst.capacities[b] != inst.given[filled[0][0]][filled[0][1]]:
            raise InstanceError(f"unit block {b} at {list(filled[0])} must have its value as capacity")
        if not filled and len(block) == 1:
            raise InstanceError(
                f"block {b} is the empty cell {list(block[0])} alone: empty cells need larger blocks"
            )
    if len(owner) != n * n:
        missing = next((i, j) for i in range(n) for j in range(n) if (i, j) not in owner)
        raise InstanceError(f"cell {list(missing)} is in no block")
    total = n * n * (n + 1) // 2
    if sum(inst.capacities) != total:
        raise InstanceError(f"the capacities sum to {sum(inst.capacities)}, not n^2 (n+1)/2 = {total}")


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
    return Instance(
        n,
        tuple(tuple(row) for row in given),
        condition,
        tuple(box) if isinstance(box, list) else None,
        signs,
        blocks,
        tuple(data.get("capacities", [])),
    )


def read_instance(path: str | Path) -> Instance:
    """An instance from a JSON file."""
    from dlx_latin.formats.files import read_text

    text = read_text(path, "instance file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise InstanceError(f"{path} is not JSON: {err.msg} at line {err.lineno}") from None
    except RecursionError:
        raise InstanceError(f"{path} is nested too deeply") from None
    return from_json(data)
