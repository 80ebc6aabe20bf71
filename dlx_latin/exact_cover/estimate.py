"""Knuth's estimate of the size of a search: how many solutions, how many nodes, before counting them.

A probe walks from the root to a leaf, taking a branch uniformly at random at each node; the product of the
branching degrees met on the way is an unbiased estimate of the number of leaves of its kind (Knuth,
"Estimating the efficiency of backtrack programs", 1975).  The mean of many probes estimates the number of
solutions (a probe ending in a dead end counts 0) and of nodes; its standard error says how far to trust it.
The probes walk the kernel's own tree (`ExactCoverProblem.search(path=...).degree()`), so the estimate is of
the very search a count would make.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dlx_latin.exact_cover.problem import ExactCoverProblem


@dataclass(frozen=True)
class Estimate:
    """The mean of `probes` probes of the solutions and of the nodes, with the solutions' standard error."""

    solutions: float
    stderr: float
    nodes: float
    probes: int
    hits: int  # probes that ended in a solution

    def scaled(self, factor: float) -> Estimate:
        """The estimate of `factor` copies of the search (e.g. times the relabellings fixed before it)."""
        return Estimate(
            self.solutions * factor, self.stderr * factor, self.nodes * factor, self.probes, self.hits
        )


def probe(problem: ExactCoverProblem, rng: random.Random) -> tuple[int, int]:
    """One random root-to-leaf walk: (its solution estimate, its node estimate), exact integers."""
    path: list[int] = []
    weight, nodes = 1, 1
    while True:
        degree = problem.search(path=path).degree()
        if degree < 0:
            return weight, nodes
        if degree == 0:
            return 0, nodes
        weight *= degree
        nodes += weight
        path.append(rng.randrange(degree))


def estimate_many(
    samplers: Sequence[Callable[[random.Random], tuple[int, int]]],
    probes: int,
    seed: int | None = None,
    progress: Callable[[int, float], object] | None = None,
) -> Estimate:
    """The sum over `samplers` (independent searches whose sizes add up) of `probes` probes' mean;
    `progress(probes done, fraction)` now and then.

    Each probe picks one sampler uniformly and scales its result by their number: still unbiased."""
    if probes < 1:
        raise ValueError(f"probes must be at least 1, not {probes}")
    rng = random.Random(seed)
    k = len(samplers)
    values: list[int] = []
    node_sum = hits = 0
    for done in range(1, probes + 1):
        solutions, nodes = samplers[rng.randrange(k)](rng)
        values.append(solutions * k)
        node_sum += nodes * k
        hits += solutions > 0
        if progress is not None and done % 64 == 0:
            progress(done, done / probes)
    mean = sum(values) / probes
    variance = sum((v - mean) ** 2 for v in values) / (probes - 1) if probes > 1 else math.inf
    return Estimate(mean, math.sqrt(variance / probes), node_sum / probes, probes, hits)


def estimate(problem: ExactCoverProblem, probes: int = 1000, seed: int | None = None) -> Estimate:
    """Knuth's estimate of the number of solutions and search-tree nodes of `problem`.

    >>> from dlx_latin.exact_cover import ExactCoverProblem
    >>> p = ExactCoverProblem(["a", "b"], [["a"], ["b"], ["a", "b"]])
    >>> estimate(p, probes=100, seed=1).solutions   # both branches of item a end in one solution each
    2.0
    """
    return estimate_many([lambda rng: probe(problem, rng)], probes, seed)
