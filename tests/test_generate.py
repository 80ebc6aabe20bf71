"""Puzzle generation: unique, critical, fair when asked, reproducible, inscriptions kept."""

import json

import pytest
from cli import run_cli

from dlx_latin.boards import board_from_spec
from dlx_latin.formats.puzzle import read_puzzle
from dlx_latin.latin import Multiset, PartialBoard, count_completions, is_critical
from dlx_latin.puzzles.generate import GenerationError, generate
from dlx_latin.puzzles.proof import explain

FAMILIES = [
    ("sudoku:3x3", None),
    ("sudoku:3x3", "2^2,3^3,4^4"),  # Sudoku Ripeto
    ("latin:6", "1^3,2^3"),
    ("hexagon:2", None),
    ("triangle:6", None),
    ("diagonal:6", None),
]


def partial(spec, multiset=None):
    board = board_from_spec(spec)
    return PartialBoard(
        board, Multiset.parse(multiset) if multiset else Multiset.default(board.asterism_size)
    )


@pytest.mark.parametrize("spec,multiset", FAMILIES)
def test_generated_puzzles_are_unique_and_critical(spec, multiset):
    for seed in range(3):
        made = generate(partial(spec, multiset), seed=seed)
        assert count_completions(made.puzzle) == 1
        assert made.critical and is_critical(made.puzzle)
        assert all(made.solution[p] == x for p, x in made.puzzle.clues.items())


@pytest.mark.parametrize("spec,multiset", FAMILIES)
def test_fair_puzzles_are_solved_by_attrition(spec, multiset):
    made = generate(partial(spec, multiset), seed=11, fair=True)
    proof = explain(made.puzzle)
    assert proof.fair and list(proof.labelling) == list(made.solution)
    assert count_completions(made.puzzle) == 1


def test_same_seed_same_puzzle():
    a = generate(partial("sudoku:3x3"), seed=5)
    b = generate(partial("sudoku:3x3"), seed=5)
    c = generate(partial("sudoku:3x3"), seed=6)
    assert a.puzzle.clues == b.puzzle.clues and a.puzzle.clues != c.puzzle.clues


def test_rating_is_met():
    for level in ["very easy", "medium"]:
        made = generate(partial("sudoku:3x3"), seed=2, rating=level)
        assert made.verdict.rating == level and explain(made.puzzle).rating == level


def test_inscription_stays():
    pb = partial("sudoku:3x3").with_clues({0: 1, 1: 2, 2: 3, 40: 5})
    made = generate(pb, seed=3)
    assert all(made.puzzle.clues.get(p) == x for p, x in pb.clues.items())
    assert count_completions(made.puzzle) == 1


def test_impossible_boards_are_refused():
    with pytest.raises(GenerationError, match="no Latin board"):
        generate(partial("triangle:4"), seed=1)


def test_cli_json_lines_are_puzzle_files(tmp_path):
    out = run_cli("generate", "sudoku:2x3", "--count", "3", "--seed", "9", "--fair", "--json")
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(records) == 3 and all(r["fair"] and r["critical"] for r in records)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(records[0]))
    puzzle = read_puzzle(path.read_text())
    assert len(puzzle.partial.clues) == records[0]["clue_count"]
    solved = run_cli("solve", str(path), "--unique", "--json")
    assert json.loads(solved.stdout)["solutions"][0] == records[0]["solution"]
    again = run_cli("generate", "sudoku:2x3", "--count", "3", "--seed", "9", "--fair", "--json")
    assert again.stdout == out.stdout


def test_cli_inscription_file(tmp_path):
    kept = tmp_path / "kept.json"
    kept.write_text(
        json.dumps({"format": "dlx-latin", "version": 1, "board": "sudoku:3x3", "clues": {"0": 7}})
    )
    out = run_cli("generate", "sudoku:3x3", "--inscription", str(kept), "--seed", "1", "--json")
    record = json.loads(out.stdout)
    assert record["clues"][0][0] == 7 and 0 in record["inscription"]
    other = run_cli("generate", "latin:9", "--inscription", str(kept))
    assert other.returncode == 2 and "not on latin:9" in other.stderr


@pytest.mark.parametrize("spec,multiset", [("latin:4", None), ("sudoku:2x3", None), ("latin:6", "1^3,2^3")])
def test_single_pass_puzzles_are_unique(spec, multiset):
    from dlx_latin.puzzles.generate import single_pass_puzzles

    found = list(single_pass_puzzles(partial(spec, multiset), boards=40))
    assert len(found) >= 10
    for x in found:
        assert count_completions(x.puzzle) == 1
        assert not x.fair or explain(x.puzzle).fair


def test_single_pass_from_a_puzzle_is_the_puzzle():
    """A Latin puzzle is its own single-pass puzzle: the enumeration finds one board at the root."""
    from dlx_latin.puzzles.generate import single_pass_puzzles

    made = generate(partial("sudoku:3x3"), seed=4)
    found = list(single_pass_puzzles(made.puzzle))
    assert [x.puzzle.clues for x in found] == [made.puzzle.clues]


def test_cli_single_pass():
    out = run_cli("generate", "sudoku:2x2", "--single-pass", "--count", "4", "--json")
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(records) == 4 and all(r["fair"] for r in records)
    none = run_cli("generate", "sudoku:3x3", "--single-pass", "--rating", "very difficult")
    assert none.returncode == 3 and "only 0 such puzzles" in none.stderr


EVERY_FAMILY = [
    "latin:5",
    "sudoku:2x3",
    "jigsaw:aaabbbaacbbbacccddeccdddeeefdfeeffff",
    "diagonal:5",
    "win",
    "quadoku",
    "free-square:4",
    "tartan",
    "triangle:6",
    "hexagon:2",
    "dodecagon",
    "tetrahedron:3",
    "cube:2",
    "octahedron:3",
    "icosahedron:2",
    "dodecahedron",
]


@pytest.mark.parametrize("spec", EVERY_FAMILY)
def test_every_family_gives_puzzles(spec):
    made = generate(partial(spec), seed=1)
    assert count_completions(made.puzzle) == 1 and is_critical(made.puzzle)


def test_jobs_make_the_same_puzzles_in_the_same_order():
    one = run_cli("generate", "sudoku:2x3", "--count", "12", "--seed", "4", "--json")
    two = run_cli("generate", "sudoku:2x3", "--count", "12", "--seed", "4", "--json", "--jobs", "2")
    assert one.returncode == two.returncode == 0 and one.stdout == two.stdout
    assert [json.loads(line)["seed"] for line in two.stdout.splitlines()] == [f"4/{k}" for k in range(12)]
    refused = run_cli("generate", "triangle:4", "--count", "3", "--seed", "1", "--jobs", "2")
    assert refused.returncode == 1 and "no Latin board" in refused.stderr
