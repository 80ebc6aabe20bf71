"""Hostile input over every channel: each case ends in one line on stderr, a non-zero exit, no traceback,
within a time bound.  Channels: files, board specs, multisets, numeric options, catalogs, checkpoints.

Each case is (command line, files to write first, expected exit code, a phrase the line must hold).  Files
are written in the test's directory; `{d}` in an argument is that directory.
"""

import json
import os
import sqlite3
import time
from pathlib import Path

import pytest
from cli import EXAMPLES, run_cli

DEEP = "[" * 100_000 + "]" * 100_000
SQUARE = '{"points": [[0, 0], [1, X], [0, 1], [1, 1]], "asterisms": [[0, 1], [2, 3], [0, 2], [1, 3]]}'
PUZZLE = {"format": "dlx-latin", "version": 1, "board": "latin:4", "clues": {}}
IPUZ = {
    "version": "http://ipuz.org/v2",
    "kind": ["http://ipuz.org/sudoku#1"],
    "dimensions": {"width": 4, "height": 4},
    "puzzle": [[0] * 4] * 4,
}


def puzzle(**changes):
    return json.dumps({**PUZZLE, **changes})


def ipuz(**changes):
    return json.dumps({**IPUZ, **changes})


_BIG = [[r, c] for r in range(2) for c in range(9)][:16]
KENKEN_16 = {  # a 9 x 9 KenKen with one cage of 16 cells, the others single cells
    "format": "dlx-latin-kenken",
    "n": 9,
    "cages": [{"cells": _BIG, "op": "+", "target": 80}]
    + [
        {"cells": [[r, c]], "op": "=", "target": 1 + (r + c) % 9}
        for r in range(9)
        for c in range(9)
        if [r, c] not in _BIG
    ],
}

CASES = {
    # --- files -----------------------------------------------------------------------------------------
    "dlx: unknown item": (["xc", "count", "{d}/f.dlx"], {"f.dlx": "a b\na c\n"}, 1, "unknown item"),
    "dlx: empty file": (["xc", "count", "{d}/f.dlx"], {"f.dlx": ""}, 1, "no item line"),
    "dlx: bad bounds": (["xc", "count", "{d}/f.dlx"], {"f.dlx": "x:y|a\na\n"}, 1, "bad bounds"),
    "dlx: not UTF-8": (["xc", "count", "{d}/f.dlx"], {"f.dlx": b"\xff\xfe\x00a\n"}, 1, "not UTF-8"),
    "dlx: a directory": (["xc", "count", "{d}"], {}, 1, "not a regular file"),
    "dlx: /dev/zero": (["xc", "count", "/dev/zero"], {}, 1, "not a regular file"),
    "dlx: missing": (["xc", "count", "{d}/none.dlx"], {}, 1, "No such file"),
    "dlx: terminal escapes in names": (
        ["xc", "count", "{d}/f.dlx"],
        {"f.dlx": "a\na \x1b[2J\x1b]0;pwned\x07\n"},
        1,
        "\\x1b[2J",
    ),
    "puzzle: nested too deeply": (["check", "{d}/p.json"], {"p.json": DEEP}, 1, "p.json"),
    "puzzle: board names /dev/zero": (
        ["check", "{d}/p.json"],
        {"p.json": puzzle(board="/dev/zero")},
        1,
        "file",
    ),
    "puzzle: board names itself": (
        ["check", "{d}/p.json"],
        {"p.json": puzzle(board="{d}/p.json")},
        1,
        "file",
    ),
    "puzzle: board is a number": (["check", "{d}/p.json"], {"p.json": puzzle(board=7)}, 1, "'board'"),
    "puzzle: shape 'ab'": (
        ["check", "{d}/p.json"],
        {"p.json": puzzle(board={"points": 4, "asterisms": [[0, 1], [2, 3]], "shape": "ab"})},
        1,
        "board",
    ),
    "puzzle: points as text": (
        ["check", "{d}/p.json"],
        {"p.json": puzzle(board={"points": "4", "asterisms": [[0, 1], [2, 3]]})},
        1,
        "points",
    ),
    "puzzle: asterisms of text": (
        ["check", "{d}/p.json"],
        {"p.json": puzzle(board={"points": 4, "asterisms": [["a", "b"], [2, 3]]})},
        1,
        "asterism 0",
    ),
    "puzzle: 10^12 points": (
        ["check", "{d}/p.json"],
        {"p.json": puzzle(board={"points": 10**12, "asterisms": [[0, 1]]})},
        1,
        "at most 65536 points",
    ),
    "puzzle: clue label outside the multiset": (
        ["check", "{d}/p.json"],
        {"p.json": puzzle(clues={"0": 9})},
        1,
        "not in the multiset",
    ),
    "puzzle: clues a string": (["check", "{d}/p.json"], {"p.json": puzzle(clues="abc")}, 1, "clues"),
    "ipuz: rect of 100000^2": (
        ["check", "{d}/p.ipuz"],
        {"p.ipuz": ipuz(zones=[{"rect": [[1, 1], [100000, 100000]]}])},
        1,
        "rect",
    ),
    "ipuz: rect of text": (["check", "{d}/p.ipuz"], {"p.ipuz": ipuz(zones=[{"rect": "ab"}])}, 1, "rect"),
    "ipuz: 10^6 wide": (
        ["check", "{d}/p.ipuz"],
        {"p.ipuz": ipuz(dimensions={"width": 10**6, "height": 10**6})},
        1,
        "dimensions",
    ),
    "ipuz: zone cells of text": (
        ["check", "{d}/p.ipuz"],
        {"p.ipuz": ipuz(zones=[{"cells": [["a", 1]]}])},
        1,
        "zone cell",
    ),
    "ipuz: nested too deeply": (["check", "{d}/p.ipuz"], {"p.ipuz": DEEP}, 1, "p.ipuz"),
    "board file: nested too deeply": (["info", "{d}/b.json"], {"b.json": DEEP}, 1, "b.json"),
    "import: nested too deeply": (
        ["catalog", "import", "{d}/e.jsonl", "--db", "{d}/c.sqlite"],
        {"e.jsonl": DEEP},
        1,
        "line 1",
    ),
    "import: not UTF-8": (
        ["catalog", "import", "{d}/e.jsonl", "--db", "{d}/c.sqlite"],
        {"e.jsonl": b"\xff\n"},
        1,
        "UTF-8",
    ),
    # --- specs -----------------------------------------------------------------------------------------
    "spec: latin:100000": (["count", "latin:100000"], {}, 1, "at most 128"),
    "spec: latin:3000": (["count", "latin:3000"], {}, 1, "at most 128"),
    "spec: sudoku:1000x1000": (["count", "sudoku:1000x1000"], {}, 1, "at most 128"),
    "spec: triangle:100000": (["count", "triangle:100000"], {}, 1, "at most 100"),
    "spec: hexagon:10000": (["count", "hexagon:10000"], {}, 1, "at most 36"),
    "spec: octahedron:1000": (["count", "octahedron:1000"], {}, 1, "at most 35"),
    "spec: a 40-digit order": (["count", "latin:" + "9" * 40], {}, 1, "whole number"),
    "spec: unknown family": (["count", "nosuch:3"], {}, 1, "unknown board"),
    "spec: estimate latin:300": (["estimate", "latin:300"], {}, 1, "at most 128"),
    # --- multisets -------------------------------------------------------------------------------------
    "multiset: 1^99999999999": (["count", "latin:4", "--multiset", "1^99999999999"], {}, 1, "repeat"),
    "multiset: 1^999999999": (["count", "latin:4", "--multiset", "1^999999999"], {}, 1, "more than 65536"),
    "multiset: 10^10 arrangements": (
        ["count", "latin:40", "--multiset", "1^20,2^20"],
        {},
        1,
        "more than 1,000,000",
    ),
    "multiset: wrong size": (["count", "latin:4", "--multiset", "1,2,3"], {}, 1, "3 labels"),
    "multiset: empty label": (["count", "latin:4", "--multiset", "1,,2,3"], {}, 1, "empty label"),
    # --- numeric options -------------------------------------------------------------------------------
    "option: --memo-size 2^63": (
        ["xc", "count", str(EXAMPLES / "queens8.dlx"), "--memo-size", str(2**63)],
        {},
        2,
        "--memo-size",
    ),
    "option: --jobs 0": (["count", "latin:4", "--jobs", "0"], {}, 2, "--jobs"),
    "option: --puzzles 10^12": (
        ["catalog", "build", "latin:4", "--puzzles", str(10**12), "--db", "{d}/c.sqlite"],
        {},
        2,
        "--puzzles",
    ),
    "option: jigsaw impossible 10000 --construct": (
        ["jigsaw", "impossible", "10000", "--construct"],
        {},
        2,
        "N",
    ),
    "option: unknown command": (["nosuch"], {}, 2, "No such command"),
    # --- checkpoints -----------------------------------------------------------------------------------
    "checkpoint: a directory": (["count", "latin:4", "--checkpoint", "{d}"], {}, 1, "checkpoint"),
    "checkpoint: another JSON file": (
        ["count", "latin:5", "--checkpoint", "{d}/k.jsonl"],
        {"k.jsonl": "[1, 2]\n"},
        1,
        "not a dlx-latin checkpoint",
    ),
    "checkpoint: /dev/zero": (["count", "latin:4", "--checkpoint", "/dev/zero"], {}, 1, "not a regular file"),
    "checkpoint: /dev/full": (["count", "latin:4", "--checkpoint", "/dev/full"], {}, 1, "not a regular file"),
    "checkpoint: /dev/zero, xc": (
        ["xc", "count", str(EXAMPLES / "latin5.dlx"), "--checkpoint", "/dev/zero"],
        {},
        1,
        "not a regular file",
    ),
    # --- collections and bounds (issue 54) --------------------------------------------------------------
    "batch: a 2 MiB line": (
        ["check", "sudoku:2x2", "--batch", "{d}/c.txt"],
        {"c.txt": "1" * (2 << 20) + "\n"},
        1,
        "longer than 1 MiB",
    ),
    "batch: a 2 MiB line, --json": (
        ["check", "sudoku:2x2", "--batch", "{d}/c.txt", "--json"],
        {"c.txt": "1" * (2 << 20)},
        1,
        "longer than 1 MiB",
    ),
    "batch: --jobs 1000000": (["check", "sudoku:2x2", "--batch", "-", "--jobs", "1000000"], {}, 2, "--jobs"),
    "batch: --cap 2**63": (["check", "sudoku:2x2", "--batch", "-", "--cap", str(2**63)], {}, 2, "--cap"),
    "count: --jobs 1000000": (["count", "latin:4", "--jobs", "1000000"], {}, 2, "--jobs"),
    "puzzle: board and clues, no format": (
        ["check", "{d}/p.json"],
        {"p.json": json.dumps({"board": "sudoku:2x2", "clues": [1] + [0] * 15})},
        1,
        "'board' but no 'format'",
    ),
    "puzzle: a misspelled key": (
        ["check", "{d}/p.json"],
        {"p.json": puzzle(clue={})},
        1,
        "unknown key 'clue'",
    ),
    "ipuz: kind 5": (["check", "{d}/p.json"], {"p.json": ipuz(kind=5)}, 1, "not an ipuz Sudoku"),
    "board: an unknown key": (
        ["count", "{d}/b.json"],
        {"b.json": json.dumps({"points": 4, "asterisms": [[0, 1], [2, 3]], "clues": []})},
        1,
        "unknown key 'clues'",
    ),
    "board: NaN coordinates, render": (
        ["render", "{d}/b.json"],
        {"b.json": SQUARE.replace("X", "NaN")},
        1,
        "no NaN or inf",
    ),
    "board: a 1e300 coordinate": (
        ["count", "{d}/b.json"],
        {"b.json": SQUARE.replace("X", "1e300")},
        1,
        "finite numbers",
    ),
    "kenken: an op that is a list": (
        ["kenken", "check", "{d}/k.json"],
        {"k.json": json.dumps({"n": 2, "cages": [{"cells": [[0, 0], [0, 1]], "op": ["+"], "target": 3}]})},
        1,
        "unknown operation",
    ),
    "kenken: a cage of 16 cells": (
        ["kenken", "check", "{d}/k.json"],
        {"k.json": json.dumps(KENKEN_16)},
        1,
        "a cage of 16 cells is too large to list its fillings",
    ),
    "kenken: n of 5,000 digits": (
        ["kenken", "check", "{d}/k.json"],
        {"k.json": '{"n": ' + "9" * 5000 + ', "cages": []}'},
        1,
        "number too long",
    ),
    # --- automorphisms: orders past floats, groups sympy would take minutes on, graphs past nauty's reach ---
    "xc: 1,000 copies of a 1:2 option, up to symmetry": (
        ["xc", "count", "{d}/m.dlx", "--up-to", "symmetry"],
        {"m.dlx": "1:2|a\n" + "a\n" * 1000},
        1,
        "4.02e+2567 automorphisms, too many to list",
    ),
    "xc: one option of 10^5 items": (
        ["xc", "count", "{d}/b.dlx", "--up-to", "symmetry"],
        {"b.dlx": " ".join(f"a{i}" for i in range(10**5)) + "\n" + " ".join(f"a{i}" for i in range(10**5))},
        1,
        "graph for nauty has 100001 vertices",
    ),
    "xc: 10^5 copies of one option": (
        ["xc", "count", "{d}/c.dlx", "--break-symmetry"],
        {"c.dlx": "a\n" + "a\n" * 10**5},
        1,
        "graph for nauty has 100001 vertices",
    ),
    # --- a board file where a puzzle file is wanted: refused, never read as a puzzle without clues ------
    "convert: a board file": (
        ["convert", "{d}/b.json", "--to", "grid"],
        {"b.json": '{"points": 4, "asterisms": [[0, 1], [2, 3], [0, 2], [1, 3]]}'},
        1,
        "is a board file",
    ),
    "generate --inscription: a board file": (
        ["generate", "latin:2", "--inscription", "{d}/b.json"],
        {"b.json": '{"points": 4, "asterisms": [[0, 1], [2, 3], [0, 2], [1, 3]]}'},
        1,
        "is a board file",
    ),
    # --- time limits and fractions: NaN passes every comparison, infinity never ends ---------------------
    **{
        f"cannibals --seconds {value}": (["jigsaw", "cannibals", "--seconds", value], {}, 2, phrase)
        for value, phrase in [("nan", "not a finite number"), ("inf", "not in the range"), ("1e300", "range")]
    },
    "approx --density nan": (["approx", "generate", "--density", "nan"], {}, 2, "not a finite number"),
    # --- schedulers ------------------------------------------------------------------------------------
    "scheduler: a host of 300 characters": (
        ["count", "latin:5", "--jobs", "2", "--scheduler", "tcp://" + "a" * 300 + ":8786"],
        {},
        1,
        "is not a host name (label too long)",
    ),
    "scheduler: tls://": (
        ["count", "latin:5", "--jobs", "2", "--scheduler", "tls://127.0.0.1:1"],
        {},
        1,
        "tls://",
    ),
}


def _write(directory, files):
    for name, content in files.items():
        path = directory / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content.replace("{d}", str(directory)))


def _expect_one_line(out, code, phrase, seconds):
    assert out.returncode == code, (out.returncode, out.stderr[-1500:])
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("dlx-latin: error: "), out.stderr[-1500:]
    assert "Traceback" not in out.stderr and phrase in lines[0], lines[0]
    assert seconds < 30


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_input_is_one_line(tmp_path, name):
    args, files, code, phrase = CASES[name]
    _write(tmp_path, files)
    start = time.monotonic()
    out = run_cli(*[a.replace("{d}", str(tmp_path)) for a in args], timeout=60)
    _expect_one_line(out, code, phrase, time.monotonic() - start)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A small catalog (latin:4's two classes) to tamper with."""
    path = tmp_path_factory.mktemp("catalog") / "c.sqlite"
    assert run_cli("catalog", "build", "latin:4", "--db", str(path)).returncode == 0
    return path.read_bytes()


TAMPERING = {
    "non-numeric schema_version": (
        "UPDATE meta SET value='x' WHERE key='schema_version'",
        ["stats", "--json"],
    ),
    "non-numeric orbit_size": ("UPDATE solutions SET orbit_size='abc'", ["stats", "--json"]),
    "non-numeric total": ("UPDATE runs SET total='x'", ["stats", "--json"]),
    "non-JSON canonical": ("UPDATE solutions SET canonical='[1,2' WHERE rowid=1", ["export"]),
    "non-JSON canonical, queried": (
        "UPDATE solutions SET canonical='[1,2' WHERE rowid=1",
        ["query", "--board", "latin:4"],
    ),
    "a dropped table": ("DROP TABLE puzzles", ["export"]),
    "a dropped table, counted": ("DROP TABLE solutions", ["stats"]),
}


@pytest.mark.parametrize("name", list(TAMPERING))
def test_a_tampered_catalog_is_one_line(tmp_path, built, name):
    sql, command = TAMPERING[name]
    path = tmp_path / "c.sqlite"
    path.write_bytes(built)
    with sqlite3.connect(path) as db:
        db.execute(sql)
    start = time.monotonic()
    out = run_cli("catalog", *command, "--db", str(path), timeout=60)
    _expect_one_line(out, 1, "catalog", time.monotonic() - start)


@pytest.fixture
def read_only_dir(tmp_path):
    """A directory on a read-only file system (a read-only bind mount; skipped where mounting is not
    allowed): write `files` into `tmp_path / 'src'` first, they appear read-only in the yielded path."""
    import subprocess

    src, ro = tmp_path / "src", tmp_path / "ro"
    src.mkdir()
    ro.mkdir()
    mounted = subprocess.run(["mount", "--bind", str(src), str(ro)], capture_output=True).returncode == 0
    if not mounted:
        pytest.skip("no bind mounts here")
    try:
        if subprocess.run(["mount", "-o", "remount,ro,bind", str(ro)], capture_output=True).returncode:
            pytest.skip("no read-only remount here")
        yield src, ro
    finally:
        subprocess.run(["umount", "--lazy", str(ro)], capture_output=True)  # even if a file is still open


def test_a_catalog_on_a_read_only_disk_is_read(read_only_dir, built):
    src, ro = read_only_dir
    (src / "c.sqlite").write_bytes(built)
    out = run_cli("catalog", "stats", "--json", "--db", str(ro / "c.sqlite"))
    assert out.returncode == 0 and json.loads(out.stdout)["classes"] == 2, out.stderr
    out = run_cli("catalog", "query", "--board", "latin:4", "--db", str(ro / "c.sqlite"))
    assert out.returncode == 0 and len(out.stdout.splitlines()) == 2
    out = run_cli("catalog", "build", "latin:3", "--db", str(ro / "c.sqlite"))  # writing: one line
    _expect_one_line(out, 1, "catalog", 0)
    out = run_cli("render", "latin:3", "-o", str(ro / "x.svg"))
    _expect_one_line(out, 1, "Read-only file system", 0)


def test_two_processes_creating_one_catalog(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "new.sqlite"
    children = [
        subprocess.Popen(
            [sys.executable, "-m", "dlx_latin", "catalog", "build", spec, "--db", str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        for spec in ["latin:4", "latin:4", "sudoku:2x2"]
    ]
    for child in children:
        _, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
    out = run_cli("catalog", "stats", "--json", "--db", str(path))
    classes = {json.loads(line)["board"]: json.loads(line)["classes"] for line in out.stdout.splitlines()}
    assert classes == {"latin:4": 2, "sudoku:2x2": 2}


def test_solutions_do_not_echo_terminal_escapes(tmp_path):
    (tmp_path / "esc.dlx").write_text("a \x1b]0;pwned\x07\x1b[2J\na \x1b]0;pwned\x07\x1b[2J\n")
    out = run_cli("xc", "solve", str(tmp_path / "esc.dlx"))
    assert out.returncode == 0 and "\x1b" not in out.stdout and "\x07" not in out.stdout
    assert "a \\x1b]0;pwned\\x07\\x1b[2J" in out.stdout


def test_no_command_shows_the_help():
    out = run_cli()
    assert out.returncode == 2 and out.stderr.startswith("Usage: dlx-latin [OPTIONS] COMMAND")
    assert "\\n" not in out.stderr and "Commands:" in out.stderr


def test_a_bitboard_not_made_is_an_error_not_a_crash():
    """BitBoard.__new__ without BitBoard(...) has no points: every method raises, none divides by zero."""
    from dlx_latin.latin._bitboard import BitBoard

    bare = BitBoard.__new__(BitBoard)
    calls = [
        lambda: bare.solve_clues([{}], {}, 1),
        lambda: bare.solve_text([""], b"", b"", 1),
        lambda: bare.solve_block(b"", b"", b"", 1, 0),
        lambda: bare.cheap_rules([], []),
    ]
    for call in calls:
        with pytest.raises(RuntimeError, match="not made"):
            call()


def test_schreier_sims_past_its_time_is_one_error_and_leaves_no_process(monkeypatch):
    """1,000 copies of a 1:2 option (about 4.02e+2567 automorphisms): sympy's stabilizer chains for
    --break-symmetry run in a child, stopped at SCHREIER_SIMS_SECONDS (lowered here)."""
    from dlx_latin.exact_cover import automorphisms
    from dlx_latin.exact_cover.symmetric_counts import count_breaking_symmetry
    from dlx_latin.formats.dlx import read_dlx

    monkeypatch.setattr(automorphisms, "SCHREIER_SIMS_SECONDS", 0.5)
    arrays = read_dlx("1:2|a\n" + "a\n" * 1000).problem.kernel_arrays
    children = Path(f"/proc/self/task/{os.getpid()}/children")
    before = children.read_text()
    start = time.monotonic()
    with pytest.raises(automorphisms.GroupTooLargeError, match="4.02e\\+2567 automorphisms.*in 0.5 s"):
        count_breaking_symmetry(arrays)
    assert time.monotonic() - start < 5
    assert children.read_text() == before  # the child was killed and reaped


def test_nauty_past_its_time_is_one_error_and_leaves_no_process(monkeypatch):
    """S_2000 from 1,999 generators: nauty runs in a child, stopped at NAUTY_SECONDS (lowered here)."""
    from dlx_latin.exact_cover import automorphisms
    from dlx_latin.formats.dlx import read_dlx

    monkeypatch.setattr(automorphisms, "NAUTY_SECONDS", 0.5)
    n = 2000
    text = " ".join(f"a{i}" for i in range(n)) + "\n" + "".join(f"a{i}\n" for i in range(n))
    arrays = read_dlx(text).problem.kernel_arrays
    children = Path(f"/proc/self/task/{os.getpid()}/children")
    before = children.read_text()
    start = time.monotonic()
    with pytest.raises(automorphisms.GroupTooLargeError, match="in 0.5 s"):
        automorphisms.Automorphisms(arrays)
    assert time.monotonic() - start < 5
    assert children.read_text() == before  # the child was killed and reaped
