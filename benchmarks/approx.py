"""Measured approximation ratios and times for C-PLSE, per condition, at n = 9 and n = 16.

    python benchmarks/approx.py [--instances K]

Random instances as `dlx-latin approx bench` makes them (density 0.4, seeds 0..K-1; at n = 16 a third as
many, the exact optimum taking seconds each); local search with r = 2.
"""

from __future__ import annotations

import argparse
import os
import platform

from dlx_latin.approx.experiments import bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--instances", type=int, default=20)
    args = parser.parse_args()
    print(f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    header = ["condition", "n", "instances", "algorithm", "min ratio", "mean ratio", "proven bound"]
    print("| " + " | ".join(header + ["ms per run", "exact s per instance"]) + " |")
    print("|---|---|---|---|---|---|---|---|---|")
    for n, count in ((9, args.instances), (16, max(1, args.instances // 3))):
        for condition in ("null", "sud", "fut", "bs"):
            rows, exact = bench(condition, n, count, seed=0)
            for row in rows:
                print(
                    f"| {condition} | {n} | {count} | {row.algorithm} | {row.minimum:.3f} | {row.mean:.3f} | "
                    f"{row.theorem} | {1000 * row.seconds / len(row.ratios):.1f} | {exact / count:.2f} |"
                )


if __name__ == "__main__":
    main()
