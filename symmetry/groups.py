"""Groups acting on a board's points: the automorphisms of its constellation and its geometric symmetries.

The automorphism group is every point permutation mapping asterisms to asterisms.  It is computed with nauty
(through pynauty) on the point-asterism incidence graph, points and asterisms in two colour classes; its
exact order comes from sympy's Schreier-Sims on the generators restricted to the points.

The geometric group is the isometries of the point coordinates (about their centroid) that map points to
points and asterisms to asterisms.  Candidate isometries are fixed by where they send two (in 3-D three)
independent reference points among the points at the same distances; each candidate is kept when it maps
the whole point set onto itself and the constellation onto itself.
"""

from __future__ import annotations

import numpy as np
from sympy.combinatorics import Permutation, PermutationGroup

from dlx_latin.boards import Board
from symmetry.board_graph import board_graph

_DIGITS = 6  # coordinates are compared after rounding to this many decimals


def _identity_group(n: int) -> PermutationGroup:
    return PermutationGroup([Permutation(list(range(n)))])


def maps_asterisms(board: Board, image: list[int]) -> bool:
    """Whether the point permutation `image` (point p goes to image[p]) maps the constellation onto itself."""
    asterisms = {frozenset(a) for a in board.asterisms}
    return all(frozenset(image[p] for p in a) in asterisms for a in board.asterisms)


def automorphism_group(board: Board) -> PermutationGroup:
    """Every point permutation that maps asterisms to asterisms (e.g. order 3,359,232 for sudoku:3x3).

    >>> from dlx_latin.boards import board_from_spec
    >>> automorphism_group(board_from_spec("latin:3")).order()  # 2 (3!)^2
    72
    """
    import pynauty

    n = board.n_points
    generators = pynauty.autgrp(board_graph(board))[0]
    perms = [Permutation(g[:n]) for g in generators if g[:n] != list(range(n))]
    for perm in perms:
        assert maps_asterisms(board, perm.array_form), "nauty returned a non-automorphism"
    return PermutationGroup(perms) if perms else _identity_group(n)


def automorphism_elements(board: Board) -> np.ndarray | None:
    """Every automorphism of the constellation, one row of int32 point images each (what
    `puzzles.patterns.pattern_scan` takes as `symmetries`); None when there are more than
    `canonical.MAX_ELEMENTS`.

    >>> from dlx_latin.boards import board_from_spec
    >>> automorphism_elements(board_from_spec("latin:2")).shape  # rows, columns, transpose: 2 * 2! * 2!
    (8, 4)
    """
    from symmetry.canonical import MAX_ELEMENTS, group_elements

    group = automorphism_group(board)
    return group_elements(group).astype(np.int32) if group.order() <= MAX_ELEMENTS else None


def geometric_group(board: Board) -> PermutationGroup | None:
    """The isometries of the coordinates that map points to points and asterisms to asterisms, as point
    permutations; None for a board without coordinates.

    >>> from dlx_latin.boards import board_from_spec
    >>> geometric_group(board_from_spec("hexagon:2")).order()  # D6
    12
    """
    if board.coordinates is None:
        return None
    points = board.coordinates - board.coordinates.mean(axis=0)
    index = {_key(p): k for k, p in enumerate(points)}
    norms = np.round(np.linalg.norm(points, axis=1), _DIGITS)
    reference = _reference_points(points)
    if reference is None:
        return _identity_group(board.n_points)
    basis = points[reference]
    candidates = [[k for k in range(board.n_points) if norms[k] == norms[r]] for r in reference]
    found = []
    for images in _consistent_images(points, reference, candidates):
        q = _orthogonal_map(basis, points[list(images)])
        if q is None:
            continue
        moved = points @ q.T
        image = [index.get(_key(p)) for p in moved]
        if None in image or len(set(image)) != board.n_points or not maps_asterisms(board, image):
            continue
        found.append(Permutation(image))
    return PermutationGroup(found) if found else _identity_group(board.n_points)


def _key(p: np.ndarray) -> tuple:
    return tuple(np.round(p, _DIGITS) + 0.0)  # + 0.0 turns -0.0 into 0.0


def _reference_points(points: np.ndarray) -> list[int] | None:
    """Indices of d points whose vectors from the centroid are independent (d the dimension)."""
    d = points.shape[1]
    chosen: list[int] = []
    for k in np.argsort(-np.linalg.norm(points, axis=1), kind="stable"):
        trial = chosen + [int(k)]
        if np.linalg.matrix_rank(points[trial], tol=1e-6) == len(trial):
            chosen = trial
            if len(chosen) == d:
                return chosen
    return None


def _consistent_images(points: np.ndarray, reference: list[int], candidates: list[list[int]]):
    """Tuples of images for the reference points that keep every distance between them, built point by
    point so that a wrong first choice prunes all its extensions."""

    def distance(a: int, b: int) -> float:
        return float(np.linalg.norm(points[a] - points[b]))

    def extend(chosen: tuple[int, ...]):
        k = len(chosen)
        if k == len(reference):
            yield chosen
            return
        for c in candidates[k]:
            if c not in chosen and all(
                abs(distance(c, chosen[j]) - distance(reference[k], reference[j])) < 1e-6 for j in range(k)
            ):
                yield from extend(chosen + (c,))

    yield from extend(())


def _orthogonal_map(basis: np.ndarray, images: np.ndarray) -> np.ndarray | None:
    """The linear map sending the rows of `basis` to the rows of `images`, if it is orthogonal."""
    q = np.linalg.solve(basis, images).T
    return q if np.allclose(q @ q.T, np.eye(len(q)), atol=1e-6) else None
