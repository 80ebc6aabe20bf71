"""Canonical forms of labellings under a point group combined with the label group.

The label group is every permutation of labels with equal multiplicity.  A labelling's canonical form is the
lexicographically least image under (point permutation, label permutation) pairs, comparing label indices
in the multiset's order.  For a fixed point permutation the best label permutation renames, within each
multiplicity class, the labels by their first appearance; so only the point group is iterated, which is
right for small groups (geometric groups: at most 120 elements).  The label group acts freely on Latin
boards (every label appears), so the stabilizer is the set of point permutations whose image is a renaming
of the labelling, and the orbit has |G| |L| / |stabilizer| elements.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sympy.combinatorics import PermutationGroup

from dlx_latin.latin.multiset import Label, Multiset

MAX_ELEMENTS = 100_000  # iterate point groups up to this order


@dataclass(frozen=True)
class CanonicalForm:
    """The canonical labelling (labels in point order), its stabilizer's order and its orbit's size."""

    labelling: tuple[Label, ...]
    stabilizer_order: int
    orbit_size: int


def group_elements(group: PermutationGroup) -> np.ndarray:
    """Every element of a small group, one row of point images each."""
    if group.order() > MAX_ELEMENTS:
        raise ValueError(
            f"the group has {group.order()} elements; canonical forms iterate at most {MAX_ELEMENTS}"
        )
    return np.array([g.array_form for g in group.generate()], dtype=np.int64)


def _rename(indices: np.ndarray, classes: Sequence[int], members: dict[int, list[int]]) -> tuple[int, ...]:
    """Rename labels (as indices) within each multiplicity class by order of first appearance; `members`
    lists each class's label indices in order."""
    mapping: dict[int, int] = {}
    taken: dict[int, int] = {}
    out = []
    for x in indices.tolist():
        if x not in mapping:
            c = classes[x]
            mapping[x] = members[c][taken.get(c, 0)]
            taken[c] = taken.get(c, 0) + 1
        out.append(mapping[x])
    return tuple(out)


def canonical_form(labelling: Sequence[Label], multiset: Multiset, elements: np.ndarray) -> CanonicalForm:
    """The canonical form of a full labelling under the point group `elements` and the label group.

    >>> from dlx_latin.boards import board_from_spec
    >>> from symmetry.groups import geometric_group
    >>> g = group_elements(geometric_group(board_from_spec("latin:3")))
    >>> canonical_form([2, 3, 1, 3, 1, 2, 1, 2, 3], Multiset.parse("1,2,3"), g).labelling
    (1, 2, 3, 2, 3, 1, 3, 1, 2)
    """
    index = {label: k for k, label in enumerate(multiset.labels)}
    values = np.array([index[x] for x in labelling], dtype=np.int64)
    classes = multiset.counts
    members: dict[int, list[int]] = {}
    for k, c in enumerate(classes):
        members.setdefault(c, []).append(k)
    inverse = np.argsort(elements, axis=1)  # image of the labelling under g: value at q is L[g^-1(q)]
    images = values[inverse]
    renamed = [_rename(row, classes, members) for row in images]
    best = min(renamed)
    own = _rename(values, classes, members)
    stabilizer = sum(1 for r in renamed if r == own)
    label_order = math.prod(math.factorial(len(group)) for group in members.values())
    orbit = len(elements) * label_order // stabilizer
    return CanonicalForm(tuple(multiset.labels[k] for k in best), stabilizer, orbit)
