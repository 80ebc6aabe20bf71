"""Checkpointed counts: interrupted at any moment (SIGKILL included), the same command resumes exactly."""

import contextlib
import json
import signal
import subprocess
import sys

import pytest
from cli import EXAMPLES, run_cli

from dlx_latin.boards import board_from_spec
from dlx_latin.exact_cover.checkpoint import CHECKPOINT_PARTS
from dlx_latin.exact_cover.classic import latin_square, queens
from dlx_latin.latin import PartialBoard


def records(path):
    """The whole JSON lines of a checkpoint file (a torn line is skipped, as the reader does)."""
    out = []
    for line in path.read_text().splitlines():
        with contextlib.suppress(ValueError):
            out.append(json.loads(line))
    return out


def test_resume_after_a_torn_file(tmp_path):
    p = latin_square(6, fix="row")
    ck = tmp_path / "count.jsonl"
    assert p.count(checkpoint=ck) == 1_128_960
    lines = ck.read_text().splitlines()
    assert len(lines) <= CHECKPOINT_PARTS
    ck.write_text("\n".join(lines[:17]) + "\n" + lines[17][:25])  # 17 parts done, the 18th torn
    assert p.count(checkpoint=ck, jobs=2) == 1_128_960
    done = [tuple(r["path"]) for r in records(ck)]
    assert len(done) == len(set(done)) == len(lines)  # each part recorded once, none lost
    assert p.count(checkpoint=ck) == 1_128_960  # a finished file answers at once


def test_problems_sharing_a_file_do_not_mix(tmp_path):
    ck = tmp_path / "two.jsonl"
    assert queens(8).count(checkpoint=ck) == 92
    assert latin_square(5).count(checkpoint=ck) == 161_280
    assert queens(8).count(checkpoint=ck) == 92
    assert {r["problem"] for r in records(ck)} == {
        queens(8).kernel_arrays.digest(),
        latin_square(5).kernel_arrays.digest(),
    }


KILLED_AFTER = 20  # records written before the command kills itself

SELF_KILLING_COUNT = """
import os, signal, sys
from dlx_latin.cli import run
from dlx_latin.exact_cover import checkpoint

write, written = checkpoint.RecordLog.write, [0]

def write_then_die(log, record):
    write(log, record)
    written[0] += 1
    if written[0] == {after}:
        os.kill(os.getpid(), signal.SIGKILL)  # the hardest stop: no handler, no flush, no cleanup

checkpoint.RecordLog.write = write_then_die
sys.exit(run(sys.argv[1:]))
"""


def test_sigkill_then_the_same_command_resumes(tmp_path):
    """The command is SIGKILLed right after its 20th record (deterministic: it kills itself there); the same
    command then counts only the parts missing, exactly."""
    ck = tmp_path / "kill.jsonl"
    args = [
        "count",
        "latin:6",
        "--multiset",
        "1^2,2^2,3^2",
        "--checkpoint",
        str(ck),
        "--no-progress",
        "--json",
    ]
    script = SELF_KILLING_COUNT.format(after=KILLED_AFTER)
    child = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr
    assert len(records(ck)) == KILLED_AFTER
    out = run_cli(*args)
    assert out.returncode == 0 and json.loads(out.stdout) == {"count": 35_599_500}
    done = [(r["problem"], tuple(r["path"])) for r in records(ck)]
    assert len(done) == len(set(done)) > KILLED_AFTER


def _tampered(ck, change):
    """The checkpoint file with `change` applied to its first record (the line rewritten as JSON)."""
    lines = ck.read_text().splitlines()
    record = json.loads(lines[0])
    change(record)
    ck.write_text("\n".join([json.dumps(record), *lines[1:]]) + "\n")


def test_a_tampered_record_is_reported_and_counted_again(tmp_path):
    p = latin_square(6, fix="row")
    ck = tmp_path / "count.jsonl"
    assert p.count(checkpoint=ck) == 1_128_960
    first = json.loads(ck.read_text().splitlines()[0])
    assert first["count"] > 0 and "check" in first
    changes = [
        lambda r: r.update(count=r["count"] + 1),  # one digit changed
        lambda r: r.update(count=-5),
        lambda r: r.update(count=1.5),
        lambda r: r.update(count="12"),
        lambda r: r.update(path=["x"]),
        lambda r: r.pop("check"),  # a forged record without a checksum
        lambda r: r.update(count=10**6, check="0" * 16),
    ]
    for change in changes:
        _tampered(ck, change)
        with pytest.warns(UserWarning, match="1 record"):
            assert p.count(checkpoint=ck) == 1_128_960
        with pytest.warns(UserWarning, match="1 record"):  # the part is now recorded soundly once more
            assert p.count(checkpoint=ck) == 1_128_960


def test_a_tampered_record_on_the_command_line(tmp_path):
    ck = tmp_path / "q.jsonl"
    args = ["xc", "count", str(EXAMPLES / "queens8.dlx"), "--checkpoint", str(ck), "--json"]
    assert json.loads(run_cli(*args).stdout) == {"count": 92}
    _tampered(ck, lambda r: r.update(count=r["count"] + 1000))
    out = run_cli(*args)
    assert out.returncode == 0 and json.loads(out.stdout) == {"count": 92}
    assert "failed their check" in out.stderr and "Traceback" not in out.stderr


def test_bad_checkpoint_files_are_one_line_errors(tmp_path):
    (tmp_path / "other.jsonl").write_text("[1, 2]\n")
    for target, message in [
        (tmp_path / "no" / "dir.jsonl", "cannot use checkpoint file"),
        (tmp_path / "other.jsonl", "is not a dlx-latin checkpoint file"),
    ]:
        out = run_cli("xc", "count", str(EXAMPLES / "queens8.dlx"), "--checkpoint", str(target))
        assert out.returncode == 1 and message in out.stderr and out.stderr.count("\n") == 1


def test_classes_by_burnside_reuse_the_plain_counts_checkpoint(tmp_path):
    """`count BOARD --up-to geometry|symmetry --checkpoint FILE`: Burnside's identity term is the plain
    count, so a checkpoint the plain count filled is read, not counted again (hexagon:2: 163 classes under
    rotations and reflections, 620,786,073,600 Latin hexagons)."""
    ck = tmp_path / "hexagon.jsonl"
    assert run_cli("count", "hexagon:2", "--checkpoint", str(ck)).stdout.strip() == "620786073600"
    before = ck.read_text()
    geometry = run_cli("count", "hexagon:2", "--up-to", "geometry", "--checkpoint", str(ck))
    assert geometry.stdout.strip() == "163" and ck.read_text() == before
    fresh = tmp_path / "fresh.jsonl"  # the other way round: the plain count reads what Burnside recorded
    classes = run_cli("count", "hexagon:2", "--up-to", "geometry", "--checkpoint", str(fresh))
    assert classes.stdout.strip() == "163"
    recorded = fresh.read_text()
    assert run_cli("count", "hexagon:2", "--checkpoint", str(fresh)).stdout.strip() == "620786073600"
    assert fresh.read_text() == recorded


def test_burnside_terms_split_by_labels_are_recorded_whole(tmp_path, monkeypatch):
    """The parts of Burnside's other terms go to the file as whole counts (path []), so a second run counts
    none of them again (every term split here: SPLIT_NODES 0)."""
    from symmetry import burnside
    from symmetry.groups import geometric_group

    monkeypatch.setattr(burnside, "SPLIT_NODES", 0)
    pb = PartialBoard(board_from_spec("hexagon:2"))
    ck = tmp_path / "terms.jsonl"
    assert burnside.count_by_burnside(pb, geometric_group(pb.board), checkpoint=str(ck)) == 163
    after = ck.read_text()
    whole = [json.loads(line) for line in after.splitlines() if json.loads(line)["path"] == []]
    assert whole
    assert burnside.count_by_burnside(pb, geometric_group(pb.board), checkpoint=str(ck)) == 163
    assert ck.read_text() == after  # a term counted again would be recorded again


def test_a_checkpoint_for_isotopy_classes_is_refused(tmp_path):
    refused = run_cli("count", "latin:5", "--up-to", "isotopy", "--checkpoint", str(tmp_path / "i.jsonl"))
    assert refused.returncode == 2 and "nothing to checkpoint" in refused.stderr
    assert not (tmp_path / "i.jsonl").exists()


class Enough(Exception):
    """Raised by a progress callback to end a count early."""


def test_a_checkpointed_count_reports_progress_before_its_first_part_ends(tmp_path):
    ck = tmp_path / "latin7.jsonl"
    heard = []

    def progress(nodes, fraction):
        heard.append((nodes, fraction, len(records(ck)) if ck.exists() else 0))
        if len(heard) == 5:
            raise Enough

    with pytest.raises(Enough):  # a part of latin:7 unmemoized runs for minutes: it reports as it goes
        latin_square(7, fix="row").count(checkpoint=ck, progress=progress, memo=False)
    assert [written for _, _, written in heard] == [0] * 5
    fractions = [f for _, f, _ in heard]
    assert fractions[0] > 0 and fractions == sorted(set(fractions))
    assert [n for n, _, _ in heard] == sorted({n for n, _, _ in heard})


def test_a_resumed_count_starts_its_progress_from_the_parts_recorded(tmp_path):
    """A resumed count starts from the share of the tree its recorded parts hold, and ends at 1."""
    p = latin_square(6, fix="row")
    ck = tmp_path / "latin6.jsonl"
    assert p.count(checkpoint=ck) == 1_128_960
    lines = ck.read_text().splitlines()
    ck.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    heard = []
    assert p.count(checkpoint=ck, progress=lambda n, f: heard.append(f)) == 1_128_960
    assert 0 < heard[0] < 1 and heard[-1] == 1.0 and heard == sorted(heard)


def test_a_record_re_signed_without_the_key_is_counted_again(tmp_path):
    """A forger who raises a part's count and re-signs the line with a plain SHA-256 (what the check was
    before it was keyed) is caught: the part is counted again (issue 54)."""
    import hashlib

    ck = tmp_path / "c.jsonl"
    assert run_cli("xc", "count", str(EXAMPLES / "queens8.dlx"), "--checkpoint", str(ck)).stdout == "92\n"
    assert (tmp_path / "c.jsonl.key").stat().st_mode & 0o077 == 0  # the key is its owner's alone
    lines = ck.read_text().splitlines()
    record = json.loads(lines[0])
    forged = {k: v for k, v in record.items() if k != "check"} | {"count": record["count"] + 1000}
    forged["check"] = hashlib.sha256(json.dumps(forged, sort_keys=True).encode()).hexdigest()[:16]
    ck.write_text("\n".join([json.dumps(forged), *lines[1:]]) + "\n")
    again = run_cli("xc", "count", str(EXAMPLES / "queens8.dlx"), "--checkpoint", str(ck))
    assert again.stdout == "92\n" and "1 record(s) failed their check" in again.stderr


def test_a_key_that_is_a_device_is_refused(tmp_path):
    """FILE.key pointing at /dev/zero would be read as a key of NUL bytes: it is refused in one line."""
    ck = tmp_path / "c.jsonl"
    (tmp_path / "c.jsonl.key").symlink_to("/dev/zero")
    out = run_cli("xc", "count", str(EXAMPLES / "queens8.dlx"), "--checkpoint", str(ck))
    assert out.returncode == 1 and out.stderr.count("\n") == 1
    assert "cannot use checkpoint file" in out.stderr and "not a regular file" in out.stderr
