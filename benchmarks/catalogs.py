"""Catalog build times and query latency on a catalog of one million puzzles.

    python benchmarks/catalogs.py [--rows 1000000]

Builds are whole commands in fresh processes on a fresh catalog file.  For the query latency, a catalog
is filled with `--rows` synthetic puzzle rows for the 9x9 Sudoku board (random clue sets, clue counts 17-40,
ratings spread over the five levels), then `dlx-latin catalog query` is timed with filters, whole command.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from catalog.store import board_id, open_catalog
from dlx_latin.boards import board_from_spec
from dlx_latin.puzzles.proof import LEVELS

EXE = str(Path(sys.executable).with_name("dlx-latin"))


def timed(*args: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run([EXE, *args], capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout


def fill(path: Path, rows: int) -> None:
    db = open_catalog(path)
    board = board_from_spec("sudoku:3x3")
    bid = board_id(db, "sudoku:3x3", "1,2,3,4,5,6,7,8,9", 81, [list(a) for a in board.asterisms])
    rng = random.Random(0)
    db.execute("BEGIN")
    batch = []
    for k in range(rows):
        count = rng.randint(17, 40)
        cells = set(rng.sample(range(81), count))
        clues = [rng.randint(1, 9) if p in cells else None for p in range(81)]
        level = rng.choice(LEVELS)
        batch.append((bid, "[]", json.dumps(clues), count, 1, "1", 1, level, k % 500))
        if len(batch) == 50_000:
            db.executemany("INSERT INTO puzzles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", batch)
            batch = []
    db.executemany("INSERT INTO puzzles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", batch)
    db.execute("COMMIT")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    print(f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as tmp:
        builds = (
            ["sudoku:2x3"],
            ["latin:6"],
            ["hexagon:3"],
            ["sudoku:2x2", "--minimal-puzzles"],
            ["latin:5", "--minimal-puzzles"],
        )
        for k, build in enumerate(builds):
            seconds, out = timed("catalog", "build", *build, "--db", str(Path(tmp) / f"b{k}.sqlite"))
            last = out.strip().splitlines()[-1]
            print(f"dlx-latin catalog build {' '.join(build)}: {seconds:.2f} s  ({last})")
        big = Path(tmp) / "big.sqlite"
        start = time.perf_counter()
        fill(big, args.rows)
        print(
            f"filled {args.rows} puzzle rows in {time.perf_counter() - start:.1f} s "
            f"({big.stat().st_size / 2**20:.0f} MiB)"
        )
        queries = [
            ["--clues", "17", "--limit", "100"],
            ["--rating", "medium", "--limit", "100"],
            ["--minimal", "--limit", "10"],
            ["--clues", "25", "--rating", "difficult"],
        ]
        for extra in queries:
            seconds, out = timed(
                "catalog", "query", "--board", "sudoku:3x3", "--puzzles", *extra, "--db", str(big)
            )
            print(
                f"dlx-latin catalog query --puzzles {' '.join(extra)}: {len(out.splitlines())} rows in "
                f"{1000 * seconds:.0f} ms (whole command)"
            )


if __name__ == "__main__":
    main()
