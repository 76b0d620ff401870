"""Small drawing helpers shared by faces and backs: colours set on the canvas, shapes, centred
symbols. (Colour values themselves, `#rrggbb` and the colour functions, are
`generator.deck.layouts.colours`, where the deck's checks read them too.)"""

from __future__ import annotations

import math
import zlib

# paint.mix() and the others, as the drawing code names them
from ..deck.layouts.colours import color_value, darken, ink_on, lighten, luminance, mix, rgb, to_hex  # noqa: F401
from . import fonts


def set_fill(canvas, color: str) -> None:
    """Set the fill colour from #rrggbb (parsed once; reportlab's own colour parsing is slow)."""
    canvas.setFillColorRGB(*rgb(color))


def set_stroke(canvas, color: str) -> None:
    canvas.setStrokeColorRGB(*rgb(color))


def fill_rect(canvas, x: float, y: float, w: float, h: float, color: str) -> None:
    set_fill(canvas, color)
    canvas.rect(x, y, w, h, stroke=0, fill=1)


def round_rect(canvas, x, y, w, h, radius, *, fill: str | None = None, stroke: str | None = None,
               line_width: float = 0.5) -> None:
    if fill:
        set_fill(canvas, fill)
    if stroke:
        set_stroke(canvas, stroke)
        canvas.setLineWidth(line_width)
    canvas.roundRect(x, y, w, h, radius, stroke=1 if stroke else 0, fill=1 if fill else 0)


def star_path(canvas, cx: float, cy: float, outer: float, inner: float, points: int = 5,
              rotation: float = 90.0):
    path = canvas.beginPath()
    for index in range(points * 2):
        radius = outer if index % 2 == 0 else inner
        angle = math.radians(rotation + index * 180.0 / points)
        x, y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
        if index == 0:
            path.moveTo(x, y)
        else:
            path.lineTo(x, y)
    path.close()
    return path


def star(canvas, cx, cy, outer, color, inner_ratio: float = 0.42, points: int = 5) -> None:
    set_fill(canvas, color)
    canvas.drawPath(star_path(canvas, cx, cy, outer, outer * inner_ratio, points), stroke=0, fill=1)


def polygon(canvas, points, *, fill: str | None = None, stroke: str | None = None,
            line_width: float = 0.5) -> None:
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        path.lineTo(*point)
    path.close()
    if fill:
        set_fill(canvas, fill)
    if stroke:
        set_stroke(canvas, stroke)
        canvas.setLineWidth(line_width)
    canvas.drawPath(path, stroke=1 if stroke else 0, fill=1 if fill else 0)


def _ink_box(text: str, face: str) -> tuple[str, tuple[float, float, float, float]]:
    """The face that draws `text` and its ink box in ems (a cap-height box for several characters)."""
    chosen = fonts.font_for(face, text[0]) or face
    if len(text) == 1:
        return chosen, fonts.glyph_box(chosen, text)
    return chosen, (0.0, 0.0, fonts.width(chosen, text, 1.0), 0.73)


def symbol(canvas, char: str, cx: float, cy: float, height: float, color: str,
           face: str = "sans", rotate: bool = False) -> None:
    """Draw a glyph (or short string) with its ink box centred on (cx, cy), `height` points tall."""
    if not char:
        return
    chosen, (xmin, ymin, xmax, ymax) = _ink_box(char, face)
    ink = ymax - ymin
    if ink <= 0:
        return
    size = height / ink
    canvas.saveState()
    canvas.translate(cx, cy)
    if rotate:
        canvas.rotate(180)
    set_fill(canvas, color)
    canvas.setFont(fonts.font(chosen), size)
    canvas.drawString(-(xmin + xmax) / 2 * size, -(ymin + ymax) / 2 * size, char)
    canvas.restoreState()


def symbol_width(char: str, height: float, face: str = "sans") -> float:
    """Ink width of `char` drawn by `symbol` at `height`."""
    if not char:
        return 0.0
    _chosen, (xmin, ymin, xmax, ymax) = _ink_box(char, face)
    ink = ymax - ymin
    return 0.0 if ink <= 0 else (xmax - xmin) * height / ink


def clip_to(canvas, x, y, w, h) -> None:
    """Nothing drawn after this (until the caller's restoreState) leaves the box."""
    clip = canvas.beginPath()
    clip.rect(x, y, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)


def pattern(canvas, kind: str, x, y, w, h, color: str, step: float) -> None:
    """Fill a box with a repeating pattern centred on the box, symmetric under a half turn.

    Only the repeats that reach the box are drawn: patterns are most of a back's drawing.
    """
    cx, cy = x + w / 2, y + h / 2
    half_w, half_h = w / 2 + step, h / 2 + step  # a repeat beyond the box, so edges are covered
    canvas.saveState()
    clip_to(canvas, x, y, w, h)
    set_stroke(canvas, color)
    set_fill(canvas, color)
    canvas.setLineWidth(step * 0.09)
    if kind == "stripes":  # diagonal bands at 45°
        canvas.setLineWidth(step * 0.32)
        reach = int((half_w + half_h) / step) + 1
        for index in range(-reach, reach + 1):
            offset = cx + index * step
            canvas.line(offset - half_h, cy - half_h, offset + half_h, cy + half_h)
    elif kind == "dots":  # offset rows of dots
        rows, columns = int(half_h / (step * 0.87)) + 1, int(half_w / step) + 1
        for row in range(-rows, rows + 1):
            shift = step / 2 if row % 2 else 0.0
            for column in range(-columns, columns + 1):
                canvas.circle(cx + column * step + shift, cy + row * step * 0.87, step * 0.17, stroke=0, fill=1)
    elif kind == "waves":  # rows of sine-like curves
        rows, columns = int(half_h / (step * 0.7)) + 1, int(half_w / step) + 1
        for row in range(-rows, rows + 1):
            base = cy + row * step * 0.7
            path = canvas.beginPath()
            path.moveTo(cx - columns * step, base)
            for column in range(-columns, columns):
                start = cx + column * step
                path.curveTo(start + step * 0.25, base + step * 0.3, start + step * 0.25, base + step * 0.3,
                             start + step * 0.5, base)
                path.curveTo(start + step * 0.75, base - step * 0.3, start + step * 0.75, base - step * 0.3,
                             start + step, base)
            canvas.drawPath(path, stroke=1, fill=0)
    else:  # diamonds: a lattice of crossing diagonal lines
        slope = 1.4
        run = half_h / slope
        reach = int((half_w + run) / step) + 1
        for index in range(-reach, reach + 1):
            offset = cx + index * step
            canvas.line(offset - run, cy - half_h, offset + run, cy + half_h)
            canvas.line(offset + run, cy - half_h, offset - run, cy + half_h)
    canvas.restoreState()


def stable_index(text: str, modulo: int) -> int:
    """A deterministic small number from a string (Python's hash() changes per process)."""
    return zlib.crc32(text.encode()) % modulo
