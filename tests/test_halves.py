"""Latin squares in halves (symmetry/halves.py) against A002860, A008300 and brute force."""

import itertools

import pytest
from cli import run_cli

from dlx_latin.exact_cover import CountSettings, ExactCoverProblem
from symmetry import halves
from symmetry.errors import SymmetryTooLargeError
from symmetry.halves import column_set_classes, count_latin_squares, rectangles


@pytest.mark.parametrize(
    "n, expected", [(2, 2), (3, 12), (4, 576), (5, 161_280), (6, 812_851_200), (7, 61_479_419_904_000)]
)
def test_latin_squares_in_halves(n, expected):  # A002860
    assert count_latin_squares(n) == expected


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_latin_9():  # A002860, McKay & Wanless 2005: about ten minutes on two cores
    assert count_latin_squares(9, CountSettings(jobs=2)) == 5_524_751_496_156_892_842_531_225_600


def test_latin_8():
    assert count_latin_squares(8) == 108_776_032_459_082_956_800  # A002860, Wells 1967
    assert run_cli("count", "latin:8", "--json").stdout.strip() == '{"count": 108776032459082956800}'


@pytest.mark.parametrize("n, k, matrices, classes", [(6, 3, 297_200, 7), (8, 4, 116_963_796_250, 194)])
def test_classes_stand_for_every_regular_bipartite_graph(n, k, matrices, classes):
    # n x n 0-1 matrices with every row and column summing to k (A008300 for k = n/2)
    found = list(column_set_classes(n, k))
    assert len(found) == classes
    assert sum(weight for _, weight in found) == matrices


def test_rectangles_by_brute_force():
    n = 5
    for columns, _ in column_set_classes(n, 2):
        brute = 0
        for rows in itertools.product(itertools.permutations(range(n)), repeat=2):
            if all({rows[0][c], rows[1][c]} == columns[c] for c in range(n)):
                brute += 1
        assert rectangles(columns) == brute


def test_orders_beyond_halves_are_refused():
    with pytest.raises(SymmetryTooLargeError, match="orders 2 to 9"):
        count_latin_squares(10)


def exact_cover_rectangles(columns):
    """The same count as an exact cover of (row, column), (row, label), (column, label), every row order."""
    n, k = len(columns), len(columns[0])
    items = [("rc", r, c) for r in range(k) for c in range(n)]
    items += [("rv", r, v) for r in range(k) for v in range(n)]
    items += [("cv", c, v) for c in range(n) for v in columns[c]]
    options = [
        [("rc", r, c), ("rv", r, v), ("cv", c, v)] for r in range(k) for c in range(n) for v in columns[c]
    ]
    return ExactCoverProblem(items, options).count()


@pytest.mark.parametrize("n, k", [(4, 1), (5, 3), (6, 2), (6, 3), (6, 4), (7, 3), (7, 4)])
def test_rectangles_against_exact_cover(n, k):
    """The C count (matchings row by row, the last two rows from cycles) against the kernel's search."""
    for columns, _ in itertools.islice(column_set_classes(n, k), 12):
        assert rectangles(columns) == exact_cover_rectangles(columns)


def test_parts_run_in_processes_and_are_checkpointed(tmp_path, monkeypatch):
    """latin:6's 7 classes in parts of 2: counted by two processes, each part recorded, a rerun reading
    them (with no part left to count), progress reported part by part."""
    monkeypatch.setattr(halves, "CHUNK", 2)
    checkpoint = tmp_path / "latin6.jsonl"
    seen = []
    settings = CountSettings(jobs=2, checkpoint=checkpoint, progress=lambda nodes, done: seen.append(done))
    assert count_latin_squares(6, settings) == 812_851_200
    assert checkpoint.read_text().count("latin:6 in halves") == 4 and sorted(seen) == [0.25, 0.5, 0.75, 1.0]

    again = []  # a rerun counts no part: no progress to report
    settings = CountSettings(checkpoint=checkpoint, progress=lambda nodes, done: again.append(done))
    assert count_latin_squares(6, settings) == 812_851_200 and again == []
