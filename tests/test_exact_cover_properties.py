"""Property tests: on random small problems the kernel finds exactly the brute-force solution set."""

from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force_solutions, solutions_with_sane_links

from dlx_latin.exact_cover import Colored, ExactCoverProblem
from dlx_latin.exact_cover.parallel import split


@st.composite
def problems(draw, colors: bool):
    n_primary = draw(st.integers(1, 5))
    n_secondary = draw(st.integers(0, 3))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    n_options = draw(st.integers(0, 10))
    options = []
    for _ in range(n_options):
        chosen = draw(st.sets(st.sampled_from(primary + secondary), min_size=1, max_size=4))
        option = []
        for item in sorted(chosen):
            color = draw(st.sampled_from([None, "A", "B"])) if colors and item in secondary else None
            option.append(item if color is None else Colored(item, color))
        options.append(option)
    return ExactCoverProblem(primary, options, secondary)


def check_against_brute_force(p: ExactCoverProblem) -> None:
    expected = brute_force_solutions(p)
    found = solutions_with_sane_links(p)
    assert len(found) == len(set(found))
    assert set(found) == expected
    assert p.count() == len(expected)
    assert p.is_unique() == (len(expected) == 1)
    assert p.count(limit=1) == min(1, len(expected))


@settings(max_examples=300, deadline=None)
@given(problems(colors=False))
def test_plain_problems_match_brute_force(p):
    check_against_brute_force(p)


@settings(max_examples=300, deadline=None)
@given(problems(colors=True))
def test_colored_problems_match_brute_force(p):
    check_against_brute_force(p)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, 3), min_size=n, max_size=n), min_size=0, max_size=9)
    ),
    st.integers(0, 6),
)
def test_matrices_match_brute_force(rows, n_primary):
    import numpy as np

    width = len(rows[0]) if rows else 3
    m = np.array(rows, dtype=int).reshape(len(rows), width)
    n_primary = min(n_primary, width)
    m[:, :n_primary] = m[:, :n_primary] > 0  # colors only on secondary columns
    m = m[m.any(axis=1)] if len(m) else m  # an empty option is invalid
    p = ExactCoverProblem.from_matrix(m, n_primary)
    check_against_brute_force(p)


@st.composite
def primary_problems(draw):
    """Problems of primary items only, small enough that a node often has one option per item left."""
    items = [f"p{i}" for i in range(draw(st.integers(1, 7)))]
    options = draw(st.lists(st.sets(st.sampled_from(items), min_size=1, max_size=3), max_size=12))
    return ExactCoverProblem(items, [sorted(o) for o in options])


@settings(max_examples=300, deadline=None)
@given(primary_problems())
def test_forced_tails_match_brute_force_whole_and_split(p):
    """A node whose every item has one option left is visited without descending: same solutions."""
    check_against_brute_force(p)
    expected = len(brute_force_solutions(p))
    assert sum(p.search(path=q).count() for q in split(p.kernel_arrays, 5)) == expected
    assert sum(p.search(path=q, memo=False).count() for q in split(p.kernel_arrays, 5)) == expected
