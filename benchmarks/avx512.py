"""The bitset loop's MRV with AVX-512 (eight items per VPOPCNTQ) against the one-item scan, side by side.

    python benchmarks/avx512.py [--repeat N]

In this process, for each bitset family: the raw search (no memo) timed with the environment variable
DLX_LATIN_NO_AVX512 unset and set, in turn, N times each (default 5); the least time of each is shown with
the nodes (the same tree either way: the script checks).  On a processor without AVX-512 VPOPCNTDQ both
columns are the one-item scan.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from machine import header

from dlx_latin.exact_cover.classic import langford, pentominoes, queens, soma
from dlx_latin.exact_cover.kernel import kernel_search

FAMILIES = {
    "pentominoes 6x10": lambda: pentominoes(6, 10),
    "pentominoes 5x12": lambda: pentominoes(5, 12),
    "Soma cube": soma,
    "Langford pairs 12": lambda: langford(12),
    "13 queens": lambda: queens(13),
    "queens 40, first 300,000 nodes": lambda: queens(40),
}
BUDGET = {"queens 40, first 300,000 nodes": 300_000}


def timed(arrays, off: bool, budget: int | None) -> tuple[float, int, int]:
    """(seconds, count, nodes) of one raw search, AVX-512 off or not."""
    if off:
        os.environ["DLX_LATIN_NO_AVX512"] = "1"
    else:
        os.environ.pop("DLX_LATIN_NO_AVX512", None)
    search = kernel_search(arrays)
    start = time.perf_counter()
    n = search.count(max_nodes=budget) if budget else search.count()
    return time.perf_counter() - start, n, search.nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, metavar="N")
    args = parser.parse_args()
    print(header() + "\n")
    print("| family | nodes | one item per POPCNT | eight items per VPOPCNTQ | speed-up |")
    print("|---|---|---|---|---|")
    for name, build in FAMILIES.items():
        arrays = build().kernel_arrays
        times: dict[bool, list[float]] = {True: [], False: []}
        results = set()
        for _ in range(args.repeat):
            for off in (True, False):
                seconds, n, nodes = timed(arrays, off, BUDGET.get(name))
                times[off].append(seconds)
                results.add((n, nodes))
        if len(results) != 1:
            sys.exit(f"{name}: the two scans disagree: {results}")
        ((_, nodes),) = results
        scalar, wide = min(times[True]), min(times[False])
        print(f"| {name} | {nodes:,} | {scalar:.3f} s | {wide:.3f} s | {scalar / wide:.2f}× |")
    os.environ.pop("DLX_LATIN_NO_AVX512", None)


if __name__ == "__main__":
    main()
