"""Approximation algorithms for C-PLSE (Haraguchi & Ono): instances, the three algorithms, exact optima."""
