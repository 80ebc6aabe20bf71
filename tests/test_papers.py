"""Palomo's figures as example files: what `check` reports of each, with exact numbers, and docs/papers.md
(drawn by docs/make_papers.py) up to date."""

import importlib.util
import json
from pathlib import Path

import pytest
from cli import run_cli

from dlx_latin.formats.puzzle import read_puzzle
from dlx_latin.latin import completions
from dlx_latin.puzzles.report import check_report

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

FIG5 = [  # the four Latin squares of Fig. 5, row by row
    "6127354364571272645311356427257164354321764713265",
    "6127354367541273645211256743254163754321764713265",
    "6127354364571273645211256437257164354321764713265",
    "7625314316745263745211256743254163754321764713265",
]


def puzzle(name):
    return read_puzzle((EXAMPLES / f"{name}.json").read_text())


# name -> (solutions, removable clues or their number, fair)
EXPECTED = {
    "palomo-fig2": (1, 35, True),
    "palomo-fig4-top-left": (4, None, None),
    "palomo-fig4-top-right": (0, None, None),
    "palomo-fig4-bottom-left": (1, [0, 5, 21, 35, 38, 40, 41, 47, 48], True),
    "palomo-fig4-bottom-right": (1, [35, 38, 40, 41, 47, 48], False),
    "palomo-fig6-win-one": (1, 46, True),
    "palomo-fig9-quadoku-one": (1, 35, True),
    "palomo-fig13-tartan-one": (1, 52, True),
    "sudoku-ripeto-fig21": (1, 39, True),
    "palomo-fig23-quadoku-ripeto": (1, 44, True),
    "palomo-fig30-custom-sudoku": (1, [2, 7, 10, 13, 19, 46, 53, 55, 60, 64, 73, 77], False),
    "palomo-fig31": (1, 23, True),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_figure_reports_what_the_tool_finds(name):
    solutions, removable, fair = EXPECTED[name]
    fig = puzzle(name)
    report = check_report(fig.partial)
    assert report["partial_latin"] and report["solutions"] == solutions
    if isinstance(removable, int):
        assert len(report["removable_clues"]) == removable
    else:
        assert report["removable_clues"] == removable
    assert report["fair"] is fair
    if solutions == 1:  # the completion is the solution the paper prints beside the puzzle
        (only,) = completions(fig.partial)
        if fig.solution is not None:
            assert list(only) == list(fig.solution)


def test_figure_4_top_left_completes_to_the_four_squares_of_figure_5():
    found = {"".join(map(str, s)) for s in completions(puzzle("palomo-fig4-top-left").partial)}
    assert found == set(FIG5)
    assert all(s[4] != "2" for s in FIG5)  # why the top-right square, with a 2 there, has none


def test_figure_3_is_a_partial_magma():
    report = check_report(puzzle("palomo-fig3-partial-magma").partial)
    assert not report["partial_latin"] and report["solutions"] == 0


def test_figure_30_keeps_its_inscription_and_only_outer_clues_go():
    fig = puzzle("palomo-fig30-custom-sudoku")
    centre = {r * 9 + c for r in range(3, 6) for c in range(3, 6)}
    assert fig.partial.inscription == frozenset(centre)
    assert sorted(fig.partial.multiset.as_list()) == sorted("SUDOKUONE")
    out = json.loads(run_cli("check", str(EXAMPLES / "palomo-fig30-custom-sudoku.json"), "--json").stdout)
    assert out["unique"] and out["critical"] is False and len(out["removable_clues"]) == 12
    assert not centre.intersection(out["removable_clues"])


def test_figure_4_bottom_right_is_not_critical_from_the_cli():
    out = run_cli("check", str(EXAMPLES / "palomo-fig4-bottom-right.json"))
    assert "critical: no" in out.stdout and "removable clues: 35, 38, 40, 41, 47, 48" in out.stdout


def test_the_papers_page_is_up_to_date():
    spec = importlib.util.spec_from_file_location("make_papers", ROOT / "docs" / "make_papers.py")
    papers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(papers)
    assert {name for name, _, _ in papers.FIGURES} == set(EXPECTED) | {"palomo-fig3-partial-magma"}
    results = papers.checked()
    assert (ROOT / "docs" / "papers.md").read_text() == papers.page(results)
    for name, (_report, svg) in results.items():
        assert (ROOT / "docs" / "papers" / f"{name}.svg").read_text() == svg, "rerun docs/make_papers.py"
