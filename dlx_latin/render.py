"""Boards as SVG pictures, written directly (no drawing library); PNG through the optional cairosvg.

Square grids are drawn as cells, with thick borders between the regions (the asterisms that are neither
rows nor columns and that together partition the grid: Sudoku boxes, jigsaw regions) and the other extra
asterisms (diagonals, windows) shaded.  Other boards are drawn from their points' coordinates: points that
are the centroids of a triangular grid's cells (Latin triangles and hexagons) as those unit triangles, any
other point as a disc, with the asterisms whose points lie on one line (the dodecagon star's) drawn as
lines.  Polyhedra are drawn as nets: their faces unfolded into the plane along a spanning tree of the faces
(the first tree, over roots and breadth- or depth-first orders, whose faces do not overlap), each cell as
its triangle or square; other 3-D boards are seen from above, leaning so that front and back do not meet.
Clues are bold, labels of a solution light; one asterism can be highlighted.  A sheet puts several pictures
on one page.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING, Protocol

import numpy as np

from dlx_latin.errors import UserInputError

if TYPE_CHECKING:
    from dlx_latin.boards import Board


class Clued(Protocol):
    """A partial board, as drawn: its board and its clues by point."""

    board: Board
    clues: Mapping[int, object]


class RenderError(UserInputError):
    """A picture that cannot be made: the message says why."""


CELL = 40
SHADES = ["#fde2e4", "#e2ece9", "#dfe7fd", "#fff1c1", "#e8dff5", "#d7f0f4"]


def point_kinds(board: Board) -> tuple[list[int], list[int]]:
    """(region asterisms, other extra asterisms) of a square grid: lines are rows or columns."""
    _, cols = board.shape or (0, 1)
    extra = [
        a
        for a, cells in enumerate(board.asterisms)
        if len({p // cols for p in cells}) > 1 and len({p % cols for p in cells}) > 1
    ]
    covered = [p for a in extra for p in board.asterisms[a]]
    if extra and len(covered) == len(set(covered)) == board.n_points:
        return extra, []
    regions = []
    seen: set[int] = set()
    for a in extra:  # the largest family of disjoint extra asterisms, greedily, as regions
        if seen.isdisjoint(board.asterisms[a]):
            regions.append(a)
            seen.update(board.asterisms[a])
    if len(seen) != board.n_points:
        regions = []
    return regions, [a for a in extra if a not in regions]


def _f(v: float) -> str:
    """A coordinate to one decimal, rounded to 6 first: a last-bit difference between numpy builds (149.45
    computed as 149.4499... or 149.4500...) then cannot flip the digit drawn."""
    return f"{round(float(v), 6):.1f}"


def _i(v: float) -> str:
    """A size in whole pixels, rounded to 6 decimals first for the same reason as `_f`."""
    return f"{round(float(v), 6):.0f}"


def _text(x: float, y: float, label: object, clue: bool, size: int) -> str:
    weight, colour = ("bold", "black") if clue else ("normal", "#888")
    return (
        f'<text x="{_f(x)}" y="{_f(y + size * 0.35)}" text-anchor="middle" font-size="{size}" '
        f'font-weight="{weight}" fill="{colour}">{escape(str(label))}</text>'
    )


def render_svg(target: Board | Clued, solution: list | None = None, highlight: int | None = None) -> str:
    """An SVG document of a board, or of a partial board with its clues (and a solution's other labels, if
    given).  Partial boards are taken by what they have -- `board` and `clues` -- so that this module sits
    beside the boards, below the Latin layer."""
    board, clues = (target.board, target.clues) if hasattr(target, "clues") else (target, {})
    if highlight is not None and not 0 <= highlight < len(board.asterisms):
        raise ValueError(f"asterism {highlight} is not one of the board's 0..{len(board.asterisms) - 1}")
    labels = [clues.get(p, solution[p] if solution else None) for p in range(board.n_points)]
    if board.shape:
        return _grid(board, clues, labels, highlight)
    return _points(board, clues, labels, highlight)


def _grid(board: Board, clues: Mapping[int, object], labels: list, highlight: int | None) -> str:
    rows, cols = board.shape
    regions, extra = point_kinds(board)
    owner = {p: a for a in regions for p in board.asterisms[a]}
    pad, width, height = 10, cols * CELL + 20, rows * CELL + 20
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    shade: dict[int, str] = {}
    for k, a in enumerate(extra):
        for p in board.asterisms[a]:
            shade.setdefault(p, SHADES[k % len(SHADES)])
    if highlight is not None:
        for p in board.asterisms[highlight]:
            shade[p] = "#ffd166"
    for p in range(board.n_points):
        r, c = divmod(p, cols)
        out.append(
            f'<rect class="point" x="{pad + c * CELL}" y="{pad + r * CELL}" width="{CELL}" height="{CELL}" '
            f'fill="{shade.get(p, "white")}" stroke="#999" stroke-width="1"/>'
        )
        if labels[p] is not None:
            x, y = pad + c * CELL + CELL / 2, pad + r * CELL + CELL / 2
            out.append(_text(x, y, labels[p], p in clues, CELL // 2))
    for p in range(board.n_points):  # thick borders between regions
        r, c = divmod(p, cols)
        if c + 1 < cols and owner.get(p) != owner.get(p + 1):
            x = pad + (c + 1) * CELL
            out.append(
                f'<line x1="{x}" y1="{pad + r * CELL}" x2="{x}" y2="{pad + (r + 1) * CELL}" stroke="black" '
                'stroke-width="3"/>'
            )
        if r + 1 < rows and owner.get(p) != owner.get(p + cols):
            y = pad + (r + 1) * CELL
            out.append(
                f'<line x1="{pad + c * CELL}" y1="{y}" x2="{pad + (c + 1) * CELL}" y2="{y}" stroke="black" '
                'stroke-width="3"/>'
            )
    out.append(
        f'<rect x="{pad}" y="{pad}" width="{cols * CELL}" height="{rows * CELL}" fill="none" stroke="black" '
        'stroke-width="3"/>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _points(board: Board, clues: Mapping[int, object], labels: list, highlight: int | None) -> str:
    xyz = np.asarray(board.coordinates if board.coordinates is not None else _circle(board.n_points), float)
    net = _net(board) if board.faces else None
    faces2d: list[np.ndarray] = []
    if net is not None:
        xyz, faces2d = net
    elif xyz.shape[1] == 3:  # seen from above, leaning: x + z/3, y + z/3
        xyz = np.column_stack([xyz[:, 0] + xyz[:, 2] / 3, xyz[:, 1] + xyz[:, 2] / 3])
    distance = np.linalg.norm(xyz[:, None] - xyz[None], axis=2)
    apart = distance.copy()
    np.fill_diagonal(apart, np.inf)
    gap = max(float(apart.min()), 1e-9)
    cells = _cells(xyz, distance, gap) if board.coordinates is not None else None
    scale = (1.5 if cells else 2.0 if net else 1.0) * CELL / gap
    low = np.min([xyz.min(axis=0), *(f.min(axis=0) for f in faces2d)], axis=0)
    xy = (xyz - low) * scale + 2 * CELL
    flat = [(f - low) * scale + 2 * CELL for f in faces2d]
    width, height = (np.max([xy.max(axis=0), *(f.max(axis=0) for f in flat)], axis=0) + 2 * CELL).tolist()
    marked = set(board.asterisms[highlight]) if highlight is not None else set()
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_i(width)}" height="{_i(height)}" '
        'font-family="sans-serif">',
        f'<rect width="{_i(width)}" height="{_i(height)}" fill="white"/>',
    ]

    def corners(points) -> str:
        return " ".join(f"{_f(x)},{_f(height - y)}" for x, y in points)

    for face in flat:
        out.append(f'<polygon class="face" points="{corners(face)}" fill="#f4f4f4" stroke="none"/>')
    if cells is None and net is None:
        for (x1, y1), (x2, y2) in _straight_asterisms(board, xy):
            out.append(
                f'<line x1="{_f(x1)}" y1="{_f(height - y1)}" x2="{_f(x2)}" y2="{_f(height - y2)}" '
                'stroke="#bbb" stroke-width="2"/>'
            )
    for p, (x, y) in enumerate(xy):
        fill = "#ffd166" if p in marked else "white"
        if cells:
            shape = [(x + dx * scale, y + dy * scale) for dx, dy in cells[p]]
            out.append(f'<polygon class="point" points="{corners(shape)}" fill="{fill}" stroke="#444"/>')
        else:
            out.append(
                f'<circle class="point" cx="{_f(x)}" cy="{_f(height - y)}" r="{_f(CELL * 0.42)}" '
                f'fill="{fill}" stroke="#666"/>'
            )
    for face in flat:
        out.append(f'<polygon points="{corners(face)}" fill="none" stroke="black" stroke-width="2.5"/>')
    size = int(gap * scale * 0.45) if cells else CELL // 2
    for p, (x, y) in enumerate(xy):
        if labels[p] is not None:
            out.append(_text(x, height - y, labels[p], p in clues, size))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _net(board: Board) -> tuple[np.ndarray, list[np.ndarray]] | None:
    """The points' 2-D places and the faces' 2-D corners in a net of the polyhedron (None: every tree tried
    overlaps).  Each face is laid flat by an isometry of its plane; a child face is turned about the edge it
    shares with its parent, so the net reads as the solid seen from outside.  A point on several faces (an
    edge midpoint) is drawn on the first one laid."""
    faces, centre = board.faces, board.coordinates.mean(axis=0)
    normals = []
    for face in faces:
        n = np.cross(face[1] - face[0], face[2] - face[0])
        n /= np.linalg.norm(n)
        normals.append(n if n @ (face.mean(axis=0) - centre) > 0 else -n)
    shared: dict[frozenset, list[tuple[int, np.ndarray, np.ndarray]]] = {}
    for k, face in enumerate(faces):
        for i in range(len(face)):
            a, b = face[i], face[(i + 1) % len(face)]
            shared.setdefault(frozenset((_key(a), _key(b))), []).append((k, a, b))
    neighbours: list[list[tuple[int, np.ndarray, np.ndarray]]] = [[] for _ in faces]
    for (k, a, b), *rest in shared.values():
        for j, _, _ in rest:
            neighbours[k].append((j, a, b))
            neighbours[j].append((k, a, b))
    homes = [_faces_holding(q, faces, normals) for q in board.coordinates]
    for root in range(len(faces)):
        for depth_first in (False, True):
            maps = _unfold(root, faces, normals, neighbours, depth_first)
            order = {k: rank for rank, k in enumerate(maps)}
            xy = np.array(
                [
                    _apply(maps[min(home, key=order.get)], q)
                    for q, home in zip(board.coordinates, homes, strict=True)
                ]
            )
            flat = [np.array([_apply(maps[k], c) for c in face]) for k, face in enumerate(faces)]
            if not _overlaps(flat, xy, homes, order):
                return xy, flat
    return None


def _key(v: np.ndarray) -> tuple:
    return tuple(np.round(v, 6))


def _faces_holding(q: np.ndarray, faces, normals) -> list[int]:
    """The faces a point lies on (in their plane, inside their boundary)."""
    found = []
    for k, (face, n) in enumerate(zip(faces, normals, strict=True)):
        if abs((q - face[0]) @ n) > 1e-6:
            continue
        turns = [np.cross(face[(i + 1) % len(face)] - face[i], q - face[i]) @ n for i in range(len(face))]
        if all(t > -1e-6 for t in turns) or all(t < 1e-6 for t in turns):
            found.append(k)
    return found


def _unfold(root: int, faces, normals, neighbours, depth_first: bool) -> dict[int, tuple]:
    """Per face, in the order laid: the isometry (origin, x, y in 3-D; origin, x, y in 2-D) laying it flat."""
    x = faces[root][1] - faces[root][0]
    x /= np.linalg.norm(x)
    maps = {
        root: (
            faces[root][0],
            x,
            np.cross(normals[root], x),
            np.zeros(2),
            np.array([1.0, 0]),
            np.array([0, 1.0]),
        )
    }
    todo = [root]
    while todo:
        k = todo.pop() if depth_first else todo.pop(0)
        for j, a, b in neighbours[k]:
            if j in maps:
                continue
            a2, b2 = _apply(maps[k], a), _apply(maps[k], b)
            x3 = (b - a) / np.linalg.norm(b - a)
            x2 = (b2 - a2) / np.linalg.norm(b2 - a2)
            maps[j] = (a, x3, np.cross(normals[j], x3), a2, x2, np.array([-x2[1], x2[0]]))
            todo.append(j)
    return maps


def _apply(m: tuple, q: np.ndarray) -> np.ndarray:
    o3, x3, y3, o2, x2, y2 = m
    return o2 + ((q - o3) @ x3) * x2 + ((q - o3) @ y3) * y2


def _cross2(u: np.ndarray, v: np.ndarray) -> float:
    return float(u[0] * v[1] - u[1] * v[0])


def _overlaps(flat: list[np.ndarray], xy: np.ndarray, homes: list[list[int]], order: dict) -> bool:
    """Whether some face's centre or point falls inside another face of the net."""
    probes = [(k, face.mean(axis=0)) for k, face in enumerate(flat)]
    probes += [(min(home, key=order.get), p) for home, p in zip(homes, xy, strict=True)]
    for k, face in enumerate(flat):
        size = np.linalg.norm(face - face.mean(axis=0), axis=1).max()
        for owner, p in probes:
            if owner == k:
                continue
            turns = [_cross2(face[(i + 1) % len(face)] - face[i], p - face[i]) for i in range(len(face))]
            if all(t > 1e-6 * size for t in turns) or all(t < -1e-6 * size for t in turns):
                return True
    return False


def _cells(xy: np.ndarray, distance: np.ndarray, gap: float) -> list[list[tuple]] | None:
    """Each point's cell (corner offsets from its centre) when the points are the cell centres of a
    triangular or square grid, else None.  A triangle's neighbours across its edges lie 2/3 of a height away,
    at 30, 150 and 270 degrees when it points up, at 90, 210 and 330 when it points down; a square's lie one
    side away at multiples of 90 degrees."""
    h = 1.5 * gap  # a triangle's centroid is a third of its height from each edge
    half = h / math.sqrt(3)  # half a side
    shapes = []
    for p in range(len(xy)):
        near = np.flatnonzero(np.abs(distance[p] - gap) < 1e-6 * gap)
        angles = [math.degrees(math.atan2(*(xy[q] - xy[p])[::-1])) for q in near]
        turns = {round(a % 120, 3) % 120 for a in angles}
        if turns == {30.0}:
            shapes.append([(0.0, 2 * h / 3), (-half, -h / 3), (half, -h / 3)])
        elif turns == {90.0}:
            shapes.append([(0.0, -2 * h / 3), (-half, h / 3), (half, h / 3)])
        elif near.size and {round(a % 90, 3) % 90 for a in angles} == {0.0}:
            g = gap / 2
            shapes.append([(-g, -g), (g, -g), (g, g), (-g, g)])
        else:
            return None
    return shapes


def _straight_asterisms(board: Board, xy: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The two ends of each asterism whose points lie on one line (and are more than two)."""
    ends = []
    for asterism in board.asterisms:
        pts = xy[list(asterism)]
        if len(pts) < 3:
            continue
        far = np.linalg.norm(pts[:, None] - pts[None], axis=2)
        i, j = np.unravel_index(np.argmax(far), far.shape)
        direction = (pts[j] - pts[i]) / max(far[i, j], 1e-9)
        off = (pts - pts[i]) @ np.array([-direction[1], direction[0]])
        if np.all(np.abs(off) < 1e-6 * max(far[i, j], 1.0)):
            ends.append((pts[i], pts[j]))
    return ends


def _circle(n: int) -> np.ndarray:
    angles = 2 * np.pi * np.arange(n) / n
    return np.column_stack([np.cos(angles), np.sin(angles)]) * n / 6


def render_sheet(pictures: list[str], captions: list[str], columns: int = 2) -> str:
    """One printable SVG page holding several pictures (each an SVG document) in `columns` columns, each
    with its caption below."""
    sizes = []
    for picture in pictures:
        found = re.search(r'<svg[^>]*width="([0-9.]+)"[^>]*height="([0-9.]+)"', picture)
        sizes.append((float(found.group(1)), float(found.group(2))))
    cell_w = max(w for w, _ in sizes) + 20
    cell_h = max(h for _, h in sizes) + 40
    rows = -(-len(pictures) // columns)
    width, height = columns * cell_w, rows * cell_h
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        'font-family="sans-serif">',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>',
    ]
    for k, (picture, caption, (w, h)) in enumerate(zip(pictures, captions, sizes, strict=True)):
        x = (k % columns) * cell_w + (cell_w - w) / 2
        y = (k // columns) * cell_h + 10
        inner = picture[picture.index(">", picture.index("<svg")) + 1 : picture.rindex("</svg>")]
        out.append(f'<svg x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{h:.0f}">{inner}</svg>')
        out.append(
            f'<text x="{x + w / 2:.0f}" y="{y + h + 22:.0f}" text-anchor="middle" font-size="16">'
            f"{escape(caption)}</text>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def svg_to_png(svg: str) -> bytes:
    """The picture as PNG, through cairosvg (the optional extra 'png', which needs the cairo library)."""
    try:
        import cairosvg
    except (ImportError, OSError) as err:
        raise RenderError(
            "PNG output needs the 'png' extra (in the checkout: pip install -e '.[png]') and the cairo "
            f"library: {err}"
        ) from None
    return cairosvg.svg2png(bytestring=svg.encode())
