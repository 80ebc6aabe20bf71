"""Ratings that do not depend on orientation, and what rating a collection costs (issue 54).

    python benchmarks/ratings.py [--moves 20] [--fair 200] [--lines 2000] [--seed 5] [--tree DIR ...]

Puzzles: the 60 of benchmarks/data/sudoku17-sample.txt (Royle's 17-clue collection) and the FAIR puzzles of
`generate sudoku:3x3 --count FAIR --seed SEED --fair`.  Each is moved by MOVES random symmetries of the
grid (`batch.moved`: rows in bands, bands, columns, stacks, transposition, relabelling) and rated by
`check sudoku:3x3 --batch FILE --rate --json` of every TREE (a source tree with its C extensions built;
default this one), so the count of puzzles whose moved copies get more than one verdict is side by side
with the parent tree's.  Then LINES lines of those moved puzzles are rated by each tree, alternately, three
times (best shown): whole commands, one core.  Prints Markdown for benchmarks/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from batch import moved, seventeen

HERE = Path(__file__).parent


def dlx(tree: Path, *args: str) -> tuple[float, str]:
    """Seconds and standard output of one dlx-latin command run from source tree `tree`."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "dlx_latin", *args],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=tree,
    )
    return time.perf_counter() - start, done.stdout


def fair_puzzles(tree: Path, count: int, seed: int) -> list[str]:
    _, out = dlx(
        tree, "generate", "sudoku:3x3", "--count", str(count), "--seed", str(seed), "--fair", "--json"
    )
    grids = []
    for line in out.splitlines():
        cells = [x for row in json.loads(line)["clues"] for x in row]
        grids.append("".join("." if x is None else str(x) for x in cells))
    return grids


def verdicts(tree: Path, lines: list[str], folder: Path) -> list[tuple]:
    path = folder / "lines.txt"
    path.write_text("\n".join(lines) + "\n")
    _, out = dlx(tree, "check", "sudoku:3x3", "--batch", str(path), "--rate", "--json")
    return [(r.get("fair"), r.get("rating"), r.get("score")) for r in map(json.loads, out.splitlines())]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--fair", type=int, default=200)
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--tree", type=Path, action="append", help="a source tree (default: this one)")
    args = ap.parse_args()
    trees = [t.resolve() for t in args.tree or [HERE.parent]]
    rng = random.Random(args.seed)
    groups = {
        "17-clue (Royle, sample of 60)": seventeen(60, args.seed),
        f"fair, generated (--seed {args.seed})": fair_puzzles(trees[0], args.fair, args.seed),
    }
    print(
        "| puzzles | moves each | " + " | ".join(f"`{t.name}`: rated more than one way" for t in trees) + " |"
    )
    print("|---|---|" + "---|" * len(trees))
    everything = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, grids in groups.items():
            lines = [moved(g, rng) for g in grids for _ in range(args.moves)]
            everything += lines
            cells = []
            for tree in trees:
                got = verdicts(tree, lines, Path(tmp))
                split = sum(len(set(got[k : k + args.moves])) > 1 for k in range(0, len(got), args.moves))
                cells.append(f"{split} of {len(grids)}")
            print(f"| {name} | {args.moves} | " + " | ".join(cells) + " |")
        collection = Path(tmp) / "collection.txt"
        collection.write_text("\n".join(rng.sample(everything, min(args.lines, len(everything)))) + "\n")
        best = {t: float("inf") for t in trees}
        for _ in range(3):
            for tree in trees:
                seconds, _ = dlx(tree, "check", "sudoku:3x3", "--batch", str(collection), "--rate")
                best[tree] = min(best[tree], seconds)
    print()
    print(
        f"| `check sudoku:3x3 --batch FILE --rate`, {args.lines} lines | "
        + " | ".join(f"`{t.name}` {best[t]:.2f} s ({args.lines / best[t]:.0f}/s)" for t in trees)
        + " |"
    )
    print("|---|" + "---|" * len(trees))


if __name__ == "__main__":
    main()
