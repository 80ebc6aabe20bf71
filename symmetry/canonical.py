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
from typing import TYPE_CHECKING

import numpy as np

from dlx_latin.latin.multiset import Label, Multiset

if TYPE_CHECKING:  # nauty's canonical forms return CanonicalForm without loading sympy
    from sympy.combinatorics import PermutationGroup

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


def _renamed(images: np.ndarray, members: list[list[int]]) -> np.ndarray:
    """Each row of label indices with its labels renamed, within each multiplicity class (`members`: the
    classes' label indices in order), by order of first appearance in the row."""
    k = sum(len(m) for m in members)
    first = np.argmax(images[:, :, None] == np.arange(k)[None, None, :], axis=1)  # rows x labels
    name = np.empty_like(first)
    for group in members:
        ranks = np.argsort(np.argsort(first[:, group], axis=1, kind="stable"), axis=1, kind="stable")
        name[:, group] = np.asarray(group)[ranks]
    return np.take_along_axis(name, images, axis=1)


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
    classes: dict[int, list[int]] = {}
    for k, c in enumerate(multiset.counts):
        classes.setdefault(c, []).append(k)
    members = list(classes.values())
    inverse = np.argsort(elements, axis=1)  # image of the labelling under g: value at q is L[g^-1(q)]
    renamed = _renamed(values[inverse], members)
    best = renamed[np.lexsort(renamed.T[::-1])[0]]
    own = _renamed(values[None, :], members)[0]
    stabilizer = int(np.all(renamed == own, axis=1).sum())
    label_order = math.prod(math.factorial(len(group)) for group in members)
    orbit = len(elements) * label_order // stabilizer
    return CanonicalForm(tuple(multiset.labels[k] for k in best), stabilizer, orbit)
