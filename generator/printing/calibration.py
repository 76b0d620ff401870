"""The calibration sheet: check the print scale, and measure how far backs land from their faces.

Front: instructions, a 100 mm and a 4 in ruler, and five targets (the middle and near each
corner), each an L of two millimetre scales. Back: behind every target, a red line across
each scale, where the back would sit if the printer put backs exactly behind faces. Held
against a light, the red lines show through; where they cross the scales is the offset in
millimetres, right and up positive, which `--back-offset RIGHT,UP` then cancels.
"""

from __future__ import annotations

from ..deck.sizes import pt
from ..faces import fonts, paint
from .layout import Layout, Rect

SCALE_MM = 5  # each scale reads -5..+5 mm
SCALE_GAP_MM = 7.0  # from the target's point to its scales
DIGIT_PT = 10  # scale digits: legible with the sheet held at arm's length against a light
CAPTION_PT = 8
INK = "#000000"
BACK_LINE = "#d0021b"
INSET_MM = 20.0  # corner targets' distance from the printer margin: room for the scales and back lines


def calibration_pages(canvas, layout: Layout, duplex: str, back_offset_mm: tuple[float, float]) -> None:
    """Draw the front and the back calibration pages (two `showPage`s)."""
    points = target_points(layout)
    _front(canvas, layout, duplex, points, back_offset_mm)
    canvas.showPage()
    _back(canvas, layout, duplex, points, back_offset_mm)
    canvas.showPage()


def target_points(layout: Layout) -> list[tuple[float, float]]:
    """Front-page points the targets measure at: the middle of the area below the rulers, and near each corner."""
    w, h, inset = layout.page_width, layout.page_height, layout.printer_margin + pt(INSET_MM)
    middle = (w / 2, (h - _top_area(layout)) / 2)
    return [middle, (inset, inset), (w - inset, inset), (inset, h - _top_area(layout) + pt(8)),
            (w - inset, h - _top_area(layout) + pt(8))]


def _top_area(layout: Layout) -> float:
    """Height at the top of the front taken by the title, the instructions and the rulers."""
    return layout.printer_margin + pt(88)


def _front(canvas, layout: Layout, duplex: str, points, back_offset_mm) -> None:
    w, h = layout.page_width, layout.page_height
    top = h - layout.printer_margin - pt(8)
    canvas.setFont(fonts.font("sans-bold"), 14)
    paint.set_fill(canvas, INK)
    canvas.drawCentredString(w / 2, top, "Calibration sheet: front")
    flip = {"long-edge": "the long edge", "short-edge": "the short edge"}.get(duplex, duplex)
    applied = (f"Backs on this sheet are already moved to cancel {back_offset_mm[0]:g}, {back_offset_mm[1]:g} mm: "
               f"add your reading to that." if any(back_offset_mm) else "No back offset is applied yet.")
    lines = [
        f"Print this page double-sided as you will print the cards: actual size (100 %), flip on {flip}.",
        "1. Check the scale: the ruler below must measure exactly 100 mm, and 4 inches. If not, turn scaling off.",
        "2. Hold the sheet against a light with this side toward you: red lines from the back show through.",
        "3. At the middle target, read where each red line crosses its scale, in mm:",
        "    right and up are positive, left and down negative (the corner targets show any skew).",
        "4. Print with those numbers:   deckgen print DECK --back-offset RIGHT,UP",
        "    or remember them:   deckgen printer save NAME --back-offset RIGHT,UP   then   --printer NAME",
        applied,
    ]
    canvas.setFont(fonts.font("sans"), 9)
    y = top - pt(8)
    for line in lines:
        canvas.drawString(layout.printer_margin + pt(6), y, line)
        y -= pt(4.6)
    _ruler(canvas, (w - pt(100)) / 2, y - pt(8), 100, pt(1), 10, "mm", lambda n: str(n))
    _ruler(canvas, (w - pt(101.6)) / 2, y - pt(24), 32, pt(25.4 / 8), 8, "in", lambda n: str(n // 8))
    for x, y in points:
        _scales(canvas, x, y)


def _ruler(canvas, x: float, y: float, steps: int, step: float, every: int, unit: str, label) -> None:
    """A ruler along y: a tick per step (longer every `every` steps, numbered there), ticks pointing up."""
    canvas.saveState()
    paint.set_stroke(canvas, INK)
    paint.set_fill(canvas, INK)
    canvas.setLineWidth(0.4)
    canvas.line(x, y, x + steps * step, y)
    canvas.setFont(fonts.font("sans"), 7)
    for n in range(steps + 1):
        major = n % every == 0
        half = every % 2 == 0 and n % (every // 2) == 0
        canvas.line(x + n * step, y, x + n * step, y + pt(4 if major else 2.5 if half else 1.5))
        if major:
            canvas.drawCentredString(x + n * step, y + pt(5), label(n))
    canvas.drawString(x + steps * step + pt(3), y + pt(1), unit)
    canvas.restoreState()


def _scales(canvas, x: float, y: float) -> None:
    """An L of two scales near (x, y): one below it reads left/right, one beside it reads down/up."""
    canvas.saveState()
    paint.set_stroke(canvas, INK)
    paint.set_fill(canvas, INK)
    gap, unit = pt(SCALE_GAP_MM), pt(1)
    canvas.setLineWidth(0.3)
    canvas.circle(x, y, pt(0.8), stroke=1, fill=0)
    canvas.setFont(fonts.font("sans"), DIGIT_PT)
    for n in range(-2 * SCALE_MM, 2 * SCALE_MM + 1):  # half millimetres
        length = pt(4 if n == 0 else 2.5 if n % 2 == 0 else 1.2)
        canvas.setLineWidth(0.45 if n == 0 else 0.25)
        canvas.line(x + n * unit / 2, y - gap, x + n * unit / 2, y - gap - length)
        canvas.line(x + gap, y + n * unit / 2, x + gap + length, y + n * unit / 2)
        if n % 4 == 0:  # every second millimetre: a 10 pt digit is 2 mm wide, and each row holds every other one
            value = str(abs(n) // 2)
            near = (n // 4) % 2 == 0
            canvas.drawCentredString(x + n * unit / 2, y - gap - pt(7.5 if near else 11), value)
            canvas.drawString(x + gap + pt(5.5 if near else 8.5), y + n * unit / 2 - DIGIT_PT * 0.36, value)
    canvas.setFont(fonts.font("sans"), CAPTION_PT)
    canvas.drawCentredString(x, y - gap - pt(15), "left  −   + right")
    canvas.saveState()
    canvas.translate(x + gap + pt(14.5), y)
    canvas.rotate(90)
    canvas.drawCentredString(0, 0, "down  −   + up")
    canvas.restoreState()
    canvas.restoreState()


def _back(canvas, layout: Layout, duplex: str, points, back_offset_mm) -> None:
    w, h = layout.page_width, layout.page_height
    shift = layout.back_shift(duplex, back_offset_mm)
    canvas.setFont(fonts.font("sans-bold"), 14)
    paint.set_fill(canvas, "#555555")
    canvas.drawCentredString(w / 2, h - layout.printer_margin - pt(8), "Calibration sheet: back")
    canvas.setFont(fonts.font("sans"), 9)
    canvas.drawCentredString(w / 2, h - layout.printer_margin - pt(14),
                             "Read this sheet from the front, held against a light.")
    canvas.saveState()
    canvas.translate(*shift)
    paint.set_stroke(canvas, BACK_LINE)
    canvas.setLineWidth(0.6)
    gap, reach = pt(SCALE_GAP_MM), pt(SCALE_MM + 4)
    for x, y in points:
        spot = layout.mirrored(Rect(x, y, 0, 0), duplex)
        bx, by = spot.x, spot.y
        # The vertical line crosses the left/right scale below the point; the horizontal one the
        # down/up scale beside it. Which side is "beside" flips with the page.
        side = -1 if layout.mirror_axis(duplex) == "x" else 1
        low = -1 if layout.mirror_axis(duplex) == "y" else 1
        canvas.line(bx, by - low * (gap - pt(2)), bx, by - low * (gap + reach))
        canvas.line(bx + side * (gap - pt(2)), by, bx + side * (gap + reach), by)
    canvas.restoreState()
