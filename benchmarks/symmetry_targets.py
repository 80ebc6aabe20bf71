"""Time the symmetry targets: counts on orbit representatives, classes up to symmetry, canonical forms.

    python benchmarks/symmetry_targets.py

Whole commands are fresh processes (start-up included); the canonical form is timed in-process over many
9x9 Sudoku grids, each moved by a random automorphism and relabelling first.
"""

from __future__ import annotations

import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = [
    # (arguments, expected output, target in seconds)
    (["count", "latin:7"], "61479419904000", 60),
    (["count", "sudoku:2x3"], "28200960", 2),
    (["count", "sudoku:2x3", "--up-to", "symmetry"], "49", 10),
    (["count", "latin:6", "--up-to", "symmetry"], "17", None),
    (["count", "hexagon:2"], "620786073600", None),
    (["count", "dodecagon", "--up-to", "geometry"], "1983", None),
    (["count", "hexagon:2", "--up-to", "geometry"], "163", None),
    (["count", "cube:2", "--up-to", "geometry"], "131", None),
    (["count", "latin:7", "--up-to", "isotopy"], "564", None),
]


def time_command(args: list[str]) -> tuple[float, str]:
    exe = Path(sys.executable).with_name("dlx-latin")
    start = time.perf_counter()
    out = subprocess.run([str(exe), *args], capture_output=True, text=True, check=True).stdout.strip()
    return time.perf_counter() - start, out


def time_canonical_forms(grids: int = 300) -> float:
    """Mean milliseconds per canonical form of a 9x9 Sudoku grid under its whole group and relabelling."""
    from dlx_latin.boards import board_from_spec
    from dlx_latin.latin import PartialBoard, completions
    from symmetry import NautyCanonizer, automorphism_group

    rng = random.Random(1)
    board = board_from_spec("sudoku:3x3")
    pb = PartialBoard(board)
    canon = NautyCanonizer(board, pb.multiset)
    group = automorphism_group(board)
    base = [list(x) for x, _ in zip(completions(pb), range(20), strict=False)]
    inputs = []
    for k in range(grids):
        g, rename = group.random().array_form, rng.sample(range(1, 10), 9)
        moved = [0] * 81
        for p, label in enumerate(base[k % len(base)]):
            moved[g[p]] = rename[label - 1]
        inputs.append(moved)
    canon.form(inputs[0])  # the bare constellation's canonical order is made once per board
    start = time.perf_counter()
    forms = {canon.form(x).labelling for x in inputs}
    elapsed = time.perf_counter() - start
    assert len(forms) <= len(base)
    return 1000 * elapsed / grids


def time_listing(spec: str) -> tuple[float, int]:
    """Seconds to find the classes of a board by listing them (the method Burnside replaces), in-process."""
    from dlx_latin.boards import board_from_spec
    from dlx_latin.latin import PartialBoard
    from symmetry import classes_up_to_symmetry

    start = time.perf_counter()
    found = len(classes_up_to_symmetry(PartialBoard(board_from_spec(spec))))
    return time.perf_counter() - start, found


def main() -> None:
    print(
        f"# {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; command: python benchmarks/symmetry_targets.py"
    )
    print()
    print("| command | output | time | target |")
    print("|---|---|---|---|")
    for args, expected, target in COMMANDS:
        seconds, out = time_command(args)
        verdict = "" if target is None else f"< {target} s: {'met' if seconds < target else 'MISSED'}"
        assert out == expected, (args, out)
        print(f"| `dlx-latin {' '.join(args)}` | {out} | {seconds:.2f} s | {verdict} |", flush=True)
    seconds, found = time_listing("dodecagon")
    print(f"| dodecagon classes by listing them (in-process) | {found} | {seconds:.2f} s | |", flush=True)
    ms = time_canonical_forms()
    print(
        f"| canonical form of a 9x9 Sudoku grid (in-process mean) | — | {ms:.2f} ms | < 5 ms: "
        f"{'met' if ms < 5 else 'MISSED'} |"
    )


if __name__ == "__main__":
    main()
