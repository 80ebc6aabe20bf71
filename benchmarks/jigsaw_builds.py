"""Compare builds of the jigsaw placement counter (`_placements.c`) on one sample of `jigsaw count` parts.

    python benchmarks/jigsaw_builds.py [--order 7] [--parts 60] [--seed 23] [--rounds 2] [--top K [--rest]]
                                       [REV ...]

Each REV (a git revision; default: the last commit and the working tree, `HEAD` and `.`) has its
`_placements.c` compiled into a temporary directory as setup.py compiles it (gcc -O3), and every build
walks the same random parts of the order's covers (`cover_parts`) in-process, builds alternating, `--rounds`
times; the best seconds per build are kept.  The builds must agree on the squares and orbits of the sample
(the covers printed are the last build's: older builds count the covers walked, newer ones the covers of
the orbits counted); the seconds, scaled by parts, project the core-hours of the whole count.  Samples
of a few dozen parts differ several-fold in weight, so compare builds within one run, never across seeds.

A few parts hold most of the count's time (those whose first regions are nearly rows: many placements and
many squares per cover).  `--top K` times every sampled part once with the first build, lists the K
heaviest (seconds, share of the sample, covers, orbits, checkpoint key) and compares the builds on those K
alone, so a change aimed at them is measured on them; `--top K --rest` compares the builds on the other
sampled parts instead, so the change's effect on the rest is measured too.  The cover memo (42b2748) is
measured against the build before it: `jigsaw_builds.py a4a8d91 . --parts 300 --seed 5 --top 4 [--rest]`.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from dlx_latin.jigsaw.counts import cover_parts, tiles_by_first
from dlx_latin.jigsaw.dissections import square_transforms

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["dlx_latin/jigsaw/_placements.c", "dlx_latin/u128.h"]


def build(rev: str, into: Path):
    """The `_placements` module of `rev` (`.`: the working tree), compiled into `into`."""
    for name in SOURCES:
        target = into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if rev == ".":
            target.write_bytes((ROOT / name).read_bytes())
        else:
            shown = subprocess.run(
                ["git", "show", f"{rev}:{name}"], cwd=ROOT, capture_output=True, check=True
            )
            target.write_bytes(shown.stdout)
    module = into / "_placements.so"
    include = sysconfig.get_paths()["include"]
    source = str(into / SOURCES[0])
    command = ["gcc", "-O3", "-std=c99", "-shared", "-fPIC", f"-I{include}", source, "-o", str(module)]
    subprocess.run(command, check=True)
    spec = importlib.util.spec_from_file_location("_placements", module)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def heaviest(module, n: int, chosen: list, top: int) -> list:
    """The parts of `chosen`, those that take `module` longest first, each timed once; the `top` heaviest
    printed with their share."""
    by_first, transforms = tiles_by_first(n), square_transforms(n)
    timed = []
    for key, prefix in chosen:
        start = time.perf_counter()
        _, covers, orbits = module.covers(n, by_first, transforms, list(prefix))
        timed.append((time.perf_counter() - start, key, prefix, covers, orbits))
    timed.sort(key=lambda t: t[0], reverse=True)
    whole = sum(t[0] for t in timed)
    print(f"the {top} heaviest of {len(chosen)} parts ({whole:.2f} s in all):")
    for seconds, key, _, covers, orbits in timed[:top]:
        print(
            f"  {seconds:7.2f} s {100 * seconds / whole:5.1f}%  {covers:8,} covers {orbits:8,} orbits  {key}"
        )
    return [(key, prefix) for _, key, prefix, _, _ in timed]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revs", nargs="*", default=["HEAD", "."])
    parser.add_argument("--order", type=int, default=7)
    parser.add_argument("--parts", type=int, default=60)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--top", type=int, metavar="K", help="compare on the K heaviest sampled parts")
    parser.add_argument("--rest", action="store_true", help="with --top K: time the other parts")
    args = parser.parse_args()
    if args.rest and not args.top:
        parser.error("--rest compares the parts other than the --top K heaviest: give --top K")
    n = args.order
    parts = cover_parts(n)
    chosen = random.Random(args.seed).sample(parts, min(args.parts, len(parts)))
    by_first, transforms = tiles_by_first(n), square_transforms(n)
    best: dict[str, float] = {}
    results: dict[str, tuple[int, int, int]] = {}
    memos: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as scratch:
        modules = {rev: build(rev, Path(scratch) / f"build{i}") for i, rev in enumerate(args.revs)}
        if args.top:
            ranked = heaviest(modules[args.revs[0]], n, chosen, args.top)
            chosen = ranked[args.top :] if args.rest else ranked[: args.top]
        for _ in range(args.rounds):
            for rev, module in modules.items():
                if hasattr(module, "memo"):  # each pass starts with an empty memo, as a fresh count does
                    module.memo(True)
                start = time.perf_counter()
                walked = [module.covers(n, by_first, transforms, list(p)) for _, p in chosen]
                seconds = time.perf_counter() - start
                best[rev] = min(best.get(rev, seconds), seconds)
                results[rev] = tuple(sum(w[i] for w in walked) for i in range(3))
                if hasattr(module, "memo"):
                    remembered, hits, misses = module.memo()
                    memos[rev] = f"  memo: {hits:,} hits of {hits + misses:,} looked up, {remembered:,} kept"

    if len({(squares, orbits) for squares, _, orbits in results.values()}) != 1:
        sys.exit(f"the builds disagree on the sample: {results}")
    squares, covers, orbits = results[args.revs[-1]]
    which = f"{len(chosen)}"
    if args.top:
        which = f"the {'other' if args.rest else 'heaviest'} {len(chosen)} of a sample of {args.parts}"
    print(
        f"order {n}: {which} of {len(parts):,} parts (seed {args.seed}): {covers:,} covers, "
        f"{orbits:,} orbits, {squares:,} squares; best of {args.rounds} rounds"
    )
    first = best[args.revs[0]]
    for rev in args.revs:
        hours = best[rev] * len(parts) / len(chosen) / 3600  # a projection only for a random sample
        print(
            f"  {rev:>12}: {best[rev]:7.2f} s  x{first / best[rev]:.2f} vs {args.revs[0]}"
            + ("" if args.top else f"  ~{hours:.2f} core-hours")
            + memos.get(rev, "")
        )


if __name__ == "__main__":
    main()
