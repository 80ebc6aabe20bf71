"""Counting every critical puzzle of a board (dlx_latin.puzzles.census, `minimal --critical`): against every
clue set tried by brute force, against the catalogs' numbers, resumed from a checkpoint, and refusals."""

import json

import numpy as np
import pytest
from cli import run_cli

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import PartialBoard, completions
from dlx_latin.latin.multiset import Multiset
from dlx_latin.puzzles import census as census_module
from dlx_latin.puzzles.census import critical_census
from symmetry.counting import all_classes
from symmetry.nauty_form import NautyCanonizer, point_automorphisms


def brute_census(pb: PartialBoard) -> tuple[dict[int, int], dict[int, int]]:
    """Every clue set of every Latin board of a 16-point board tried: (puzzles, classes) by clue count, the
    classes told apart by nauty canonical forms of the puzzles themselves."""
    boards = np.array(list(completions(pb)))
    masks = np.arange(1 << 16)
    weights = 1 << np.arange(16)
    canon = NautyCanonizer(pb.board, pb.multiset)
    puzzles: dict[int, int] = {}
    forms: dict[int, set] = {}
    for solution in boards:
        # completions[m]: the boards agreeing with the solution on clue set m (those whose agreeing points
        # contain m), by a sum over supersets
        completions_of = np.bincount(((boards == solution) * weights).sum(axis=1), minlength=1 << 16)
        for p in range(16):
            without = masks[masks >> p & 1 == 0]
            completions_of[without] += completions_of[without | 1 << p]
        unique = completions_of == 1
        critical = unique.copy()
        for p in range(16):
            critical &= ~((masks >> p & 1 == 1) & unique[masks ^ 1 << p])
        for m in np.flatnonzero(critical).tolist():
            size = m.bit_count()
            puzzles[size] = puzzles.get(size, 0) + 1
            clues = [solution[p].item() if m >> p & 1 else None for p in range(16)]
            forms.setdefault(size, set()).add(canon.key(clues))
    return puzzles, {size: len(f) for size, f in forms.items()}


@pytest.mark.parametrize("spec,multiset", [("sudoku:2x2", None), ("latin:4", "1^2,2^2")])
def test_census_against_every_clue_set(spec, multiset):
    pb = PartialBoard(board_from_spec(spec), Multiset.parse(multiset) if multiset else None)
    census = critical_census(pb, all_classes(pb), point_automorphisms)
    assert (dict(census.puzzles), dict(census.classes)) == brute_census(pb)


def test_census_of_the_4x4_sudoku_and_latin_squares_on_the_command_line():
    """The numbers of the critical-puzzle catalogs (test_catalog): 85,632 critical 4x4 Sudoku puzzles in
    36 classes (25,728 with 4 clues, the fewest), 400,896 critical sets of Latin squares of order 4 in 21
    classes, 7,898,688,000 of order 5 in 2,353, with 6 to 11 clues (A063437)."""
    done = run_cli("minimal", "sudoku:2x2", "--critical", "--json")
    assert done.returncode == 0
    found = json.loads(done.stdout)
    assert (found["puzzles"], found["classes"]) == (85632, 36)
    assert found["critical"]["4"] == {"puzzles": 25728, "classes": 13}
    assert sorted(found["critical"], key=int) == ["4", "5", "6"]
    four = json.loads(run_cli("minimal", "latin:4", "--critical", "--json").stdout)
    assert (four["puzzles"], four["classes"]) == (400896, 21)
    five = run_cli("minimal", "latin:5", "--critical", "--jobs", "2")
    assert five.returncode == 0
    lines = five.stdout.splitlines()
    assert lines[0].split() == ["clues", "puzzles", "classes"]
    assert [line.split()[0] for line in lines[1:]] == ["6", "7", "8", "9", "10", "11", "all"]
    assert lines[-1].split() == ["all", "7,898,688,000", "2,353"]


def test_an_interrupted_census_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    pb = PartialBoard(board_from_spec("latin:5"))
    whole = critical_census(pb, all_classes(pb), point_automorphisms)
    path = tmp_path / "census.jsonl"
    critical_census(pb, all_classes(pb), point_automorphisms, path)
    first, second = path.read_text().splitlines()
    path.write_text(first + "\n" + second[: len(second) // 2])  # the second solution's line torn
    done = []
    real = census_module.solution_census
    monkeypatch.setattr(census_module, "solution_census", lambda *a: done.append(a) or real(*a))
    again = critical_census(pb, all_classes(pb), point_automorphisms, path)
    assert len(done) == 1  # only the solution whose line was torn is counted again
    assert (again.puzzles, again.classes, again.solutions) == (whole.puzzles, whole.classes, 2)
    assert (
        critical_census(pb, all_classes(pb), point_automorphisms, path).puzzles == whole.puzzles
        and len(done) == 1
    )  # its new line reads back
    (tmp_path / "other.txt").write_text('{"not": "a census"}\n')
    with pytest.raises(Exception, match="not a census checkpoint"):
        critical_census(pb, all_classes(pb), point_automorphisms, tmp_path / "other.txt")


def test_census_refusals():
    too_big = run_cli("minimal", "latin:6", "--critical")
    assert too_big.returncode == 1 and "at most 50,000,000 Latin boards" in too_big.stderr
    assert too_big.stderr.count("\n") == 1
    with_clues = run_cli("minimal", "sudoku:2x2", "--clues", "1...............", "--critical")
    assert with_clues.returncode != 0 and "empty BOARD" in with_clues.stderr
    stray = run_cli("minimal", "latin:4", "--jobs", "2")
    assert stray.returncode == 2 and "go with --critical" in stray.stderr


def test_too_many_relabellings_are_refused_before_any_listing():
    """One asterism of 10 points: 10! relabellings would not fit the comparison's memory budget."""
    from dlx_latin.boards.board import Board
    from dlx_latin.puzzles.critical import MAX_RELABELLINGS, TooLargeForPuzzles, check_within_reach

    pb = PartialBoard(Board("one line", 10, [tuple(range(10))]))
    assert MAX_RELABELLINGS < 3_628_800
    with pytest.raises(TooLargeForPuzzles, match="at most 1,000,000 relabellings, not 3,628,800"):
        check_within_reach(pb)
