"""docs/atlas.md (written by benchmarks/atlas.py): every family is in it, its pictures exist, and its quick
counts are what the command prints now."""

import re
from pathlib import Path

import pytest
from cli import run_cli

from dlx_latin.boards.families import FAMILIES

DOCS = Path(__file__).parent.parent / "docs"
ROW = re.compile(r"^\| `([^`]+)` \| ([\d,]+) \| ([^|]*) \| ([^|]*) \| ([\d.]+) s /", re.M)


def rows() -> dict[str, tuple[int, str, str, float]]:
    text = (DOCS / "atlas.md").read_text()
    return {
        spec: (int(count.replace(",", "")), geometry.strip(), symmetry.strip(), float(seconds))
        for spec, count, geometry, symmetry, seconds in ROW.findall(text)
    }


def test_every_family_is_in_the_atlas_with_a_picture():
    text = (DOCS / "atlas.md").read_text()
    for name in FAMILIES:
        if name == "jigsaw":  # one board per cover: `jigsaw count N` sums them (docs/jigsaw.md)
            continue
        assert f"| `{name}" in text, name
    for picture in re.findall(r"\]\((atlas/[^)]+\.svg)\)", text):
        assert (DOCS / picture).is_file(), picture


@pytest.mark.parametrize(
    "spec", ["latin:5", "sudoku:2x3", "diagonal:5", "hexagon:2", "cube:2", "tetrahedron:3"]
)
def test_quick_atlas_rows_are_what_the_commands_print(spec):
    found = rows()
    if spec not in found:
        pytest.fail(f"{spec} has no counted row in docs/atlas.md")
    count, geometry, symmetry, _ = found[spec]
    assert run_cli("count", spec).stdout.strip() == str(count)
    if symmetry not in ("", "—"):
        assert run_cli("count", spec, "--up-to", "symmetry").stdout.strip() == symmetry
