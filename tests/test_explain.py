"""Proofs by attrition from the command line: `solve --explain` and the fairness fields of `check`."""

import json

from cli import EXAMPLES, run_cli

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import Multiset, PartialBoard, completions
from dlx_latin.latin.grid import parse_grid
from dlx_latin.puzzles.proof import explain

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def test_explain_text_ends_with_the_verdict():
    out = run_cli("solve", str(EXAMPLES / "sudoku-fig1.json"), "--explain")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[1].startswith("1. single: place r")
    assert any(line.startswith("Solved by attrition alone: fair, rated very easy") for line in lines)


def test_explain_json_replays_to_the_solution():
    out = run_cli("solve", str(EXAMPLES / "sudoku-fig1.json"), "--explain", "--json")
    data = json.loads(out.stdout)
    solution = [x for row in data["solutions"][0] for x in row]
    placed = {}
    for step in data["proof"]:
        for p, label in step["placed"]:
            placed[p] = label
        for p, label in step["removed"]:
            assert solution[p] != label, step  # a sound proof never removes the solution's label
    assert all(solution[p] == label for p, label in placed.items())
    assert data["fair"] is True and data["rating"] == "very easy"


def test_a_very_hard_puzzle_is_not_fair():
    board = board_from_spec("sudoku:3x3")
    pb = PartialBoard(board, Multiset.default(9), parse_grid(INKALA, 81, Multiset.default(9)))
    proof = explain(pb)
    assert not proof.fair and proof.rating is None and proof.score > 1000
    left = [p for p, x in enumerate(proof.labelling) if x is None]
    solution = next(completions(pb))
    assert all(proof.labelling[p] == solution[p] for p in range(81) if p not in left)
    out = run_cli("solve", "sudoku:3x3", "--clues", INKALA, "--explain")
    assert out.returncode == 0 and "not fair; the search finishes it" in out.stdout
    report = json.loads(run_cli("check", "sudoku:3x3", "--clues", INKALA, "--json").stdout)
    assert report["unique"] and report["fair"] is False and report["rating"] is None


def test_contradictory_clues_are_reported():
    out = run_cli("solve", "latin:4", "--clues", "123............4", "--explain")
    assert out.returncode == 3
    assert "Contradiction" in out.stdout
