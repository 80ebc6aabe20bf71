"""Classes of Latin boards by Burnside's lemma, without listing a single board.

Under a group G of point permutations combined with the label group L (permutations of labels with equal
multiplicity), the number of classes of Latin boards is the average, over the pairs (g, s) of G x L, of the
number of Latin boards f that the pair fixes: f(g(p)) = s(f(p)) at every point p.  That number depends only
on the conjugacy classes of g in G and of s in L, so one representative of each pair of classes is counted.

Fixed boards are an exact-cover problem on the quotient board: a fixed board is settled by the label x of
one point p of each cycle of g, which puts s^j(x) at g^j(p) (and x must come back to itself after the
cycle's length, so the length of x's cycle under s divides it).  Each such choice is one option covering
every point of the cycle and every (asterism, label) item it fills; a choice that fills an item twice breaks
the Latin condition and is dropped.  The relabellings t that commute with s map fixed boards to fixed boards
(t(f(g(p))) = t(s(f(p))) = s(t(f(p)))), so, as the plain count fixes its first asterism, the quotient is
split by the labels of the first asterism's points, one part per orbit of those relabellings, weighted by
the orbit's size (`label_fixed_parts`), when its count runs past SPLIT_NODES nodes.  The identity's term
is the plain count.  Burnside pays when the board's Latin boards are far too many to list but its group is
small: the polytopes under their rotations and reflections (`count cube:2 --up-to geometry`).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import repeat
from typing import Any

from sympy.combinatorics import PermutationGroup

from dlx_latin.boards import Board, board_from_spec, per_board
from dlx_latin.exact_cover import ExactCoverProblem, NoSolutionFoundError
from dlx_latin.exact_cover.automorphisms import conjugacy_classes
from dlx_latin.exact_cover.checkpoint import WholeCounts
from dlx_latin.exact_cover.kernel import Progress
from dlx_latin.exact_cover.settings import DEFAULT, CountSettings
from dlx_latin.latin import PartialBoard
from dlx_latin.latin.completion import reduce_to_exact_cover
from dlx_latin.latin.multiset import Label, Multiset
from dlx_latin.workers import new_pool, stop
from symmetry.canonical import group_elements
from symmetry.errors import SymmetryTooLargeError
from symmetry.pruned import count_by_orbits

MAX_LABEL_PARTS = 1_000  # parts of one fixed count split by its label symmetry
SPLIT_NODES = 1_000_000  # a quotient problem counted in fewer nodes than this is not split
PROJECTION_AFTER = 60.0  # seconds of the plain count before its projected time is judged
PROJECTION_LIMIT = 86400  # seconds a plain count may be projected to take (icosahedron:2's: an hour)


class BurnsideUnsupportedError(SymmetryTooLargeError):
    """A fixed-board count this method cannot express: a label repeated in an asterism along one cycle."""


def point_classes(group: PermutationGroup) -> list[tuple[tuple[int, ...], int]]:
    """(representative, size) of each conjugacy class of a group of at most canonical.MAX_ELEMENTS elements;
    a class is the orbit of an element under conjugation by the generators.

    >>> from sympy.combinatorics.named_groups import SymmetricGroup
    >>> sorted(size for _, size in point_classes(SymmetricGroup(4)))
    [1, 3, 6, 6, 8]
    """
    elements = [tuple(int(v) for v in row) for row in group_elements(group)]
    return conjugacy_classes(elements, [g.array_form for g in group.generators])


def _partitions(n: int, largest: int | None = None) -> Iterator[tuple[int, ...]]:
    largest = n if largest is None else largest
    if n == 0:
        yield ()
        return
    for first in range(min(n, largest), 0, -1):
        for rest in _partitions(n - first, first):
            yield (first, *rest)


def label_classes(m: Multiset) -> list[tuple[dict[Label, Label], int]]:
    """(representative, size) of each conjugacy class of the label group: a cycle type per multiplicity class.

    >>> sorted(size for _, size in label_classes(Multiset.parse("1,2,3")))
    [1, 2, 3]
    """
    classes: list[tuple[dict[Label, Label], int]] = [({}, 1)]
    for labels in ([m.labels[j] for j in group] for group in m.by_count):
        k, extended = len(labels), []
        for shape in _partitions(k):
            sigma: dict[Label, Label] = {}
            at = 0
            for length in shape:
                cycle = labels[at : at + length]
                sigma.update({cycle[j]: cycle[(j + 1) % length] for j in range(length)})
                at += length
            centralizer = math.prod(i**e * math.factorial(e) for i, e in Counter(shape).items())
            extended += [({**rep, **sigma}, size * math.factorial(k) // centralizer) for rep, size in classes]
        classes = extended
    return classes


def _with_cycle_type(shape: tuple[int, ...]) -> list[int]:
    """A permutation of 0..n-1 whose cycles have the lengths in `shape`."""
    image, at = [], 0
    for length in shape:
        image += [at + (j + 1) % length for j in range(length)]
        at += length
    return image


def _conjugates(n: int, shape: tuple[int, ...]) -> int:
    """How many permutations of n things have this cycle type."""
    return math.factorial(n) // math.prod(i**e * math.factorial(e) for i, e in Counter(shape).items())


def count_latin_square_classes(
    n: int, relabel: bool = True, transpose: bool = False, plain: int | None = None
) -> int:
    """Latin squares of order n up to permuting rows and columns, symbols too with `relabel`, and
    transposing too with `transpose`: with `relabel` alone the isotopy classes (A040082: 564 for n = 7),
    without it the classes under rows and columns (A123234: 2,420,400 for n = 7); with both, the classes under
    the whole automorphism group of latin:n and relabelling.  Burnside over S_n x S_n (x S_n), whose
    conjugacy classes are pairs (triples) of cycle types, so the group is never enumerated; a transposing
    element (a, b)t, (r, c) -> (a(c), b(r)), is conjugate to (ab, 1)t, and n! |C| of them have ab in the
    class C.  The identity's term is the plain count, or `plain` when known.

    >>> [count_latin_square_classes(n) for n in range(2, 6)], count_latin_square_classes(4, relabel=False)
    ([1, 1, 2, 2], 4)
    """
    pb = PartialBoard(board_from_spec(f"latin:{n}"))
    shapes = list(_partitions(n))
    labels = label_classes(pb.multiset) if relabel else [({}, 1)]
    placements = Placements(pb)

    identity = list(range(n * n))

    def fixed(image: list[int], weight: int) -> int:
        if image == identity and plain is not None:
            return weight * plain  # only the identity relabelling fixes a square under the identity
        return sum(weight * size * fixed_count(pb, image, sigma, placements) for sigma, size in labels)

    total = 0
    for alpha in shapes:
        rows = _with_cycle_type(alpha)
        for beta in shapes:
            cols = _with_cycle_type(beta)
            image = [rows[r] * n + cols[c] for r in range(n) for c in range(n)]
            total += fixed(image, _conjugates(n, alpha) * _conjugates(n, beta))
        if transpose:  # (r, c) -> (pi(c), r) with pi of type alpha
            image = [rows[c] * n + r for r in range(n) for c in range(n)]
            total += fixed(image, math.factorial(n) * _conjugates(n, alpha))
    order = math.factorial(n) ** (3 if relabel else 2) * (2 if transpose else 1)
    if total % order:
        raise AssertionError(f"Burnside's sum {total} is not a multiple of the group order {order}")
    return total // order


def _cycles(image: Sequence[int]) -> list[list[int]]:
    seen, out = set(), []
    for p in range(len(image)):
        if p not in seen:
            cycle, q = [], p
            while q not in seen:
                seen.add(q)
                cycle.append(q)
                q = image[q]
            out.append(cycle)
    return out


class Placements:
    """The exact-cover items of each (point, label) placement of an empty board: made once for all the
    fixed counts of one Burnside sum."""

    def __init__(self, pb: PartialBoard) -> None:
        reduction = reduce_to_exact_cover(pb)
        self.problem = reduction.problem
        self.items = {
            placement: self.problem.option_items(k) for k, placement in enumerate(reduction.placements)
        }


def fixed_count(
    pb: PartialBoard,
    image: Sequence[int],
    sigma: dict[Label, Label],
    placements: Placements | None = None,
    settings: CountSettings = DEFAULT,
) -> int:
    """The number of Latin boards f of an empty board with f(image[p]) = sigma(f(p)) at every point p
    (`placements`: the board's, when many counts are made; `settings`: how the identity's count, the plain
    count, which can be long, is run -- its checkpoint recording the parts).

    >>> from dlx_latin.boards import board_from_spec
    >>> pb = PartialBoard(board_from_spec("latin:3"))
    >>> fixed_count(pb, list(range(9)), {})  # the identity fixes every Latin square
    12
    >>> fixed_count(pb, [1, 2, 0, 4, 5, 3, 7, 8, 6], {1: 2, 2: 3, 3: 1})  # columns turned, labels shifted
    6
    """
    if list(image) == list(range(pb.board.n_points)):
        if any(sigma.get(x, x) != x for x in pb.multiset.labels):
            return 0
        return count_by_orbits(pb, settings)
    return _quotient_count(pb, image, sigma, placements or Placements(pb), {})[0]


def _quotient_count(
    pb: PartialBoard,
    image: Sequence[int],
    sigma: dict[Label, Label],
    placements: Placements,
    known: Mapping[str, int],
) -> tuple[int, dict[str, int]]:
    """The fixed count of a term other than the identity's, its quotient problem split by label symmetry
    when long, and the parts' counts that `known` (a checkpoint's records, by digest) did not hold."""
    fixed = fixed_problem(pb, image, sigma, placements)
    if fixed is None:
        return 0, {}
    whole = _count_within(fixed[0], SPLIT_NODES)
    if whole is not None:
        return whole, {}  # counted at once: splitting would cost more than it saves
    total, new = 0, {}
    for part, weight in label_fixed_parts(pb, *fixed, sigma):
        digest = part.kernel_arrays.digest()
        if digest not in known and digest not in new:
            new[digest] = part.count()
        total += weight * (known[digest] if digest in known else new[digest])
    return total, new


_known: Mapping[str, int] = {}  # in a worker process: the checkpoint's records of Burnside's parts


def _load_known(checkpoint: str | None) -> None:
    """Worker initializer: read the parts already recorded once per process."""
    global _known
    _known = {} if checkpoint is None else WholeCounts(checkpoint).done


@per_board
def _placements(board: Board, multiset: Multiset) -> Placements:
    return Placements(PartialBoard(board, multiset))


def _term(
    board: Board, multiset: Multiset, image: Sequence[int], sigma: dict[Label, Label]
) -> tuple[int, dict[str, int]]:
    """One term in a worker process (see `_quotient_count`)."""
    pb = PartialBoard(board, multiset)
    return _quotient_count(pb, image, sigma, _placements(board, multiset), _known)


def _count_within(problem: ExactCoverProblem, nodes: int) -> int | None:
    """The count of `problem` if it needs at most `nodes` search nodes, else None."""
    if nodes <= 0:
        return None
    search = problem.search(memo=True)
    count = search.count(max_nodes=nodes)
    return count if search.done else None


def sigma_cycles(m: Multiset, sigma: dict[Label, Label]) -> list[list[list[Label]]]:
    """The cycles of sigma grouped by kind (length, multiplicity of their labels).  The relabellings that
    commute with sigma turn each cycle and permute the cycles of one kind: a wreath product per kind.

    >>> sigma_cycles(Multiset.parse("1,2,3,4,5"), {1: 2, 2: 1, 3: 4, 4: 3})
    [[[1, 2], [3, 4]], [[5]]]
    """
    kinds: dict[tuple[int, int], list[list[Label]]] = {}
    seen: set[Label] = set()
    for x in m.labels:
        if x in seen:
            continue
        cycle, y = [x], sigma.get(x, x)
        while y != x:
            cycle.append(y)
            y = sigma.get(y, y)
        seen.update(cycle)
        kinds.setdefault((len(cycle), m.count_of[x]), []).append(cycle)
    return list(kinds.values())


def label_fixed_parts(
    pb: PartialBoard,
    quotient: ExactCoverProblem,
    fills: list[list[tuple[int, Label]]],
    sigma: dict[Label, Label],
) -> list[tuple[ExactCoverProblem, int]]:
    """The quotient problem of (g, sigma) split into parts with weights, its count the weighted sum of theirs.

    The relabellings commuting with sigma permute the fixed boards, so the boards with label x at a point p
    are as many as those with t(x) there: p takes one label per orbit, weighted by the orbit's size, and the
    step repeats at the next point of the first asterism under the relabellings that keep the labels taken
    so far, until none is left (or MAX_LABEL_PARTS parts are reached).  Those relabellings are a wreath
    product per kind of cycle of sigma (`sigma_cycles`): keeping a label pins its cycle, and the orbit of a
    label is every label of the unpinned cycles of its kind."""
    kinds = sigma_cycles(pb.multiset, sigma)
    kind_of = {x: k for k, cycles in enumerate(kinds) for cycle in cycles for x in cycle}
    cycle_of_label = {x: tuple(cycle) for cycles in kinds for cycle in cycles for x in cycle}
    free0 = tuple(tuple(tuple(c) for c in cycles) for cycles in kinds)  # unpinned cycles of each kind

    def trivial(free: tuple) -> bool:
        return all(len(cycles) * len(cycles[0]) <= 1 for cycles in free if cycles)

    if trivial(free0):
        return [(quotient, 1)]
    option_at: dict[int, dict[Label, int]] = {}  # point -> label there -> the option putting it there
    for k, fill in enumerate(fills):
        for p, x in fill:
            option_at.setdefault(p, {})[x] = k
    cycle_of = [fill[0][0] for fill in fills]
    once = {i for i in quotient.primary if quotient.bound(i)[1] == 1}
    items = [once.intersection(quotient.option_items(k)) for k in range(len(fills))]
    # a part: the options chosen, the items they fill once, its weight, the unpinned cycles of each kind
    parts: list[tuple[tuple[int, ...], frozenset, int, tuple]] = [((), frozenset(), 1, free0)]
    for p in pb.board.asterisms[0]:
        if len(parts) > MAX_LABEL_PARTS or all(trivial(free) for *_, free in parts):
            break
        cycle = cycle_of[next(iter(option_at[p].values()))]
        refined = []
        for chosen, filled, weight, free in parts:
            if trivial(free) or any(cycle_of[k] == cycle for k in chosen):
                refined.append((chosen, filled, weight, free))
                continue
            for x, k in option_at[p].items():
                kind = free[kind_of[x]]
                pinned = cycle_of_label[x]
                if pinned in kind:  # x stands for its orbit: the labels of the unpinned cycles of its kind
                    if x != kind[0][0]:
                        continue
                    orbit = len(kind) * len(pinned)
                    rest = tuple(c for c in kind if c != pinned)
                    free_after = free[: kind_of[x]] + (rest,) + free[kind_of[x] + 1 :]
                else:  # x is kept by every relabelling left: an orbit of its own
                    orbit, free_after = 1, free
                if not filled & items[k]:
                    refined.append(((*chosen, k), filled | items[k], weight * orbit, free_after))
        parts = refined
    out = []
    for chosen, _, weight, _ in parts:
        fixed_cycles = {cycle_of[k] for k in chosen}
        kept = [o for k, o in enumerate(quotient.options) if cycle_of[k] not in fixed_cycles or k in chosen]
        bounds = {i: quotient.bound(i) for i in quotient.primary if quotient.bound(i) != (1, 1)}
        out.append((ExactCoverProblem(quotient.primary, kept, quotient.secondary, bounds), weight))
    return out


def fixed_problem(
    pb: PartialBoard, image: Sequence[int], sigma: dict[Label, Label], placements: Placements
) -> tuple[ExactCoverProblem, list[list[tuple[int, Label]]]] | None:
    """The quotient problem whose solutions are the Latin boards f with f(image[p]) = sigma(f(p)), and the
    (point, label) placements of each of its options; None when some cycle takes no label at all."""
    problem = placements.problem
    options, fills = [], []
    for cycle in _cycles(image):
        before = len(options)
        for x in pb.multiset.labels:
            items, label, fill = [], x, []
            for p in cycle:
                items += placements.items[(p, label)]
                fill.append((p, label))
                label = sigma.get(label, label)
            if label != x:
                continue  # x does not come back to itself after the cycle
            if len(set(items)) < len(items):
                repeated = [i for i, c in Counter(items).items() if c > 1]
                if any(problem.bound(i) != (1, 1) for i in repeated):
                    raise BurnsideUnsupportedError(
                        "Burnside counting cannot put a repeated label twice in one asterism along a cycle "
                        "of a symmetry; count with distinct labels"
                    )
                continue  # a label twice in one asterism
            options.append(items)
            fills.append(fill)
        if len(options) == before:
            return None  # no label fits this cycle
    quotient = ExactCoverProblem(
        list(problem.primary),
        options,
        list(problem.secondary),
        bounds={i: problem.bound(i) for i in problem.primary if problem.bound(i) != (1, 1)},
    )
    return quotient, fills


def random_fixed_boards(
    pb: PartialBoard,
    image: Sequence[int],
    sigma: dict[Label, Label],
    placements: Placements,
    rng: random.Random,
    draws: int,
) -> list[list[Label]]:
    """Up to `draws` random Latin boards f with f(image[p]) = sigma(f(p)), each from one randomized search
    of the quotient problem on a small node budget (a search that runs out draws nothing): boards with a
    given symmetry, which random boards meet rarely (their orbits are small)."""
    fixed = fixed_problem(pb, image, sigma, placements)
    if fixed is None:
        return []
    quotient, fills = fixed
    boards = []
    for _ in range(draws):
        try:
            found = quotient.random_solution(rng, tries=1)
        except NoSolutionFoundError:
            continue
        if found is None:
            return boards  # the quotient has no solution at all
        labelling: list[Label] = [None] * pb.board.n_points
        for k in found:
            for p, label in fills[k]:
                labelling[p] = label
        boards.append(labelling)
    return boards


class Projection:
    """A progress callback that refuses a hopeless plain count: once PROJECTION_AFTER seconds have passed, a
    count whose projected time (elapsed / Knuth's estimate of the fraction done) passes PROJECTION_LIMIT is
    stopped with a one-line SymmetryTooLargeError, as the listing refuses a hopeless level.  The estimate
    ignores the memo, so it errs long: a count it lets through finishes sooner than projected.  A fraction of
    0 (parts counted in parallel, none finished yet) projects nothing."""

    def __init__(self, board: str, progress: Progress | None) -> None:
        self.board, self.progress, self.start = board, progress, time.monotonic()

    def __call__(self, nodes: int, fraction: float) -> None:
        if self.progress is not None:
            self.progress(nodes, fraction)
        elapsed = time.monotonic() - self.start
        if elapsed >= PROJECTION_AFTER and 0 < fraction * PROJECTION_LIMIT < elapsed:
            days = elapsed / max(fraction, 1e-300) / 86400
            raise SymmetryTooLargeError(
                f"{self.board}: Burnside's plain count is {100 * fraction:.2g}% done after {elapsed:.0f} s, "
                f"projected to take {days:.3g} days, past the limit of {PROJECTION_LIMIT / 86400:g} day; "
                f"`count {self.board} --checkpoint FILE` has no limit, and this command then reads its FILE"
            )


def count_by_burnside(
    pb: PartialBoard,
    group: PermutationGroup | list[tuple[Sequence[int], int]],
    settings: CountSettings = DEFAULT,
    terms_progress: Progress | None = None,
    plain: int | None = None,
    **how: Any,
) -> int:
    """The number of classes of Latin boards of an empty board under `group` (point permutations, or its
    conjugacy classes as (representative, size) pairs) combined with relabelling.  `settings` run the
    identity term, the plain count (see `fixed_count`; its checkpoint is the same file as `count BOARD
    --checkpoint`'s, and also records the other terms' parts) unless it is given as `plain`, and their
    jobs work the other terms in processes; `terms_progress` is called with the other terms done and their
    fraction.

    >>> from dlx_latin.boards import board_from_spec
    >>> from symmetry.groups import automorphism_group
    >>> pb = PartialBoard(board_from_spec("sudoku:2x2"))
    >>> count_by_burnside(pb, automorphism_group(pb.board))  # essentially different 4x4 Sudoku
    2
    """
    if pb.clues:
        raise SymmetryTooLargeError("classes up to symmetry need an empty board: clues break the symmetry")
    total = 0
    labels = label_classes(pb.multiset)
    settings = settings.updated(**how)
    checkpoint, jobs = settings.checkpoint, settings.jobs
    recorded = None if checkpoint is None else WholeCounts(checkpoint)
    identity = list(range(pb.board.n_points))
    classes = group if isinstance(group, list) else point_classes(group)
    terms = [(image, size, sigma, label_size) for image, size in classes for sigma, label_size in labels]
    others = [term for term in terms if list(term[0]) != identity]
    if plain is not None:  # only the identity relabelling fixes a board under the identity
        total += plain
    for sigma, label_size in labels if plain is None else ():  # the plain count, with the count's settings
        guarded = Projection(pb.board.name, settings.progress)
        total += label_size * fixed_count(pb, identity, sigma, None, settings.updated(progress=guarded))
    pool = None
    if (jobs or 1) > 1 and len(others) > 1:
        pool = new_pool(jobs, _load_known, (checkpoint,))
        images, sigmas = [t[0] for t in others], [t[2] for t in others]
        results = pool.map(_term, repeat(pb.board), repeat(pb.multiset), images, sigmas)
    else:
        known, placements = {} if recorded is None else recorded.done, Placements(pb)
        results = (_quotient_count(pb, image, sigma, placements, known) for image, _, sigma, _ in others)
    try:
        for done, ((_, size, _, label_size), (fixed, new)) in enumerate(zip(others, results, strict=True), 1):
            if recorded is not None and new:
                recorded.add(new)
            total += size * label_size * fixed
            if terms_progress is not None:
                terms_progress(done, done / len(others))
    except BaseException:
        if pool is not None:
            stop(pool)
        raise
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    order = sum(size for _, size in classes) * sum(size for _, size in labels)
    if total % order:
        raise AssertionError(f"Burnside's sum {total} is not a multiple of the group order {order}")
    return total // order
