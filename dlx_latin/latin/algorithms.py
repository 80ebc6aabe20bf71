"""Palomo's Algorithms 1-3 (Latin Puzzles, section 5.1), and a fast path to one critical puzzle.

Removing clues can only add completions, so a clue that cannot be removed from a puzzle cannot be removed
from any puzzle with fewer clues either: one greedy pass over the clues (Algorithm 2's recursion) ends at a
critical puzzle.  Each step knows the solution S, so "is the puzzle without clue p still unique?" is asked
as "has it no completion with a label other than S[p] at p?" -- one search for a single solution in a
smaller space, instead of a search for two.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from dlx_latin.latin.completion import (
    Labelling,
    NotUniqueError,
    completions,
    is_latin_puzzle,
    reduce_to_exact_cover,
)
from dlx_latin.latin.partial import PartialBoard


def list_latin_boards(pb: PartialBoard, limit: int | None = None) -> list[Labelling]:
    """Algorithm 1: the Latin boards completing `pb` (at most `limit`); [] when it is not partial Latin."""
    return list(completions(pb, limit))


def _removal_order(pb: PartialBoard, order: Sequence[int] | None, seed: int | None) -> list[int]:
    if order is None:
        order = sorted(pb.clues)
        if seed is not None:
            random.Random(seed).shuffle(order)
    return [p for p in order if p in pb.clues and p not in pb.inscription]


def _require_puzzle(pb: PartialBoard) -> None:
    if not is_latin_puzzle(pb):
        raise NotUniqueError(
            "clue removal starts from a Latin board or a Latin puzzle (exactly one completion)"
        )


def still_unique_without(current: PartialBoard, p: int, solution_label: object) -> bool:
    """Whether `current` minus clue p keeps its one completion (the one with `solution_label` at p)."""
    trial = current.without([p])
    return reduce_to_exact_cover(trial, forbidden={p: solution_label}).problem.count(limit=1) == 0


def _removals(lb: PartialBoard, order: Sequence[int] | None, seed: int | None) -> Iterator[PartialBoard]:
    """The puzzles of the greedy pass: each removal that keeps the completion unique, in turn."""
    _require_puzzle(lb)
    solution = next(completions(lb))
    current = lb
    for p in _removal_order(lb, order, seed):
        if still_unique_without(current, p, solution[p]):
            current = current.without([p])
            yield current


def puzzles_from_latin_board(
    lb: PartialBoard, order: Sequence[int] | None = None, seed: int | None = None
) -> list[PartialBoard]:
    """Algorithm 2: remove clues one at a time (in `order`, or shuffled by `seed`), keeping each removal that
    leaves the completion unique; returns every puzzle met, each with one clue fewer, the last one critical.

    >>> from dlx_latin.boards import board_from_spec
    >>> lb = PartialBoard(board_from_spec("latin:3"), clues=dict(enumerate([1, 2, 3, 2, 3, 1, 3, 1, 2])))
    >>> [len(p.clues) for p in puzzles_from_latin_board(lb)]
    [8, 7, 6, 5, 4, 3]
    """
    return list(_removals(lb, order, seed))


def critical_puzzle(
    lb: PartialBoard, order: Sequence[int] | None = None, seed: int | None = None
) -> PartialBoard:
    """One critical puzzle with the same solution as `lb`: the end of Algorithm 2's pass, without keeping
    the puzzles on the way."""
    current = lb
    for current in _removals(lb, order, seed):  # noqa: B007 - the last one is the answer
        pass
    return current


def puzzles_from_partial_board(
    pb: PartialBoard, limit: int | None = None, seed: int | None = None
) -> list[PartialBoard]:
    """Algorithm 3: for each of up to `limit` Latin boards completing `pb`, the puzzles of Algorithm 2.

    The clues of `pb` in its inscription stay; the others may be removed like any label of the board.
    """
    out: list[PartialBoard] = []
    for labelling in list_latin_boards(pb, limit):
        lb = PartialBoard(pb.board, pb.multiset, dict(enumerate(labelling)), pb.inscription)
        out += puzzles_from_latin_board(lb, seed=seed)
    return out
