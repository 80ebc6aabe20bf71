"""The conjugacy classes of a Sudoku grid's symmetry group, from its structure, never listing the group.

The automorphisms of sudoku:RxC permute the rows within each band and the bands (W_r, a wreath product
S_R wr S_C), the columns within each stack and the stacks (W_c = S_C wr S_R), and, when R = C, transpose:
G = W_r x W_c (x C2).  For 9x9 Sudoku, |G| = 3,359,232.  W_r and W_c are small (1,296 elements for 9x9), so
their classes come from `burnside.point_classes`; then

- an element (a, b), rows by a and columns by b, has the class of the pair (class of a, class of b); with a
  transposition t, (a, b) and (b, a) are conjugate, so a class is an unordered pair {A, B}, of size
  |A| |B| (times 2 when A != B);
- a transposing element (a, b)t is conjugate to (ab, 1)t, and (c, 1)t to (c', 1)t exactly when c and c' are
  conjugate in W: one class per class C of W, of size |W| |C|.

For 9x9 Sudoku that is 253 + 22 = 275 classes (Russell & Jarvis).  Burnside's sum over them, times the
label classes, gives the essentially different grids (`count_sudoku_classes`); the identity's term is the
band count (`symmetry.bands`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from sympy.combinatorics import Permutation, PermutationGroup

from symmetry.burnside import point_classes


def wreath_classes(inner: int, outer: int) -> list[tuple[tuple[int, ...], int]]:
    """(representative, size) of the conjugacy classes of S_inner wr S_outer acting on inner*outer lines in
    blocks of `inner` (rows in bands, or columns in stacks)."""
    lines = inner * outer
    gens = []
    for block in range(outer):  # transpositions and cycles within each block
        base = block * inner
        for j in range(inner - 1):
            image = list(range(lines))
            image[base + j], image[base + j + 1] = image[base + j + 1], image[base + j]
            gens.append(Permutation(image))
    for block in range(outer - 1):  # swap two adjacent blocks
        image = list(range(lines))
        for j in range(inner):
            image[block * inner + j], image[(block + 1) * inner + j] = (
                (block + 1) * inner + j,
                block * inner + j,
            )
        gens.append(Permutation(image))
    group = PermutationGroup(gens) if gens else PermutationGroup([Permutation(list(range(lines)))])
    return point_classes(group)


def cell_image(n: int, rows: Sequence[int], cols: Sequence[int], transpose: bool = False) -> list[int]:
    """The cell permutation of an n x n grid: cell (r, c) to (rows[r], cols[c]), or, transposing, to
    (rows[c], r) (cols unused)."""
    if transpose:
        return [rows[c] * n + r for r in range(n) for c in range(n)]
    return [rows[r] * n + cols[c] for r in range(n) for c in range(n)]


def sudoku_classes(r: int, c: int) -> list[tuple[list[int], int]]:
    """(cell permutation, class size) of each conjugacy class of sudoku:RxC's automorphism group."""
    n = r * c
    row_classes = wreath_classes(r, c)  # R rows in each of C bands
    col_classes = wreath_classes(c, r)  # C columns in each of R stacks
    out: list[tuple[list[int], int]] = []
    if r != c:
        for a, size_a in row_classes:
            for b, size_b in col_classes:
                out.append((cell_image(n, a, b), size_a * size_b))
        return out
    order = sum(size for _, size in row_classes)
    for i, (a, size_a) in enumerate(row_classes):
        for b, size_b in row_classes[i:]:
            out.append((cell_image(n, a, b), size_a * size_b * (1 if a == b else 2)))
        out.append((cell_image(n, a, (), transpose=True), order * size_a))
    return out


def group_order(r: int, c: int) -> int:
    """|G| for sudoku:RxC: (R!)^C C! (C!)^R R!, twice that when R = C."""
    rows = math.factorial(r) ** c * math.factorial(c)
    cols = math.factorial(c) ** r * math.factorial(r)
    return rows * cols * (2 if r == c else 1)
