"""Symmetry groups acting on boards: constellation automorphisms and geometric isometries."""

from symmetry.groups import automorphism_group, geometric_group, maps_asterisms

__all__ = ["automorphism_group", "geometric_group", "maps_asterisms"]
