"""Running subproblems on a Dask cluster: the executor behind `--scheduler tcp://HOST:PORT`."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager

from dlx_latin.errors import UserInputError


class SchedulerError(UserInputError):
    """The Dask scheduler cannot be used: not installed, unreachable, or without workers."""


@contextmanager
def dask_executor(address: str, timeout: float = 5.0) -> Iterator[tuple[Executor, int]]:
    """(executor, worker threads) for the Dask scheduler at `address`; fails within `timeout` seconds."""
    try:
        from distributed import Client
    except ImportError:
        raise SchedulerError("--scheduler needs Dask: pip install 'dlx-latin[dask]'") from None
    try:
        client = Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as e:
        raise SchedulerError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    try:
        workers = sum(client.nthreads().values())
        if workers == 0:
            raise SchedulerError(f"the Dask scheduler at {address} has no workers")
        yield client.get_executor(), workers
    finally:
        client.close()
