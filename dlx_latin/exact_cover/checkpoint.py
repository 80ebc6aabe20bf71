"""Counts that survive interruption: finished subproblems are written to a checkpoint file as they finish.

The problem is split into a fixed number of paths (independent of --jobs, so a run may resume with other
settings); each finished path appends one JSON line {"problem": digest, "path": [...], "count": n,
"check": ...} and flushes it to disk.  Run the same count with the same file again after any interruption
-- Ctrl-C, a crash, SIGKILL -- and only the missing paths are counted; a torn last line is ignored.  The
check is an HMAC of the rest of the line under a key kept beside the file (FILE.key, owner-only), so a line
that was edited, damaged or forged -- re-signed with a plain hash, say -- is reported and its part counted
again, never trusted.  The digest is a SHA-256 of the kernel's arrays, so one file can hold several
problems (an empty board's arrangements) and never mixes them up.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import warnings
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from dlx_latin.errors import InputFileError
from dlx_latin.exact_cover.kernel import KernelArrays
from dlx_latin.exact_cover.parallel import ParallelRun, split
from dlx_latin.exact_cover.settings import CountSettings
from dlx_latin.files import open_regular

CHECKPOINT_PARTS = 256
USE = "use checkpoint file"  # how a checkpoint that cannot be opened is named in its one-line error


def unusable(checkpoint: str | os.PathLike, error: OSError | UnicodeDecodeError) -> InputFileError:
    """The one-line error for a checkpoint file that cannot be read or written."""
    reason = getattr(error, "strerror", None) or "not a text file"
    return InputFileError(f"cannot use checkpoint file {checkpoint}: {reason}")


def record_check(record: Mapping, key: bytes) -> str:
    """The check a record carries: 16 hex digits of an HMAC-SHA-256 of its other fields under the
    checkpoint's own key (`checkpoint_key`), so that an edited, corrupted or forged line -- even one re-signed
    with a plain SHA-256 -- is recognized and its part counted again rather than trusted."""
    rest = json.loads(json.dumps({k: v for k, v in record.items() if k != "check"}))  # as read back
    text = json.dumps(rest, sort_keys=True)
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()[:16]


def checkpoint_key(path: Path) -> bytes:
    """The secret of the checkpoint file `path`, kept beside it in PATH.key (made on first use, readable by
    its owner only).  It proves a record was written by this tool for this file, not that its count is
    right: it guards against edits and forgeries by anyone who cannot read the key (a record whose key is
    lost is counted again)."""
    key_path = path.with_name(path.name + ".key")
    try:
        fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        with os.fdopen(open_regular(key_path, verb=USE), "rb") as f:
            return f.read(128)
    except OSError:
        return b""  # no room for a key beside a file that is only read: its records are counted again
    key = secrets.token_hex(32).encode()
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    return key


def read_records(
    path: Path, fields: frozenset[str], valid: Callable[[dict], bool], what: str
) -> Iterator[dict]:
    """The sound records of a JSON-lines checkpoint file (none when it does not exist).

    A line torn by an interruption is skipped.  A JSON line without the record's `fields` means the file is
    something else (InputFileError, naming `what` the file should be).  A record whose checksum fails or
    whose values are not `valid` is skipped with one warning for the file: its part is computed again.
    """
    if not path.exists():
        return
    bad, key = 0, checkpoint_key(path)
    with os.fdopen(open_regular(path, verb=USE), encoding="utf-8") as f:
        for line in f:
            try:
                record = json.loads(line)
            except (ValueError, RecursionError):
                continue  # a line torn by an interruption
            if not isinstance(record, dict) or not record.keys() >= fields:
                raise InputFileError(f"{path} is not {what} (a line is not one of its records)")
            if not key or record.get("check") != record_check(record, key) or not _sound(valid, record):
                bad += 1
                continue
            yield record
    if bad:
        warnings.warn(
            f"{path}: {bad} record(s) failed their check (edited, or written under another key) or hold "
            "impossible values; "
            "they are ignored and their parts computed again",
            stacklevel=2,
        )


def _sound(valid: Callable[[dict], bool], record: dict) -> bool:
    """`valid(record)`, False rather than an exception for values of unexpected types."""
    try:
        return bool(valid(record))
    except (TypeError, ValueError, AttributeError):
        return False


def natural(value: object) -> bool:
    """Whether a JSON value is a non-negative integer (booleans and floats are not)."""
    return type(value) is int and value >= 0


class RecordLog:
    """A checkpoint file opened to append records, each signed with the file's key (read once) and on disk
    before `write` returns, so a kill right after loses nothing; a line torn by an interruption is ended
    first."""

    def __init__(self, path: Path) -> None:
        fd = open_regular(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, verb=USE)
        size = os.fstat(fd).st_size
        torn = size > 0 and os.pread(fd, 1, size - 1) != b"\n"
        self.key = checkpoint_key(path)
        self.out = os.fdopen(fd, "a", encoding="utf-8")
        if torn:
            self.out.write("\n")

    def write(self, record: dict) -> None:
        """Append one record with its check and flush it to disk."""
        self.out.write(json.dumps({**record, "check": record_check(record, self.key)}) + "\n")
        self.out.flush()
        os.fsync(self.out.fileno())

    def close(self) -> None:
        self.out.close()

    def __enter__(self) -> RecordLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_FIELDS = frozenset({"problem", "path", "count"})


def _valid(record: dict) -> bool:
    """Whether a count checkpoint's record holds a digest, a path of branch indices and a count."""
    return (
        isinstance(record["problem"], str)
        and isinstance(record["path"], list)
        and all(natural(b) for b in record["path"])
        and natural(record["count"])
    )


def _finished(path: Path, digest: str) -> dict[tuple[int, ...], int]:
    done: dict[tuple[int, ...], int] = {}
    for record in read_records(path, _FIELDS, _valid, "a dlx-latin checkpoint file"):
        if record["problem"] == digest:
            done[tuple(record["path"])] = record["count"]
    return done


def count_with_checkpoint(arrays: KernelArrays, settings: CountSettings) -> int:
    """The exact count, resuming from and recording to `settings.checkpoint`, run as `settings` say."""
    checkpoint = settings.checkpoint
    try:
        return _count_with_checkpoint(arrays, Path(checkpoint), settings)
    except (OSError, UnicodeDecodeError) as e:
        raise unusable(checkpoint, e) from None


def _count_with_checkpoint(arrays: KernelArrays, path: Path, settings: CountSettings) -> int:
    digest = arrays.digest()
    done = _finished(path, digest)
    paths = split(arrays, CHECKPOINT_PARTS)
    todo = [p for p in paths if p not in done]
    total = sum(done[p] for p in paths if p in done)
    run = ParallelRun(arrays, settings, run_id=digest)
    with RecordLog(path) as out:
        for p, (count, _nodes) in run.results(todo, among=paths):
            out.write({"problem": digest, "path": list(p), "count": count})
            total += count
    return total


class WholeCounts:
    """Counts of whole problems recorded in a checkpoint file (as the path []), read once: for the many small
    problems of one long sum (Burnside's terms), so that a rerun counts only those not recorded yet."""

    def __init__(self, checkpoint: str | os.PathLike) -> None:
        self.path = Path(checkpoint)
        try:
            self.done = {
                r["problem"]: r["count"]
                for r in read_records(self.path, _FIELDS, _valid, "a dlx-latin checkpoint file")
                if r["path"] == []
            }
        except (OSError, UnicodeDecodeError) as e:
            raise unusable(checkpoint, e) from None

    def add(self, counts: Mapping[str, int]) -> None:
        """Record the counts of more problems, by digest (`KernelArrays.digest`)."""
        self.done.update(counts)
        try:
            with RecordLog(self.path) as out:
                for digest, count in counts.items():
                    out.write({"problem": digest, "path": [], "count": count})
        except OSError as e:
            raise unusable(self.path, e) from None
