"""Illustrations drawn with shapes: court figures, the Wizard, the Jester and the Joker.

Every figure is vector paths in a box it is given, so it scales to any card size
and stays sharp in print. Colours come from the suit or the card's kind.
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass

from . import paint

SKIN = "#f3d5b5"
LINE = "#2a2118"
GOLD = "#e0b13a"
WHITE = "#fffdf6"


@dataclass(frozen=True, slots=True)
class Palette:
    primary: str  # robe
    secondary: str  # second robe panel and trims
    gold: str = GOLD
    hair: str = "#6b4423"


def court_palette(suit_color: str) -> Palette:
    """Court colours from a suit colour: robes in the suit colour, trimmed in a contrasting colour."""
    primary = suit_color if paint.luminance(suit_color) > 0.2 else "#2b4f8f"
    secondary = "#2c56a0" if paint.rgb(primary)[0] > paint.rgb(primary)[2] + 0.2 else "#c2362f"
    return Palette(primary, secondary)


def contrasts(color: str) -> tuple[str, str]:
    """A second costume colour and a trim colour that stand out against `color`."""
    hue, _lightness, _saturation = colorsys.rgb_to_hls(*paint.rgb(color))
    warm = hue < 0.2 or hue > 0.9  # reds, oranges, yellows
    second = "#2c56a0" if warm else "#c2362f"
    goldish = 0.08 < hue < 0.18
    return second, ("#c2362f" if goldish else GOLD)


def _path(canvas, points, close=True):
    """A path through points; ('c', p1, p2, p3) tuples are Bézier curves."""
    path = canvas.beginPath()
    first = points[0]
    path.moveTo(*first)
    for point in points[1:]:
        if point[0] == "c":
            _, (x1, y1), (x2, y2), (x3, y3) = point
            path.curveTo(x1, y1, x2, y2, x3, y3)
        else:
            path.lineTo(*point)
    if close:
        path.close()
    return path


def _shape(canvas, points, fill=None, stroke=LINE, width=0.5, close=True):
    canvas.setLineJoin(1)
    if fill:
        paint.set_fill(canvas, fill)
    if stroke:
        paint.set_stroke(canvas, stroke)
        canvas.setLineWidth(width)
    canvas.drawPath(_path(canvas, points, close), stroke=1 if stroke else 0, fill=1 if fill and close else 0)


def _face(canvas, cx, cy, rx, ry, line_width, *, smile=0.0):
    """Head with eyes, brows, nose and mouth."""
    paint.set_fill(canvas, SKIN)
    paint.set_stroke(canvas, LINE)
    canvas.setLineWidth(line_width)
    canvas.ellipse(cx - rx, cy - ry, cx + rx, cy + ry, stroke=1, fill=1)
    paint.set_fill(canvas, LINE)
    for side in (-1, 1):
        ex = cx + side * rx * 0.4
        canvas.ellipse(ex - rx * 0.09, cy + ry * 0.12, ex + rx * 0.09, cy + ry * 0.3, stroke=0, fill=1)
        canvas.setLineWidth(line_width * 0.8)
        canvas.line(ex - rx * 0.2, cy + ry * 0.42, ex + rx * 0.2, cy + ry * 0.46)
    canvas.setLineWidth(line_width * 0.8)
    _shape(canvas, [(cx, cy + ry * 0.15), (cx - rx * 0.12, cy - ry * 0.22), (cx + rx * 0.05, cy - ry * 0.25)],
           stroke=LINE, width=line_width * 0.8, close=False)
    _shape(canvas, [(cx - rx * 0.3, cy - ry * 0.48),
                    ("c", (cx - rx * 0.1, cy - ry * (0.55 + smile)), (cx + rx * 0.1, cy - ry * (0.55 + smile)),
                     (cx + rx * 0.3, cy - ry * 0.48))],
           stroke="#a3302a", width=line_width * 1.2, close=False)


def court_half(canvas, letter: str, hw: float, hh: float, palette: Palette,
               suit_symbol: str, suit_color: str) -> None:
    """The upper half of a double-ended court figure; origin at the frame centre, y up to hh."""
    lw = max(0.35, hw * 0.012)
    s = hw
    head_cx, head_cy, head_rx, head_ry = 0.0, 0.63 * hh, 0.23 * s, 0.16 * hh
    shoulder = 0.42 * hh
    hand = _held_item(canvas, letter, s, hh, lw, palette)
    # Torso: shoulders narrower than the frame, two coloured panels and a gold band down the middle.
    left_panel = [(-0.8 * s, 0), (-0.8 * s, 0.24 * hh),
                  ("c", (-0.78 * s, 0.38 * hh), (-0.6 * s, shoulder), (-0.3 * s, shoulder)),
                  (0.0, shoulder), (0.0, 0)]
    _shape(canvas, left_panel, fill=palette.primary, width=lw)
    _shape(canvas, _mirrored(left_panel), fill=palette.secondary, width=lw)
    # Chevron trim on each panel, in the other panel's colour.
    for side, color in ((-1, palette.secondary), (1, palette.primary)):
        for row in range(2):
            y0 = (0.07 + row * 0.1) * hh
            _shape(canvas, [(side * 0.22 * s, y0), (side * 0.5 * s, y0 + 0.05 * hh), (side * 0.78 * s, y0),
                            (side * 0.78 * s, y0 + 0.03 * hh), (side * 0.5 * s, y0 + 0.08 * hh),
                            (side * 0.22 * s, y0 + 0.03 * hh)], fill=paint.lighten(color, 0.15), stroke=None)
    _shape(canvas, [(-0.13 * s, 0), (-0.13 * s, shoulder), (0.13 * s, shoulder), (0.13 * s, 0)],
           fill=palette.gold, width=lw)
    for row in range(3):
        paint.symbol(canvas, suit_symbol, 0, (0.07 + row * 0.12) * hh, 0.065 * hh, suit_color)
    paint.set_fill(canvas, SKIN)
    paint.set_stroke(canvas, LINE)
    canvas.setLineWidth(lw)
    canvas.circle(hand[0], hand[1], 0.06 * s, stroke=1, fill=1)
    # Neck, hair behind the head, the head.
    paint.fill_rect(canvas, head_cx - 0.08 * s, shoulder - 0.02 * hh, 0.16 * s, 0.08 * hh, SKIN)
    if letter == "Q":
        _shape(canvas, [(head_cx - 0.33 * s, shoulder), (head_cx - 0.3 * s, head_cy + 0.04 * hh),
                        ("c", (head_cx - 0.28 * s, head_cy + 0.24 * hh), (head_cx + 0.28 * s, head_cy + 0.24 * hh),
                         (head_cx + 0.3 * s, head_cy + 0.04 * hh)),
                        (head_cx + 0.33 * s, shoulder)], fill="#d8a63a", width=lw)
    # Collars.
    if letter == "K":
        _shape(canvas, [(-0.62 * s, shoulder - 0.06 * hh), ("c", (-0.4 * s, shoulder + 0.02 * hh),
                                                           (0.4 * s, shoulder + 0.02 * hh), (0.62 * s, shoulder - 0.06 * hh)),
                        (0.62 * s, shoulder - 0.12 * hh), ("c", (0.4 * s, shoulder - 0.05 * hh),
                                                          (-0.4 * s, shoulder - 0.05 * hh), (-0.62 * s, shoulder - 0.12 * hh))],
               fill=WHITE, width=lw)
        paint.set_fill(canvas, LINE)
        for index in range(7):
            x = (-0.45 + index * 0.15) * s
            canvas.ellipse(x - 0.012 * s, shoulder - 0.075 * hh, x + 0.012 * s, shoulder - 0.045 * hh, stroke=0, fill=1)
    elif letter == "Q":
        for index in range(8):
            x = (-0.4 + index * 0.1) * s
            _shape(canvas, [(x, shoulder - 0.03 * hh), (x + 0.05 * s, shoulder + 0.05 * hh),
                            (x + 0.1 * s, shoulder - 0.03 * hh)], fill=WHITE, width=lw * 0.8)
    else:
        _shape(canvas, [(-0.3 * s, shoulder - 0.03 * hh), (0.3 * s, shoulder - 0.03 * hh),
                        (0.18 * s, shoulder + 0.05 * hh), (-0.18 * s, shoulder + 0.05 * hh)], fill=WHITE, width=lw)
    _face(canvas, head_cx, head_cy, head_rx, head_ry, lw, smile=0.05 if letter == "Q" else 0.0)
    if letter == "K":
        _shape(canvas, [(head_cx - head_rx * 0.95, head_cy - 0.03 * hh),
                        ("c", (head_cx - head_rx, head_cy - 0.27 * hh), (head_cx + head_rx, head_cy - 0.27 * hh),
                         (head_cx + head_rx * 0.95, head_cy - 0.03 * hh)),
                        ("c", (head_cx + 0.1 * s, head_cy - 0.1 * hh), (head_cx - 0.1 * s, head_cy - 0.1 * hh),
                         (head_cx - head_rx * 0.95, head_cy - 0.03 * hh))], fill="#d9d4c7", width=lw)
        _shape(canvas, [(head_cx - 0.16 * s, head_cy - 0.075 * hh), (head_cx, head_cy - 0.04 * hh),
                        (head_cx + 0.16 * s, head_cy - 0.075 * hh), (head_cx, head_cy - 0.06 * hh)],
               fill="#bdb6a6", width=lw * 0.8)
    elif letter == "J":
        for side in (-1, 1):
            paint.set_fill(canvas, palette.hair)
            paint.set_stroke(canvas, LINE)
            canvas.setLineWidth(lw)
            canvas.circle(head_cx + side * head_rx * 1.0, head_cy - 0.03 * hh, 0.075 * s, stroke=1, fill=1)
    _headwear(canvas, letter, head_cx, head_cy + head_ry, s, hh, lw, palette)
    paint.symbol(canvas, suit_symbol, -0.76 * s, 0.85 * hh, 0.11 * hh, suit_color)


def _mirrored(points):
    """A path mirrored left-right (x -> -x), Bézier control points included."""
    mirrored = []
    for point in points:
        if point[0] == "c":
            mirrored.append(("c",) + tuple((-x, y) for x, y in point[1:]))
        else:
            mirrored.append((-point[0], point[1]))
    return mirrored


def _held_item(canvas, letter, s, hh, lw, palette) -> tuple[float, float]:
    """Sword (King), flower (Queen) or halberd (Jack), drawn behind the body; returns where the hand goes."""
    if letter == "K":
        _shape(canvas, [(0.6 * s, 0.12 * hh), (0.65 * s, 0.12 * hh), (0.65 * s, 0.86 * hh),
                        (0.625 * s, 0.93 * hh), (0.6 * s, 0.86 * hh)], fill="#dfe3ea", width=lw)
        _shape(canvas, [(0.5 * s, 0.36 * hh), (0.75 * s, 0.36 * hh), (0.75 * s, 0.39 * hh),
                        (0.5 * s, 0.39 * hh)], fill=palette.gold, width=lw)
        hand = (0.625 * s, 0.31 * hh)
    elif letter == "Q":
        paint.set_stroke(canvas, "#3f7d3a")
        canvas.setLineWidth(lw * 2.2)
        canvas.line(0.56 * s, 0.3 * hh, 0.6 * s, 0.72 * hh)
        for angle in range(0, 360, 60):
            dx, dy = math.cos(math.radians(angle)) * 0.075 * s, math.sin(math.radians(angle)) * 0.05 * hh
            paint.set_fill(canvas, paint.lighten(palette.secondary, 0.35))
            paint.set_stroke(canvas, LINE)
            canvas.setLineWidth(lw)
            canvas.circle(0.6 * s + dx, 0.77 * hh + dy, 0.055 * s, stroke=1, fill=1)
        paint.set_fill(canvas, palette.gold)
        canvas.circle(0.6 * s, 0.77 * hh, 0.045 * s, stroke=1, fill=1)
        hand = (0.565 * s, 0.33 * hh)
    else:
        _shape(canvas, [(-0.64 * s, 0.1 * hh), (-0.6 * s, 0.1 * hh), (-0.6 * s, 0.8 * hh),
                        (-0.64 * s, 0.8 * hh)], fill="#8a5a2b", width=lw)
        _shape(canvas, [(-0.62 * s, 0.78 * hh), (-0.5 * s, 0.84 * hh), (-0.62 * s, 0.97 * hh),
                        (-0.74 * s, 0.84 * hh)], fill="#dfe3ea", width=lw)
        hand = (-0.62 * s, 0.33 * hh)
    return hand


def _headwear(canvas, letter, cx, top, s, hh, lw, palette) -> None:
    if letter == "K":
        base = top - 0.035 * hh
        points = [(cx - 0.25 * s, base), (cx - 0.27 * s, base + 0.16 * hh), (cx - 0.15 * s, base + 0.08 * hh),
                  (cx, base + 0.2 * hh), (cx + 0.15 * s, base + 0.08 * hh), (cx + 0.27 * s, base + 0.16 * hh),
                  (cx + 0.25 * s, base)]
        _shape(canvas, points, fill=palette.gold, width=lw)
        for px, py in points[1:-1:2] + [points[3]]:
            paint.set_fill(canvas, palette.gold)
            canvas.circle(px, py, 0.03 * s, stroke=1, fill=1)
        paint.fill_rect(canvas, cx - 0.25 * s, base, 0.5 * s, 0.045 * hh, paint.darken(palette.gold, 0.15))
        for index, color in enumerate(("#c2362f", "#2c56a0", "#c2362f")):
            paint.set_fill(canvas, color)
            canvas.circle(cx + (index - 1) * 0.15 * s, base + 0.0225 * hh, 0.025 * s, stroke=0, fill=1)
    elif letter == "Q":
        base = top - 0.025 * hh
        _shape(canvas, [(cx - 0.2 * s, base), (cx - 0.17 * s, base + 0.1 * hh), (cx - 0.08 * s, base + 0.05 * hh),
                        (cx, base + 0.14 * hh), (cx + 0.08 * s, base + 0.05 * hh), (cx + 0.17 * s, base + 0.1 * hh),
                        (cx + 0.2 * s, base)], fill=palette.gold, width=lw)
        paint.set_fill(canvas, palette.secondary)
        canvas.circle(cx, base + 0.045 * hh, 0.03 * s, stroke=0, fill=1)
    else:
        base = top - 0.045 * hh
        _shape(canvas, [(cx - 0.31 * s, base), ("c", (cx - 0.31 * s, base + 0.16 * hh),
                                               (cx + 0.33 * s, base + 0.16 * hh), (cx + 0.31 * s, base))],
               fill=palette.secondary, width=lw)
        paint.fill_rect(canvas, cx - 0.31 * s, base - 0.005 * hh, 0.62 * s, 0.025 * hh, palette.gold)
        _shape(canvas, [(cx + 0.1 * s, base + 0.09 * hh),
                        ("c", (cx + 0.35 * s, base + 0.23 * hh), (cx + 0.55 * s, base + 0.19 * hh),
                         (cx + 0.64 * s, base + 0.26 * hh)),
                        ("c", (cx + 0.5 * s, base + 0.11 * hh), (cx + 0.3 * s, base + 0.09 * hh),
                         (cx + 0.1 * s, base + 0.09 * hh))], fill=palette.gold, width=lw)


def starfield(canvas, x, y, w, h, color, count=18):
    """Stars at fixed, evenly scattered places (a fixed sequence, so output is deterministic)."""
    for index in range(count):
        fx = (index * 0.618034) % 1.0
        fy = (index * 0.381966 + 0.13) % 1.0
        radius = min(w, h) * (0.012 + 0.012 * ((index * 7) % 3))
        paint.star(canvas, x + w * (0.06 + 0.88 * fx), y + h * (0.06 + 0.88 * fy), radius, color)


def wizard_scene(canvas, x, y, w, h, sky: str, robe: str, accent: str, emblem: str = "",
                 emblem_color: str = GOLD) -> None:
    """A wizard with a pointed hat, beard and glowing staff under a starry sky."""
    lw = max(0.35, w * 0.006)
    paint.fill_rect(canvas, x, y, w, h, sky)
    starfield(canvas, x, y + h * 0.35, w, h * 0.65, paint.lighten(accent, 0.3))
    # Crescent moon.
    moon_x, moon_y, moon_r = x + w * 0.2, y + h * 0.84, min(w, h) * 0.08
    paint.set_fill(canvas, paint.lighten(accent, 0.5))
    canvas.circle(moon_x, moon_y, moon_r, stroke=0, fill=1)
    paint.set_fill(canvas, sky)
    canvas.circle(moon_x + moon_r * 0.45, moon_y + moon_r * 0.25, moon_r * 0.85, stroke=0, fill=1)
    cx = x + w * 0.46
    unit = min(w, h * 0.7)
    # Staff with a glowing orb.
    staff_x = x + w * 0.8
    paint.set_stroke(canvas, "#7a4f2a")
    canvas.setLineWidth(unit * 0.03)
    canvas.line(staff_x, y + h * 0.02, staff_x, y + h * 0.7)
    for ring, shade in ((0.11, 0.7), (0.08, 0.45), (0.05, 0.0)):
        paint.set_fill(canvas, paint.lighten(accent, shade))
        canvas.circle(staff_x, y + h * 0.72, unit * ring, stroke=0, fill=1)
    # Robe.
    robe_top = y + h * 0.42
    _shape(canvas, [(cx - w * 0.36, y), (cx - w * 0.22, robe_top), (cx + w * 0.22, robe_top), (cx + w * 0.36, y)],
           fill=robe, width=lw)
    starfield(canvas, cx - w * 0.22, y + h * 0.02, w * 0.44, h * 0.36, paint.lighten(accent, 0.2), count=7)
    # Arm reaching to the staff.
    _shape(canvas, [(cx + w * 0.14, robe_top - h * 0.02), (staff_x - unit * 0.02, y + h * 0.5),
                    (staff_x - unit * 0.02, y + h * 0.44), (cx + w * 0.12, robe_top - h * 0.12)],
           fill=paint.darken(robe, 0.15), width=lw)
    paint.set_fill(canvas, SKIN)
    canvas.circle(staff_x, y + h * 0.47, unit * 0.035, stroke=0, fill=1)
    # Head and beard.
    head_y, head_r = y + h * 0.52, unit * 0.11
    _face(canvas, cx, head_y, head_r, head_r * 1.05, lw)
    _shape(canvas, [(cx - head_r * 1.05, head_y - head_r * 0.05),
                    ("c", (cx - head_r * 1.1, head_y - head_r * 2.2), (cx - head_r * 0.2, head_y - head_r * 2.8),
                     (cx, head_y - head_r * 3.2)),
                    ("c", (cx + head_r * 0.2, head_y - head_r * 2.8), (cx + head_r * 1.1, head_y - head_r * 2.2),
                     (cx + head_r * 1.05, head_y - head_r * 0.05)),
                    ("c", (cx + head_r * 0.4, head_y - head_r * 0.6), (cx - head_r * 0.4, head_y - head_r * 0.6),
                     (cx - head_r * 1.05, head_y - head_r * 0.05))], fill="#f4f1ea", width=lw)
    # Hat: brim and a cone bending at the tip.
    brim_y = head_y + head_r * 0.75
    _shape(canvas, [(cx - head_r * 1.1, brim_y), ("c", (cx - head_r * 0.6, brim_y + head_r * 1.4),
                                                  (cx - head_r * 0.2, brim_y + head_r * 2.6), (cx + head_r * 0.4, brim_y + head_r * 3.4)),
                    ("c", (cx + head_r * 0.9, brim_y + head_r * 3.3), (cx + head_r * 1.1, brim_y + head_r * 3.1),
                     (cx + head_r * 1.4, brim_y + head_r * 2.8)),
                    ("c", (cx + head_r * 0.8, brim_y + head_r * 2.6), (cx + head_r * 0.8, brim_y + head_r * 1.4),
                     (cx + head_r * 1.1, brim_y))], fill=robe, width=lw)
    paint.set_fill(canvas, paint.darken(robe, 0.2))
    paint.set_stroke(canvas, LINE)
    canvas.ellipse(cx - head_r * 1.7, brim_y - head_r * 0.3, cx + head_r * 1.7, brim_y + head_r * 0.3, stroke=1, fill=1)
    if emblem:
        paint.symbol(canvas, emblem, cx, brim_y + head_r * 1.2, head_r * 0.8, emblem_color)
    else:
        paint.star(canvas, cx + head_r * 0.1, brim_y + head_r * 1.2, head_r * 0.45, accent)


def jester_scene(canvas, x, y, w, h, main: str, second: str, accent: str, emblem: str = "",
                 emblem_color: str = GOLD) -> None:
    """A grinning jester in a three-pointed belled hat over a harlequin diamond ground."""
    lw = max(0.35, w * 0.006)
    light = paint.lighten(main, 0.8)
    paint.fill_rect(canvas, x, y, w, h, light)
    columns, rows = 5, 7
    cell_w, cell_h = w / columns, h / rows
    for row in range(rows + 1):
        for column in range(columns + 1):
            if (row + column) % 2:
                continue
            dx, dy = x + column * cell_w, y + row * cell_h
            paint.polygon(canvas, [(dx, dy - cell_h / 2), (dx + cell_w / 2, dy), (dx, dy + cell_h / 2),
                                   (dx - cell_w / 2, dy)], fill=paint.lighten(main, 0.62))
    cx = x + w * 0.5
    unit = min(w, h * 0.7)
    head_y, head_r = y + h * 0.42, unit * 0.14
    # Ruff collar: alternating points.
    points = []
    count = 12
    for index in range(count + 1):
        fraction = index / count
        px = cx - unit * 0.42 + fraction * unit * 0.84
        points.append((px, head_y - head_r * (2.0 if index % 2 else 1.1)))
    _shape(canvas, [(cx - unit * 0.42, head_y - head_r * 1.1)] + points[1:] +
           [(cx + unit * 0.42, head_y - head_r * 0.7), (cx - unit * 0.42, head_y - head_r * 0.7)],
           fill=second, width=lw)
    # Shoulders.
    _shape(canvas, [(x + w * 0.1, y), (cx - unit * 0.36, head_y - head_r * 1.7), (cx, head_y - head_r * 1.9),
                    (cx + unit * 0.36, head_y - head_r * 1.7), (x + w * 0.9, y)], fill=main, width=lw)
    _shape(canvas, [(cx, y), (cx, head_y - head_r * 1.9), (cx + unit * 0.36, head_y - head_r * 1.7),
                    (x + w * 0.9, y)], fill=second, width=lw)
    for index in range(3):
        paint.set_fill(canvas, accent)
        canvas.circle(cx, y + (0.06 + 0.08 * index) * h, unit * 0.025, stroke=1, fill=1)
    _face(canvas, cx, head_y, head_r, head_r * 1.1, lw, smile=0.25)
    # Cheeks.
    paint.set_fill(canvas, "#e98a7e")
    for side in (-1, 1):
        canvas.circle(cx + side * head_r * 0.55, head_y - head_r * 0.2, head_r * 0.14, stroke=0, fill=1)
    # Hat: three curling points with bells.
    band_y = head_y + head_r * 0.7
    tips = ((-1.0, 2.3, -2.4, 1.6), (0.0, 3.6, 0.0, 3.0), (1.0, 2.3, 2.4, 1.6))
    for index, (lean, rise, tip_x, tip_y) in enumerate(tips):
        color = main if index != 1 else second
        _shape(canvas, [(cx - head_r * 0.9 + index * head_r * 0.6, band_y),
                        ("c", (cx + lean * head_r * 0.6, band_y + rise * head_r * 0.6),
                         (cx + tip_x * head_r * 0.8, band_y + tip_y * head_r),
                         (cx + tip_x * head_r, band_y + tip_y * head_r)),
                        ("c", (cx + lean * head_r * 0.9, band_y + rise * head_r * 0.35),
                         (cx + lean * head_r * 0.3, band_y + head_r * 0.3),
                         (cx - head_r * 0.3 + index * head_r * 0.6, band_y))], fill=color, width=lw)
        paint.set_fill(canvas, accent)
        paint.set_stroke(canvas, LINE)
        canvas.circle(cx + tip_x * head_r, band_y + tip_y * head_r, head_r * 0.2, stroke=1, fill=1)
    _shape(canvas, [(cx - head_r * 1.05, band_y - head_r * 0.15), (cx + head_r * 1.05, band_y - head_r * 0.15),
                    (cx + head_r * 0.95, band_y + head_r * 0.2), (cx - head_r * 0.95, band_y + head_r * 0.2)],
           fill=accent, width=lw)
    if emblem:
        paint.symbol(canvas, emblem, cx, band_y + head_r * 0.02, head_r * 0.3, emblem_color)


# Figures named by layouts ----------------------------------------------------------------

def draw_named(canvas, placed, box, col) -> None:
    """A layout's `figure` element: court, wizard, jester or crest, clipped to its box (the
    jester's harlequin ground and a scene's shoulders are drawn past the edges on purpose)."""
    x, y, w, h = box.x, box.y, box.width, box.height
    canvas.saveState()
    paint.clip_to(canvas, x, y, w, h)
    _draw_figure(canvas, placed, col, x, y, w, h)
    canvas.restoreState()


def _draw_figure(canvas, placed, col, x, y, w, h) -> None:
    name = placed.get("figure", "")
    main = col(placed, "color", "#23255e")
    glyph = str(placed.get("glyph", ""))
    if name == "court":
        _court(canvas, str(placed.get("letter", "K")), x, y, w, h, main, glyph, placed.frame.k)
    elif name == "wizard":
        sky = col(placed, "sky") or (paint.darken(main, 0.55) if paint.luminance(main) > 0.1 else "#1d2149")
        wizard_scene(canvas, x, y, w, h, sky, main, col(placed, "accent", GOLD), glyph,
                     col(placed, "glyph_color") or paint.lighten(main, 0.6))
    elif name in ("jester", "joker"):  # the Joker is drawn as a jester
        second, accent = contrasts(main)
        jester_scene(canvas, x, y, w, h, main, col(placed, "second") or second, col(placed, "accent") or accent,
                     glyph, col(placed, "glyph_color") or main)
    elif name == "crest":
        _crest(canvas, x, y, w, h, main, str(placed.get("shape", "shield")), str(placed.get("letter", "?")),
               placed.frame.k)


def _court(canvas, letter, x, y, w, h, color, glyph, k) -> None:
    palette = court_palette(color)
    canvas.saveState()
    paint.fill_rect(canvas, x, y, w, h, "#fbf6e9")
    for upside_down in (False, True):
        canvas.saveState()
        canvas.translate(x + w / 2, y + h / 2)
        if upside_down:
            canvas.rotate(180)
        court_half(canvas, letter, w / 2, h / 2, palette, glyph, color)
        canvas.restoreState()
    canvas.restoreState()
    paint.set_stroke(canvas, GOLD)
    canvas.setLineWidth(1.0 * k)
    canvas.line(x, y + h / 2, x + w, y + h / 2)


def _crest(canvas, x, y, w, h, color, shape, letter, k) -> None:
    """A kind's emblem: a small badge in one of a few shapes with the kind's initial."""
    cx, cy = x + w / 2, y + h / 2
    size = min(h, w)
    half_w, half_h = size * 0.4, size / 2
    top, bottom, left, right = cy + half_h, cy - half_h, cx - half_w, cx + half_w
    for grow, fill in ((1.5 * k, color), (0.0, WHITE)):
        path = canvas.beginPath()
        if shape == "round":
            path.circle(cx, cy, half_h + grow)
        elif shape == "diamond":
            path.moveTo(cx, top + grow)
            path.lineTo(right + grow, cy)
            path.lineTo(cx, bottom - grow)
            path.lineTo(left - grow, cy)
            path.close()
        elif shape == "banner":
            path.moveTo(left - grow, top + grow)
            path.lineTo(right + grow, top + grow)
            path.lineTo(right + grow, bottom - grow)
            path.lineTo(cx, bottom + 0.25 * size - grow)
            path.lineTo(left - grow, bottom - grow)
            path.close()
        else:  # shield
            path.moveTo(left - grow, top + grow)
            path.lineTo(right + grow, top + grow)
            path.lineTo(right + grow, cy + 0.05 * size)
            path.curveTo(right + grow, bottom + 0.25 * size, cx + 0.16 * size, bottom + 0.05 * size, cx, bottom - grow)
            path.curveTo(cx - 0.16 * size, bottom + 0.05 * size, left - grow, bottom + 0.25 * size,
                         left - grow, cy + 0.05 * size)
            path.close()
        paint.set_fill(canvas, fill)
        canvas.drawPath(path, stroke=0, fill=1)
    paint.symbol(canvas, letter[:1].upper() or "?", cx, cy + 0.04 * size, size * 0.42, color, face="serif-bold")
