"""Print PDFs: sheets of cards with crop marks for home printing, and one card per page for print services.

Sheets (`print_sheets`): the cards in a centred grid (`layout.sheet_layout`), each faces
page followed by its backs page, placed so that each back lands behind its face when the
sheet turns over (`Layout.back_slot`), and shifted by the measured back offset. Options:
fronts or backs only, fold-over sheets (faces on the left half, backs mirrored on the
right, a fold line between), a proof overlay (cut line, safe area, rounded corners) and a
calibration sheet first.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas

from ..core.errors import OptionError
from ..core.output import write_bytes, write_text
from ..deck.sizes import card_size_mm, check_length, pt
from ..faces import fonts, paint
from ..faces.check import require_printable
from ..faces.document import CardDocument
from ..faces.inksaver import InkSaverCanvas
from .calibration import calibration_pages
from .cutfile import REGISTRATION_MARGIN_MM, REGISTRATIONS, corner_radius, cut_svg, draw_marks, mark_rects_mm, parse_corner
from .layout import DEFAULT_PRINTER_MARGIN_MM, MARK_OFFSET_MM, Layout, Rect, sheet_layout
from .pdfx import ColorOptions

if TYPE_CHECKING:
    from ..deck.model import Card, Deck

DUPLEX_MODES = ("long-edge", "short-edge", "none")
SIDES = ("both", "fronts", "backs")
MARK_WIDTH_PT = 0.3
LABEL_GREY = "#8a8a8a"
SAFE_MM = 3.0  # the proof's safe area: text and art inside it survive a cut that drifts by the bleed
PROOF_CUT, PROOF_SAFE, PROOF_CORNER = "#e6007e", "#0090d0", "#2a9d3a"


@dataclass(frozen=True, slots=True)
class SheetOptions:
    """How to print sheets; every field is a command-line option of `deckgen print`."""

    paper: str = "a4"
    card_size: str = "deck"
    bleed_mm: float = 3.0
    gap_mm: float | None = None  # None: a gutter of two bleeds; 0: shared cuts
    duplex: str = "long-edge"
    sides: str = "both"
    printer_margin_mm: float = DEFAULT_PRINTER_MARGIN_MM
    orientation: str = "auto"
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    calibration: bool = False
    fold: bool = False
    proof: bool = False
    registration: str | None = None  # a cutting machine's marks instead of crop marks: "silhouette"
    color: ColorOptions = ColorOptions()
    allow_low_res: bool = False  # print art under 150 ppi at its printed size (a warning, not an error)
    corner: str = "card"  # the corner radius of the cut file and the proof: a cutfile.CORNER_PRESETS name or mm
    ink_saver: bool = False  # fills drawn as outlines, art in grey (faces.inksaver)

    def checked(self) -> "SheetOptions":
        """The options, with every conflict or out-of-range value raised as an `OptionError`."""
        self.color.checked()
        if self.duplex not in DUPLEX_MODES:
            raise OptionError(f"--duplex {self.duplex!r} is unknown; choose one of {', '.join(DUPLEX_MODES)}")
        if self.sides not in SIDES:
            raise OptionError(f"--sides {self.sides!r} is unknown; choose one of {', '.join(SIDES)}")
        check_length("--bleed", self.bleed_mm, 10)
        if self.gap_mm is not None:
            check_length("--gap", self.gap_mm, 50)
        check_length("--printer-margin", self.printer_margin_mm, 30)
        for value in self.back_offset_mm:
            if not abs(value) <= 20:  # NaN too: it would be written into the PDF as "nan"
                raise OptionError(f"--back-offset {value:g} is out of range: give millimetres from -20 to 20")
        if self.registration is not None and self.registration not in REGISTRATIONS:
            raise OptionError(f"--registration {self.registration!r} is unknown; choose one of "
                              f"{', '.join(REGISTRATIONS)}")
        parse_corner(self.corner)
        if self.fold:
            if self.calibration or self.sides != "both" or any(self.back_offset_mm) or self.registration:
                raise OptionError("--fold puts faces and backs on one side of the sheet; it takes no "
                                  "--calibration, --sides, --back-offset or --registration")
            return self
        if self.duplex == "none" and (self.calibration or self.sides == "backs"):
            option = "--calibration" if self.calibration else "--sides backs"
            raise OptionError(f"{option} needs to know how the sheet turns over; use it with --duplex long-edge "
                              "or --duplex short-edge, not none")
        if self.duplex == "none" and self.sides == "both":
            return replace(self, sides="fronts")  # --duplex none has always meant faces only
        return self

    def layout(self, deck: "Deck") -> Layout:
        if self.registration:
            margin = max(self.printer_margin_mm, REGISTRATION_MARGIN_MM)
            return sheet_layout(self.paper, card_size_mm(deck, self.card_size), self.bleed_mm, self.gap_mm,
                                margin, self.orientation, crop_marks=False, keep_clear=mark_rects_mm)
        return sheet_layout(self.paper, card_size_mm(deck, self.card_size), self.bleed_mm, self.gap_mm,
                            self.printer_margin_mm, self.orientation, even_columns=self.fold)

    def cards_per_sheet(self, layout: Layout) -> int:
        return layout.per_page // 2 if self.fold else layout.per_page


# Sheets -----------------------------------------------------------------------------------

def print_sheets(deck: "Deck", options: SheetOptions = SheetOptions()) -> bytes:
    """The print-and-play PDF."""
    options = options.checked()
    layout = options.layout(deck)
    require_printable(deck, *card_size_mm(deck, options.card_size), allow_low_res=options.allow_low_res)
    title = f"{deck.name}: print-and-play sheets"
    document = CardDocument(deck, layout.card_width, layout.card_height, layout.bleed,
                            (layout.page_width, layout.page_height), title=title,
                            canvas_class=InkSaverCanvas if options.ink_saver else Canvas)
    canvas = document.canvas
    canvas.setViewerPreference("PrintScaling", "None")
    duplex = "none" if options.fold or options.sides != "both" else options.duplex
    canvas.setViewerPreference("Duplex", {"long-edge": "DuplexFlipLongEdge", "short-edge": "DuplexFlipShortEdge",
                                          "none": "Simplex"}[duplex])
    if options.calibration:
        calibration_pages(canvas, layout, options.duplex, options.back_offset_mm)
    copies = list(deck.copies())
    per_sheet = options.cards_per_sheet(layout)
    sheets = [copies[start:start + per_sheet] for start in range(0, len(copies), per_sheet)]
    for number, sheet in enumerate(sheets, start=1):
        caption = f"{deck.name} · sheet {number} of {len(sheets)}"
        if options.fold:
            _fold_page(document, layout, sheet, options)
            _label(canvas, layout, f"{caption} · fold on the dashed line, faces out", layout.per_page)
            canvas.showPage()
            continue
        if options.sides in ("both", "fronts"):
            _faces_page(document, layout, sheet, options)
            if options.registration:  # no caption: nothing printed near the marks the machine's eye reads
                draw_marks(canvas, layout)
            else:
                _label(canvas, layout, f"{caption} · faces", len(sheet))
            canvas.showPage()
        if options.sides in ("both", "backs"):
            _backs_page(document, layout, sheet, options)
            _label(canvas, layout, f"{caption} · backs ({options.duplex} flip)", len(sheet))
            canvas.showPage()
    return options.color.apply(document.finish(), title, document.labels())


def _place_back(document: CardDocument, card: "Card", x: float, y: float, clip: Rect | None) -> None:
    """The back of one card: its own back layout, or the deck's."""
    document.place(card, x, y, None if clip is None else clip.tuple(), back=True)


def _faces_page(document: CardDocument, layout: Layout, sheet: list["Card"], options: SheetOptions) -> None:
    occupied = range(len(sheet))
    clips = layout.clips(occupied)
    for index, card in enumerate(sheet):
        document.place(card, layout.slots[index].x, layout.slots[index].y, clips[index].tuple())
    _crop_marks(document.canvas, layout, occupied)
    if options.proof:
        _proof(document.canvas, layout, [layout.slots[index] for index in occupied], options.corner)


def _backs_page(document: CardDocument, layout: Layout, sheet: list["Card"], options: SheetOptions) -> None:
    canvas, duplex = document.canvas, options.duplex
    clips = layout.clips(range(len(sheet)))
    canvas.saveState()
    canvas.translate(*layout.back_shift(duplex, options.back_offset_mm))
    for index, card in enumerate(sheet):
        slot = layout.back_slot(index, duplex)
        _place_back(document, card, slot.x, slot.y, layout.mirrored(clips[index], duplex))
    if options.proof:
        _proof(canvas, layout, [layout.back_slot(index, duplex) for index in range(len(sheet))], options.corner)
    canvas.restoreState()


def fold_slots(layout: Layout, count: int) -> list[tuple[int, int]]:
    """(face slot, back slot) for the first `count` cards of a fold-over sheet: faces fill the
    left half row by row; each back is its face's slot mirrored across the fold."""
    half = layout.columns // 2
    pairs = []
    for number in range(count):
        row, column = divmod(number, half)
        face = row * layout.columns + column
        pairs.append((face, row * layout.columns + layout.columns - 1 - column))
    return pairs


def _fold_page(document: CardDocument, layout: Layout, sheet: list["Card"], options: SheetOptions) -> None:
    pairs = fold_slots(layout, len(sheet))
    occupied = sorted(index for pair in pairs for index in pair)
    clips = dict(zip(occupied, layout.clips(occupied)))
    for card, (face, back) in zip(sheet, pairs):
        document.place(card, layout.slots[face].x, layout.slots[face].y, clips[face].tuple())
        _place_back(document, card, layout.slots[back].x, layout.slots[back].y, clips[back])
    canvas = document.canvas
    _crop_marks(canvas, layout, occupied)
    if options.proof:
        _proof(canvas, layout, [layout.slots[index] for index in occupied], options.corner)
    block, offset = layout.block, pt(MARK_OFFSET_MM)
    canvas.saveState()
    paint.set_stroke(canvas, "#000000")
    canvas.setLineWidth(0.5)
    canvas.setDash(4, 3)
    x = layout.page_width / 2
    canvas.line(x, layout.printer_margin, x, block.y - layout.bleed - offset)
    canvas.line(x, block.top + layout.bleed + offset, x, layout.page_height - layout.printer_margin)
    canvas.restoreState()


def _crop_marks(canvas, layout: Layout, occupied) -> None:
    canvas.saveState()
    paint.set_stroke(canvas, "#000000")
    canvas.setLineWidth(MARK_WIDTH_PT)
    for x0, y0, x1, y1 in layout.marks(occupied):
        canvas.line(x0, y0, x1, y1)
    gutter = layout.gutter_marks(occupied)
    if gutter:  # over the cards' bleed: a white edge keeps a black mark visible on dark art
        paint.set_stroke(canvas, "#ffffff")
        canvas.setLineWidth(MARK_WIDTH_PT * 3)
        for x0, y0, x1, y1 in gutter:
            canvas.line(x0, y0, x1, y1)
        paint.set_stroke(canvas, "#000000")
        canvas.setLineWidth(MARK_WIDTH_PT)
        for x0, y0, x1, y1 in gutter:
            canvas.line(x0, y0, x1, y1)
    canvas.restoreState()


def _proof(canvas, layout: Layout, trims: list[Rect], corner: str) -> None:
    """Over each card: its cut line, its safe area (dashed) and the rounded corners the chosen
    `--corner-radius` cuts (none drawn for square corners: the cut line is the corner)."""
    radius = pt(corner_radius(corner, (layout.card_width / pt(1), layout.card_height / pt(1))))
    safe = pt(SAFE_MM)
    canvas.saveState()
    canvas.setLineWidth(0.4)
    for trim in trims:
        paint.set_stroke(canvas, PROOF_CUT)
        canvas.rect(*trim.tuple(), stroke=1, fill=0)
        if radius:
            paint.set_stroke(canvas, PROOF_CORNER)
            canvas.roundRect(*trim.tuple(), radius, stroke=1, fill=0)
        paint.set_stroke(canvas, PROOF_SAFE)
        canvas.setDash(2, 1.5)
        canvas.rect(trim.x + safe, trim.y + safe, trim.width - 2 * safe, trim.height - 2 * safe, stroke=1, fill=0)
        canvas.setDash()
    canvas.restoreState()


def _label(canvas, layout: Layout, text: str, count: int) -> None:
    """A small caption in the bottom margin, between two crop marks and inside the printable area."""
    cut_xs, _cut_ys = layout.cuts(range(count))
    left, right = max(zip(cut_xs, cut_xs[1:]), key=lambda pair: pair[1] - pair[0])
    size = 6.0
    width = fonts.width("sans", text, size)
    if width > right - left - pt(4):
        size *= (right - left - pt(4)) / width
    bottom_room = layout.block.y - layout.bleed - pt(MARK_OFFSET_MM) - layout.printer_margin
    if size < 4.0 or bottom_room < size * 1.4:
        return
    canvas.saveState()
    paint.set_fill(canvas, LABEL_GREY)
    canvas.setFont(fonts.font("sans"), size)
    canvas.drawCentredString((left + right) / 2, layout.printer_margin + (bottom_room - size * 0.7) / 2, text)
    canvas.restoreState()


# One card per page ------------------------------------------------------------------------------

def one_per_page(deck: "Deck", card_size: str = "deck", bleed_mm: float = 3.0,
                 color: ColorOptions = ColorOptions(), trim_mm: tuple[float, float] | None = None,
                 allow_low_res: bool = False, back_first: bool = False) -> bytes:
    """Every physical card as a face page then a back page (or back then face, `back_first`, as
    DriveThruCards' card PDFs are read), each page trim plus bleed.

    MediaBox = BleedBox = the page; TrimBox = the card, as print services expect.
    `trim_mm` overrides the card size (a print service's own trim for the deck's size).
    """
    check_length("--bleed", bleed_mm, 10)
    color.checked()
    card_mm = trim_mm or card_size_mm(deck, card_size)
    require_printable(deck, *card_mm, allow_low_res=allow_low_res)
    card_w, card_h, bleed = pt(card_mm[0]), pt(card_mm[1]), pt(bleed_mm)
    page = (card_w + 2 * bleed, card_h + 2 * bleed)
    title = f"{deck.name}: one card per page"
    document = CardDocument(deck, card_w, card_h, bleed, page, title=title)
    canvas = document.canvas
    canvas.setTrimBox((bleed, bleed, bleed + card_w, bleed + card_h))
    canvas.setBleedBox((0, 0, page[0], page[1]))
    for card in deck.copies():
        for back in ((True, False) if back_first else (False, True)):
            document.place(card, bleed, bleed, back=back)
            canvas.showPage()
    return color.apply(document.finish(), title, document.labels())


# Files ------------------------------------------------------------------------------------

def sheets_filename(deck: "Deck", options: SheetOptions) -> str:
    """<deck>-print-<paper>[-<card size>][-<duplex>|-fold][-fronts|-backs][-proof].pdf; the parts
    in brackets only when not the default."""
    options = options.checked()
    parts = [deck.id, "print", options.paper]
    if options.card_size not in ("deck", deck.card_size.name):
        parts.append(options.card_size)
    if options.fold:
        parts.append("fold")
    elif options.duplex == "none":
        parts.append("no-backs")
    else:
        if options.duplex != "long-edge":
            parts.append(options.duplex)
        if options.sides != "both":
            parts.append(options.sides)
    if options.proof:
        parts.append("proof")
    if options.registration:
        parts.append(options.registration)
    if options.color.mode != "rgb":
        parts.append(options.color.mode)
    if options.ink_saver:
        parts.append("ink-saver")
    return "-".join(parts) + ".pdf"


def cards_filename(deck: "Deck", card_size: str = "deck", color: ColorOptions = ColorOptions()) -> str:
    """<deck>-cards[-<card size>][-cmyk].pdf."""
    parts = [deck.id, "cards"]
    if card_size not in ("deck", deck.card_size.name):
        parts.append(card_size)
    if color.mode != "rgb":
        parts.append(color.mode)
    return "-".join(parts) + ".pdf"


def write_sheets(deck: "Deck", out_dir: Path, options: SheetOptions = SheetOptions()) -> Path:
    """The sheets PDF; with --registration also its cut files: <pdf name>-cut.svg for a full sheet,
    and <pdf name>-cut-last.svg when the last sheet is partly filled."""
    data = print_sheets(deck, options)
    path = write_bytes(out_dir / sheets_filename(deck, options), data)
    if options.registration:
        layout = options.layout(deck)
        for name, count in cut_files(deck, options, layout).items():
            write_text(out_dir / f"{path.stem}-{name}.svg", cut_svg(layout, range(count), options.corner))
    return path


def cut_files(deck: "Deck", options: SheetOptions, layout: Layout) -> dict[str, int]:
    """The SVG cut files a print-and-cut PDF needs: name -> cards on that sheet."""
    per_sheet = options.cards_per_sheet(layout)
    files = {"cut": min(per_sheet, deck.total)}
    if deck.total > per_sheet and deck.total % per_sheet:
        files["cut-last"] = deck.total % per_sheet
    return files


def write_one_per_page(deck: "Deck", out_dir: Path, card_size: str = "deck", bleed_mm: float = 3.0,
                       color: ColorOptions = ColorOptions(), allow_low_res: bool = False) -> Path:
    return write_bytes(out_dir / cards_filename(deck, card_size, color),
                       one_per_page(deck, card_size, bleed_mm, color, allow_low_res=allow_low_res))


def build_print(deck: "Deck", out_dir: Path) -> list[Path]:
    """Build step: sheets on each of the build's papers (A4 unless `build --paper`), a gutter of
    two 3 mm bleeds, duplex flipped on the long edge."""
    return [write_sheets(deck, out_dir, SheetOptions(paper=paper)) for paper in deck.papers]
