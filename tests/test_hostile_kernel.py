"""The C extensions cannot be crashed from Python: every hostile call raises, never corrupts memory or hangs.

Each case runs in a child process, so a crash fails that case by name instead of taking pytest down.
"""

import subprocess
import sys
import textwrap

import pytest
from cli import EXAMPLES, run_cli

PRELUDE = """
from array import array
from dlx_latin.exact_cover import ExactCoverProblem
Search = type(ExactCoverProblem(["a"], [["a"]]).search())
A = lambda v: array("i", v)
def raises(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
    else:
        print("no error")
"""

CASES = {
    "search built without __init__": (
        "s = Search.__new__(Search)\n"
        "raises(s.count); raises(lambda: s.next_batch(2)); raises(s.degree); raises(s.sanity)",
        ["RuntimeError this Search was not initialized"] * 4,
    ),
    "decreasing starts": (
        "raises(lambda: Search(1, 0, A([0, 2, 1, 2]), A([1, 1]), A([0, 0]), A([1]), A([1]), 0, 0, A([]), 0))",
        ["ValueError option starts must not decrease"],
    ),
    "starts past the entries": (
        "raises(lambda: Search(1, 0, A([0, 5, 2]), A([1, 1]), A([0, 0]), A([1]), A([1]), 0, 0, A([]), 0))",
        ["ValueError option starts must not decrease"],
    ),
    "no starts at all": (
        "raises(lambda: Search(1, 0, A([]), A([]), A([]), A([1]), A([1]), 0, 0, A([]), 0))",
        ["ValueError inconsistent option arrays"],
    ),
    "an item twice in an option": (
        "raises(lambda: Search(1, 0, A([0, 2]), A([1, 1]), A([0, 0]), A([1]), A([1]), 0, 0, A([]), 0))",
        ["ValueError an option holds an item twice"],
    ),
    "initialized twice": (
        "s = Search(1, 0, A([0, 1]), A([1]), A([0]), A([1]), A([1]), 0, 0, A([]), 0)\n"
        "raises(lambda: s.__init__(1, 0, A([0, 1]), A([1]), A([0]), A([1]), A([1]), 0, 0, A([]), 0))\n"
        "print(s.count())",
        ["RuntimeError a Search is initialized once; make a new one", "1"],
    ),
    "memo of 2**63 slots": (
        "raises(lambda: Search(1, 0, A([0, 1]), A([1]), A([0]), A([1]), A([1]), 0, 0, A([]), 2**63))\n"
        "raises(lambda: ExactCoverProblem(['a'], [['a']]).count(memo=2**63))",
        [
            "ValueError memo_slots may be at most 4294967296",
            "UserInputError the memo size must be between 0 and 4294967296 entries, not 9223372036854775808",
        ],
    ),
    "bounds near 2**31 (the depth bound)": (
        "big = (0, 2**31 - 1)\n"
        "p = ExactCoverProblem(['a', 'b'], [['a']] * 2000, bounds={'a': big, 'b': big})\n"
        "print(len(p.first_solution())); print(p.count(limit=5)); print(p.search().sanity())",
        ["2000", "5", "None"],
    ),
    "one search counted from two threads": (
        "import threading\n"
        "from dlx_latin.exact_cover.classic import latin_square\n"
        "s = latin_square(7, fix='reduced').search(memo=True)\n"
        "out = []\n"
        "def go():\n"
        "    try:\n"
        "        out.append(s.count())\n"
        "    except RuntimeError as e:\n"
        "        out.append(str(e))\n"
        "ts = [threading.Thread(target=go) for _ in range(2)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "print(sorted(map(str, out)))",
        ["['16942080', 'this Search is already running (a Search is not shared between threads)']"],
    ),
    "a zero tile for the frontier counter": (
        "from importlib import import_module\n"
        "frontier = import_module('dlx_latin.jigsaw._frontier')\n"
        "raises(lambda: frontier.count(2, 2, 0, [[0], [], [], []]))\n"
        "raises(lambda: frontier.count(2, 2, 0, [[2], [], [], []]))\n"
        "raises(lambda: frontier.count(2, 2, 99, [[1], [2], [4], [8]]))\n"
        "print(frontier.count(2, 1, 0, [[1, 3, 5], [2, 10], [4, 12], [8]])[0])",
        [
            "ValueError tile 0 under cell 0 is empty, outside the grid or does not start at that cell",
            "ValueError tile 0 under cell 0 is empty, outside the grid or does not start at that cell",
            "ValueError the covered cells lie outside the grid",
            "7",
        ],
    ),
    "frontier counts past 2**64 are exact": (
        # 64 cells in a row, each tile a single cell listed 3 times: 3**64 covers, more than 2**64
        "from importlib import import_module\n"
        "frontier = import_module('dlx_latin.jigsaw._frontier')\n"
        "print(frontier.count(64, 1, 0, [[1 << c] * 3 for c in range(64)])[0] == 3**64)",
        ["True"],
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_kernel_calls_raise(name):
    code, expected = CASES[name]
    out = subprocess.run(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines() == expected


def test_huge_bounds_in_a_dlx_file(tmp_path):
    """Bounds near 2**31 once overflowed the kernel's depth bound and corrupted the heap."""
    small = tmp_path / "ovf.dlx"
    small.write_text("0:2147483647|a 0:2147483646|b c\n" + "a\n" * 5 + "c\n")
    out = run_cli("xc", "count", str(small), "--json")
    assert (out.returncode, out.stdout.strip(), out.stderr) == (0, '{"count": 32}', "")  # 2**5 subsets
    big = tmp_path / "ovf2.dlx"
    big.write_text("0:2147483647|a 0:2147483646|b c\n" + "a\n" * 2000 + "c\n")
    out = run_cli("xc", "solve", str(big), "--limit", "1", "--json")
    assert out.returncode == 0 and out.stdout.count("\n") == 1 and not out.stderr


def test_memo_size_past_the_limit_is_refused():
    out = run_cli("xc", "count", str(EXAMPLES / "queens8.dlx"), "--memo-size", "9223372036854775808")
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert "--memo-size" in out.stderr and "Traceback" not in out.stderr
