"""The one runner for split counts (`dlx_latin.runner`): every strategy that sums parts -- Latin squares in
halves, Sudoku by bands, the jigsaw walk -- honours --jobs, --checkpoint and --progress, and a SIGKILLed run
resumes exactly from its records."""

import json
import signal
import subprocess
import sys

import pytest
from cli import run_cli
from test_checkpoint import SELF_KILLING_COUNT, records

from dlx_latin.exact_cover.settings import CountSettings
from dlx_latin.runner import count_in_parts


def _square(x: int) -> int:
    return x * x


PARTS = [(f"part {x}", (x,)) for x in range(12)]


def test_parts_in_processes_equal_parts_here_and_report_their_share():
    shares = []
    here = count_in_parts(_square, PARTS, CountSettings(progress=lambda done, f: shares.append((done, f))))
    assert here == sum(x * x for x in range(12)) == count_in_parts(_square, PARTS, CountSettings(jobs=2))
    assert shares == [(k, k / 12) for k in range(1, 13)]
    assert count_in_parts(_square, PARTS[:5], shuffle=3) == 30


def test_recorded_parts_are_not_counted_again(tmp_path):
    ck = tmp_path / "c.jsonl"
    assert count_in_parts(_square, PARTS[:4], CountSettings(checkpoint=ck)) == 14
    calls = []

    def counted(x: int) -> int:
        calls.append(x)
        return x * x

    assert count_in_parts(counted, PARTS, CountSettings(checkpoint=ck)) == 506
    assert calls == list(range(4, 12))


def test_two_parts_with_one_key_are_refused():
    with pytest.raises(ValueError, match="share a key"):
        count_in_parts(_square, [("k", (1,)), ("k", (2,))])


@pytest.mark.parametrize(
    "args, expected",
    [
        (["count", "sudoku:2x4"], 29_136_487_207_403_520),  # by bands: 26 first-band classes, 7 parts
        (["count", "latin:8"], 108_776_032_459_082_956_800),  # in halves: 194 column-set classes, 4 parts
        (["jigsaw", "count", "5"], 11_762_160),  # the walk's parts (A172478(5))
    ],
)
def test_each_split_strategy_resumes_after_a_kill(tmp_path, args, expected):
    """Killed after its second record with --jobs 2, the same command ends with the published count and
    counts only the parts not recorded."""
    ck = tmp_path / "k.jsonl"
    argv = [*args, "--jobs", "2", "--checkpoint", str(ck), "--no-progress", "--json"]
    child = subprocess.run(
        [sys.executable, "-c", SELF_KILLING_COUNT.format(after=2), *argv],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr
    assert len(records(ck)) == 2
    out = run_cli(*argv, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["count"] == expected
    keys = [r["problem"] for r in records(ck)]
    assert len(keys) == len(set(keys)) > 2
