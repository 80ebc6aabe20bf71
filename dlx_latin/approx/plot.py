"""The ratio distributions of a bench run as an SVG picture, written directly (no plotting library).

One strip per algorithm on a 0..1 axis of |A| / |A*|: a dot per instance (spread vertically so equal
ratios stay visible), a tick at the mean and a red line at the proven bound's check value.
"""

from __future__ import annotations

import random
from html import escape

from dlx_latin.approx.experiments import Row

WIDTH, LEFT, RIGHT, STRIP, TOP = 640, 120, 30, 60, 40


def ratio_svg(rows: list[Row], title: str) -> str:
    """An SVG document: the rows' ratios, the mean of each, and the lowest ratio each bound allows."""
    span = WIDTH - LEFT - RIGHT
    height = TOP + STRIP * len(rows) + 40
    x = lambda ratio: LEFT + span * ratio  # noqa: E731 - a local scale
    rng = random.Random(0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" font-family="sans-serif" '
        'font-size="12">',
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
        f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-size="14">{escape(title)}</text>',
    ]
    bottom = TOP + STRIP * len(rows)
    for tick in range(11):
        at = x(tick / 10)
        out.append(f'<line x1="{at}" y1="{TOP}" x2="{at}" y2="{bottom}" stroke="#ddd"/>')
        out.append(f'<text x="{at}" y="{bottom + 16}" text-anchor="middle">{tick / 10:.1f}</text>')
    out.append(f'<text x="{LEFT + span / 2}" y="{bottom + 32}" text-anchor="middle">|A| / |A*|</text>')
    for k, row in enumerate(rows):
        middle = TOP + STRIP * k + STRIP / 2
        out.append(f'<text x="{LEFT - 8}" y="{middle + 4}" text-anchor="end">{escape(row.algorithm)}</text>')
        floor = float(row.floor)
        out.append(
            f'<line x1="{x(floor)}" y1="{middle - 22}" x2="{x(floor)}" y2="{middle + 22}" stroke="red" '
            f'stroke-width="2"><title>bound {escape(row.theorem)}</title></line>'
        )
        for ratio in row.ratios:
            dy = rng.uniform(-16, 16)
            out.append(
                f'<circle cx="{x(ratio):.1f}" cy="{middle + dy:.1f}" r="2.5" fill="#1f77b4" opacity="0.6"/>'
            )
        mean = x(row.mean)
        out.append(
            f'<line x1="{mean}" y1="{middle - 20}" x2="{mean}" y2="{middle + 20}" '
            'stroke="black" stroke-width="2"/>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
