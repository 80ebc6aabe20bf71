"""`dlx-latin xc count|solve` as a user runs them: exact output, one-line errors, exit codes."""

import json
import shutil
import subprocess
import sys

import pytest
from cli import EXAMPLES, run_cli

run = run_cli


def test_console_script_counts_the_readme_example():
    exe = shutil.which("dlx-latin")
    assert exe, "the console script dlx-latin is not on PATH"
    out = subprocess.run(
        [exe, "xc", "count", str(EXAMPLES / "queens8.dlx")], capture_output=True, text=True, timeout=60
    )
    assert (out.returncode, out.stdout) == (0, "92\n")


@pytest.mark.parametrize(
    "name, count", [("queens8", 92), ("queens12", 14_200), ("latin5", 161_280), ("colors", 1)]
)
def test_count_examples_json(name, count):
    out = run("xc", "count", str(EXAMPLES / f"{name}.dlx"), "--json")
    assert out.returncode == 0 and out.stderr == ""
    assert json.loads(out.stdout) == {"count": count}


def test_count_stats_go_to_stderr():
    out = run("xc", "count", str(EXAMPLES / "queens8.dlx"), "--stats")
    assert out.stdout == "92\n"
    assert "nodes" in out.stderr and "updates" in out.stderr


def test_solve_colors_json_and_text():
    out = run("xc", "solve", str(EXAMPLES / "colors.dlx"), "--json")
    assert json.loads(out.stdout) == {"solutions": [["p r x:A y", "q x:A"]]}
    out = run("xc", "solve", str(EXAMPLES / "colors.dlx"))
    assert out.stdout == "solution 1:\n  p r x:A y\n  q x:A\n"


def test_solve_limit_gives_distinct_solutions():
    out = run("xc", "solve", str(EXAMPLES / "queens8.dlx"), "--limit", "5", "--json")
    solutions = json.loads(out.stdout)["solutions"]
    assert len(solutions) == 5 and len({tuple(s) for s in solutions}) == 5
    assert all(len(s) == 8 for s in solutions)


def test_standard_input():
    out = run("xc", "count", "-", "--json", stdin="a b | x\na x:1\nb x:1\nb x:2\na b\n")
    assert json.loads(out.stdout) == {"count": 2}


def test_option_without_primary_warns_on_one_line():
    out = run("xc", "count", "-", stdin="a | x\na\nx\n")
    assert out.returncode == 0 and out.stdout == "1\n"
    assert out.stderr == "dlx-latin: warning: line 3: option ignored (it has no primary item)\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("a b\na c\n", "dlx-latin: error: line 2: unknown item 'c'\n"),
        ("a | x\nx:1 a:2\n", "dlx-latin: error: line 2: primary item 'a' may not have a color\n"),
        ("", "dlx-latin: error: no item line: the file holds no items\n"),
    ],
)
def test_bad_file_is_one_line_and_exit_1(text, message):
    out = run("xc", "count", "-", stdin=text)
    assert (out.returncode, out.stdout, out.stderr) == (1, "", message)


def test_missing_file(tmp_path):
    out = run("xc", "solve", str(tmp_path / "none.dlx"))
    assert out.returncode == 1
    assert out.stderr == f"dlx-latin: error: cannot read {tmp_path / 'none.dlx'}: No such file or directory\n"


def test_binary_file(tmp_path):
    f = tmp_path / "bin.dlx"
    f.write_bytes(b"\xff\xfe\x00")
    out = run("xc", "count", str(f))
    assert (out.returncode, out.stderr) == (1, f"dlx-latin: error: cannot read {f}: not UTF-8 text\n")


def test_closed_standard_input():
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.stdin.close(); sys.stdin = None; sys.argv = ['dlx-latin', 'xc', 'count', '-'];"
            "from dlx_latin.cli import main; main()",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (out.returncode, out.stderr) == (1, "dlx-latin: error: standard input is closed\n")


@pytest.mark.parametrize(
    "args",
    [["xc", "count"], ["xc", "solve", "f", "--limit", "-1"], ["xc", "count", "f", "--bogus"], ["nonsense"]],
)
def test_usage_errors_exit_2(args):
    out = run(*args)
    assert out.returncode == 2 and "Traceback" not in out.stderr
