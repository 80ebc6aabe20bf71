"""Completing partial Latin boards: the reduction to exact cover, counts, completions, uniqueness.

The reduction (one exact-cover problem per partial board): one primary item per empty point, covered once;
one primary item per (asterism, label) still missing, covered exactly as many times as copies are missing
(Algorithm M: repeated labels are never permuted); one option per (empty point, label) that every asterism
through the point still lacks.  Clues are applied before the search, so they cost nothing.

An empty board is searched with its label symmetry fixed: its first asterism takes one arrangement of the
multiset per orbit under the label permutations that keep the multiplicities, and every count is multiplied
back by the order of that group (which acts freely, as every label appears in every Latin board).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from dlx_latin.boards.board import Board
from dlx_latin.errors import UserInputError
from dlx_latin.exact_cover import ExactCoverProblem
from dlx_latin.exact_cover.estimate import Estimate, estimate_many, probe
from dlx_latin.exact_cover.kernel import Progress
from dlx_latin.exact_cover.settings import DEFAULT, CountSettings
from dlx_latin.latin.multiset import Label, Multiset
from dlx_latin.latin.partial import PartialBoard

Labelling = list  # labels in point order

_NOTHING = object()
MAX_ARRANGEMENTS = 1_000_000  # a count is split in at most this many parts by its first asterism


class TooManyArrangementsError(UserInputError):
    """A multiset whose arrangements of one asterism, up to relabelling, are too many to list."""


class NotUniqueError(ValueError):
    """A question that needs a Latin puzzle (exactly one completion) was asked of something else."""


@dataclass(frozen=True)
class Reduction:
    """A partial Latin board as an exact-cover problem; option k places label `placements[k][1]` at point
    `placements[k][0]`."""

    partial: PartialBoard
    problem: ExactCoverProblem
    placements: tuple[tuple[int, Label], ...]

    def labelling(self, solution: tuple[int, ...]) -> Labelling:
        out = self.partial.labelling()
        for k in solution:
            point, label = self.placements[k]
            out[point] = label
        return out


def reduce_to_exact_cover(pb: PartialBoard, forbidden: Mapping[int, Label] | None = None) -> Reduction:
    """The exact-cover problem whose solutions are the completions of a partial Latin board (that do not
    put label `forbidden[p]` at point p)."""
    forbidden = forbidden or {}
    if not pb.is_partial_latin():
        a, label = pb.overfull()[0]
        raise ValueError(f"not a partial Latin board: asterism {a} holds label {label!r} too often")
    board, m = pb.board, pb.multiset
    n, n_labels = board.n_points, len(m.labels)
    missing = [[m.counts[j] for j in range(n_labels)] for _ in board.asterisms]
    index = {label: j for j, label in enumerate(m.labels)}
    for a, asterism in enumerate(board.asterisms):
        for p in asterism:
            if p in pb.clues:
                missing[a][index[pb.clues[p]]] -= 1
    empty = [p for p in range(n) if p not in pb.clues]
    lines = [(a, j) for a in range(len(board.asterisms)) for j in range(n_labels) if missing[a][j] > 0]
    item = {line: n + line[0] * n_labels + line[1] for line in lines}
    options, placements = [], []
    for p in empty:
        through = board.point_asterisms[p]
        for j, label in enumerate(m.labels):
            if all(missing[a][j] > 0 for a in through) and forbidden.get(p, _NOTHING) != label:
                options.append([p] + [item[(a, j)] for a in through])
                placements.append((p, label))
    bounds = {item[(a, j)]: missing[a][j] for a, j in lines if missing[a][j] > 1}
    problem = ExactCoverProblem(empty + [item[line] for line in lines], options, bounds=bounds)
    return Reduction(pb, problem, tuple(placements))


def label_group_order(m: Multiset) -> int:
    """The number of label permutations that keep every multiplicity."""
    return math.prod(math.factorial(len(group)) for group in m.by_count)


def first_asterism_arrangements(m: Multiset) -> list[list[Label]]:
    """One arrangement of the multiset per orbit under the label group: within each multiplicity class the
    labels first appear in the multiset's order.

    >>> first_asterism_arrangements(Multiset.parse("1,2,3"))
    [[1, 2, 3]]
    >>> len(first_asterism_arrangements(Multiset.parse("1^2,2^2,3^2")))  # 90 arrangements / 3!
    15
    """
    total = math.factorial(m.size)
    for c in m.counts:
        total //= math.factorial(c)
    orbits = total // label_group_order(m)  # the label group moves every arrangement (each label is in it)
    if orbits > MAX_ARRANGEMENTS:
        raise TooManyArrangementsError(
            f"the multiset {m} has {orbits:,} arrangements of an asterism up to relabelling, more than "
            f"{MAX_ARRANGEMENTS:,}: too many to split a count by"
        )
    classes: dict[int, list[Label]] = {}
    for label, c in zip(m.labels, m.counts, strict=True):
        classes.setdefault(c, []).append(label)
    left = dict(zip(m.labels, m.counts, strict=True))
    introduced = {c: 0 for c in classes}

    def choices() -> list[tuple[Label, int, bool]]:
        """(label, its multiplicity, whether it is new in its class) that may come next, in order."""
        return [
            (labels[j], c, j == introduced[c])
            for c, labels in classes.items()
            for j in range(min(introduced[c] + 1, len(labels)))
            if left[labels[j]]
        ]

    def undo(label: Label, c: int, fresh: bool) -> None:
        introduced[c] -= fresh
        left[label] += 1

    # depth-first, with an explicit stack: an asterism may hold thousands of points
    out: list[list[Label]] = []
    chosen: list[tuple[Label, int, bool]] = []
    stack, at = [choices()], [0]
    while stack:
        if at[-1] == len(stack[-1]):
            stack.pop()
            at.pop()
            if chosen:
                undo(*chosen.pop())
            continue
        label, c, fresh = stack[-1][at[-1]]
        at[-1] += 1
        left[label] -= 1
        introduced[c] += fresh
        chosen.append((label, c, fresh))
        if len(chosen) == m.size:
            out.append([x for x, _, _ in chosen])
            undo(*chosen.pop())
        else:
            stack.append(choices())
            at.append(0)
    return out


def label_permutations(m: Multiset) -> Iterator[dict[Label, Label]]:
    """Every label permutation that keeps the multiplicities, the identity first."""
    classes: dict[int, list[Label]] = {}
    for label, c in zip(m.labels, m.counts, strict=True):
        classes.setdefault(c, []).append(label)
    groups = list(classes.values())

    def extend(g: int, sigma: dict[Label, Label]) -> Iterator[dict[Label, Label]]:
        if g == len(groups):
            yield sigma
            return
        for image in itertools.permutations(groups[g]):  # lazily: a class may have 16! permutations
            yield from extend(g + 1, {**sigma, **dict(zip(groups[g], image, strict=True))})

    yield from extend(0, {})


def fixed_first_asterism(board: Board, m: Multiset) -> list[PartialBoard]:
    """The board with its first asterism in each arrangement of `first_asterism_arrangements`: their Latin
    boards and the relabellings of these are every Latin board."""
    first = board.asterisms[0]
    return [
        PartialBoard(board, m, dict(zip(first, arr, strict=True))) for arr in first_asterism_arrangements(m)
    ]


def count_completions(
    pb: PartialBoard, limit: int | None = None, settings: CountSettings = DEFAULT, **how: Any
) -> int:
    """The exact number of Latin boards completing `pb` (0 if it is not partial Latin), at most `limit`.

    `settings`, or its fields as keywords (jobs, executor, progress, memo, checkpoint), say how the engine
    runs (see `ExactCoverProblem.count`): with `checkpoint` (a file) the count records its finished parts
    there and resumes from them; `memo=False` visits every node."""
    settings = settings.updated(**how)
    if not pb.is_partial_latin():
        return 0
    if pb.clues or limit is not None:
        return reduce_to_exact_cover(pb).problem.count(limit, settings)
    parts = fixed_first_asterism(pb.board, pb.multiset)
    total = 0
    for i, part in enumerate(parts):
        scaled = settings.progress and scaled_progress(settings.progress, i, len(parts))
        total += reduce_to_exact_cover(part).problem.count(None, settings.updated(progress=scaled))
    return total * label_group_order(pb.multiset)


def completable_within(pb: PartialBoard, max_nodes: int) -> bool | None:
    """Whether `pb` has a completion, if a search of at most `max_nodes` nodes can tell (None otherwise):
    a quick answer for `info`, on boards where a full search may take long."""
    if not pb.is_partial_latin():
        return False
    search = reduce_to_exact_cover(pb).problem.search(limit=1)
    found = search.count(max_nodes=max_nodes)
    return True if found else False if search.done else None


_REDUCTIONS: dict[tuple, Reduction] = {}


def _empty_board_reduction(fixed: PartialBoard) -> Reduction:
    """The reduction of an empty board with its first asterism arranged, made once per process (a few of
    the latest kept): `generate` asks it for every puzzle."""
    key = (fixed.board.asterisms, str(fixed.multiset), tuple(sorted(fixed.clues.items())))
    if key not in _REDUCTIONS:
        if len(_REDUCTIONS) >= 8:
            _REDUCTIONS.pop(next(iter(_REDUCTIONS)))
        _REDUCTIONS[key] = reduce_to_exact_cover(fixed)
    return _REDUCTIONS[key]


def random_latin_board(pb: PartialBoard, rng: random.Random) -> Labelling | None:
    """A random completion of `pb` (None when it has none), from the engine's randomized search
    (`ExactCoverProblem.random_solution`).  An empty board first gets one arrangement of its first asterism
    per orbit of the label group (every Latin board relabels to one of them, and the search is much
    shorter), then a random relabelling."""
    fixed = pb
    if not pb.clues:  # label symmetry: one arrangement of the first asterism, relabelled at random below
        first = pb.board.asterisms[0]
        arrangement = rng.choice(first_asterism_arrangements(pb.multiset))
        fixed = pb.with_clues(dict(zip(first, arrangement, strict=True)))
    reduction = _empty_board_reduction(fixed) if not pb.clues else reduce_to_exact_cover(fixed)
    found = reduction.problem.random_solution(rng)
    if found is None:
        return None  # the whole search ran out: no completion
    labelling = reduction.labelling(found)
    if pb.clues:
        return labelling
    m = pb.multiset
    rename: dict[Label, Label] = {}
    for group in m.by_count:
        same = [m.labels[j] for j in group]
        rename.update(zip(same, rng.sample(same, len(same)), strict=True))
    return [rename[x] for x in labelling]


def estimate_completions(
    pb: PartialBoard, probes: int = 1000, seed: int | None = None, progress: Progress | None = None
) -> Estimate:
    """Knuth's estimate of the number of Latin boards completing `pb` (and of the nodes a count would visit),
    from `probes` random walks down the same search `count_completions` makes (an empty board's first
    asterism fixed, times the relabellings).  For boards too large to count: is a catalog within reach?
    `progress(probes done, fraction)` now and then."""
    if not pb.is_partial_latin():
        return Estimate(0.0, 0.0, 0.0, probes, 0)
    if pb.clues:
        problems, factor = [reduce_to_exact_cover(pb).problem], 1
    else:
        parts = fixed_first_asterism(pb.board, pb.multiset)
        problems, factor = [reduce_to_exact_cover(p).problem for p in parts], label_group_order(pb.multiset)
    samplers = [functools.partial(probe, problem) for problem in problems]
    return estimate_many(samplers, probes, seed, progress).scaled(factor)


def scaled_progress(progress: Progress, i: int, parts: int) -> Progress:
    """The progress callback of part i of `parts` equal parts of a count."""
    return lambda nodes, fraction: progress(nodes, (i + fraction) / parts)


def completions(pb: PartialBoard, limit: int | None = None) -> Iterator[Labelling]:
    """The Latin boards completing `pb`, as labellings in point order (at most `limit`, each once).

    An empty board yields labellings found with its first asterism fixed, then their images under the label
    permutations, so the first one comes fast even on large boards.
    """
    if limit == 0 or not pb.is_partial_latin():
        return
    if pb.clues:
        reduction = reduce_to_exact_cover(pb)
        for solution in reduction.problem.solutions(limit):
            yield reduction.labelling(solution)
        return
    produced = 0
    for part in fixed_first_asterism(pb.board, pb.multiset):
        reduction = reduce_to_exact_cover(part)
        for solution in reduction.problem.solutions():
            base = reduction.labelling(solution)
            for sigma in label_permutations(pb.multiset):
                yield [sigma[label] for label in base]
                produced += 1
                if produced == limit:
                    return


def is_completable(pb: PartialBoard) -> bool:
    """Def. 3.8: at least one completion."""
    return count_completions(pb, limit=1) == 1


def is_latin_puzzle(pb: PartialBoard) -> bool:
    """Def. 3.9: exactly one completion (the search stops at the second)."""
    return count_completions(pb, limit=2) == 1
