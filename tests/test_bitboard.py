"""The BitBoard (attrition by singles on label bitsets, in C) counts exactly: whole boards' published counts,
the kernel's answers on random puzzles of every family, and the kernel's batch where labels are too many."""

import random
import signal

import pytest
from dlx_latin.latin._bitboard import BitBoard

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import Multiset, PartialBoard, completions, count_completions
from dlx_latin.latin import batch as batch_module
from dlx_latin.latin.batch import PuzzleBatch


@pytest.mark.parametrize(
    "spec, multiset, count",
    [
        ("latin:4", None, 576),  # A002860
        ("latin:5", None, 161_280),
        ("sudoku:2x2", None, 288),
        ("latin:4", "1^2,2^2", 90),  # A058527: 4x4 binary matrices with two 1s in every line
        ("latin:6", "1^3,2^3", 297_200),  # A001501 (6x6, three 1s in every line)
    ],
)
def test_whole_boards_counted_as_published(spec, multiset, count):
    batch = PuzzleBatch(board_from_spec(spec), Multiset.parse(multiset) if multiset else None)
    assert batch.bits is not None
    assert batch.count({}, cap=10**9) == count
    assert batch.count({}, cap=count - 1) == count - 1


def test_sudoku_2x3_with_its_first_row_fixed():
    """28,200,960 Sudoku 6x6 grids (A107739), 6! = 720 first rows each counted alike."""
    batch = PuzzleBatch(board_from_spec("sudoku:2x3"))
    assert batch.count({p: p + 1 for p in range(6)}, cap=10**9) * 720 == 28_200_960


@pytest.mark.parametrize(
    "spec",
    [
        "sudoku:3x3",
        "sudoku:2x3",
        "triangle:6",
        "octahedron:3",
        "jigsaw:aaaabccdabcddbbcddebceeee",
        "jigsaw:AAABBBCCCAAABBBCCCAADBBBCCFADDEEECFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII",
    ],
)
def test_puzzles_answered_as_the_kernel_answers_them(spec):
    """Random clue sets (unique, several, none) counted up to 3 by the BitBoard and by the exact-cover
    kernel's reduction, puzzle by puzzle (the jigsaws' regions meet rows in 1 to 3 points: locked labels)."""
    board = board_from_spec(spec)
    batch = PuzzleBatch(board)
    empty = PartialBoard(board)
    full = batch.solve({})
    rng = random.Random(spec)
    kinds = set()
    for _ in range(40):
        kept = rng.sample(range(board.n_points), rng.randrange(board.n_points // 3, board.n_points))
        clues = {p: full[p] for p in kept}
        if rng.random() < 0.3:
            clues[rng.randrange(board.n_points)] = rng.choice(empty.multiset.labels)
        got = batch.count(clues, cap=3)
        assert got == count_completions(PartialBoard(board, clues=clues), limit=3), clues
        kinds.add(min(got, 2))
    assert kinds == {0, 1, 2}


def test_too_many_labels_take_the_kernels_batch(monkeypatch):
    """Past the BitBoard's 64 labels PuzzleBatch uses the kernel's batch: same answers (shown on latin:4 with
    the BitBoard's limit lowered to 3 labels)."""
    monkeypatch.setattr(batch_module, "MAX_LABELS", 3)
    kernel = PuzzleBatch(board_from_spec("latin:4"))
    assert kernel.bits is None and kernel.search is not None
    assert kernel.count({}, cap=1000) == 576 and kernel.count({0: 1, 1: 1}) == 0
    solved = kernel.solve("1234" + "." * 12)
    assert (
        solved[:4] == [1, 2, 3, 4]
        and PartialBoard(kernel.board, clues=dict(enumerate(solved))).is_partial_latin()
    )
    assert next(kernel.answers(["1234341221434321"])).solution_text == "1234341221434321"


def test_bitboard_refuses_what_is_not_a_board():
    with pytest.raises(ValueError, match="1 to 64 labels"):
        BitBoard(4, [[0, 1]], [1] * 65)
    with pytest.raises(ValueError, match="as long as the needs"):
        BitBoard(4, [[0, 1, 2]], [1, 1])
    with pytest.raises(ValueError, match="point 4 is not on the board"):
        BitBoard(4, [[0, 4]], [1, 1])
    with pytest.raises(ValueError, match="repeats a point"):
        BitBoard(4, [[1, 1]], [1, 1])
    bits = BitBoard(4, [[0, 1], [2, 3], [0, 2], [1, 3]], [1, 1])
    assert bits.solve_clues([{}, {0: 1}, {0: "x"}, {4: 0}], {0: 0, 1: 1}, 5) == [
        (2, b"\x00\x01\x01\x00"),
        (1, b"\x01\x00\x00\x01"),
        None,
        None,
    ]
    with pytest.raises(ValueError, match="cap and keep must be at least 1"):
        bits.solve_clues([{}], {0: 0, 1: 1}, 0)


@pytest.mark.parametrize(
    "spec, multiset, clues, count", [("latin:4", None, {0: 1}, 144), ("latin:4", "1^2,2^2", {0: 1}, 45)]
)
def test_completions_are_the_kernels(spec, multiset, clues, count):
    """PuzzleBatch.completions lists the same labellings as the kernel's `completions`, each once."""
    board, m = board_from_spec(spec), Multiset.parse(multiset) if multiset else None
    listed = PuzzleBatch(board, m).completions(clues, limit=1000)
    assert len(listed) == count and len({tuple(c) for c in listed}) == count
    assert sorted(listed) == sorted(completions(PartialBoard(board, m, clues)))
    assert PuzzleBatch(board, m).completions(clues, limit=3) == listed[:3]


def test_a_long_search_stops_on_a_signal_and_the_batch_goes_on():
    """The GIL is taken back every 2^16 branchings to run signal handlers: Ctrl-C (here an alarm whose
    handler raises KeyboardInterrupt) ends a search that would take hours, and the batch still answers."""

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    batch = PuzzleBatch(board_from_spec("latin:9"))
    before = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(KeyboardInterrupt):
            batch.count({}, cap=10**15)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    assert batch.count({p: 1 + (p // 9 + p % 9) % 9 for p in range(80)}) == 1
