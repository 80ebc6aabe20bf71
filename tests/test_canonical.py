"""Canonical forms under a point group and the label group, against an independent union-find of orbits."""

import itertools

import pytest

from dlx_latin.boards import board_from_spec
from dlx_latin.latin import Multiset, PartialBoard, completions
from symmetry import canonical_form, geometric_group, group_elements


def orbits_by_union_find(labellings, generators, multiset):
    """Orbits of the labellings under point generators and label transpositions within multiplicity
    classes, by union-find over the whole set (no canonical forms involved)."""
    index = {tuple(x): k for k, x in enumerate(labellings)}
    parent = list(range(len(labellings)))

    def find(k):
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    swaps = [
        (a, b)
        for a, b in itertools.combinations(multiset.labels, 2)
        if multiset.count_of[a] == multiset.count_of[b]
    ]
    for k, x in enumerate(labellings):
        images = []
        for g in generators:  # image under g: the label at g(p) is x[p]
            y = [None] * len(x)
            for p, label in enumerate(x):
                y[g[p]] = label
            images.append(y)
        for a, b in swaps:
            images.append([b if v == a else a if v == b else v for v in x])
        for y in images:
            parent[find(k)] = find(index[tuple(y)])
    return len({find(k) for k in range(len(labellings))})


@pytest.mark.parametrize(
    "spec, multiset",
    [
        ("latin:4", None),
        ("latin:4", "1,1,2,2"),
        ("latin:4", "1,1,2,3"),
        ("sudoku:2x2", None),
        ("diagonal:5", None),
        pytest.param("latin:5", "1^2,2^2,3", marks=pytest.mark.slow),
    ],
)
def test_classes_match_union_find_and_orbits_sum_to_the_count(spec, multiset):
    board = board_from_spec(spec)
    m = Multiset.parse(multiset) if multiset else Multiset.default(board.asterism_size)
    group = geometric_group(board)
    elements = group_elements(group)
    every = [tuple(x) for x in completions(PartialBoard(board, m))]
    forms = {}
    for x in every:
        form = canonical_form(x, m, elements)
        forms[form.labelling] = form.orbit_size
    assert sum(forms.values()) == len(every)
    assert all(form in set(every) for form in forms)  # a canonical form is itself a Latin board
    generators = [g.array_form for g in group.generators]
    assert len(forms) == orbits_by_union_find(every, generators, m)


def test_stabilizer_of_a_symmetric_square():
    board = board_from_spec("latin:4")
    m = Multiset.default(4)
    cyclic = [1, 2, 3, 4, 2, 3, 4, 1, 3, 4, 1, 2, 4, 1, 2, 3]  # symmetric about the main diagonal
    form = canonical_form(cyclic, m, group_elements(geometric_group(board)))
    assert form.stabilizer_order >= 2 and form.orbit_size == 8 * 24 // form.stabilizer_order


def test_counts_up_to_symmetry_match_published_numbers():
    from symmetry import count_up_to_symmetry

    assert count_up_to_symmetry(PartialBoard(board_from_spec("sudoku:2x2"))) == 2  # essentially different 4x4
    assert count_up_to_symmetry(PartialBoard(board_from_spec("latin:4"))) == 2  # A040082(4): isotopy classes
    assert count_up_to_symmetry(PartialBoard(board_from_spec("latin:3"))) == 1
    assert count_up_to_symmetry(PartialBoard(board_from_spec("sudoku:2x3"))) == 49  # 6x6 Sudoku classes


def test_up_to_symmetry_against_union_find_under_automorphisms():
    from symmetry import automorphism_group, classes_up_to_symmetry

    for spec, multiset in [
        ("latin:4", None),
        ("latin:4", "1,1,2,2"),
        ("sudoku:2x2", None),
        ("diagonal:4", None),
    ]:
        board = board_from_spec(spec)
        m = Multiset.parse(multiset) if multiset else Multiset.default(board.asterism_size)
        every = [tuple(x) for x in completions(PartialBoard(board, m))]
        generators = [g.array_form for g in automorphism_group(board).generators]
        assert len(classes_up_to_symmetry(PartialBoard(board, m))) == orbits_by_union_find(
            every, generators, m
        )


def test_up_to_symmetry_refuses_what_it_cannot_do():
    from symmetry import SymmetryTooLargeError, count_up_to_symmetry

    with pytest.raises(SymmetryTooLargeError, match="more than 500000 Latin boards"):
        count_up_to_symmetry(PartialBoard(board_from_spec("sudoku:4x4")))  # 16x16: no bands, no listing
    with pytest.raises(SymmetryTooLargeError, match="empty board"):
        count_up_to_symmetry(PartialBoard(board_from_spec("latin:3"), clues={0: 1}))
