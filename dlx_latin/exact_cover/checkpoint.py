"""Counts that survive interruption: finished subproblems are written to a checkpoint file as they finish.

The problem is split into a fixed number of paths (independent of --jobs, so a run may resume with other
settings); each finished path appends one JSON line {"problem": digest, "path": [...], "count": n} and
flushes it to disk.  Run the same count with the same file again after any interruption -- Ctrl-C, a crash,
SIGKILL -- and only the missing paths are counted; a torn last line is ignored.  The digest is a SHA-256 of
the kernel's arrays, so one file can hold several problems (an empty board's arrangements) and never mixes
them up.
"""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from functools import partial
from pathlib import Path

from dlx_latin.exact_cover.parallel import _stop_workers, count_path, split
from dlx_latin.exact_cover.problem import ExactCoverProblem, Progress

CHECKPOINT_PARTS = 256


def problem_digest(problem: ExactCoverProblem) -> str:
    """A SHA-256 of exactly what the kernel searches."""
    h = hashlib.sha256()
    for part in problem.kernel_arrays:
        h.update(repr(part).encode() if isinstance(part, int) else bytes(part))
        h.update(b"|")
    return h.hexdigest()


def _finished(path: Path, digest: str) -> dict[tuple[int, ...], int]:
    done: dict[tuple[int, ...], int] = {}
    if not path.exists():
        return done
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                record = json.loads(line)
            except ValueError:
                continue  # a line torn by an interruption
            if record.get("problem") == digest:
                done[tuple(record["path"])] = int(record["count"])
    return done


def _run(pool: Executor | None, task, todo: list[tuple[int, ...]]):
    """(path, result) pairs as they finish: in this process, or on the pool."""
    if pool is None:
        for p in todo:
            yield p, task(p)
        return
    futures = {pool.submit(task, p): p for p in todo}
    try:
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        for future in futures:
            future.cancel()


def count_with_checkpoint(
    problem: ExactCoverProblem,
    checkpoint: str | os.PathLike,
    jobs: int = 1,
    executor: Executor | None = None,
    progress: Progress | None = None,
    memo: bool | int = True,
) -> int:
    """The exact count, resuming from and recording to `checkpoint`."""
    path = Path(checkpoint)
    digest = problem_digest(problem)
    done = _finished(path, digest)
    paths = split(problem, CHECKPOINT_PARTS)
    todo = [p for p in paths if p not in done]
    total = sum(done[p] for p in paths if p in done)
    own = executor is None and jobs > 1
    pool = ProcessPoolExecutor(max_workers=jobs) if own else executor
    task = partial(count_path, problem.kernel_arrays, memo=memo, problem_id=digest)
    try:
        torn = path.exists() and path.stat().st_size and path.read_bytes()[-1:] != b"\n"
        with path.open("a", encoding="utf-8") as out:
            if torn:
                out.write("\n")  # end a line torn by an interruption before adding to the file
            results = _run(pool, task, todo)
            for finished, (p, (count, _nodes)) in enumerate(results, start=1):
                out.write(json.dumps({"problem": digest, "path": list(p), "count": count}) + "\n")
                out.flush()
                os.fsync(out.fileno())
                total += count
                if progress is not None:
                    progress(0, (len(paths) - len(todo) + finished) / len(paths))
        return total
    except BaseException:
        if own:
            _stop_workers(pool)
        raise
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
