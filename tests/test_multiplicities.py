"""Algorithm M: primary items with bounds [u, v], against Knuth's example, binomials, OEIS and brute force."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force_solutions, solutions_with_sane_links

from dlx_latin.exact_cover import Colored, ExactCoverProblem, InvalidProblemError
from dlx_latin.exact_cover.classic import latin_square
from dlx_latin.formats.dlx import DLXFormatError, read_dlx, write_dlx

DLX3_EXAMPLE = """\
| Knuth's dlx3 example
A B 2:3|C | X Y
A B X:0 Y:0
A C X:1 Y:1
C X:0
B X:1
C Y:1
"""


def test_knuth_dlx3_example_has_one_solution():
    d = read_dlx(DLX3_EXAMPLE)
    assert d.problem.bound("C") == (2, 3)
    assert [d.solution_lines(s) for s in d.problem.solutions()] == [["A C X:1 Y:1", "B X:1", "C Y:1"]]


def test_identical_options_are_combinations_not_permutations():
    four = [["a"]] * 4
    assert ExactCoverProblem(["a"], four, bounds={"a": 2}).count() == 6  # C(4, 2)
    assert ExactCoverProblem(["a"], four, bounds={"a": (1, 3)}).count() == 14  # 4 + 6 + 4
    assert ExactCoverProblem(["a"], four, bounds={"a": (0, 4)}).count() == 16  # every subset
    assert ExactCoverProblem(["a"], four, bounds={"a": 5}).count() == 0


def test_two_ones_per_row_and_column():
    assert latin_square(4, multiset=[1, 1, 2, 2]).count() == 90  # A001499(4)
    assert latin_square(5, multiset=[1, 1, 2, 2, 2]).count() == 2040  # A001499(5)


def test_three_ones_per_row_and_column_order_6():
    assert latin_square(6, multiset=[1, 1, 1, 2, 2, 2]).count() == 297_200  # A001501(6)


def test_distinct_labels_through_m_equal_algorithm_c():
    plain = latin_square(4)
    forced_m = ExactCoverProblem(
        plain.primary + ("spare",), plain.options + (("spare",),), bounds={"spare": (0, 1)}
    )
    assert plain.count() == 576
    assert forced_m.count() == 2 * 576  # the spare option is taken or not
    with_m = latin_square(4, multiset=[1, 2, 3, 4])
    assert with_m.count() == 576


def test_every_mode_agrees_with_bounds():
    p = latin_square(4, multiset=[1, 1, 2, 2])
    every = list(p.solutions())
    assert len(every) == len(set(every)) == 90
    assert p.first_solution() == every[0]
    assert list(p.solutions(limit=7)) == every[:7]
    assert p.count(limit=50) == 50 and not p.is_unique()


def test_bounds_in_the_file_round_trip():
    d = read_dlx(DLX3_EXAMPLE)
    text = write_dlx(d.problem)
    assert text.splitlines()[0] == "A B 2:3|C | X Y"
    assert write_dlx(ExactCoverProblem(["a", "b"], [["a", "b"]], bounds={"a": 3, "b": (0, 2)})).startswith(
        "3|a 0:2|b\n"
    )
    assert read_dlx(text).problem.bounds == {"C": (2, 3)}


@pytest.mark.parametrize(
    "bounds, message",
    [
        ({"a": (3, 2)}, "lower bound 3 of item 'a' exceeds its upper bound 2"),
        ({"a": (-1, 2)}, "bounds of item 'a' are negative: -1:2"),
        ({"a": 0}, "upper bound of item 'a' is zero"),
        ({"a": "x"}, "bounds of item 'a' must be v or (u, v) integers, not 'x'"),
        ({"x": 2}, "bounds given for secondary item 'x': only primary items have them"),
        ({"q": 2}, "bounds given for unknown item 'q'"),
    ],
)
def test_invalid_bounds(bounds, message):
    with pytest.raises(InvalidProblemError) as e:
        ExactCoverProblem(["a"], [["a"]], ["x"], bounds)
    assert str(e.value) == message


@pytest.mark.parametrize(
    "text, line, reason",
    [
        ("3:2|a\na\n", 1, "lower bound 3 exceeds upper bound 2"),
        ("b 0|a\na b\n", 1, "upper bound is zero"),
        ("-1:2|a\na\n", 1, "bad bounds '-1:2': write u:v| or v| with decimal integers"),
        ("x:2|a\na\n", 1, "bad bounds 'x:2': write u:v| or v| with decimal integers"),
        ("a | 2|x\na x\n", 1, "bounds on secondary item 'x': only primary items have them"),
    ],
)
def test_bad_bounds_in_files(text, line, reason):
    with pytest.raises(DLXFormatError) as e:
        read_dlx(text)
    assert (e.value.line, e.value.reason) == (line, reason)


@st.composite
def bounded_problems(draw, colors: bool):
    n_primary = draw(st.integers(1, 4))
    n_secondary = draw(st.integers(0, 2))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    bounds = {}
    for item in primary:
        v = draw(st.integers(1, 3))
        bounds[item] = (draw(st.integers(0, v)), v)
    options = []
    for _ in range(draw(st.integers(0, 10))):
        chosen = draw(st.sets(st.sampled_from(primary + secondary), min_size=1, max_size=3))
        option = []
        for item in sorted(chosen):
            color = draw(st.sampled_from([None, "A", "B"])) if colors and item in secondary else None
            option.append(item if color is None else Colored(item, color))
        options.append(option)
    return ExactCoverProblem(primary, options, secondary, bounds)


def check(p: ExactCoverProblem) -> None:
    expected = brute_force_solutions(p)
    found = solutions_with_sane_links(p)
    assert len(found) == len(set(found)) and set(found) == expected
    assert p.count() == len(expected)
    assert p.is_unique() == (len(expected) == 1)


@settings(max_examples=400, deadline=None)
@given(bounded_problems(colors=False))
def test_bounded_problems_match_brute_force(p):
    check(p)


@settings(max_examples=400, deadline=None)
@given(bounded_problems(colors=True))
def test_bounded_colored_problems_match_brute_force(p):
    check(p)
