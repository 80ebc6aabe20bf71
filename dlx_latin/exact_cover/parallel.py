"""Split a problem into independent subproblems and count them in parallel.

A subproblem is a path: the index of the branch taken at each level of the (deterministic) search tree.
The kernel replays a path and searches only below it, so a path is all a worker needs besides the
problem's arrays.  Forced moves cost nothing: a node with one branch is followed, not counted as a split.

`jobs` alone runs the subproblems in threads of this process (the kernel releases the GIL), all counting
with one shared memo, so that a state finished by one thread is not searched again by another.  An
executor (a Dask client's, say) runs them wherever it runs tasks; the subproblems of one count that land
in one process share that process's memo.  Each count is a `ParallelRun` of its own: two counts in one
process never share a memo or a stop.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections import OrderedDict, deque
from collections.abc import Iterator
from concurrent.futures import CancelledError, ThreadPoolExecutor
from functools import partial

from dlx_latin.exact_cover.kernel import KernelArrays, Progress, Search, kernel_search
from dlx_latin.exact_cover.settings import CountSettings
from dlx_latin.workers import as_finished

PARTS_PER_WORKER = 4
Path = tuple[int, ...]


def split(arrays: KernelArrays, parts: int) -> list[Path]:
    """Paths naming subproblems that partition the search tree: their counts sum to the whole count.

    Nodes are expanded breadth-first until there are at least `parts` of them (or nothing is left to
    expand); dead ends are dropped and solutions found on the way are kept as paths of their own.

    >>> from dlx_latin.exact_cover import ExactCoverProblem
    >>> p = ExactCoverProblem(["a", "b"], [["a"], ["b"], ["a", "b"]])
    >>> paths = split(p.kernel_arrays, 2)
    >>> paths, sum(p.search(path=q).count() for q in paths)
    ([(0,), (1,)], 2)
    """
    frontier: deque[Path] = deque([()])
    leaves: list[Path] = []
    while frontier and len(frontier) + len(leaves) < parts:
        path = frontier.popleft()
        degree = kernel_search(arrays, path=path).degree()
        if degree < 0:
            leaves.append(path)
        else:
            frontier.extend(path + (k,) for k in range(degree))
    return leaves + list(frontier)


def shares(arrays: KernelArrays, paths: list[Path]) -> dict[Path, float]:
    """Each path's share of the search tree, as Knuth's estimate weighs it (and as a plain count's progress
    does): the product of 1/degree over the branching nodes above it.

    >>> from dlx_latin.exact_cover import ExactCoverProblem
    >>> p = ExactCoverProblem(["a", "b", "c"], [["a"], ["b"], ["a", "b"], ["c"], ["b", "c"]])
    >>> shares(p.kernel_arrays, split(p.kernel_arrays, 3))
    {(1,): 0.5, (0, 0): 0.25, (0, 1): 0.25}
    """
    degree: dict[Path, int] = {}
    out: dict[Path, float] = {}
    for path in paths:
        share = 1.0
        for i in range(len(path)):
            prefix = path[:i]
            if prefix not in degree:
                degree[prefix] = kernel_search(arrays, path=prefix).degree()
            share /= max(degree[prefix], 1)
        out[path] = share
    return out


# Per worker process, for subproblems sent by an executor: the searches owning the memos that the
# subproblems of recent counts share, by count id (a few kept, so concurrent counts do not evict each other).
_process_memos: OrderedDict[str, Search] = OrderedDict()
_process_lock = threading.Lock()
PROCESS_MEMOS = 2


def _process_memo(arrays: KernelArrays, memo: bool | int, run_id: str) -> Search:
    with _process_lock:
        owner = _process_memos.get(run_id)
        if owner is None:
            owner = _process_memos[run_id] = kernel_search(arrays, memo=memo)
            while len(_process_memos) > PROCESS_MEMOS:
                _process_memos.popitem(last=False)
        return owner


def count_path(
    arrays: KernelArrays, path: Path, memo: bool | int = True, run_id: str = ""
) -> tuple[int, int]:
    """(count, nodes) of one subproblem: the task an executor's worker runs.  Subproblems of the same count
    (`run_id`) share one count memo per process: memo keys are whole states."""
    search = kernel_search(arrays, path=path, memo=memo)
    if run_id and memo:
        search.share_memo(_process_memo(arrays, memo, run_id))
    return search.count(), search.nodes


class ParallelRun:
    """One count's subproblems, run here, in a pool of threads of its own, or on an executor.

    Threads of the run share one memo (made by the first subproblem that needs it) and are stopped together
    (`Search.stop`) on any exception, Ctrl-C included; the memo is dropped when the run ends.

    `settings.progress` hears of the whole run: each subproblem weighs its share of the tree (`shares`), and
    those running here report their own progress as they go, so a run of a few long subproblems does not
    sit at 0% until the first one ends, and the fraction is Knuth's estimate, as in a plain count.  The
    nodes are those visited in this run.
    """

    def __init__(self, arrays: KernelArrays, settings: CountSettings, run_id: str | None = None) -> None:
        self.arrays = arrays
        self.memo = settings.memo
        self.executor = settings.executor
        self.jobs = settings.jobs or (1 if settings.executor is None else os.cpu_count() or 1)
        self.run_id = run_id or uuid.uuid4().hex
        self._lock = threading.Lock()
        self._owner: Search | None = None
        self._running: set[Search] = set()
        self._stopped = False
        self.progress = settings.progress
        self._shown = threading.Lock()  # one report at a time, so the fractions reported never go back
        self._share: dict[Path, float] = {}  # of the tree, normalized over the paths of the whole count
        self._done = 0.0  # the share of the subproblems finished
        self._nodes = 0  # visited by the subproblems finished in this run
        self._live: dict[Path, tuple[int, float]] = {}  # (nodes, fraction) of those running here
        self._left = 0  # subproblems not finished
        self._fraction = 0.0  # the last reported

    def _report(self) -> None:
        """Tell `progress` the nodes visited and the fraction done so far (with `_shown` held)."""
        if self.progress is not None:
            live = list(self._live.items())
            nodes = self._nodes + sum(n for _, (n, _) in live)
            done = self._done + sum(self._share[p] * f for p, (_, f) in live)
            self._fraction = 1.0 if not self._left else max(self._fraction, min(1.0, done))  # never back
            self.progress(nodes, self._fraction)

    def _watch(self, path: Path) -> Progress:
        """The progress callback of the subproblem at `path`, running here."""

        def heard(nodes: int, fraction: float) -> None:
            with self._shown:
                self._live[path] = (nodes, fraction)
                self._report()

        return heard

    def _ended(self, path: Path, nodes: int) -> None:
        """Account for the finished subproblem at `path` and report."""
        with self._shown:
            self._live.pop(path, None)
            self._done += self._share.get(path, 0.0)
            self._left -= 1
            self._nodes += nodes
            self._report()

    def _count_here(self, path: Path) -> tuple[int, int]:
        """(count, nodes) of a subproblem in this process, with the run's memo; stoppable by `stop`."""
        search = kernel_search(self.arrays, path=path, memo=self.memo)
        with self._lock:
            if self._stopped:
                raise CancelledError("the parallel count was stopped")
            if self.memo:
                if self._owner is None:
                    self._owner = kernel_search(self.arrays, memo=self.memo)
                search.share_memo(self._owner)
            self._running.add(search)
        try:
            count = search.count(self._watch(path) if self.progress is not None else None)
        finally:
            with self._lock:
                self._running.discard(search)
        if not search.done:
            raise CancelledError("the parallel count was stopped")
        return count, search.nodes

    def stop(self) -> None:
        """Make the subproblems running in this process return, and those not started refuse to."""
        with self._lock:
            self._stopped = True
            for search in self._running:
                search.stop()

    def results(
        self, paths: list[Path], among: list[Path] | None = None
    ) -> Iterator[tuple[Path, tuple[int, int]]]:
        """(path, (count, nodes)) as subproblems finish, each reported to `progress` first; the paths are
        those left of `among`, all the count's paths (the others done before).  On exit (an exception,
        Ctrl-C) the pending ones are cancelled and the running ones stopped.  The memo is dropped at the end
        (it may hold 64 MiB)."""
        if self.progress is not None:
            every = among if among is not None else paths
            share = shares(self.arrays, every)
            whole = sum(share.values()) or 1.0
            self._share = {p: w / whole for p, w in share.items()}
            self._done = 1.0 - sum(self._share[p] for p in paths)
        self._left = len(paths)
        for path, (count, nodes) in self._finishing(paths):
            self._ended(path, nodes)
            yield path, (count, nodes)

    def _finishing(self, paths: list[Path]) -> Iterator[tuple[Path, tuple[int, int]]]:
        try:
            if self.executor is not None:
                task = partial(count_path, self.arrays, memo=self.memo, run_id=self.run_id)
                yield from as_finished(self.executor, task, paths)
            elif self.jobs <= 1:
                for path in paths:
                    yield path, self._count_here(path)
            else:
                with ThreadPoolExecutor(max_workers=self.jobs) as pool:
                    try:
                        yield from as_finished(pool, self._count_here, paths)
                    finally:
                        self.stop()
                        pool.shutdown(wait=True, cancel_futures=True)
        finally:
            self._owner = None


def count_in_parallel(arrays: KernelArrays, settings: CountSettings) -> int:
    """The exact count, from subproblems run on `settings.executor` (default: a pool of `jobs` threads).

    On Ctrl-C the pending subproblems are cancelled and, in our own pool, the running ones stop.
    """
    run = ParallelRun(arrays, settings)
    paths = split(arrays, PARTS_PER_WORKER * run.jobs)
    return sum(count for _path, (count, _nodes) in run.results(paths))
