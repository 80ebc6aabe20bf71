"""KenKen: cages, puzzles solved on the exact-cover kernel (cross-checked by brute force), the CLI, and the
approximation condition kk."""

import itertools
import json

import pytest
from cli import run_cli

from dlx_latin.approx.exact import optimum
from dlx_latin.approx.experiments import random_instance
from dlx_latin.approx.instance import InstanceError, from_json
from dlx_latin.kenken import Cage, KenKenError, random_kenken
from dlx_latin.kenken import from_json as kenken_from_json


def latin_squares(n):
    """Every Latin square of order n, row by row (brute force)."""

    def extend(rows):
        if len(rows) == n:
            yield rows
            return
        for row in itertools.permutations(range(1, n + 1)):
            if all(row[j] != r[j] for r in rows for j in range(n)):
                yield from extend(rows + [row])

    yield from extend([])


def brute_count(puzzle):
    return sum(
        all(cage.fits([square[i][j] for i, j in cage.cells]) for cage in puzzle.cages)
        for square in latin_squares(puzzle.n)
    )


def test_cage_rules():
    plus, times = Cage(((0, 0), (0, 1), (1, 0)), "+", 6), Cage(((0, 0), (0, 1)), "*", 12)
    minus, divide, equal = (
        Cage(((0, 0), (0, 1)), "-", 2),
        Cage(((0, 0), (1, 0)), "/", 3),
        Cage(((0, 0),), "=", 4),
    )
    assert plus.fits((1, 2, 3)) and not plus.fits((2, 2, 3)) and plus.admits((5,)) and not plus.admits((4, 3))
    assert times.fits((3, 4)) and times.admits((6,)) and not times.admits((5,))
    assert minus.fits((4, 2)) and minus.fits((2, 4)) and not minus.fits((1, 2)) and minus.admits((1,))
    assert divide.fits((6, 2)) and not divide.fits((2, 5)) and equal.fits((4,)) and not equal.admits((3,))
    assert sorted(minus.fillings(4)) == [(1, 3), (2, 4), (3, 1), (4, 2)]
    assert sorted(Cage(((0, 0), (1, 1)), "+", 4).fillings(3)) == [(1, 3), (2, 2), (3, 1)]  # no shared line


@pytest.mark.parametrize("seed", range(6))
def test_counts_equal_brute_force(seed):
    puzzle = random_kenken(4, seed, max_cage=3)
    assert puzzle.count() == brute_count(puzzle)
    for grid in puzzle.solutions():
        assert all(cage.fits([grid[i][j] for i, j in cage.cells]) for cage in puzzle.cages)
        assert all(sorted(row) == [1, 2, 3, 4] for row in grid + [list(c) for c in zip(*grid, strict=True)])


def test_order_five_against_every_latin_square():
    """The 161,280 Latin squares of order 5 from the Latin-board engine, filtered by the cages."""
    from dlx_latin.boards import board_from_spec
    from dlx_latin.latin import PartialBoard, completions

    squares = [list(s) for s in completions(PartialBoard(board_from_spec("latin:5")))]
    assert len(squares) == 161280
    for seed in (3, 4):
        puzzle = random_kenken(5, seed=seed, max_cage=3)
        cages = [(cage, [5 * i + j for i, j in cage.cells]) for cage in puzzle.cages]
        expected = sum(all(cage.fits([s[p] for p in points]) for cage, points in cages) for s in squares)
        assert puzzle.count() == expected >= 1


def test_a_hand_made_puzzle():
    """A 4x4 puzzle drawn on 1234 / 3412 / 2143 / 4321: that square is among its solutions."""
    cages = [
        ([[0, 0], [0, 1]], "-", 1),
        ([[0, 2], [0, 3]], "*", 12),
        ([[1, 0], [2, 0]], "+", 5),
        ([[1, 1], [1, 2]], "+", 5),
        ([[1, 3], [2, 3]], "+", 5),
        ([[2, 1], [2, 2]], "*", 4),
        ([[3, 0], [3, 1]], "+", 7),
        ([[3, 2], [3, 3]], "-", 1),
    ]
    data = {"n": 4, "cages": [{"cells": c, "op": op, "target": t} for c, op, t in cages]}
    puzzle = kenken_from_json(data)
    assert brute_count(puzzle) == puzzle.count()
    solutions = list(puzzle.solutions())
    assert len(solutions) == puzzle.count() >= 1
    assert [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]] in solutions


def test_generated_unique_puzzles_are_unique():
    for n in (4, 5, 6):
        puzzle = random_kenken(n, seed=n, unique=True)
        assert puzzle.count(2) == 1


@pytest.mark.parametrize(
    "data, message",
    [
        (
            {"n": 2, "cages": [{"cells": [[0, 0], [0, 1]], "op": "-", "target": 1}]},
            "cell [1, 0] is in no cage",
        ),
        ({"n": 2, "cages": [{"cells": [[0, 0], [1, 1]], "op": "+", "target": 3}]}, "not connected"),
        (
            {"n": 2, "cages": [{"cells": [[0, 0], [0, 1], [1, 1]], "op": "-", "target": 1}]},
            "two cells, not 3",
        ),
        ({"n": 2, "cages": [{"cells": [[0, 0]], "op": "%", "target": 1}]}, "unknown operation '%'"),
        ({"n": 2, "cages": [{"cells": [[0, 0]], "op": "=", "target": 0}]}, "positive integer"),
        ({"n": 2, "cages": [{"cells": [[0, 2]], "op": "=", "target": 1}]}, "outside the 2 x 2 grid"),
        ({"n": 2, "cages": [{"cells": [[0, 0]], "op": "=", "target": 1}] * 2}, "in cages 0 and 1"),
        ({"n": 0, "cages": []}, "n must be an integer"),
        ({"format": "other", "n": 2, "cages": []}, "format must be"),
    ],
)
def test_bad_puzzles_are_named(data, message):
    with pytest.raises(KenKenError, match=message.replace("[", r"\[").replace("]", r"\]")):
        kenken_from_json(data)


def test_cli(tmp_path):
    path = tmp_path / "k.json"
    path.write_text(run_cli("kenken", "generate", "--n", "5", "--seed", "3", "--unique").stdout)
    assert json.loads(run_cli("kenken", "check", str(path), "--json").stdout) == {
        "n": 5,
        "cages": len(json.loads(path.read_text())["cages"]),
        "solutions": 1,
        "unique": True,
    }
    (grid,) = json.loads(run_cli("kenken", "solve", str(path), "--json").stdout)["solutions"]
    assert all(sorted(row) == [1, 2, 3, 4, 5] for row in grid)
    text = run_cli("kenken", "solve", str(path), "--unique").stdout.splitlines()
    assert [list(map(int, line.split())) for line in text] == grid
    loose = tmp_path / "loose.json"
    loose.write_text(
        json.dumps(
            {
                "n": 3,
                "cages": [
                    {"cells": [[i, j]], "op": "=", "target": 1 + (i + j) % 3}
                    for i in range(3)
                    for j in range(3)
                    if (i, j) != (0, 0)
                ]
                + [{"cells": [[0, 0]], "op": "=", "target": 2}],
            }
        )
    )
    none = run_cli("kenken", "solve", str(loose))
    assert none.returncode == 3 and "no solution" in none.stderr
    many = tmp_path / "many.json"
    many.write_text(
        json.dumps(
            {"n": 3, "cages": [{"cells": [[i, 0], [i, 1], [i, 2]], "op": "+", "target": 6} for i in range(3)]}
        )
    )
    assert run_cli("kenken", "solve", str(many), "--unique").returncode == 4
    assert "solutions: 12" in run_cli("kenken", "check", str(many)).stdout
    bad = tmp_path / "bad.json"
    bad.write_text('{"n": 2, "cages": [{"cells": [[0, 0], [0, 1]], "op": "-", "target": 1}]}')
    out = run_cli("kenken", "check", str(bad))
    assert out.returncode == 1 and len(out.stderr.splitlines()) == 1 and "in no cage" in out.stderr


def test_kk_condition():
    for seed in range(20):
        inst = random_instance("kk", 5, 0.4, seed)
        hidden_fill = len(inst.empty)
        assert len(optimum(inst)) == hidden_fill  # the hidden square fills every empty cell
    data = {"n": 2, "condition": "kk", "given": [[1, 0], [0, 0]]}
    cage = {"cells": [[0, 1], [1, 1]], "op": "+", "target": 3}
    with pytest.raises(InstanceError, match=r"empty cell \[1, 0\] is in no cage"):
        from_json({**data, "cages": [cage]})
    with pytest.raises(InstanceError, match="holds the filled cell"):
        from_json({**data, "cages": [{"cells": [[0, 0], [1, 0]], "op": "+", "target": 3}, cage]})
    with pytest.raises(InstanceError, match="unknown operation"):
        from_json({**data, "cages": [{"cells": [[1, 0]], "op": "^", "target": 3}, cage]})


def test_kk_matching_needs_line_cages(tmp_path):
    from dlx_latin.approx.algorithms import NotApplicable, matching

    square = {"n": 3, "condition": "kk", "given": [[1, 2, 3], [2, 3, 1], [0, 0, 2]]}
    line = from_json({**square, "cages": [{"cells": [[2, 0], [2, 1]], "op": "*", "target": 3}]})
    assert matching(line) == {(2, 0): 3, (2, 1): 1}
    bent = {"n": 3, "condition": "kk", "given": [[1, 2, 3], [2, 3, 0], [3, 0, 0]]}
    cage = {"cells": [[1, 2], [2, 2], [2, 1]], "op": "+", "target": 4}
    with pytest.raises(NotApplicable, match="one row or one column"):
        matching(from_json({**bent, "cages": [cage]}))


def test_fillings_are_searched_not_walked():
    """A 16-cell sum cage out of reach has no filling, found at once (not by 9^16 products); small cages'
    fillings are those of the product of values, in the same order."""
    import itertools

    from dlx_latin.kenken import Cage

    cells = tuple((i // 9, i % 9) for i in range(16))
    assert list(Cage(cells, "+", 1000).fillings(9)) == []
    assert list(Cage(cells, "*", 17).fillings(9)) == []
    cage = Cage(((0, 0), (0, 1), (1, 1)), "*", 12)
    walked = [
        v for v in itertools.product(range(1, 7), repeat=3) if cage.fits(v) and v[0] != v[1] and v[1] != v[2]
    ]
    assert list(cage.fillings(6)) == walked and len(walked) == 13
