"""Time the jigsaw targets: dissection counters side by side, and the large counts as whole commands.

    python benchmarks/jigsaw.py [--long]

Counters on the same tiles of the n x n square (n = 5, 6; tiles built once, outside the timing): the
memoized frontier search, the engine's exact cover with and without its count memo, and PyPI
`exact-cover` (Algorithm X in C, `pip install -e '.[bench]'`) when installed.  Whole commands are fresh
processes.  --long adds the runs of several minutes (A172477(8), impossible covers and smallest critical
sets of order 6 and 5).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

from dlx_latin.jigsaw import _frontier
from dlx_latin.jigsaw.dissections import cover_problem

COMMANDS = [
    # (arguments, expected first line of output, target in seconds)
    (["jigsaw", "covers", "7", "--count"], "158753814", 600),
    (["jigsaw", "count", "6", "--jobs", "2"], "234312972480", 900),
]
LONG = [
    (["jigsaw", "covers", "8", "--count"], "187497290034", None),
    (["jigsaw", "impossible", "6", "--jobs", "2"], None, None),
    (["jigsaw", "scs", "5", "--jobs", "2"], None, None),
]


def timed(count) -> tuple[float, int]:
    start = time.perf_counter()
    found = count()
    return time.perf_counter() - start, found


def counters(n: int) -> dict[str, tuple[float, int]]:
    """Seconds and count of each dissection counter at order n."""
    problem, placed = cover_problem(n)
    by_first: list[list[int]] = [[] for _ in range(n * n)]
    for tile in placed:
        by_first[tile[0]].append(sum(1 << c for c in tile))
    out = {
        "frontier (memo on covered cells)": timed(lambda: _frontier.count(n, n, 0, by_first)[0]),
        "engine exact cover, count memo": timed(lambda: problem.count(memo=True)),
        "engine exact cover, no memo": timed(lambda: problem.count(memo=False)),
    }
    try:
        import exact_cover
        import numpy as np
    except ImportError:
        return out
    matrix = np.zeros((len(placed), n * n), dtype=np.int32)
    for r, tile in enumerate(placed):
        matrix[r, list(tile)] = 1
    out["PyPI exact-cover 1.5.0 (Algorithm X)"] = timed(lambda: int(exact_cover.get_solution_count(matrix)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--long", action="store_true", help="Also the runs of several minutes.")
    args = parser.parse_args()
    print(f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    for n in (5, 6):
        results = counters(n)
        frontier = results["frontier (memo on covered cells)"][0]
        for name, (seconds, found) in results.items():
            print(f"n = {n}  {name:40s} {found:>8}  {seconds:9.4f} s  {seconds / frontier:7.1f}x frontier")
    exe = Path(sys.executable).with_name("dlx-latin")
    for command, expected, target in COMMANDS + (LONG if args.long else []):
        start = time.perf_counter()
        done = subprocess.run([str(exe), *command], capture_output=True, text=True, check=True)
        seconds = time.perf_counter() - start
        first = (done.stdout.strip().splitlines() or [""])[0]
        tail = (done.stderr.strip().splitlines() or [""])[-1]
        verdict = "" if expected is None else ("ok" if first == expected else f"WRONG (want {expected})")
        goal = "" if target is None else f" (target {target} s)"
        print(f"dlx-latin {' '.join(command)}: {first} {verdict} {tail} in {seconds:.1f} s{goal}")


if __name__ == "__main__":
    main()
