"""The JSON contract of ../shared/DESIGN.md, one test per command: one result is one JSON object, a stream is
JSON lines, with the keys the contract names (and values of the right kinds)."""

import json

import pytest
from cli import EXAMPLES, run_cli

SUDOKU = str(EXAMPLES / "sudoku-fig1.json")


def one(*args: str) -> dict:
    out = run_cli(*args, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert isinstance(data, dict)
    return data


def lines(*args: str) -> list[dict]:
    out = run_cli(*args, "--json")
    assert out.returncode == 0, out.stderr
    found = [json.loads(line) for line in out.stdout.splitlines()]
    assert found and all(isinstance(x, dict) for x in found)
    return found


def test_count():
    assert one("count", "sudoku:2x2") == {"count": 288}
    assert one("count", "sudoku:2x3", "--up-to", "symmetry") == {"count": 49}


def test_xc_count():
    assert one("xc", "count", str(EXAMPLES / "queens8.dlx")) == {"count": 92}


def test_solve():
    data = one("solve", SUDOKU)
    assert list(data) == ["solutions"] and len(data["solutions"]) == 1 and len(data["solutions"][0]) == 9
    assert one("solve", "latin:3", "--limit", "2")["solutions"][0] == [[1, 2, 3], [2, 3, 1], [3, 1, 2]]


def test_check():
    data = one("check", SUDOKU)
    assert data.keys() >= {
        "partial_latin",
        "completable",
        "solutions",
        "unique",
        "critical",
        "removable_clues",
    }
    assert data["solutions"] == 1 and data["unique"] is True


def test_info():
    data = one("info", "sudoku:2x2")
    assert data.keys() >= {
        "points",
        "asterisms",
        "asterism_size",
        "asterisms_per_point",
        "automorphism_group_order",
        "geometric_group_order",
    }
    assert (data["points"], data["asterism_size"], data["automorphism_group_order"]) == (16, 4, 128)


def test_minimal():
    data = one("minimal", "sudoku:2x2")
    assert (
        data["clues"] == 4 and len(data["witnesses"]) == 1 and data["witnesses"][0]["format"] == "dlx-latin"
    )


def test_generate():
    for record in lines("generate", "sudoku:2x2", "--count", "2", "--seed", "1"):
        assert record.keys() >= {
            "format",
            "board",
            "clues",
            "clue_count",
            "critical",
            "fair",
            "rating",
            "score",
            "seed",
        }


def test_enumerate():
    assert len(lines("enumerate", "latin:3")) == 12


def test_estimate():
    assert one("estimate", "latin:4", "--probes", "100", "--seed", "1").keys() >= {
        "estimate",
        "stderr",
        "nodes",
    }


@pytest.mark.parametrize(
    "args, count",
    [
        (("jigsaw", "covers", "4", "--count"), 117),
        (("jigsaw", "count", "4"), 13872),
        (("jigsaw", "borders", "4"), 624),
    ],
)
def test_jigsaw_counts(args, count):
    assert one(*args) == {"count": count}


def test_jigsaw_streams():
    assert lines("jigsaw", "impossible", "4") == [{"regions": "aaabacbbccdbcddd", "orbit_size": 8}]
    for record in lines("jigsaw", "scs", "3"):
        assert record.keys() >= {"regions", "orbit_size", "clues", "puzzle"}


def test_approx_bench():
    pytest.importorskip("scipy")
    data = one("approx", "bench", "--n", "4", "--instances", "2")
    assert data.keys() >= {"condition", "n", "instances", "rows"}
    assert all(
        row.keys() >= {"algorithm", "min_ratio", "mean_ratio", "bound", "seconds"} for row in data["rows"]
    )


def test_catalog(tmp_path):
    db = str(tmp_path / "c.sqlite")
    built = one("catalog", "build", "sudoku:2x2", "--db", db)
    assert built.keys() >= {"board", "classes", "total", "puzzle_classes", "parts_done"}
    assert (built["classes"], built["total"]) == (2, 288)
    (stats,) = lines("catalog", "stats", "--db", db)
    assert stats.keys() >= {
        "board",
        "multiset",
        "classes",
        "total",
        "status",
        "parts",
        "parts_done",
        "puzzle_classes",
        "sampled_boards",
        "count",
        "complete",
    }
    assert len(lines("catalog", "query", "--board", "sudoku:2x2", "--db", db)) == 2
    exported = run_cli("catalog", "export", "--db", db).stdout
    (tmp_path / "e.jsonl").write_text(exported)
    assert one("catalog", "import", str(tmp_path / "e.jsonl"), "--db", str(tmp_path / "d.sqlite")) == {
        "added": 2
    }
    (tmp_path / "p.txt").write_text("1......2..4..3..\n")
    imported = one("catalog", "import", "sudoku:2x2", "--grid", str(tmp_path / "p.txt"), "--db", db)
    assert imported.keys() == {"board", "lines", "puzzles", "classes", "duplicates", "added", "rejected"}
