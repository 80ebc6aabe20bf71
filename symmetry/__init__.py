"""Symmetry groups acting on boards: constellation automorphisms, geometric isometries, canonical forms,
counts up to symmetry and counts on orbit representatives.

Names load lazily, so a caller that needs only nauty (`symmetry.pruned`) does not pay for importing sympy.
"""

from __future__ import annotations

import importlib

_WHERE = {
    "CanonicalForm": "canonical",
    "canonical_form": "canonical",
    "group_elements": "canonical",
    "SymmetryTooLargeError": "errors",
    "classes_up_to_symmetry": "counting",
    "count_up_to_symmetry": "counting",
    "count_up_to_geometry": "counting",
    "count_up_to_isotopy": "counting",
    "count_latin_square_classes": "burnside",
    "count_by_burnside": "burnside",
    "canonical_classes": "counting",
    "all_classes": "counting",
    "NautyCanonizer": "nauty_form",
    "automorphism_group": "groups",
    "automorphism_elements": "groups",
    "geometric_group": "groups",
    "maps_asterisms": "groups",
    "count_by_orbits": "pruned",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> object:
    if name not in _WHERE:
        raise AttributeError(f"module 'symmetry' has no attribute {name!r}")
    return getattr(importlib.import_module(f"symmetry.{_WHERE[name]}"), name)
