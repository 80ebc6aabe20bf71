"""Knuth's DLX format: reading, writing, and the exact error for each kind of bad file."""

import warnings

import pytest

from dlx_latin.exact_cover import Colored, ExactCoverProblem
from dlx_latin.exact_cover.classic import queens
from dlx_latin.formats.dlx import DLXFormatError, DLXFormatWarning, read_dlx, write_dlx

KNUTH_COLORS = """\
| TAOCP 7.2.2.1 (49)
p q r | x y
p q x y:A
p r x:A y
p x:B
q x:A
r y:B
"""


def test_read_colored_example():
    d = read_dlx(KNUTH_COLORS)
    assert d.problem.primary == ("p", "q", "r") and d.problem.secondary == ("x", "y")
    assert d.problem.options[1] == ("p", "r", Colored("x", "A"), "y")
    assert [d.solution_lines(s) for s in d.problem.solutions()] == [["p r x:A y", "q x:A"]]


def test_long_names_and_bar_glued_to_a_name():
    d = read_dlx("a_very_long_item_name b |secondary_one\n  a_very_long_item_name   secondary_one:c1\nb\n")
    assert d.problem.secondary == ("secondary_one",)
    assert d.option_lines[0] == "a_very_long_item_name secondary_one:c1"
    assert d.problem.count() == 1


def test_write_then_read_round_trip():
    p = queens(5)
    text = write_dlx(p, comment="five queens")
    assert text.startswith("| five queens\nr0 r1")
    again = read_dlx(text).problem
    assert (again.primary, again.secondary, again.options) == (p.primary, p.secondary, p.options)
    assert again.count() == 10


def test_colors_round_trip():
    d = read_dlx(KNUTH_COLORS)
    assert read_dlx(write_dlx(d.problem)).problem.options == d.problem.options


def test_unwritable_name():
    from dlx_latin.exact_cover import InvalidProblemError

    with pytest.raises(InvalidProblemError, match="cannot be written"):
        write_dlx(ExactCoverProblem(["a b"], [["a b"]]))


def test_option_without_primary_item_is_dropped_with_a_warning():
    with pytest.warns(DLXFormatWarning, match=r"^line 3: option ignored \(it has no primary item\)$"):
        d = read_dlx("a | x\na x\nx\n")
    assert d.option_lines == ("a x",)


@pytest.mark.parametrize(
    "text, line, reason",
    [
        ("", 0, "no item line: the file holds no items"),
        ("| only a comment\n\n", 0, "no item line: the file holds no items"),
        ("a b\na c\n", 2, "unknown item 'c'"),
        ("a b\na a\n", 2, "item 'a' appears twice in this option"),
        ("a | x\na x:1 x:2\n", 2, "item 'x' appears twice in this option"),
        ("a b | x\nb\na:red\n", 3, "primary item 'a' may not have a color"),
        ("a | x\na x:\n", 2, "empty color name"),
        ("a a\n", 1, "item 'a' is declared twice"),
        ("a | x | y\n", 1, "the item line has more than one '|'"),
        ("| x y\n| comment\n\n  | x\n", 4, "the item line names no primary item"),
        ("a:b c\n", 1, "item name 'a:b' may not contain ':' or '|'"),
        ("a | x\na x:b|c\n", 2, "color name 'b|c' may not contain ':' or '|'"),
    ],
)
def test_bad_files(text, line, reason):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(DLXFormatError) as e:
            read_dlx(text)
    assert (e.value.line, e.value.reason) == (line, reason)
