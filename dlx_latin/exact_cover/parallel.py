"""Split a problem into independent subproblems and count them in parallel.

A subproblem is a path: the index of the branch taken at each level of the (deterministic) search tree.
The kernel replays a path and searches only below it, so a path is all a worker needs besides the
problem's arrays.  Forced moves cost nothing: a node with one branch is followed, not counted as a split.
"""

from __future__ import annotations

import os
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from functools import partial

from dlx_latin.exact_cover.problem import ExactCoverProblem, KernelArrays, Progress, kernel_search

PARTS_PER_WORKER = 8


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


_previous: dict[str, object] = {}  # per worker process: the last search of each problem, for its memo


def count_path(
    arrays: KernelArrays, path: tuple[int, ...], memo: bool | int = True, problem_id: str = ""
) -> tuple[int, int]:
    """(count, nodes) of one subproblem: the task a worker runs.  A worker hands the count memo of its
    previous subproblem of the same problem (`problem_id`) to the next one: memo keys are whole states."""
    search = kernel_search(arrays, path=path, memo=memo)
    donor = _previous.pop(problem_id, None) if problem_id else None  # pop: safe with Dask's worker threads
    if donor is not None:
        search.take_memo(donor)
    count = search.count()
    if problem_id and memo:
        _previous.clear()  # keep one problem's memo per worker, not every problem's
        _previous[problem_id] = search
    return count, search.nodes


@contextmanager
def worker_pool(jobs: int, executor: Executor | None = None) -> Iterator[Executor | None]:
    """The executor to run subproblems on: `executor` if given, else a pool of `jobs` processes (None for one
    job: run here).  On any exception, Ctrl-C included, our own pool's workers are stopped."""
    if executor is not None or jobs <= 1:
        yield executor
        return
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        yield pool
    except BaseException:
        _stop_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


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
    """The exact count, from subproblems run on `executor` (default: a pool of `jobs` processes).

    On Ctrl-C the pending subproblems are cancelled and, for our own pool, the workers are stopped.
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


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate a pool's worker processes (they may be deep in a search) so that nothing is left running."""
    for process in list(getattr(pool, "_processes", {}).values()):
        if process.is_alive():
            process.terminate()
