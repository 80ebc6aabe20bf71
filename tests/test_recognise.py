"""What a board is comes from its structure: renamed and renumbered boards get the right counts and the
fast paths, and a name never changes a number (issue 54, "Structure, not names")."""

import json
import random

import pytest
from cli import run_cli

from dlx_latin.boards import Board, board_from_spec
from dlx_latin.latin import PartialBoard, count_completions
from symmetry.recognise import certificate, recognise


def renumbered(spec: str, name: str, seed: int) -> Board:
    """The board of `spec` with its points shuffled, its asterisms reordered and called `name`."""
    board = board_from_spec(spec)
    rng = random.Random(seed)
    image = list(range(board.n_points))
    rng.shuffle(image)
    asterisms = [[image[p] for p in a] for a in board.asterisms]
    rng.shuffle(asterisms)
    return Board(name, board.n_points, asterisms)


def count_file(tmp_path, board: Board, *extra: str) -> int:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board.to_json()))
    out = run_cli("count", str(path), "--json", *extra)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["count"]


def plain(board: Board) -> int:
    return count_completions(PartialBoard(board), memo=False)


@pytest.mark.parametrize(
    "spec, name, expected",
    [
        ("diagonal:4", "latin:4", 48),  # A274806: a diagonal Latin square is not a Latin square
        ("diagonal:5", "sudoku:1x5", 960),
        ("sudoku:2x2", "latin:4", 288),
        ("latin:4", "sudoku:2x2", 576),  # A002860
        ("latin:5", "diagonal:5", 161_280),
        ("sudoku:2x3", "my-board", 28_200_960),
    ],
)
def test_a_name_never_changes_a_count(tmp_path, spec, name, expected):
    board = renumbered(spec, name, seed=len(name))
    assert count_file(tmp_path, board) == expected
    assert count_file(tmp_path, board, "--no-memo") == expected


def test_rows_only_named_latin_is_counted_as_rows_only(tmp_path):
    rows = board_from_spec("latin:3").asterisms[:3]
    assert count_file(tmp_path, Board("latin:3", 9, rows)) == 6**3 == plain(Board("rows", 9, rows))


@pytest.mark.parametrize(
    "spec, shape", [("sudoku:2x3", (2, 3)), ("sudoku:3x2", (2, 3)), ("sudoku:2x4", (2, 4))]
)
def test_renumbered_sudoku_is_recognised(spec, shape):
    for seed in range(3):
        found = recognise(renumbered(spec, "x", seed))
        assert found is not None and found.family == "sudoku" and found.parameters == shape


def test_point_map_is_an_isomorphism():
    board = renumbered("sudoku:2x2", "x", seed=7)
    found = recognise(board)
    model = {frozenset(a) for a in board_from_spec("sudoku:2x2").asterisms}
    assert {frozenset(found.point_map[p] for p in a) for a in board.asterisms} == model


@pytest.mark.parametrize("spec", ["diagonal:4", "quadoku", "jigsaw:AAABABBBCCCDCDDD", "win", "triangle:4"])
def test_other_structures_are_not_recognised(spec):
    assert recognise(board_from_spec(spec)) is None


def test_a_jigsaw_of_boxes_is_a_sudoku():
    assert recognise(board_from_spec("jigsaw:AABBAABBCCDDCCDD")).spec == "sudoku:2x2"


def test_one_asterism_more_or_less_is_not_recognised():
    board = board_from_spec("sudoku:2x2")
    assert recognise(Board("sudoku:2x2", 16, board.asterisms[:-1])) is None
    diagonal = [p * 5 for p in range(4)]
    assert recognise(Board("sudoku:2x2", 16, list(board.asterisms) + [diagonal])) is None


def test_certificate_ignores_names_and_numbering():
    assert certificate(renumbered("latin:6", "a", 1)) == certificate(renumbered("latin:6", "b", 2))
    assert certificate(board_from_spec("latin:6")) != certificate(board_from_spec("diagonal:6"))


def test_renumbered_latin_square_takes_the_fast_paths(tmp_path):
    board = renumbered("latin:8", "sudoku:2x4", seed=3)  # the halves: seconds, not minutes
    assert count_file(tmp_path, board) == 108_776_032_459_082_956_800  # A002860
    assert (
        count_file(tmp_path, renumbered("latin:7", "diagonal:7", 4), "--up-to", "isotopy") == 564
    )  # A040082
    assert (
        count_file(tmp_path, renumbered("latin:5", "q", 2), "--up-to", "symmetry") == 2
    )  # both isotopy classes


def test_renumbered_sudoku_up_to_symmetry(tmp_path):
    assert count_file(tmp_path, renumbered("sudoku:2x3", "latin:6", seed=5), "--up-to", "symmetry") == 49


def test_isotopy_refuses_a_diagonal_square_named_latin(tmp_path):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(renumbered("diagonal:5", "latin:5", 1).to_json()))
    out = run_cli("count", str(path), "--up-to", "isotopy")
    assert out.returncode != 0 and "latin:5 is not one" in out.stderr
