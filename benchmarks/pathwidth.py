"""Cygan's bounded-pathwidth local search beside the plain local search and the exact optimum (Haraguchi &
Ono, Theorems 12-16), on the same random instances in one run.

    python benchmarks/pathwidth.py [--instances K] [--n N]

For null and sud (random, density 0.4) and null --hard (Theorem 2's instances): per algorithm and
parameters, the min and mean ratio |A| / |A*|, the ratio the parameters prove (checked on every run) and
the mean seconds per run.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from fractions import Fraction

from dlx_latin.approx.algorithms import run
from dlx_latin.approx.exact import optimum
from dlx_latin.approx.experiments import BoundViolated, bound, random_instance

SETTINGS = [
    ("local-search", 2, None),
    ("local-search", 3, None),
    ("local-search", 4, None),
    ("pathwidth-local-search", 4, 1),
    ("pathwidth-local-search", 4, 2),
    ("pathwidth-local-search", 6, 1),
    ("pathwidth-local-search", 6, 2),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--instances", type=int, default=10)
    parser.add_argument("--n", type=int, default=9)
    args = parser.parse_args()
    print(f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print("| instance set | algorithm | r | p | min ratio | mean ratio | bound | checked | s per run |")
    print("|---|---|---|---|---|---|---|---|---|")
    for condition, hard in (("null", False), ("sud", False), ("null", True)):
        cases = [random_instance(condition, args.n, 0.4, seed, hard=hard) for seed in range(args.instances)]
        best = [len(optimum(inst)) for inst in cases]
        name = f"{condition}{' --hard' if hard else ''} n = {args.n}"
        for algorithm, r, p in SETTINGS:
            ratios, seconds = [], 0.0
            for seed, (inst, top) in enumerate(zip(cases, best, strict=True)):
                start = time.perf_counter()
                found = run(inst, algorithm, r, seed, p or 2)
                seconds += time.perf_counter() - start
                ratio = Fraction(len(found), top) if top else Fraction(1)
                floor, theorem = bound(inst, algorithm, r, p or 2)
                if ratio < floor:
                    raise BoundViolated(f"{algorithm} r={r} p={p} below {floor} on {name} seed {seed}")
                ratios.append(float(ratio))
            print(
                f"| {name} | {algorithm} | {r} | {p or '-'} | {min(ratios):.3f} | "
                f"{statistics.fmean(ratios):.3f} | {theorem} | {floor} | {seconds / len(cases):.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
