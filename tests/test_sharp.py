"""Knuth's sharp preference: MRV branches on an item that is not sharp only when it is forced or no sharp
item is left; the search's order changes, never a count (both layouts, Algorithm M, paths, the CLI)."""

import json

import pytest
from cli import run_cli

from dlx_latin.errors import UserInputError
from dlx_latin.exact_cover import ExactCoverProblem
from dlx_latin.exact_cover.classic import langford, pentominoes, queens
from dlx_latin.exact_cover.kernel import kernel_search
from dlx_latin.exact_cover.parallel import split
from dlx_latin.formats.dlx import read_dlx, write_dlx

# #a has 3 options, b 2 and c 3: MRV branches on b, the sharp preference on #a.
SMALL = "#a b c\n#a b\n#a c\n#a\nb c\nc\n"


def test_the_root_branches_on_the_sharp_item():
    plain, sharp = read_dlx(SMALL).problem, read_dlx(SMALL, sharp=True).problem
    assert sharp.sharp == {"#a"} and not plain.sharp
    assert plain.search().degree() == 2 and sharp.search().degree() == 3
    assert plain.count() == sharp.count() == 2  # {#a b, c} and {#a, b c}
    assert sorted(plain.solutions()) == sorted(sharp.solutions())


def test_a_forced_item_still_goes_first():
    """b has one option: it is branched on though #a is sharp."""
    p = read_dlx("#a b c\n#a c\n#a\nb\nc\n", sharp=True).problem
    assert p.search().degree() == 1 and p.count() == 2


@pytest.mark.parametrize(
    "build",
    [lambda: pentominoes(3, 20), lambda: queens(9), lambda: langford(8)],
    ids=["tiling", "queens", "langford"],
)
def test_counts_and_paths_do_not_change(build):
    """Half the primary items sharp: the tree changes (bitsets for the tiling and queens, links for
    Langford pairs), the count, the paths' counts and the listed solutions do not."""
    p = build()
    sharp = ExactCoverProblem(p.primary, p.options, p.secondary, None, p.primary[::2])
    expected = p.count()
    plain_nodes, search = p.search(), sharp.search()
    assert search.count() == expected and plain_nodes.count() == expected
    assert search.nodes != plain_nodes.nodes
    assert sharp.count(jobs=2) == expected
    assert sum(sharp.search(path=q).count() for q in split(sharp.kernel_arrays, 8)) == expected
    assert sorted(map(sorted, sharp.solutions())) == sorted(map(sorted, p.solutions()))
    assert sharp.kernel_arrays.digest() != p.kernel_arrays.digest()  # checkpoints keep them apart


def test_bounds_take_the_preference_too():
    """Algorithm M: #a may take 1 or 2 options."""
    text = "1:2|#a b\n#a\n#a\n#a b\nb\n"
    plain, sharp = read_dlx(text).problem, read_dlx(text, sharp=True).problem
    assert plain.search().degree() == 2 and sharp.search().degree() == 3  # b first, then #a first
    assert plain.count() == sharp.count() == 6  # b by option 3 or 2, #a by one or two more options
    assert kernel_search(sharp.kernel_arrays, memo=64, memo_start=0).count() == 6


def test_only_primary_items_are_sharp():
    with pytest.raises(UserInputError, match="sharp item 'x' is not a primary item"):
        ExactCoverProblem(["a"], [["a", "x"]], ["x"], sharp=["x"])


def test_write_keeps_the_names():
    p = read_dlx(SMALL, sharp=True).problem
    assert read_dlx(write_dlx(p), sharp=True).problem.sharp == {"#a"}


def test_cli_sharp(tmp_path):
    path = tmp_path / "small.dlx"
    path.write_text(SMALL)
    assert json.loads(run_cli("xc", "count", str(path), "--sharp", "--json").stdout) == {"count": 2}
    assert json.loads(run_cli("xc", "count", str(path), "--sharp", "--no-memo", "--json").stdout) == {
        "count": 2
    }
    listed = json.loads(run_cli("xc", "solve", str(path), "--sharp", "--json").stdout)["solutions"]
    assert sorted(listed) == [["#a", "b c"], ["#a b", "c"]]
