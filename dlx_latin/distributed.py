"""Running subproblems on a Dask cluster: the executor behind `--scheduler tcp://HOST:PORT`."""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager

from dlx_latin.errors import UserInputError


class SchedulerError(UserInputError):
    """The Dask scheduler cannot be used: not installed, unreachable, or without workers."""


MAX_HANDSHAKE = 1 << 20  # a Dask handshake is a few hundred bytes; a larger first message is something else


def scheduler_endpoint(address: str) -> tuple[str, int]:
    """(host, port) of a `tcp://HOST:PORT` (or `HOST:PORT`) scheduler address; other schemes are refused."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme != "tcp":
        raise SchedulerError(
            f"--scheduler takes tcp://HOST:PORT, not {scheme}:// (TLS and other comms are not supported)"
        )
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdecimal() or not 0 < int(port) < 65536:
        raise SchedulerError(f"--scheduler takes tcp://HOST:PORT, not {address!r}")
    try:
        host.encode("idna")  # what the resolver will ask of it: labels of at most 63 characters, and so on
    except UnicodeError as e:
        shown = host if len(host) <= 60 else host[:60] + "..."
        raise SchedulerError(f"--scheduler host {shown!r} is not a host name ({e.__cause__ or e})") from None
    return host, int(port)


def check_scheduler(address: str, timeout: float = 5.0) -> None:
    """Refuse, within `timeout` seconds in all, an address where no Dask scheduler answers: a Dask server
    sends its handshake as soon as a connection opens (a length-prefixed message), so a silent service, one
    that closes the connection or one that answers with anything else (an HTTP server, say) is told apart
    without handing Dask bytes that are not its own."""
    host, port = scheduler_endpoint(address)
    deadline = time.monotonic() + timeout
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            (size,) = struct.unpack("<Q", _receive(sock, 8, deadline))
            if not 0 < size <= MAX_HANDSHAKE:
                raise SchedulerError(f"{address} is not a Dask scheduler: it answered with something else")
            _receive(sock, size, deadline)
    except TimeoutError:
        raise SchedulerError(
            f"{address} is not a Dask scheduler: no handshake within {timeout:g} s"
        ) from None
    except OSError as e:
        raise SchedulerError(f"cannot reach the Dask scheduler at {address}: {e.strerror or e}") from None


def _receive(sock: socket.socket, n: int, deadline: float) -> bytes:
    """Exactly `n` bytes from `sock` before `deadline` (TimeoutError after it)."""
    data = bytearray()
    while len(data) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        sock.settimeout(left)
        chunk = sock.recv(min(n - len(data), 1 << 16))
        if not chunk:
            raise SchedulerError(f"{sock.getpeername()[0]} closed the connection: not a Dask scheduler")
        data += chunk
    return bytes(data)


@contextmanager
def dask_executor(address: str, timeout: float = 5.0) -> Iterator[tuple[Executor, int]]:
    """(executor, worker threads) for the Dask scheduler at `address`; fails within `timeout` seconds."""
    try:
        from distributed import Client
    except ImportError:
        raise SchedulerError("--scheduler needs Dask; in the checkout: pip install -e '.[dask]'") from None
    check_scheduler(address, timeout)
    try:
        client = Client(address, timeout=timeout)
    except Exception as e:  # noqa: BLE001 -- whatever Dask raises, the user gets one line
        raise SchedulerError(f"cannot use the Dask scheduler at {address}: {e}") from None
    try:
        workers = sum(client.nthreads().values())
        if workers == 0:
            raise SchedulerError(f"the Dask scheduler at {address} has no workers")
        yield client.get_executor(), workers
    finally:
        client.close()
