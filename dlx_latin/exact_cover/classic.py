"""Classic exact-cover models, with names that Knuth's DLX format can hold.

They are the engine's oracles (OEIS counts) and its benchmarks: n queens, Latin squares (optionally with the
first row, or the first row and column, fixed), Sudoku, and Latin squares whose lines hold a multiset of
labels -- the repeated labels become bounded items, so identical labels are never permuted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from dlx_latin.exact_cover.problem import ExactCoverProblem


def queens(n: int) -> ExactCoverProblem:
    """n queens: rows `r` and columns `c` primary; diagonals `a` (i+j) and `b` (i-j) secondary.

    >>> queens(8).count()  # A000170
    92
    """
    options = [[f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"] for i in range(n) for j in range(n)]
    return ExactCoverProblem(
        [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)],
        options,
        [f"a{s}" for s in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)],
    )


def latin_square(
    n: int,
    box: tuple[int, int] | None = None,
    fix: str = "none",
    multiset: Sequence[int] | None = None,
) -> ExactCoverProblem:
    """n x n arrays whose rows and columns (and boxes of `box` = (rows, cols): Sudoku) hold `multiset`.

    Items: cell `p{r}_{c}`, and `r{r}_{v}`, `c{c}_{v}`, `b{b}_{v}` for label v in row, column, box, each
    bounded by v's multiplicity.  The multiset defaults to 0..n-1.  `fix` = "row" fixes the first row to
    the sorted multiset; "reduced" also fixes the first column (distinct labels only).

    >>> latin_square(4).count(), latin_square(4, box=(2, 2)).count()
    (576, 288)
    >>> latin_square(4, multiset=[0, 0, 1, 1]).count()  # A001499
    90
    """
    labels = list(range(n)) if multiset is None else sorted(multiset)
    if len(labels) != n:
        raise ValueError(f"the multiset must have {n} labels, not {len(labels)}")
    if fix not in ("none", "row", "reduced"):
        raise ValueError(f"fix must be 'none', 'row' or 'reduced', not {fix!r}")
    if fix == "reduced" and len(set(labels)) != n:
        raise ValueError("a reduced square needs distinct labels")
    m = Counter(labels)
    kinds = ("r", "c", "b") if box else ("r", "c")
    lines = [f"{k}{i}_{v}" for k in kinds for i in range(n) for v in sorted(m)]
    options = []
    for r in range(n):
        for c in range(n):
            for v in sorted(m):
                if (r == 0 and fix != "none" and v != labels[c]) or (
                    c == 0 and fix == "reduced" and v != labels[r]
                ):
                    continue
                option = [f"p{r}_{c}", f"r{r}_{v}", f"c{c}_{v}"]
                if box:
                    option.append(f"b{r // box[0] * box[0] + c // box[1]}_{v}")
                options.append(option)
    cells = [f"p{r}_{c}" for r in range(n) for c in range(n)]
    bounds = {line: m[int(line.rsplit("_", 1)[1])] for line in lines} if len(m) < n else None
    return ExactCoverProblem(cells + lines, options, bounds=bounds)


PENTOMINOES = {
    "F": (".XX", "XX.", ".X."),
    "I": ("XXXXX",),
    "L": ("X.", "X.", "X.", "XX"),
    "N": (".X", ".X", "XX", "X."),
    "P": ("XX", "XX", "X."),
    "T": ("XXX", ".X.", ".X."),
    "U": ("X.X", "XXX"),
    "V": ("X..", "X..", "XXX"),
    "W": ("X..", "XX.", ".XX"),
    "X": (".X.", "XXX", ".X."),
    "Y": (".X", "XX", ".X", ".X"),
    "Z": ("XX.", ".X.", ".XX"),
}


def _orientations(picture: tuple[str, ...]) -> set[tuple[tuple[int, int], ...]]:
    """The distinct rotations and reflections of a piece, each as sorted cells shifted to the origin."""
    cells = [(r, c) for r, row in enumerate(picture) for c, x in enumerate(row) if x == "X"]
    shapes = set()
    for _ in range(2):
        for _ in range(4):
            cells = [(c, -r) for r, c in cells]
            r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
            shapes.add(tuple(sorted((r - r0, c - c0) for r, c in cells)))
        cells = [(r, -c) for r, c in cells]
    return shapes


def pentominoes(rows: int = 6, cols: int = 10, holes: Sequence[tuple[int, int]] = ()) -> ExactCoverProblem:
    """Tilings of a rows x cols box, less the cells `holes`, by the 12 pentominoes: a primary item per piece
    and per cell.

    >>> pentominoes(3, 20).count()  # 2 tilings up to symmetry, times the box's 4 symmetries
    8
    """
    free = {(r, c) for r in range(rows) for c in range(cols)} - set(holes)
    options = []
    for name, picture in PENTOMINOES.items():
        for shape in sorted(_orientations(picture)):
            for r in range(rows):
                for c in range(cols):
                    cells = [(r + dr, c + dc) for dr, dc in shape]
                    if all(cell in free for cell in cells):
                        options.append([name] + [f"{a}_{b}" for a, b in cells])
    return ExactCoverProblem(list(PENTOMINOES) + [f"{r}_{c}" for r, c in sorted(free)], options)


def langford(n: int) -> ExactCoverProblem:
    """Langford pairs: 1, 1, 2, 2, ..., n, n in a row of 2n, the two k's with k others between them.  Items:
    each value `v{k}` and each place `s{i}`; both a sequence and its reversal are counted.

    >>> langford(7).count()  # 26 up to reversal (A014552)
    52
    """
    options = [[f"v{k}", f"s{i}", f"s{i + k + 1}"] for k in range(1, n + 1) for i in range(2 * n - k - 1)]
    return ExactCoverProblem([f"v{k}" for k in range(1, n + 1)] + [f"s{i}" for i in range(2 * n)], options)


SOMA = {  # the seven Soma pieces, as cubes
    "V": ((0, 0, 0), (1, 0, 0), (0, 1, 0)),
    "L": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)),
    "T": ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)),
    "Z": ((0, 0, 0), (1, 0, 0), (1, 1, 0), (2, 1, 0)),
    "A": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 1)),
    "B": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 1)),
    "P": ((0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)),
}


def _rotations(cubes: tuple[tuple[int, int, int], ...]) -> set[tuple[tuple[int, int, int], ...]]:
    """The distinct placements of a polycube under the 24 rotations, each shifted to the origin."""
    found, frontier = set(), [tuple(cubes)]
    while frontier:
        shape = frontier.pop()
        low = [min(c[a] for c in shape) for a in range(3)]
        key = tuple(sorted(tuple(c[a] - low[a] for a in range(3)) for c in shape))
        if key in found:
            continue
        found.add(key)
        frontier.append(tuple((x, -z, y) for x, y, z in key))  # a quarter turn about x
        frontier.append(tuple((z, y, -x) for x, y, z in key))  # and about y
    return found


def soma(size: int = 3) -> ExactCoverProblem:
    """Packings of the seven Soma pieces into a 3x3x3 cube (the default; other cubes have no room).

    >>> soma().count()  # 240 up to the cube's 48 symmetries (mirror pieces swap places under a reflection)
    11520
    """
    options = []
    for name, cubes in SOMA.items():
        for shape in sorted(_rotations(cubes)):
            extent = [max(c[a] for c in shape) for a in range(3)]
            for x in range(size - extent[0]):
                for y in range(size - extent[1]):
                    for z in range(size - extent[2]):
                        options.append([name] + [f"{x + a}{y + b}{z + c}" for a, b, c in shape])
    cells = [f"{x}{y}{z}" for x in range(size) for y in range(size) for z in range(size)]
    return ExactCoverProblem(list(SOMA) + cells, options)
