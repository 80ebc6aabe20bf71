"""Pictures: every family drawn as well-formed SVG with one cell shape per point."""

from xml.dom.minidom import parseString

import pytest
from cli import run_cli

from dlx_latin.boards import FAMILIES, board_from_spec
from dlx_latin.latin import PartialBoard
from dlx_latin.render import point_kinds, render_sheet, render_svg


def shapes(svg):
    doc = parseString(svg)
    return [
        e
        for tag in ("rect", "circle", "polygon")
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
    regions, extra = point_kinds(board)
    assert len(regions) == 4 and extra == []
    diagonal_regions, diagonal_extra = point_kinds(board_from_spec("diagonal:4"))
    assert diagonal_regions == [] and len(diagonal_extra) == 2
    pb = PartialBoard(board, clues={0: 1, 5: 2})
    picture = render_svg(pb, solution=[1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1])
    texts = parseString(picture).getElementsByTagName("text")
    assert len(texts) == 16 and sum(t.getAttribute("font-weight") == "bold" for t in texts) == 2
    thick = [
        e for e in parseString(picture).getElementsByTagName("line") if e.getAttribute("stroke-width") == "3"
    ]
    assert len(thick) == 8  # the box borders inside a 4x4 grid: 2 lines of 4 segments


@pytest.mark.parametrize(("spec", "triangles"), [("triangle:4", 16), ("hexagon:2", 24), ("hexagon:3", 54)])
def test_latin_triangles_and_hexagons_are_drawn_as_unit_triangles(spec, triangles):
    doc = parseString(render_svg(PartialBoard(board_from_spec(spec))))
    polygons = [e for e in doc.getElementsByTagName("polygon") if e.getAttribute("class") == "point"]
    assert len(polygons) == triangles
    sides = set()
    for polygon in polygons:
        corners = [tuple(map(float, c.split(","))) for c in polygon.getAttribute("points").split()]
        assert len(corners) == 3
        for k in range(3):
            (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 3]
            sides.add(round(((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5))
    assert len(sides) == 1  # equilateral, all the same size: the unit triangles tile the board
    assert not doc.getElementsByTagName("circle")


@pytest.mark.parametrize(
    ("spec", "cell"), [("cube:2", 4), ("tetrahedron:2", 3), ("octahedron:3", 3), ("icosahedron:2", 3)]
)
def test_polyhedra_are_drawn_as_nets_of_their_cells(spec, cell):
    board = board_from_spec(spec)
    doc = parseString(render_svg(PartialBoard(board), highlight=0))
    polygons = doc.getElementsByTagName("polygon")
    faces = [e for e in polygons if e.getAttribute("class") == "face"]
    cells = [e for e in polygons if e.getAttribute("class") == "point"]
    assert len(faces) == len(board.faces) and len(cells) == board.n_points
    assert {len(e.getAttribute("points").split()) for e in cells} == {cell}
    assert sum(e.getAttribute("fill") == "#ffd166" for e in cells) == len(board.asterisms[0])

    def centre(e):
        xy = [tuple(map(float, c.split(","))) for c in e.getAttribute("points").split()]
        return tuple(round(sum(v) / len(xy)) for v in zip(*xy, strict=True))

    assert len({centre(e) for e in cells}) == len(cells)  # laid flat without two cells on one place


def test_the_dodecahedron_net_puts_its_edge_midpoints_on_pentagons():
    board = board_from_spec("dodecahedron")
    doc = parseString(render_svg(PartialBoard(board)))
    faces = [e for e in doc.getElementsByTagName("polygon") if e.getAttribute("class") == "face"]
    assert len(faces) == 12 and {len(e.getAttribute("points").split()) for e in faces} == {5}
    assert len(shapes(doc.toxml())) == 30


def test_the_dodecagon_star_draws_its_twelve_lines():
    doc = parseString(render_svg(PartialBoard(board_from_spec("dodecagon"))))
    assert len(doc.getElementsByTagName("line")) == 12
    assert len(doc.getElementsByTagName("circle")) == 36


def test_a_sheet_holds_every_picture_with_its_caption():
    specs = ("sudoku:2x2", "hexagon:2", "dodecagon")
    pictures = [render_svg(PartialBoard(board_from_spec(s))) for s in specs]
    sheet = parseString(render_sheet(pictures, ["a", "b", "c"], columns=2))
    assert len(shapes(sheet.toxml())) == 16 + 24 + 36
    captions = [t.firstChild.data for t in sheet.getElementsByTagName("text") if t.firstChild.data in "abc"]
    assert captions == ["a", "b", "c"]


def test_cli(tmp_path):
    out = tmp_path / "s.svg"
    assert run_cli("render", "sudoku:2x3", "--solution", "-o", str(out)).returncode == 0
    assert len(shapes(out.read_text())) == 36
    assert len(shapes(run_cli("render", "hexagon:2").stdout)) == 24
    bad = run_cli("render", "latin:3", "--highlight", "9")
    assert bad.returncode == 2 and "asterism 9" in bad.stderr
    other = run_cli("render", "latin:3", "-o", str(tmp_path / "x.pdf"))
    assert other.returncode == 2 and ".png" in other.stderr
    sheet = tmp_path / "sheet.svg"
    assert run_cli("render", "sudoku:2x2", "latin:3", "hexagon:2", "-o", str(sheet)).returncode == 0
    assert len(shapes(sheet.read_text())) == 16 + 9 + 24


def test_png(tmp_path):
    import struct

    out = tmp_path / "x.png"
    done = run_cli("render", "sudoku:2x2", "hexagon:2", "--solution", "-o", str(out))
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    sheet = render_sheet(
        [render_svg(PartialBoard(board_from_spec(s))) for s in ("sudoku:2x2", "hexagon:2")], ["", ""]
    )
    head = parseString(sheet).documentElement
    assert (width, height) == (int(head.getAttribute("width")), int(head.getAttribute("height")))


def test_png_without_cairosvg_is_a_clear_error(monkeypatch):
    import sys

    from dlx_latin.render import RenderError, svg_to_png

    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if the 'png' extra were not installed
    with pytest.raises(RenderError, match="'png' extra"):
        svg_to_png(render_svg(PartialBoard(board_from_spec("latin:3"))))


def test_boards_and_partial_boards_draw_themselves_in_notebooks():
    """Jupyter shows `_repr_svg_`: a board drawn empty, a partial board with its clues."""
    board = board_from_spec("sudoku:2x2")
    empty = parseString(board._repr_svg_())
    clued = parseString(PartialBoard(board, clues={0: 3})._repr_svg_())
    assert empty.documentElement.tagName == clued.documentElement.tagName == "svg"
    assert [t.firstChild.data for t in clued.getElementsByTagName("text")] == ["3"]
    assert empty.getElementsByTagName("text") == []
