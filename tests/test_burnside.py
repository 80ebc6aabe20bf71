"""Burnside counts of classes, checked against listing the classes and against brute force."""

from __future__ import annotations

import random

import pytest
from cli import run_cli

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import PartialBoard, completions
from dlx_latin.latin.completion import label_group_order
from dlx_latin.latin.multiset import Multiset
from symmetry import burnside
from symmetry.burnside import (
    BurnsideUnsupportedError,
    Placements,
    count_by_burnside,
    count_latin_square_classes,
    fixed_count,
    fixed_problem,
    label_classes,
    label_fixed_parts,
    point_classes,
)
from symmetry.canonical import canonical_form, group_elements
from symmetry.counting import canonical_classes, count_up_to_geometry
from symmetry.groups import automorphism_group, geometric_group


def board(spec: str, multiset: str | None = None) -> PartialBoard:
    b = board_from_spec(spec)
    return PartialBoard(b, Multiset.parse(multiset)) if multiset else PartialBoard(b)


@pytest.mark.parametrize("spec", ["sudoku:2x2", "latin:4", "sudoku:2x3", "hexagon:2"])
def test_conjugacy_classes_partition_the_group(spec):
    b = board_from_spec(spec)
    for group in (automorphism_group(b), geometric_group(b)):
        if group.order() > 5000:
            continue
        classes = point_classes(group)
        assert sum(size for _, size in classes) == group.order()
        assert len({rep for rep, _ in classes}) == len(classes)


@pytest.mark.parametrize("multiset", ["1,2,3,4,5,6", "1^2,2^2,3,4", "a^3,b^3"])
def test_label_classes_partition_the_label_group(multiset):
    m = Multiset.parse(multiset)
    assert sum(size for _, size in label_classes(m)) == label_group_order(m)


@pytest.mark.parametrize("split_nodes", [burnside.SPLIT_NODES, 0])
def test_fixed_counts_equal_brute_force(split_nodes, monkeypatch):
    monkeypatch.setattr(burnside, "SPLIT_NODES", split_nodes)  # 0: split by label symmetry every time
    pb = board("sudoku:2x2")
    boards = list(completions(pb))
    elements = group_elements(automorphism_group(pb.board))
    rng = random.Random(7)
    labels = list(pb.multiset.labels)
    checked = 0
    for _ in range(60):
        g = [int(v) for v in elements[rng.randrange(len(elements))]]
        shuffled = labels[:]
        rng.shuffle(shuffled)
        sigma = dict(zip(labels, shuffled, strict=True))
        expected = sum(all(f[g[p]] == sigma[f[p]] for p in range(len(f))) for f in boards)
        assert fixed_count(pb, g, sigma) == expected
        checked += expected > 0
    assert checked > 0  # some pairs fix boards: the check is not all zeros


def test_label_split_parts_add_up_to_the_quotient_count():
    """The quotient problem split by the relabellings commuting with sigma: weights times counts add up to
    its plain count, and the split does take orbits larger than one label."""
    pb = board("sudoku:2x3")
    placements = Placements(pb)
    labels = list(pb.multiset.labels)
    elements = group_elements(automorphism_group(pb.board))
    rng = random.Random(3)
    weights = []
    for _ in range(40):
        g = [int(v) for v in elements[rng.randrange(len(elements))]]
        sigma = dict(zip(labels, labels, strict=True))
        if rng.random() < 0.5:
            sigma.update({1: 2, 2: 1} if rng.random() < 0.5 else {1: 2, 2: 3, 3: 1, 4: 5, 5: 4})
        fixed = fixed_problem(pb, g, sigma, placements)
        if fixed is None:
            continue
        parts = label_fixed_parts(pb, *fixed, sigma)
        assert sum(weight * part.count() for part, weight in parts) == fixed[0].count()
        weights += [weight for _, weight in parts]
    assert max(weights) > 1


@pytest.mark.parametrize(
    ("spec", "up_to", "classes"),
    [
        ("sudoku:2x3", "symmetry", 49),
        ("hexagon:2", "geometry", 163),
        ("dodecagon", "symmetry", 1983),
        ("cube:2", "geometry", 131),
        ("tetrahedron:3", "geometry", 3654),
    ],
)
def test_class_counts_are_kept_when_every_term_is_split(spec, up_to, classes, monkeypatch):
    monkeypatch.setattr(burnside, "SPLIT_NODES", 0)
    pb = board(spec)
    group = automorphism_group(pb.board) if up_to == "symmetry" else geometric_group(pb.board)
    assert count_by_burnside(pb, group) == classes


@pytest.mark.parametrize(("spec", "classes"), [("sudoku:2x2", 2), ("latin:4", 2), ("latin:5", 2)])
def test_burnside_equals_listing_under_automorphisms(spec, classes):
    pb = board(spec)
    assert count_by_burnside(pb, automorphism_group(pb.board)) == classes
    assert len(list(canonical_classes(pb))) == classes


def test_sudoku_6x6_essentially_different_grids_by_burnside():
    pb = board("sudoku:2x3")
    assert count_by_burnside(pb, automorphism_group(pb.board)) == 49


@pytest.mark.parametrize("spec", ["latin:3", "latin:4", "sudoku:2x2", "diagonal:5"])
def test_burnside_equals_brute_force_under_rotations_and_reflections(spec):
    pb = board(spec)
    group = geometric_group(pb.board)
    elements = group_elements(group)
    listed = {canonical_form(f, pb.multiset, elements).labelling for f in completions(pb)}
    assert count_up_to_geometry(pb) == len(listed)


@pytest.mark.slow
def test_dodecagon_by_burnside_equals_listing():
    pb = board("dodecagon")  # its automorphisms are its 24 rotations and reflections
    assert count_by_burnside(pb, automorphism_group(pb.board)) == 1983
    assert len(list(canonical_classes(pb))) == 1983


def test_repeated_labels_along_a_cycle_are_refused_clearly():
    with pytest.raises(BurnsideUnsupportedError, match="repeated label"):
        count_up_to_geometry(board("latin:4", "1,1,2,2"))


def test_cli_counts_polytopes_up_to_their_symmetry():
    out = run_cli("count", "dodecagon", "--up-to", "geometry")
    assert out.returncode == 0 and out.stdout.strip() == "1983"
    out = run_cli("count", "cube:2", "--up-to", "geometry", "--json")
    assert out.returncode == 0 and out.stdout.strip() == '{"count": 131}'
    out = run_cli("count", "latin:4", "--multiset", "1,1,2,2", "--up-to", "geometry")
    assert out.returncode == 1 and out.stderr.count("\n") == 1 and "repeated label" in out.stderr


def test_isotopy_classes_of_latin_squares_are_the_published_ones():
    # A040082 (rows, columns and symbols) and A123234 (rows and columns alone)
    assert [count_latin_square_classes(n) for n in range(2, 7)] == [1, 1, 2, 2, 22]
    assert [count_latin_square_classes(n, relabel=False) for n in range(2, 7)] == [1, 1, 4, 16, 1868]
    assert count_latin_square_classes(7) == 564


@pytest.mark.slow
def test_latin_squares_of_order_7_up_to_rows_and_columns():
    assert count_latin_square_classes(7, relabel=False) == 2_420_400  # A123234


def test_cycle_type_burnside_equals_the_generic_one():
    from sympy.combinatorics import Permutation, PermutationGroup

    n = 4
    pb = board(f"latin:{n}")
    whole = count_by_burnside(pb, automorphism_group(pb.board))
    assert count_latin_square_classes(n, transpose=True) == whole == 2

    def moves(a, b):  # rows by a, columns by b
        return Permutation([a[r] * n + b[c] for r in range(n) for c in range(n)])

    swap, turn, still = [1, 0, 2, 3], [1, 2, 3, 0], list(range(n))
    rows_and_columns = PermutationGroup(
        [moves(swap, still), moves(turn, still), moves(still, swap), moves(still, turn)]
    )
    assert rows_and_columns.order() == 24 * 24
    assert count_by_burnside(pb, rows_and_columns) == count_latin_square_classes(n) == 2


def test_latin_squares_up_to_their_whole_group_agree_with_listing():
    assert count_latin_square_classes(5, transpose=True) == len(list(canonical_classes(board("latin:5"))))
    assert count_latin_square_classes(6, transpose=True) == 17  # as listed by nauty (test_nauty_form)


def test_cli_isotopy():
    out = run_cli("count", "latin:6", "--up-to", "isotopy")
    assert out.returncode == 0 and out.stdout.strip() == "22"
    bad = run_cli("count", "sudoku:2x2", "--up-to", "isotopy")
    assert bad.returncode == 1 and "latin:n" in bad.stderr and bad.stderr.count("\n") == 1


def test_a_board_without_coordinates_has_no_geometry(tmp_path):
    custom = tmp_path / "square.json"
    custom.write_text('{"name": "two by two", "points": 4, "asterisms": [[0, 1], [2, 3], [0, 2], [1, 3]]}')
    out = run_cli("count", str(custom), "--up-to", "geometry")
    assert out.returncode == 1 and "no coordinates" in out.stderr and out.stderr.count("\n") == 1
    assert run_cli("count", str(custom), "--up-to", "symmetry").stdout.strip() == "1"


def test_cli_burnside_with_jobs_and_progress():
    """--jobs and --progress reach Burnside's plain count (its identity term); the other terms have a bar of
    their own; flags that cannot apply are refused, not ignored."""
    out = run_cli("count", "hexagon:2", "--up-to", "geometry", "--jobs", "2", "--progress")
    assert out.returncode == 0 and out.stdout.strip() == "163"
    assert "other Burnside terms" in out.stderr
    for flags in (["--up-to", "geometry", "--no-memo"], ["--up-to", "symmetry", "--memo-size", "1000"]):
        refused = run_cli("count", "hexagon:2", *flags)
        assert refused.returncode == 2 and "do not go with --up-to" in refused.stderr
    refused = run_cli("count", "latin:5", "--up-to", "isotopy", "--jobs", "2")
    assert refused.returncode == 2 and "nothing to checkpoint or share out" in refused.stderr


@pytest.mark.parametrize(("spec", "classes"), [("hexagon:2", 163), ("cube:2", 131)])
def test_terms_counted_by_two_processes_and_recorded_by_the_parent(spec, classes, monkeypatch, tmp_path):
    monkeypatch.setattr(burnside, "SPLIT_NODES", 0)  # every term split into recorded parts (workers fork)
    pb, ck = board(spec), tmp_path / "count.ckpt"
    group = geometric_group(pb.board)
    assert count_by_burnside(pb, group, checkpoint=str(ck), jobs=2) == classes
    written = ck.read_text()
    assert '"path": []' in written
    assert (
        count_by_burnside(pb, group, checkpoint=str(ck), jobs=2) == classes
    )  # a rerun reads every part back
    assert ck.read_text() == written


def test_a_hopeless_plain_count_is_refused_by_its_projection():
    from symmetry.burnside import PROJECTION_AFTER, Projection
    from symmetry.counting import SymmetryTooLargeError

    seen = []
    guard = Projection("tartan", lambda nodes, f: seen.append(f))
    guard(10, 1e-6)  # too early to judge
    guard.start -= PROJECTION_AFTER + 1
    guard(10, 0.5)  # projected two minutes: on it goes
    guard(10, 0.0)  # nothing finished yet: nothing projected
    with pytest.raises(SymmetryTooLargeError, match="projected to take .* days, past the limit of 1 day"):
        guard(10, 1e-5)
    assert seen == [1e-6, 0.5, 0.0, 1e-5]


@pytest.mark.slow
def test_count_tartan_up_to_symmetry_is_refused_in_about_a_minute():
    out = run_cli("count", "tartan", "--up-to", "symmetry", timeout=300)
    assert out.returncode == 1 and out.stderr.count("\n") == 1 and "projected to take" in out.stderr
