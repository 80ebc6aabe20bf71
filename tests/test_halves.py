"""Latin squares in halves (symmetry/halves.py) against A002860, A008300 and brute force."""

import itertools

import pytest
from cli import run_cli

from symmetry.errors import SymmetryTooLargeError
from symmetry.halves import column_set_classes, count_latin_squares, rectangles


@pytest.mark.parametrize(
    "n, expected", [(2, 2), (3, 12), (4, 576), (5, 161_280), (6, 812_851_200), (7, 61_479_419_904_000)]
)
def test_latin_squares_in_halves(n, expected):  # A002860
    assert count_latin_squares(n) == expected


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
    with pytest.raises(SymmetryTooLargeError, match="orders 2 to 8"):
        count_latin_squares(9)


def test_structure_counts_are_recorded_in_the_checkpoint(tmp_path):
    checkpoint = tmp_path / "latin6.jsonl"
    first = run_cli("count", "latin:6", "--checkpoint", str(checkpoint))
    assert first.returncode == 0 and first.stdout.strip() == "812851200"
    assert "structure count of latin:6" in checkpoint.read_text()
    again = run_cli("count", "latin:6", "--checkpoint", str(checkpoint), "--json")
    assert again.stdout.strip() == '{"count": 812851200}'
