"""Time the frontier counts of issue 30 as whole commands, each checked against its published value.

    python benchmarks/frontier.py [--quick]

It ends with the projections for `jigsaw count 7` and `jigsaw scs 6` from samples of covers.  --quick
leaves out `count sudoku:3x3 --up-to symmetry`, `count latin:8 --up-to isotopy` and the scs projection
(minutes each).
Each command is a fresh process (start-up included) under a time limit of its target; a command past its
limit is reported as such, not waited for.
"""

from __future__ import annotations

import os
import platform
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


def project_jigsaw(n: int = 7, every: int = 5000, sample: int = 120) -> str:
    """Seconds per cover of `jigsaw count n` on a sample (every `every`-th cover of the listing, `sample` of
    them) and the projected core-hours over all orbits of covers (covers / 8)."""
    import itertools

    from dlx_latin.jigsaw.counts import cover_count
    from dlx_latin.jigsaw.dissections import count_covers, covers

    chosen = list(itertools.islice(itertools.islice(covers(n), 0, None, every), sample))
    start = time.perf_counter()
    total = sum(cover_count(regions) for regions in chosen)
    per_cover = (time.perf_counter() - start) / len(chosen)
    orbits = count_covers(n, "frontier") / 8
    return (
        f"jigsaw count {n}: {per_cover:.3f} s per cover over {len(chosen)} sampled covers (mean "
        f"{total / len(chosen):.3g} squares each); about {orbits:,.0f} orbits -> "
        f"{per_cover * orbits / 3600:,.0f} core-hours projected"
    )


def timed_minimum(regions: str) -> tuple[float, object]:
    """Seconds and result of `cover_minimum` on one cover (in a worker process)."""
    from dlx_latin.jigsaw.critical import cover_minimum

    start = time.perf_counter()
    found = cover_minimum(regions)
    return time.perf_counter() - start, found


def project_scs(n: int = 6, sample: int = 24, seed: int = 1, jobs: int = 2) -> str:
    """Seconds per cover of `jigsaw scs n` on `sample` orbits of covers drawn at random (seeded), timed one
    by one in `jobs` processes, and the projected core-hours over all orbits."""
    import random
    import statistics

    from dlx_latin.jigsaw.dissections import covers_up_to_symmetry
    from dlx_latin.workers import process_pool

    orbits = sorted(covers_up_to_symmetry(n))
    chosen = random.Random(seed).sample(orbits, sample)
    with process_pool(jobs) as pool:
        seconds = [t for t, _ in pool.map(timed_minimum, chosen)]
    mean = statistics.mean(seconds)
    return (
        f"jigsaw scs {n}: {sample} orbits of covers drawn at random (seed {seed}): {min(seconds):.2f} to "
        f"{max(seconds):.1f} s per cover, median {statistics.median(seconds):.2f} s, mean {mean:.2f} s; "
        f"{len(orbits):,} orbits -> {mean * len(orbits) / 3600:,.0f} core-hours projected"
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
        print(f"- {project_scs()}")


if __name__ == "__main__":
    main()
