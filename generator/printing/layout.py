"""Sheet geometry: where cards, their bleed and the crop marks go on a sheet of paper.

Plain data in PDF points (origin bottom-left), used by the drawing code and the tests alike.

- Every card gets its full bleed on every side. By default cards stand a gutter of two
  bleeds apart, so a cut that drifts shows the card's own colour, never its neighbour's;
  `gap_mm=0` gives shared cuts (one cut between neighbours, for white-edged cards), and
  then only edges with no neighbour on the sheet carry bleed — on a partly filled sheet,
  those include the edges facing an empty slot.
- Office printers leave a band at the paper's edge unprinted (about 5 mm; 6 mm is the
  default `printer_margin_mm`). Crop marks run from just outside the outer bleed to that
  band and are at least `MIN_MARK_MM` long; a layout that leaves no room for them is an
  error naming the options that would make room. On grids of more than two columns or rows,
  marks also run along every cut line through the gutters (`gutter_marks`), so the middle
  cards keep theirs after the outer strips are cut.
- The sheet turns portrait or landscape, whichever holds more cards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..core.errors import OptionError
from ..deck.sizes import PAPERS_MM, paper_mm, pt

MARK_OFFSET_MM = 1.0  # crop marks stop this far outside the bleed, so no mark prints on a card
MIN_MARK_MM = 3.0  # shorter marks are hard to find and to line a ruler up with
DEFAULT_PRINTER_MARGIN_MM = 6.0
ORIENTATIONS = ("auto", "portrait", "landscape")


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

    def grown(self, left: float, down: float, right: float, up: float) -> "Rect":
        return Rect(self.x - left, self.y - down, self.width + left + right, self.height + down + up)


@dataclass(frozen=True, slots=True)
class Layout:
    """A grid of card slots on one sheet, and the marks that guide the cuts."""

    paper: str
    orientation: str
    page_width: float
    page_height: float
    card_width: float
    card_height: float
    bleed: float
    gap: float
    printer_margin: float
    columns: int
    rows: int
    slots: tuple[Rect, ...]  # trim boxes on a faces page, in reading order (top-left first)
    crop_marks: bool = True  # False: no room kept for them (a cutting machine cuts the sheet)

    @property
    def per_page(self) -> int:
        return len(self.slots)

    @property
    def block(self) -> Rect:
        """The trim boxes' bounding box."""
        return Rect(self.slots[self.columns * (self.rows - 1)].x, self.slots[-1].y,
                    self.columns * self.card_width + (self.columns - 1) * self.gap,
                    self.rows * self.card_height + (self.rows - 1) * self.gap)

    def clips(self, occupied: Iterable[int] | None = None) -> tuple[Rect, ...]:
        """What each occupied slot's card may paint, in slot order: its trim plus full bleed,
        except toward an occupied neighbour nearer than two bleeds, where it reaches halfway."""
        used = self._occupied(occupied)
        shared = min(self.bleed, self.gap / 2)
        result = []
        for index in sorted(used):
            row, column = divmod(index, self.columns)
            left = shared if column > 0 and index - 1 in used else self.bleed
            right = shared if column < self.columns - 1 and index + 1 in used else self.bleed
            up = shared if index - self.columns in used else self.bleed
            down = shared if index + self.columns in used else self.bleed
            result.append(self.slots[index].grown(left, down, right, up))
        return tuple(result)

    def _occupied(self, occupied: Iterable[int] | None) -> set[int]:
        return set(range(self.per_page)) if occupied is None else set(occupied)

    def cuts(self, occupied: Iterable[int] | None = None) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The x and y of every cut line through the occupied slots' cards."""
        used = [self.slots[index] for index in self._occupied(occupied)]
        return (_unique(v for s in used for v in (s.x, s.right)), _unique(v for s in used for v in (s.y, s.top)))

    def marks(self, occupied: Iterable[int] | None = None) -> tuple[tuple[float, float, float, float], ...]:
        """Crop mark segments (x0, y0, x1, y1): each cut line, outside the block, inside the printer margin."""
        if not self.crop_marks:
            return ()
        cut_xs, cut_ys = self.cuts(occupied)
        block, offset, margin = self.block, pt(MARK_OFFSET_MM), self.printer_margin
        low_x, high_x = block.x - self.bleed - offset, block.right + self.bleed + offset
        low_y, high_y = block.y - self.bleed - offset, block.top + self.bleed + offset
        return tuple([(x, margin, x, low_y) for x in cut_xs] +
                     [(x, high_y, x, self.page_height - margin) for x in cut_xs] +
                     [(margin, y, low_x, y) for y in cut_ys] +
                     [(high_x, y, self.page_width - margin, y) for y in cut_ys])

    def gutter_marks(self, occupied: Iterable[int] | None = None) -> tuple[tuple[float, float, float, float], ...]:
        """Marks along every cut line through the gutters (x0, y0, x1, y1), for grids of more than two
        columns or rows: once the outer strips are cut off, the cards in the middle have lost the
        marks at the sheet's edge. Each runs along a cut line between two occupied neighbours,
        from `MARK_OFFSET_MM` past one card's trim to as far before the other's: in the bleed,
        which the cut removes. None when the gutter is too narrow for a `MIN_MARK_MM` mark."""
        if not self.crop_marks or (self.columns <= 2 and self.rows <= 2):
            return ()
        offset = pt(MARK_OFFSET_MM)
        if self.gap - 2 * offset < pt(MIN_MARK_MM) - 1e-6:
            return ()
        used = self._occupied(occupied)
        found = []
        for index in sorted(used):
            row, column = divmod(index, self.columns)
            slot = self.slots[index]
            below = index + self.columns
            if below in used:  # a horizontal gutter: marks on this card's two vertical cut lines
                low = self.slots[below].top + offset
                found += [(x, low, x, slot.y - offset) for x in (slot.x, slot.right)]
            if column < self.columns - 1 and index + 1 in used:  # a vertical gutter
                right = self.slots[index + 1].x - offset
                found += [(slot.right + offset, y, right, y) for y in (slot.y, slot.top)]
        return tuple(dict.fromkeys(found))

    def mirror_axis(self, duplex: str) -> str | None:
        """Which page coordinate a back's position mirrors in: 'x', 'y' or None (no duplex).

        The printer turns the paper about its long or short edge. On a portrait page the long
        edge is vertical, so a long-edge flip swaps columns; on a landscape page it is
        horizontal, so the same flip swaps rows.
        """
        if duplex not in ("long-edge", "short-edge"):
            return None
        long_edge_is_vertical = self.page_height >= self.page_width
        return "x" if (duplex == "long-edge") == long_edge_is_vertical else "y"

    def mirrored(self, rect: Rect, duplex: str) -> Rect:
        axis = self.mirror_axis(duplex)
        if axis == "x":
            return Rect(self.page_width - rect.right, rect.y, rect.width, rect.height)
        if axis == "y":
            return Rect(rect.x, self.page_height - rect.top, rect.width, rect.height)
        return rect

    def back_slot(self, index: int, duplex: str) -> Rect:
        """Where the back of the card in slot `index` goes on the backs page."""
        return self.mirrored(self.slots[index], duplex)

    def back_shift(self, duplex: str, offset_mm: tuple[float, float]) -> tuple[float, float]:
        """How far to move the backs page's drawing, in its own coordinates, to cancel an offset.

        `offset_mm` is what the calibration sheet reads, seen from the front: how far right and
        up the backs print of where they belong. The backs must move the opposite way, and on
        the mirrored axis "right as seen from the front" is "left" on the backs page.
        """
        right, up = pt(offset_mm[0]), pt(offset_mm[1])
        axis = self.mirror_axis(duplex)
        if axis == "x":
            return right, -up
        if axis == "y":
            return -right, up
        return -right, -up


# Rectangles (x, y from the top edge, width, height; mm) on a page of a given size that no card's
# bleed may come within `KEEP_CLEAR_MM` of: a cutting machine's registration marks.
KeepClear = Callable[[tuple[float, float]], Sequence[tuple[float, float, float, float]]]
KEEP_CLEAR_MM = 1.0


def sheet_layout(paper: str, card_mm: tuple[float, float], bleed_mm: float = 3.0, gap_mm: float | None = None,
                 printer_margin_mm: float = DEFAULT_PRINTER_MARGIN_MM, orientation: str = "auto",
                 even_columns: bool = False, crop_marks: bool = True, keep_clear: KeepClear | None = None) -> Layout:
    """The largest centred grid of cards that fits the paper with visible crop marks.

    `gap_mm=None` is a gutter of two bleeds. `even_columns` keeps the column count even
    (fold-over sheets put faces on the left half and backs on the right). `keep_clear` gives
    the marks of a cutting machine on the page: the grid is the largest whose cards, bleed
    included, stay `KEEP_CLEAR_MM` off every one of them (`printer_margin_mm` is then the band
    outside the marks).
    """
    if orientation not in ORIENTATIONS:
        raise OptionError(f"--orientation {orientation!r} is unknown; choose one of {', '.join(ORIENTATIONS)}")
    gap_mm = 2 * bleed_mm if gap_mm is None else gap_mm
    best = _best_grid(paper, card_mm, bleed_mm, gap_mm, printer_margin_mm, orientation, even_columns, crop_marks,
                      keep_clear)
    if best is None:
        raise OptionError(_no_room_message(paper, card_mm, bleed_mm, gap_mm, printer_margin_mm, orientation,
                                           even_columns, crop_marks, keep_clear))
    columns, rows, chosen = best
    page_mm = _oriented(paper_mm(paper), chosen)
    page_w, page_h = pt(page_mm[0]), pt(page_mm[1])
    slots = _slots(page_mm, card_mm, gap_mm, columns, rows)
    return Layout(paper, chosen, page_w, page_h, pt(card_mm[0]), pt(card_mm[1]), pt(bleed_mm), pt(gap_mm),
                  pt(printer_margin_mm), columns, rows, slots, crop_marks)


def _slots(page_mm, card_mm, gap_mm, columns: int, rows: int) -> tuple[Rect, ...]:
    """A centred grid's trim boxes, in reading order."""
    page_w, page_h = pt(page_mm[0]), pt(page_mm[1])
    card_w, card_h, gap = pt(card_mm[0]), pt(card_mm[1]), pt(gap_mm)
    block_w = columns * card_w + (columns - 1) * gap
    block_h = rows * card_h + (rows - 1) * gap
    left, bottom = (page_w - block_w) / 2, (page_h - block_h) / 2
    return tuple(Rect(left + column * (card_w + gap), bottom + block_h - card_h - row * (card_h + gap),
                      card_w, card_h)
                 for row in range(rows) for column in range(columns))


def _clear_of(page_mm, card_mm, bleed_mm, gap_mm, columns, rows, keep_clear: KeepClear) -> bool:
    """Whether every card of the centred grid, bleed included, stays clear of the marks."""
    clear, bleed = pt(KEEP_CLEAR_MM), pt(bleed_mm)
    marks = [Rect(pt(x), pt(page_mm[1] - y - h), pt(w), pt(h)) for x, y, w, h in keep_clear(page_mm)]
    for slot in _slots(page_mm, card_mm, gap_mm, columns, rows):
        card = slot.grown(bleed + clear, bleed + clear, bleed + clear, bleed + clear)
        if any(card.x < m.right and m.x < card.right and card.y < m.top and m.y < card.top for m in marks):
            return False
    return True


def _oriented(page_mm: tuple[float, float], orientation: str) -> tuple[float, float]:
    short, long = sorted(page_mm)
    return (long, short) if orientation == "landscape" else (short, long)


def _grid(page_mm, card_mm, bleed_mm, gap_mm, margin_mm, even_columns, crop_marks) -> tuple[int, int]:
    # Paper kept outside the trim block, each side: the margin, the crop marks, the bleed.
    room = margin_mm + (MIN_MARK_MM + MARK_OFFSET_MM if crop_marks else 0.0) + bleed_mm
    columns = math.floor((page_mm[0] - 2 * room + gap_mm) / (card_mm[0] + gap_mm) + 1e-9)
    rows = math.floor((page_mm[1] - 2 * room + gap_mm) / (card_mm[1] + gap_mm) + 1e-9)
    if even_columns:
        columns -= columns % 2
    return max(columns, 0), max(rows, 0)


def _best_grid(paper, card_mm, bleed_mm, gap_mm, margin_mm, orientation, even_columns, crop_marks=True,
               keep_clear: KeepClear | None = None):
    choices = ("portrait", "landscape") if orientation == "auto" else (orientation,)
    best = None
    for choice in choices:
        page_mm = _oriented(paper_mm(paper), choice)
        most_columns, most_rows = _grid(page_mm, card_mm, bleed_mm, gap_mm, margin_mm, even_columns, crop_marks)
        grids = sorted(((c, r) for c in range(most_columns, 0, -1) for r in range(most_rows, 0, -1)
                        if not even_columns or c % 2 == 0), key=lambda grid: -grid[0] * grid[1])
        for columns, rows in grids:
            if keep_clear is None or _clear_of(page_mm, card_mm, bleed_mm, gap_mm, columns, rows, keep_clear):
                if best is None or columns * rows > best[0] * best[1]:
                    best = (columns, rows, choice)
                break
    return best


def _no_room_message(paper, card_mm, bleed_mm, gap_mm, margin_mm, orientation, even_columns, crop_marks,
                     keep_clear=None) -> str:
    page = paper_mm(paper)

    def fits(**change) -> bool:
        settings = dict(paper=paper, card_mm=card_mm, bleed_mm=bleed_mm, gap_mm=gap_mm, margin_mm=margin_mm,
                        orientation=orientation, even_columns=even_columns, crop_marks=crop_marks,
                        keep_clear=keep_clear)
        settings.update(change)
        return _best_grid(**settings) is not None

    fixes = []
    if orientation != "auto" and fits(orientation="auto"):
        fixes.append("--orientation auto")
    if crop_marks and margin_mm > 3 and fits(margin_mm=3.0):
        fixes.append("a smaller --printer-margin if your printer prints nearer the edge (e.g. --printer-margin 3)")
    if bleed_mm and fits(bleed_mm=0.0, gap_mm=min(gap_mm, 0.0)):
        fixes.append("a smaller --bleed (e.g. --bleed 0)")
    fixes += [f"--paper {other}" for other in PAPERS_MM if other != paper and fits(paper=other)]
    fixes.append("a smaller --card-size")
    if not crop_marks:
        return (f"a {card_mm[0]:g}×{card_mm[1]:g} mm card with {bleed_mm:g} mm bleed does not fit on {paper} paper "
                f"({page[0]:g}×{page[1]:g} mm) clear of the cutting machine's registration marks; "
                f"use {', or '.join(fixes)}")
    marks = MIN_MARK_MM + MARK_OFFSET_MM
    return (f"a {card_mm[0]:g}×{card_mm[1]:g} mm card with {bleed_mm:g} mm bleed does not fit on {paper} paper "
            f"({page[0]:g}×{page[1]:g} mm) with room for crop marks: each side needs the {margin_mm:g} mm the "
            f"printer cannot print on, {marks:g} mm for the marks, and the bleed; use {', or '.join(fixes)}")


def _unique(values) -> tuple[float, ...]:
    found: list[float] = []
    for value in sorted(values):
        if not found or value - found[-1] > 1e-6:
            found.append(value)
    return tuple(found)
