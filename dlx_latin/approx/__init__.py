"""Approximation algorithms for C-PLSE (Haraguchi & Ono): instances, the three algorithms, exact optima.

Importing the package registers the four conditions (`conditions`) under their names."""

from dlx_latin.approx import conditions as conditions  # noqa: F401 -- registers null, sud, fut, bs
