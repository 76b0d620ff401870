"""Print-and-cut: registration marks a cutting machine's optical eye finds, and an SVG of the cut lines.

`--registration silhouette` draws Silhouette Studio's "Type 1" marks on every faces page,
at Studio's default sizes: a filled 5 mm square at the top-left corner, and 20 mm L-shaped
corners, 0.5 mm thick, at the top-right and bottom-left, all 10 mm in from the paper's edge.
Cards stay inside the marks' frame and 1 mm off every mark (the grid is checked against each
mark, so 8 poker cards fit a Letter or A4 sheet with the cutter's 0.5 mm bleed and 1 mm gap);
crop marks are left off (the machine cuts). The SVG (`cut_svg`) holds the same marks and each
card's trim outline with rounded corners, in millimetres on the same page, for Silhouette
Studio or Cricut Design Space to cut along. (Cricut's Print Then Cut adds its own marks to an
uploaded image; use the SVG's outlines there and leave the marks out.)
"""

from __future__ import annotations

from typing import Iterable

from ..core.errors import OptionError
from ..deck.sizes import POINTS_PER_MM, corner_radius_mm, pt
from ..faces import paint
from .layout import KEEP_CLEAR_MM, Layout

REGISTRATIONS = ("silhouette",)
INSET_MM = 10.0
SQUARE_MM = 5.0
LENGTH_MM = 20.0
THICKNESS_MM = 0.5
# Cards stay inside the frame the marks draw (Studio cuts only there), and off the marks
# themselves by layout.KEEP_CLEAR_MM: the square reaches further in than the L's, so the grid
# is checked against each mark rather than a margin as wide as the square.
REGISTRATION_MARGIN_MM = INSET_MM + THICKNESS_MM + KEEP_CLEAR_MM
# A cutting machine cuts where its marks place the page, within about half a millimetre: a
# smaller bleed and gap than a hand cut's 3 mm and 6 mm, so 8 poker cards fit a Letter or A4 sheet.
CUTTER_BLEED_MM = 0.5
CUTTER_GAP_MM = 1.0
CUT_COLOUR = "#ff0000"
# Corner radii a designer cuts with (`--corner-radius`), in mm: "card" is the deck's own
# rounding (a poker card's 3.2 mm, in proportion for other sizes); the others are the corner
# punch and die sizes sold for cards.
CORNER_PRESETS: dict[str, float | None] = {"card": None, "1/8in": 3.175, "3mm": 3.0, "3.5mm": 3.5,
                                          "1/4in": 6.35, "square": 0.0}


def parse_corner(preset: str) -> float | None:
    """A `--corner-radius` in mm (None: the card's own rounding); an `OptionError` for anything else."""
    if preset in CORNER_PRESETS:
        return CORNER_PRESETS[preset]
    try:
        value = float(preset)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise OptionError(f"--corner-radius {preset!r} is not a corner: give one of {', '.join(CORNER_PRESETS)} "
                          "or a radius in millimetres")
    return value


def corner_radius(preset: str, card_mm: tuple[float, float]) -> float:
    """The corner radius in mm a cut file rounds a card of `card_mm` with (at most half its width)."""
    value = parse_corner(preset)
    if value is None:
        return corner_radius_mm(card_mm)
    if value > min(card_mm) / 2:
        raise OptionError(f"--corner-radius {preset} mm is more than half the {min(card_mm):g} mm card's width")
    return value


def mark_rects_mm(page_mm: tuple[float, float]) -> list[tuple[float, float, float, float]]:
    """The marks as filled rectangles (x, y, width, height) in mm, y measured down from the top edge."""
    w, h = page_mm
    i, n, t = INSET_MM, LENGTH_MM, THICKNESS_MM
    return [
        (i, i, SQUARE_MM, SQUARE_MM),  # top-left square
        (w - i - n, i, n, t), (w - i - t, i, t, n),  # top-right L
        (i, h - i - n, t, n), (i, h - i - t, n, t),  # bottom-left L
    ]


def draw_marks(canvas, layout: Layout) -> None:
    page_mm = (layout.page_width / POINTS_PER_MM, layout.page_height / POINTS_PER_MM)
    canvas.saveState()
    paint.set_fill(canvas, "#000000")
    for x, y, width, height in mark_rects_mm(page_mm):
        canvas.rect(pt(x), layout.page_height - pt(y + height), pt(width), pt(height), stroke=0, fill=1)
    canvas.restoreState()


def cut_svg(layout: Layout, occupied: Iterable[int], corner: str = "card") -> str:
    """An SVG of the page: the registration marks (black) and each occupied slot's cut line (red),
    its corners rounded by the `corner` preset or radius in mm."""
    w, h = layout.page_width / POINTS_PER_MM, layout.page_height / POINTS_PER_MM
    card_mm = (layout.card_width / POINTS_PER_MM, layout.card_height / POINTS_PER_MM)
    radius = corner_radius(corner, card_mm)

    def mm(value: float) -> str:
        return f"{value:.3f}".rstrip("0").rstrip(".")

    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" width="{mm(w)}mm" height="{mm(h)}mm" '
             f'viewBox="0 0 {mm(w)} {mm(h)}">',
             '  <g id="registration" fill="#000000" stroke="none">']
    for x, y, width, height in mark_rects_mm((w, h)):
        lines.append(f'    <rect x="{mm(x)}" y="{mm(y)}" width="{mm(width)}" height="{mm(height)}"/>')
    lines.append('  </g>')
    lines.append(f'  <g id="cut" fill="none" stroke="{CUT_COLOUR}" stroke-width="0.1">')
    for index in sorted(occupied):
        slot = layout.slots[index]
        x, top = slot.x / POINTS_PER_MM, h - slot.top / POINTS_PER_MM
        lines.append(f'    <rect x="{mm(x)}" y="{mm(top)}" width="{mm(card_mm[0])}" height="{mm(card_mm[1])}" '
                     f'rx="{mm(radius)}" ry="{mm(radius)}"/>')
    lines += ['  </g>', '</svg>', '']
    return "\n".join(lines)
