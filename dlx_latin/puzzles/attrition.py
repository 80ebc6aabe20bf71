"""Attrition (Palomo §5.2): shrinking the domains of a partial Latin board by theorems, with a proof.

A *domain* of an empty point is a set of labels holding every label the point has in any completion
(Def. 5.2).  Each rule below is an attrition theorem for boards with any asterisms and repeated labels: it
only removes labels no completion can have (sound), and it removes at least as much from smaller domains
(monotonic, Def. 5.8), so a puzzle the rules solve is *fair* (Theorem 5.9): every player who applies sound
monotonic rules in any order can still finish it without guessing.

The rules are grouped by weight (`SCHEDULE`).  A *sweep* finds every step of the cheapest group that has
any, all on the same state, and applies them together (all or none); then the schedule starts again from the
cheapest group, until nothing applies (a fixpoint) or the board is solved.  What a sweep finds is a set fixed
by the state alone, so the proof -- its steps of each weight, hence the rating -- never depends on how the
points, asterisms or labels are numbered: a puzzle transposed or renumbered rates the same.  Every deduction
is logged as a `Step` (rule, asterisms, points, labels placed and removed), which is the proof.

Notation: need(A, l) is how many more copies of label l asterism A must receive; the candidates of l in A
are A's empty points whose domain holds l.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from dlx_latin.latin.multiset import Label
from dlx_latin.latin.partial import PartialBoard

MAX_SUBSET = 4  # naked and hidden subsets are looked for up to this size


class Contradiction(Exception):
    """The domains admit no completion: the partial board was not completable (or a guess was wrong)."""


@dataclass(frozen=True)
class Step:
    """One deduction: a rule applied to some asterisms and points, placing and removing labels."""

    rule: str
    asterisms: tuple[int, ...]
    points: tuple[int, ...]
    placed: tuple[tuple[int, Label], ...] = ()
    removed: tuple[tuple[int, Label], ...] = ()


Rule = Callable[["Domains"], list[Step]]
"""A rule: every step it finds on a state of the domains."""


@dataclass
class Domains:
    """The domains of a partial Latin board: one bitmask of label indices per point (clues are singletons)
    and the copies each asterism still needs of each label."""

    pb: PartialBoard
    domain: list[int] = field(default_factory=list)
    value: list[int | None] = field(default_factory=list)
    need: list[list[int]] = field(default_factory=list)
    full: list[int] = field(default_factory=list)  # per asterism, the labels it needs no more of (a mask)
    pending: set[int] = field(default_factory=set)  # asterisms whose empty points may still hold a full label

    @classmethod
    def of(cls, pb: PartialBoard) -> Domains:
        """Every label at every empty point, the clues placed; Contradiction if `pb` is not partial Latin."""
        m, board = pb.multiset, pb.board
        k = len(m.labels)
        state = cls(pb, [(1 << k) - 1] * board.n_points, [None] * board.n_points)
        state.need = [list(m.counts) for _ in board.asterisms]
        state.full = [0] * len(board.asterisms)
        index = {label: j for j, label in enumerate(m.labels)}
        for p, label in pb.clues.items():
            state.place(p, index[label])
        return state

    def assume(self, domain: list[int], value: list[int]) -> None:
        """Take the domains and values (label indices, -1 empty) of a fixpoint of saturation reached
        elsewhere (`BitBoard.cheap_rules`): the needs follow from the values, nothing is left to saturate."""
        self.domain, self.value = domain, [None if v < 0 else v for v in value]
        counts, asterisms = self.pb.multiset.counts, self.pb.board.asterisms
        self.need = [list(counts) for _ in asterisms]
        for a, points in enumerate(asterisms):
            need = self.need[a]
            for p in points:
                if value[p] >= 0:
                    need[value[p]] -= 1
            self.full[a] = sum(1 << j for j, n in enumerate(need) if n == 0)
        self.pending = set()

    def copy(self) -> Domains:
        need = [list(n) for n in self.need]
        return Domains(self.pb, list(self.domain), list(self.value), need, list(self.full), set(self.pending))

    @property
    def labels(self) -> tuple[Label, ...]:
        return self.pb.multiset.labels

    def place(self, p: int, j: int) -> None:
        if not self.domain[p] >> j & 1:
            raise Contradiction(f"label {self.labels[j]!r} is no longer possible at point {p}")
        self.value[p] = j
        self.domain[p] = 1 << j
        for a in self.pb.board.point_asterisms[p]:
            self.need[a][j] -= 1
            if self.need[a][j] == 0:
                self.full[a] |= 1 << j
                self.pending.add(a)
            if self.need[a][j] < 0:
                raise Contradiction(f"asterism {a} would hold label {self.labels[j]!r} too often")

    def remove(self, p: int, j: int) -> None:
        self.domain[p] &= ~(1 << j)
        if not self.domain[p]:
            raise Contradiction(f"point {p} has no label left")

    def empty(self, a: int) -> list[int]:
        """The empty points of asterism a."""
        return [p for p in self.pb.board.asterisms[a] if self.value[p] is None]

    def candidates(self, a: int, j: int) -> list[int]:
        return [p for p in self.pb.board.asterisms[a] if self.value[p] is None and self.domain[p] >> j & 1]

    def solved(self) -> bool:
        return all(v is not None for v in self.value)

    def labelling(self) -> list[Label | None]:
        return [None if v is None else self.labels[v] for v in self.value]

    def apply(self, step: Step) -> None:
        index = {label: j for j, label in enumerate(self.labels)}
        for p, label in step.removed:
            self.remove(p, index[label])
        for p, label in step.placed:
            if self.value[p] is None:
                self.place(p, index[label])
            elif self.value[p] != index[label]:
                raise Contradiction(
                    f"point {p} cannot take both {self.labels[self.value[p]]!r} and {label!r}"
                )

    def apply_all(self, steps: list[Step]) -> None:
        """Apply one sweep's steps, all or none: at a Contradiction the domains stay as they were before the
        sweep, so where attrition stops never depends on the order the steps are listed in."""
        trial = self.copy()
        for step in steps:
            trial.apply(step)
        self.domain, self.value, self.need = trial.domain, trial.value, trial.need
        self.full, self.pending = trial.full, trial.pending


def bits(mask: int) -> Iterator[int]:
    """The set bits of a mask (label indices of a domain, points of a point set), lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# ---- the rules: each returns every step it finds on the current state (empty when it does not apply) ---


def saturation(d: Domains) -> list[Step]:
    """An asterism holding label l as often as the multiset says (need 0) leaves l out of the domains of its
    other points: any completion would put a surplus copy there."""
    steps = []
    asterisms, value, domain = d.pb.board.asterisms, d.value, d.domain
    for a in sorted(d.pending):
        empty = [p for p in asterisms[a] if value[p] is None]
        left = 0  # the labels some empty point of the asterism can still take
        for p in empty:
            left |= domain[p]
        if not left & d.full[a]:
            d.pending.discard(a)  # nothing to remove here until the asterism uses up another label
            continue
        for j in bits(left & d.full[a]):
            hit = [p for p in empty if domain[p] >> j & 1]
            removed = tuple((p, d.labels[j]) for p in hit)
            steps.append(Step("saturation", (a,), tuple(hit), removed=removed))
    return steps


def single(d: Domains) -> list[Step]:
    """A point whose domain has one label takes it (every completion gives it that label)."""
    return [
        Step("single", (), (p,), placed=((p, d.labels[d.domain[p].bit_length() - 1]),))
        for p, v in enumerate(d.value)
        if v is None and d.domain[p] & (d.domain[p] - 1) == 0
    ]


def forced(d: Domains) -> list[Step]:
    """When an asterism needs c more copies of l and exactly c of its points can still take l, each of
    them takes l (a hidden single when c = 1); fewer than c is a contradiction."""
    steps = []
    asterisms, value, domain = d.pb.board.asterisms, d.value, d.domain
    for a in range(len(asterisms)):
        empty = None
        for j, need in enumerate(d.need[a]):
            if need > 0:
                if empty is None:
                    empty = [p for p in asterisms[a] if value[p] is None]
                cand = [p for p in empty if domain[p] >> j & 1]
                if len(cand) < need:
                    raise Contradiction(
                        f"asterism {a} needs {need} of label {d.labels[j]!r}, {len(cand)} can"
                    )
                if len(cand) == need:
                    steps.append(
                        Step("forced", (a,), tuple(cand), placed=tuple((p, d.labels[j]) for p in cand))
                    )
    return steps


def intersection(d: Domains) -> list[Step]:
    """Pointing and claiming with multiplicities.  Let I be the points two asterisms A and B share.  At
    least need(A, l) - |candidates of l in A outside I| copies of l must fall in I; when that is need(B, l),
    B gets all its remaining copies of l inside I, so l leaves B's points outside I."""
    asterisms, value, domain, need = d.pb.board.asterisms, d.value, d.domain, d.need
    where: dict[int, list[int]] = {}  # per asterism, per label: its empty points that can take it (a mask)

    def candidates(a: int) -> list[int]:
        if a not in where:
            masks = [0] * len(d.labels)
            for p in asterisms[a]:
                if value[p] is None:
                    for j in bits(domain[p]):
                        masks[j] |= 1 << p
            where[a] = masks
        return where[a]

    def listed(a: int, mask: int) -> list[int]:  # the points of a mask, in the asterism's order
        return [p for p in asterisms[a] if mask >> p & 1]

    steps = []
    for a, b, shared in _overlapping_pairs(asterisms):
        inner = _mask(shared)
        for x, y in ((a, b), (b, a)):
            for j in range(len(d.labels)):
                need_y = need[y][j]
                if need[x][j] <= 0 or need_y <= 0:
                    continue
                in_x = candidates(x)[j]
                if need[x][j] - (in_x & ~inner).bit_count() < need_y:
                    continue
                hit = candidates(y)[j] & ~inner
                if hit:
                    inside = tuple(listed(x, in_x & inner))
                    removed = tuple((p, d.labels[j]) for p in listed(y, hit))
                    steps.append(Step("intersection", (x, y), inside, removed=removed))
    return steps


def naked_subset(size: int) -> Rule:
    """If `size` empty points of an asterism can only take labels whose remaining needs in it add up to
    `size`, those points use up every remaining copy of those labels: the other points of the asterism lose
    them."""

    def rule(d: Domains) -> list[Step]:
        steps = []
        for a in range(len(d.pb.board.asterisms)):
            empty = d.empty(a)
            if size > len(empty) - 1:
                continue
            short = ~d.full[a]  # the labels the asterism still needs (each at least once)
            for subset in itertools.combinations(empty, size):
                union = 0
                for p in subset:
                    union |= d.domain[p]
                if (union & short).bit_count() > size:  # the needs alone already add up to more
                    continue
                if sum(d.need[a][j] for j in bits(union)) != size:
                    continue
                hit = [(p, d.labels[j]) for p in empty if p not in subset for j in bits(d.domain[p] & union)]
                if hit:
                    steps.append(Step(f"naked subset ({size})", (a,), subset, removed=tuple(hit)))
        return steps

    rule.__name__ = f"naked_subset_{size}"
    return rule


def hidden_subset(size: int) -> Rule:
    """If the remaining copies of `size` labels in an asterism add up to s and only s of its points can take
    any of them, those points take only those labels."""

    def rule(d: Domains) -> list[Step]:
        steps = []
        for a in range(len(d.pb.board.asterisms)):
            wanted = [j for j, need in enumerate(d.need[a]) if need > 0]
            if size > len(wanted) - 1:
                continue
            empty = d.empty(a)
            for labels in itertools.combinations(wanted, size):
                mask = sum(1 << j for j in labels)
                points = [p for p in empty if d.domain[p] & mask]
                if len(points) != sum(d.need[a][j] for j in labels):
                    continue
                hit = [(p, d.labels[j]) for p in points for j in bits(d.domain[p] & ~mask)]
                if hit:
                    steps.append(Step(f"hidden subset ({size})", (a,), tuple(points), removed=tuple(hit)))
        return steps

    rule.__name__ = f"hidden_subset_{size}"
    return rule


def cardinality(d: Domains) -> list[Step]:
    """Full consistency of one asterism (a global cardinality constraint): l stays at point p only if the
    asterism's empty points can all get labels from their domains, each label exactly as often as still
    needed, with l at p.  Checked by bipartite matching with capacities (augmenting paths)."""
    steps = []
    for a in range(len(d.pb.board.asterisms)):
        domains = {p: d.domain[p] for p in d.empty(a)}
        if not domains:
            continue
        base = assignment(d.need[a], domains)
        if base is None:
            raise Contradiction(f"the domains of asterism {a} admit no assignment")
        reach = _alternating_reach(base, domains, len(d.need[a]))
        hit = [(p, d.labels[j]) for p, mask in domains.items() for j in bits(mask) if p not in reach[j]]
        if hit:
            steps.append(Step("cardinality", (a,), tuple(domains), removed=tuple(hit)))
    return steps


def _alternating_reach(base: dict[int, int], domains: dict[int, int], labels: int) -> list[set[int]]:
    """For each label j, the points an alternating path from j reaches in the assignment `base` (j to a
    point holding j, a point to another label of its domain).  Every copy of every label is used, so p can
    take j in some assignment exactly when j reaches p: p -> j closes an alternating cycle, along which each
    point takes the next label.  A point reaches itself through its own label."""
    holders: list[list[int]] = [[] for _ in range(labels)]
    for p, j in base.items():
        holders[j].append(p)
    reach = []
    for j in range(labels):
        seen_labels, seen_points, todo = {j}, set(), [j]
        while todo:
            for q in holders[todo.pop()]:
                if q not in seen_points:
                    seen_points.add(q)
                    for k in bits(domains[q]):
                        if k not in seen_labels:
                            seen_labels.add(k)
                            todo.append(k)
        reach.append(seen_points)
    return reach


def assignment(need: list[int], domains: dict[int, int]) -> dict[int, int] | None:
    """A label index for every point from its domain (a bitmask) with label j used exactly need[j] times,
    or None when there is none.  Kuhn's augmenting paths, labels with capacities."""
    if sum(need) != len(domains):
        return None
    holders: list[list[int]] = [[] for _ in need]
    label_of: dict[int, int] = {}

    def augment(p: int, seen: set[int]) -> bool:
        for j in bits(domains[p]):
            if j in seen:
                continue
            seen.add(j)
            if len(holders[j]) < need[j]:
                holders[j].append(p)
                label_of[p] = j
                return True
            for q in list(holders[j]):
                if augment(q, seen):  # q moved to another label
                    holders[j].remove(q)
                    holders[j].append(p)
                    label_of[p] = j
                    return True
        return False

    for p in domains:
        if not augment(p, set()):
            return None
    return label_of


@functools.lru_cache(maxsize=1024)
def _mask(points: frozenset[int]) -> int:
    """The points as a bitmask."""
    return sum(1 << p for p in points)


@functools.lru_cache(maxsize=64)
def _overlapping_pairs(asterisms: tuple[tuple[int, ...], ...]) -> list[tuple[int, int, frozenset[int]]]:
    """The pairs of asterisms sharing at least two points (where intersections can say something), with
    the points they share; computed once per board."""
    pairs = []
    for a, b in itertools.combinations(range(len(asterisms)), 2):
        shared = frozenset(asterisms[a]) & frozenset(asterisms[b])
        if len(shared) >= 2:
            pairs.append((a, b, shared))
    return pairs


SCHEDULE: list[tuple[int, list[Rule]]] = [
    (1, [saturation, single]),
    (2, [forced]),
    (3, [intersection]),
    (4, [naked_subset(2)]),
    (5, [naked_subset(3), hidden_subset(2)]),
    (6, [naked_subset(4), hidden_subset(3)]),
    (7, [hidden_subset(4), cardinality]),
]
"""The rules by weight, cheapest first: a sweep applies every step of the cheapest group that has any.
Subsets weigh more as they grow (`MAX_SUBSET` is the largest); cardinality subsumes them all."""
CHEAP = 2  # SCHEDULE[:CHEAP] are the groups `BitBoard.cheap_rules` also runs, in C, by the same sweeps
WEIGHT = {
    "saturation": 1,
    "single": 1,
    "forced": 2,
    "intersection": 3,
    **{f"naked subset ({size})": 2 + size for size in range(2, MAX_SUBSET + 1)},
    **{f"hidden subset ({size})": 3 + size for size in range(2, MAX_SUBSET + 1)},
    "cardinality": 7,
}
"""The difficulty weight of each rule's steps: the weight of the group `SCHEDULE` runs it in."""


def weight(step: Step) -> int:
    """The difficulty weight of a step's rule."""
    return WEIGHT[step.rule]


def sweep(d: Domains, schedule: list[tuple[int, list[Rule]]] = SCHEDULE) -> list[Step]:
    """Every step of the cheapest group of `schedule` that finds any on the current state (all found before
    any is applied); [] at a fixpoint."""
    for _, rules in schedule:
        steps = [step for rule in rules for step in rule(d)]
        if steps:
            return steps
    return []


def propagate(
    d: Domains, log: list[Step] | None = None, schedule: list[tuple[int, list[Rule]]] = SCHEDULE
) -> list[Step]:
    """Sweep to a fixpoint; the steps taken, in order (the proof), appended to `log` when given (so they
    survive a Contradiction, which is raised when no completion is left; the failing sweep is not applied)."""
    proof: list[Step] = [] if log is None else log
    while not d.solved():
        steps = sweep(d, schedule)
        if not steps:
            break
        d.apply_all(steps)
        proof.extend(steps)
    return proof


def solve(pb: PartialBoard, limit: int | None = None) -> Iterator[list[Label]]:
    """The completions of a partial Latin board by optimized attrition (§5.2.8): propagation to a fixpoint,
    then a guess on a point with the smallest domain, propagation again, and state restored on
    backtracking (each guess works on a copy of the domains).  An independent second solver: its
    completions must equal the exact-cover engine's."""
    try:
        start = Domains.of(pb)
    except Contradiction:
        return
    found = 0
    stack = [start]
    while stack:
        d = stack.pop()
        try:
            propagate(d)
        except Contradiction:
            continue
        if d.solved():
            yield d.labelling()
            found += 1
            if limit is not None and found >= limit:
                return
            continue
        stack += reversed([child for _, _, child in guesses(d)])


def guesses(d: Domains) -> Iterator[tuple[int, int, Domains]]:
    """The branches of a search step: a point with the smallest domain, and for each label of it (point,
    label index, a copy of the domains with that label placed), guesses that contradict at once left out."""
    p = min((q for q, v in enumerate(d.value) if v is None), key=lambda q: d.domain[q].bit_count())
    for j in bits(d.domain[p]):
        child = d.copy()
        try:
            child.place(p, j)
        except Contradiction:
            continue
        yield p, j, child
