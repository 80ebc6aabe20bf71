"""Worker processes that stop with their parent: the one place process pools are made, and where one call
is run apart in a child with a deadline (`run_apart`).

A pool's workers ignore Ctrl-C (the parent hears it, cancels what is queued and stops the workers at once,
so no worker prints a traceback of its own), and on Linux each asks the kernel to kill it when its parent
dies, so a parent killed with SIGKILL leaves no worker behind.
"""

from __future__ import annotations

import collections
import contextlib
import ctypes
import itertools
import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from typing import Any, TypeVar

T = TypeVar("T")
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def _start_worker(initializer: Callable[..., object] | None, initargs: tuple, parent: int) -> None:
    """Run in each worker as it starts: ignore Ctrl-C, die with the parent, then the caller's set-up.  A
    parent that died before the request was made (killed while the worker started) is not waited for."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:
            os._exit(1)
    if initializer is not None:
        initializer(*initargs)


@contextlib.contextmanager
def process_pool(
    jobs: int, initializer: Callable[..., object] | None = None, initargs: tuple = ()
) -> Iterator[ProcessPoolExecutor]:
    """A pool of `jobs` worker processes.  Leaving normally waits for the work; leaving on an exception
    (Ctrl-C included) cancels the queued tasks and kills the running workers at once."""
    pool = new_pool(jobs, initializer, initargs)
    try:
        yield pool
    except BaseException:
        stop(pool)
        raise
    pool.shutdown(wait=True)


def new_pool(
    jobs: int, initializer: Callable[..., object] | None = None, initargs: tuple = ()
) -> ProcessPoolExecutor:
    """A pool of `jobs` worker processes that ignore Ctrl-C and die with this process; the caller shuts it
    down (calling `stop` on an exception)."""
    return ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(initializer, initargs, os.getpid()))


def stop(pool: ProcessPoolExecutor) -> None:
    """Cancel a pool's queued tasks and kill its workers now, not when their current task ends."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public handle before 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.kill()
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.join(timeout=5)


AHEAD = 4  # tasks in flight per worker process in `ordered_map`: memory stays flat however many tasks


def ordered_map(
    function: Callable[..., T], tasks: Iterable[tuple], jobs: int = 1, executor: Executor | None = None
) -> Iterator[T]:
    """`function(*task)` for each task, in the tasks' order, streamed: here when `jobs` is 1 and there is
    no `executor`, else in worker processes (or the executor's), a few tasks ahead of the one yielded; never
    more processes than tasks (a collection of 4 lines with --jobs 16 starts 4, and 1 runs here)."""
    tasks, ahead = iter(tasks), []
    if executor is None and jobs > 1:  # no more workers than there are tasks
        ahead = list(itertools.islice(tasks, AHEAD * jobs))
        jobs = min(jobs, len(ahead))
    if executor is None and jobs <= 1:
        for task in itertools.chain(ahead, tasks):
            yield function(*task)
        return
    tasks = itertools.chain(ahead, tasks)
    with process_pool(jobs) if executor is None else contextlib.nullcontext(executor) as pool:
        pending: collections.deque = collections.deque()
        for task in tasks:
            pending.append(pool.submit(function, *task))
            if len(pending) >= AHEAD * max(jobs, 1):
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def as_finished(
    pool: Executor, task: Callable[[T], object], items: Iterable[T]
) -> Iterator[tuple[T, object]]:
    """(item, task(item)) for each item as the pool (processes, threads or a Dask client's executor)
    finishes it; the tasks still waiting are cancelled on exit."""
    futures = {pool.submit(task, item): item for item in items}
    try:
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        for future in futures:
            future.cancel()


def run_apart(function: Callable[..., T], *args: Any, seconds: float) -> T:
    """function(*args) computed in a forked child and sent back pickled, for C or library code that Ctrl-C
    cannot reach and no step count bounds (nauty, sympy's Schreier-Sims): past `seconds` the child is killed
    and TimeoutError raised; a child that dies (a signal, no memory) is ChildProcessError; an exception the
    call raises is raised here.  Ctrl-C here kills the child too."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, leave without running the parent's clean-up
        code = 1
        try:
            os.close(read)
            try:
                reply = (True, function(*args))
            except Exception as e:  # noqa: BLE001 -- any exception is the caller's, raised there
                reply = (False, e)
            with os.fdopen(write, "wb") as out:
                out.write(pickle.dumps(reply))
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    chunks, deadline = [], time.monotonic() + seconds
    try:
        with os.fdopen(read, "rb") as source:
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([source], [], [], left)[0]:
                    raise TimeoutError(f"no answer in {seconds:g} s")
                chunk = os.read(source.fileno(), 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)  # done already, or past its time: either way reaped here
        os.waitpid(pid, 0)
    try:
        done, value = pickle.loads(b"".join(chunks))
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError):
        raise ChildProcessError("the child process died before it answered") from None
    if not done:
        raise value
    return value
