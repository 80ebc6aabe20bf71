"""Regenerate docs/atlas.md: every built-in family's counts, at every parameter reached within a time limit.

    python benchmarks/atlas.py [--limit SECONDS] [--fresh | --recorded] [--only SPEC ...] > docs/atlas.md
    python benchmarks/atlas.py --drawings     (the drawings section alone)

For each board: `dlx-latin count SPEC --jobs 2`, then `--up-to geometry` and `--up-to symmetry`, each a
fresh process under --limit seconds (default 3600, the issue's hour); a board whose count does not finish
gets Knuth's estimate instead (`estimate SPEC --probes 2000 --seed 1`); a count whose own progress bar
projects more than OVERRUN limits after PROBE seconds is stopped then, its projection recorded. Every
command's output and time is kept in benchmarks/data/atlas-runs.json and reused by later runs (unless it ran
past a shorter limit, or with --fresh), so the hour-long commands are run once and a killed run resumes;
--recorded renders every recorded result as it is (a count past a shorter limit shows that limit) and runs
no count, only the estimates never made (a count never run shows as not run yet).
Cross-checks, in-process: a count up to 10^9 is also made by the kernel alone, without the board's
symmetries (`count_completions`); classes of a board with at most 2*10^6 Latin boards are also found by
listing canonical forms (`classes_up_to_symmetry`); a value equal to a published one names its source. One
canonical Latin board per family is drawn into docs/atlas/ (nauty's canonical form of a random Latin board
on the family's example board).
"""

from __future__ import annotations

import json
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DRAWINGS = ROOT / "docs" / "atlas"
JOBS = "2"  # threads per count: the machine's two cores, as the targets are set
RECORDS = ROOT / "benchmarks" / "data" / "atlas-runs.json"  # each command's result, seconds, limit, date
RERUN = "--recorded" not in sys.argv  # whether a command that ran past a shorter limit runs again
FRESH = "--fresh" in sys.argv  # every command runs again (the records of others are kept)
PROBE = 300  # seconds a count runs before its own progress may stop it
OVERRUN = 3  # a count whose progress then projects past this many limits is stopped
CLAMP = 0.0005  # a bar still at 0.0% is read as at 0.05%: its projection is then only a lower bound
REFUSED: list[str] = []  # commands that failed, with their error line, listed under the table
KEPT = "; a count shown past a shorter limit ran past it in an earlier run; one not run yet is still to run"

BOARDS = [
    *(f"latin:{n}" for n in range(2, 10)),
    "sudoku:2x2", "sudoku:2x3", "sudoku:2x4", "sudoku:3x3", "sudoku:2x5", "sudoku:3x4",
    *(f"diagonal:{n}" for n in range(4, 9)),
    "win", "quadoku",
    "free-square:4", "free-square:6", "free-square:6:shift", "free-square:6:mirror", "tartan",
    "triangle:6", "triangle:8",
    "hexagon:2", "hexagon:3",
    "dodecagon",
    *(f"tetrahedron:{f}" for f in (2, 3, 4)),
    *(f"cube:{f}" for f in (2, 3, 4)),
    *(f"octahedron:{f}" for f in (2, 3)),
    *(f"icosahedron:{f}" for f in (2, 3)),
    "dodecahedron", "dodecahedron:decagonal",
]  # fmt: skip

PUBLISHED = {  # value -> source, per (spec, what)
    **{
        (f"latin:{n}", "count"): (v, "A002860")
        for n, v in zip(
            range(2, 10),
            [
                2,
                12,
                576,
                161280,
                812851200,
                61479419904000,
                108776032459082956800,
                5524751496156892842531225600,
            ],
            strict=True,
        )
    },
    ("sudoku:2x2", "count"): (288, "A107739"),
    ("sudoku:3x3", "count"): (6670903752021072936960, "A107739"),
    ("sudoku:2x3", "count"): (28200960, "Pettersen"),
    ("sudoku:2x4", "count"): (29136487207403520, "Russell & Jarvis"),
    ("sudoku:2x2", "symmetry"): (2, "Russell & Jarvis"),
    ("sudoku:3x3", "symmetry"): (5472730538, "Russell & Jarvis"),
    ("diagonal:4", "count"): (48, "A274806"),
    ("diagonal:5", "count"): (960, "A274806"),
    ("diagonal:6", "count"): (92160, "A274806"),
    ("diagonal:7", "count"): (862848000, "A274806"),
    ("diagonal:8", "count"): (300286741708800, "A274806"),
}


def _records() -> dict[str, dict]:
    return json.loads(RECORDS.read_text()) if RECORDS.exists() else {}


def run(args: list[str], limit: float) -> tuple[str | None, float, float | None]:
    """stdout of `dlx-latin ARGS`, its seconds and the limit it ran under; None when it failed or ran past
    that limit.  Each result is recorded in RECORDS as soon as it is known, and a recorded one is reused
    unless it ran past a shorter limit (--fresh ignores the records; --recorded reuses even those, and
    runs no count, only estimates: a count never run has no limit, None): an interrupted atlas resumes,
    and an hour-long command is run once, not at every regeneration."""
    key = " ".join(args)
    known = None if FRESH else _records().get(key)  # --fresh runs again, but keeps the other records
    if known is not None and not (known["timed_out"] and known["limit"] < limit and RERUN):
        return known["out"], known["seconds"], known["limit"]
    if not RERUN and args[0] == "count":
        return None, 0.0, None
    start = time.perf_counter()
    out, timed_out, note = _watched(args, limit)
    seconds = time.perf_counter() - start
    records = _records()
    records[key] = {
        "out": out,
        "seconds": round(seconds, 1),
        "limit": limit,
        "timed_out": timed_out,
        "date": time.strftime("%Y-%m-%d"),
        **({"projected": round(note)} if isinstance(note, float) else {"error": note} if note else {}),
    }
    temporary = RECORDS.with_suffix(".tmp")
    temporary.write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    temporary.replace(RECORDS)
    return out, seconds, limit


def _watched(args: list[str], limit: float) -> tuple[str | None, bool, float | str | None]:
    """(stdout or None, whether it ran past `limit`, a note: the total seconds its progress projected when
    it was stopped early, or the error line of a command that failed).  A plain count runs with --progress:
    once PROBE seconds have passed, a count whose own bar projects more than OVERRUN times the limit is
    stopped then, not an hour later."""
    exe = Path(sys.executable).with_name("dlx-latin")
    watch = args[0] == "count" and "--up-to" not in args
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(
            [str(exe), *args, *(["--progress"] if watch else [])],
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        start, projected = time.perf_counter(), None
        while child.poll() is None:
            elapsed = time.perf_counter() - start
            if elapsed > limit:
                break
            if watch and elapsed > PROBE:
                size = os.fstat(err.fileno()).st_size  # the bar's last redraws, not the whole hour's
                tail = os.pread(err.fileno(), 4096, max(0, size - 4096)).decode(errors="ignore")
                projected = _projection(tail)
                if projected is not None and projected > OVERRUN * limit:
                    break
                projected = None
            time.sleep(2)
        if child.poll() is None:
            child.kill()
            child.wait()
            return None, True, projected
        out.seek(0)
        if child.returncode != 0:
            err.seek(0)
            lines = [line for line in re.split(r"[\r\n]", err.read()) if line.strip()]
            return None, False, lines[-1].strip() if lines else f"exit {child.returncode}"
        return out.read().strip(), False, None


def _projection(bar: str) -> float | None:
    """The total seconds a progress bar's last "P%|...[elapsed<" projects, elapsed / P (None before one;
    a bar at 0.0% projects as if at 0.05%, a lower bound).  Not tqdm's remaining time: its smoothed rate
    swings."""
    found = re.findall(r"([\d.]+)%\|[^\[\r\n]*\[([\d:]+)<", bar)
    if not found:
        return None
    percent, elapsed = found[-1]
    seconds = sum(int(x) * 60**k for k, x in enumerate(reversed(elapsed.split(":"))))
    return seconds / max(float(percent) / 100, CLAMP)


def cross_checks(spec: str, count: int, classes: int | None) -> list[str]:
    """The second methods that agree with the values (an AssertionError when one does not)."""
    from dlx_latin.boards import board_from_spec
    from dlx_latin.exact_cover import CountSettings
    from dlx_latin.latin import PartialBoard, count_completions
    from symmetry import classes_up_to_symmetry

    pb = PartialBoard(board_from_spec(spec))
    out = []
    if count <= 10**9:
        assert count_completions(pb, None, CountSettings()) == count, spec
        out.append("kernel alone")
    if classes is not None and 0 < count <= 2 * 10**6:
        assert len(classes_up_to_symmetry(pb)) == classes, spec
        out.append("listing")
    return out


def draw(family: str, spec: str) -> str | None:
    """docs/atlas/FAMILY.svg: a canonical Latin board of `spec`; its path relative to docs/, or None."""
    from dlx_latin.boards import board_from_spec
    from dlx_latin.latin import PartialBoard
    from dlx_latin.latin.completion import random_latin_board
    from dlx_latin.render import render_svg
    from symmetry import NautyCanonizer

    board = board_from_spec(spec)
    pb = PartialBoard(board)
    found = random_latin_board(pb, random.Random(0))
    if found is None:
        return None
    canonical = NautyCanonizer(board, pb.multiset).form(found).labelling
    DRAWINGS.mkdir(exist_ok=True)
    (DRAWINGS / f"{family}.svg").write_text(render_svg(board, list(canonical)))
    return f"atlas/{family}.svg"


def checked(spec: str, what: str, value: int | None) -> str:
    known = PUBLISHED.get((spec, what))
    if known is None or value is None:
        return ""
    if known[0] != value:
        raise AssertionError(f"{spec} {what}: {value}, published {known[0]}")
    return known[1]


def row(spec: str, limit: float) -> str:
    command = ["count", spec, "--jobs", JOBS]
    out, seconds, ran = run(command, limit)
    if out is None:
        beyond = f"beyond {ran:.0f} s" if ran is not None else "not run yet under this limit"
        projected = _records().get(" ".join(command), {}).get("projected")
        if projected is not None:
            # a bar showing 0.1% or more projects at most `seconds` / 0.001: past that, it still showed 0.0%
            said = "still at 0.0%: over" if projected > seconds / (2 * CLAMP) else "projecting"
            beyond += f" (stopped after {seconds:.0f} s, its progress {said} {projected / 3600:.3g} h)"
        estimate, _, _ = run(["estimate", spec, "--probes", "2000", "--seed", "1", "--json"], 600)
        if estimate is None:
            return f"| `{spec}` | {beyond} | | | | |"
        e = json.loads(estimate)
        if not e["hits"]:
            return f"| `{spec}` | {beyond}; no estimate (no probe reached a board) | | | | |"
        return (
            f"| `{spec}` | ≈ {e['estimate']:.3g} (estimate, standard error {e['stderr']:.2g}) | | | "
            f"count {beyond} | |"
        )
    count = int(out)
    times, values, shown, notes = [f"{seconds:.1f} s"], {}, {}, []
    for what in ("geometry", "symmetry"):
        args = ["count", spec, "--up-to", what, "--jobs", JOBS]
        value, t, ran = run(args, limit) if count else ("0", 0.0, limit)
        values[what], shown[what] = value, value or "—"
        record = _records().get(" ".join(args), {})
        failed = value is None and ran is not None and not record.get("timed_out")
        if failed:  # refused (or broken): say why below the table
            shown[what] = "refused"
            why = record.get("error", "no error line kept").removeprefix("dlx-latin: ")
            REFUSED.append(f"`{' '.join(args)}` ({t:.0f} s): {why}")
        if ran is None:
            times.append("not run")
        else:
            times.append(f"> {ran:.0f} s" if value is None and not failed else f"{t:.1f} s")
    symmetry = int(values["symmetry"]) if values["symmetry"] else None
    for what, value in (("count", count), ("symmetry", symmetry)):
        source = checked(spec, what, value)
        if source:
            notes.append(f"{what}: {source}")
    notes += cross_checks(spec, count, symmetry)
    return (
        f"| `{spec}` | {count:,} | {shown['geometry']} | {shown['symmetry']} | {' / '.join(times)} | "
        f"{'; '.join(notes) or 'one method'} |"
    )


def main() -> None:
    args = sys.argv[1:]
    limit = float(args[args.index("--limit") + 1]) if "--limit" in args else 3600.0
    only = args[args.index("--only") + 1 :] if "--only" in args else None
    if "--drawings" in args:  # the drawings section alone
        drawings(BOARDS)
        return
    rows = []
    for spec in only or BOARDS:
        rows.append(row(spec, limit))
        print(rows[-1], file=sys.stderr, flush=True)
    dates = sorted(r["date"] for r in _records().values()) or [time.strftime("%Y-%m-%d")]
    print("# An atlas of Latin boards")
    print()
    print(
        f"Regenerated by `python benchmarks/atlas.py --limit {limit:.0f}{'' if RERUN else ' --recorded'} > "
        f"docs/atlas.md` on "
        f"{time.strftime('%Y-%m-%d')} ({platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}), from commands run between {dates[0]} and {dates[-1]} (kept in "
        "benchmarks/data/atlas-runs.json). Each number is printed by `dlx-latin count BOARD --jobs 2` (Latin "
        "boards), "
        "`count BOARD --up-to geometry` (classes under the board's rotations and reflections and "
        "relabelling; — when the board has none to use or the count ran past the limit) and `count BOARD "
        "--up-to symmetry` (classes under every automorphism and relabelling); times are seconds per "
        f"command, whole processes; a count past {limit:.0f} s gives Knuth's estimate instead (`estimate "
        "BOARD --probes 2000 --seed 1`), and a count whose own progress bar projects more than "
        f"{OVERRUN} times the limit after {PROBE} s is stopped then"
        f"{'' if RERUN else KEPT}. "
        "*Checked* names a published source the value equals, and the second "
        "methods that agree: *kernel alone* (the count again without the board's symmetries) and *listing* "
        "(the classes found by listing canonical forms, their orbits summing to the count); *one method* "
        "means neither applied."
    )
    print()
    columns = [
        "board",
        "Latin boards",
        "up to geometry",
        "up to symmetry",
        "time (count / geometry / symmetry)",
    ]
    print("| " + " | ".join([*columns, "checked"]) + " |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    print()
    if REFUSED:
        print("Commands that refused (one line on stderr, a non-zero exit):")
        print()
        print("\n".join(f"- {line}" for line in REFUSED))
        print()
    drawings(only or BOARDS)


def drawings(specs: list[str]) -> None:
    """The section of canonical boards, one per family of `specs`, drawn into docs/atlas/."""
    from dlx_latin.boards.families import FAMILIES

    print("## One canonical Latin board of each family")
    print()
    drawn: set[str] = set()
    for spec in specs:
        family = spec.split(":")[0]
        if family in drawn:
            continue
        drawn.add(family)
        example = FAMILIES[family].example if family in FAMILIES else spec
        path = draw(family, example)
        if path:
            print(f"![{example}]({path})")
            print()


if __name__ == "__main__":
    main()
