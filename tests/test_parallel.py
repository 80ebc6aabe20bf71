"""Split and parallel counts: subproblems partition the search; --jobs and Dask equal serial counts."""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cli import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import brute_force_solutions
from test_multiplicities import bounded_problems

from dlx_latin.exact_cover import ExactCoverProblem
from dlx_latin.exact_cover.classic import latin_square, queens
from dlx_latin.exact_cover.parallel import split
from dlx_latin.formats.dlx import write_dlx

ORACLES = [
    ("queens 8", lambda: queens(8), 92),
    ("latin 5", lambda: latin_square(5), 161_280),
    ("reduced latin 6", lambda: latin_square(6, fix="reduced"), 9408),
    ("sudoku 4x4", lambda: latin_square(4, box=(2, 2)), 288),
    ("A001499(5)", lambda: latin_square(5, multiset=[1, 1, 2, 2, 2]), 2040),
    ("A001501(6)", lambda: latin_square(6, multiset=[1, 1, 1, 2, 2, 2]), 297_200),
]
EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.mark.parametrize("name, make, expected", ORACLES, ids=[o[0] for o in ORACLES])
@pytest.mark.parametrize("parts", [1, 5, 40])
def test_subproblem_counts_sum_to_the_whole(name, make, expected, parts):
    p = make()
    paths = split(p.kernel_arrays, parts)
    assert len(paths) >= min(parts, 2) and len(set(paths)) == len(paths)
    assert sum(p.search(path=q).count() for q in paths) == expected


def test_subproblem_solutions_partition_the_solutions():
    p = latin_square(4, multiset=[1, 1, 2, 2])
    parts = [set(kernel_solutions(p, q)) for q in split(p.kernel_arrays, 12)]
    union = set().union(*parts)
    assert sum(len(x) for x in parts) == len(union) == 90
    assert union == set(p.solutions())


def kernel_solutions(p, path):
    search = p.search(path=path)
    out = []
    while not search.done:
        out += [tuple(sorted(s)) for s in search.next_batch(100)]
    return out


def test_degree_of_root_and_leaves():
    p = ExactCoverProblem(["a", "b"], [["a"], ["b"], ["a", "b"]])
    assert p.search().degree() == 2  # item a: option 0 or option 2
    assert p.search(path=(1,)).degree() == -1  # option 2 covers everything: a solution
    assert p.search(path=(5,)).degree() == 0  # no such branch


@pytest.mark.parametrize("name, make, expected", ORACLES, ids=[o[0] for o in ORACLES])
def test_jobs_2_equals_serial(name, make, expected):
    p = make()
    assert p.count(jobs=2) == p.count() == expected


def test_parallel_progress_reaches_one():
    seen = []
    assert latin_square(5).count(jobs=2, progress=lambda n, f: seen.append(f)) == 161_280
    assert seen[-1] == 1.0 and seen == sorted(seen)


def test_limit_and_jobs_do_not_mix():
    with pytest.raises(ValueError, match="limit"):
        latin_square(3).count(limit=2, jobs=2)
    with pytest.raises(ValueError, match="jobs"):
        latin_square(3).count(jobs=0)


def test_cli_jobs_and_progress_keep_stdout_clean():
    out = run_cli(
        "xc",
        "count",
        str(EXAMPLES / "latin6-111222.dlx"),
        "--jobs",
        "2",
        "--json",
        "--progress",
        timeout=60,
    )
    assert out.returncode == 0 and json.loads(out.stdout) == {"count": 297_200}


def _threads(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/task").iterdir()))


def test_sigint_stops_a_parallel_count_and_its_threads(tmp_path):
    big = tmp_path / "latin7.dlx"
    big.write_text(write_dlx(latin_square(7)))  # about 6e13 solutions: never ends on its own
    child = subprocess.Popen(
        [sys.executable, "-m", "dlx_latin", "xc", "count", str(big), "--jobs", "2", "--no-progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while _threads(child.pid) < 3 and time.monotonic() < deadline:  # the main thread and two workers
            time.sleep(0.1)
        assert _threads(child.pid) >= 3
        time.sleep(0.5)
        sent = time.monotonic()
        os.kill(child.pid, signal.SIGINT)
        assert child.wait(timeout=15) == 130
        assert time.monotonic() - sent < 5.0  # the running subproblems stopped too, not just the pending ones
        assert child.stderr.read().endswith("dlx-latin: interrupted\n")
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_scheduler_is_a_one_line_error():
    start = time.monotonic()
    out = run_cli(
        "xc",
        "count",
        str(EXAMPLES / "queens8.dlx"),
        "--scheduler",
        f"tcp://127.0.0.1:{_free_port()}",
        timeout=60,
    )
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.startswith("dlx-latin: error: cannot reach the Dask scheduler at tcp://127.0.0.1:")
    assert out.stderr.count("\n") == 1
    assert time.monotonic() - start < 30


class _Service:
    """A TCP service on loopback that is not a Dask scheduler: `reply` is sent on connection (None: stay
    silent; b"": close at once)."""

    def __init__(self, reply: bytes | None) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen()
        self.reply, self.held = reply, []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = self.server.accept()
                self.held.append(conn)
                if self.reply is not None:
                    conn.sendall(self.reply)
                    if not self.reply:
                        conn.close()

    @property
    def address(self) -> str:
        return f"tcp://127.0.0.1:{self.server.getsockname()[1]}"

    def close(self) -> None:
        self.server.close()
        for conn in self.held:
            conn.close()


@pytest.mark.parametrize(
    "reply, message",
    [
        (None, "is not a Dask scheduler: no handshake within 5 s"),
        (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "it answered with something else"),
        (b"", "closed the connection: not a Dask scheduler"),
    ],
)
def test_a_scheduler_that_is_not_dask_is_one_line_within_the_limit(reply, message):
    service = _Service(reply)
    try:
        start = time.monotonic()
        queens = str(EXAMPLES / "queens8.dlx")
        out = run_cli("xc", "count", queens, "--scheduler", service.address, timeout=60)
        assert out.returncode == 1 and out.stdout == "" and out.stderr.count("\n") == 1, out.stderr
        assert message in out.stderr
        assert time.monotonic() - start < 20
    finally:
        service.close()


@pytest.mark.parametrize(
    "address, message",
    [
        ("tls://127.0.0.1:8786", "not tls://"),
        ("tcp://127.0.0.1", "--scheduler takes tcp://HOST:PORT"),
        ("tcp://127.0.0.1:99999", "--scheduler takes tcp://HOST:PORT"),
    ],
)
def test_scheduler_addresses_that_cannot_be_used(address, message):
    out = run_cli("xc", "count", str(EXAMPLES / "queens8.dlx"), "--scheduler", address, timeout=60)
    assert out.returncode == 1 and out.stderr.count("\n") == 1 and message in out.stderr


def test_count_on_a_dask_local_cluster():
    distributed = pytest.importorskip("distributed")  # the dask extra (the README's test command installs it)

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as cluster:
        from dlx_latin.distributed import dask_executor

        with dask_executor(cluster.scheduler_address) as (executor, workers):
            assert workers == 2
            assert (
                latin_square(6, multiset=[1, 1, 1, 2, 2, 2]).count(jobs=workers, executor=executor) == 297_200
            )
        out = run_cli(
            "xc",
            "count",
            str(EXAMPLES / "latin5.dlx"),
            "--scheduler",
            cluster.scheduler_address,
            "--json",
            timeout=90,
        )
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == {"count": 161_280}


@settings(max_examples=300, deadline=None)
@given(bounded_problems(colors=True), st.integers(1, 12))
def test_paths_partition_random_bounded_colored_problems(p, parts):
    expected = brute_force_solutions(p)
    found = [s for q in split(p.kernel_arrays, parts) for s in kernel_solutions(p, q)]
    assert len(found) == len(set(found)) and set(found) == expected


def test_the_progress_bar_redraws_while_the_fraction_creeps(monkeypatch):
    """A long count's fraction moves by millionths; the bar still redraws its nodes at least every 0.1 s
    (tqdm's adaptive redraw threshold, set by a first big step, had frozen it for minutes)."""
    import io

    from dlx_latin.cli.progress import ProgressBar

    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    bar = ProgressBar()
    bar(1, 0.01)
    for k in range(2, 8):
        time.sleep(0.12)
        bar(k * 1000, 0.01 + k * 1e-7)
    bar.close()
    assert "7,000 nodes" in err.getvalue()
