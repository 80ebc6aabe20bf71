"""Smallest critical sets per cover: the fewest clues of a jigsaw puzzle on each dissection of the square.

For each cover (one per orbit of the square's symmetries) the exact minimum over all its jigsaw Latin
squares is `puzzles.minimal.minimal_puzzles` (implicit hitting sets, one Latin board per symmetry class of
the jigsaw board); a cover with no jigsaw Latin square has none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from dlx_latin.jigsaw.counts import cover_board
from dlx_latin.jigsaw.dissections import JigsawOrderError, covers_up_to_symmetry
from dlx_latin.latin import count_completions
from dlx_latin.latin.multiset import Label
from dlx_latin.puzzles.minimal import minimal_puzzles
from dlx_latin.workers import process_pool
from symmetry.counting import all_classes


def cover_minimum(regions: str) -> tuple[int, dict[int, Label]] | None:
    """(fewest clues, the clues of one such puzzle) on one cover, or None when it has no Latin square."""
    pb = cover_board(regions)
    if count_completions(pb, limit=1) == 0:
        return None
    found = minimal_puzzles(pb, boards=[f.labelling for f in all_classes(pb)])
    return found.clues, dict(found.witnesses[0].clues)


def smallest_critical_sets(n: int, jobs: int = 1) -> Iterator[tuple[str, int, tuple[int, dict] | None]]:
    """(canonical cover, orbit size, `cover_minimum`) for every cover of order n up to symmetry, in the
    order of the region strings; `jobs` > 1 works in that many processes."""
    if n < 2:
        raise JigsawOrderError("smallest critical sets are for orders n >= 2")
    orbits = sorted(covers_up_to_symmetry(n).items())
    if jobs > 1:
        with process_pool(jobs) as pool:
            found = pool.map(cover_minimum, [r for r, _ in orbits], chunksize=4)
            yield from ((r, orbit, m) for (r, orbit), m in zip(orbits, found, strict=True))
        return
    for r, orbit in orbits:
        yield r, orbit, cover_minimum(r)


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
