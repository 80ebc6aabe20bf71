"""Counts that use a problem's automorphisms: every solution with symmetry broken, and classes of solutions.

`count_breaking_symmetry` counts every solution but searches one branch per orbit: solutions are split by
the option covering a primary item i; automorphisms fixing i and the options already chosen map those
branches onto each other, so one branch per orbit is counted and weighted by the orbit's size.  Splitting
goes on below while the fixing group is not trivial (the count stays exact; for the 6x10 pentomino box the
first split already leaves a quarter of the search).

`count_classes` counts solutions up to the automorphisms by Burnside's lemma: the mean over the group of
the number of solutions each element fixes.  A solution fixed by g is a union of orbits of <g> on options,
so those are counted as the solutions of a quotient problem whose items are the orbits of <g> on items.
Conjugate elements fix as many solutions, so each conjugacy class is counted once.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from dlx_latin.errors import UserInputError
from dlx_latin.exact_cover.automorphisms import Automorphisms
from dlx_latin.exact_cover.kernel import KernelArrays, int32
from dlx_latin.exact_cover.problem import count_arrays
from dlx_latin.exact_cover.settings import DEFAULT, CountSettings

MAX_PARTS = 32  # subproblems of a symmetry-broken count, at most (about)


class GroupTooLargeError(UserInputError):
    """The automorphism group is too large to list its elements for Burnside's lemma."""


class UnsupportedSymmetryError(UserInputError):
    """A fixed-point count this module cannot express as an exact-cover problem."""


@dataclass
class Part:
    """A subproblem of a symmetry-broken count: options chosen, their weight, the group fixing them (None
    once there is nothing left to gain from splitting it)."""

    chosen: tuple[int, ...]
    weight: int
    group: Any


def _count(arrays: KernelArrays, settings: CountSettings) -> int:
    """The count of one part or quotient problem, as `ExactCoverProblem.count` runs it; the caller reports
    progress part by part, and parts cannot share one checkpoint file."""
    if settings.checkpoint is not None:
        raise UserInputError("a symmetry-using count cannot be checkpointed")
    return count_arrays(arrays, settings=replace(settings, progress=None))


# --- the state below some chosen options -------------------------------------------------------------


class Incidence:
    """A problem's entries as numpy arrays (option, item from 0, color per entry), for whole-array steps."""

    def __init__(self, arrays: KernelArrays) -> None:
        self.arrays = arrays
        self.n1 = arrays.n_primary
        self.n_items = arrays.n_primary + arrays.n_secondary
        starts = np.frombuffer(arrays.starts, dtype=np.int32)
        self.n_options = len(starts) - 1
        self.option = np.repeat(np.arange(self.n_options), np.diff(starts))
        self.item = np.frombuffer(arrays.items, dtype=np.int32) - 1
        self.color = np.frombuffer(arrays.colors, dtype=np.int32)
        self.primary = self.item < self.n1
        self.lower = np.frombuffer(arrays.lower, dtype=np.int32).astype(np.int64)
        self.upper = np.frombuffer(arrays.upper, dtype=np.int32).astype(np.int64)


@dataclass
class _State:
    """What is left once some options are chosen: bounds still open, colors set, options still live."""

    lower: np.ndarray
    upper: np.ndarray  # 0 for a primary item that is full
    color: np.ndarray  # per item: 0 free, the color chosen options gave it, -1 used without one
    live: np.ndarray  # per option: compatible with the chosen ones and not chosen itself


def _state(inc: Incidence, chosen: tuple[int, ...]) -> _State:
    taken = np.isin(inc.option, chosen)
    used = np.bincount(inc.item[taken & inc.primary], minlength=inc.n1)
    upper, lower = inc.upper - used, np.maximum(inc.lower - used, 0)
    color = np.zeros(inc.n_items, dtype=np.int64)
    on_secondary = taken & ~inc.primary
    color[inc.item[on_secondary]] = np.where(inc.color[on_secondary] > 0, inc.color[on_secondary], -1)
    room = np.ones(inc.n_items, dtype=np.int64)
    room[: inc.n1] = upper
    given = color[inc.item]
    clash = np.where(inc.primary, room[inc.item] <= 0, (given != 0) & ((given == -1) | (given != inc.color)))
    live = np.ones(inc.n_options, dtype=bool)
    live[inc.option[clash]] = False
    live[list(chosen)] = False
    return _State(lower, upper, color, live)


def restricted(inc: Incidence, chosen: tuple[int, ...]) -> KernelArrays:
    """The problem left once the options `chosen` are taken: its solutions, with `chosen` added, are the
    solutions of the whole problem that hold `chosen`.

    >>> from dlx_latin.exact_cover import ExactCoverProblem
    >>> from dlx_latin.exact_cover.kernel import kernel_search
    >>> p = ExactCoverProblem(["a", "b", "c"], [["a"], ["b"], ["a", "b"], ["c"], ["b", "c"]])
    >>> kernel_search(restricted(Incidence(p.kernel_arrays), (0,))).count()  # {0,1,3} and {0,4}
    2
    """
    state = _state(inc, chosen)
    keep = state.color == 0
    keep[: inc.n1] = state.upper > 0
    number = np.cumsum(keep)  # an item's new number (from 1), where kept
    entry = state.live[inc.option] & keep[inc.item]
    with_primary = np.zeros(inc.n_options, dtype=bool)
    with_primary[inc.option[entry & inc.primary]] = True
    entry &= with_primary[inc.option]
    sizes = np.bincount(inc.option[entry], minlength=inc.n_options)[with_primary]
    kept_primary = keep[: inc.n1]
    return KernelArrays(
        int(kept_primary.sum()),
        int(keep[inc.n1 :].sum()),
        int32(np.concatenate(([0], np.cumsum(sizes))).tolist()),
        int32(number[inc.item[entry]].tolist()),
        int32(inc.color[entry].tolist()),
        int32(state.lower[kept_primary].tolist()),
        int32(state.upper[kept_primary].tolist()),
    )


# --- every solution, one branch per orbit ------------------------------------------------------------


def _branch_item(inc: Incidence, state: _State) -> int | None:
    """The primary item with bounds [1, 1], not yet covered, in the fewest live options (None: none)."""
    degree = np.bincount(inc.item[state.live[inc.option] & inc.primary], minlength=inc.n1)
    open_items = (inc.lower == 1) & (inc.upper == 1) & (state.upper == 1)
    if not open_items.any():
        return None
    return int(np.argmin(np.where(open_items, degree, np.iinfo(np.int64).max)))


def _split(autos: Automorphisms, inc: Incidence, part: Part) -> list[Part] | None:
    """The parts one branching below `part`, one per orbit of its branches; None when it cannot branch."""
    state = _state(inc, part.chosen)
    item = _branch_item(inc, state)
    if item is None:
        return None
    branches = np.unique(inc.option[(inc.item == item) & state.live[inc.option]])
    if len(branches) == 1:  # a forced option is in every solution below: the whole group still acts there
        return [Part(part.chosen + (int(branches[0]),), part.weight, part.group)]
    fixing = part.group.stabilizer(item)
    seen: set[int] = set()
    parts = []
    for k in branches.tolist():
        point = autos.option_point(k)
        if point in seen:
            continue
        orbit = fixing.orbit(point)
        seen |= orbit
        parts.append(Part(part.chosen + (k,), part.weight * len(orbit), fixing.stabilizer(point)))
    return parts


def symmetric_parts(autos: Automorphisms, max_parts: int = MAX_PARTS) -> list[Part]:
    """Weighted subproblems whose counts, times their weights, sum to the whole count: parts are split
    breadth-first while their fixing group is not trivial and there are fewer than `max_parts`."""
    inc = Incidence(autos.arrays)
    leaves: list[Part] = []
    queue = deque([Part((), 1, None if autos.trivial else autos.group)])
    while queue and len(leaves) + len(queue) < max_parts:
        part = queue.popleft()
        below = None if part.group is None else _split(autos, inc, part)
        if below is None:
            leaves.append(part)
            continue
        for child in below:
            (queue if not child.group.is_trivial else leaves).append(child)
    return leaves + list(queue)


def count_breaking_symmetry(
    arrays: KernelArrays,
    settings: CountSettings = DEFAULT,
    automorphisms: Automorphisms | None = None,
    report: Callable[[int, int], object] | None = None,
) -> int:
    """The exact number of solutions, searching one branch per orbit of the automorphisms.

    `report(parts, group_order)` is called once the parts are known.

    >>> from dlx_latin.exact_cover.classic import pentominoes
    >>> count_breaking_symmetry(pentominoes(3, 20).kernel_arrays)
    8
    """
    autos = automorphisms or Automorphisms(arrays)
    parts = symmetric_parts(autos)
    if report is not None:
        report(len(parts), autos.order)
    inc = Incidence(arrays)
    total = 0
    for done, part in enumerate(parts, start=1):
        total += part.weight * _count(restricted(inc, part.chosen), settings)
        if settings.progress is not None:
            settings.progress(0, done / len(parts))
    return total


# --- classes of solutions: Burnside's lemma ----------------------------------------------------------


def _elements(autos: Automorphisms) -> np.ndarray:
    """Every element of the group, one per row (identity first)."""
    if not autos.listable:
        raise GroupTooLargeError(
            f"the problem has about {autos.nauty_order:.3g} automorphisms, too many to list for Burnside's "
            "lemma; --break-symmetry uses them to count every solution"
        )
    return autos.group.elements


def conjugacy_classes(autos: Automorphisms) -> list[tuple[np.ndarray, int]]:
    """(representative, size) of each conjugacy class of the group, the identity's first."""
    elements = _elements(autos)
    generators = [np.asarray(g, dtype=np.int32) for g in autos.generators]
    inverses = [np.argsort(s).astype(np.int32) for s in generators]
    classed: set[bytes] = set()
    classes = []
    for g in elements:
        if g.tobytes() in classed:
            continue
        members = {g.tobytes()}
        queue = [g]
        while queue:
            h = queue.pop()
            for s, t in zip(generators, inverses, strict=True):
                c = s[h[t]]  # s h s^-1
                if c.tobytes() not in members:
                    members.add(c.tobytes())
                    queue.append(c)
        classed |= members
        classes.append((g, len(members)))
    return classes


def _cycles(image: np.ndarray, points: range) -> dict[int, int]:
    """The smallest point of each point's cycle, for the points of `points` (closed under `image`)."""
    root: dict[int, int] = {}
    for p in points:
        if p in root:
            continue
        cycle = [p]
        q = int(image[p])
        while q != p:
            cycle.append(q)
            q = int(image[q])
        for q in cycle:
            root[q] = p
    return root


def quotient(autos: Automorphisms, image: np.ndarray) -> KernelArrays:
    """The problem whose solutions are the solutions fixed by the automorphism `image`: items are the
    cycles of items, options the cycles of options that cover each item of a cycle at most once (or, for a
    secondary item, several times in one color)."""
    arrays, n_items, n1 = autos.arrays, autos.n_items, autos.arrays.n_primary
    item_root = _cycles(image, range(n_items))
    option_root = _cycles(image, range(n_items, autos.degree))
    roots = sorted(set(item_root.values()))
    size = {r: 0 for r in roots}
    for j in range(n_items):
        size[item_root[j]] += 1
    primary = [r for r in roots if r < n1]
    number = {r: i for i, r in enumerate(primary + [r for r in roots if r >= n1], start=1)}
    orbits: dict[int, list[int]] = {}
    for point, r in option_root.items():
        orbits.setdefault(r, []).append(point - n_items)
    starts, items, colors = [0], [], []
    for r in sorted(orbits):
        hits: dict[int, int] = {}
        shade: dict[int, set[int]] = {}  # colors the orbit gives its item cycle's root item
        for k in orbits[r]:
            for e in range(arrays.starts[k], arrays.starts[k + 1]):
                j, c = arrays.items[e] - 1, arrays.colors[e]
                hits[item_root[j]] = hits.get(item_root[j], 0) + 1
                if j == item_root[j]:
                    shade.setdefault(j, set()).add(c)
        entries = []
        for root, total in hits.items():
            times = total // size[root]
            if root < n1:
                if times > 1 and arrays.upper[root] > 1:
                    raise UnsupportedSymmetryError(
                        "--up-to symmetry cannot count the solutions fixed by an automorphism whose options "
                        "cover a bounded item several times"
                    )
                if times > 1:
                    break
                entries.append((number[root], 0))
            else:
                shades = shade[root]
                c = next(iter(shades)) if len(shades) == 1 else None
                if c is None or (times > 1 and c == 0):
                    break
                entries.append((number[root], c))
        else:
            if any(i <= len(primary) for i, _ in entries):
                items += [i for i, _ in entries]
                colors += [c for _, c in entries]
                starts.append(len(items))
    return KernelArrays(
        len(primary),
        len(roots) - len(primary),
        int32(starts),
        int32(items),
        int32(colors),
        int32(arrays.lower[r] for r in primary),
        int32(arrays.upper[r] for r in primary),
    )


@dataclass
class Classes:
    """The result of `count_classes`: classes, the group's order, and the fixed counts per conjugacy class
    (representative's number of moved points, class size, solutions fixed)."""

    classes: int
    order: int
    terms: list[tuple[int, int, int]]


def count_classes(
    arrays: KernelArrays, settings: CountSettings = DEFAULT, automorphisms: Automorphisms | None = None
) -> Classes:
    """The number of solutions up to the problem's automorphisms, by Burnside's lemma.

    >>> from dlx_latin.exact_cover.classic import queens
    >>> count_classes(queens(8).kernel_arrays).classes  # A002562
    12
    """
    autos = automorphisms or Automorphisms(arrays)
    classes = conjugacy_classes(autos)
    terms, total = [], 0
    for done, (g, size) in enumerate(classes, start=1):
        if done == 1:  # the identity fixes every solution
            fixed = count_breaking_symmetry(arrays, replace(settings, progress=None), autos)
        else:
            fixed = _count(quotient(autos, g), settings)
        moved = int(np.count_nonzero(g != np.arange(autos.degree)))
        terms.append((moved, size, fixed))
        total += size * fixed
        if settings.progress is not None:
            settings.progress(0, done / len(classes))
    order = autos.order
    if total % order:
        raise ArithmeticError(f"Burnside's sum {total} is not a multiple of the group's order {order}")
    return Classes(total // order, order, terms)
