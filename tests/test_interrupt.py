"""Ctrl-C stops a long search promptly: SIGINT is sent to a child process we started, by its pid."""

import os
import signal
import subprocess
import sys
import time

CHILD = """
import sys
from dlx_latin.exact_cover.classic import latin_square
p = latin_square(7)  # about 6e13 solutions: this count never ends on its own
print("searching", flush=True)
try:
    p.count()
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(7)
"""


def test_sigint_interrupts_a_count_within_a_fraction_of_a_second():
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD],
        stdout=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    try:
        assert child.stdout.readline() == "searching\n"
        time.sleep(0.5)
        sent = time.monotonic()
        os.kill(child.pid, signal.SIGINT)
        assert child.wait(timeout=10) == 7
        assert time.monotonic() - sent < 2.0  # typically a few milliseconds; generous on a busy machine
        assert child.stdout.read() == "interrupted\n"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_sigint_stops_the_serial_command_with_exit_130(tmp_path):
    from dlx_latin.exact_cover.classic import latin_square
    from dlx_latin.formats.dlx import write_dlx

    big = tmp_path / "latin7.dlx"
    big.write_text(write_dlx(latin_square(7)))
    child = subprocess.Popen(
        [sys.executable, "-m", "dlx_latin", "xc", "count", str(big), "--progress"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    try:
        time.sleep(1.5)
        sent = time.monotonic()
        os.kill(child.pid, signal.SIGINT)
        assert child.wait(timeout=10) == 130
        assert time.monotonic() - sent < 2.0
        assert child.stdout.read() == ""
        err = child.stderr.read()
        assert "%" in err and err.endswith("dlx-latin: interrupted\n")  # the bar was drawn, then cleared
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
