"""The cluster path of the long counts: `jigsaw count N --scheduler` on 1 and 2 local Dask workers.

    python benchmarks/cluster.py [N]     (default N = 6; the `dask` extra)

Starts a loopback LocalCluster of 1, then 2 single-threaded worker processes, times the whole command
against each, and reports the speed-up and the balance of the parts (seconds per part, counted here one by
one: the parts are the covers starting with each way to lay PREFIX_TILES tiles).  The machine note says how
many cores the workers share.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path


def whole_command(n: int, scheduler: str) -> tuple[float, str]:
    exe = Path(sys.executable).with_name("dlx-latin")
    start = time.perf_counter()
    out = subprocess.run(
        [str(exe), "jigsaw", "count", str(n), "--scheduler", scheduler, "--no-progress"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return time.perf_counter() - start, out


def main() -> None:
    from distributed import LocalCluster

    from dlx_latin.jigsaw.counts import PREFIX_TILES, cover_parts, part_count

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    print(
        f"# {time.strftime('%Y-%m-%d')}, {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; command: python benchmarks/cluster.py {n}"
    )
    times = {}
    for workers in (1, 2):
        with LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
        ) as cluster:
            seconds, out = whole_command(n, cluster.scheduler_address)
        times[workers] = seconds
        print(f"- `jigsaw count {n} --scheduler` on {workers} worker(s): {out} in {seconds:.1f} s")
    print(f"- speed-up from 1 to 2 workers: {times[1] / times[2]:.2f}x")
    parts = cover_parts(n)
    per_part = []
    for _, part in parts:
        start = time.perf_counter()
        part_count(n, part)
        per_part.append(time.perf_counter() - start)
    print(
        f"- {len(parts)} parts (the covers after each way to lay {PREFIX_TILES} tiles): seconds per part "
        f"min {min(per_part):.2f}, "
        f"median {statistics.median(per_part):.2f}, max {max(per_part):.2f}, total {sum(per_part):.1f}"
    )


if __name__ == "__main__":
    main()
