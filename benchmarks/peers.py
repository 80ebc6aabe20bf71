"""Time whole commands, side by side: dlx-latin against the PyPI exact-cover packages.

    pip install -e '.[bench]'
    python benchmarks/peers.py            # every instance; add --quick to skip the long ones

Each cell is one fresh process: start-up, building the problem and the count, as a user would run it.
dlx-latin runs `dlx-latin xc count FILE` on a DLX file written beforehand; the peers get the same problem
from `dlx_latin.exact_cover.classic`, converted to their input: `exact-cover` (get_solution_count, a C
Algorithm X without secondary items, so each secondary item gets a slack row of its own, which keeps the
count) and `xcover` (numba dancing cells, counting its solution generator; its first call compiles).
`dlx-latin` counts with its memo of finished subtrees (the default); `--no-memo` is the raw search that
visits every node, as the peers do; `--no-memo --break-symmetry` is the raw search on one branch per orbit of
the problem's automorphisms (found by nauty in the same command).
Neither peer has multiplicities, so the multiset instance is ours alone. Peak memory is each process's
maximum resident set.  Ratios are peer time / dlx-latin time, from the same run.  With `--repeat N` every
command runs N times, the tools taking turns (so a noisy minute on this shared machine hits them all), and
each cell is the median.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dlx_latin.exact_cover.classic import langford, latin_square, pentominoes, queens, soma
from dlx_latin.formats.dlx import write_dlx

INSTANCES = {
    # name: (builder, expected count, long)
    "sudoku 4x4": (lambda: latin_square(4, box=(2, 2)), 288, False),
    "10 queens": (lambda: queens(10), 724, False),
    "12 queens": (lambda: queens(12), 14_200, False),
    "13 queens": (lambda: queens(13), 73_712, False),
    "pentominoes 6x10": (lambda: pentominoes(6, 10), 9_356, False),
    "pentominoes 5x12": (lambda: pentominoes(5, 12), 4_040, False),
    "pentominoes 8x8 less its centre": (
        lambda: pentominoes(8, 8, holes=[(3, 3), (3, 4), (4, 3), (4, 4)]),
        520,
        False,
    ),
    "Soma cube": (soma, 11_520, False),
    "Langford pairs 12": (lambda: langford(12), 216_288, False),
    "reduced latin 6": (lambda: latin_square(6, fix="reduced"), 9_408, False),
    "latin 5": (lambda: latin_square(5), 161_280, False),
    "latin 6, first row fixed": (lambda: latin_square(6, fix="row"), 1_128_960, False),
    "latin 6 {1,1,1,2,2,2}": (lambda: latin_square(6, multiset=[1, 1, 1, 2, 2, 2]), 297_200, False),
    "reduced latin 7": (lambda: latin_square(7, fix="reduced"), 16_942_080, True),
}
TOOLS = [
    "dlx-latin",
    "dlx-latin --no-memo",
    "dlx-latin --no-memo --break-symmetry",
    "dlx-latin --jobs 2",
    "exact-cover",
    "xcover",
]


def run_peer(tool: str, name: str) -> int:
    """Inside a worker process: count one instance with one peer."""
    problem = INSTANCES[name][0]()
    if problem.bounds:
        raise SystemExit(f"{tool} has no multiplicities")
    if tool == "exact-cover":
        import exact_cover
        import numpy as np

        items = {item: k for k, item in enumerate(problem.primary + problem.secondary)}
        rows = [[items[i] for i in problem.option_items(k)] for k in range(len(problem.options))]
        rows += [[items[i]] for i in problem.secondary]  # slack rows: secondary items become primary
        matrix = np.zeros((len(rows), len(items)), dtype=np.int32)
        for r, cols in enumerate(rows):
            matrix[r, cols] = 1
        return int(exact_cover.get_solution_count(matrix))
    if tool == "xcover":
        from xcover import covers

        options = [problem.option_items(k) for k in range(len(problem.options))]
        return sum(
            1 for _ in covers(options, primary=list(problem.primary), secondary=list(problem.secondary))
        )
    raise SystemExit(f"unknown tool {tool}")


def measure(command: list[str], timeout: float) -> tuple[float | None, int | None, float]:
    """(seconds, printed count, peak MiB) of a command; seconds is None on timeout or failure."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            child.kill()
            os.wait4(child.pid, 0)
            return None, None, 0.0
        time.sleep(0.002)
    seconds = time.perf_counter() - start
    out = child.stdout.read().strip()
    peak = usage.ru_maxrss / 1024
    if os.waitstatus_to_exitcode(status) != 0 or not out.isdigit():
        return None, None, peak
    return seconds, int(out), peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip the long instances")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per command")
    parser.add_argument("--only", action="append", metavar="NAME", help="only instances whose name has NAME")
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="median of N runs, tools in turn")
    parser.add_argument(
        "--tool",
        action="append",
        choices=TOOLS,
        metavar="TOOL",
        help=f"only these tools (of {', '.join(TOOLS)})",
    )
    parser.add_argument("--run", nargs=2, metavar=("TOOL", "INSTANCE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        print(run_peer(*args.run))
        return
    exe = Path(sys.executable).with_name("dlx-latin")
    print(
        f"# {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; command: python benchmarks/peers.py {' '.join(sys.argv[1:])}"
    )
    print()
    pairs = [
        ("exact-cover", "dlx-latin"),
        ("exact-cover", "dlx-latin --no-memo"),
        ("xcover", "dlx-latin"),
        ("dlx-latin", "dlx-latin --jobs 2"),
        ("dlx-latin --no-memo", "dlx-latin --no-memo --break-symmetry"),
    ]
    heads = [
        "exact-cover / ours",
        "exact-cover / ours raw",
        "xcover / ours",
        "--jobs 2 speed-up",
        "--break-symmetry speed-up (raw)",
    ]
    print("| instance | count | " + " | ".join(TOOLS) + " | " + " | ".join(heads) + " |")
    print("|---" * (len(TOOLS) + 2 + len(heads)) + "|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (build, expected, long) in INSTANCES.items():
            if long and args.quick or args.only and not any(part in name for part in args.only):
                continue
            problem = build()
            path = Path(tmp) / "problem.dlx"
            path.write_text(write_dlx(problem))
            commands = {}
            for tool in args.tool or TOOLS:
                if tool.startswith("dlx-latin"):
                    commands[tool] = [str(exe), "xc", "count", str(path), "--no-progress", *tool.split()[1:]]
                elif not problem.bounds:
                    commands[tool] = [sys.executable, __file__, "--run", tool, name]
            runs: dict[str, list] = {tool: [] for tool in commands}
            for _ in range(args.repeat):
                for tool, command in commands.items():
                    runs[tool].append(measure(command, args.timeout))
            cells, times = [], {}
            for tool in TOOLS:
                if tool not in commands:
                    cells.append("n/a")
                    continue
                failed = [(s, c, m) for s, c, m in runs[tool] if s is None]
                if failed:
                    _, count, peak = failed[0]
                    cells.append(f"> {args.timeout:.0f} s" if count is None and peak == 0 else "failed")
                    continue
                wrong = [c for _, c, _ in runs[tool] if c != expected]
                if wrong:
                    cells.append(f"WRONG {wrong[0]}")
                    continue
                seconds = statistics.median(s for s, _, _ in runs[tool])
                peak = max(m for _, _, m in runs[tool])
                times[tool] = seconds
                cells.append(f"{seconds:.2f} s, {peak:.0f} MiB")
            ratios = [f"{times[a] / times[b]:.1f}×" if a in times and b in times else "—" for a, b in pairs]
            print(
                f"| {name} | {expected:,} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |",
                flush=True,
            )


if __name__ == "__main__":
    main()
