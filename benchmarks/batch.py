"""Puzzles per second through `solve/check BOARD --batch` (whole commands), beside the one-puzzle path.

    python benchmarks/batch.py [--board sudoku:3x3] [--distinct 200] [--lines 50000] [--seed 11]

A collection is generated reproducibly (`generate BOARD --count DISTINCT --seed SEED`: unique, critical
puzzles), repeated to LINES lines, and answered by the batch commands with one core and with `--jobs 2`
(answers compared); the one-puzzle path (`count_completions(pb, limit=2)` per puzzle, in-process) is timed
on the distinct puzzles.  Prints a Markdown table for benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dlx_latin.boards import board_from_spec
from dlx_latin.formats.grid import label_char, parse_grid
from dlx_latin.latin import PartialBoard, count_completions


def collection(board: str, distinct: int, seed: int) -> list[str]:
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "dlx_latin",
            "generate",
            board,
            "--count",
            str(distinct),
            "--seed",
            str(seed),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    grids = []
    for line in made.splitlines():
        rows = json.loads(line)["clues"]
        cells = [x for row in rows for x in row] if isinstance(rows[0], list) else rows
        grids.append("".join("." if x is None else label_char(x) for x in cells))
    return grids


def timed(args: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "dlx_latin", *args], capture_output=True, text=True, check=True
    )
    return time.perf_counter() - start, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--board", default="sudoku:3x3")
    parser.add_argument("--distinct", type=int, default=200)
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    grids = collection(args.board, args.distinct, args.seed)
    clues = sorted(len(g) - g.count(".") for g in grids)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "puzzles.txt"
        path.write_text("".join(grids[k % len(grids)] + "\n" for k in range(args.lines)))
        rows = []
        outputs = []
        for name, extra in (("solve --batch", []), ("solve --batch --jobs 2", ["--jobs", "2"])):
            seconds, out = timed(["solve", args.board, "--batch", str(path), *extra])
            outputs.append(out)
            rows.append((name, args.lines, seconds))
        assert outputs[0] == outputs[1], "--jobs 2 changed the answers"
        seconds, _ = timed(["check", args.board, "--batch", str(path)])
        rows.append(("check --batch", args.lines, seconds))
    board = board_from_spec(args.board)
    pbs = [
        PartialBoard(board, clues=parse_grid(g, board.n_points, PartialBoard(board).multiset)) for g in grids
    ]
    start = time.perf_counter()
    assert all(count_completions(pb, limit=2) == 1 for pb in pbs)
    rows.append(("one puzzle at a time, in-process", len(pbs), time.perf_counter() - start))
    print(
        f"{platform.machine()}, Python {platform.python_version()}; {args.board}, {len(grids)} distinct "
        f"generated puzzles (seed {args.seed}), {clues[0]}-{clues[-1]} clues, repeated to {args.lines} lines"
    )
    print("| how | puzzles | seconds | puzzles/s |")
    print("|---|---|---|---|")
    for name, n, seconds in rows:
        print(f"| {name} | {n:,} | {seconds:.2f} | {n / seconds:,.0f} |")


if __name__ == "__main__":
    main()
