"""Boards as SVG pictures, written directly (no drawing library).

Square grids are drawn as cells, with thick borders between the regions (the asterisms that are neither
rows nor columns and that together partition the grid: Sudoku boxes, jigsaw regions) and the other extra
asterisms (diagonals, windows) shaded.  Other boards are drawn from their points' coordinates (3-D ones
seen from above, leaning so that front and back do not meet): a disc per point.  Clues are bold, labels of
a solution light; one asterism can be highlighted.
"""

from __future__ import annotations

from html import escape

import numpy as np

from dlx_latin.boards import Board
from dlx_latin.latin import PartialBoard

CELL = 40
SHADES = ["#fde2e4", "#e2ece9", "#dfe7fd", "#fff1c1", "#e8dff5", "#d7f0f4"]


def _kinds(board: Board) -> tuple[list[int], list[int]]:
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


def _text(x: float, y: float, label: object, clue: bool, size: int) -> str:
    weight, colour = ("bold", "black") if clue else ("normal", "#888")
    return (
        f'<text x="{x:.1f}" y="{y + size * 0.35:.1f}" text-anchor="middle" font-size="{size}" '
        f'font-weight="{weight}" fill="{colour}">{escape(str(label))}</text>'
    )


def render_svg(pb: PartialBoard, solution: list | None = None, highlight: int | None = None) -> str:
    """An SVG document of the board with its clues (and a solution's other labels, if given)."""
    board = pb.board
    if highlight is not None and not 0 <= highlight < len(board.asterisms):
        raise ValueError(f"asterism {highlight} is not one of the board's 0..{len(board.asterisms) - 1}")
    labels = [pb.clues.get(p, solution[p] if solution else None) for p in range(board.n_points)]
    if board.shape:
        return _grid(pb, labels, highlight)
    return _points(pb, labels, highlight)


def _grid(pb: PartialBoard, labels: list, highlight: int | None) -> str:
    board = pb.board
    rows, cols = board.shape
    regions, extra = _kinds(board)
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
            out.append(_text(x, y, labels[p], p in pb.clues, CELL // 2))
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


def _points(pb: PartialBoard, labels: list, highlight: int | None) -> str:
    board = pb.board
    xyz = np.asarray(board.coordinates if board.coordinates is not None else _circle(board.n_points), float)
    if xyz.shape[1] == 3:  # seen from above, leaning: x + z/3, y + z/3
        xyz = np.column_stack([xyz[:, 0] + xyz[:, 2] / 3, xyz[:, 1] + xyz[:, 2] / 3])
    gaps = [np.min(np.linalg.norm(xyz - xyz[p], axis=1)[np.arange(len(xyz)) != p]) for p in range(len(xyz))]
    scale = CELL / max(min(gaps), 1e-9)
    xy = (xyz - xyz.min(axis=0)) * scale + CELL
    width, height = (xy.max(axis=0) + CELL).tolist()
    marked = set(board.asterisms[highlight]) if highlight is not None else set()
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        'font-family="sans-serif">',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>',
    ]
    for p, (x, y) in enumerate(xy):
        fill = "#ffd166" if p in marked else "white"
        out.append(
            f'<circle class="point" cx="{x:.1f}" cy="{height - y:.1f}" r="{CELL * 0.42:.1f}" fill="{fill}" '
            'stroke="#666"/>'
        )
        if labels[p] is not None:
            out.append(_text(x, height - y, labels[p], p in pb.clues, CELL // 2))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _circle(n: int) -> np.ndarray:
    angles = 2 * np.pi * np.arange(n) / n
    return np.column_stack([np.cos(angles), np.sin(angles)]) * n / 6
