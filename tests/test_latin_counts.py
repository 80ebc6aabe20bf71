"""Counts and latinizations through boards, against OEIS and an independent checker."""

import pytest
from checker import is_latin_board

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import Multiset, PartialBoard, completions, count_completions
from dlx_latin.latin.completion import first_asterism_arrangements, label_group_order, reduce_to_exact_cover


def count(spec: str, multiset: str | None = None, **kw) -> int:
    return count_completions(
        PartialBoard(board_from_spec(spec), Multiset.parse(multiset) if multiset else None), **kw
    )


@pytest.mark.parametrize("n, expected", [(2, 2), (3, 12), (4, 576), (5, 161_280)])  # A002860
def test_latin_squares(n, expected):
    assert count(f"latin:{n}") == expected


def test_sudoku():
    assert count("sudoku:2x2") == 288
    assert count("sudoku:2x3") == 28_200_960


@pytest.mark.parametrize("n, expected", [(4, 48), (5, 960), (6, 92_160)])  # A274806
def test_diagonal_latin_squares(n, expected):
    assert count(f"diagonal:{n}") == expected


def test_diagonal_3_has_no_labelling():
    assert count("diagonal:3") == 0


def test_jigsaw_with_row_regions_counts_like_latin_squares():
    with pytest.warns(UserWarning):
        assert count("jigsaw:AAAABBBBCCCCDDDD") == 576


def test_multisets_through_boards():
    assert count("latin:4", "1,1,2,2") == 90  # A001499(4)
    assert count("latin:5", "1^2,2^3") == 2040  # A001499(5)
    assert count("latin:6", "1^3,2^3") == 297_200  # A001501(6)


def test_symmetry_fixed_counts_equal_plain_search():
    for spec, m in [
        ("latin:4", None),
        ("latin:4", "1,1,2,2"),
        ("latin:5", "a^2,b^2,c"),
        ("sudoku:2x2", "1^2,2^2"),
        ("diagonal:5", None),
        ("latin:6", "1^2,2^2,3^2"),
    ]:
        pb = PartialBoard(board_from_spec(spec), Multiset.parse(m) if m else None)
        if spec == "latin:6":
            continue  # 35,599,500: the slow marked test below compares it
        assert count_completions(pb) == reduce_to_exact_cover(pb).problem.count()


@pytest.mark.slow
def test_latin_6_with_pairs_of_three_labels_equals_plain_search():
    pb = PartialBoard(board_from_spec("latin:6"), Multiset.parse("1^2,2^2,3^2"))
    assert count_completions(pb) == reduce_to_exact_cover(pb).problem.count() == 35_599_500


def test_label_group_and_arrangements():
    m = Multiset.parse("1^2,2^2,3^2")
    assert label_group_order(m) == 6
    reps = first_asterism_arrangements(m)
    assert len(reps) == 15 and len({tuple(r) for r in reps}) == 15
    assert label_group_order(Multiset.parse("1,2,3^2,4^2")) == 4
    assert len(first_asterism_arrangements(Multiset.parse("1^3,2^3,3^3"))) == 1680 // 6


def test_jobs_equal_serial():
    assert count("sudoku:2x3", jobs=2) == 28_200_960
    assert count("latin:6", "1^3,2^3", jobs=2) == 297_200


SOLVABLE = [
    "latin:7",
    "sudoku:3x3",
    "jigsaw:AAABBBAAABBBCCCDDDCCCDDDEEEFFFEEEFFF",
    "diagonal:9",
    "win",
    "quadoku:3x3",
    "free-square:8",
    "free-square:8:mirror",
    "free-square:8:adjacent",
    "tartan",
    "triangle:6",
    "triangle:8",
    "hexagon:2",
    "hexagon:3",
    "dodecagon",
    "tetrahedron:3",
    "tetrahedron:4",
    "tetrahedron:5",
    "cube:2",
    "cube:4",
    "octahedron:3",
    "icosahedron:2",
    "dodecahedron",
    "dodecahedron:decagonal",
]


@pytest.mark.parametrize("spec", SOLVABLE)
def test_one_latinization_of_each_solvable_family(spec):
    b = board_from_spec(spec)
    pb = PartialBoard(b)
    labelling = next(completions(pb))
    assert is_latin_board(b, pb.multiset.as_list(), labelling)


@pytest.mark.parametrize("spec", ["triangle:4", "tetrahedron:2", "cube:3", "diagonal:3"])
def test_families_without_latinization(spec):
    assert next(completions(PartialBoard(board_from_spec(spec))), None) is None


def test_named_labels_douze_france_and_helios():
    hexagon = board_from_spec("hexagon:3")
    m = Multiset.parse("1,2,3,4,5,6,7,8,9,10,11,12,F,R,A,N,C,E")
    assert is_latin_board(hexagon, m.as_list(), next(completions(PartialBoard(hexagon, m))))
    star = board_from_spec("dodecagon")
    m = Multiset.parse("H,E,L,I,O,S")
    assert is_latin_board(star, m.as_list(), next(completions(PartialBoard(star, m))))


def test_limit_gives_distinct_labellings():
    pb = PartialBoard(board_from_spec("latin:4"))
    found = [tuple(x) for x in completions(pb, limit=50)]
    assert len(found) == len(set(found)) == 50
    assert all(is_latin_board(pb.board, [1, 2, 3, 4], x) for x in found)
    assert {tuple(x) for x in completions(pb)} == {tuple(x) for x in completions(pb, limit=10_000)}
    assert len(list(completions(pb))) == 576


def test_ripeto_completions_are_distinct_and_complete():
    pb = PartialBoard(board_from_spec("latin:4"), Multiset.parse("1,1,2,2"))
    every = [tuple(x) for x in completions(pb)]
    assert len(every) == len(set(every)) == 90
