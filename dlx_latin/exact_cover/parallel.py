"""Split a problem into independent subproblems and count them in parallel.

A subproblem is a path: the index of the branch taken at each level of the (deterministic) search tree.
The kernel replays a path and searches only below it, so a path is all a worker needs besides the
problem's arrays.  Forced moves cost nothing: a node with one branch is followed, not counted as a split.

`jobs` alone runs the subproblems in threads of this process (the kernel releases the GIL), all counting
with one shared memo, so that a state finished by one thread is not searched again by another.  An
executor (a Dask client's, say) runs them wherever it runs tasks; the subproblems that land in one
process share that process's memo.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Executor, ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from functools import partial

from dlx_latin.exact_cover.problem import ExactCoverProblem, KernelArrays, Progress, kernel_search

PARTS_PER_WORKER = 4


def split(problem: ExactCoverProblem, parts: int) -> list[tuple[int, ...]]:
    """Paths naming subproblems that partition the search tree: their counts sum to the whole count.

    Nodes are expanded breadth-first until there are at least `parts` of them (or nothing is left to
    expand); dead ends are dropped and solutions found on the way are kept as paths of their own.

    >>> from dlx_latin.exact_cover import ExactCoverProblem
    >>> p = ExactCoverProblem(["a", "b"], [["a"], ["b"], ["a", "b"]])
    >>> paths = split(p, 2)
    >>> paths, sum(p.search(path=q).count() for q in paths)
    ([(0,), (1,)], 2)
    """
    frontier: deque[tuple[int, ...]] = deque([()])
    leaves: list[tuple[int, ...]] = []
    while frontier and len(frontier) + len(leaves) < parts:
        path = frontier.popleft()
        degree = problem.search(path=path).degree()
        if degree < 0:
            leaves.append(path)
        else:
            frontier.extend(path + (k,) for k in range(degree))
    return leaves + list(frontier)


_memo_owner: dict[str, object] = {}  # per process: the search whose memo the subproblems of a problem share
_memo_lock = threading.Lock()
_stop = threading.Event()  # set to stop the subproblems running in our own threads (Ctrl-C, an error)


def _shared_memo_owner(arrays: KernelArrays, memo: bool | int, problem_id: str) -> object:
    """The search holding this process's memo of one problem (only the latest problem's memo is kept)."""
    with _memo_lock:
        owner = _memo_owner.get(problem_id)
        if owner is None:
            _memo_owner.clear()
            owner = _memo_owner[problem_id] = kernel_search(arrays, memo=memo)
        return owner


def _check_stop(_nodes: int, _fraction: float) -> None:
    if _stop.is_set():
        raise CancelledError("the parallel count was stopped")


def count_path(
    arrays: KernelArrays, path: tuple[int, ...], memo: bool | int = True, problem_id: str = ""
) -> tuple[int, int]:
    """(count, nodes) of one subproblem: the task a worker runs.  Subproblems of the same problem
    (`problem_id`) share one count memo per process: memo keys are whole states."""
    search = kernel_search(arrays, path=path, memo=memo)
    if problem_id and memo:
        search.share_memo(_shared_memo_owner(arrays, memo, problem_id))
    count = search.count(_check_stop)
    return count, search.nodes


@contextmanager
def worker_pool(jobs: int, executor: Executor | None = None) -> Iterator[Executor | None]:
    """The executor to run subproblems on: `executor` if given, else a pool of `jobs` threads (None for one
    job: run here).  On any exception, Ctrl-C included, the subproblems running in our own pool stop.  The
    memo that subproblems run here shared is dropped at the end (it may hold 64 MiB)."""
    if executor is not None:
        yield executor
        return
    if jobs <= 1:
        try:
            yield None
        finally:
            _forget_memos()
        return
    _stop.clear()
    pool = ThreadPoolExecutor(max_workers=jobs)
    try:
        yield pool
    except BaseException:
        _stop.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        _forget_memos()


def _forget_memos() -> None:
    with _memo_lock:
        _memo_owner.clear()


def run_tasks(pool: Executor | None, task: Callable, paths: list[tuple[int, ...]]) -> Iterator[tuple]:
    """(path, task(path)) pairs as they finish, here or on the pool; pending tasks are cancelled on exit."""
    if pool is None:
        for path in paths:
            yield path, task(path)
        return
    futures = {pool.submit(task, path): path for path in paths}
    try:
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        for future in futures:
            future.cancel()


def count_in_parallel(
    problem: ExactCoverProblem,
    jobs: int | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
    memo: bool | int = True,
) -> int:
    """The exact count, from subproblems run on `executor` (default: a pool of `jobs` threads).

    On Ctrl-C the pending subproblems are cancelled and, in our own pool, the running ones stop.
    """
    workers = jobs or os.cpu_count() or 1
    paths = split(problem, PARTS_PER_WORKER * workers)
    task = partial(count_path, problem.kernel_arrays, memo=memo, problem_id=uuid.uuid4().hex)
    total = nodes = 0
    with worker_pool(workers, executor) as pool:
        for done, (_path, (count, spent)) in enumerate(run_tasks(pool, task, paths), start=1):
            total += count
            nodes += spent
            if progress is not None:
                progress(nodes, done / len(paths))
    return total
