"""Classes found asterism by asterism (symmetry.levels) against listing every Latin board."""

import pytest
from cli import run_cli

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import Multiset, PartialBoard
from symmetry.counting import canonical_classes
from symmetry.levels import canonical_forms, expand, first_level, next_points
from symmetry.nauty_form import NautyCanonizer


def classes_by_levels(spec: str, multiset: str | None = None) -> set:
    board = board_from_spec(spec)
    m = Multiset.parse(multiset) if multiset else Multiset.default(board.asterism_size)
    pb = PartialBoard(board, m)
    canon = NautyCanonizer(board, m)
    full = expand(first_level(pb), canon)
    assert all(next_points(board, b.clues) is None for b in full)
    return {f.labelling for f in canonical_forms(full, canon)}


@pytest.mark.parametrize(
    "spec,multiset",
    [
        ("latin:4", None),
        ("latin:5", None),
        ("sudoku:2x2", None),
        ("sudoku:2x3", None),
        ("latin:5", "1^2,2^2,3"),
        ("diagonal:6", None),
        ("cube:2", None),
        ("hexagon:2", None),
    ],
)
def test_levels_reach_exactly_the_listed_classes(spec, multiset):
    board = board_from_spec(spec)
    m = Multiset.parse(multiset) if multiset else Multiset.default(board.asterism_size)
    listed = {f.labelling for f in canonical_classes(PartialBoard(board, m))}
    assert classes_by_levels(spec, multiset) == listed


@pytest.mark.parametrize(
    "spec,multiset", [("latin:5", None), ("sudoku:2x3", None), ("latin:5", "1^2,2^2,3"), ("hexagon:2", None)]
)
def test_asterisms_filled_a_few_points_at_a_time_reach_the_same_classes(spec, multiset, monkeypatch):
    """With at most 10 arrangements per level, asterisms are filled one or two points at a time (as
    hexagon:3's are, 12 free points at once being too many); the classes must not change."""
    import symmetry.levels

    board = board_from_spec(spec)
    m = Multiset.parse(multiset) if multiset else Multiset.default(board.asterism_size)
    listed = {f.labelling for f in canonical_classes(PartialBoard(board, m))}
    whole_levels = symmetry.levels.levels(PartialBoard(board, m))
    monkeypatch.setattr(symmetry.levels, "MAX_FILLINGS", 10)
    assert symmetry.levels.levels(PartialBoard(board, m)) > whole_levels
    assert classes_by_levels(spec, multiset) == listed


def test_the_latin_hexagons_of_side_3_make_one_class(tmp_path):
    """hexagon:3 (Douze France) has too many fillings per asterism to list; filled a few points at a time,
    its 13,936,573,991,099,572,420,608,000 Latin hexagons turn out to be one class, whose orbit size is
    the exact count (the build checks it).  Random Latin hexagons all share its canonical form."""
    import json
    import random
    import sqlite3

    from dlx_latin.latin.completion import random_latin_board

    path = str(tmp_path / "h.sqlite")
    done = run_cli("catalog", "build", "hexagon:3", "--db", path)
    assert done.returncode == 0, done.stderr
    assert "1 classes, orbit sizes summing to 13936573991099572420608000" in done.stdout
    ((canonical, orbit),) = sqlite3.connect(path).execute("SELECT canonical, orbit_size FROM solutions")
    assert orbit == "13936573991099572420608000"
    pb = PartialBoard(board_from_spec("hexagon:3"))
    canon = NautyCanonizer(pb.board, pb.multiset)
    rng = random.Random(7)
    keys = {canon.key(random_latin_board(pb, rng)) for _ in range(5)}
    assert keys == {canon.key(json.loads(canonical))}
    stats = run_cli("catalog", "stats", "--json", "--db", path).stdout
    assert '"total": 13936573991099572420608000' in stats


def test_one_level_at_a_time():
    """Every board of a level has the same points filled, and a level keeps one board per class."""
    board = board_from_spec("latin:5")
    pb = PartialBoard(board, Multiset.default(5))
    canon = NautyCanonizer(board, pb.multiset)
    level = expand(first_level(pb), canon, until=3)
    assert len(level) >= 3 and len({frozenset(b.clues) for b in level}) == 1
    keys = {canon.key([b.clues.get(p) for p in range(board.n_points)]) for b in level}
    assert len(keys) == len(level)


def test_catalog_builds_by_levels_when_listing_is_refused(tmp_path):
    """With --max-boards below what listing needs, the catalog is built level by level; its orbit sizes
    must still add up to the exact count (the build checks it)."""
    path = str(tmp_path / "l.sqlite")
    done = run_cli("catalog", "build", "sudoku:2x3", "--max-boards", "100", "--db", path)
    assert done.returncode == 0 and "49 classes, orbit sizes summing to 28200960" in done.stdout
    stats = run_cli("catalog", "stats", "--db", path).stdout
    assert "28200960" in stats


def test_a_killed_build_by_levels_resumes_to_the_same_catalog(tmp_path):
    """Each level is a part, stored with its partial boards in one transaction: SIGKILL inside level 3's
    transaction, run again, and the catalog equals an uninterrupted one."""
    import os
    import sqlite3
    import subprocess
    import sys

    from catalog.build import KILL_PART

    whole, broken = str(tmp_path / "whole.sqlite"), str(tmp_path / "broken.sqlite")
    args = ["catalog", "build", "sudoku:2x3", "--max-boards", "100", "--db"]
    assert run_cli(*args, whole).returncode == 0
    killed = subprocess.run(
        [sys.executable, "-m", "dlx_latin", *args, broken],
        env={**os.environ, KILL_PART: "3"},
        capture_output=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert killed.returncode == -9
    done = sqlite3.connect(broken).execute("SELECT count(*) FROM run_parts WHERE done = 1").fetchone()[0]
    assert done == 3
    again = run_cli(*args, broken)
    assert again.returncode == 0 and "3 of" in again.stdout and "parts already built" in again.stdout

    def rows(path: str) -> list:
        return (
            sqlite3.connect(path).execute("SELECT canonical, orbit_size FROM solutions ORDER BY 1").fetchall()
        )

    assert rows(broken) == rows(whole) and len(rows(whole)) == 49


def test_classes_up_to_symmetry_fall_back_to_levels(monkeypatch):
    """When listing is refused, count --up-to symmetry finds the classes level by level (the orbit sizes
    are still checked against the exact count): sudoku:2x3 has 49."""
    import symmetry.counting
    from symmetry.counting import classes_up_to_symmetry
    from symmetry.errors import SymmetryTooLargeError

    def refuse(pb, max_boards=0, progress=None):
        raise SymmetryTooLargeError("too many to list")

    monkeypatch.setattr(symmetry.counting, "canonical_classes", refuse)
    found = classes_up_to_symmetry(PartialBoard(board_from_spec("sudoku:2x3")))
    assert len(found) == 49 and sum(found.values()) == 28200960


def test_a_level_too_large_is_refused_early(monkeypatch):
    """A level projected past MAX_LEVEL_KEYS canonical forms is refused before it is worked through (tartan:
    some 800,000 at its second level, refused in half a minute instead of hours)."""
    from symmetry import levels
    from symmetry.counting import SymmetryTooLargeError

    monkeypatch.setattr(levels, "MAX_LEVEL_KEYS", 100)
    monkeypatch.setattr(levels, "PROJECT_FROM", 20)
    pb = PartialBoard(board_from_spec("latin:6"))
    canonizer = NautyCanonizer(pb.board, pb.multiset)
    with pytest.raises(SymmetryTooLargeError, match="canonical forms at one level"):
        expand(first_level(pb), canonizer)
    monkeypatch.setattr(levels, "MAX_LEVEL_KEYS", 500)
    assert len(canonical_forms(expand(first_level(pb), canonizer), canonizer)) == 17  # under it: as before


def test_listing_that_searches_too_long_is_refused(monkeypatch):
    from symmetry import counting

    monkeypatch.setattr(counting, "MAX_LISTING_NODES", 1000)
    with pytest.raises(counting.SymmetryTooLargeError, match="search nodes"):
        next(canonical_classes(PartialBoard(board_from_spec("latin:7"))))
