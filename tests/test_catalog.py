"""Catalogs of canonical solutions: exact orbit sums, and builds killed (SIGKILL) then resumed."""

import json
import os
import sqlite3
import subprocess
import sys

import pytest
from cli import run_cli

from catalog.build import KILL_PART, build_solutions
from catalog.store import CatalogError, open_catalog
from dlx_latin.boards import board_from_spec
from dlx_latin.latin import PartialBoard, completions
from symmetry.pruned import leaves


def rows(path):
    db = sqlite3.connect(path)
    return sorted(
        db.execute(
            "SELECT b.spec, s.canonical, s.orbit_size, s.automorphisms FROM solutions s "
            "JOIN boards b ON b.id = s.board_id"
        ).fetchall()
    )


def test_orbit_sizes_add_up(tmp_path):
    db = open_catalog(tmp_path / "c.sqlite")
    cases = {
        "sudoku:2x2": (2, 288),
        "sudoku:2x3": (49, 28200960),
        "latin:5": (2, 161280),
        "latin:4": (2, 576),
    }
    for spec, (classes, total) in cases.items():
        built = build_solutions(db, PartialBoard(board_from_spec(spec)), spec)
        assert (built.classes, built.total) == (classes, total)
    again = build_solutions(db, PartialBoard(board_from_spec("sudoku:2x3")), "sudoku:2x3")
    assert (again.classes, again.parts_run) == (49, 0)  # a finished build is not redone


def build_killed_at(path, part):
    env = {**os.environ, KILL_PART: str(part)}
    done = subprocess.run(
        [sys.executable, "-m", "dlx_latin", "catalog", "build", "sudoku:2x3", "--db", str(path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == -9  # killed inside that part's transaction


def test_killed_builds_resume_to_the_same_catalog(tmp_path):
    whole = tmp_path / "whole.sqlite"
    assert run_cli("catalog", "build", "sudoku:2x3", "--db", str(whole)).returncode == 0
    broken = tmp_path / "broken.sqlite"  # parts: the symmetry leaves, symmetric ones merged
    build_killed_at(broken, 0)
    done, parts = sqlite3.connect(broken).execute("SELECT sum(done), count(*) FROM run_parts").fetchone()
    assert done == 0 and parts == len(leaves(PartialBoard(board_from_spec("sudoku:2x3")))) > 2
    build_killed_at(broken, 1)
    again = run_cli("catalog", "build", "sudoku:2x3", "--db", str(broken))
    assert again.returncode == 0 and f"1 of {parts} parts already built" in again.stdout
    assert rows(broken) == rows(whole) and len(rows(whole)) == 49
    stats = json.loads(run_cli("catalog", "stats", "--json", "--db", str(broken)).stdout)
    assert stats == {
        "board": "sudoku:2x3",
        "multiset": "1,2,3,4,5,6",
        "classes": 49,
        "total": 28200960,
        "status": "done",
        "parts": parts,
        "parts_done": parts,
        "puzzle_classes": 0,
        "sampled_boards": 0,
        "count": 28200960,  # an exhaustive build knows the count
        "complete": True,
    }


def test_sampled_classes_are_exact_and_grow_to_the_whole_catalog(tmp_path):
    """Random boards' classes are classes of the exhaustive catalog; boards drawn with the symmetries of the
    symmetric classes found bring the rare ones (latin:6: 15 of 17 classes from 300 random squares, all 17
    with them, orbit sizes adding up to the count); a sample grown in two steps ends in the same catalog."""
    from catalog.build import build_sampled_solutions, sampled_rows

    pb, spec = PartialBoard(board_from_spec("latin:6")), "latin:6"
    whole = open_catalog(tmp_path / "whole.sqlite")
    built = build_solutions(whole, pb, spec)
    assert (built.classes, built.total) == (17, 812851200)
    assert build_solutions(whole, pb, spec).parts_run == 0  # a finished build by levels is not redone
    plain = {r[1] for k in range(3) for r in sampled_rows(pb.board, pb.multiset, 1, str(k))}
    once = open_catalog(tmp_path / "once.sqlite")
    sampled = build_sampled_solutions(once, pb, spec, 300)
    found = rows(tmp_path / "once.sqlite")
    assert found == rows(tmp_path / "whole.sqlite")
    assert len(plain) < sampled.classes == 17 and sampled.total == 812851200
    steps = tmp_path / "steps.sqlite"
    first = run_cli("catalog", "build", spec, "--sample", "150", "--db", str(steps))
    assert first.returncode == 0
    more = run_cli("catalog", "build", spec, "--sample", "300", "--db", str(steps))
    assert more.returncode == 0
    assert "17 classes in the catalog, orbit sizes summing to 812851200" in more.stdout
    assert rows(steps) == found
    stats = json.loads(run_cli("catalog", "stats", "--json", "--db", str(steps)).stdout)
    assert (stats["sampled_boards"], stats["classes"], stats["status"]) == (300, 17, "none")
    assert stats["count"] is None and stats["complete"] is None  # not known until certified
    certified = json.loads(run_cli("catalog", "certify", spec, "--json", "--db", str(steps)).stdout)
    assert certified == {
        "board": spec,
        "classes": 17,
        "held": 812851200,
        "count": 812851200,
        "complete": True,
    }
    stats = json.loads(run_cli("catalog", "stats", "--json", "--db", str(steps)).stdout)
    assert (stats["count"], stats["complete"]) == (812851200, True)
    db = sqlite3.connect(steps)  # a class lost: the count, kept from the first certify, tells
    db.execute(
        "DELETE FROM solutions WHERE orbit_size = (SELECT max(CAST(orbit_size AS INTEGER)) FROM solutions)"
    )
    db.commit()
    short = run_cli("catalog", "certify", spec, "--db", str(steps))
    assert (
        short.stdout.startswith("latin:6: incomplete: 16 classes hold ")
        and "of 812851200 Latin boards" in short.stdout
    )
    held = int(short.stdout.split(" hold ")[1].split()[0])
    assert 812851200 - held == max(int(f[2]) for f in found)
    missing = run_cli("catalog", "certify", "latin:5", "--db", str(steps))
    assert missing.returncode == 1 and "the catalog has no board latin:5" in missing.stderr


def test_query_and_errors(tmp_path):
    path = tmp_path / "c.sqlite"
    run_cli("catalog", "build", "sudoku:2x2", "--db", str(path))
    found = [
        json.loads(line)
        for line in run_cli(
            "catalog", "query", "--board", "sudoku:2x2", "--db", str(path)
        ).stdout.splitlines()
    ]
    assert [f["orbit_size"] for f in found] == [192, 96] and [f["automorphisms"] for f in found] == [16, 32]
    missing = run_cli("catalog", "query", "--board", "latin:9", "--db", str(path))
    assert missing.returncode == 1 and "no board latin:9" in missing.stderr
    assert "no catalog" in run_cli("catalog", "stats", "--db", str(tmp_path / "none.sqlite")).stderr
    sqlite3.connect(path).execute(
        "UPDATE meta SET value = '99' WHERE key = 'schema_version'"
    ).connection.commit()
    with pytest.raises(CatalogError, match="schema version 99"):
        open_catalog(path)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)")
    with pytest.raises(CatalogError, match="not a dlx-latin catalog"):
        open_catalog(other)
    big = run_cli(
        "catalog", "build", "sudoku:3x3", "--db", str(tmp_path / "big.sqlite"), "--max-boards", "1000"
    )
    assert big.returncode == 1 and "more than 1000 Latin boards" in big.stderr
    assert "more than 64 points to find them asterism by asterism" in big.stderr


def test_export_import_round_trip(tmp_path):
    first, second = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    for spec in ("sudoku:2x2", "latin:4"):
        run_cli("catalog", "build", spec, "--db", str(first))
    run_cli("catalog", "build", "sudoku:2x2", "--minimal-puzzles", "--db", str(first))
    exported = run_cli("catalog", "export", "--db", str(first)).stdout
    assert len(exported.splitlines()) == 4 + 36
    (tmp_path / "e.jsonl").write_text(exported)
    assert run_cli("catalog", "import", str(tmp_path / "e.jsonl"), "--db", str(second)).stdout.strip() == (
        "40 rows added"
    )
    assert run_cli("catalog", "export", "--db", str(second)).stdout == exported
    assert rows(first) == rows(second)
    table = "SELECT b.spec, p.* FROM puzzles p JOIN boards b ON b.id = p.board_id ORDER BY p.clues"
    first_rows = [r[:1] + r[2:] for r in sqlite3.connect(first).execute(table)]  # board ids may differ
    assert first_rows == [r[:1] + r[2:] for r in sqlite3.connect(second).execute(table)] and first_rows
    grids = run_cli(
        "catalog", "export", "--format", "grid", "--board", "sudoku:2x2", "--db", str(first)
    ).stdout
    assert grids.count("#") == 2 + 36 and "1234" in grids and grids.count(" puzzle, ") == 36
    bad = run_cli("catalog", "import", "-", "--db", str(second), stdin='{"board": "latin:4"}\n')
    assert bad.returncode == 1 and "line 1 is not an exported solution or puzzle" in bad.stderr
    ipuz = run_cli("catalog", "export", "--format", "ipuz", "--board", "sudoku:2x2", "--db", str(first))
    documents = [json.loads(line) for line in ipuz.stdout.splitlines()]
    records = [json.loads(line) for line in exported.splitlines() if '"sudoku:2x2"' in line]
    assert len(documents) == len(records) == 2 + 36
    for doc, record in zip(documents, records, strict=True):
        assert doc["kind"] == ["http://ipuz.org/sudoku#1"] and doc["dimensions"] == {"width": 4, "height": 4}
        assert doc["boxes"] is True and doc["charset"] == "1234" and doc["empty"] == 0
        flat = [v for row in doc["puzzle"] for v in row]
        given = record.get("puzzle", record.get("labelling"))
        assert flat == [0 if v is None else v for v in given]
        assert [v for row in doc["solution"] for v in row] == record.get("solution", record.get("labelling"))
    assert sum(doc.get("difficulty") is not None for doc in documents) == sum(
        bool(r.get("fair")) for r in records
    )


def test_critical_puzzles_of_the_4x4_sudoku(tmp_path):
    from catalog.build import build_critical_puzzles
    from dlx_latin.latin import count_completions
    from dlx_latin.puzzles.critical import LatinBoards

    pb = PartialBoard(board_from_spec("sudoku:2x2"))
    db = open_catalog(tmp_path / "p.sqlite")
    built = build_critical_puzzles(db, pb, "sudoku:2x2")
    grids, boards = list(completions(pb)), LatinBoards(pb)
    assert len(grids) == 288
    assert built.total == sum(len(boards.critical_masks(g)) for g in grids)  # orbits add up, grid by grid
    stored = db.execute("SELECT clues, solution, clue_count FROM puzzles").fetchall()
    assert len(stored) == built.classes == 36
    assert {count for _, _, count in stored} == {4, 5, 6}
    for clues_text, solution_text, _ in stored:  # each one checked by the engine
        clues = {p: x for p, x in enumerate(json.loads(clues_text)) if x is not None}
        assert list(next(iter(completions(PartialBoard(pb.board, clues=clues))))) == json.loads(solution_text)
        assert count_completions(PartialBoard(pb.board, clues=clues), limit=2) == 1
        for p in clues:
            fewer = {q: x for q, x in clues.items() if q != p}
            assert count_completions(PartialBoard(pb.board, clues=fewer), limit=2) == 2


def test_killed_puzzle_build_resumes(tmp_path):
    whole, broken = tmp_path / "w.sqlite", tmp_path / "b.sqlite"
    run_cli("catalog", "build", "sudoku:2x2", "--minimal-puzzles", "--jobs", "2", "--db", str(whole))
    killed = subprocess.run(
        [
            sys.executable,
            "-m",
            "dlx_latin",
            "catalog",
            "build",
            "sudoku:2x2",
            "--minimal-puzzles",
            "--db",
            str(broken),
        ],
        env={**os.environ, KILL_PART: "1"},
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert killed.returncode == -9
    done = run_cli("catalog", "build", "sudoku:2x2", "--minimal-puzzles", "--db", str(broken))
    assert "36 classes of critical puzzles, 85632 puzzles in all" in done.stdout
    table = "SELECT * FROM puzzles ORDER BY clues"
    assert (
        sqlite3.connect(whole).execute(table).fetchall() == sqlite3.connect(broken).execute(table).fetchall()
    )
    fewest = [
        json.loads(x)
        for x in run_cli(
            "catalog", "query", "--board", "sudoku:2x2", "--puzzles", "--minimal", "--db", str(whole)
        ).stdout.splitlines()
    ]
    assert len(fewest) == 13 and all(p["clue_count"] == 4 and p["minimal"] for p in fewest)
    fair = run_cli(
        "catalog",
        "query",
        "--board",
        "sudoku:2x2",
        "--puzzles",
        "--fair",
        "--rating",
        "very easy",
        "--db",
        str(whole),
    ).stdout.splitlines()
    assert len(fair) == 36  # attrition solves every critical 4x4 Sudoku puzzle with singles
    assert (
        run_cli(
            "catalog", "query", "--board", "sudoku:2x2", "--puzzles", "--not-fair", "--db", str(whole)
        ).stdout
        == ""
    )
    too_big = run_cli("catalog", "build", "latin:6", "--minimal-puzzles", "--db", str(whole))
    assert too_big.returncode == 1 and "at most 50,000,000 Latin boards" in too_big.stderr
    assert too_big.stderr.count("\n") == 1 and "latin:6" not in too_big.stdout  # refused before building
    stats = run_cli("catalog", "stats", "--db", str(whole), "--json").stdout
    assert "latin:6" not in stats


def test_puzzles_with_the_fewest_clues(tmp_path):
    """Every 4-clue 4x4 Sudoku puzzle, up to symmetry: their orbit sizes add up to 25,728, the number found
    by trying every 4-clue set of every one of the 288 grids (dlx_latin.puzzles.critical)."""
    from dlx_latin.puzzles.critical import LatinBoards

    path = str(tmp_path / "f.sqlite")
    done = run_cli("catalog", "build", "sudoku:2x2", "--fewest-clues", "--db", path)
    assert done.returncode == 0
    assert "13 classes of puzzles with the fewest clues, 25728 puzzles in all" in done.stdout
    pb = PartialBoard(board_from_spec("sudoku:2x2"))
    boards = LatinBoards(pb)
    every = sum(1 for b in completions(pb) for m in boards.critical_masks(b) if m.bit_count() == 4)
    assert every == 25728
    found = run_cli("catalog", "query", "--board", "sudoku:2x2", "--puzzles", "--minimal", "--db", path)
    records = [json.loads(line) for line in found.stdout.splitlines()]
    assert len(records) == 13 and all(r["clue_count"] == 4 and r["minimal"] for r in records)
    assert sum(r["orbit_size"] for r in records) == 25728


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_six_by_six_sudoku_puzzles_with_eight_clues(tmp_path):
    """The 6x6 Sudoku's 8-clue puzzles (8 is the fewest, A372224), one per class: about 4 minutes."""
    path = str(tmp_path / "f6.sqlite")
    done = run_cli("catalog", "build", "sudoku:2x3", "--fewest-clues", "--db", path, timeout=1200)
    assert "537 classes of puzzles with the fewest clues, 1310100480 puzzles in all" in done.stdout


def test_generated_puzzles(tmp_path):
    path = str(tmp_path / "g.sqlite")
    first = run_cli("catalog", "build", "sudoku:3x3", "--puzzles", "3", "--rating", "easy", "--db", path)
    assert first.stdout.strip() == "sudoku:3x3: 3 puzzle classes in the catalog (3 generated now)"
    more = run_cli("catalog", "build", "sudoku:3x3", "--puzzles", "4", "--rating", "easy", "--db", path)
    assert "(1 generated now)" in more.stdout
    found = [
        json.loads(x)
        for x in run_cli(
            "catalog", "query", "--board", "sudoku:3x3", "--puzzles", "--db", path
        ).stdout.splitlines()
    ]
    assert len(found) == 4 and all(p["fair"] and p["rating"] == "easy" for p in found)
    board = board_from_spec("sudoku:3x3")
    for p in found:
        clues = {q: x for q, x in enumerate(p["clues"]) if x is not None}
        assert list(next(iter(completions(PartialBoard(board, clues=clues), limit=2)))) == p["solution"]
    assert run_cli("catalog", "build", "sudoku:3x3", "--rating", "easy", "--db", path).returncode == 2


def test_parallel_builds_equal_sequential_ones(tmp_path):
    one, two = tmp_path / "1.sqlite", tmp_path / "2.sqlite"
    for path, jobs in ((one, "1"), (two, "2")):
        assert run_cli("catalog", "build", "sudoku:2x3", "--jobs", jobs, "--db", str(path)).returncode == 0
        assert (
            run_cli(
                "catalog", "build", "sudoku:3x3", "--puzzles", "3", "--jobs", jobs, "--db", str(path)
            ).returncode
            == 0
        )
    assert rows(one) == rows(two) and len(rows(one)) == 49
    table = "SELECT * FROM puzzles ORDER BY clues"
    assert sqlite3.connect(one).execute(table).fetchall() == sqlite3.connect(two).execute(table).fetchall()


def test_a_build_on_a_dask_cluster_equals_a_local_one(tmp_path):
    distributed = pytest.importorskip("distributed")  # the dask extra (the README's test command installs it)

    here, there = tmp_path / "here.sqlite", tmp_path / "there.sqlite"
    assert run_cli("catalog", "build", "sudoku:2x3", "--db", str(here)).returncode == 0
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as cluster:
        out = run_cli(
            "catalog", "build", "sudoku:2x3", "--scheduler", cluster.scheduler_address, "--db", str(there)
        )
        assert out.returncode == 0, out.stderr
    assert rows(here) == rows(there) and len(rows(here)) == 49
    bad = run_cli("catalog", "build", "sudoku:2x2", "--scheduler", "tcp://127.0.0.1:9", "--db", str(there))
    assert bad.returncode == 1 and "cannot reach the Dask scheduler" in bad.stderr


@pytest.mark.parametrize("seed", range(30))
def test_minimal_hitting_sets_against_every_subset(seed):
    """MMCS gives each inclusion-minimal hitting set exactly once: against trying all 2^10 subsets."""
    import random

    from dlx_latin.puzzles.hitting import minimal_hitting_sets

    rng = random.Random(seed)
    sets = [sum(1 << e for e in rng.sample(range(10), rng.randint(1, 5))) for _ in range(rng.randint(1, 9))]
    hitting = [h for h in range(1 << 10) if all(h & s for s in sets)]
    minimal = {h for h in hitting if not any(g != h and g & h == g for g in hitting)}
    found = list(minimal_hitting_sets(sets))
    assert len(found) == len(set(found)) and set(found) == minimal


@pytest.mark.parametrize(
    "spec,multiset",
    [("sudoku:2x2", None), ("latin:4", "1^2,2^2"), ("diagonal:5", None), ("latin:5", "1^2,2^2,3")],
)
def test_unavoidable_sets_from_fixed_first_asterisms_and_relabellings(spec, multiset):
    """LatinBoards compares a solution with the boards whose first asterism is fixed, moved by every
    relabelling: the same least unavoidable sets as comparing it with every Latin board listed."""
    import random

    from dlx_latin.latin.multiset import Multiset
    from dlx_latin.puzzles.critical import LatinBoards

    pb = PartialBoard(board_from_spec(spec), Multiset.parse(multiset) if multiset else None)
    every, held = list(completions(pb)), LatinBoards(pb)
    for solution in random.Random(spec).sample(every, 3):
        differ = {sum(1 << p for p in range(len(b)) if b[p] != solution[p]) for b in every} - {0}
        least: list[int] = []
        for d in sorted(differ, key=lambda d: (d.bit_count(), d)):
            if not any(k & d == k for k in least):
                least.append(d)
        assert held.unavoidable_sets(solution) == least


def test_orbit_representatives_of_clue_sets():
    """The least clue set of each orbit under a grid's own symmetries, against orbits closed by hand."""
    from dlx_latin.puzzles.critical import LatinBoards, orbit_representatives
    from symmetry.nauty_form import NautyCanonizer

    pb = PartialBoard(board_from_spec("sudoku:2x2"))
    canon, held = NautyCanonizer(pb.board, pb.multiset), LatinBoards(pb)
    for grid in list(completions(pb))[:20]:
        masks, generators = held.critical_masks(grid), canon.point_automorphisms(grid)
        left, least = set(masks), []
        while left:
            orbit, todo = set(), [min(left)]
            while todo:
                m = todo.pop()
                if m not in orbit:
                    orbit.add(m)
                    todo += [sum(1 << g[p] for p in range(16) if m >> p & 1) for g in generators]
            least.append(min(orbit))
            left -= orbit
        assert orbit_representatives(masks, generators) == sorted(least)


def test_critical_clue_sets_are_exactly_those_of_the_definition():
    """On two 4x4 Sudoku grids and two Latin squares of order 4, every clue set (2^16) is tried with the
    engine's own notion: a puzzle has one completion, and is critical when no clue can go."""
    import numpy as np

    from dlx_latin.puzzles.critical import LatinBoards

    for spec in ("sudoku:2x2", "latin:4"):
        pb = PartialBoard(board_from_spec(spec))
        boards, held = list(completions(pb)), LatinBoards(pb)
        table = np.array(boards)
        masks = np.arange(1 << 16)
        given = (masks[:, None] >> np.arange(16)) & 1 == 1
        for solution in (boards[0], boards[-1]):
            agree = table == np.array(solution)  # boards x points
            # completions of each clue set: boards agreeing with the solution on every clue
            unique = np.array([(agree | ~given[m]).all(axis=1).sum() == 1 for m in range(1 << 16)])
            critical = {
                m
                for m in np.flatnonzero(unique).tolist()
                if all(not unique[m & ~(1 << p)] for p in range(16) if m >> p & 1)
            }
            assert set(held.critical_masks(solution)) == critical


@pytest.mark.parametrize(
    "n,line",
    [(4, "21 classes of critical puzzles, 400896 puzzles in all"), (5, "2353 classes of critical puzzles")],
)
def test_every_critical_set_of_latin_squares(n, line, tmp_path):
    """Every critical set of every Latin square of order 4 and 5, up to symmetry: the smallest have
    floor(n^2/4) clues (4 and 6) and the largest lcs(n) = 7 and 11 clues (OEIS A063437)."""
    import sqlite3

    path = str(tmp_path / "c.sqlite")
    done = run_cli("catalog", "build", f"latin:{n}", "--minimal-puzzles", "--db", path, timeout=300)
    assert done.returncode == 0 and line in done.stdout
    sizes = sqlite3.connect(path).execute("SELECT min(clue_count), max(clue_count) FROM puzzles").fetchone()
    assert sizes == {4: (4, 7), 5: (6, 11)}[n]


def test_ratings_from_older_rules_are_rated_again(tmp_path):
    """A catalog whose puzzles were rated by attrition rules older than `proof.RULES_VERSION` (no mark) is
    rated again before a query reads it, and its ratings equal `check`'s of the same puzzle moved."""
    from dlx_latin.puzzles.proof import RULES_VERSION, verdict

    path = str(tmp_path / "r.sqlite")
    assert run_cli("catalog", "build", "sudoku:3x3", "--puzzles", "3", "--db", path).returncode == 0
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key='rating_rules'").fetchone() == (str(RULES_VERSION),)
    with db:
        db.execute("DELETE FROM meta WHERE key='rating_rules'")
        db.execute("UPDATE puzzles SET fair=1, rating='very easy', score=7")
    db.close()
    out = run_cli("catalog", "query", "--board", "sudoku:3x3", "--puzzles", "--db", path)
    assert out.returncode == 0, out.stderr
    found = [json.loads(x) for x in out.stdout.splitlines()]
    assert len(found) == 3 and all(p["score"] != 7 for p in found)
    board = board_from_spec("sudoku:3x3")
    for p in found:
        transposed = {c % 9 * 9 + c // 9: x for c, x in enumerate(p["clues"]) if x is not None}
        v = verdict(PartialBoard(board, clues=transposed))
        assert (p["fair"], p["rating"], p["score"]) == (v.fair, v.rating, v.score)
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key='rating_rules'").fetchone() == (str(RULES_VERSION),)


def test_stale_ratings_that_cannot_be_written_are_refused(tmp_path, monkeypatch):
    """Read-only and not writable (a read-only disk, simulated): one CatalogError, never stale ratings."""
    from catalog import store

    path = tmp_path / "s.sqlite"
    assert run_cli("catalog", "build", "sudoku:2x2", "--puzzles", "2", "--db", str(path)).returncode == 0
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM meta WHERE key='rating_rules'")
    connect = store._connect

    def read_only_disk(where, read_only):
        if not read_only:
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return connect(where, read_only)

    monkeypatch.setattr(store, "_connect", read_only_disk)
    with pytest.raises(CatalogError, match="rated by older attrition rules and cannot be written"):
        open_catalog(path, read_only=True)


def test_a_damaged_puzzle_to_rate_again_is_one_error(tmp_path):
    path = tmp_path / "d.sqlite"
    assert run_cli("catalog", "build", "sudoku:2x2", "--puzzles", "2", "--db", str(path)).returncode == 0
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM meta WHERE key='rating_rules'")
        db.execute("UPDATE puzzles SET clues='[1,' || rowid")
    out = run_cli("catalog", "stats", "--db", str(path))
    assert out.returncode != 0 and "it is damaged" in out.stderr and "Traceback" not in out.stderr
