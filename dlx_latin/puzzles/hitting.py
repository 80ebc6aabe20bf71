"""Hitting sets of point sets held as bitmasks: the one place for them.

A clue set is a puzzle for a Latin board S exactly when it meets (hits) every unavoidable set of S -- the
points where another Latin board differs from S -- so both of the questions asked about puzzles are
hitting-set questions: the *smallest* hitting set (the fewest clues, `smallest_hitting_set`, by iterative
deepening pruned by packings of disjoint sets) and *every minimal* hitting set (the critical puzzles,
`minimal_hitting_sets`, Murakami and Uno's MMCS).  Only inclusion-minimal sets matter: a set containing
another is hit whenever the smaller one is (`add_minimal` one at a time, `least_sets` for many at once).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from dlx_latin.puzzles.attrition import bits


def smallest_hitting_set(sets: list[int], at_least: int = 0, at_most: int | None = None) -> int | None:
    """A smallest set of elements (a bitmask) meeting every set in `sets` (bitmasks), of size at least
    `at_least`; None when every hitting set has more than `at_most` elements.  Iterative deepening on the
    size, branching on the elements of a smallest set not yet hit (each branch forbids the elements tried
    before it), pruned by a greedy packing of pairwise disjoint sets not yet hit."""
    sets = sorted(set(sets), key=int.bit_count)
    if any(s == 0 for s in sets):
        return None
    universe = 0
    for s in sets:
        universe |= s
    limit = universe.bit_count() if at_most is None else at_most
    for k in range(at_least, limit + 1):
        found = _hit_within(sets, k, 0, 0)
        if found is not None:
            return found
    return None


def unhit(sets: list[int], chosen: int, forbidden: int) -> tuple[int, int] | None:
    """(the free elements of a smallest set that `chosen` misses, 0 when it misses none; a lower bound on
    the elements still needed, from a greedy packing of disjoint missed sets), or None when a missed set has
    no element left that is not `forbidden`."""
    smallest, packing, used = 0, 0, 0
    for s in sets:
        if s & chosen:
            continue
        free = s & ~forbidden
        if not free:
            return None
        if not smallest or free.bit_count() < smallest.bit_count():
            smallest = free
        if not free & used:  # each disjoint missed set needs an element of its own
            packing += 1
            used |= free
    return smallest, packing


def _hit_within(sets: list[int], k: int, chosen: int, forbidden: int) -> int | None:
    missed = unhit(sets, chosen, forbidden)
    if missed is None:
        return None
    smallest, packing = missed
    if not smallest:
        return chosen
    if packing > k:
        return None
    for e in bits(smallest):
        found = _hit_within(sets, k - 1, chosen | 1 << e, forbidden)
        if found is not None:
            return found
        forbidden |= 1 << e
    return None


def add_minimal(kept: list[int], new: int) -> None:
    """Add an unavoidable set unless it contains a kept one; drop the kept ones that contain it (a set
    that contains another is hit whenever the smaller one is)."""
    if any(t & ~new == 0 for t in kept):
        return
    kept[:] = [t for t in kept if new & ~t != 0]
    kept.append(new)


def distinct(masks: np.ndarray) -> np.ndarray:
    """The distinct values, in increasing order (sorting: numpy's hashing np.unique is many times slower on
    millions of 64-bit words)."""
    masks = np.sort(masks)
    return masks[np.concatenate(([True], masks[1:] != masks[:-1]))] if masks.size else masks


_ONES = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)


def popcounts(masks: np.ndarray) -> np.ndarray:
    """The number of points in each mask (uint64)."""
    return _ONES[masks.view(np.uint8).reshape(-1, 8)].sum(axis=1)


def least_sets(masks: np.ndarray) -> list[int]:
    """The inclusion-minimal sets among distinct `masks`, smallest first (then in increasing order): the
    smallest set left is minimal, and every set containing it goes."""
    masks = np.sort(masks)
    masks = masks[np.argsort(popcounts(masks), kind="stable")]
    kept = []
    while masks.size:
        least = masks[0]
        kept.append(int(least))
        masks = masks[(masks & least) != least]
    return kept


def minimal_hitting_sets(sets: list[int]) -> Iterator[int]:
    """Every inclusion-minimal set of elements (a bitmask) meeting each of `sets` (bitmasks), each once.

    >>> sorted(minimal_hitting_sets([0b011, 0b110]))  # {0, 1} and {1, 2}: hit by {1}, or by {0, 2}
    [2, 5]
    """
    if not sets:
        yield 0
        return
    holding: dict[int, int] = {}  # element -> the sets holding it (a bitmask over set indices)
    for j, s in enumerate(sets):
        for e in bits(s):
            holding[e] = holding.get(e, 0) | 1 << j
    # (chosen, per chosen element the sets only it hits, elements allowed, sets not yet hit)
    everything = sum(1 << e for e in holding)
    stack: list[tuple[int, list[int], int, int]] = [(0, [], everything, (1 << len(sets)) - 1)]
    pop, push = stack.pop, stack.append
    while stack:
        chosen, critical, allowed, unhit = pop()
        if not unhit:
            yield chosen
            continue
        first = (unhit & -unhit).bit_length() - 1  # the sets are smallest first: few branches
        branch = allowed & sets[first]
        allowed &= ~branch
        while branch:
            low = branch & -branch
            branch ^= low
            hit = holding[low.bit_length() - 1]
            kept = []
            for only in critical:  # every element chosen must still be the only one in some set
                only &= ~hit
                if not only:
                    break
                kept.append(only)
            else:
                kept.append(hit & unhit)
                push((chosen | low, kept, allowed, unhit & ~hit))
            allowed |= low
