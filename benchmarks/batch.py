"""Puzzles per second through `solve/check BOARD --batch` (whole commands), beside a PyPI Sudoku solver and
the one-puzzle path; and the time to generate critical and fair 9x9 puzzles.

    pip install py-sudoku            # the peer (optional: its rows are left out without it)
    python benchmarks/batch.py [--lines 50000] [--seed 11] [--peer-lines 50] [--generation] [--repeat 3]

Collections, each written to a file of LINES lines (fewer for 16x16) and answered by `solve --batch` with
one core and with `--jobs 2` (answers compared) and by `check --batch`:
- 9x9 with 17 clues: the 60 puzzles of benchmarks/data/sudoku17-sample.txt (from Royle's collection), each
  line one of them moved by a random symmetry of the grid (rows in bands, bands, columns in stacks, stacks,
  transposition, relabelling), so the lines are mostly different strings of the same hardness;
- 9x9, 16x16 and jigsaw 9x9 puzzles made by `generate BOARD --count K --seed SEED` (unique, critical),
  repeated.
In-process, on each 9x9 collection: py-sudoku's `has_multiple_solutions()` (its uniqueness check) and
`solve()` and our one-puzzle path (`count_completions(pb, limit=2)`) on its first PEER_LINES (50) lines;
PuzzleBatch (the BitBoard) and the exact-cover kernel's batch on all of it.
With --generation: `generate sudoku:3x3 --count 1000 --seed SEED` (one core and `--jobs 2`) and
`--count 100 --fair`, whole commands.  Each whole command runs REPEAT times; the best time is shown.
Prints Markdown tables for benchmarks/RESULTS.md.
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

from dlx_latin.boards import board_from_spec
from dlx_latin.latin.grid import label_char
from dlx_latin.latin import PartialBoard, count_completions
from dlx_latin.latin import batch as batch_module
from dlx_latin.latin.batch import PuzzleBatch

HERE = Path(__file__).parent
JIGSAW = "jigsaw:AAABBBCCCAAABBBCCCAADBBBCCFADDEEECFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII"


def moved(grid: str, rng: random.Random) -> str:
    """A 9x9 grid string moved by a random symmetry of the Sudoku grid (the same puzzle up to symmetry)."""
    rows = [3 * b + r for b in rng.sample(range(3), 3) for r in rng.sample(range(3), 3)]
    cols = [3 * s + c for s in rng.sample(range(3), 3) for c in rng.sample(range(3), 3)]
    labels = dict(zip("123456789", rng.sample("123456789", 9), strict=True), **{".": ".", "0": "."})
    flip = rng.random() < 0.5
    return "".join(
        labels[grid[cols[c] * 9 + rows[r] if flip else rows[r] * 9 + cols[c]]]
        for r in range(9)
        for c in range(9)
    )


def seventeen(lines: int, seed: int) -> list[str]:
    sample = HERE / "data" / "sudoku17-sample.txt"
    grids = [g for g in sample.read_text().split() if not g.startswith("#") and len(g) == 81]
    rng = random.Random(seed)
    return [moved(grids[k % len(grids)], rng) for k in range(lines)]


def generated(board: str, count: int, seed: int, lines: int) -> list[str]:
    made = subprocess.run(
        [sys.executable, "-m", "dlx_latin", "generate", board, "--count", str(count), "--seed", str(seed)]
        + ["--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    grids = []
    for line in made.splitlines():
        rows = json.loads(line)["clues"]
        cells = [x for row in rows for x in row] if isinstance(rows[0], list) else rows
        grids.append("".join("." if x is None else label_char(x) for x in cells))
    return [grids[k % len(grids)] for k in range(lines)]


PEAK = (
    "import sys; from dlx_latin.cli import run; code = run(sys.argv[1:]); "
    "print(open('/proc/self/status').read().split('VmHWM:')[1].split()[0], file=sys.stderr); sys.exit(code)"
)


def timed(args: list[str], repeat: int = 1) -> tuple[float, str, int]:
    """Seconds (the best of `repeat` runs: this host is shared and noisy), standard output and peak memory
    (KiB, the process's own high-water mark: a forked child's rusage would count this benchmark's memory
    too) of one dlx-latin command."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", PEAK, *args], capture_output=True, text=True, check=True)
        best = min(best, time.perf_counter() - start)
    return best, done.stdout, int(done.stderr.split()[-1])


def peers(board: str, grids: list[str], whole: list[str]) -> list[tuple[str, int, float]]:
    """In-process rows: py-sudoku (when installed) and the one-puzzle path on `grids`, PuzzleBatch and the
    kernel's batch on the `whole` collection."""
    rows = []
    try:
        from sudoku import Sudoku
    except ImportError:
        print("(py-sudoku is not installed: its rows are left out)", file=sys.stderr)
    else:
        boards = [
            [[int(grid[9 * r + c]) if grid[9 * r + c] != "." else None for c in range(9)] for r in range(9)]
            for grid in grids
        ]
        start = time.perf_counter()
        several = sum(Sudoku(3, 3, board=b).has_multiple_solutions() for b in boards)
        rows.append(("py-sudoku 2.0 `has_multiple_solutions()`", len(grids), time.perf_counter() - start))
        assert several == 0
        start = time.perf_counter()
        for b in boards:
            Sudoku(3, 3, board=b).solve()
        rows.append(("py-sudoku 2.0 `solve()`", len(grids), time.perf_counter() - start))
    spec = board_from_spec(board)
    batch = PuzzleBatch(spec)
    start = time.perf_counter()
    assert all(count_completions(PartialBoard(spec, clues=batch.clues(g)), limit=2) == 1 for g in grids)
    rows.append(
        (
            "dlx-latin one puzzle at a time (`count_completions(pb, limit=2)`)",
            len(grids),
            time.perf_counter() - start,
        )
    )
    start = time.perf_counter()
    assert all(answer.solutions == 1 for answer in batch.answers(whole))
    rows.append(("dlx-latin `PuzzleBatch(board).answers(grids)`", len(whole), time.perf_counter() - start))
    clue_sets = [batch.clues(g) for g in whole]  # the same clue dicts to both engines
    for how, engine in (("the BitBoard", batch), ("the exact-cover kernel's batch", kernel_batch(spec))):
        start = time.perf_counter()
        assert all(answer.solutions == 1 for answer in engine.answers(clue_sets))
        rows.append((f"dlx-latin `answers(clue dicts)`, {how}", len(whole), time.perf_counter() - start))
    return rows


def kernel_batch(board) -> PuzzleBatch:
    """A PuzzleBatch on the exact-cover kernel's batch, as boards of more than 64 labels get (and every board
    got before the BitBoard): each puzzle's clue options chosen inside the kernel, searched, undone."""
    limit = batch_module.MAX_LABELS
    batch_module.MAX_LABELS = 0
    try:
        return PuzzleBatch(board)
    finally:
        batch_module.MAX_LABELS = limit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--peer-lines", type=int, default=50, help="lines each peer answers (py-sudoku is slow)"
    )
    parser.add_argument("--generation", action="store_true", help="also time generate (a few minutes)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each whole command: the best is shown")
    args = parser.parse_args()
    collections = [
        ("9x9, 17 clues", "sudoku:3x3", seventeen(args.lines, args.seed)),
        ("9x9, generated", "sudoku:3x3", generated("sudoku:3x3", 200, args.seed, args.lines)),
        ("jigsaw 9x9, generated", JIGSAW, generated(JIGSAW, 200, args.seed, args.lines)),
        ("16x16, generated", "sudoku:4x4", generated("sudoku:4x4", 20, args.seed, args.lines // 100)),
    ]
    print(
        f"{platform.machine()}, Python {platform.python_version()}, {os.cpu_count()} cores; seed {args.seed}"
    )
    print("\n| collection | command | lines | seconds | puzzles/s | peak memory |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, board, grids in collections:
            path = Path(tmp) / "puzzles.txt"
            path.write_text("".join(g + "\n" for g in grids))
            clues = sorted({len(g) - g.count(".") for g in grids})
            name = f"{name} ({clues[0]}-{clues[-1]} clues)" if len(clues) > 1 else f"{name}"
            outputs = []
            for how, extra in (
                ("solve --batch", []),
                ("solve --batch --jobs 2", ["--jobs", "2"]),
                ("check --batch", []),
            ):
                command = how.split()[0]
                seconds, out, memory = timed([command, board, "--batch", str(path), *extra], args.repeat)
                if command == "solve":
                    outputs.append(out)
                assert "-" not in out.split() and "?" not in out.split(), "a puzzle without one solution"
                rate, peak = f"{len(grids) / seconds:,.0f}", f"{memory / 1024:.0f} MiB"
                print(f"| {name} | `{how}` | {len(grids):,} | {seconds:.2f} | {rate} | {peak} |")
            assert outputs[0] == outputs[1], "--jobs 2 changed the answers"
    head = f"9x9 collection, in-process (peers on the first {args.peer_lines} lines)"
    print(f"\n| {head} | how | puzzles | seconds | puzzles/s |")
    print("|---|---|---|---|---|")
    for name, board, grids in collections[:2]:
        for how, n, seconds in peers(board, grids[: args.peer_lines], grids):
            print(
                f"| {name} | {how} | {n} | {seconds:.2f} | {n / seconds:,.{0 if n > 10 * seconds else 2}f} |"
            )
    if args.generation:
        print("\n| generation, whole command | seconds |")
        print("|---|---|")
        for how in (["--count", "1000"], ["--count", "1000", "--jobs", "2"], ["--count", "100", "--fair"]):
            seconds, out, _ = timed(["generate", "sudoku:3x3", *how, "--seed", str(args.seed)], args.repeat)
            assert out.count("# puzzle") == int(how[1])
            print(f"| `generate sudoku:3x3 {' '.join(how)} --seed {args.seed}` | {seconds:.1f} |")


if __name__ == "__main__":
    main()
