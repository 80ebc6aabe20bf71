"""Canonical forms under the whole automorphism group through nauty: invariant on orbits, inside the orbit,
with exact stabilizers, checked against listed groups and union-find on small boards."""

import itertools
import random

import pytest

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import Multiset, PartialBoard, completions, count_completions
from symmetry.groups import automorphism_group
from symmetry.nauty_form import NautyCanonizer


def moved(labelling, image, rename):
    """The labelling moved by a point permutation (label at p goes to image[p]) and a label renaming."""
    out = [None] * len(labelling)
    for p, label in enumerate(labelling):
        out[image[p]] = None if label is None else rename[label]
    return out


def random_renaming(m, rng):
    """A random permutation of labels with equal multiplicity."""
    rename = {}
    for c in set(m.counts):
        same = [label for label, k in zip(m.labels, m.counts, strict=True) if k == c]
        rename.update(zip(same, rng.sample(same, len(same)), strict=True))
    return rename


CASES = [
    ("sudoku:3x3", None),
    ("latin:6", "1^3,2^3"),
    ("hexagon:2", None),
    ("diagonal:5", None),
    ("cube:2", None),
]


@pytest.mark.parametrize("spec,multiset", CASES)
def test_form_is_invariant_on_the_orbit(spec, multiset):
    rng = random.Random(spec)
    board = board_from_spec(spec)
    m = Multiset.parse(multiset) if multiset else Multiset.default(board.asterism_size)
    canon = NautyCanonizer(board, m)
    group = automorphism_group(board)
    labelling = next(completions(PartialBoard(board, m)))
    form = canon.form(labelling)
    assert canon.form(list(form.labelling)).labelling == form.labelling  # idempotent
    assert PartialBoard(board, m, dict(enumerate(form.labelling))).is_partial_latin()
    for _ in range(10):
        other = moved(labelling, group.random().array_form, random_renaming(m, rng))
        again = canon.form(other)
        assert again.labelling == form.labelling
        assert again.orbit_size == form.orbit_size


def test_partial_boards_have_canonical_forms_too():
    rng = random.Random(3)
    board = board_from_spec("sudoku:3x3")
    m = Multiset.default(9)
    grid = next(completions(PartialBoard(board, m)))
    clues = [None] * 81
    for p in rng.sample(range(81), 25):
        clues[p] = grid[p]
    canon = NautyCanonizer(board, m)
    form = canon.form(clues)
    assert sum(x is not None for x in form.labelling) == 25
    group = automorphism_group(board)
    for _ in range(10):
        assert canon.form(moved(clues, group.random().array_form, random_renaming(m, rng))) == form


@pytest.mark.parametrize("spec,multiset", [("latin:4", None), ("sudoku:2x2", None), ("latin:4", "1^2,2^2")])
def test_forms_against_listed_group(spec, multiset):
    """Every board's form lies in its orbit; the stabilizer is the number of (automorphism, renaming) pairs
    that fix the board, all counted by listing the group."""
    board = board_from_spec(spec)
    m = Multiset.parse(multiset) if multiset else Multiset.default(board.asterism_size)
    canon = NautyCanonizer(board, m)
    elements = [g.array_form for g in automorphism_group(board).generate()]
    renamings = []
    for perm in itertools.permutations(m.labels):
        rename = dict(zip(m.labels, perm, strict=True))
        if all(m.count_of[a] == m.count_of[b] for a, b in rename.items()):
            renamings.append(rename)
    every = [tuple(x) for x in completions(PartialBoard(board, m))]
    covered, classes = set(), 0
    for labelling in every:
        if labelling in covered:
            continue
        classes += 1
        orbit = {tuple(moved(labelling, g, r)) for g in elements for r in renamings}
        covered |= orbit
        form = canon.form(labelling)
        assert form.labelling in orbit
        assert form.orbit_size == len(orbit)
        fixing = sum(tuple(moved(labelling, g, r)) == labelling for g in elements for r in renamings)
        assert form.stabilizer_order == fixing
    assert len({canon.form(x).labelling for x in every}) == classes


def test_latin_squares_of_order_6_up_to_isotopy_and_transposition():
    """An independent count on the usual cell-row-column-symbol graph of each reduced square: 22 isotopy
    classes (A040082(6)) and 17 once rows and columns may be exchanged, the group `latin:6` has."""
    import pynauty

    from symmetry import count_up_to_symmetry

    n = 6
    isotopy, with_transpose = set(), set()
    for square in completions(
        PartialBoard(board_from_spec("latin:6")).with_clues(
            {**{c: c + 1 for c in range(n)}, **{r * n: r + 1 for r in range(n)}}
        )
    ):
        adjacency = {
            r * n + c: [36 + r, 42 + c, 48 + square[r * n + c] - 1] for r in range(n) for c in range(n)
        }
        for classes, found in [
            ([set(range(36)), set(range(36, 42)), set(range(42, 48)), set(range(48, 54))], isotopy),
            ([set(range(36)), set(range(36, 48)), set(range(48, 54))], with_transpose),
        ]:
            graph = pynauty.Graph(54, adjacency_dict=adjacency, vertex_coloring=classes)
            found.add(pynauty.certificate(graph))
    assert len(isotopy) == 22
    assert len(with_transpose) == 17
    assert count_up_to_symmetry(PartialBoard(board_from_spec("latin:6"))) == 17


@pytest.mark.parametrize("spec", ["sudoku:2x3", "latin:5", "hexagon:2"])
def test_a_puzzle_carries_its_completion_to_canonical_form(spec):
    """form_carrying moves a Latin board the way it moves a puzzle taken from it: for a puzzle with one
    completion, the result is the canonical puzzle's completion (the engine's), whichever member of the
    puzzle's orbit came in."""
    rng = random.Random(spec)
    pb = PartialBoard(board_from_spec(spec))
    canon = NautyCanonizer(pb.board, pb.multiset)
    group = automorphism_group(pb.board)
    for full in itertools.islice(completions(pb), 0, 400, 100):
        order = rng.sample(range(len(full)), len(full))
        kept = len(full) // 3
        while count_completions(pb.with_clues({p: full[p] for p in order[:kept]}), limit=2) > 1:
            kept += 1
        puzzle = [x if p in order[:kept] else None for p, x in enumerate(full)]
        form, carried = canon.form_carrying(puzzle, full)
        clues = {p: x for p, x in enumerate(form.labelling) if x is not None}
        assert [tuple(c) for c in completions(pb.with_clues(clues))] == [carried]
        image, rename = list(group.random().array_form), random_renaming(pb.multiset, rng)
        again = canon.form_carrying(moved(puzzle, image, rename), moved(full, image, rename))
        assert again == (form, carried)
