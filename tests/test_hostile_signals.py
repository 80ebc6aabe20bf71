"""Signals: Ctrl-C stops at once with exit 130 and one line; a parent killed with SIGKILL leaves no
workers; kill -9 at random moments of a catalog build or a checkpointed count loses nothing and stores
nothing twice."""

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from cli import run_cli


def _start(*args: str) -> subprocess.Popen:
    """`dlx-latin ARGS` in a child that hears Ctrl-C (a background shell would have it ignored)."""
    return subprocess.Popen(
        [sys.executable, "-m", "dlx_latin", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _children(pid: int) -> list[int]:
    """The live (not zombie) child processes of `pid`, from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_a_parallel_census_at_once():
    child = _start("minimal", "sudoku:2x3", "--critical", "--jobs", "2", "--no-progress")
    deadline = time.monotonic() + 60
    while len(_children(child.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(2)  # the workers are at work
    workers = _children(child.pid)
    start = time.monotonic()
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert time.monotonic() - start < 5
    assert child.returncode == 130 and err == "dlx-latin: interrupted\n"
    time.sleep(0.5)
    assert not [w for w in workers if _alive(w)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_die_with_a_killed_parent(tmp_path):
    child = _start("minimal", "sudoku:2x3", "--critical", "--jobs", "2", "--no-progress")
    deadline = time.monotonic() + 60
    while len(_children(child.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    workers = [w for w in _children(child.pid) if _alive(w)]
    assert len(workers) >= 2
    child.kill()
    child.wait()
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [w for w in workers if _alive(w)]


def _solutions(path):
    with sqlite3.connect(path) as db:
        return sorted(db.execute("SELECT canonical, orbit_size FROM solutions"))


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_kill_9_at_random_moments_of_a_catalog_build(tmp_path, jobs):
    """sudoku:2x3 with its critical puzzles, killed three times at random moments, then finished: the same
    rows as an uninterrupted build."""
    rng = random.Random(2026 + int(jobs))
    args = ["catalog", "build", "sudoku:2x3", "--jobs", jobs, "--no-progress"]
    whole = tmp_path / "whole.sqlite"
    assert run_cli(*args, "--db", str(whole)).returncode == 0
    killed = tmp_path / "killed.sqlite"
    for _ in range(3):
        child = _start(*args, "--db", str(killed))
        time.sleep(rng.uniform(0.5, 3.0))
        child.kill()
        child.communicate()
    out = run_cli(*args, "--db", str(killed))
    assert out.returncode == 0, out.stderr
    assert _solutions(killed) == _solutions(whole) and len(_solutions(whole)) == 49


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_kill_9_at_random_moments_of_a_checkpointed_count(tmp_path, jobs):
    rng = random.Random(7 + int(jobs))
    ck = tmp_path / "count.jsonl"
    args = ["count", "latin:6", "--multiset", "1^2,2^2,3^2", "--jobs", jobs, "--checkpoint", str(ck)]
    args.append("--json")
    for _ in range(3):
        child = _start(*args, "--no-progress")
        time.sleep(rng.uniform(0.3, 1.5))
        child.kill()
        child.communicate()
    out = run_cli(*args)
    assert out.returncode == 0 and json.loads(out.stdout) == {"count": 35_599_500}
    records = [json.loads(line) for line in ck.read_text().splitlines() if line.endswith("}")]
    paths = [(r["problem"], tuple(r["path"])) for r in records]  # one problem per symmetry leaf
    assert len(paths) == len(set(paths))  # nothing stored twice
