"""Random C-PLSE instances and the measured approximation ratios of each algorithm beside its bound.

Instances: for null and sud, a random partial Latin square filled greedily (random cells, random values
that fit) to the asked density, so the optimum is often below the number of empty cells; for fut and bs,
a hidden Latin square (a cyclic square with rows, columns and values shuffled) shown at the asked density,
with signs read off it on a share of the adjacent pairs (fut) or with random connected blocks of up to
`max_block` empty cells whose capacities are its block sums (bs).
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from fractions import Fraction

from dlx_latin.approx.algorithms import ALGORITHMS, NotApplicable, run
from dlx_latin.approx.exact import optimum
from dlx_latin.approx.instance import Cell, Instance, State, is_solution


class BoundViolated(AssertionError):
    """An algorithm did worse than its proven ratio: a bug."""


def _hidden_square(n: int, rng: random.Random) -> list[list[int]]:
    rows, cols, values = (rng.sample(range(n), n) for _ in range(3))
    return [[values[(rows[i] + cols[j]) % n] + 1 for j in range(n)] for i in range(n)]


def random_instance(
    condition: str,
    n: int,
    density: float = 0.4,
    seed: int = 0,
    box: tuple[int, int] | None = None,
    sign_share: float = 0.5,
    max_block: int = 3,
    hard: bool = False,
) -> Instance:
    """A random instance (see the module's docstring); `box` defaults to the squarest n0 x n1 for sud.

    `hard` builds them like the paper's hardness proofs instead: null as in Theorem 2 (a Latin square
    without the cells holding 1, 2, 3: three empty cells per line, three values), fut as Theorem 4's
    reduction of a random null instance of order n/2 (`futoshiki_from_plse`)."""
    rng = random.Random(seed)
    if hard:
        if condition == "null":
            square = _hidden_square(n, rng)
            return Instance(n, tuple(tuple(0 if k <= 3 else k for k in row) for row in square))
        if condition == "fut":
            if n % 2:
                raise ValueError(f"hard fut instances have an even order, not {n}")
            return futoshiki_from_plse(random_instance("null", n // 2, density, seed))
        raise ValueError(
            f"hard instances are built for null and fut (the paper's reductions), not {condition}"
        )
    if condition == "sud" and box is None:
        n0 = max(d for d in range(1, int(n**0.5) + 1) if n % d == 0)
        box = (n0, n // n0)
    empty = tuple(tuple(0 for _ in range(n)) for _ in range(n))
    if condition in ("null", "sud"):
        state = State(Instance(n, empty, condition, box))
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
    square = _hidden_square(n, rng)
    if condition == "fut":
        shown = [[square[i][j] if rng.random() < density else 0 for j in range(n)] for i in range(n)]
        signs = []
        for i in range(n):
            for j in range(n):
                for p, q in ((i + 1, j), (i, j + 1)):
                    if p < n and q < n and not (shown[i][j] and shown[p][q]) and rng.random() < sign_share:
                        a, b = ((i, j), (p, q)) if square[i][j] < square[p][q] else ((p, q), (i, j))
                        signs.append((a, b))
        return Instance(n, tuple(map(tuple, shown)), "fut", signs=tuple(signs))
    if condition == "bs":
        return _blocksum(square, density, max_block, rng)
    raise ValueError(f"unknown condition {condition!r}")


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


def _blocksum(square: list[list[int]], density: float, max_block: int, rng: random.Random) -> Instance:
    n = len(square)
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
        n, tuple(map(tuple, shown)), "bs", blocks=tuple(map(tuple, blocks)), capacities=capacities
    )


def tight_greedy_example(condition: str, n: int) -> tuple[Instance, dict[Cell, int]]:
    """An instance with a blocked solution of exactly 1/3 (null), 1/4 (sud), 1/(3+delta) = 1/7 (fut) or
    1/(2+Delta) = 1/4 (bs, `_tight_blocksum`) of the optimum, so the greedy bounds of Theorems 5-8 cannot
    be raised.  A Latin square S has a value y at a
    cell c and another value x at c's row-mate d and column-mate e (for sud also at a box-mate f in another
    row and column; for fut d and e are not next to c, and c's four neighbours hold values between y = 1
    and x = n, with signs c < neighbour).  L is S without those cells, so each of them but c can take only
    its value in S; x at c blocks them all, while S fills every one."""
    box = None
    if condition == "null":
        if n < 2:
            raise ValueError("the example needs n >= 2")
        square = [[(i + j) % n + 1 for j in range(n)] for i in range(n)]  # x = 2 at (0, 1), (1, 0)
        holes = [(0, 0), (0, 1), (1, 0)]
    elif condition == "sud":
        from dlx_latin.boards import board_from_spec
        from dlx_latin.latin import PartialBoard, completions

        n0 = max(d for d in range(1, int(n**0.5) + 1) if n % d == 0)
        box = (n0, n // n0)
        if min(box) < 2:
            raise ValueError(f"the sud example needs boxes at least 2 x 2, and {n} is prime")
        holes = [(0, 0), (0, box[1]), (n0, 0), (1, 1)]  # c, row-mate, column-mate, box-mate
        clues = {i * n + j: 1 for i, j in holes[1:]} | {0: 2}
        solved = next(
            iter(completions(PartialBoard(board_from_spec(f"sudoku:{box[0]}x{box[1]}"), clues=clues)))
        )
        square = [[solved[i * n + j] for j in range(n)] for i in range(n)]
    elif condition == "fut":
        if n < 5:
            raise ValueError("the fut example needs n >= 5")
        # S[i][j] = value of (i + j) mod n: 1 on c = (2, 2) (diagonal 4), n on diagonal 6, so at d = (2, 4)
        # and e = (4, 2); the neighbours of c lie on diagonals 3 and 5, which get values 2..n-1
        others = iter(range(2, n))
        value = {4 % n: 1, 6 % n: n}
        value.update({s: next(others) for s in range(n) if s not in value})
        square = [[value[(i + j) % n] for j in range(n)] for i in range(n)]
        neighbours = [(1, 2), (3, 2), (2, 1), (2, 3)]
        holes = [(2, 2), (2, 4), (4, 2), *neighbours]
        given = tuple(tuple(0 if (i, j) in holes else square[i][j] for j in range(n)) for i in range(n))
        inst = Instance(n, given, "fut", signs=tuple(((2, 2), nb) for nb in neighbours))
        return inst, {(2, 2): n}
    elif condition == "bs":
        return _tight_blocksum(n)
    else:
        raise ValueError(f"tight greedy examples are built for null, sud, fut and bs, not {condition}")
    given = tuple(tuple(0 if (i, j) in holes else square[i][j] for j in range(n)) for i in range(n))
    inst = Instance(n, given, condition, box)
    return inst, {holes[0]: square[holes[1][0]][holes[1][1]]}


def _tight_blocksum(n: int) -> tuple[Instance, dict[Cell, int]]:
    """Blocks of two, two placements blocking eight cells.  c1 = (0, 0) and c2 = (2, 2) hold y1 < x1 and
    y2 < x2 in a Latin square S whose row- and column-mates d1 = (0, 2), e1 = (3, 0) hold x1 and d2 = (2, 0),
    e2 = (1, 2) hold x2; the blocks are {c1, (0, 1)}, {c2, p2}, {d1, e2}, {d2, e1} with S's sums as
    capacities, every other cell a filled unit block.  x1 at c1 and x2 at c2 block the mates (same value in
    their line) and the block-mates (capacity), while S fills all eight.  S is taken among the engine's
    completions of those values, the first for which L leaves no other way out (checked)."""
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
                    blocks = [(c1, p1), (c2, p2), (d1, e2), (d2, e1)]
                    empty = {c for b in blocks for c in b}
                    units = [((i, j),) for i in range(n) for j in range(n) if (i, j) not in empty]
                    inst = Instance(
                        n,
                        tuple(
                            tuple(0 if (i, j) in empty else square[i][j] for j in range(n)) for i in range(n)
                        ),
                        "bs",
                        blocks=tuple(blocks + units),
                        capacities=tuple(sum(square[i][j] for i, j in b) for b in blocks + units),
                    )
                    state = State(inst)
                    if state.can_place(c1, x1):
                        state.place(c1, x1)
                        if state.can_place(c2, x2):
                            state.place(c2, x2)
                            if state.is_blocked():
                                return inst, {c1: x1, c2: x2}
    raise AssertionError(f"no tight bs example found for n = {n}")


def bound(inst: Instance, algorithm: str) -> tuple[Fraction, str]:
    """(a ratio every run must reach, the theorem's bound as text).  For local search the theorem's
    2/t - eps has an unstated eps, so the check uses 1/t, which any maximal packing reaches."""
    if algorithm == "greedy":
        if inst.condition == "fut":
            delta = max((len(inst.signs_at(c)) for c in inst.empty), default=0)
            return Fraction(1, 3 + delta), f"1/(3+delta) = 1/{3 + delta}"
        if inst.condition == "bs":
            big = max(len(b) for b in inst.blocks)
            return Fraction(1, 2 + big), f"1/(2+Delta) = 1/{2 + big}"
        t = 4 if inst.condition == "sud" else 3
        return Fraction(1, t), f"1/{t}"
    if algorithm == "matching":
        return Fraction(1, 2), "1/2"
    t = 4 if inst.condition == "sud" else 3
    return Fraction(1, t), f"{Fraction(2, t)} - eps"


@dataclass
class Row:
    """One algorithm's record over a run of instances."""

    algorithm: str
    theorem: str
    ratios: list[float]
    seconds: float
    floor: float = 1.0  # the lowest ratio the bounds allow over the instances run

    @property
    def minimum(self) -> float:
        return min(self.ratios)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.ratios)


def bench(
    condition: str,
    n: int,
    instances: int,
    seed: int = 0,
    density: float = 0.4,
    r: int = 2,
    hard: bool = False,
) -> tuple[list[Row], float]:
    """Every applicable algorithm on `instances` random instances, each ratio |A| / |A*| checked against
    the proven bound (BoundViolated if below); the rows and the seconds spent on exact optima."""
    import time

    rows: dict[str, Row] = {}
    exact_seconds = 0.0
    for k in range(instances):
        inst = random_instance(condition, n, density, seed + k, hard=hard)
        start = time.perf_counter()
        best = len(optimum(inst))
        exact_seconds += time.perf_counter() - start
        for algorithm in ALGORITHMS:
            start = time.perf_counter()
            try:
                found = run(inst, algorithm, r, seed + k)
            except NotApplicable:
                continue
            spent = time.perf_counter() - start
            if not is_solution(inst, found):
                raise BoundViolated(f"{algorithm} returned an invalid solution on instance {seed + k}")
            ratio = Fraction(len(found), best) if best else Fraction(1)
            floor, theorem = bound(inst, algorithm)
            if ratio < floor or len(found) > best:
                raise BoundViolated(
                    f"{algorithm} filled {len(found)} of an optimum {best} on {condition} instance seed "
                    f"{seed + k}: ratio {float(ratio):.3f} below the proven {theorem}"
                )
            row = rows.setdefault(algorithm, Row(algorithm, theorem, [], 0.0))
            row.ratios.append(float(ratio))
            row.seconds += spent
            row.floor = min(row.floor, float(floor))
            if row.theorem != theorem:
                row.theorem = theorem.split(" = ")[0]
    return list(rows.values()), exact_seconds
