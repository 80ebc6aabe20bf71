"""Time the puzzle targets and calibrate the attrition rating against an outside rated collection.

    pip install -e '.[bench]'        # kaidoku (MIT) ships 25,000 rated 9x9 Sudoku puzzles; read from it
    python benchmarks/puzzles.py [--sample K]

1. Uniqueness of every kaidoku puzzle with the exact-cover engine (one core, in-process).
2. The Spearman correlation between our attrition score (`check`'s `score`) and kaidoku's level 1-9, over
   every K-th puzzle (default 5), with the share of fair puzzles per level.
3. 100 fair critical 9x9 Sudoku puzzles generated (`generate sudoku:3x3 --fair`), each checked.
The data is never copied into this repository.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from machine import header

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import Multiset, PartialBoard, count_completions, is_critical
from dlx_latin.puzzles.generate import generate
from dlx_latin.puzzles.proof import explain


def kaidoku_puzzles() -> list[tuple[int, str]]:
    import kaidoku

    path = Path(kaidoku.__file__).parent / "data" / "sudoku.txt"
    out = []
    for line in path.read_text().splitlines():
        level, grid = line.split()
        out.append((int(level), grid))
    return out


def ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1..n, ties sharing their average rank."""
    order = np.argsort(x, kind="stable")
    r = np.empty(len(x))
    r[order] = np.arange(1, len(x) + 1)
    for value in np.unique(x):
        tied = x == value
        r[tied] = r[tied].mean()
    return r


def spearman(a: list[float], b: list[float]) -> float:
    return float(np.corrcoef(ranks(np.asarray(a, float)), ranks(np.asarray(b, float)))[0, 1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sample", type=int, default=5, help="rate every K-th puzzle")
    args = parser.parse_args()
    print(header())
    board, m = board_from_spec("sudoku:3x3"), Multiset.default(9)
    puzzles = [
        (level, PartialBoard(board, m, {p: int(c) for p, c in enumerate(grid) if c != "0"}))
        for level, grid in kaidoku_puzzles()
    ]
    start = time.perf_counter()
    unique = sum(count_completions(pb, limit=2) == 1 for _, pb in puzzles)
    seconds = time.perf_counter() - start
    print(
        f"- uniqueness of all {len(puzzles):,} kaidoku puzzles: {unique:,} unique, {seconds:.1f} s "
        "(target < 30 s)"
    )

    start = time.perf_counter()
    levels, scores, fair = [], [], defaultdict(list)
    for level, pb in puzzles[:: args.sample]:
        proof = explain(pb)
        levels.append(level)
        scores.append(proof.score)
        fair[level].append(proof.fair)
    seconds = time.perf_counter() - start
    rho = spearman(levels, scores)
    print(
        f"- attrition score vs kaidoku level over {len(levels):,} puzzles: Spearman {rho:.3f} (aim >= 0.6); "
        f"{1000 * seconds / len(levels):.1f} ms per proof"
    )
    shares = ", ".join(f"{lvl}: {100 * sum(v) / len(v):.0f}%" for lvl, v in sorted(fair.items()))
    print(f"- fair share by kaidoku level: {shares}")

    start = time.perf_counter()
    made = [generate(PartialBoard(board, m), seed=f"bench/{k}", fair=True) for k in range(100)]
    seconds = time.perf_counter() - start
    assert all(g.verdict.fair for g in made)
    critical = sum(g.critical for g in made)
    assert critical == sum(is_critical(g.puzzle) for g in made)
    clues = [len(g.puzzle.clues) for g in made]
    print(
        f"- 100 fair 9x9 Sudoku puzzles generated in {seconds:.1f} s (target < 30 s), {critical} critical, "
        f"{min(clues)}-{max(clues)} clues (mean {sum(clues) / len(clues):.1f})"
    )


if __name__ == "__main__":
    main()
