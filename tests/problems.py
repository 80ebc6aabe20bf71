"""Exact-cover models of classic problems, built directly (boards come later), for the engine's tests."""

from dlx_latin.exact_cover import ExactCoverProblem


def queens(n: int) -> ExactCoverProblem:
    """n queens: rows and columns primary, the two families of diagonals secondary."""
    rows = [("r", i) for i in range(n)]
    cols = [("c", j) for j in range(n)]
    diagonals = [("a", s) for s in range(2 * n - 1)] + [("b", d) for d in range(2 * n - 1)]
    options = [[("r", i), ("c", j), ("a", i + j), ("b", i - j + n - 1)] for i in range(n) for j in range(n)]
    return ExactCoverProblem(rows + cols, options, diagonals)


def latin(n: int, box: tuple[int, int] | None = None, reduced: bool = False) -> ExactCoverProblem:
    """Latin squares of order n (Sudoku when `box` = (rows, cols) of a box); `reduced` fixes the
    first row and column to 0..n-1."""
    items = [("cell", r, c) for r in range(n) for c in range(n)]
    items += [("row", r, v) for r in range(n) for v in range(n)]
    items += [("col", c, v) for c in range(n) for v in range(n)]
    if box:
        items += [("box", b, v) for b in range(n) for v in range(n)]
    options = []
    for r in range(n):
        for c in range(n):
            for v in range(n):
                if reduced and (r == 0 and v != c or c == 0 and v != r):
                    continue
                option = [("cell", r, c), ("row", r, v), ("col", c, v)]
                if box:
                    option.append(("box", r // box[0] * box[0] + c // box[1], v))
                options.append(option)
    return ExactCoverProblem(items, options)
