"""Small inline SVG charts for the validation report: no plotting library, same bytes every run."""

from __future__ import annotations

import math
from html import escape
from typing import Sequence

WIDTH = 560
BAR_COLOR = "#3b6ea5"
MARK_COLOR = "#c0392b"


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _frame(height: int, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(title)}" '
            f'font-family="DejaVu Sans, sans-serif" font-size="11">'
            f"<title>{escape(title)}</title>{''.join(body)}</svg>")


def histogram(bins: Sequence[tuple[int, int, int]], title: str, unit: str) -> str:
    """Vertical bars, one per (low, high, count) bin, labelled under the axis."""
    height, left, bottom, top = 220, 44, 36, 14
    plot_width, plot_height = WIDTH - left - 12, height - bottom - top
    peak = max((count for _, _, count in bins), default=0) or 1
    step = plot_width / max(len(bins), 1)
    body = [f'<line x1="{left}" y1="{height - bottom}" x2="{WIDTH - 12}" y2="{height - bottom}" stroke="#444"/>',
            f'<text x="{left - 6}" y="{top + 4}" text-anchor="end">{peak}</text>',
            f'<text x="{left - 6}" y="{height - bottom}" text-anchor="end">0</text>',
            f'<text x="{left + plot_width / 2:.1f}" y="{height - 4}" text-anchor="middle">{escape(unit)}</text>']
    # Ticks at bin edges, a few of them, so the labels never collide.
    label_every = max(1, -(-len(bins) // 6))
    for index, (low, high, count) in enumerate(bins):
        bar = plot_height * count / peak
        x = left + index * step
        label = str(low) if high - low <= 1 else f"{low}–{high - 1}"
        body.append(f'<rect x="{x + 1:.1f}" y="{height - bottom - bar:.1f}" width="{max(step - 2, 1):.1f}" '
                    f'height="{bar:.1f}" fill="{BAR_COLOR}"><title>{escape(label)}: {count}</title></rect>')
        if index % label_every == 0:
            body.append(f'<line x1="{x:.1f}" y1="{height - bottom}" x2="{x:.1f}" y2="{height - bottom + 4}" '
                        f'stroke="#444"/><text x="{x:.1f}" y="{height - bottom + 15}" text-anchor="middle">'
                        f"{low}</text>")
    return _frame(height, body, title)


def intervals(rows: Sequence[tuple[str, float, float, float]], title: str, reference: float | None = None) -> str:
    """Horizontal dot-and-whisker rows (label, value, low, high) on a 0..1 scale, with an optional
    reference line (a fair seat's share)."""
    row_height, left, top = 24, 90, 20
    height = top + row_height * len(rows) + 28
    plot_width = WIDTH - left - 20

    def x(value: float) -> float:
        return left + plot_width * min(max(value, 0.0), 1.0)

    body = []
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        body.append(f'<line x1="{x(tick):.1f}" y1="{top - 6}" x2="{x(tick):.1f}" y2="{height - 22}" stroke="#ddd"/>'
                    f'<text x="{x(tick):.1f}" y="{height - 8}" text-anchor="middle">{int(tick * 100)}%</text>')
    if reference is not None:
        body.append(f'<line x1="{x(reference):.1f}" y1="{top - 10}" x2="{x(reference):.1f}" y2="{height - 22}" '
                    f'stroke="{MARK_COLOR}" stroke-dasharray="4 3"><title>fair share {reference:.1%}</title></line>')
    for index, (label, value, low, high) in enumerate(rows):
        y = top + row_height * index + row_height / 2
        body.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{escape(label)}</text>'
                    f'<line x1="{x(low):.1f}" y1="{y:.1f}" x2="{x(high):.1f}" y2="{y:.1f}" stroke="{BAR_COLOR}" '
                    f'stroke-width="2"/><circle cx="{x(value):.1f}" cy="{y:.1f}" r="4" fill="{BAR_COLOR}">'
                    f"<title>{escape(label)}: {value:.1%} ({low:.1%}–{high:.1%})</title></circle>")
    return _frame(height, body, title)


def bars(rows: Sequence[tuple[str, float, str]], title: str) -> str:
    """Horizontal bars (label, value 0..1, caption): card usage and the like."""
    row_height, left = 18, 200
    height = row_height * len(rows) + 10
    plot_width = WIDTH - left - 70
    body = []
    for index, (label, value, caption) in enumerate(rows):
        y = 5 + row_height * index
        width = plot_width * min(max(value, 0.0), 1.0)
        body.append(f'<text x="{left - 6}" y="{y + 12}" text-anchor="end">{escape(label[:32])}</text>'
                    f'<rect x="{left}" y="{y + 2}" width="{width:.1f}" height="{row_height - 5}" fill="{BAR_COLOR}"/>'
                    f'<text x="{left + width + 4:.1f}" y="{y + 12}">{escape(caption)}</text>')
    return _frame(height, body, title)


def diverging(rows: Sequence[tuple[str, float, float, float]], title: str, span: float | None = None,
              scale: float = 100, unit: str = "points") -> str:
    """Horizontal bars from a zero line (label, value, low, high), with whiskers for the interval,
    already sorted by the caller; values are shown times `scale` in `unit` (win-rate differences
    as points by default)."""
    row_height, left, right, top = 18, 200, 24, 22
    height = top + row_height * len(rows) + 24
    plot_width = WIDTH - left - right
    # The widest whisker, rounded up to whole steps of 5 (in the shown unit) so the ticks read easily.
    widest = max([abs(v) for _, value, low, high in rows for v in (value, low, high)] + [0.01])
    reach = span or math.ceil(widest * scale / 5) * 5 / scale
    zero = left + plot_width / 2

    def x(value: float) -> float:
        return zero + plot_width / 2 * max(-1.0, min(1.0, value / reach))

    body = [f'<line x1="{zero:.1f}" y1="{top - 8}" x2="{zero:.1f}" y2="{height - 20}" stroke="#444"/>']
    for tick in (-reach, -reach / 2, reach / 2, reach):
        body.append(f'<line x1="{x(tick):.1f}" y1="{top - 8}" x2="{x(tick):.1f}" y2="{height - 20}" stroke="#ddd"/>'
                    f'<text x="{x(tick):.1f}" y="{height - 6}" text-anchor="middle">{tick * scale:+.0f}</text>')
    body.append(f'<text x="{zero:.1f}" y="{height - 6}" text-anchor="middle">0 {escape(unit)}</text>')
    for index, (label, value, low, high) in enumerate(rows):
        y = top + row_height * index
        start, end = sorted((x(0), x(value)))
        color = BAR_COLOR if value >= 0 else MARK_COLOR
        body.append(f'<text x="{left - 6}" y="{y + 12}" text-anchor="end">{escape(label[:32])}</text>'
                    f'<rect x="{start:.1f}" y="{y + 3}" width="{max(end - start, 0.5):.1f}" height="{row_height - 6}" '
                    f'fill="{color}"><title>{escape(label)}: {value * scale:+.1f} {escape(unit)} '
                    f'({low * scale:+.1f} to {high * scale:+.1f})</title></rect>'
                    f'<line x1="{x(low):.1f}" y1="{y + row_height / 2:.1f}" x2="{x(high):.1f}" '
                    f'y2="{y + row_height / 2:.1f}" stroke="#222"/>')
    return _frame(height, body, title)
