"""Time to the first latinization of every family, and board counts, as whole commands.

    pip install -e '.[bench]'
    python benchmarks/boards.py [--timeout SECONDS]

Columns: `dlx-latin solve BOARD` (label symmetry fixed on the first asterism); the same kernel on the plain
reduction with no symmetry fixed (a Python one-liner, so start-up is comparable); PyPI `exact-cover`'s
get_exact_cover on the same plain reduction as a 0/1 matrix.  Counts: `dlx-latin count` against
exact-cover's get_solution_count on the plain reduction (distinct labels only: it has no multiplicities).
Each cell is one fresh process; a cell past the timeout shows "> T s".
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from peers import measure  # noqa: E402

FIRST = [
    "latin:9",
    "sudoku:3x3",
    "diagonal:9",
    "win",
    "quadoku",
    "free-square:8",
    "tartan",
    "triangle:8",
    "hexagon:3",
    "dodecagon",
    "tetrahedron:4",
    "cube:4",
    "octahedron:3",
    "icosahedron:2",
    "dodecahedron",
    "dodecahedron:decagonal",
]
COUNTS = [
    ("sudoku:2x3", None, 28_200_960),
    ("latin:5", None, 161_280),
    ("diagonal:6", None, 92_160),
    ("latin:6", "1^3,2^3", 297_200),
    ("latin:6", "1^2,2^2,3^2", 35_599_500),
]

PLAIN = """
import sys
from dlx_latin.boards import board_from_spec
from dlx_latin.latin import PartialBoard, Multiset
from dlx_latin.latin.completion import reduce_to_exact_cover
spec, mode, multiset = sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None
pb = PartialBoard(board_from_spec(spec), Multiset.parse(multiset) if multiset else None)
problem = reduce_to_exact_cover(pb).problem
if mode in ("ours-first", "ours-count"):
    print(1 if mode == "ours-first" and problem.first_solution() else problem.count())
else:
    import numpy as np, exact_cover
    items = {item: k for k, item in enumerate(problem.primary)}
    matrix = np.zeros((len(problem.options), len(items)), dtype=np.int32)
    for r in range(len(problem.options)):
        matrix[r, [items[i] for i in problem.option_items(r)]] = 1
    if mode == "peer-first":
        exact_cover.get_exact_cover(matrix)
        print(1)
    else:
        print(int(exact_cover.get_solution_count(matrix)))
"""


def cell(seconds: float | None, count: int | None, expected: int, timeout: float) -> str:
    if seconds is None:
        return f"> {timeout:.0f} s"
    return f"{seconds:.2f} s" if count == expected else f"WRONG {count}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    exe = str(Path(sys.executable).with_name("dlx-latin"))
    py = [sys.executable, "-c", PLAIN]
    print(
        f"# {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores; "
        f"command: python benchmarks/boards.py --timeout {args.timeout:.0f}\n"
    )
    print("| board | dlx-latin solve | plain search, no symmetry | exact-cover, plain |")
    print("|---|---|---|---|")
    for spec in FIRST:
        ours = measure(["sh", "-c", f'"{exe}" solve "{spec}" > /dev/null && echo 1'], args.timeout)
        ours_cell = cell(ours[0], ours[1], 1, args.timeout)
        plain = measure([*py, spec, "ours-first"], args.timeout)
        peer = measure([*py, spec, "peer-first"], args.timeout)
        print(
            f"| {spec} | {ours_cell} | {cell(plain[0], plain[1], 1, args.timeout)} | "
            f"{cell(peer[0], peer[1], 1, args.timeout)} |",
            flush=True,
        )
    print("\n| count | expected | dlx-latin count | plain search, no symmetry | exact-cover, plain |")
    print("|---|---|---|---|---|")
    for spec, multiset, expected in COUNTS:
        extra = ["--multiset", multiset] if multiset else []
        ours = measure([exe, "count", spec, *extra, "--no-progress"], args.timeout)
        plain = measure([*py, spec, "ours-count", *([multiset] if multiset else [])], args.timeout)
        peer = measure([*py, spec, "peer-count"], args.timeout) if not multiset else (None, None, 0.0)
        peer_cell = cell(peer[0], peer[1], expected, args.timeout) if not multiset else "n/a"
        name = spec + (f" {{{multiset}}}" if multiset else "")
        print(
            f"| {name} | {expected:,} | {cell(ours[0], ours[1], expected, args.timeout)} | "
            f"{cell(plain[0], plain[1], expected, args.timeout)} | {peer_cell} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
