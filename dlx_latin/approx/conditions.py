"""The four conditions C of C-PLSE as types: each knows its placement rule, its checks, its integer-program
rows, its random instances and its tight examples, and the paper's results about it.

- `null`: no condition beyond the Latin one.
- `sud`: no value twice in an n0 x n1 box.
- `fut`: signs (a, b) between adjacent cells, at least one empty in L: value(a) < value(b) when both are
  filled.
- `bs`: a partition into connected blocks with capacities; the values in a block sum to at most its
  capacity.  L's filled cells are unit blocks whose capacity is their value, every empty cell is in a larger
  block, and the capacities sum to n^2 (n+1)/2.
- `kk`: KenKen cages (+, -, *, /, =) over L's empty cells, each cell in one; a partial filling keeps each
  cage's partial rule (`dlx_latin.kenken.Cage.admits`: + sums at most the target, * products dividing it,
  - and / the rule once both cells are filled).  BlockSum's generalization (the paper's Section 5), with
  BlockSum's greedy and matching ratios.

Importing `dlx_latin.approx` registers them in `dlx_latin.approx.instance.CONDITIONS`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction

from dlx_latin.approx.instance import CONDITIONS, Cell, Condition, Instance, InstanceError, State
from dlx_latin.cells import connected
from dlx_latin.kenken import random_square as hidden_square  # a random Latin square

Rows = Iterable[tuple[list[tuple[int, float]], float]]  # (terms (variable, coefficient), upper bound)
Variables = list[tuple[Cell, int]]  # the integer program's binaries: (empty cell, value)


def filled_greedily(n: int, condition: str, box: tuple[int, int] | None, density: float, rng: random.Random):
    """A partial Latin square filled greedily (random cells, random values that fit) to `density`, so the
    optimum is often below the number of empty cells."""
    state = State(Instance(n, tuple(tuple(0 for _ in range(n)) for _ in range(n)), condition, box))
    cells = [(i, j) for i in range(n) for j in range(n)]
    rng.shuffle(cells)
    target = round(density * n * n)
    for cell in cells:
        if len(state.solution) >= target:
            break
        fits = [k for k in range(1, n + 1) if state.can_place(cell, k)]
        if fits:
            state.place(cell, rng.choice(fits))
    return Instance(n, tuple(map(tuple, state.grid)), condition, box)


def tight_by_blocking(square: list[list[int]], holes: list[Cell], condition: str, box=None):
    """L = S without `holes`, and the blocked solution putting at holes[0] the value S has at holes[1]: each
    hole but the first can take only its value in S, and that one placement blocks them all."""
    n = len(square)
    given = tuple(tuple(0 if (i, j) in holes else square[i][j] for j in range(n)) for i in range(n))
    return Instance(n, given, condition, box), {holes[0]: square[holes[1][0]][holes[1][1]]}


class Null(Condition):
    """No condition beyond the Latin one."""

    name = "null"
    t = 3  # a placement is a set {cell, (row, value), (column, value)}

    def greedy_bound(self, inst: Instance) -> tuple[Fraction, str]:
        return Fraction(1, 3), "1/3"  # Theorem 5

    def random_instance(self, n: int, density: float, rng: random.Random, **options: object) -> Instance:
        return filled_greedily(n, self.name, None, density, rng)

    def hard_instance(self, n: int, density: float, seed: int) -> Instance:
        """Theorem 2: a Latin square without the cells holding 1, 2, 3 (three empty cells per line, three
        values)."""
        square = hidden_square(n, random.Random(seed))
        return Instance(n, tuple(tuple(0 if k <= 3 else k for k in row) for row in square))

    def tight_greedy_example(self, n: int) -> tuple[Instance, dict[Cell, int]]:
        """x = 2 at c = (0, 0) blocks its row-mate (0, 1) and column-mate (1, 0), which S fills."""
        if n < 2:
            raise ValueError("the example needs n >= 2")
        square = [[(i + j) % n + 1 for j in range(n)] for i in range(n)]
        return tight_by_blocking(square, [(0, 0), (0, 1), (1, 0)], self.name)


class Sudoku(Condition):
    """No value twice in an n0 x n1 box."""

    name = "sud"
    t = 4  # ... and (box, value)

    def json_fields(self, inst: Instance) -> dict:
        return {"box": list(inst.box or ())}

    def lines(self, inst: Instance) -> list[list[Cell]]:
        n = inst.n
        if not inst.box or len(inst.box) != 2 or inst.box[0] * inst.box[1] != n or min(inst.box) < 1:
            raise InstanceError(f"sud needs box [n0, n1] with n0 * n1 = {n}, not {inst.box!r}")
        n0, n1 = inst.box
        return [
            [(r + a, c + b) for a in range(n0) for b in range(n1)]
            for r in range(0, n, n0)
            for c in range(0, n, n1)
        ]

    def mark(self, state: State, cell: Cell, k: int) -> None:
        state.boxes[state.instance.box_of(cell)].add(k)

    def allows(self, state: State, cell: Cell, k: int) -> bool:
        return k not in state.boxes[state.instance.box_of(cell)]

    def matching_refusal(self, inst: Instance) -> str | None:
        return (
            "matching does not apply to sud: a value in a box blocks cells of other rows and columns, so a "
            "matching need not be placeable at once"
        )

    def packing_elements(self, inst: Instance, cell: Cell, k: int) -> tuple:
        return (("box", inst.box_of(cell), k),)

    def milp_rows(self, inst: Instance, variables: Variables, state: State) -> Rows:
        boxes: dict[tuple[int, int], list[int]] = {}
        for v, (cell, k) in enumerate(variables):
            boxes.setdefault((inst.box_of(cell), k), []).append(v)
        return (([(v, 1.0) for v in members], 1.0) for members in boxes.values())

    def greedy_bound(self, inst: Instance) -> tuple[Fraction, str]:
        return Fraction(1, 4), "1/4"  # Theorem 6

    @staticmethod
    def squarest_box(n: int) -> tuple[int, int]:
        n0 = max(d for d in range(1, int(n**0.5) + 1) if n % d == 0)
        return n0, n // n0

    def random_instance(self, n: int, density: float, rng: random.Random, **options: object) -> Instance:
        box = options.get("box") or self.squarest_box(n)
        return filled_greedily(n, self.name, box, density, rng)

    def tight_greedy_example(self, n: int) -> tuple[Instance, dict[Cell, int]]:
        """x at c blocks its row-mate, column-mate and a box-mate in another row and column, which S fills
        (S from the engine, with those values)."""
        from dlx_latin.boards import board_from_spec
        from dlx_latin.latin import PartialBoard, completions

        box = self.squarest_box(n)
        if min(box) < 2:
            raise ValueError(f"the sud example needs boxes at least 2 x 2, and {n} is prime")
        holes = [(0, 0), (0, box[1]), (box[0], 0), (1, 1)]  # c, row-mate, column-mate, box-mate
        clues = {i * n + j: 1 for i, j in holes[1:]} | {0: 2}
        solved = next(
            iter(completions(PartialBoard(board_from_spec(f"sudoku:{box[0]}x{box[1]}"), clues=clues)))
        )
        square = [[solved[i * n + j] for j in range(n)] for i in range(n)]
        return tight_by_blocking(square, holes, self.name, box)


class Futoshiki(Condition):
    """Signs between adjacent cells: value(a) < value(b)."""

    name = "fut"

    def json_fields(self, inst: Instance) -> dict:
        return {"signs": [[list(a), list(b)] for a, b in inst.signs]}

    def check(self, inst: Instance) -> None:
        pairs = set()
        for a, b in inst.signs:
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                raise InstanceError(f"sign between {list(a)} and {list(b)}: the cells are not adjacent")
            if inst.given[a[0]][a[1]] and inst.given[b[0]][b[1]]:
                raise InstanceError(f"sign between {list(a)} and {list(b)}: both cells are filled")
            if frozenset((a, b)) in pairs:
                raise InstanceError(f"two signs between {list(a)} and {list(b)}")
            pairs.add(frozenset((a, b)))

    def allows(self, state: State, cell: Cell, k: int) -> bool:
        for (p, q), smaller in state.instance.signs_at(cell):
            other = state.grid[p][q]
            if other and (k >= other if smaller > 0 else k <= other):
                return False
        return True

    def milp_rows(self, inst: Instance, variables: Variables, state: State) -> Rows:
        """For a sign a < b and each value v: x[a, k >= v] + x[b, k <= v] <= 1 (a value at a not above one
        at b, written once per v)."""
        at: dict[Cell, list[int]] = {}
        for v, (cell, _) in enumerate(variables):
            at.setdefault(cell, []).append(v)
        for a, b in inst.signs:
            if a in at and b in at:
                for value in range(1, inst.n + 1):
                    above = [v for v in at[a] if variables[v][1] >= value]
                    below = [v for v in at[b] if variables[v][1] <= value]
                    if above and below:
                        yield [(v, 1.0) for v in above + below], 1.0

    def greedy_bound(self, inst: Instance) -> tuple[Fraction, str]:
        delta = max((len(inst.signs_at(c)) for c in inst.empty), default=0)
        return Fraction(1, 3 + delta), f"1/(3+delta) = 1/{3 + delta}"  # Theorem 7

    def random_instance(self, n: int, density: float, rng: random.Random, **options: object) -> Instance:
        """A hidden Latin square shown at `density`, with signs read off it on a share of adjacent pairs."""
        sign_share = float(options.get("sign_share", 0.5))
        square = hidden_square(n, rng)
        shown = [[square[i][j] if rng.random() < density else 0 for j in range(n)] for i in range(n)]
        signs = []
        for i in range(n):
            for j in range(n):
                for p, q in ((i + 1, j), (i, j + 1)):
                    if p < n and q < n and not (shown[i][j] and shown[p][q]) and rng.random() < sign_share:
                        a, b = ((i, j), (p, q)) if square[i][j] < square[p][q] else ((p, q), (i, j))
                        signs.append((a, b))
        return Instance(n, tuple(map(tuple, shown)), self.name, signs=tuple(signs))

    def hard_instance(self, n: int, density: float, seed: int) -> Instance:
        """Theorem 4's reduction applied to Theorem 2's instance of order n/2 (three empty cells per line,
        three values), as the paper's hardness proof chains them."""
        if n % 2 or n < 6:
            raise ValueError(f"hard fut instances have an even order of at least 6, not {n}")
        return futoshiki_from_plse(CONDITIONS["null"].hard_instance(n // 2, density, seed))

    def tight_greedy_example(self, n: int) -> tuple[Instance, dict[Cell, int]]:
        """S[i][j] = value of (i + j) mod n: 1 on c = (2, 2), n at d = (2, 4) and e = (4, 2); c's four
        neighbours get values 2..n-1, with signs c < neighbour, so n at c blocks all six."""
        if n < 5:
            raise ValueError("the fut example needs n >= 5")
        others = iter(range(2, n))
        value = {4 % n: 1, 6 % n: n}
        value.update({s: next(others) for s in range(n) if s not in value})
        square = [[value[(i + j) % n] for j in range(n)] for i in range(n)]
        neighbours = [(1, 2), (3, 2), (2, 1), (2, 3)]
        holes = [(2, 2), (2, 4), (4, 2), *neighbours]
        given = tuple(tuple(0 if (i, j) in holes else square[i][j] for j in range(n)) for i in range(n))
        inst = Instance(n, given, self.name, signs=tuple(((2, 2), nb) for nb in neighbours))
        return inst, {(2, 2): n}


def futoshiki_from_plse(inst: Instance) -> Instance:
    """Theorem 4's reduction: a null instance L of order n as a fut instance of order 2n with the same
    optimum.  L goes to the cells (2k, 2l); with a Latin square L' (cyclic), (2k, 2l+1) and (2k+1, 2l) hold
    L'[k][l] + n and (2k+1, 2l+1) holds L'[k][l]; every empty cell must be smaller than its four
    neighbours (all above n), so only values 1..n fit it, as in L."""
    if inst.condition != "null":
        raise ValueError("the reduction starts from a null instance")
    n = inst.n
    grid = [[0] * (2 * n) for _ in range(2 * n)]
    for k in range(n):
        for m in range(n):
            other = (k + m) % n + 1
            grid[2 * k][2 * m] = inst.given[k][m]
            grid[2 * k][2 * m + 1] = grid[2 * k + 1][2 * m] = other + n
            grid[2 * k + 1][2 * m + 1] = other
    signs = []
    for k, m in inst.empty:
        i, j = 2 * k, 2 * m
        for p, q in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
            if 0 <= p < 2 * n and 0 <= q < 2 * n:
                signs.append(((i, j), (p, q)))
    return Instance(2 * n, tuple(map(tuple, grid)), "fut", signs=tuple(signs))


class BlockSum(Condition):
    """Connected blocks whose values sum to at most their capacities."""

    name = "bs"

    def json_fields(self, inst: Instance) -> dict:
        return {
            "blocks": [[list(c) for c in block] for block in inst.blocks],
            "capacities": list(inst.capacities),
        }

    def check(self, inst: Instance) -> None:
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
            if not block:
                raise InstanceError(f"block {b} is empty")
            if not connected(block):
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

    def mark(self, state: State, cell: Cell, k: int) -> None:
        state.sums[state.instance.block_of(cell)] += k

    def allows(self, state: State, cell: Cell, k: int) -> bool:
        b = state.instance.block_of(cell)
        return state.sums[b] + k <= state.instance.capacities[b]

    def matching_refusal(self, inst: Instance) -> str | None:
        if not in_lines(inst.blocks):
            return "matching applies to bs only when every block lies in one row or one column"
        return None

    def milp_rows(self, inst: Instance, variables: Variables, state: State) -> Rows:
        """The values in a block sum to at most its capacity less what L holds there."""
        blocks: dict[int, list[int]] = {}
        for v, (cell, _) in enumerate(variables):
            blocks.setdefault(inst.block_of(cell), []).append(v)
        for b, members in blocks.items():
            yield [(v, float(variables[v][1])) for v in members], inst.capacities[b] - state.sums[b]

    def greedy_bound(self, inst: Instance) -> tuple[Fraction, str]:
        big = max(len(b) for b in inst.blocks)
        return Fraction(1, 2 + big), f"1/(2+Delta) = 1/{2 + big}"  # Theorem 8

    def random_instance(self, n: int, density: float, rng: random.Random, **options: object) -> Instance:
        """A hidden Latin square; random connected blocks of up to `max_block` empty cells (a cell starts an
        empty block with probability 1 - density), capacities the square's block sums."""
        max_block = int(options.get("max_block", 3))
        square = hidden_square(n, rng)
        owner: dict[Cell, int] = {}
        blocks: list[list[Cell]] = []
        cells = [(i, j) for i in range(n) for j in range(n)]
        rng.shuffle(cells)
        for cell in cells:
            if cell in owner:
                continue
            block = [cell]
            owner[cell] = len(blocks)
            if rng.random() >= density:  # grow an empty block
                size = rng.randint(2, max(2, max_block))
                while len(block) < size:
                    free = [
                        d
                        for i, j in block
                        for d in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1))
                        if 0 <= d[0] < n and 0 <= d[1] < n and d not in owner
                    ]
                    if not free:
                        break
                    d = rng.choice(free)
                    owner[d] = len(blocks)
                    block.append(d)
            blocks.append(block)
        shown = [[0] * n for _ in range(n)]
        for block in blocks:
            if len(block) == 1:
                (i, j) = block[0]
                shown[i][j] = square[i][j]
        capacities = tuple(sum(square[i][j] for i, j in block) for block in blocks)
        return Instance(
            n, tuple(map(tuple, shown)), self.name, blocks=tuple(map(tuple, blocks)), capacities=capacities
        )

    def tight_greedy_example(self, n: int) -> tuple[Instance, dict[Cell, int]]:
        """Blocks of two, two placements blocking eight cells.  c1 = (0, 0) and c2 = (2, 2) hold y1 < x1 and
        y2 < x2 in a Latin square S whose row- and column-mates d1 = (0, 2), e1 = (3, 0) hold x1 and d2 =
        (2, 0), e2 = (1, 2) hold x2; the blocks are {c1, (0, 1)}, {c2, p2}, {d1, e2}, {d2, e1} with S's sums
        as capacities, every other cell a filled unit block.  x1 at c1 and x2 at c2 block the mates (same
        value in their line) and the block-mates (capacity), while S fills all eight.  S is taken among the
        engine's completions of those values, the first for which L leaves no other way out (checked)."""
        from dlx_latin.boards import board_from_spec
        from dlx_latin.latin import PartialBoard, completions

        if n < 5:
            raise ValueError("the bs example needs n >= 5")
        c1, d1, c2, d2, e1, e2, p1 = (0, 0), (0, 2), (2, 2), (2, 0), (3, 0), (1, 2), (0, 1)
        board = board_from_spec(f"latin:{n}")
        x1, y1 = 2, 1
        for x2 in range(3, n + 1):
            for y2 in range(3, x2):
                values = {c1: y1, d1: x1, e1: x1, c2: y2, d2: x2, e2: x2}
                clues = {i * n + j: v for (i, j), v in values.items()}
                for solved in completions(PartialBoard(board, clues=clues), limit=30):
                    square = [[solved[i * n + j] for j in range(n)] for i in range(n)]
                    for p2 in ((2, 1), (2, 3), (3, 2)):
                        found = self._blocked_by_two(square, [(c1, p1), (c2, p2), (d1, e2), (d2, e1)], x1, x2)
                        if found is not None:
                            return found
        raise AssertionError(f"no tight bs example found for n = {n}")

    def _blocked_by_two(self, square: list[list[int]], pairs: list, x1: int, x2: int):
        """The instance with these two-cell blocks on S, if x1 at (0, 0) and x2 at (2, 2) block it."""
        n = len(square)
        empty = {c for b in pairs for c in b}
        units = [((i, j),) for i in range(n) for j in range(n) if (i, j) not in empty]
        inst = Instance(
            n,
            tuple(tuple(0 if (i, j) in empty else square[i][j] for j in range(n)) for i in range(n)),
            self.name,
            blocks=tuple(pairs + units),
            capacities=tuple(sum(square[i][j] for i, j in b) for b in pairs + units),
        )
        state = State(inst)
        for cell, x in (((0, 0), x1), ((2, 2), x2)):
            if not state.can_place(cell, x):
                return None
            state.place(cell, x)
        return (inst, {(0, 0): x1, (2, 2): x2}) if state.is_blocked() else None


def in_lines(groups: Iterable[Iterable[Cell]]) -> bool:
    """Whether every group of cells lies in one row or one column (a matching then places a value at most
    once per group, so its placements never meet in a block or cage)."""
    return all(len({i for i, _ in g}) == 1 or len({j for _, j in g}) == 1 for g in map(list, groups))


class KenKen(Condition):
    """KenKen cages over the empty cells, each filled only as its partial rule allows."""

    name = "kk"

    def json_fields(self, inst: Instance) -> dict:
        return {"cages": [cage.to_json() for cage in inst.cages]}

    def check(self, inst: Instance) -> None:
        from dlx_latin.kenken import KenKenError, check_disjoint

        try:
            owner = check_disjoint(inst.cages)
        except KenKenError as err:
            raise InstanceError(str(err)) from None
        for cell, c in owner.items():
            if inst.given[cell[0]][cell[1]]:
                raise InstanceError(f"cage {c} holds the filled cell {list(cell)}: cages cover empty cells")
        for cell in inst.empty:
            if cell not in owner:
                raise InstanceError(f"the empty cell {list(cell)} is in no cage")

    def mark(self, state: State, cell: Cell, k: int) -> None:
        c = state.instance.cage_of(cell)
        if c is not None:
            state.cage_values[c].append(k)

    def allows(self, state: State, cell: Cell, k: int) -> bool:
        c = state.instance.cage_of(cell)
        return c is None or state.instance.cages[c].admits(state.cage_values[c] + [k])

    def matching_refusal(self, inst: Instance) -> str | None:
        if not in_lines(cage.cells for cage in inst.cages):
            return "matching applies to kk only when every cage lies in one row or one column"
        return None

    def milp_rows(self, inst: Instance, variables: Variables, state: State) -> Rows:
        """+: the values at most the target; *: no value that does not divide it, and per prime p the
        exponents of p at most its exponent in the target; - and /: a value at one cell excludes at the
        other every value the rule does not pair with it; =: no other value."""
        from sympy import factorint

        at: dict[Cell, list[int]] = {}
        for v, (cell, _) in enumerate(variables):
            at.setdefault(cell, []).append(v)
        for cage in inst.cages:
            members = [v for cell in cage.cells for v in at.get(cell, [])]
            value = {v: variables[v][1] for v in members}
            if cage.op == "+":
                yield [(v, float(value[v])) for v in members], cage.target
            elif cage.op == "*":
                yield [(v, 1.0) for v in members if cage.target % value[v]], 0.0
                for p, e in factorint(cage.target).items():
                    terms = [(v, float(factorint(value[v]).get(p, 0))) for v in members]
                    yield [(v, a) for v, a in terms if a], e
            elif cage.op == "=":
                yield [(v, 1.0) for v in members if value[v] != cage.target], 0.0
            else:
                a, b = cage.cells
                for u in at.get(a, []):
                    apart = [w for w in at.get(b, []) if not cage.fits((value[u], value[w]))]
                    yield [(u, 1.0)] + [(w, 1.0) for w in apart], 1.0

    def greedy_bound(self, inst: Instance) -> tuple[Fraction, str]:
        big = max((len(cage.cells) for cage in inst.cages), default=1)
        return Fraction(1, 2 + big), f"1/(2+Delta) = 1/{2 + big}"  # as Theorem 8 for BlockSum

    def random_instance(self, n: int, density: float, rng: random.Random, **options: object) -> Instance:
        """A hidden Latin square shown at `density`; its empty cells in random cages of up to `max_block`
        cells whose operations and targets the square meets (`dlx_latin.kenken.cage_on`)."""
        from dlx_latin.kenken import cage_on, random_partition

        max_block = int(options.get("max_block", 3))
        square = hidden_square(n, rng)
        shown = [[square[i][j] if rng.random() < density else 0 for j in range(n)] for i in range(n)]
        empty = [(i, j) for i in range(n) for j in range(n) if not shown[i][j]]
        cages = tuple(cage_on(group, square, rng) for group in random_partition(empty, max_block, rng))
        return Instance(n, tuple(map(tuple, shown)), self.name, cages=cages)


for _condition in (Null(), Sudoku(), Futoshiki(), BlockSum(), KenKen()):
    CONDITIONS[_condition.name] = _condition
