"""Proofs by attrition, fairness and difficulty ratings of Latin puzzles.

A puzzle is *fair* when the monotonic rules of `attrition` alone solve it (Theorem 5.9): then any player
using sound monotonic reasoning in any order can finish without guessing.  Its rating comes from the proof:
the hardest rule the cheapest-first schedule needed, and how many steps needed more than the basics --
both fixed by the puzzle alone, since every sweep applies all it finds (`attrition.SCHEDULE`).
"""

from __future__ import annotations

from dataclasses import dataclass

from dlx_latin.boards import Board
from dlx_latin.latin.batch import MAX_LABELS, batch_for
from dlx_latin.latin.partial import PartialBoard
from dlx_latin.puzzles.attrition import (
    CHEAP,
    SCHEDULE,
    Contradiction,
    Domains,
    Step,
    propagate,
    sweep,
    weight,
)

LEVELS = ("very easy", "easy", "medium", "difficult", "very difficult")
RULES_VERSION = 2
"""The version of attrition's schedule and weights behind a rating: stored ratings made under another one
(1: a sweep stopped at the first asterism or pair it found something in) are re-derived, never trusted."""


@dataclass(frozen=True)
class Explanation:
    """The attrition proof of a partial board: its steps, whether they solve it, and its rating."""

    steps: tuple[Step, ...]
    solved: bool
    contradiction: str | None
    labelling: tuple

    @property
    def fair(self) -> bool:
        return self.solved

    @property
    def hardest(self) -> int:
        return max((weight(s) for s in self.steps), default=0)

    @property
    def score(self) -> int:
        """A fair puzzle scores 100 times its hardest rule's weight plus its steps beyond saturation and
        singles (under 1000); one that attrition cannot finish scores 1000 plus the points left empty."""
        if not self.solved:
            return 1000 + sum(x is None for x in self.labelling)
        return 100 * self.hardest + sum(weight(s) > 1 for s in self.steps)

    @property
    def rating(self) -> str | None:
        """very easy (singles) ... very difficult (full asterism consistency); None when not fair."""
        return rating_of(self.hardest) if self.solved else None

    @property
    def verdict(self) -> Verdict:
        return Verdict(self.fair, self.rating, self.score)


def rating_of(hardest: int) -> str:
    """The level of a fair puzzle whose proof's hardest rule weighs `hardest`."""
    h = hardest
    return LEVELS[0 if h <= 1 else 1 if h == 2 else 2 if h == 3 else 3 if h <= 5 else 4]


@dataclass(frozen=True)
class Verdict:
    """What attrition says of a puzzle without the proof: fair, rating and score as `Explanation` has them."""

    fair: bool
    rating: str | None
    score: int


def explain(pb: PartialBoard) -> Explanation:
    """Propagate the puzzle's clues with every rule to a fixpoint, keeping the proof."""
    try:
        d = Domains.of(pb)
    except Contradiction as e:
        return Explanation((), False, str(e), tuple(pb.labelling()))
    steps: list[Step] = []
    try:
        steps = propagate(d, log=steps)
    except Contradiction as e:
        return Explanation(tuple(steps), False, str(e), tuple(d.labelling()))
    return Explanation(tuple(steps), d.solved(), None, tuple(d.labelling()))


def verdict(pb: PartialBoard) -> Verdict:
    """explain(pb)'s fair, rating and score, sooner: the cheap rules (saturation, singles, forced) run in C
    (`BitBoard.cheap_rules`), in the same order and sweeps, so the proof has the same steps of each weight;
    the other rules run here.  At a contradiction -- an uncompletable puzzle -- explain itself answers."""
    if len(pb.multiset.labels) > MAX_LABELS:  # no BitBoard: its batch would be an exact-cover reduction
        return explain(pb).verdict
    bits = batch_for(pb.board, pb.multiset).bits
    try:
        d = Domains.of(pb)
    except Contradiction:
        bits = None
    hardest = heavy = 0  # the heaviest step so far, and the steps weighing more than 1
    while bits is not None:
        found = bits.cheap_rules(d.domain, [-1 if v is None else v for v in d.value])
        if found is None:
            break
        domain, value, forced, changed = found
        if changed:
            d.assume(domain, value)
            hardest, heavy = max(hardest, 2 if forced else 1), heavy + forced
        if d.solved():
            return Verdict(True, rating_of(hardest), 100 * hardest + heavy)
        try:
            steps = sweep(d, SCHEDULE[CHEAP:])
            d.apply_all(steps)
        except Contradiction:
            break
        if not steps:
            return Verdict(False, None, 1000 + sum(v is None for v in d.value))
        hardest, heavy = max(hardest, *map(weight, steps)), heavy + sum(weight(s) > 1 for s in steps)
    return explain(pb).verdict


def point_name(board: Board, p: int) -> str:
    """r3c5 on square grids (1-based), p17 otherwise."""
    if board.shape:
        return f"r{p // board.shape[1] + 1}c{p % board.shape[1] + 1}"
    return f"p{p}"


def asterism_name(board: Board, a: int) -> str:
    """row 3 / column 5 on square grids when the asterism is one, otherwise `asterism 12`."""
    points = board.asterisms[a]
    if board.shape:
        cols = board.shape[1]
        if len({p // cols for p in points}) == 1:
            return f"row {points[0] // cols + 1}"
        if len({p % cols for p in points}) == 1:
            return f"column {points[0] % cols + 1}"
    return f"asterism {a}"


def describe(step: Step, board: Board) -> str:
    """One readable line for a step."""
    where = ", ".join(asterism_name(board, a) for a in step.asterisms)
    placed = ", ".join(f"{point_name(board, p)} = {label}" for p, label in step.placed)
    removed = ", ".join(f"{label} from {point_name(board, p)}" for p, label in step.removed)
    text = step.rule + (f" in {where}" if where else "")
    if step.rule == "intersection" and step.points:
        text += f" (the copies fall in {' '.join(point_name(board, p) for p in step.points)})"
    return (
        text
        + ": "
        + "; ".join(
            x for x in (f"place {placed}" if placed else "", f"remove {removed}" if removed else "") if x
        )
    )


def step_json(step: Step) -> dict:
    return {
        "rule": step.rule,
        "asterisms": list(step.asterisms),
        "points": list(step.points),
        "placed": [[p, label] for p, label in step.placed],
        "removed": [[p, label] for p, label in step.removed],
    }
