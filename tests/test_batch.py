"""Collections of puzzles at C speed: every batch answer equals the one-puzzle path (count_completions and
completions), on every kind of board; the command line keeps input order and reports bad lines by number."""

import json
import random

import pytest
from cli import run_cli

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import Multiset, PartialBoard, completions, count_completions, is_critical
from dlx_latin.latin.batch import BadLine, PuzzleBatch
from dlx_latin.latin.grid import label_char

BOARDS = [
    ("sudoku:2x3", None),
    ("sudoku:3x3", None),
    ("jigsaw:aaaabccdabcddbbcddebceeee", None),
    ("latin:5", None),
    ("triangle:6", None),
    ("cube:2", None),
    ("latin:6", "1^2,2^2,3^2"),  # repeated labels: the BitBoard's hidden singles count multiplicities
]


def random_clue_sets(pb: PartialBoard, rng: random.Random, count: int) -> list[dict]:
    """Clue sets of every kind: taken from a Latin board (unique, several), and arbitrary (often none)."""
    full = next(completions(pb))
    n = pb.board.n_points
    labels = list(pb.multiset.labels)
    out = []
    for _ in range(count):
        kept = rng.sample(range(n), rng.randrange(n // 4, n + 1))
        clues = {p: full[p] for p in kept}
        if len(kept) > n // 2 and rng.random() < 0.5:  # an arbitrary clue, which may clash (with enough
            clues[rng.randrange(n)] = rng.choice(labels)  # clues that proving there is none is quick)
        out.append(clues)
    return out


@pytest.mark.parametrize("spec, multiset", BOARDS, ids=[b[0][:14] for b in BOARDS])
def test_batch_answers_equal_the_one_puzzle_path(spec, multiset):
    board = board_from_spec(spec)
    m = Multiset.parse(multiset) if multiset else None
    batch = PuzzleBatch(board, m)
    rng = random.Random(spec)
    puzzles = random_clue_sets(PartialBoard(board, m), rng, 60)
    kinds = set()
    for clues, answer in zip(puzzles, batch.answers(puzzles, cap=2), strict=True):
        pb = PartialBoard(board, m, clues)
        assert answer.solutions == count_completions(pb, limit=2), clues
        kinds.add(answer.solutions)
        if answer.solutions:
            solved = answer.solution
            assert all(solved[p] == x for p, x in clues.items())
            assert PartialBoard(board, m, dict(enumerate(solved))).is_partial_latin() and None not in solved
        else:
            assert answer.solution is None
        if answer.solutions == 1:
            assert batch.is_critical(clues) == is_critical(pb)
    assert kinds == {0, 1, 2}  # none, unique and several were all tried


def test_counts_up_to_the_cap():
    batch = PuzzleBatch(board_from_spec("latin:4"))
    assert (
        batch.count({}, cap=1000) == 576
        and batch.count({}, cap=10) == 10
        and batch.count({0: 1}, 1000) == 144
    )


def collection(spec: str, puzzles: list[dict]) -> str:
    n = board_from_spec(spec).n_points
    return "".join("".join(label_char(c[p]) if p in c else "." for p in range(n)) + "\n" for c in puzzles)


def test_solve_batch_keeps_input_order_with_jobs_and_reports_bad_lines(tmp_path):
    spec = "sudoku:2x2"
    pb = PartialBoard(board_from_spec(spec))
    puzzles = random_clue_sets(pb, random.Random(4), 5000)
    text = (
        "# a collection\n\n" + collection(spec, puzzles[:2500]) + "12x\n" + collection(spec, puzzles[2500:])
    )
    path = tmp_path / "puzzles.txt"
    path.write_text(text)
    one = run_cli("solve", spec, "--batch", str(path), "--json")
    two = run_cli("solve", spec, "--batch", str(path), "--json", "--jobs", "2")
    assert one.returncode == two.returncode == 1  # the bad line, reported, and the run went on
    assert one.stdout == two.stdout
    assert one.stderr.strip() == "dlx-latin: error: line 2503: the grid string has 3 cells; the board has 16"
    records = [json.loads(line) for line in one.stdout.splitlines()]
    assert [r["line"] for r in records] == list(range(3, 5004))  # the bad line answered in its place
    assert records.pop(2500) == {"line": 2503, "error": "the grid string has 3 cells; the board has 16"}
    for r, clues in zip(records, puzzles, strict=True):
        assert r["solutions"] == count_completions(PartialBoard(pb.board, clues=clues), limit=2)


def test_solve_batch_text_and_check_batch(tmp_path):
    spec = "sudoku:2x2"
    full = [int(c) for c in "1234341221434321"]
    puzzles = [{p: full[p] for p in range(1, 16)}, {}, {0: 1, 1: 1}]
    path = tmp_path / "p.txt"
    path.write_text(collection(spec, puzzles))
    out = run_cli("solve", spec, "--batch", str(path), "--unique")
    assert out.returncode == 0 and out.stdout.split() == ["1234341221434321", "?", "-"]
    out = run_cli("solve", spec, "--batch", "-", stdin=path.read_text())
    assert out.stdout.split()[1] != "?"  # several: the first solution, without --unique
    out = run_cli("check", spec, "--batch", str(path), "--critical", "--rate")
    assert out.stdout.splitlines() == [
        "1 unique not-critical fair:very-easy",
        "2 several not-fair",
        "0 none not-fair",
    ]
    facts = json.loads(run_cli("check", spec, "--batch", str(path), "--json").stdout.splitlines()[0])
    assert facts == {"line": 1, "solutions": 1, "unique": True, "completable": True}


def test_batch_refusals():
    assert run_cli("solve", "sudoku:2x2", "--batch", "-", "--clues", "1" + "." * 15).returncode == 2
    assert run_cli("solve", "sudoku:2x2", "--batch", "-", "--explain").returncode == 2
    out = run_cli("solve", "sudoku:2x2", "--batch", "/nonexistent")
    assert out.returncode == 1 and out.stderr.startswith("dlx-latin: error: cannot read /nonexistent")
    assert isinstance(next(PuzzleBatch(board_from_spec("latin:3")).solve_many(["1"]))[1], BadLine)


def test_grid_lines_read_in_the_kernel_as_parse_grid_reads_them():
    """The BitBoard's text path (BitBoard.solve_text) and the slow path agree on every way of writing a line:
    spaces and tabs inside, '0' empty unless 0 is a label, '-' and '_' empty, non-ASCII whitespace (left to
    Python), a character that is not a label, a line too short."""
    batch = PuzzleBatch(board_from_spec("latin:3"))
    same = ["1...2...3", "1.. .2.\t..3", "100020003", "1-_-2-__3", "1..\u2003.2...3"]
    answers = list(batch.answers(same))
    assert all(a.solutions == 1 and a.solution_text == "132321213" for a in answers)
    assert all(a.clues == {0: 1, 4: 2, 8: 3} and a.solution == [1, 3, 2, 3, 2, 1, 2, 1, 3] for a in answers)
    lines = ["1...2...3", "1...2...4", "1...2..", "", "11......."]
    got = list(batch.solve_many(lines))
    assert [k for k, _ in got] == [1, 2, 3, 5]
    assert isinstance(got[1][1], BadLine) and "'4' is not a label" in got[1][1].message
    assert isinstance(got[2][1], BadLine) and "has 7 cells" in got[2][1].message
    assert got[3][1].solutions == 0 and got[3][1].solution_text is None
    zero = PuzzleBatch(board_from_spec("latin:3"), Multiset.parse("0,1,2"))
    (answer,) = zero.answers(["0...1...2"])
    assert answer.solutions == 1 and answer.clues == {0: 0, 4: 1, 8: 2}
    assert answer.solution_text == "021210102"


ODD_LINES = [
    "  # an indented comment\r",
    "   \t",
    "1...2...3\r",  # CRLF
    "1..\u2003.2...3",  # non-ASCII whitespace: left to Python, same answer
    "\u2003",  # a blank line all the same
    "1...2...4",  # not a label
    ".........",  # several
    "11.......",  # none
    "1...2..",  # too short
    "1...2...3",  # the last line, with no newline after it
]


def test_plain_batch_output_equals_the_json_path_line_by_line(tmp_path):
    """`solve/check --batch` in plain text (BitBoard.solve_block: blocks of lines, no Python per line) says
    what the JSON path says of each line, on lines of every odd kind, with --jobs 2 and from standard input;
    bad lines are reported by number, in place."""
    spec = "latin:3"
    path = tmp_path / "odd.txt"
    path.write_bytes("\n".join(ODD_LINES * 300).encode())
    records = [
        json.loads(line)
        for line in run_cli("solve", spec, "--batch", str(path), "--json").stdout.splitlines()
    ]
    assert len(records) == 7 * 300 and records[0]["line"] == 3
    plain = ["!" if "error" in r else "-" if r["solution"] is None else r["solution"] for r in records]
    unique = ["?" if r.get("solutions", 0) > 1 else p for r, p in zip(records, plain, strict=True)]
    facts = [
        "!" if "error" in r else f"{r['solutions']} " + ["none", "unique", "several"][r["solutions"]]
        for r in records
    ]
    for args, want in [
        (["solve", spec, "--batch", str(path)], plain),
        (["solve", spec, "--batch", str(path), "--jobs", "2"], plain),
        (["solve", spec, "--batch", "-", "--unique"], unique),
        (["check", spec, "--batch", str(path), "--jobs", "2"], facts),
    ]:
        out = run_cli(*args, stdin=path.read_bytes().decode())
        assert out.returncode == 1 and out.stdout.splitlines() == want, args
        errors = out.stderr.splitlines()
        assert len(errors) == 600 and errors[0].startswith("dlx-latin: error: line 6: ")
        assert [e for e in errors if "line 9:" in e] == [
            "dlx-latin: error: line 9: the grid string has 7 cells; the board has 9"
        ]


def test_write_many_reads_lines_split_across_blocks(tmp_path):
    """Blocks of whole lines (byte_blocks) however small the reads: the answers and line numbers are the
    same as one block's."""
    from dlx_latin.files import byte_blocks

    batch = PuzzleBatch(board_from_spec("latin:3"))
    path = tmp_path / "odd.txt"
    path.write_bytes("\n".join(ODD_LINES * 3).encode())
    whole = list(batch.write_many([path.read_bytes()]))
    small = list(batch.write_many(byte_blocks(path, 5)))

    def flat(answers):
        return [
            piece if isinstance(piece, str) else (piece[0], getattr(piece[1], "solutions", piece[1]))
            for pieces, _ in answers
            for piece in pieces
        ], sum(n for _, n in answers)

    text, count = flat(whole)
    assert count == 21 and flat(small)[1] == 21  # the bad lines too, as progress counts them
    assert "".join(p if isinstance(p, str) else f"<{p[0]}>" for p in text) == "".join(
        p if isinstance(p, str) else f"<{p[0]}>" for p in flat(small)[0]
    )
    assert [p[0] for p in text if not isinstance(p, str)] == [4, 6, 9, 14, 16, 19, 24, 26, 29]


@pytest.mark.parametrize("extra", [[], ["--json"], ["--jobs", "2"]])
def test_a_line_that_is_not_utf8_is_a_bad_line_and_the_run_goes_on(tmp_path, extra):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"1...2...3\n1..\xff2...3\n..1......\n")
    out = run_cli("solve", "latin:3", "--batch", str(path), *extra)
    assert out.returncode == 1
    assert out.stderr.strip() == "dlx-latin: error: line 2: the line is not UTF-8 text"
    lines = out.stdout.splitlines()
    assert len(lines) == 3  # line k of the output answers line k of the input
    if extra == ["--json"]:
        assert json.loads(lines[1]) == {"line": 2, "error": "the line is not UTF-8 text"}
    else:
        assert lines[1] == "!" and len(lines[0]) == len(lines[2]) == 9


@pytest.mark.parametrize("extra", [[], ["--json"], ["--rate"]])
def test_blank_and_comment_blocks_print_nothing(tmp_path, extra):
    path = tmp_path / "c.txt"
    path.write_text("# one\n\n1...2...3\n\n\n# two\n..1......\n\n")
    out = run_cli("check", "latin:3", "--batch", str(path), *extra)
    assert out.returncode == 0 and len(out.stdout.splitlines()) == 2, out.stdout


def test_text_after_a_grid_is_named_not_counted_as_cells(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("1...2...3 17 clues\n")
    out = run_cli("check", "latin:3", "--batch", str(path))
    assert out.stdout == "!\n" and "7 characters after the board's 9 cells ('17clues')" in out.stderr


def test_is_critical_refuses_a_point_off_the_board():
    from dlx_latin.latin.partial import InvalidCluesError

    with pytest.raises(InvalidCluesError, match="point 99"):
        PuzzleBatch(board_from_spec("sudoku:2x2")).is_critical({99: 1})


def test_jobs_never_start_more_workers_than_tasks():
    import os

    from dlx_latin.workers import ordered_map

    assert list(ordered_map(os.getpid, [()], jobs=16)) == [os.getpid()]  # one task: answered here


@pytest.mark.parametrize("extra", [[], ["--jobs", "2"], ["--rate"]])
def test_keep_blank_keeps_output_line_k_for_input_line_k(tmp_path, extra):
    path = tmp_path / "k.txt"
    path.write_text("# c\n\n1...2...3\n\n12x\n..1......\n#x\n\n")
    out = run_cli("check", "latin:3", "--batch", str(path), "--keep-blank", *extra)
    lines = out.stdout.split("\n")[:-1]
    assert out.returncode == 1 and len(lines) == 8, out.stdout
    assert [k for k, line in enumerate(lines, start=1) if line] == [3, 5, 6]
    assert lines[2].startswith("1 unique") and lines[4] == "!" and lines[5].startswith("2 several")


def test_keep_blank_goes_with_batch_only():
    out = run_cli("check", "latin:3", "--keep-blank")
    assert out.returncode == 2 and "--keep-blank" in out.stderr
