"""Collections of puzzles of one board, at C speed: the board's engine is made once, and each puzzle is its
clues placed and searched for at most `cap` solutions -- no Python object per node, no re-validation or
symmetry work per puzzle.

The engine is a BitBoard (dlx_latin/latin/_bitboard.c: attrition by naked and hidden singles on label
bitsets, repeated labels included) for multisets of at most 64 distinct labels; past that, the kernel's
batch on the board's exact-cover problem (`Search.batch`: the clues' options chosen first, then undone),
or for repeated labels `count_completions` one puzzle at a time, with the same answers.
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TypeVar

from dlx_latin.boards.board import Board, per_board
from dlx_latin.errors import UserInputError
from dlx_latin.latin._bitboard import MAX_LABELS, BitBoard
from dlx_latin.latin.completion import (
    Labelling,
    NotUniqueError,
    completions,
    count_completions,
    reduce_to_exact_cover,
)
from dlx_latin.latin.grid import EMPTY, label_char, label_chars, parse_grid
from dlx_latin.latin.multiset import Label, Multiset
from dlx_latin.latin.partial import PartialBoard
from dlx_latin.workers import ordered_map

CHUNK = 2048  # puzzles handed to the kernel in one call
TASK = 128  # puzzles handed to a worker process in one task: slow boards' small collections spread too
T = TypeVar("T")


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Lists of `size` items (the last one shorter), read lazily."""
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


class Answer:
    """What the engine says of one puzzle: its solutions, counted up to the cap, the first of them (a
    labelling in point order) and the puzzle's clues.  A grid line's answer keeps the texts the kernel read
    and wrote, and makes the labelling and clues only when asked (`solution_text` costs nothing then)."""

    __slots__ = ("solutions", "_solution", "_clues", "_texts", "_by_char")

    def __init__(
        self, solutions: int, solution: Labelling | None = None, clues: Mapping[int, Label] | None = None
    ) -> None:
        self.solutions, self._solution, self._clues = solutions, solution, clues
        self._texts: tuple[str, str | None] | None = None
        self._by_char: Mapping[str, Label] = {}

    @classmethod
    def of_text(cls, solutions: int, puzzle: str, solved: str | None, by_char: Mapping[str, Label]) -> Answer:
        """The answer to a grid line: the line and its first solution as grid strings."""
        answer = cls.__new__(cls)  # no __init__: a collection makes one per line
        answer.solutions, answer._solution, answer._clues = solutions, None, None
        answer._texts, answer._by_char = (puzzle, solved), by_char
        return answer

    @property
    def solution(self) -> Labelling | None:
        if self._solution is None and self._texts is not None and self._texts[1] is not None:
            self._solution = [self._by_char[c] for c in self._texts[1]]
        return self._solution

    @property
    def clues(self) -> Mapping[int, Label]:
        if self._clues is None:
            cells = (c for c in self._texts[0] if not c.isspace()) if self._texts else ()
            self._clues = {
                p: self._by_char[c] for p, c in enumerate(cells) if c in self._by_char and c not in EMPTY
            }
        return self._clues

    @property
    def solution_text(self) -> str | None:
        """The first solution as a grid string (None when there is none)."""
        if self._texts is not None:
            return self._texts[1]
        return None if self.solution is None else "".join(map(label_char, self.solution))

    def __repr__(self) -> str:
        return f"Answer(solutions={self.solutions}, solution={self.solution!r}, clues={dict(self.clues)!r})"


@dataclass(frozen=True)
class BadLine:
    """A line of a collection that is not a puzzle of the board, with why."""

    line: int
    message: str


class PuzzleBatch:
    """Puzzles of one board and multiset (clue dicts point -> label, or grid strings), counted and solved
    with the board's engine made once: a BitBoard (attrition by singles on label bitsets, in C) when the
    multiset has at most 64 distinct labels, else the kernel's batch on the board's exact-cover problem.

    >>> from dlx_latin.boards import board_from_spec
    >>> batch = PuzzleBatch(board_from_spec("latin:3"))
    >>> batch.count("1...2...3"), batch.count("........."), batch.count("11.......")
    (1, 2, 0)
    >>> batch.solve({0: 1, 4: 2, 8: 3})
    [1, 3, 2, 3, 2, 1, 2, 1, 3]
    """

    def __init__(self, board: Board, multiset: Multiset | None = None) -> None:
        self.empty = PartialBoard(board, multiset)
        self.board, self.multiset = board, self.empty.multiset
        self.index = {label: v for v, label in enumerate(self.multiset.labels)}
        self.bits = self.reduction = self.search = None
        if len(self.index) <= MAX_LABELS:
            self.bits = BitBoard(
                board.n_points, [list(a) for a in board.asterisms], list(self.multiset.counts)
            )
        else:
            self.reduction = reduce_to_exact_cover(self.empty)
            self.option = {placement: k for k, placement in enumerate(self.reduction.placements)}
            self.search = None if self.reduction.problem.bounds else self.reduction.problem.search()
        self.by_char, self.text_tables = self._text_tables()

    def _text_tables(self) -> tuple[dict[str, Label], tuple[array, bytes] | None]:
        """The labels by their grid character, and the BitBoard's tables for reading and writing grid lines
        (`BitBoard.solve_text`): what each ASCII character means and the character of each label.  No tables
        when a label has no ASCII character."""
        by_char = label_chars(self.multiset)
        if self.bits is None or len(by_char) != len(self.index) or not all(c.isascii() for c in by_char):
            return by_char, None
        symbols = array("i", [-2] * 128)
        for c, label in by_char.items():
            symbols[ord(c)] = self.index[label]
        for c in EMPTY if "0" in by_char else EMPTY + "0":  # as parse_grid reads them
            symbols[ord(c)] = -1
        spell = "".join(label_char(label) for label in self.multiset.labels).encode("ascii")
        return by_char, (symbols, spell)

    def clues(self, puzzle: Mapping[int, Label] | str) -> dict[int, Label]:
        """A puzzle's clues, from a grid string (GridStringError when it does not fit) or a clue dict."""
        if isinstance(puzzle, str):
            return parse_grid(puzzle, self.board.n_points, self.multiset)
        return PartialBoard(self.board, self.multiset, dict(puzzle)).clues  # names the wrong point or label

    def answers(self, puzzles: Iterable[Mapping[int, Label] | str], cap: int = 2) -> Iterator[Answer]:
        """One Answer per puzzle, in order (a clue set that is not partial Latin has no solution)."""
        if cap < 1:
            raise ValueError(f"cap must be at least 1, not {cap}")
        for chunk in chunked(puzzles, CHUNK):
            if self.text_tables is not None and all(isinstance(p, str) for p in chunk):
                for k, answer in answer_chunk(self, list(enumerate(chunk)), cap):
                    if isinstance(answer, BadLine):
                        self.clues(chunk[k])  # raises the line's GridStringError
                    yield answer
            else:
                yield from self._answers([p if isinstance(p, str) else dict(p) for p in chunk], cap)

    def _answers(
        self, chunk: Sequence[Mapping[int, Label] | str], cap: int, solutions: bool = True
    ) -> list[Answer]:
        """The engine's answers for clue dicts (grid strings are read first); `solutions=False` leaves each
        Answer's solution None (counting alone: no labelling built)."""
        if self.bits is None:
            chunk = [self.clues(p) for p in chunk]
        else:
            chunk = [self._readable(p) if isinstance(p, str) else p for p in chunk]
            found = self.bits.solve_clues(chunk, self.index, cap)
            for k in (k for k, answer in enumerate(found) if answer is None):
                chunk[k] = self._readable(chunk[k])  # names what is wrong, or writes it the BitBoard's way
                found[k] = self.bits.solve_clues([chunk[k]], self.index, cap)[0]
            labels = self.multiset.labels
            return [
                Answer(count, [labels[v] for v in first] if first is not None and solutions else None, clues)
                for clues, (count, first) in zip(chunk, found, strict=True)
            ]
        if self.search is None:  # bounds: one puzzle at a time
            out = []
            for clues in chunk:
                pb = PartialBoard(self.board, self.multiset, clues)
                count = count_completions(pb, limit=cap)
                out.append(Answer(count, next(completions(pb, limit=1), None) if count else None, clues))
            return out
        forced = array("i", (self.option[placement] for clues in chunk for placement in clues.items()))
        starts = array("i", itertools.accumulate((len(clues) for clues in chunk), initial=0))
        out = []
        for clues, (count, first) in zip(chunk, self.search.batch(starts, forced, cap), strict=True):
            solution = None
            if first is not None and solutions:
                solution = [clues.get(p) for p in range(self.board.n_points)]
                for k in first:
                    point, label = self.reduction.placements[k]
                    solution[point] = label
            out.append(Answer(count, solution, clues))
        return out

    def _readable(self, puzzle: Mapping[int, Label] | str) -> dict[int, Label]:
        """A puzzle's clues checked (naming what is wrong), as a dict of ints to the multiset's own labels."""
        labels, index = self.multiset.labels, self.index
        return {int(p): labels[index[x]] for p, x in self.clues(puzzle).items()}

    def count(self, puzzle: Mapping[int, Label] | str, cap: int = 2) -> int:
        """The puzzle's solutions, counted up to `cap` (2: enough to tell unique from not)."""
        if isinstance(puzzle, str) or cap < 1:
            return next(self.answers([puzzle], cap)).solutions
        if self.bits is not None and (found := self.bits.solve_clues([puzzle], self.index, cap)[0]):
            return found[0]  # a clue dict read in C: generation asks this thousands of times
        return self._answers([puzzle], cap, solutions=False)[0].solutions

    def completions(self, puzzle: Mapping[int, Label] | str, limit: int) -> list[Labelling]:
        """The puzzle's first `limit` completions (labellings in point order), in the engine's order."""
        if limit < 1:
            raise ValueError(f"limit must be at least 1, not {limit}")
        if self.bits is None:
            return list(completions(PartialBoard(self.board, self.multiset, self.clues(puzzle)), limit=limit))
        clues = self._readable(puzzle)
        ((count, found),) = self.bits.solve_clues([clues], self.index, limit, limit)
        labels, n = self.multiset.labels, self.board.n_points
        return [[labels[v] for v in found[k : k + n]] for k in range(0, count * n, n)]

    def label_indices(self, puzzle: Mapping[int, Label] | str, limit: int) -> tuple[int, bytes]:
        """The puzzle's completions counted up to `limit`, and the first `limit` of them as one byte per
        point (the label's index in the multiset), one completion after another: for scans at C speed."""
        if self.bits is not None and limit >= 1:
            ((count, found),) = self.bits.solve_clues([self._readable(puzzle)], self.index, limit, limit)
            return count, found or b""
        found = self.completions(puzzle, limit)
        return len(found), bytes(self.index[x] for labelling in found for x in labelling)

    def solve(self, puzzle: Mapping[int, Label] | str) -> Labelling | None:
        """The puzzle's first solution (a labelling in point order), or None."""
        return next(self.answers([puzzle], 1)).solution

    def is_critical(self, clues: Mapping[int, Label]) -> bool:
        """Whether no clue of a puzzle with one solution can go (each removal, one kernel batch, leaves
        several solutions); clues off the board or of labels not in the multiset raise as a PartialBoard
        does."""
        PartialBoard(self.board, self.multiset, clues)  # checks every point and label
        fewer = [{q: x for q, x in clues.items() if q != p} for p in clues]
        return all(answer.solutions > 1 for answer in self._answers(fewer, 2))

    def solve_many(
        self, lines: Iterable[str], cap: int = 2, jobs: int = 1, executor: Executor | None = None
    ) -> Iterator[tuple[int, Answer | BadLine]]:
        """(line number, Answer or BadLine) for each puzzle line of a collection -- one grid string per line;
        blank lines and lines starting with '#' are skipped -- in input order, streamed.  `jobs` > 1 (or an
        `executor`) works chunks of lines in other processes; the order stays the input's."""
        chunks = chunked(puzzle_lines(lines), CHUNK if executor is None and jobs <= 1 else TASK)
        if executor is None and jobs <= 1:  # this process's batch, not a per-process copy
            answered = ordered_map(answer_chunk, ((self, chunk, cap) for chunk in chunks))
        else:
            tasks = ((self.board, self.multiset, chunk, cap) for chunk in chunks)
            answered = ordered_map(_answer_remote, tasks, jobs, executor)
        for answers in answered:
            yield from answers

    def block_bytes(self, jobs: int = 1) -> int:
        """The size of the blocks of a collection's bytes to give `write_many`: CHUNK lines of this board's
        grid strings in one process, TASK lines a task across processes (so few lines still spread)."""
        return (CHUNK if jobs <= 1 else TASK) * (self.board.n_points + 1)

    def write_many(
        self,
        blocks: Iterable[bytes],
        cap: int = 2,
        style: str = "solution",
        jobs: int = 1,
        executor: Executor | None = None,
        name: str = "the collection",
    ) -> Iterator[tuple[list[Piece], int]]:
        """A collection given as blocks of whole lines (`dlx_latin.files.byte_blocks`; blank and '#' lines
        skipped) answered as the text `solve --batch` writes -- per puzzle line its first solution, '-' when
        none (style "solution"), '?' when several (style "unique") -- or `check --batch` ("N unique|none|
        several", style "facts").  Per block, in input order: the pieces of output (text, or a line the
        BitBoard could not read as (line number, Answer or BadLine)) and its number of puzzle lines (bad
        ones too).  Needs grid tables (`text_tables`); `jobs` > 1 or an `executor` works blocks in other
        processes."""
        if self.text_tables is None:
            raise ValueError("write_many needs a multiset of at most 64 labels, each an ASCII character")
        if style not in STYLES:
            raise ValueError(f"style is one of {', '.join(STYLES)}, not {style!r}")
        if cap < 1:
            raise ValueError(f"cap must be at least 1, not {cap}")
        if executor is None and jobs <= 1:
            tasks = ((self, block, first, cap, style, name) for block, first in numbered_blocks(blocks))
            yield from ordered_map(answer_block, tasks)
        else:
            tasks = (
                (self.board, self.multiset, block, first, cap, style, name)
                for block, first in numbered_blocks(blocks)
            )
            yield from ordered_map(_block_remote, tasks, jobs, executor)


def puzzle_lines(lines: Iterable[str | None]) -> Iterator[tuple[int, str | None]]:
    """(line number from 1, stripped text) of a collection's puzzle lines: blank lines and lines starting
    with '#' are skipped; a line given as None (not UTF-8) stays, as None, to be answered as a bad line."""
    for k, line in enumerate(lines, start=1):
        if line is None:  # a line that is not UTF-8 text (`text_lines(..., undecodable=True)`)
            yield k, None
            continue
        text = line.strip()
        if text and text[0] != "#":
            yield k, text


def answer_chunk(
    batch: PuzzleBatch, chunk: list[tuple[int, str]], cap: int
) -> list[tuple[int, Answer | BadLine]]:
    """A chunk of numbered lines answered: the lines read, solved and written back in one BitBoard call
    (`BitBoard.solve_text`), any line it cannot read taken the slow way; each bad line reported."""
    texts = [text or "" for _, text in chunk]
    read = (
        [None] * len(chunk)
        if batch.text_tables is None
        else batch.bits.solve_text(texts, *batch.text_tables, cap)
    )
    out: list[tuple[int, Answer | BadLine]] = []
    for (k, text), found in zip(chunk, read, strict=True):
        if found is not None:
            out.append((k, Answer.of_text(found[0], text, found[1], batch.by_char)))
            continue
        if text is None:
            out.append((k, BadLine(k, NOT_UTF8)))
            continue
        try:
            clues = batch.clues(text)
        except UserInputError as err:
            out.append((k, BadLine(k, str(err))))
            continue
        out.append((k, batch._answers([clues], cap)[0]))
    return out


def numbered_blocks(blocks: Iterable[bytes]) -> Iterator[tuple[bytes, int]]:
    """Each block of whole lines with the number (from 1) of its first line."""
    first = 1
    for block in blocks:
        yield block, first
        first += block.count(b"\n")


NOT_UTF8 = "the line is not UTF-8 text"
STYLES = ("solution", "unique", "facts")  # what solve_block writes per line: see PuzzleBatch.write_many
Piece = str | tuple[int, Answer | BadLine]


def answer_block(
    batch: PuzzleBatch, block: bytes, first: int, cap: int, style: str, name: str
) -> tuple[list[Piece], int]:
    """A block of a collection's lines (line `first` on) answered as output text in one BitBoard call
    (`BitBoard.solve_block`), with its number of puzzle lines (bad ones too).  A line the BitBoard cannot
    read is taken the slow way and left as a (line number, Answer or BadLine) piece in its place."""
    out, answered, odd = batch.bits.solve_block(block, *batch.text_tables, cap, STYLES.index(style))
    if not odd:
        return ([out.decode("ascii")] if out else []), answered
    lines, pieces, at = block.split(b"\n"), [], 0
    for offset, k in odd:
        pieces.append(out[at:offset].decode("ascii"))
        at = offset
        try:
            text = lines[k].decode("utf-8").strip()
        except UnicodeDecodeError:  # a bad line like any other: the run goes on
            pieces.append((first + k, BadLine(first + k, NOT_UTF8)))
            answered += 1
            continue
        if text and text[0] != "#":
            pieces.extend(answer_chunk(batch, [(first + k, text)], cap))
            answered += 1
    pieces.append(out[at:].decode("ascii"))
    return [piece for piece in pieces if piece], answered


@per_board
def batch_for(board: Board, multiset: Multiset) -> PuzzleBatch:
    """The PuzzleBatch of a board and multiset, made once per process (the latest kept)."""
    return PuzzleBatch(board, multiset)


def _block_remote(
    board: Board, multiset: Multiset, block: bytes, first: int, cap: int, style: str, name: str
) -> tuple[list[Piece], int]:
    """A worker process's block (its PuzzleBatch made once per board)."""
    return answer_block(batch_for(board, multiset), block, first, cap, style, name)


def _answer_remote(
    board: Board, multiset: Multiset, chunk: list[tuple[int, str]], cap: int
) -> list[tuple[int, Answer | BadLine]]:
    """A worker process's chunk (its PuzzleBatch made once per board)."""
    return answer_chunk(batch_for(board, multiset), chunk, cap)


def removable_clues(pb: PartialBoard) -> list[int]:
    """The clue points outside the inscription whose removal keeps the completion unique (the puzzle and
    each removal searched in one kernel batch of the board's PuzzleBatch)."""
    batch = batch_for(pb.board, pb.multiset)
    points = [p for p in sorted(pb.clues) if p not in pb.inscription]
    fewer = [{q: x for q, x in pb.clues.items() if q != p} for p in points]
    whole, *answers = batch._answers([dict(pb.clues), *fewer], 2)
    if whole.solutions != 1:
        raise NotUniqueError("removable clues are defined for Latin puzzles (exactly one completion)")
    return [p for p, answer in zip(points, answers, strict=True) if answer.solutions == 1]


def is_critical(pb: PartialBoard) -> bool:
    """Def. 3.13: a Latin puzzle from which no clue outside the inscription can be removed."""
    return not removable_clues(pb)
