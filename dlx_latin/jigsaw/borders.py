"""Border fillings (A173104): the border cells of the n x n square labelled 1..n, no label twice in a row or
column - by exact cover (the first row fixed, times n!) and in closed form."""

from __future__ import annotations

import math

from dlx_latin.exact_cover import ExactCoverProblem


def border_problem(n: int) -> ExactCoverProblem:
    """Border cells of the n x n square labelled 1..n, no label twice in a row or column, the first row
    fixed to 1..n (n >= 2)."""
    border = [c for c in range(n * n) if c < n or c >= n * (n - 1) or c % n in (0, n - 1)]
    options = []
    for c in border:
        r, k = divmod(c, n)
        labels = [k] if r == 0 else range(n)
        for x in labels:
            options.append([("cell", c), ("row", r, x), ("col", k, x)])
    secondary = [(kind, i, x) for kind in ("row", "col") for i in range(n) for x in range(n)]
    return ExactCoverProblem([("cell", c) for c in border], options, secondary)


def border_fillings(n: int) -> int:
    """The number of ways to fill the border cells of an n x n square with 1..n, no label repeated in any
    row or column (A173104).

    >>> [border_fillings(n) for n in range(1, 6)]
    [1, 2, 12, 624, 110880]
    """
    if n == 1:
        return 1
    return math.factorial(n) * border_problem(n).count()


def derangements(n: int) -> int:
    """Permutations of n things without a fixed point (A000166).

    >>> [derangements(n) for n in range(7)]
    [1, 0, 1, 2, 9, 44, 265]
    """
    previous, current = 0, 1  # d(-1) stands in as 0: d(1) = 0 * (d(0) + d(-1))
    for k in range(1, n + 1):
        previous, current = current, (k - 1) * (current + previous)
    return current


def border_formula(n: int) -> int:
    """A173104 in closed form, for every n (equal to `border_fillings`).

    With the top row 0..n-1 (times n!), the bottom row is a derangement of it, since every column holds
    both.  The left column's n-2 inner cells take the labels missing from its two ends in (n-2)! orders,
    and the right column's inner cells take theirs avoiding, row by row, the left label when it is one of
    theirs: k shared labels leave e(k) = sum_j (-1)^j C(k, j) (n-2-j)! orders, i.e. d(n-2), d(n-2) +
    d(n-3) and d(n-2) + 2 d(n-3) + d(n-4) for k = n-2, n-3, n-4 (d: derangements).  k counts how many of
    the bottom corners are the top corners swapped: both for d(n-2) bottom rows, one for 2 d(n-1), none
    for the other d(n) - 2 d(n-1) - d(n-2).

    >>> [border_formula(n) for n in range(1, 8)]
    [1, 2, 12, 624, 110880, 58769280, 67704940800]
    """
    if n < 4:
        return [1, 1, 2, 12][n]
    d = derangements
    both, one, neither = d(n - 2), 2 * d(n - 1), d(n) - 2 * d(n - 1) - d(n - 2)
    inner = both * d(n - 2) + one * (d(n - 2) + d(n - 3)) + neither * (d(n - 2) + 2 * d(n - 3) + d(n - 4))
    return math.factorial(n) * math.factorial(n - 2) * inner
