"""Reading the user's input files: regular files (or standard input) of bounded size, as UTF-8 text.

A device (/dev/zero), a FIFO or a directory named as an input would block or never end, and a file of many
gigabytes would fill memory before any check ran: both are refused in one line before anything is read.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from typing import BinaryIO

from dlx_latin.errors import InputFileError

MAX_INPUT_BYTES = 256 << 20  # the largest input file read (a 300,000-item DLX file is about 10 MiB)
MAX_LINE_BYTES = 1 << 20  # the longest line of a collection (sudoku:16x16's grid string is 65,536 bytes)


def open_regular(path: str | os.PathLike, flags: int = os.O_RDONLY, verb: str = "read") -> int:
    """A descriptor of the regular file `path` opened with `flags`, else one-line InputFileError "cannot
    `verb` PATH: ..." (opened non-blocking and checked before any read or write, so a device such as
    /dev/zero or /dev/full, a FIFO or a directory is refused without blocking or an endless line)."""
    try:
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise InputFileError(f"cannot {verb} {path}: {e.strerror}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputFileError(f"cannot {verb} {path}: not a regular file")
    return fd


def read_text(path: str | os.PathLike, what: str = "file", limit: int = MAX_INPUT_BYTES) -> str:
    """The text of the regular file `path` ('-': standard input) of at most `limit` bytes, else one-line
    InputFileError (a `what` is what the file was meant to be, named when it is too large)."""
    if str(path) == "-":
        if sys.stdin is None:
            raise InputFileError("standard input is closed")
        stdin = getattr(sys.stdin, "buffer", None)
        data = stdin.read(limit + 1) if stdin is not None else sys.stdin.read(limit + 1).encode()
        return _decoded(data, "standard input", what, limit)
    with os.fdopen(open_regular(path), "rb") as f:
        try:
            data = f.read(limit + 1)
        except OSError as e:
            raise InputFileError(f"cannot read {path}: {e.strerror}") from None
    return _decoded(data, str(path), what, limit)


def _decoded(data: bytes, name: str, what: str, limit: int) -> str:
    if len(data) > limit:
        raise InputFileError(f"{name} is larger than {limit >> 20} MiB, the limit for a {what}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputFileError(f"cannot read {name}: not UTF-8 text") from None


def read_json(path: str | os.PathLike, what: str, error: type[Exception]) -> object:
    """The JSON value in a file (read as `read_text` does); malformed or too deeply nested JSON raises
    `error` naming the file."""
    import json

    text = read_text(path, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise error(f"{path} is not JSON: {err.msg} at line {err.lineno}") from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        raise error(
            f"{path} holds a number too long to read (over {sys.get_int_max_str_digits()} digits)"
        ) from None
    except RecursionError:
        raise error(f"{path} is nested too deeply") from None


def text_lines(
    path: str | os.PathLike, what: str = "file", undecodable: bool = False
) -> Iterator[str | None]:
    """The lines of the regular file `path` ('-': standard input) as UTF-8 text, read as they are used, so
    a collection of any length takes the same memory; a line that is not UTF-8 is one InputFileError, or
    None in its place when `undecodable` (a collection answers it as a bad line and goes on)."""
    if str(path) == "-":
        if sys.stdin is None:
            raise InputFileError("standard input is closed")
        stream, name = getattr(sys.stdin, "buffer", sys.stdin), "standard input"
        yield from _decoded_lines(stream, name, undecodable)
        return
    with os.fdopen(open_regular(path), "rb") as f:
        yield from _decoded_lines(f, str(path), undecodable)


def byte_blocks(path: str | os.PathLike, size: int) -> Iterator[bytes]:
    """The bytes of the regular file `path` ('-': standard input) in blocks of whole lines of about `size`
    bytes (each ends at a newline, the last one perhaps not), read as they are used: a collection of any
    length takes the same memory."""
    if str(path) == "-":
        if sys.stdin is None:
            raise InputFileError("standard input is closed")
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream (tests): its lines as bytes
            yield from (line.encode("utf-8", "surrogateescape") for line in sys.stdin)
            return
        yield from _blocks(stream, size, "standard input")
        return
    with os.fdopen(open_regular(path), "rb") as f:
        yield from _blocks(f, size, str(path))


def _blocks(stream: BinaryIO, size: int, name: str) -> Iterator[bytes]:
    rest: list[bytes] = []  # the start of a line not ended yet, in pieces (joined once: linear time)
    held, lines, read = 0, 0, getattr(stream, "read1", stream.read)  # read1: what a pipe has, not a block
    while data := read(size):
        end = data.rfind(b"\n") + 1
        if end == 0:
            rest.append(data)
            held += len(data)
            if held > MAX_LINE_BYTES:
                raise _too_long(name, lines + 1)
            continue
        block = b"".join(rest) + data[:end]
        lines += block.count(b"\n")
        yield block
        rest, held = [data[end:]], len(data) - end
    if held:
        yield b"".join(rest)


def _too_long(name: str, line: int) -> InputFileError:
    return InputFileError(
        f"cannot read {name}: line {line} is longer than {MAX_LINE_BYTES >> 20} MiB, the limit for a line"
    )


def _bounded_lines(stream) -> Iterator[bytes | str]:
    """The lines of a stream, each read up to MAX_LINE_BYTES + 1 (so an endless line stops there)."""
    while line := stream.readline(MAX_LINE_BYTES + 1):
        yield line


def _decoded_lines(stream, name: str, undecodable: bool) -> Iterator[str | None]:
    for number, line in enumerate(_bounded_lines(stream), start=1):
        if len(line) > MAX_LINE_BYTES:
            raise _too_long(name, number)
        if isinstance(line, str):
            yield line
            continue
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError:
            if not undecodable:
                raise InputFileError(f"cannot read {name}: line {number} is not UTF-8 text") from None
            yield None
