"""Print PDFs: sheets of cards with crop marks for home printing, and one card per page for print services.

Sheets: cards in a centred grid on A4 or Letter, faces on one page and their
backs on the next, placed so that each back lands behind its face when the sheet
is printed on both sides (`Layout.back_slot`). Crop marks run along every cut
line from just outside the outer bleed to the paper's edge, so they stay visible
however the first cut is made. The geometry is plain data (`Layout`), which the
drawing code and the tests both use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import OptionError
from ..output import write_bytes
from .check import require_printable
from . import paint
from .document import CardDocument
from .sizes import PAPERS_MM, card_size_mm, check_length, paper_mm, pt

if TYPE_CHECKING:
    from ..model import Card, Deck

DUPLEX_MODES = ("long-edge", "short-edge", "none")
MARK_ROOM_MM = 4.0  # paper kept free outside the outer bleed, where the crop marks go
MARK_OFFSET_MM = 1.0  # crop marks start this far outside the bleed, so no mark prints on a card
MARK_WIDTH_PT = 0.3
LABEL_GREY = "#8a8a8a"


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    @property
    def center(self) -> tuple[float, float]:
        return self.x + self.width / 2, self.y + self.height / 2

    def tuple(self) -> tuple[float, float, float, float]:
        return (self.x, self.y, self.width, self.height)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where cards and crop marks go on a sheet, in PDF points (origin bottom-left)."""

    paper: str
    page_width: float
    page_height: float
    card_width: float
    card_height: float
    bleed: float
    gap: float
    columns: int
    rows: int
    slots: tuple[Rect, ...]  # trim boxes on a faces page, in reading order (top-left first)
    clips: tuple[Rect, ...]  # what each card may paint: its trim plus bleed, at most half the gap inside
    cut_xs: tuple[float, ...]
    cut_ys: tuple[float, ...]
    marks: tuple[tuple[float, float, float, float], ...]  # crop mark segments (x0, y0, x1, y1)

    @property
    def per_page(self) -> int:
        return len(self.slots)

    def _mirror(self, rect: Rect, duplex: str) -> Rect:
        if duplex == "long-edge":  # the sheet turns about its vertical axis: columns swap
            return Rect(self.page_width - rect.right, rect.y, rect.width, rect.height)
        if duplex == "short-edge":  # it turns about its horizontal axis: rows swap
            return Rect(rect.x, self.page_height - rect.top, rect.width, rect.height)
        return rect

    def back_slot(self, index: int, duplex: str) -> Rect:
        """Where the back of the card in slot `index` goes on the backs page."""
        return self._mirror(self.slots[index], duplex)

    def back_clip(self, index: int, duplex: str) -> Rect:
        return self._mirror(self.clips[index], duplex)


def sheet_layout(paper: str, card_mm: tuple[float, float], bleed_mm: float = 3.0, gap_mm: float = 0.0) -> Layout:
    """The largest centred grid of cards that fits the paper with room for crop marks.

    With no gap, neighbouring cards share a cut and only the outer edges get bleed;
    with a gap, each card's bleed reaches at most halfway into it.
    """
    page_mm = paper_mm(paper)
    card_w_mm, card_h_mm = card_mm
    room = MARK_ROOM_MM + bleed_mm
    columns = math.floor((page_mm[0] - 2 * room + gap_mm) / (card_w_mm + gap_mm) + 1e-9)
    rows = math.floor((page_mm[1] - 2 * room + gap_mm) / (card_h_mm + gap_mm) + 1e-9)
    if columns < 1 or rows < 1:
        raise OptionError(_no_fit_message(paper, card_mm, bleed_mm, gap_mm))
    page_w, page_h = pt(page_mm[0]), pt(page_mm[1])
    card_w, card_h, bleed, gap = pt(card_w_mm), pt(card_h_mm), pt(bleed_mm), pt(gap_mm)
    block_w = columns * card_w + (columns - 1) * gap
    block_h = rows * card_h + (rows - 1) * gap
    left = (page_w - block_w) / 2
    bottom = (page_h - block_h) / 2
    inner = min(bleed, gap / 2)
    slots, clips = [], []
    for row in range(rows):
        for column in range(columns):
            x = left + column * (card_w + gap)
            y = bottom + block_h - card_h - row * (card_h + gap)
            slots.append(Rect(x, y, card_w, card_h))
            grow_left = bleed if column == 0 else inner
            grow_right = bleed if column == columns - 1 else inner
            grow_down = bleed if row == rows - 1 else inner
            grow_up = bleed if row == 0 else inner
            clips.append(Rect(x - grow_left, y - grow_down, card_w + grow_left + grow_right,
                              card_h + grow_down + grow_up))
    cut_xs = _unique(v for s in slots for v in (s.x, s.right))
    cut_ys = _unique(v for s in slots for v in (s.y, s.top))
    offset = pt(MARK_OFFSET_MM)
    low_x, high_x = left - bleed - offset, left + block_w + bleed + offset
    low_y, high_y = bottom - bleed - offset, bottom + block_h + bleed + offset
    marks = tuple([(x, 0.0, x, low_y) for x in cut_xs] + [(x, high_y, x, page_h) for x in cut_xs] +
                  [(0.0, y, low_x, y) for y in cut_ys] + [(high_x, y, page_w, y) for y in cut_ys])
    return Layout(paper, page_w, page_h, card_w, card_h, bleed, gap, columns, rows, tuple(slots), tuple(clips),
                  cut_xs, cut_ys, marks)


def _unique(values) -> tuple[float, ...]:
    found: list[float] = []
    for value in sorted(values):
        if not found or value - found[-1] > 1e-6:
            found.append(value)
    return tuple(found)


def _fits(paper: str, card_mm, bleed_mm: float, gap_mm: float) -> bool:
    page = PAPERS_MM[paper]
    room = 2 * (MARK_ROOM_MM + bleed_mm)
    return page[0] - room >= card_mm[0] - 1e-9 and page[1] - room >= card_mm[1] - 1e-9


def _no_fit_message(paper, card_mm, bleed_mm, gap_mm) -> str:
    page = PAPERS_MM[paper]
    fixes = []
    if bleed_mm and _fits(paper, card_mm, 0.0, gap_mm):
        fixes.append("a smaller --bleed (e.g. --bleed 0)")
    fixes += [f"--paper {other}" for other in PAPERS_MM if other != paper and _fits(other, card_mm, bleed_mm, gap_mm)]
    fixes.append("a smaller --card-size")
    return (f"a {card_mm[0]:g}×{card_mm[1]:g} mm card with {bleed_mm:g} mm bleed does not fit on {paper} paper "
            f"({page[0]:g}×{page[1]:g} mm) with {MARK_ROOM_MM:g} mm margins for crop marks; "
            f"use {', or '.join(fixes)}")


# Sheets -----------------------------------------------------------------------------------

def print_sheets(deck: "Deck", paper: str = "a4", card_size: str = "deck", bleed_mm: float = 3.0,
                 gap_mm: float = 0.0, duplex: str = "long-edge", calibration: bool = False,
                 allow_low_res: bool = False) -> bytes:
    """The print-and-play PDF: faces pages with crop marks, each followed by its backs page."""
    if duplex not in DUPLEX_MODES:
        raise OptionError(f"--duplex {duplex!r} is unknown; choose one of {', '.join(DUPLEX_MODES)}")
    if calibration and duplex == "none":
        raise OptionError("--calibration checks how backs line up with faces; use it with --duplex long-edge "
                          "or --duplex short-edge, not none")
    check_length("--bleed", bleed_mm, 10)
    check_length("--gap", gap_mm, 50)
    card_mm = card_size_mm(deck, card_size)
    layout = sheet_layout(paper, card_mm, bleed_mm, gap_mm)
    require_printable(deck, *card_mm, allow_low_res=allow_low_res)
    document = CardDocument(deck, layout.card_width, layout.card_height, layout.bleed,
                            (layout.page_width, layout.page_height), title=f"{deck.name}: print-and-play sheets")
    canvas = document.canvas
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("Duplex", {"long-edge": "DuplexFlipLongEdge", "short-edge": "DuplexFlipShortEdge",
                                          "none": "Simplex"}[duplex])
    if calibration:
        _calibration_pages(canvas, layout, duplex)
    copies = list(deck.copies())
    sheets = [copies[start:start + layout.per_page] for start in range(0, len(copies), layout.per_page)]
    for number, sheet in enumerate(sheets, start=1):
        for index, card in enumerate(sheet):
            document.place(card, layout.slots[index].x, layout.slots[index].y, layout.clips[index].tuple())
        _crop_marks(canvas, layout)
        _label(canvas, layout, f"{deck.name} · sheet {number} of {len(sheets)} · faces")
        canvas.showPage()
        if duplex == "none":
            continue
        for index, card in enumerate(sheet):
            slot, clip = layout.back_slot(index, duplex), layout.back_clip(index, duplex)
            document.place(card, slot.x, slot.y, clip.tuple(), back=True)
        _label(canvas, layout, f"{deck.name} · sheet {number} of {len(sheets)} · backs ({duplex} flip)")
        canvas.showPage()
    return document.finish()


def _crop_marks(canvas, layout: Layout) -> None:
    canvas.saveState()
    paint.set_stroke(canvas, "#000000")
    canvas.setLineWidth(MARK_WIDTH_PT)
    for x0, y0, x1, y1 in layout.marks:
        canvas.line(x0, y0, x1, y1)
    canvas.restoreState()


def _label(canvas, layout: Layout, text: str) -> None:
    """A small caption in the bottom margin, between two crop marks, when there is room for it."""
    from . import fonts

    font = fonts.font("sans")
    bottom_room = min(s.y for s in layout.slots) - layout.bleed - pt(MARK_OFFSET_MM)
    left, right = max(zip(layout.cut_xs, layout.cut_xs[1:]), key=lambda pair: pair[1] - pair[0])
    size = 6.0
    width = fonts.width("sans", text, size)
    if width > right - left - pt(4):
        size *= (right - left - pt(4)) / width
    if size < 4.0 or bottom_room < size * 1.6:
        return
    canvas.saveState()
    paint.set_fill(canvas, LABEL_GREY)
    canvas.setFont(font, size)
    canvas.drawCentredString((left + right) / 2, (bottom_room - size * 0.7) / 2, text)
    canvas.restoreState()


def _calibration_pages(canvas, layout: Layout, duplex: str) -> None:
    """A sheet to print first: crosses on the front, graduated targets behind them on the back.

    Held against a light, each cross shows on its target; the ring it falls on is the
    offset in millimetres between front and back.
    """
    from . import fonts

    font = fonts.font("sans")
    flip = "long edge" if duplex == "long-edge" else "short edge"
    for side in ("front", "back"):
        for index, slot in enumerate(layout.slots):
            rect = slot if side == "front" else layout.back_slot(index, duplex)
            cx, cy = rect.center
            canvas.saveState()
            paint.set_stroke(canvas, "#9a9a9a")
            canvas.setLineWidth(0.3)
            canvas.rect(*rect.tuple(), stroke=1, fill=0)
            if side == "front":
                paint.set_stroke(canvas, "#000000")
                canvas.setLineWidth(0.4)
                canvas.line(cx - pt(8), cy, cx + pt(8), cy)
                canvas.line(cx, cy - pt(8), cx, cy + pt(8))
            else:
                canvas.setFont(font, 4.5)
                for ring in range(1, 6):
                    half = pt(ring)
                    paint.set_stroke(canvas, "#c8102e" if ring % 5 == 0 else "#1f3a8a")
                    canvas.setLineWidth(0.25)
                    canvas.rect(cx - half, cy - half, 2 * half, 2 * half, stroke=1, fill=0)
                    paint.set_fill(canvas, "#1f3a8a")
                    canvas.drawString(cx + half + 0.6, cy + 0.8, str(ring))
                paint.set_stroke(canvas, "#000000")
                canvas.setLineWidth(0.15)
                canvas.line(cx - pt(6), cy, cx + pt(6), cy)
                canvas.line(cx, cy - pt(6), cx, cy + pt(6))
            canvas.restoreState()
        canvas.setFont(font, 7)
        paint.set_fill(canvas, "#333333")
        lines = (["Calibration sheet (front). Print this page double-sided, flipping on the " + flip + ",",
                  "with the same settings you will use for the cards (scaling: none / actual size)."]
                 if side == "front" else
                 ["Calibration sheet (back). Hold the sheet against a light: each front cross should sit on",
                  "the centre of its target. The ring it touches is the offset in mm between faces and backs."])
        top = max(s.top for s in layout.slots) + layout.bleed
        room = layout.page_height - top
        y = top + room / 2 + 4
        for line in lines:
            canvas.drawCentredString(layout.page_width / 2, y, line)
            y -= 9
        canvas.showPage()


# One card per page ------------------------------------------------------------------------------

def one_per_page(deck: "Deck", card_size: str = "deck", bleed_mm: float = 3.0, allow_low_res: bool = False) -> bytes:
    """Every physical card as a face page then a back page, each page trim plus bleed.

    MediaBox = BleedBox = the page; TrimBox = the card, as print services expect.
    """
    check_length("--bleed", bleed_mm, 10)
    card_mm = card_size_mm(deck, card_size)
    require_printable(deck, *card_mm, allow_low_res=allow_low_res)
    card_w, card_h, bleed = pt(card_mm[0]), pt(card_mm[1]), pt(bleed_mm)
    page = (card_w + 2 * bleed, card_h + 2 * bleed)
    document = CardDocument(deck, card_w, card_h, bleed, page, title=f"{deck.name}: one card per page")
    canvas = document.canvas
    canvas.setTrimBox((bleed, bleed, bleed + card_w, bleed + card_h))
    canvas.setBleedBox((0, 0, page[0], page[1]))
    for card in deck.copies():
        for back in (False, True):
            document.place(card, bleed, bleed, back=back)
            canvas.showPage()
    return document.finish()


# Files ------------------------------------------------------------------------------------

def sheets_filename(deck: "Deck", paper: str, card_size: str = "deck", duplex: str = "long-edge") -> str:
    """<deck>-print-<paper>[-<card size>][-<duplex>].pdf; the parts in brackets only when not the default."""
    parts = [deck.id, "print", paper]
    if card_size not in ("deck", deck.card_size.name):
        parts.append(card_size)
    if duplex != "long-edge":
        parts.append(duplex if duplex != "none" else "no-backs")
    return "-".join(parts) + ".pdf"


def cards_filename(deck: "Deck", card_size: str = "deck") -> str:
    """<deck>-cards[-<card size>].pdf."""
    parts = [deck.id, "cards"]
    if card_size not in ("deck", deck.card_size.name):
        parts.append(card_size)
    return "-".join(parts) + ".pdf"


def write_sheets(deck: "Deck", out_dir: Path, **options) -> Path:
    data = print_sheets(deck, **options)
    name = sheets_filename(deck, options.get("paper", "a4"), options.get("card_size", "deck"),
                           options.get("duplex", "long-edge"))
    return write_bytes(out_dir / name, data)


def write_one_per_page(deck: "Deck", out_dir: Path, card_size: str = "deck", bleed_mm: float = 3.0,
                       allow_low_res: bool = False) -> Path:
    return write_bytes(out_dir / cards_filename(deck, card_size),
                       one_per_page(deck, card_size, bleed_mm, allow_low_res))


def build_print(deck: "Deck", out_dir: Path) -> list[Path]:
    """Build step: A4 sheets, duplex flipped on the long edge, 3 mm bleed."""
    return [write_sheets(deck, out_dir, paper="a4", duplex="long-edge")]
