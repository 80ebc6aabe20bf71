"""The kernel's bitset loop (problems without colors or bounds and with at least 4 options per primary item:
tilings, queens) against brute force: counts, listed solutions, limits, memo, paths and probes, budgets."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force_solutions

from dlx_latin.exact_cover import ExactCoverProblem
from dlx_latin.exact_cover.classic import langford, latin_square, pentominoes, queens
from dlx_latin.exact_cover.kernel import kernel_search
from dlx_latin.exact_cover.parallel import split


@st.composite
def wide_problems(draw):
    """Plain problems with at least four options per primary item (the bitset loop's shape)."""
    n_primary = draw(st.integers(1, 3))
    n_secondary = draw(st.integers(0, 2))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    n_options = draw(st.integers(4 * n_primary, 12))  # brute force tries 2^12 subsets at most
    options = [
        sorted(draw(st.sets(st.sampled_from(primary + secondary), min_size=1, max_size=3)))
        for _ in range(n_options)
    ]
    return ExactCoverProblem(primary, options, secondary)


@settings(max_examples=300, deadline=None)
@given(wide_problems())
def test_wide_problems_match_brute_force(p):
    expected = brute_force_solutions(p)
    assert set(p.solutions()) == expected and len(list(p.solutions())) == len(expected)
    assert p.count(memo=False) == len(expected)
    assert kernel_search(p.kernel_arrays, memo=64, memo_start=0).count() == len(expected)
    assert p.count(limit=1) == min(1, len(expected))
    paths = split(p.kernel_arrays, 5)
    assert sum(p.search(path=q).count() for q in paths) == len(expected)


def test_tilings_and_queens_through_the_bitset_loop():
    box = pentominoes(3, 20)
    assert box.count(memo=False) == 8
    assert len(set(box.solutions())) == 8
    search = kernel_search(queens(9).kernel_arrays, memo=1 << 10, memo_start=0)
    assert search.count() == 352  # A000170
    paths = split(queens(10).kernel_arrays, 16)
    assert len(paths) >= 16 and sum(queens(10).search(path=q).count() for q in paths) == 724


def test_budgets_pause_and_resume_the_bitset_loop():
    search = queens(10).search()
    first = search.count(max_nodes=500)
    assert not search.done and search.nodes == 500 and first < 724
    assert search.count() == 724 and search.done
    listed = queens(8).search()
    batches = [listed.next_batch(10) for _ in range(10)]
    assert sum(len(b) for b in batches) == 92
    assert len({tuple(sorted(s)) for b in batches for s in b}) == 92


def test_the_layout_is_the_cheaper_one():
    """Bitsets where a choice removes many options for few item-words; dancing links where it removes few."""
    assert pentominoes(20, 20).search().layout == "bitsets"  # 20,596 options: 322 words
    assert queens(40).search().layout == "bitsets"
    assert queens(70).search().layout == "links"
    assert latin_square(5).search().layout == "links"


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_many_words_bitsets_against_dancing_links(seed):
    """Random packings of up to 400 distinct options (2-7 words): the bitset loop's count, memo or not, paths
    and listed solutions against the node table's (a seeded search always runs on the node table)."""
    rng = random.Random(seed)
    n_primary, n_options = rng.randint(8, 14), rng.randint(150, 400)
    options = {tuple(sorted(rng.sample(range(n_primary), rng.randint(1, 4)))) for _ in range(n_options)}
    p = ExactCoverProblem(range(n_primary), sorted(options))
    assert p.search().layout == "bitsets"
    links = kernel_search(p.kernel_arrays, seed=seed)
    assert links.layout == "links"
    expected = links.count()
    assert p.count(memo=False) == expected
    assert kernel_search(p.kernel_arrays, memo=1 << 8, memo_start=0).count() == expected
    assert sum(p.search(path=q).count() for q in split(p.kernel_arrays, 6)) == expected
    listed = [tuple(sorted(s)) for s in p.solutions()]
    assert len(listed) == len(set(listed)) == expected


def _sharp(p: ExactCoverProblem) -> ExactCoverProblem:
    return ExactCoverProblem(p.primary, p.options, p.secondary, None, p.primary[1::3])


@pytest.mark.parametrize(
    "build",
    [
        lambda: pentominoes(3, 20),
        lambda: queens(11),
        lambda: langford(9),
        lambda: ExactCoverProblem(
            *(lambda p: (p.primary, p.options, p.secondary, None, p.primary[1::3]))(queens(9))
        ),
    ],
    ids=["tiling", "queens", "langford", "sharp queens"],
)
def test_avx512_scan_takes_the_scalar_scans_choices(build, monkeypatch):
    """Where the processor has AVX-512 the bitset loop's MRV counts eight items per instruction; with
    DLX_LATIN_NO_AVX512 set it counts one at a time.  Same tree either way: nodes, probes and counts."""
    p = build()
    runs = []
    for off in ("", "1"):
        monkeypatch.setenv("DLX_LATIN_NO_AVX512", off)
        search = p.search()
        paths = split(p.kernel_arrays, 12)
        degrees = [p.search(path=q).degree() for q in paths]
        runs.append((search.count(), search.nodes, search.updates, paths, degrees))
    assert runs[0] == runs[1]


def test_the_last_item_s_options_are_counted_at_once():
    """With one primary item left, each live option of it ends a solution: they are added, not branched on
    (10^5 copies of one option cost a pass over 10^5 bits each before: quadratic).  Checked against the node
    table, with secondary items that rule some options out."""
    copies = ExactCoverProblem(["a"], [["a"]] * 100_000)
    assert copies.search().layout == "bitsets" and copies.count() == 100_000
    rng = random.Random(7)
    options = [["a", "b"], ["c"]] + [
        sorted({"d", *rng.sample(["x", "y", "z"], rng.randint(0, 2))}) for _ in range(40)
    ]
    options += [["c", "x"], ["a", "b", "y"], ["c", "z"]] + [["a", "b", "d", "x"]] * 3
    p = ExactCoverProblem(["a", "b", "c", "d"], options, ["x", "y", "z"])
    expected = kernel_search(p.kernel_arrays, seed=1).count()
    assert p.search().layout == "bitsets"
    assert expected > 0
    assert p.count(memo=False) == p.count() == expected
