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

from array import array
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from dlx_latin.errors import UserInputError
from dlx_latin.exact_cover.automorphisms import Automorphisms, GroupTooLargeError
from dlx_latin.exact_cover.automorphisms import conjugacy_classes as classes_of
from dlx_latin.exact_cover.kernel import KernelArrays, int32
from dlx_latin.exact_cover.problem import count_arrays
from dlx_latin.exact_cover.settings import DEFAULT, CountSettings

MAX_PARTS = 32  # subproblems of a symmetry-broken count, at most (about)
CANDIDATES = 64  # items weighed for a symmetry-broken branching, at most


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
    """A problem's options as lists of (item from 0, color) entries, and each item's options."""

    def __init__(self, arrays: KernelArrays) -> None:
        self.arrays = arrays
        self.n1 = arrays.n_primary
        self.n_items = arrays.n_primary + arrays.n_secondary
        starts, items, colors = arrays.starts, arrays.items, arrays.colors
        self.n_options = len(starts) - 1
        self.entries = [
            [(items[e] - 1, colors[e]) for e in range(starts[k], starts[k + 1])]
            for k in range(self.n_options)
        ]
        self.options_of: list[list[int]] = [[] for _ in range(self.n_items)]
        for k, entries in enumerate(self.entries):
            for j, _ in entries:
                self.options_of[j].append(k)
        self.lower, self.upper = list(arrays.lower), list(arrays.upper)
        self.kernel_items = [items[starts[k] : starts[k + 1]] for k in range(self.n_options)]
        self.kernel_colors = [colors[starts[k] : starts[k + 1]] for k in range(self.n_options)]
        self.has_primary = [any(j < self.n1 for j, _ in entries) for entries in self.entries]


@dataclass
class _State:
    """What is left once some options are chosen: bounds still open, colors set, options still live."""

    lower: list[int]
    upper: list[int]  # 0 for a primary item that is full
    color: list[int]  # per item: 0 free, the color chosen options gave it, -1 used without one
    live: list[bool]  # per option: compatible with the chosen ones and not chosen itself


def _state(inc: Incidence, chosen: tuple[int, ...]) -> _State:
    upper, lower = list(inc.upper), list(inc.lower)
    color = [0] * inc.n_items
    for k in chosen:
        for j, c in inc.entries[k]:
            if j < inc.n1:
                upper[j] -= 1
                lower[j] = max(lower[j] - 1, 0)
            else:
                color[j] = c if c > 0 else -1
    live = [True] * inc.n_options
    for j in range(inc.n1):
        if upper[j] <= 0:
            for k in inc.options_of[j]:
                live[k] = False
    for j in range(inc.n1, inc.n_items):
        given = color[j]
        if given:
            for k in inc.options_of[j]:
                if given == -1 or any(i == j and c != given for i, c in inc.entries[k]):
                    live[k] = False
    for k in chosen:
        live[k] = False
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
    state, n1 = _state(inc, chosen), inc.n1
    keep = [state.upper[j] > 0 for j in range(n1)] + [c == 0 for c in state.color[n1:]]
    number, kept = [0] * inc.n_items, 0  # an item's new number (from 1), where kept
    for j in range(inc.n_items):
        if keep[j]:
            kept += 1
            number[j] = kept
    # A live option keeps its primary items (none is full); only its entries on secondary items that the
    # chosen options colored go.
    partial = {k for j in range(n1, inc.n_items) if not keep[j] for k in inc.options_of[j]}
    renumber = [0, *number].__getitem__  # from kernel item numbers
    starts, items, colors = [0], array("i"), array("i")
    for k in range(inc.n_options):
        if not state.live[k] or not inc.has_primary[k]:
            continue
        if k in partial:
            entries = [(j, c) for j, c in inc.entries[k] if keep[j]]
            items.extend(number[j] for j, _ in entries)
            colors.extend(c for _, c in entries)
        else:
            items.extend(map(renumber, inc.kernel_items[k]))
            colors.extend(inc.kernel_colors[k])
        starts.append(len(items))
    primary = [j for j in range(n1) if keep[j]]
    sharp = inc.arrays.sharp
    return KernelArrays(
        len(primary),
        kept - len(primary),
        int32(starts),
        items,
        colors,
        int32(state.lower[j] for j in primary),
        int32(state.upper[j] for j in primary),
        None if sharp is None else int32(sharp[j] for j in primary),
    )


# --- every solution, one branch per orbit ------------------------------------------------------------


def _branch_item(inc: Incidence, state: _State, group: Any) -> int | None:
    """The primary item with bounds [1, 1], not yet covered, expected to leave the fewest parts: its live
    options times the size of its orbit under `group` (its options over the automorphisms fixing it, times
    the group's order), the fewest options on ties.  The CANDIDATES items of fewest options are weighed
    (None: no item left).  On the n-queens board this branches on the middle row, which half the square's
    symmetries fix, rather than the first, which a quarter fix."""
    open_items = sorted(
        (sum(state.live[k] for k in inc.options_of[j]), j)
        for j in range(inc.n1)
        if inc.lower[j] == 1 and inc.upper[j] == 1 and state.upper[j] == 1
    )
    if not open_items:
        return None
    weighed = open_items[:CANDIDATES]
    return min(weighed, key=lambda dj: (dj[0] * len(group.orbit(dj[1])), dj))[1]


def _split(autos: Automorphisms, inc: Incidence, part: Part) -> list[Part] | None:
    """The parts one branching below `part`, one per orbit of its branches; None when it cannot branch."""
    state = _state(inc, part.chosen)
    item = _branch_item(inc, state, part.group)
    if item is None:
        return None
    branches = [k for k in inc.options_of[item] if state.live[k]]
    if len(branches) == 1:  # a forced option is in every solution below: the whole group still acts there
        return [Part(part.chosen + (branches[0],), part.weight, part.group)]
    fixing = part.group.stabilizer(item)
    seen: set[int] = set()
    parts = []
    for k in branches:
        point = autos.option_point(k)
        if point in seen:
            continue
        orbit = fixing.orbit(point)
        seen |= orbit
        parts.append(Part(part.chosen + (k,), part.weight * len(orbit), fixing.stabilizer(point)))
    return parts


def symmetric_parts(
    autos: Automorphisms, max_parts: int = MAX_PARTS, incidence: Incidence | None = None
) -> list[Part]:
    """Weighted subproblems whose counts, times their weights, sum to the whole count: parts are split
    breadth-first while their fixing group is not trivial and there are fewer than `max_parts`."""
    inc = incidence or Incidence(autos.arrays)
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


def _parts_and_order(autos: Automorphisms, inc: Incidence) -> tuple[list[Part], int]:
    """The symmetric parts (their groups dropped: they are sympy's, and the count needs only the options
    chosen and the weights) and the group's order, in one computation for `Automorphisms.apart`."""
    parts = symmetric_parts(autos, incidence=inc)
    return [Part(p.chosen, p.weight, None) for p in parts], int(autos.group.order())


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
    inc = Incidence(arrays)
    parts, autos.order = autos.apart(_parts_and_order, autos, inc)
    if report is not None:
        report(len(parts), autos.order)
    total = 0
    for done, part in enumerate(parts, start=1):
        total += part.weight * _count(restricted(inc, part.chosen), settings)
        if settings.progress is not None:
            settings.progress(0, done / len(parts))
    return total


# --- classes of solutions: Burnside's lemma ----------------------------------------------------------


def _elements(autos: Automorphisms) -> list[tuple[int, ...]]:
    """Every element of the group, one per row (identity first)."""
    if not autos.listable:
        raise GroupTooLargeError(
            f"the problem has about {autos.order_text} automorphisms, too many to list for Burnside's lemma"
            + " (--break-symmetry counts every solution without listing them)"
        )
    return autos.group.elements


def conjugacy_classes(autos: Automorphisms) -> list[tuple[tuple[int, ...], int]]:
    """(representative, size) of each conjugacy class of the group, the identity's first."""
    return classes_of(_elements(autos), autos.generators)


def _cycles(image: tuple[int, ...], points: range) -> dict[int, int]:
    """The smallest point of each point's cycle, for the points of `points` (closed under `image`)."""
    root: dict[int, int] = {}
    for p in points:
        if p in root:
            continue
        cycle = [p]
        q = image[p]
        while q != p:
            cycle.append(q)
            q = image[q]
        for q in cycle:
            root[q] = p
    return root


def quotient(autos: Automorphisms, image: tuple[int, ...]) -> KernelArrays:
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
        moved = sum(p != q for p, q in enumerate(g))
        terms.append((moved, size, fixed))
        total += size * fixed
        if settings.progress is not None:
            settings.progress(0, done / len(classes))
    order = autos.order
    if total % order:
        raise ArithmeticError(f"Burnside's sum {total} is not a multiple of the group's order {order}")
    return Classes(total // order, order, terms)
