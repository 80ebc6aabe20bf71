"""Where the kernel's time goes, per family of exact-cover problems: nodes, updates and time per node.

    python benchmarks/shapes.py            # every family; --quick skips the long ones

For each instance, in this process: the layout the kernel chose (bitsets or dancing links), the raw search
(no memo: every node visited) with its nodes, updates (link updates on dancing links, options removed on
bitsets) and nanoseconds per node and per update; then the count with --break-symmetry (the automorphisms
found by nauty, one branch per orbit) and its speed-up over the raw search, and the automorphism group's
order. Counts are checked against the published values.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from dlx_latin.exact_cover import CountSettings
from dlx_latin.exact_cover.automorphisms import Automorphisms
from dlx_latin.exact_cover.classic import langford, latin_square, pentominoes, queens, soma
from dlx_latin.exact_cover.symmetric_counts import count_breaking_symmetry

CENTRE = [(3, 3), (3, 4), (4, 3), (4, 4)]
FAMILIES = {
    # name: (builder, published count, long)
    "pentominoes 3x20": (lambda: pentominoes(3, 20), 8, False),
    "pentominoes 4x15": (lambda: pentominoes(4, 15), 1_472, False),
    "pentominoes 5x12": (lambda: pentominoes(5, 12), 4_040, False),
    "pentominoes 6x10": (lambda: pentominoes(6, 10), 9_356, False),
    "pentominoes 8x8 less its centre": (lambda: pentominoes(8, 8, holes=CENTRE), 520, False),
    "Soma cube": (soma, 11_520, False),
    "Langford pairs 12": (lambda: langford(12), 216_288, False),
    "13 queens (diagonals secondary)": (lambda: queens(13), 73_712, False),
    "Latin 6, first row fixed": (lambda: latin_square(6, fix="row"), 1_128_960, False),
    "reduced Latin 7": (lambda: latin_square(7, fix="reduced"), 16_942_080, True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip the long instances")
    parser.add_argument("--only", action="append", metavar="NAME", help="only families whose name has NAME")
    args = parser.parse_args()
    print(
        f"# {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; command: python benchmarks/shapes.py {' '.join(sys.argv[1:])}"
    )
    print()
    print(
        "| family | count | options / primary items | layout | raw nodes | raw updates | raw time | ns/node "
        "| ns/update | automorphisms | --break-symmetry | speed-up |"
    )
    print("|---" * 12 + "|")
    for name, (build, expected, long) in FAMILIES.items():
        if long and args.quick or args.only and not any(part in name for part in args.only):
            continue
        problem = build()
        search = problem.search()
        start = time.perf_counter()
        raw = search.count()
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        autos = Automorphisms(problem.kernel_arrays)
        broken = count_breaking_symmetry(problem.kernel_arrays, CountSettings(memo=False), autos)
        symmetric = time.perf_counter() - start
        if raw != expected or broken != expected:
            raise SystemExit(f"{name}: counted {raw} and {broken}, published {expected}")
        shape = f"{len(problem.options)} / {len(problem.primary)}"
        print(
            f"| {name} | {expected:,} | {shape} | {search.layout} | {search.nodes:,} | {search.updates:,} "
            f"| {seconds:.2f} s | {1e9 * seconds / search.nodes:.0f} | {1e9 * seconds / search.updates:.1f} "
            f"| {autos.order:,} | {symmetric:.2f} s | {seconds / symmetric:.1f}× |",
            flush=True,
        )


if __name__ == "__main__":
    main()
