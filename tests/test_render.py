"""Pictures: every family drawn as well-formed SVG with one cell shape per point."""

from xml.dom.minidom import parseString

import pytest
from cli import run_cli

from catalog.render import _kinds, render_svg
from dlx_latin.boards import FAMILIES, board_from_spec
from dlx_latin.latin import PartialBoard


def shapes(svg):
    doc = parseString(svg)
    return [
        e
        for tag in ("rect", "circle")
        for e in doc.getElementsByTagName(tag)
        if e.getAttribute("class") == "point"
    ]


@pytest.mark.parametrize("spec", [family.example for family in FAMILIES.values()])
def test_every_family_renders(spec):
    pb = PartialBoard(board_from_spec(spec))
    picture = render_svg(pb, highlight=len(pb.board.asterisms) - 1)
    assert len(shapes(picture)) == pb.board.n_points


def test_regions_and_labels():
    board = board_from_spec("sudoku:2x2")
    regions, extra = _kinds(board)
    assert len(regions) == 4 and extra == []
    diagonal_regions, diagonal_extra = _kinds(board_from_spec("diagonal:4"))
    assert diagonal_regions == [] and len(diagonal_extra) == 2
    pb = PartialBoard(board, clues={0: 1, 5: 2})
    picture = render_svg(pb, solution=[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])
    texts = parseString(picture).getElementsByTagName("text")
    assert len(texts) == 16 and sum(t.getAttribute("font-weight") == "bold" for t in texts) == 2
    thick = [
        e for e in parseString(picture).getElementsByTagName("line") if e.getAttribute("stroke-width") == "3"
    ]
    assert len(thick) == 8  # the box borders inside a 4x4 grid: 2 lines of 4 segments


def test_cli(tmp_path):
    out = tmp_path / "s.svg"
    assert run_cli("render", "sudoku:2x3", "--solution", "-o", str(out)).returncode == 0
    assert len(shapes(out.read_text())) == 36
    assert len(shapes(run_cli("render", "hexagon:2").stdout)) == 24
    bad = run_cli("render", "latin:3", "--highlight", "9")
    assert bad.returncode == 2 and "asterism 9" in bad.stderr
    png = run_cli("render", "latin:3", "-o", str(tmp_path / "x.png"))
    assert png.returncode == 2 and ".svg" in png.stderr
