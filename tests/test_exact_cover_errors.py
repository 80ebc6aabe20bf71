"""Invalid problems raise InvalidProblemError naming the culprit."""

import numpy as np
import pytest

from dlx_latin.exact_cover import Colored, ExactCoverProblem, InvalidProblemError


@pytest.mark.parametrize(
    "primary, options, secondary, message",
    [
        (["a"], [["a", "z"]], [], "option 0 names unknown item 'z'"),
        (["a", "b"], [["b"], ["a", "a"]], [], "option 1 names item 'a' twice"),
        (["a"], [["a"], []], [], "option 1 is empty"),
        (["a"], [[Colored("a", 1)]], [], "option 0 gives color 1 to primary item 'a'"),
        (["a", "a"], [["a"]], [], "item 'a' is declared twice"),
        (["a"], [["a"]], ["a"], "item 'a' is declared twice"),
        (["a"], [["a", "x", Colored("x", 2)]], ["x"], "option 0 names item 'x' twice"),
    ],
)
def test_invalid_problem(primary, options, secondary, message):
    with pytest.raises(InvalidProblemError) as e:
        ExactCoverProblem(primary, options, secondary)
    assert str(e.value) == message


def test_matrix_errors():
    with pytest.raises(InvalidProblemError, match="2-D"):
        ExactCoverProblem.from_matrix(np.zeros(3))
    with pytest.raises(InvalidProblemError, match="secondary columns only"):
        ExactCoverProblem.from_matrix([[2, 0]], n_primary=1)
    with pytest.raises(InvalidProblemError, match="n_primary=5"):
        ExactCoverProblem.from_matrix([[1, 0]], n_primary=5)
    with pytest.raises(InvalidProblemError, match="option 1 is empty"):
        ExactCoverProblem.from_matrix([[1, 0], [0, 0]])


def test_matrix_problem_counts():
    # rows {0,1}, {2}, {0}, {1,2}: the exact covers of {0,1,2} are {0,1}+{2} and {0}+{1,2}
    p = ExactCoverProblem.from_matrix([[1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 1]])
    assert sorted(p.solutions()) == [(0, 1), (2, 3)]


def test_negative_limit():
    with pytest.raises(ValueError, match="non-negative"):
        ExactCoverProblem(["a"], [["a"]]).count(limit=-1)
