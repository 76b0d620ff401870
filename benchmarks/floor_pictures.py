"""The pictures `deckgen print` draws on a suited deck's cards, as plain reportlab calls, for
the floors (benchmarks/floor_print.py, benchmarks/floor_images.py); no deckgen code.

A court card carries a double-ended figure, a Wizard a wizard under a starry sky, a Jester a
jester on a diamond ground. These are not deckgen's drawings, but the same kind and amount of
vector work: about as many paths, curves, fills, strokes and glyphs per picture as deckgen's
(benchmarks/bench_render.py prints the content-stream sizes of both PDFs), so the floors pay
for drawing the pictures the user gets, and no more.
"""

from __future__ import annotations

import math

LINE, GOLD, SKIN, WHITE = "#2a2118", "#e0b13a", "#f3d5b5", "#fffdf6"


def _shape(canvas, points, fill=None, stroke=LINE, width=0.5):
    """A closed path through points; ('c', p1, p2, p3) items are Bézier curves."""
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for point in points[1:]:
        if point[0] == "c":
            path.curveTo(*point[1], *point[2], *point[3])
        else:
            path.lineTo(*point)
    path.close()
    if fill:
        canvas.setFillColor(fill)
    if stroke:
        canvas.setStrokeColor(stroke)
        canvas.setLineWidth(width)
    canvas.drawPath(path, stroke=1 if stroke else 0, fill=1 if fill else 0)


def _glyph(canvas, glyph, x, y, size, color):
    canvas.setFillColor(color)
    canvas.setFont("Sans", size)
    canvas.drawCentredString(x, y - size * 0.35, glyph)


def _head(canvas, cx, cy, rx, ry, width):
    """A face: head, eyes, brows, nose, mouth."""
    canvas.setFillColor(SKIN)
    canvas.setStrokeColor(LINE)
    canvas.setLineWidth(width)
    canvas.ellipse(cx - rx, cy - ry, cx + rx, cy + ry, stroke=1, fill=1)
    canvas.setFillColor(LINE)
    for side in (-1, 1):
        ex = cx + side * rx * 0.4
        canvas.ellipse(ex - rx * 0.09, cy + ry * 0.12, ex + rx * 0.09, cy + ry * 0.3, stroke=0, fill=1)
        canvas.line(ex - rx * 0.2, cy + ry * 0.42, ex + rx * 0.2, cy + ry * 0.46)
    path = canvas.beginPath()
    path.moveTo(cx, cy + ry * 0.15)
    path.lineTo(cx - rx * 0.12, cy - ry * 0.22)
    path.lineTo(cx + rx * 0.05, cy - ry * 0.25)
    path.moveTo(cx - rx * 0.3, cy - ry * 0.48)
    path.curveTo(cx - rx * 0.1, cy - ry * 0.6, cx + rx * 0.1, cy - ry * 0.6, cx + rx * 0.3, cy - ry * 0.48)
    canvas.drawPath(path, stroke=1, fill=0)


def _court_half(canvas, letter, s, hh, primary, secondary, glyph, color):
    width = max(0.35, s * 0.012)
    shoulder = 0.42 * hh
    x0 = -0.62 * s if letter == "J" else 0.6 * s  # the held item: halberd, flower stem or sword
    _shape(canvas, [(x0, 0.1 * hh), (x0 + 0.05 * s, 0.1 * hh), (x0 + 0.05 * s, 0.86 * hh),
                    (x0 + 0.025 * s, 0.93 * hh), (x0, 0.86 * hh)], fill="#dfe3ea", width=width)
    _shape(canvas, [(x0 - 0.1 * s, 0.36 * hh), (x0 + 0.15 * s, 0.36 * hh), (x0 + 0.15 * s, 0.39 * hh),
                    (x0 - 0.1 * s, 0.39 * hh)], fill=GOLD, width=width)
    for side, fill in ((-1, primary), (1, secondary)):  # the robe's two panels, a chevron trim each
        _shape(canvas, [(side * 0.8 * s, 0), (side * 0.8 * s, 0.24 * hh),
                        ("c", (side * 0.78 * s, 0.38 * hh), (side * 0.6 * s, shoulder), (side * 0.3 * s, shoulder)),
                        (0, shoulder), (0, 0)], fill=fill, width=width)
        for row in range(2):
            y0 = (0.07 + row * 0.1) * hh
            _shape(canvas, [(side * 0.22 * s, y0), (side * 0.5 * s, y0 + 0.05 * hh), (side * 0.78 * s, y0),
                            (side * 0.78 * s, y0 + 0.03 * hh), (side * 0.5 * s, y0 + 0.08 * hh),
                            (side * 0.22 * s, y0 + 0.03 * hh)], fill=secondary if side < 0 else primary, stroke=None)
    _shape(canvas, [(-0.13 * s, 0), (-0.13 * s, shoulder), (0.13 * s, shoulder), (0.13 * s, 0)], fill=GOLD,
           width=width)
    for row in range(3):
        _glyph(canvas, glyph, 0, (0.07 + row * 0.12) * hh, 0.09 * hh, color)
    canvas.setFillColor(SKIN)
    canvas.circle(x0 + 0.025 * s, 0.31 * hh, 0.06 * s, stroke=1, fill=1)
    canvas.rect(-0.08 * s, shoulder - 0.02 * hh, 0.16 * s, 0.08 * hh, stroke=0, fill=1)
    for index in range(8):  # the collar's points
        x = (-0.4 + index * 0.1) * s
        _shape(canvas, [(x, shoulder - 0.03 * hh), (x + 0.05 * s, shoulder + 0.05 * hh),
                        (x + 0.1 * s, shoulder - 0.03 * hh)], fill=WHITE, width=width * 0.8)
    head_y, head_rx, head_ry = 0.63 * hh, 0.23 * s, 0.16 * hh
    _head(canvas, 0, head_y, head_rx, head_ry, width)
    _shape(canvas, [(-head_rx * 0.95, head_y - 0.03 * hh),  # beard or hair
                    ("c", (-head_rx, head_y - 0.27 * hh), (head_rx, head_y - 0.27 * hh), (head_rx * 0.95, head_y - 0.03 * hh)),
                    ("c", (0.1 * s, head_y - 0.1 * hh), (-0.1 * s, head_y - 0.1 * hh), (-head_rx * 0.95, head_y - 0.03 * hh))],
           fill="#d9d4c7", width=width)
    base = head_y + head_ry - 0.035 * hh  # the crown, its jewels and band
    points = [(-0.25 * s, base), (-0.27 * s, base + 0.16 * hh), (-0.15 * s, base + 0.08 * hh), (0, base + 0.2 * hh),
              (0.15 * s, base + 0.08 * hh), (0.27 * s, base + 0.16 * hh), (0.25 * s, base)]
    _shape(canvas, points, fill=GOLD, width=width)
    for px, py in points[1:-1]:
        canvas.circle(px, py, 0.03 * s, stroke=1, fill=1)
    canvas.rect(-0.25 * s, base, 0.5 * s, 0.045 * hh, stroke=0, fill=1)
    for index, jewel in enumerate(("#c2362f", "#2c56a0", "#c2362f")):
        canvas.setFillColor(jewel)
        canvas.circle((index - 1) * 0.15 * s, base + 0.0225 * hh, 0.025 * s, stroke=0, fill=1)
    _glyph(canvas, glyph, -0.76 * s, 0.85 * hh, 0.15 * hh, color)


def court(canvas, letter, x, y, w, h, color, glyph):
    """A double-ended court figure in the box (x, y, w, h)."""
    primary = "#2b4f8f" if color.lower() in ("#1a1a1a", "#000000") else color
    secondary = "#c2362f" if primary == "#2b4f8f" else "#2c56a0"
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x, y, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setFillColor("#fbf6e9")
    canvas.rect(x, y, w, h, stroke=0, fill=1)
    for turned in (False, True):
        canvas.saveState()
        canvas.translate(x + w / 2, y + h / 2)
        if turned:
            canvas.rotate(180)
        _court_half(canvas, letter, w / 2, h / 2, primary, secondary, glyph, color)
        canvas.restoreState()
    canvas.restoreState()
    canvas.setStrokeColor(GOLD)
    canvas.line(x, y + h / 2, x + w, y + h / 2)


def _stars(canvas, x, y, w, h, color, count):
    canvas.setFillColor(color)
    for index in range(count):
        cx, cy = x + w * (0.06 + 0.88 * ((index * 0.618) % 1)), y + h * (0.06 + 0.88 * ((index * 0.382 + 0.13) % 1))
        radius = min(w, h) * (0.012 + 0.012 * ((index * 7) % 3))
        path = canvas.beginPath()
        for point in range(10):
            angle = math.pi / 2 + point * math.pi / 5
            length = radius if point % 2 == 0 else radius * 0.42
            (path.moveTo if point == 0 else path.lineTo)(cx + length * math.cos(angle), cy + length * math.sin(angle))
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)


def wizard(canvas, x, y, w, h, robe):
    """A wizard with hat, beard and a glowing staff under stars and a moon."""
    width, unit = max(0.35, w * 0.006), min(w, h * 0.7)
    canvas.setFillColor("#1d2149")
    canvas.rect(x, y, w, h, stroke=0, fill=1)
    _stars(canvas, x, y + h * 0.35, w, h * 0.65, "#e8d08a", 18)
    canvas.setFillColor("#efe0b4")
    canvas.circle(x + w * 0.2, y + h * 0.84, unit * 0.08, stroke=0, fill=1)
    canvas.setFillColor("#1d2149")
    canvas.circle(x + w * 0.236, y + h * 0.86, unit * 0.068, stroke=0, fill=1)
    staff = x + w * 0.8
    canvas.setStrokeColor("#7a4f2a")
    canvas.setLineWidth(unit * 0.03)
    canvas.line(staff, y + h * 0.02, staff, y + h * 0.7)
    for ring, shade in ((0.11, "#f3e3b0"), (0.08, "#e9cd7c"), (0.05, GOLD)):
        canvas.setFillColor(shade)
        canvas.circle(staff, y + h * 0.72, unit * ring, stroke=0, fill=1)
    cx, top = x + w * 0.46, y + h * 0.42
    _shape(canvas, [(cx - w * 0.36, y), (cx - w * 0.22, top), (cx + w * 0.22, top), (cx + w * 0.36, y)], fill=robe,
           width=width)
    _stars(canvas, cx - w * 0.22, y + h * 0.02, w * 0.44, h * 0.36, "#e6c25e", 7)
    _shape(canvas, [(cx + w * 0.14, top - h * 0.02), (staff, y + h * 0.5), (staff, y + h * 0.44),
                    (cx + w * 0.12, top - h * 0.12)], fill="#1d1f50", width=width)
    head_y, r = y + h * 0.52, unit * 0.11
    _head(canvas, cx, head_y, r, r * 1.05, width)
    _shape(canvas, [(cx - r * 1.05, head_y), ("c", (cx - r * 1.1, head_y - r * 2.2), (cx - r * 0.2, head_y - r * 2.8),
                                              (cx, head_y - r * 3.2)),
                    ("c", (cx + r * 0.2, head_y - r * 2.8), (cx + r * 1.1, head_y - r * 2.2), (cx + r * 1.05, head_y)),
                    ("c", (cx + r * 0.4, head_y - r * 0.6), (cx - r * 0.4, head_y - r * 0.6), (cx - r * 1.05, head_y))],
           fill="#f4f1ea", width=width)
    brim = head_y + r * 0.75
    _shape(canvas, [(cx - r * 1.1, brim), ("c", (cx - r * 0.6, brim + r * 1.4), (cx - r * 0.2, brim + r * 2.6),
                                           (cx + r * 0.4, brim + r * 3.4)),
                    ("c", (cx + r * 0.9, brim + r * 3.3), (cx + r * 1.1, brim + r * 3.1), (cx + r * 1.4, brim + r * 2.8)),
                    ("c", (cx + r * 0.8, brim + r * 2.6), (cx + r * 0.8, brim + r * 1.4), (cx + r * 1.1, brim))],
           fill=robe, width=width)
    canvas.ellipse(cx - r * 1.7, brim - r * 0.3, cx + r * 1.7, brim + r * 0.3, stroke=1, fill=1)
    _stars(canvas, cx - r * 0.4, brim + r * 0.8, r, r, GOLD, 1)


def jester(canvas, x, y, w, h, main, second):
    """A jester in a three-pointed belled hat on a diamond ground."""
    width, unit = max(0.35, w * 0.006), min(w, h * 0.7)
    canvas.setFillColor("#d5e5d6")
    canvas.rect(x, y, w, h, stroke=0, fill=1)
    cell_w, cell_h = w / 5, h / 7
    for row in range(8):
        for column in range(6):
            if (row + column) % 2 == 0:
                dx, dy = x + column * cell_w, y + row * cell_h
                _shape(canvas, [(dx, dy - cell_h / 2), (dx + cell_w / 2, dy), (dx, dy + cell_h / 2),
                                (dx - cell_w / 2, dy)], fill="#a9cbab", stroke=None)
    cx, head_y, r = x + w / 2, y + h * 0.42, unit * 0.14
    ruff = [(cx - unit * 0.42 + index * unit * 0.07, head_y - r * (2.0 if index % 2 else 1.1)) for index in range(13)]
    _shape(canvas, ruff + [(cx + unit * 0.42, head_y - r * 0.7), (cx - unit * 0.42, head_y - r * 0.7)], fill=second,
           width=width)
    _shape(canvas, [(x + w * 0.1, y), (cx - unit * 0.36, head_y - r * 1.7), (cx, head_y - r * 1.9),
                    (cx + unit * 0.36, head_y - r * 1.7), (x + w * 0.9, y)], fill=main, width=width)
    _shape(canvas, [(cx, y), (cx, head_y - r * 1.9), (cx + unit * 0.36, head_y - r * 1.7), (x + w * 0.9, y)],
           fill=second, width=width)
    for index in range(3):
        canvas.setFillColor(GOLD)
        canvas.circle(cx, y + (0.06 + 0.08 * index) * h, unit * 0.025, stroke=1, fill=1)
    _head(canvas, cx, head_y, r, r * 1.1, width)
    band = head_y + r * 0.7
    for index, (lean, rise, tip_x, tip_y) in enumerate(((-1.0, 2.3, -2.4, 1.6), (0.0, 3.6, 0.0, 3.0),
                                                         (1.0, 2.3, 2.4, 1.6))):
        _shape(canvas, [(cx - r * 0.9 + index * r * 0.6, band),
                        ("c", (cx + lean * r * 0.6, band + rise * r * 0.6), (cx + tip_x * r * 0.8, band + tip_y * r),
                         (cx + tip_x * r, band + tip_y * r)),
                        ("c", (cx + lean * r * 0.9, band + rise * r * 0.35), (cx + lean * r * 0.3, band + r * 0.3),
                         (cx - r * 0.3 + index * r * 0.6, band))], fill=second if index == 1 else main, width=width)
        canvas.setFillColor(GOLD)
        canvas.circle(cx + tip_x * r, band + tip_y * r, r * 0.2, stroke=1, fill=1)
    _shape(canvas, [(cx - r * 1.05, band - r * 0.15), (cx + r * 1.05, band - r * 0.15), (cx + r * 0.95, band + r * 0.2),
                    (cx - r * 0.95, band + r * 0.2)], fill=GOLD, width=width)
