"""Latin polyhedra (../shared/boards.md, "Polyhedra").

Every face is subdivided at frequency f (f^2 small triangles per triangle, f x f squares per square) and
the points are the cells' centroids.  For a band axis u, let h_hi be the smallest positive vertex height
c.u and h_lo the largest negative one; the band is the faces with a vertex at each of those heights, and
stripe (u, j) is the band's cells with floor(f (c.u - h_lo) / (h_hi - h_lo)) = j.  The dodecahedron's
points are its 30 edge midpoints, on great circles perpendicular to its vertex (or face) axes.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from dlx_latin.boards.board import Board, InvalidBoardError

PHI = (1 + math.sqrt(5)) / 2
_EPS = 1e-9


def _faces(vertices: np.ndarray, face_size: int) -> list[tuple[int, ...]]:
    """The faces of a convex polyhedron (edges: the shortest vertex distances), as cyclic vertex lists."""
    n = len(vertices)
    distance = np.linalg.norm(vertices[:, None] - vertices[None], axis=2)
    edge = distance[distance > _EPS].min()
    adjacent = np.abs(distance - edge) < 1e-6
    faces = set()
    for combo in itertools.combinations(range(n), face_size):
        points = vertices[list(combo)]
        normal = np.cross(points[1] - points[0], points[2] - points[0])
        if np.linalg.norm(normal) < _EPS:
            continue
        normal /= np.linalg.norm(normal)
        height = normal @ points[0]
        if np.any(np.abs(points @ normal - height) > 1e-6):
            continue
        others = vertices @ normal - height
        if not (np.all(others < 1e-6) or np.all(others > -1e-6)):
            continue  # not a supporting plane
        cycle = _cycle(list(combo), adjacent)
        if cycle:
            faces.add(tuple(cycle))
    return sorted(faces)


def _cycle(members: list[int], adjacent: np.ndarray) -> list[int] | None:
    """The members in cyclic order along edges, or None if they do not form one face cycle."""
    cycle = [members[0]]
    rest = set(members[1:])
    while rest:
        following = [m for m in rest if adjacent[cycle[-1], m]]
        if not following:
            return None
        cycle.append(min(following))
        rest.remove(cycle[-1])
    return cycle if adjacent[cycle[-1], cycle[0]] else None


def _subdivide(vertices: np.ndarray, faces: list[tuple[int, ...]], f: int) -> tuple[np.ndarray, list[int]]:
    """Centroids of the cells of every face at frequency f, and the face of each cell."""
    centroids, owner = [], []
    for k, face in enumerate(faces):
        corners = vertices[list(face)]
        if len(face) == 3:
            p0, e1, e2 = corners[0], (corners[1] - corners[0]) / f, (corners[2] - corners[0]) / f
            for i in range(f):
                for j in range(f - i):
                    centroids.append(p0 + (i + 1 / 3) * e1 + (j + 1 / 3) * e2)
                    owner.append(k)
                    if i + j <= f - 2:
                        centroids.append(p0 + (i + 2 / 3) * e1 + (j + 2 / 3) * e2)
                        owner.append(k)
        else:
            p0, e1, e3 = corners[0], (corners[1] - corners[0]) / f, (corners[3] - corners[0]) / f
            for i in range(f):
                for j in range(f):
                    centroids.append(p0 + (i + 0.5) * e1 + (j + 0.5) * e3)
                    owner.append(k)
    return np.array(centroids), owner


def _stripes(
    vertices: np.ndarray, faces, centroids: np.ndarray, owner: list[int], axes, f: int
) -> list[list[int]]:
    stripes = []
    for axis in axes:
        u = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
        heights = vertices @ u
        h_hi = heights[heights > _EPS].min()
        h_lo = heights[heights < -_EPS].max()
        band = {
            k
            for k, face in enumerate(faces)
            if any(abs(heights[v] - h_hi) < 1e-6 for v in face)
            and any(abs(heights[v] - h_lo) < 1e-6 for v in face)
        }
        level = np.floor(f * (centroids @ u - h_lo) / (h_hi - h_lo) + _EPS).astype(int)
        for j in range(f):
            stripes.append([p for p in range(len(centroids)) if owner[p] in band and level[p] == j])
    return stripes


def _polyhedron_board(name: str, vertices, face_size: int, axes, f: int) -> Board:
    if f < 2:
        raise InvalidBoardError(f"{name}:{f} is degenerate: the frequency must be at least 2")
    vertices = np.asarray(vertices, dtype=float)
    faces = _faces(vertices, face_size)
    centroids, owner = _subdivide(vertices, faces, f)
    stripes = _stripes(vertices, faces, centroids, owner, axes, f)
    corners = [vertices[list(face)] for face in faces]
    return Board(f"{name}:{f}", len(centroids), stripes, centroids, faces=corners)


def _signs(*pattern: float) -> list[tuple[float, ...]]:
    """All sign choices of the nonzero entries of a vector."""
    choices = [(x, -x) if x else (0.0,) for x in pattern]
    return sorted(set(itertools.product(*choices)))


def _cyclic(vectors: list[tuple[float, ...]]) -> list[tuple[float, ...]]:
    return sorted({v[k:] + v[:k] for v in vectors for k in range(3)})


def tetrahedron(f: int) -> Board:
    """`tetrahedron:f`: 4f^2 points, 3f stripes of 4f (axes through opposite edge midpoints), r = 3."""
    vertices = [(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)]
    return _polyhedron_board("tetrahedron", vertices, 3, [(1, 0, 0), (0, 1, 0), (0, 0, 1)], f)


def cube(f: int) -> Board:
    """`cube:f` (free Latin cube): 6f^2 points, 3f stripes of 4f (face normals), r = 2."""
    return _polyhedron_board("cube", _signs(1, 1, 1), 4, [(1, 0, 0), (0, 1, 0), (0, 0, 1)], f)


def octahedron(f: int) -> Board:
    """`octahedron:f`: 8f^2 points, 4f stripes of 6f (face normals), r = 3."""
    vertices = _cyclic(_signs(1, 0, 0))
    return _polyhedron_board("octahedron", vertices, 3, [(1, 1, 1), (1, 1, -1), (1, -1, 1), (-1, 1, 1)], f)


def _icosahedron_vertices() -> list[tuple[float, ...]]:
    return _cyclic(_signs(0, 1, PHI))


def icosahedron(f: int) -> Board:
    """`icosahedron:f`: 20f^2 points, 6f stripes of 10f (vertex axes), r = 3."""
    vertices = _icosahedron_vertices()
    axes = [v for v in vertices if v > tuple(-x for x in v)]  # one vertex of each opposite pair
    return _polyhedron_board("icosahedron", vertices, 3, axes, f)


DODECAHEDRON_VARIANTS = ("hexagonal", "decagonal")


def dodecahedron(variant: str = "hexagonal") -> Board:
    """`dodecahedron[:hexagonal|decagonal]`: the 30 edge midpoints on great circles, r = 2.

    `hexagonal` (the default): the 10 circles perpendicular to the vertex axes, k = 6;
    `decagonal`: the 6 circles perpendicular to the face axes, k = 10.
    """
    if variant not in DODECAHEDRON_VARIANTS:
        raise InvalidBoardError(
            f"unknown dodecahedron variant {variant!r}: choose one of {', '.join(DODECAHEDRON_VARIANTS)}"
        )
    vertices = np.array(_signs(1, 1, 1) + _cyclic(_signs(0, 1 / PHI, PHI)), dtype=float)
    distance = np.linalg.norm(vertices[:, None] - vertices[None], axis=2)
    edge = distance[distance > _EPS].min()
    midpoints = np.array(
        [
            (vertices[i] + vertices[j]) / 2
            for i, j in itertools.combinations(range(20), 2)
            if abs(distance[i, j] - edge) < 1e-6
        ]
    )
    if variant == "hexagonal":
        axes = [v for v in vertices if tuple(v) > tuple(-v)]
    else:
        centres = [vertices[list(face)].mean(axis=0) for face in _faces(vertices, 5)]
        axes = [c for c in centres if tuple(np.round(c, 9)) > tuple(np.round(-c, 9))]  # one per opposite pair
    circles = [[p for p in range(30) if abs(midpoints[p] @ np.asarray(u)) < 1e-6] for u in axes]
    suffix = "" if variant == "hexagonal" else ":decagonal"
    faces = [vertices[list(face)] for face in _faces(vertices, 5)]
    return Board(f"dodecahedron{suffix}", 30, circles, midpoints, faces=faces)
