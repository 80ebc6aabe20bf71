"""Raw search: the kernel's node table against a dancing-cells prototype (prototypes/dancing_cells.c).

    python benchmarks/dancing_cells.py [--repeat 5]

Compiles the prototype with the same flags as the kernel (gcc -O3), writes each instance for it, and prints
the medians of the search alone: the prototype's own clock, the kernel's `count(memo=False)` in-process.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from dlx_latin.exact_cover.classic import latin_square

INSTANCES = {
    "latin 5": lambda: latin_square(5),
    "latin 6, first row fixed": lambda: latin_square(6, fix="row"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    here = Path(__file__).parent
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "dancing_cells"
        subprocess.run(["gcc", "-O3", "-o", program, here / "prototypes" / "dancing_cells.c"], check=True)
        print("| instance | count | node table (kernel) | dancing cells (prototype) |")
        print("|---|---|---|---|")
        for name, build in INSTANCES.items():
            problem = build()
            n1, n2, starts, items, *_ = problem.kernel_arrays
            text = Path(tmp) / "problem.txt"
            lines = [f"{n1} {n2} {len(starts) - 1}"]
            lines += [" ".join(map(str, items[starts[k] : starts[k + 1]])) for k in range(len(starts) - 1)]
            text.write_text("\n".join(lines) + "\n")
            ours, theirs = [], []
            for _ in range(args.repeat):
                search = problem.search()
                start = time.perf_counter()
                count = search.count()
                ours.append(time.perf_counter() - start)
                run = subprocess.run([program, text], capture_output=True, text=True, check=True)
                out = run.stdout.split()
                theirs.append(float(out[-1]))
                assert int(out[1]) == count, (name, out, count)
            kernel = f"{statistics.median(ours):.3f} s, {search.nodes:,} nodes, {search.updates:,} updates"
            cells = f"{statistics.median(theirs):.3f} s, {int(out[3]):,} nodes, {int(out[5]):,} updates"
            print(f"| {name} | {count:,} | {kernel} | {cells} |")


if __name__ == "__main__":
    main()
