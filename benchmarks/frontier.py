"""Time the frontier counts of issue 30 as whole commands, each checked against its published value.

    python benchmarks/frontier.py [--quick]

It ends with the projection for `jigsaw count 7`, a check of `jigsaw scs 6`'s method against hitting sets
alone on a sample of covers, and the scan with and without symmetries on the covers that need them.
--quick leaves out `count sudoku:3x3 --up-to symmetry`, `count latin:8 --up-to isotopy`, `jigsaw count 7`
and the scs checks (minutes to an hour each).
Each command is a fresh process (start-up included) under a time limit of its target; a command past its
limit is reported as such, not waited for.
"""

from __future__ import annotations

import os
import platform
import random
import subprocess
import sys
import time
from pathlib import Path

TARGETS = [
    # (arguments, published value, source, target in seconds, long)
    (["count", "sudoku:3x3"], "6670903752021072936960", "A107739, Felgenhauer & Jarvis", 600, False),
    (["count", "sudoku:2x4"], "29136487207403520", "Russell & Jarvis (8x8, 2x4 boxes)", None, False),
    (["count", "latin:8"], "108776032459082956800", "A002860", 3600, False),
    (["count", "latin:7", "--up-to", "isotopy"], "564", "A040082", None, False),
    (
        ["count", "sudoku:3x3", "--up-to", "symmetry", "--jobs", "2"],
        "5472730538",
        "Russell & Jarvis",
        1800,
        True,
    ),
    (["count", "latin:8", "--up-to", "isotopy", "--jobs", "2"], "1676267", "A040082", 3600, 1),
    (["jigsaw", "count", "6"], "234312972480", "A172478, de Ruiter", None, False),
    (["jigsaw", "count", "7", "--jobs", "2"], "41182101508222080", "A172478, de Ruiter", 3600, True),
]


def run(args: list[str], limit: float | None) -> tuple[float, str]:
    """Seconds and stdout of `dlx-latin ARGS` (stdout 'timeout' past `limit`)."""
    exe = Path(sys.executable).with_name("dlx-latin")
    start = time.perf_counter()
    try:
        done = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - start, "timeout"
    out = done.stdout.strip() if done.returncode == 0 else f"exit {done.returncode}: {done.stderr.strip()}"
    return time.perf_counter() - start, out


def project_jigsaw(n: int = 7, sample: int = 300, seed: int = 1) -> str:
    """Seconds of `jigsaw count n` projected from a random sample of its parts (`cover_parts`), each walked
    and counted in-process, with the covers and orbits they hold scaled the same way (the check that the
    sample is fair: the covers' total is A172477)."""
    from dlx_latin.jigsaw.counts import cover_parts, walk

    parts = cover_parts(n)
    chosen = random.Random(seed).sample(parts, min(sample, len(parts)))
    start = time.perf_counter()
    walked = [walk(n, p) for _, p in chosen]
    seconds = time.perf_counter() - start
    scale = len(parts) / len(chosen)
    squares, covers, orbits = (sum(w[i] for w in walked) * scale for i in range(3))
    return (
        f"jigsaw count {n}: {len(chosen)} of {len(parts):,} parts in {seconds:.1f} s -> about "
        f"{seconds * scale / 3600:.2f} core-hours for all; the sample scales to {covers:.3g} covers, "
        f"{orbits:.3g} orbits, {squares:.3g} squares"
    )


def hitting_set_minimum(regions: str) -> int | None:
    """A cover's fewest clues by implicit hitting sets alone, class by class (no pattern scan): the method
    `jigsaw scs` used before the scan, kept here as the independent check."""
    from dlx_latin.jigsaw.counts import cover_board
    from dlx_latin.latin import count_completions
    from dlx_latin.puzzles.minimal import smallest_puzzle
    from symmetry.counting import all_classes

    pb = cover_board(regions)
    if count_completions(pb, limit=1) == 0:
        return None
    best = None
    for form in all_classes(pb):
        puzzle = smallest_puzzle(pb.with_clues(dict(enumerate(form.labelling))), best)
        if puzzle is not None:
            best = len(puzzle.clues)
    return best


def timed_both(regions: str) -> tuple[float, float, object, object]:
    """Seconds and fewest clues of one cover by `cover_minimum` (the scan) and by hitting sets alone."""
    from dlx_latin.jigsaw.critical import cover_minimum

    start = time.perf_counter()
    found = cover_minimum(regions)
    middle = time.perf_counter()
    other = hitting_set_minimum(regions)
    return middle - start, time.perf_counter() - middle, None if found is None else found[0], other


def check_scs(n: int = 6, sample: int = 24, seed: int = 1, jobs: int = 2) -> str:
    """`jigsaw scs n`'s per-cover method against hitting sets alone on `sample` orbits of covers drawn at
    random (seeded), in `jobs` processes: the times of both and whether every minimum agrees."""
    import random
    import statistics

    from dlx_latin.jigsaw.dissections import covers_up_to_symmetry
    from dlx_latin.workers import process_pool

    orbits = sorted(covers_up_to_symmetry(n))
    chosen = random.Random(seed).sample(orbits, sample)
    with process_pool(jobs) as pool:
        found = list(pool.map(timed_both, chosen))
    scan, hitting = [f[0] for f in found], [f[1] for f in found]
    agree = sum(f[2] == f[3] for f in found)
    return (
        f"jigsaw scs {n}: {sample} orbits of covers drawn at random (seed {seed}): minima agree on {agree} "
        f"of {sample}; per cover, scan first {statistics.mean(scan) * 1000:.1f} ms mean "
        f"({max(scan) * 1000:.0f} ms at most), hitting sets alone {statistics.mean(hitting):.2f} s mean "
        f"({max(hitting):.1f} s at most)"
    )


STRIPS = [  # the order-6 covers the scan without symmetries left after 50 minutes (twenty-third session)
    "aaaaaabbbbbbccccccddddddeeeeefefffff",
    "aaaaaabbbbbbccccccddddddeeeeffeeffff",
    "aaaaaabbbbbbccccccddddddeeefffeeefff",
    "aaaaaabbbbbbccccccdddddedeeeeeffffff",
    "aaaaaabbbbbbccccccddddeeddeeeeffffff",
    "aaaaaabbbbbbccccccdddeeedddeeeffffff",
    "aaaaaabbbbbbcccccdcdddddeeeeeeffffff",
    "aaaaaabbbbbbccccddccddddeeeeeeffffff",
    "aaaaaabbbbbbcccdddcccdddeeeeeeffffff",
]


def timed_strip(regions: str, size: int = 6) -> tuple[int, float, float, float, int]:
    """One cover: its symmetries, the seconds to rule out puzzles of `size` clues without and with them,
    the seconds of the whole scan with them, and the fewest clues it finds."""
    from dlx_latin.jigsaw.counts import cover_board
    from dlx_latin.puzzles.patterns import LONG_BUDGET, listed_boards, pattern_scan, unique_pattern
    from symmetry.groups import automorphism_elements

    pb = cover_board(regions)
    group = automorphism_elements(pb.board)
    count, labels = listed_boards(pb)
    times = []
    for symmetries in (None, group):
        start = time.perf_counter()
        assert unique_pattern(labels, count, pb.board.n_points, size, 5, LONG_BUDGET, symmetries) is None
        times.append(time.perf_counter() - start)
    start = time.perf_counter()
    scan = pattern_scan(pb, LONG_BUDGET, symmetries=group)
    return len(group), times[0], times[1], time.perf_counter() - start, scan.at_least


def check_strips(jobs: int = 2) -> str:
    """The pattern scan with and without the covers' symmetries on the strip-like covers of order 6."""
    from dlx_latin.workers import process_pool

    with process_pool(jobs) as pool:
        found = list(pool.map(timed_strip, STRIPS))
    plain, symmetric = sum(f[1] for f in found), sum(f[2] for f in found)
    return (
        f"jigsaw scs 6, the {len(STRIPS)} strip-like covers ({min(f[0] for f in found)} to "
        f"{max(f[0] for f in found)} symmetries): ruling out 6 clues takes {plain:.1f} s without the "
        f"symmetries and {symmetric:.1f} s with them ({plain / symmetric:.0f}x); the whole scan with them "
        f"{sum(f[3] for f in found):.1f} s in all, fewest clues {sorted({f[4] for f in found})}"
    )


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    print(
        f"# {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; command: python benchmarks/frontier.py{' --quick' if quick else ''}"
    )
    print("| command | value | published | source | time | target |")
    print("|---|---|---|---|---|---|")
    for args, value, source, target, long in TARGETS:
        if quick and long:
            continue
        seconds, out = run(args, target)
        verdict = "" if target is None else ("met" if out == value and seconds <= target else "MISSED")
        mark = "" if out == value else " (WRONG)" if out != "timeout" else ""
        print(
            f"| `dlx-latin {' '.join(args)}` | {out}{mark} | {value} | {source} | {seconds:.1f} s | "
            f"{'' if target is None else f'<= {target} s: {verdict}'} |",
            flush=True,
        )
    print(f"- {project_jigsaw()}")
    if not quick:
        print(f"- {check_scs()}")
        print(f"- {check_strips()}")


if __name__ == "__main__":
    main()
