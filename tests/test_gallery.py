"""The gallery shows every board family, and its pictures are the ones docs/make_gallery.py draws now."""

import importlib.util
from pathlib import Path

from dlx_latin.boards.families import FAMILIES

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_gallery_is_up_to_date():
    spec = importlib.util.spec_from_file_location("make_gallery", DOCS / "make_gallery.py")
    gallery = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gallery)
    drawn = gallery.pictures()
    assert set(drawn) == set(FAMILIES)
    assert (DOCS / "gallery.md").read_text() == gallery.page(drawn)
    for name, (_spec, svg) in drawn.items():
        assert (DOCS / "gallery" / f"{name}.svg").read_text() == svg, f"rerun docs/make_gallery.py ({name})"
        assert "<text" in svg, f"{name} is drawn without a Latin board"
