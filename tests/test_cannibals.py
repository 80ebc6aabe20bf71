"""De Ruiter's cannibals: fixed polyforms counted as OEIS has them, the smallest polyomino with a hole,
the thesis's cannibals of 23 cells (2-D) and 139 cells (3-D) rebuilt and checked by flood fill."""

import json

from cli import run_cli

from dlx_latin.cells import connected
from dlx_latin.jigsaw.cannibals import (
    cannibal_around,
    cavities,
    enclosed,
    polyforms,
    small_cases,
    smallest_constructed,
)


def test_fixed_polyforms_match_oeis():
    assert [sum(1 for _ in polyforms(n, 2)) for n in range(1, 9)] == [
        1,
        2,
        6,
        19,
        63,
        216,
        760,
        2725,
    ]  # A001168
    assert [sum(1 for _ in polyforms(n, 3)) for n in range(1, 6)] == [1, 3, 15, 86, 534]  # A001931
    assert all(connected(p) and len(p) == 7 for p in polyforms(7, 2))


def test_enclosed_cells():
    ring = {(i, j) for i in range(4) for j in range(5) if i in (0, 3) or j in (0, 4)}
    assert enclosed(ring) == {(i, j) for i in (1, 2) for j in (1, 2, 3)}
    assert enclosed(ring - {(0, 0)}) == enclosed(ring)  # a corner cell blocks nothing
    assert enclosed(ring - {(0, 2)}) == set()
    shell = {(i, j, k) for i in range(3) for j in range(3) for k in range(3)} - {(1, 1, 1)}
    assert enclosed(shell) == {(1, 1, 1)}


def test_smallest_polyomino_with_a_hole_has_seven_cells():
    cases = list(small_cases(2, seconds=60, max_size=8))
    assert [c.largest_interior for c in cases] == [0, 0, 0, 0, 0, 0, 1, 1]
    assert sum(1 for p in polyforms(7, 2) if enclosed(p)) == 4  # one free heptomino, in 4 orientations
    assert all(c.cannibal is None for c in cases)


def test_the_thesis_cannibals_are_rebuilt():
    name, wall = smallest_constructed(2, seconds=60)
    assert len(wall) == len(enclosed(wall)) == 23 and connected(wall)
    box = dict(cavities(3, 5))["rounded box 4x5x5 less two corners"]  # the thesis's Fig. 6, adapted
    wall = cannibal_around(set(box))
    assert len(wall) == len(enclosed(wall)) == 139 and connected(wall)


def test_cli():
    out = json.loads(run_cli("jigsaw", "cannibals", "--seconds", "4", "--json").stdout)
    assert out["dimension"] == 2 and out["smallest_with_interior"] == 7
    assert out["exhaustive_reach"] >= 8 and [r["polyforms"] for r in out["exhaustive"]][:4] == [1, 2, 6, 19]
    cells = {tuple(c) for c in out["cannibal"]["cells"]}
    assert out["cannibal"]["size"] == len(cells) == len(enclosed(cells)) == 23
    text = run_cli("jigsaw", "cannibals", "--seconds", "4").stdout
    assert "smallest with an interior: 7" in text and "a cannibal of 23 cells" in text
