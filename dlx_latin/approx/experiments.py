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

from dlx_latin.approx.algorithms import ALGORITHMS, PATHWIDTH, NotApplicable, run
from dlx_latin.approx.exact import optimum
from dlx_latin.approx.instance import CONDITIONS, Cell, Instance, is_solution


class BoundViolated(AssertionError):
    """An algorithm did worse than its proven ratio: a bug."""


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
    """A random instance of the condition (see the module's docstring); `box` defaults to the squarest
    n0 x n1 for sud.  `hard` builds them like the paper's hardness proofs instead: null as in Theorem 2 (a
    Latin square without the cells holding 1, 2, 3: three empty cells per line, three values), fut as Theorem
    4's reduction of Theorem 2's null instance of order n/2 (`conditions.futoshiki_from_plse`)."""
    if condition not in CONDITIONS:
        raise ValueError(f"unknown condition {condition!r}")
    rule = CONDITIONS[condition]
    if hard:
        return rule.hard_instance(n, density, seed)
    options = {"box": box, "sign_share": sign_share, "max_block": max_block}
    return rule.random_instance(n, density, random.Random(seed), **options)


def tight_greedy_example(condition: str, n: int) -> tuple[Instance, dict[Cell, int]]:
    """An instance with a blocked solution of exactly 1/3 (null), 1/4 (sud), 1/(3+delta) = 1/7 (fut) or
    1/(2+Delta) = 1/4 (bs) of the optimum, so the greedy bounds of Theorems 5-8 cannot be raised: a Latin
    square S has a value y at a cell c and another value x at cells that x at c blocks, each able to take
    only its value in S (see each condition's `tight_greedy_example`)."""
    if condition not in CONDITIONS:
        raise ValueError(f"tight greedy examples are built for null, sud, fut and bs, not {condition}")
    return CONDITIONS[condition].tight_greedy_example(n)


def hurkens_schrijver(t: int, s: int) -> Fraction:
    """The ratio |A| / |A*| of a t-set packing A that no swap of at most s - 1 of its sets for one more can
    improve (Hurkens & Schrijver 1989, Theorem 1: each optimal set meets at most t of A's, and any s of
    them have distinct representatives in A): with q = ceil(s / 2), (2 (t-1)^q - t) / (t (t-1)^q - t) for
    odd s and (2 (t-1)^q - 2) / (t (t-1)^q - 2) for even s.  1/t at s = 1, 2/(t+1) at s = 2, up to 2/t."""
    if t < 3 or s < 1:
        raise ValueError(f"the bound needs t >= 3 and s >= 1, not t = {t}, s = {s}")
    q = (s + 1) // 2
    c = 2 if s % 2 == 0 else t
    return Fraction(2 * (t - 1) ** q - c, t * (t - 1) ** q - c)


def bound(inst: Instance, algorithm: str, r: int = 2, pathwidth: int = PATHWIDTH) -> tuple[Fraction, str]:
    """(the ratio every run must reach, the theorem's bound as text).  The local searches' theorems (2/t -
    eps, Thms 12-14; 3/(t+1) - eps, Thms 15-16) leave eps unstated; the ratio checked is the one the
    parameters prove: a local optimum for swaps of up to r sets admits no improving swap of up to r + 1
    new sets, and with pathwidth at most p no swap of up to min(r, p) + 1 (such a conflict graph has
    pathwidth at most its smaller side), so `hurkens_schrijver(t, that + 1)`."""
    if algorithm == "greedy":
        return inst.rule.greedy_bound(inst)
    if algorithm == "matching":
        return Fraction(1, 2), "1/2"
    t = inst.rule.t
    if algorithm == "pathwidth-local-search":
        return hurkens_schrijver(t, min(r, pathwidth) + 1), f"{Fraction(3, t + 1)} - eps"
    return hurkens_schrijver(t, r + 1), f"{Fraction(2, t)} - eps"


@dataclass
class Row:
    """One algorithm's record over a run of instances."""

    algorithm: str
    theorem: str
    ratios: list[float]
    seconds: float
    floor: Fraction = Fraction(1)  # the lowest ratio the bounds allow over the instances run (checked)

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
    pathwidth_r: int = 4,
    pathwidth: int = PATHWIDTH,
) -> tuple[list[Row], float]:
    """Every applicable algorithm on `instances` random instances, each ratio |A| / |A*| checked against
    the proven bound (BoundViolated if below); the rows and the seconds spent on exact optima.  Local
    search swaps up to `r` sets, pathwidth local search up to `pathwidth_r` of pathwidth <= `pathwidth`."""
    import time

    rows: dict[str, Row] = {}
    exact_seconds = 0.0
    for k in range(instances):
        inst = random_instance(condition, n, density, seed + k, hard=hard)
        start = time.perf_counter()
        best = len(optimum(inst))
        exact_seconds += time.perf_counter() - start
        for algorithm in ALGORITHMS:
            size = pathwidth_r if algorithm == "pathwidth-local-search" else r
            start = time.perf_counter()
            try:
                found = run(inst, algorithm, size, seed + k, pathwidth)
            except NotApplicable:
                continue
            spent = time.perf_counter() - start
            if not is_solution(inst, found):
                raise BoundViolated(f"{algorithm} returned an invalid solution on instance {seed + k}")
            ratio = Fraction(len(found), best) if best else Fraction(1)
            floor, theorem = bound(inst, algorithm, size, pathwidth)
            if ratio < floor or len(found) > best:
                raise BoundViolated(
                    f"{algorithm} filled {len(found)} of an optimum {best} on {condition} instance seed "
                    f"{seed + k}: ratio {float(ratio):.3f} below the proven {floor} ({theorem})"
                )
            row = rows.setdefault(algorithm, Row(algorithm, theorem, [], 0.0))
            row.ratios.append(float(ratio))
            row.seconds += spent
            row.floor = min(row.floor, floor)
            if row.theorem != theorem:
                row.theorem = theorem.split(" = ")[0]
    return list(rows.values()), exact_seconds
