"""Generating Latin puzzles: a random Latin board, then clue removal (Algorithm 2) under constraints.

The random board is the first solution of the board's exact-cover problem with its options and items
shuffled (the search's order and its ties change, so boards differ from seed to seed), relabelled at random
within each multiplicity class.  Clues are then tried for removal in a random order; a removal is kept when
the puzzle keeps its one completion and, when asked, stays fair (solved by attrition alone — which implies
uniqueness) and within the asked rating.  Removing clues only makes a puzzle harder (the rules are
monotonic), so one greedy pass ends at a puzzle from which no clue can go without breaking a constraint.
Everything is reproducible from the seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from dlx_latin.errors import UserInputError
from dlx_latin.exact_cover import NoSolutionFoundError
from dlx_latin.latin.batch import batch_for
from dlx_latin.latin.completion import random_latin_board
from dlx_latin.latin.multiset import Label
from dlx_latin.latin.partial import PartialBoard
from dlx_latin.puzzles.attrition import Contradiction, Domains, guesses, propagate
from dlx_latin.puzzles.proof import LEVELS, Verdict, verdict

ATTEMPTS = 200  # random boards tried for one constrained puzzle before giving up
UNCONSTRAINED_TRIES = 20  # first tries: plain critical puzzles, kept when they happen to meet the constraint


class GenerationError(UserInputError):
    """No puzzle meeting the constraints was found (or the board has no Latin board at all)."""


@dataclass(frozen=True)
class Generated:
    """A generated puzzle, its solution and attrition's verdict on it (`explain` gives the proof)."""

    puzzle: PartialBoard
    solution: tuple[Label, ...]
    verdict: Verdict
    critical: bool


def _allowed(proof: Verdict, fair: bool, rating: str | None) -> bool:
    if rating is not None:
        return proof.fair and LEVELS.index(proof.rating) <= LEVELS.index(rating)
    return proof.fair or not fair


def puzzle_from_board(
    start: PartialBoard,
    solution: list[Label],
    rng: random.Random,
    fair: bool = False,
    rating: str | None = None,
) -> Generated:
    """Remove clues from the Latin board `solution` (keeping the inscription of `start`) in a random order,
    each removal kept while the puzzle stays unique (and fair, and at most `rating`).  Uniqueness is asked of
    the board's PuzzleBatch: the exact-cover problem built once, each test one kernel search."""
    batch = batch_for(start.board, start.multiset)
    current = PartialBoard(start.board, start.multiset, dict(enumerate(solution)), start.inscription)
    order = [p for p in range(start.board.n_points) if p not in start.inscription]
    rng.shuffle(order)
    constrained = fair or rating is not None
    clues = dict(current.clues)  # unconstrained removals work on the clues alone, one kernel search each
    for p in order:
        if constrained:
            trial = current.without([p])
            if _allowed(verdict(trial), fair, rating):
                current = trial
            continue
        label = clues.pop(p)
        if batch.count(clues) != 1:
            clues[p] = label
    if not constrained:
        current = PartialBoard(start.board, start.multiset, clues, start.inscription)
    critical = not constrained or all(
        batch.count(current.without([p]).clues) > 1 for p in current.clues if p not in current.inscription
    )
    return Generated(current, tuple(solution), verdict(current), critical)


def generate(
    pb: PartialBoard, seed: int | str | None = None, fair: bool = False, rating: str | None = None
) -> Generated:
    """One puzzle completing to a random Latin board of `pb`'s board (its clues are the inscription that
    always stays), unique and critical; fair, and of exactly `rating`, when asked.

    With a constraint, plain critical puzzles of fresh random boards are tried first (most 9x9 ones are
    fair); after UNCONSTRAINED_TRIES misses the removal itself keeps the constraint, which always succeeds
    for fairness but may leave a clue that only fairness needs (`critical` is then False)."""
    if rating is not None and rating not in LEVELS:
        raise GenerationError(f"unknown rating {rating!r}; choose one of: {', '.join(LEVELS)}")
    rng = random.Random(seed)
    start = PartialBoard(pb.board, pb.multiset, pb.clues, set(pb.inscription) | set(pb.clues))
    constrained = fair or rating is not None
    for attempt in range(ATTEMPTS if constrained else 1):
        try:
            solution = random_latin_board(start, rng)
        except NoSolutionFoundError as e:
            raise GenerationError(f"{pb.board.name}: {e}") from None
        if solution is None:
            raise GenerationError(
                f"{pb.board.name} with these clues has no Latin board to make a puzzle from"
            )
        keep = constrained and attempt >= UNCONSTRAINED_TRIES
        made = puzzle_from_board(start, solution, rng, fair and keep, rating if keep else None)
        if not constrained or (made.verdict.fair and rating in (None, made.verdict.rating)):
            return made
    raise GenerationError(f"no puzzle rated {rating!r} found in {ATTEMPTS} random boards of {pb.board.name}")


@dataclass(frozen=True)
class SinglePass:
    """A puzzle read off the enumeration: the clues plus the guesses leading to a node of the search tree
    with exactly one Latin board below it; fair when attrition alone finished that node."""

    puzzle: PartialBoard
    fair: bool


def single_pass_puzzles(pb: PartialBoard, boards: int | None = None) -> Iterator[SinglePass]:
    """Single-pass puzzles (§5.3.1): enumerate the Latin boards completing `pb` by optimized attrition
    (propagation, then guesses on a smallest domain), tagging every guess; a guess whose subtree holds
    exactly one Latin board, under a node holding several, gives a puzzle: the clues of `pb` plus the
    guesses on the way there.  Stops after `boards` Latin boards (None: all of them)."""
    seen = [0]

    def explore(d: Domains, guessed: dict[int, Label]) -> tuple[int, bool, bool, list[SinglePass]]:
        """(boards found below, whether attrition alone solved this node, whether the whole subtree was
        explored, puzzles found below)."""
        try:
            propagate(d)
        except Contradiction:
            return 0, False, True, []
        if d.solved():
            seen[0] += 1
            return 1, True, True, []
        total, complete, below, found = 0, True, [], []
        for p, j, child in guesses(d):
            if boards is not None and seen[0] >= boards:
                complete = False
                break
            tagged = {**guessed, p: d.labels[j]}
            count, direct, whole, puzzles = explore(child, tagged)
            total += count
            complete &= whole
            found += puzzles
            below.append((count, direct, whole, tagged))
        if total >= 2:
            for count, direct, whole, tagged in below:
                if count == 1 and whole:
                    found.append(SinglePass(pb.with_clues(tagged), direct))
        return total, False, complete, found

    if not pb.is_partial_latin():
        return
    count, direct, whole, puzzles = explore(Domains.of(pb), {})
    if count == 1 and whole:
        puzzles.append(SinglePass(pb, direct))
    yield from puzzles
