"""Symmetry groups acting on boards: constellation automorphisms and geometric isometries."""

from symmetry.canonical import CanonicalForm, canonical_form, group_elements
from symmetry.counting import SymmetryTooLargeError, classes_up_to_symmetry, count_up_to_symmetry
from symmetry.groups import automorphism_group, geometric_group, maps_asterisms

__all__ = [
    "CanonicalForm",
    "SymmetryTooLargeError",
    "classes_up_to_symmetry",
    "count_up_to_symmetry",
    "automorphism_group",
    "canonical_form",
    "geometric_group",
    "group_elements",
    "maps_asterisms",
]
