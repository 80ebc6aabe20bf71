"""Smallest critical sets per cover: the fewest clues of a jigsaw puzzle on each dissection of the square.

For each cover (one per orbit of the square's symmetries) the exact minimum over all its jigsaw Latin
squares is `puzzles.minimal.minimal_puzzles`: the pattern scan over all its Latin squares at once
(`puzzles.patterns`), which settles almost every cover in milliseconds, else implicit hitting sets on one
Latin board per symmetry class of the jigsaw board; a cover with no jigsaw Latin square has none.  A run
over all covers scans them all first, in chunks, and only then takes the few the scan leaves (covers close
to plain Latin squares, with many more Latin squares and larger minima) one by one, those with fewer Latin
squares first, so the easy answers are recorded at once.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from dlx_latin.exact_cover.checkpoint import RecordLog, natural, read_records, unusable
from dlx_latin.jigsaw.counts import cover_board
from dlx_latin.jigsaw.dissections import JigsawOrderError, covers_up_to_symmetry
from dlx_latin.latin import count_completions
from dlx_latin.latin.multiset import Label
from dlx_latin.puzzles.minimal import minimal_puzzles
from dlx_latin.puzzles.patterns import LONG_BUDGET, pattern_scan
from dlx_latin.workers import process_pool
from symmetry.counting import all_classes
from symmetry.groups import automorphism_elements

CoverMinimum = tuple[int, dict[int, Label]] | None  # fewest clues and one such puzzle; None: no Latin square
SCAN_CHUNK = 64  # covers scanned by one task (a few milliseconds each)


def cover_minimum(regions: str) -> CoverMinimum:
    """(fewest clues, the clues of one such puzzle) on one cover, or None when it has no Latin square: by
    a long pattern scan that looks at one point set per orbit of the cover's symmetries, else hitting sets
    (`scanned_minima` is the quick first pass)."""
    pb = cover_board(regions)
    if count_completions(pb, limit=1) == 0:
        return None
    classes = (f.labelling for f in all_classes(pb))
    symmetries = automorphism_elements(pb.board)
    found = minimal_puzzles(pb, boards=classes, scan_budget=LONG_BUDGET, symmetries=symmetries)
    return found.clues, dict(found.witnesses[0].clues)


@dataclass(frozen=True)
class Left:
    """A cover the quick scan leaves, with its number of Latin squares up to relabelling (None: too many
    to list), which orders the second pass: the cheaper first."""

    boards: int | None


def scanned_minima(covers: list[str]) -> list[CoverMinimum | Left]:
    """`cover_minimum` of each cover where the pattern scan alone settles it, else Left."""
    out: list[CoverMinimum | Left] = []
    for regions in covers:
        pb = cover_board(regions)
        scan = pattern_scan(pb)
        if scan is None:
            out.append(None if count_completions(pb, limit=1) == 0 else Left(None))
        else:
            out.append(Left(scan.boards) if scan.puzzle is None else (scan.at_least, scan.puzzle))
    return out


_FIELDS = frozenset({"scs", "regions", "clues", "puzzle"})


def _valid(record: dict) -> bool:
    """Whether a record holds an order, a cover, and either a puzzle with its number of clues or none."""
    clues, puzzle = record["clues"], record["puzzle"]
    found = (
        puzzle is None
        if clues is None
        else natural(clues)
        and isinstance(puzzle, list)
        and len(puzzle) == clues
        and all(isinstance(c, list) and len(c) == 2 and natural(c[0]) for c in puzzle)
    )
    return found and natural(record["scs"]) and isinstance(record["regions"], str)


def _finished(path: Path, n: int) -> dict[str, CoverMinimum]:
    """The covers of order n whose minimum a checkpoint file records."""
    done: dict[str, CoverMinimum] = {}
    for record in read_records(path, _FIELDS, _valid, "a jigsaw scs checkpoint"):
        if record["scs"] == n:
            clues, puzzle = record["clues"], record["puzzle"]
            done[record["regions"]] = None if clues is None else (clues, {c: v for c, v in puzzle})
    return done


def smallest_critical_sets(
    n: int,
    jobs: int = 1,
    checkpoint: str | os.PathLike | None = None,
    progress: Callable[[int, float], object] | None = None,
) -> Iterator[tuple[str, int, CoverMinimum]]:
    """(canonical cover, orbit size, `cover_minimum`) for every cover of order n up to symmetry, in the
    order of the region strings; `jobs` > 1 works in that many processes.  With `checkpoint` (a file path)
    each cover's minimum is recorded as soon as it is found, in whatever order the workers finish (a kill
    loses only the covers being worked on), and the same call after an interruption finds only the covers
    not recorded.  `progress(covers found, fraction found)` is called after each cover."""
    if n < 2:
        raise JigsawOrderError("smallest critical sets are for orders n >= 2")
    orbits = sorted(covers_up_to_symmetry(n).items())
    path = None if checkpoint is None else Path(checkpoint)
    try:
        done = {} if path is None else _finished(path, n)
        log = None if path is None else RecordLog(path)
    except (OSError, UnicodeDecodeError) as e:
        raise unusable(checkpoint, e) from None
    todo = [r for r, _ in orbits if r not in done]
    with ExitStack() as stack:
        if log is not None:
            stack.callback(log.close)
        pool = stack.enter_context(process_pool(jobs)) if jobs > 1 and len(todo) > 1 else None
        shown = 0  # covers yielded, in order; a cover found out of order waits in `done`

        def ready() -> Iterator[tuple[str, int, CoverMinimum]]:
            nonlocal shown
            while shown < len(orbits) and orbits[shown][0] in done:
                regions, orbit = orbits[shown]
                shown += 1
                yield regions, orbit, done[regions]

        yield from ready()
        for regions, minimum in _minima(pool, todo):
            done[regions] = minimum
            if log is not None:
                _record(log, checkpoint, n, regions, minimum)
            if progress is not None:
                progress(len(done), len(done) / len(orbits))
            yield from ready()


def _minima(pool: ProcessPoolExecutor | None, covers: list[str]) -> Iterator[tuple[str, CoverMinimum]]:
    """(cover, `cover_minimum`) for each of `covers`, as each is found (in a pool: as workers finish): the
    pattern scan on all of them first, in chunks, then the rest one by one."""
    chunks = [covers[k : k + SCAN_CHUNK] for k in range(0, len(covers), SCAN_CHUNK)]
    if pool is None:
        scanned = ((chunk, scanned_minima(chunk)) for chunk in chunks)
    else:
        futures = {pool.submit(scanned_minima, chunk): chunk for chunk in chunks}
        scanned = ((futures[f], f.result()) for f in as_completed(futures))
    waiting: list[tuple[float, str]] = []
    for chunk, minima in scanned:
        for regions, minimum in zip(chunk, minima, strict=True):
            if isinstance(minimum, Left):
                waiting.append((math.inf if minimum.boards is None else minimum.boards, regions))
            else:
                yield regions, minimum
    left = [regions for _, regions in sorted(waiting)]
    if pool is None:
        yield from ((r, cover_minimum(r)) for r in left)
        return
    futures = {pool.submit(cover_minimum, r): r for r in left}
    for future in as_completed(futures):
        yield futures[future], future.result()


def _record(
    log: TextIO, checkpoint: str | os.PathLike | None, n: int, regions: str, minimum: CoverMinimum
) -> None:
    """One cover's minimum, on disk before this returns."""
    puzzle = None if minimum is None else [[c, v] for c, v in sorted(minimum[1].items())]
    record = {
        "scs": n,
        "regions": regions,
        "clues": None if minimum is None else minimum[0],
        "puzzle": puzzle,
    }
    try:
        log.write(record)
    except OSError as e:
        raise unusable(checkpoint, e) from None


def distribution(n: int, jobs: int = 1) -> Counter:
    """How many covers (all of them, orbits weighted) have each smallest critical set size; None counts
    the covers without a jigsaw Latin square.

    >>> sorted(distribution(3).items())
    [(2, 10)]
    """
    out: Counter = Counter()
    for _, orbit, found in smallest_critical_sets(n, jobs):
        out[None if found is None else found[0]] += orbit
    return out
