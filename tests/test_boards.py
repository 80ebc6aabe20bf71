"""Every built-in family: its structure (|P|, |A|, k, r), geometry, spec errors and custom boards."""

import json
import warnings

import numpy as np
import pytest

from dlx_latin.boards import Board, BoardWarning, InvalidBoardError, board_from_spec

# spec: (|P|, |A|, k, set of r values), from ../shared/boards.md
STRUCTURE = {
    "latin:5": (25, 10, 5, {2}),
    "sudoku:2x2": (16, 12, 4, {3}),
    "sudoku:2x3": (36, 18, 6, {3}),
    "sudoku:3x3": (81, 27, 9, {3}),
    "sudoku": (81, 27, 9, {3}),
    "jigsaw:AAABBBAAABBBCCCDDDCCCDDDEEEFFFEEEFFF": (36, 18, 6, {3}),
    "diagonal:4": (16, 10, 4, {2, 3}),
    "diagonal:5": (25, 12, 5, {2, 3, 4}),
    "win": (81, 22, 9, {2, 3}),
    "quadoku:3x3": (81, 31, 9, {3, 4}),
    "quadoku": (81, 31, 9, {3, 4}),
    "free-square:8": (64, 8, 16, {2}),
    "free-square:8:mirror": (64, 8, 16, {2}),
    "free-square:6:adjacent": (36, 6, 12, {2}),
    "tartan": (64, 12, 16, {3}),
    "triangle:4": (16, 6, 8, {3}),
    "triangle:6": (36, 9, 12, {3}),
    "triangle:8": (64, 12, 16, {3}),
    "hexagon:2": (24, 6, 12, {3}),
    "hexagon:3": (54, 9, 18, {3}),
    "dodecagon": (36, 12, 6, {2}),
    "tetrahedron:2": (16, 6, 8, {3}),
    "tetrahedron:4": (64, 12, 16, {3}),
    "cube:2": (24, 6, 8, {2}),
    "cube:4": (96, 12, 16, {2}),
    "octahedron:3": (72, 12, 18, {3}),
    "icosahedron:2": (80, 12, 20, {3}),
    "icosahedron:3": (180, 18, 30, {3}),
    "dodecahedron": (30, 10, 6, {2}),
    "dodecahedron:hexagonal": (30, 10, 6, {2}),
    "dodecahedron:decagonal": (30, 6, 10, {2}),
}


@pytest.mark.parametrize("spec", STRUCTURE)
def test_structure(spec):
    b = board_from_spec(spec)
    points, n_asterisms, k, r = STRUCTURE[spec]
    assert (b.n_points, len(b.asterisms), b.asterism_size, set(b.asterisms_per_point)) == (
        points,
        n_asterisms,
        k,
        r,
    )
    assert sum(b.asterisms_per_point) == n_asterisms * k
    assert b.coordinates is not None and b.coordinates.shape[0] == points
    assert len({tuple(np.round(c, 9)) for c in b.coordinates}) == points  # distinct positions


def test_odd_centre_of_a_diagonal_board_is_on_four_asterisms():
    assert board_from_spec("diagonal:5").asterisms_per_point[12] == 4


def test_sudoku_boxes():
    b = board_from_spec("sudoku:2x3")  # boxes of 2 rows by 3 columns
    assert b.asterisms[12] == (0, 1, 2, 6, 7, 8)
    assert b.asterisms[13] == (3, 4, 5, 9, 10, 11)


def test_dodecagon_lines_are_straight_and_polyhedron_points_lie_off_centre():
    c = board_from_spec("dodecagon").coordinates
    for line in board_from_spec("dodecagon").asterisms:
        p = c[list(line)]
        d = (p[-1] - p[0]) / np.linalg.norm(p[-1] - p[0])
        assert np.allclose((p - p[0]) @ np.array([-d[1], d[0]]), 0)
    for spec in ("cube:4", "icosahedron:2", "dodecahedron"):
        assert np.all(np.linalg.norm(board_from_spec(spec).coordinates, axis=1) > 0.5)


def test_polyhedron_stripes_are_equal_and_cube_stripes_close_into_loops():
    for spec in ("cube:4", "octahedron:3", "icosahedron:2", "tetrahedron:3"):
        b = board_from_spec(spec)
        assert len({len(a) for a in b.asterisms}) == 1


def test_jigsaw_whose_regions_are_its_rows_keeps_one_copy_with_a_warning():
    with pytest.warns(BoardWarning, match="repeats asterism"):
        b = board_from_spec("jigsaw:AAAABBBBCCCCDDDD")
    assert len(b.asterisms) == 8


@pytest.mark.parametrize(
    "spec, message",
    [
        ("latin:1", "latin:1 is degenerate"),
        ("triangle:2", "triangle:2 is not a Latin triangle"),
        ("triangle:5", "n must be even"),
        ("hexagon:1", "hexagon:1 is degenerate"),
        ("cube:1", "cube:1 is degenerate"),
        ("latin:x", "the order must be a whole number, not 'x'"),
        ("sudoku:3by3", "write the box as RxC"),
        ("jigsaw:AAB", "n*n symbols"),
        ("jigsaw:AAABBBCCD", "region 'C' has 2 cells"),
        ("free-square:7", "even order"),
        ("free-square:8:sideways", "unknown free-square pairing 'sideways'"),
        ("dodecahedron:round", "unknown dodecahedron variant 'round'"),
        ("win:9", "win takes no parameter"),
        ("rhombus:4", "unknown board 'rhombus:4'"),
    ],
)
def test_bad_specs(spec, message):
    with pytest.raises(InvalidBoardError, match=message):
        board_from_spec(spec)


@pytest.mark.parametrize(
    "asterisms, message",
    [
        ([[0, 1], [2]], "asterism 1 has 1 points but asterism 0 has 2"),
        ([[0, 1], [1, 0]], "point 2 is in no asterism"),
        ([[0, 1], [2, 7]], "asterism 1 names point 7, outside 0..2"),
        ([[0, 0], [1, 2]], "asterism 0 holds point 0 twice"),
        ([], "at least one non-empty asterism"),
        ([[0, "a"], [1, 2]], "asterism 0 holds 'a', which is not a point index"),
    ],
)
def test_invalid_custom_boards(asterisms, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoardWarning)
        with pytest.raises(InvalidBoardError, match=message):
            Board("custom", 3, asterisms)


def test_custom_board_json_round_trip(tmp_path):
    b = board_from_spec("diagonal:4")
    path = tmp_path / "b.json"
    path.write_text(json.dumps(b.to_json()))
    again = board_from_spec(str(path))
    assert again.asterisms == b.asterisms and again.shape == (4, 4)
    assert np.allclose(again.coordinates, b.coordinates)
    with pytest.raises(InvalidBoardError, match="has no 'asterisms'"):
        Board.from_json({"points": 3})
    with pytest.raises(InvalidBoardError, match="not valid JSON"):
        (tmp_path / "bad.json").write_text("{")
        board_from_spec(str(tmp_path / "bad.json"))


def test_polyhedra_carry_their_faces_through_json():
    board = board_from_spec("octahedron:2")
    assert len(board.faces) == 8 and all(face.shape == (3, 3) for face in board.faces)
    again = Board.from_json(json.loads(json.dumps(board.to_json())))
    assert [f.tolist() for f in again.faces] == [f.tolist() for f in board.faces]
    with pytest.raises(InvalidBoardError, match="3-D coordinates"):
        Board.from_json({"points": 3, "asterisms": [[0, 1, 2]], "faces": [[[0, 0, 0], [1, 0, 0], [0, 1, 0]]]})
    flat = {"points": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "asterisms": [[0, 1, 2]], "faces": [[[0, 0, 0]]]}
    with pytest.raises(InvalidBoardError, match="at least 3 corners"):
        Board.from_json(flat)
