"""Every strategy cross-examined (issue 54): boards drawn by hypothesis -- built-in families with their points
renumbered, names swapped between families, an asterism removed, clues, repeated labels -- are counted
the way `dlx-latin count` counts them (structure fast paths, orbit pruning) and the way the plain kernel
does, and on tiny boards by brute force; a renaming or renumbering never changes a number."""

import json

from checker import brute_force_completions
from cli import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dlx_latin.boards import Board, board_from_spec
from dlx_latin.latin import Multiset, PartialBoard, count_completions
from dlx_latin.latin.batch import PuzzleBatch

SPECS = ["latin:3", "latin:4", "sudoku:2x2", "diagonal:4", "jigsaw:AAABABBBCCCDCDDD", "triangle:4", "latin:5"]
NAMES = SPECS + ["sudoku:2x3", "latin:6", "custom"]
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@st.composite
def boards(draw, specs=SPECS):
    """A built-in board with its points renumbered and its asterisms reordered, perhaps one asterism fewer,
    named after any family."""
    board = board_from_spec(draw(st.sampled_from(specs)))
    image = draw(st.permutations(range(board.n_points)))
    asterisms = [[image[p] for p in a] for a in draw(st.permutations(board.asterisms))]
    if draw(st.booleans()) and len(asterisms) > 2:
        asterisms.pop()
    return Board(draw(st.sampled_from(NAMES)), board.n_points, asterisms)


def multisets(board: Board):
    k = board.asterism_size
    repeated = [1 + i // 2 for i in range(k)]  # 1,1,2,2,...: repeated labels
    return st.sampled_from([list(range(1, k + 1)), repeated])


def cli_count(tmp_path, board: Board, multiset: list, *extra: str) -> int:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board.to_json()))
    out = run_cli("count", str(path), "--multiset", ",".join(map(str, multiset)), "--json", *extra)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["count"]


@SETTINGS
@given(data=st.data())
def test_count_equals_the_plain_kernel_on_drawn_boards(tmp_path, data):
    board = data.draw(boards())
    multiset = data.draw(multisets(board))
    plain = count_completions(PartialBoard(board, Multiset.of(multiset)), memo=False)
    assert cli_count(tmp_path, board, multiset) == plain
    if board.n_points <= 9:
        assert len(brute_force_completions(PartialBoard(board, Multiset.of(multiset)))) == plain


@SETTINGS
@given(data=st.data())
def test_a_renumbering_never_changes_a_count_or_a_class_count(tmp_path, data):
    board = data.draw(boards())
    image = data.draw(st.permutations(range(board.n_points)))
    again = Board(board.name[::-1], board.n_points, [[image[p] for p in a] for a in board.asterisms])
    multiset = list(range(1, board.asterism_size + 1))
    assert cli_count(tmp_path, board, multiset) == cli_count(tmp_path, again, multiset)
    if board.n_points <= 16:
        up_to = ("--up-to", "symmetry")
        assert cli_count(tmp_path, board, multiset, *up_to) == cli_count(tmp_path, again, multiset, *up_to)


@SETTINGS
@given(data=st.data())
def test_batch_answers_equal_the_plain_kernel_with_clues(data):
    board = data.draw(boards())
    multiset = Multiset.of(data.draw(multisets(board)))
    points = data.draw(st.lists(st.sampled_from(range(board.n_points)), max_size=6, unique=True))
    clues = {p: data.draw(st.sampled_from(multiset.labels)) for p in points}
    pb = PartialBoard(board, multiset, clues)
    plain = count_completions(pb, limit=50, memo=False) if pb.is_partial_latin() else 0
    answer = next(iter(PuzzleBatch(board, multiset).answers([clues], cap=50)))
    assert answer.solutions == plain
    image = data.draw(st.permutations(range(board.n_points)))
    moved = Board("x", board.n_points, [[image[p] for p in a] for a in board.asterisms])
    moved_clues = {image[p]: label for p, label in clues.items()}
    assert next(iter(PuzzleBatch(moved, multiset).answers([moved_clues], cap=50))).solutions == plain


@SETTINGS
@given(data=st.data())
def test_ratings_are_unchanged_by_a_renumbering_of_points_asterisms_and_labels(data):
    """A generated puzzle (unique and critical) or a completion's clues drawn at random: verdict() equals
    explain()'s and is the same after the points, the asterisms and the labels are renumbered."""
    from dlx_latin.latin import completions
    from dlx_latin.puzzles.generate import generate
    from dlx_latin.puzzles.proof import explain, verdict

    board = data.draw(boards(SPECS + ["sudoku:2x3", "sudoku:3x3", "diagonal:5"]))
    multiset = Multiset.of(data.draw(multisets(board)))
    full = next(iter(completions(PartialBoard(board, multiset), limit=1)), None)
    if full is None:
        return  # an asterism fewer can leave no Latin board of this multiset
    if data.draw(st.booleans()):
        pb = generate(PartialBoard(board, multiset), seed=data.draw(st.integers(0, 10**6))).puzzle
    else:
        n = board.n_points
        points = data.draw(st.lists(st.sampled_from(range(n)), min_size=n // 4, max_size=n // 2, unique=True))
        pb = PartialBoard(board, multiset, {p: full[p] for p in points})
    want = explain(pb).verdict
    assert verdict(pb) == want
    image = data.draw(st.permutations(range(board.n_points)))
    order = data.draw(st.permutations(board.asterisms))
    labels = list(multiset.labels)
    same = {c: [x for x in labels if multiset.counts[labels.index(x)] == c] for c in multiset.counts}
    rename = {}
    for group in same.values():
        rename.update(zip(group, data.draw(st.permutations(group)), strict=True))
    moved = Board("y", board.n_points, [[image[p] for p in a] for a in order])
    other = PartialBoard(moved, multiset, {image[p]: rename[x] for p, x in pb.clues.items()})
    assert explain(other).verdict == verdict(other) == want
