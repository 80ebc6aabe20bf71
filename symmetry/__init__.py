"""Symmetry groups acting on boards and labels (filled by the symmetry issue)."""
