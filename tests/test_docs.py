"""Every example in the README and docs/ runs as written: console blocks are run in-process and their
output compared, Python blocks are executed (their asserts are the checks).

A console block holds `$ dlx-latin ...` lines, each followed by the output it prints.  In the output, a line
`...` stands for any number of lines, a line ending in `...` for a line that starts with what comes before,
and `[exit N]` ends the output of a command that exits with N.  `> FILE` after a command writes its output
to FILE.  Blocks fenced as `console slow` / `python slow` run only with `pytest -m slow`.  Commands run in a
fresh directory where `examples/` is the project's examples.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from cli import EXAMPLES, run_cli

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TIMING = r"\b(?:in|about|takes?|under) (?:about )?[\d.]+ ?(?:s|ms|seconds|minutes?|hours?)\b"
FENCE = re.compile(r"^```(console|python)( slow)?\n(.*?)^```", re.S | re.M)


def blocks(kind: str) -> list:
    out = []
    for page in PAGES:
        text = page.read_text()
        for match in FENCE.finditer(text):
            if match.group(1) != kind:
                continue
            line = text[: match.start()].count("\n") + 1
            marks = [pytest.mark.slow] if match.group(2) else []
            out.append(pytest.param(match.group(3), id=f"{page.name}:{line}", marks=marks))
    return out


def commands(block: str) -> list[tuple[str, list[str]]]:
    """(command line, expected output lines) for each `$` line of a console block."""
    out: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            assert out, f"output before any command: {line!r}"
            out[-1][1].append(line)
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the lines match, `...` standing for any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    if not actual:
        return False
    first = expected[0]
    same = actual[0].startswith(first[:-3]) if first.endswith("...") else actual[0] == first
    return same and matches(expected[1:], actual[1:])


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    (tmp_path / "examples").symlink_to(EXAMPLES)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("block", blocks("console"))
def test_console_examples(block, workdir):
    for line, expected in commands(block):
        words = shlex.split(line, comments=True)
        target = None
        if len(words) >= 2 and words[-2] == ">":
            words, target = words[:-2], words[-1]
        assert words[0] == "dlx-latin", line
        out = run_cli(*words[1:])
        code = 0
        if expected and (m := re.fullmatch(r"\[exit (\d+)\]", expected[-1])):
            expected, code = expected[:-1], int(m.group(1))
        assert out.returncode == code, f"{line}: exit {out.returncode}\n{out.stderr}"
        if target is not None:
            (workdir / target).write_text(out.stdout)
            continue
        actual = out.stdout.splitlines()
        assert matches(expected, actual), f"{line} printed:\n{out.stdout}"


@pytest.mark.parametrize("block", blocks("python"))
def test_python_examples(block, workdir):
    exec(compile(block, "example", "exec"), {"__name__": "example"})


def test_readme_starts_with_the_two_setup_commands():
    text = (ROOT / "README.md").read_text()
    first = text.split("```")[1].strip().splitlines()
    assert first[0].startswith("pip install ") and "dlx-latin " in first[0]
    assert first[1].startswith("pip install -e '.[test") and first[1].endswith("pytest")
    assert (ROOT / ".ci" / "run").read_text().count(first[1].split("&& ")[1]) >= 1


def test_readme_is_short_and_quotes_no_times():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 160
    for page in PAGES:
        prose = FENCE.sub("", page.read_text())
        timing = re.findall(
            r"\b(?:in|about|takes?|under) (?:about )?[\d.]+ ?(?:s|ms|seconds|minutes?|hours?)\b", prose
        )
        assert timing == [], f"{page.name} quotes times (they live in benchmarks/RESULTS.md): {timing}"
