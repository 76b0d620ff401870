"""Card faces as pixels: a deck's faces drawn once into a PDF, rasterised at any size.

A build wants the same faces several times: 300-dpi images with bleed, and smaller
faces without bleed for the Lackey and Tabletop Simulator exports. Drawing is the slow
part (reportlab, in Python); rasterising a page is quick (pdfium, in C). So every
distinct face and the back are drawn once, a page each with the trimmed card centred
and a fixed bleed around it, and each requested size is a view of those pages: pdfium's
matrix rendering maps the page's centre to the bitmap's centre at the asked resolution,
so any bleed up to the drawn one, or none, comes out without drawing anything again.
The pages of the last deck asked for are kept.

The pages depend only on the deck, the trim and the drawn bleed, and the drawn bleed
only on the request, never on what was drawn before: the same request gives the same
pixels whether the pages were drawn for it or kept from an earlier one.

Pixels are rendered straight into a caller-shaped buffer: `row_prefix` bytes of zeros
before every row let the PNG writer compress the buffer as it is (a zero is PNG's
"no filter" tag), with no copy.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Iterator

from ..deck.sizes import pt
from .cards import back_identity
from .document import CardDocument

if TYPE_CHECKING:
    from ..deck.model import Card, Deck

# Drawn around every card: the images' 3 mm bleed plus the half pixel their rounding may
# add even at 30 dpi, so images and exports share one drawing.
STANDARD_BLEED_MM = 4.0


def deck_identity(deck: "Deck") -> tuple:
    """What drawn faces depend on: the deck's content and its art files' sizes and times."""
    art = tuple((card.art, card.art.stat().st_mtime_ns, card.art.stat().st_size)
                for card in deck.cards if card.art is not None and card.art.exists())
    return deck, art


def drawn_bleed_mm(bleed_mm: float, dpi: float) -> float:
    """The bleed to draw for images with `bleed_mm` at `dpi`: enough for the bleed and a
    pixel of rounding; the standard one when that is enough, else whole millimetres."""
    pixel_mm = 25.4 / dpi
    return max(STANDARD_BLEED_MM, float(math.ceil(bleed_mm + pixel_mm)))


@dataclass(frozen=True)
class FacePages:
    """A PDF with a page per distinct face and one for the back, the card centred on each."""

    identity: tuple
    trim_mm: tuple[float, float]
    bleed_mm: float
    pages: dict[str, int]  # card_key -> page index
    pdf: bytes

    @property
    def page_pt(self) -> tuple[float, float]:
        return tuple(pt(side) + 2 * pt(self.bleed_mm) for side in self.trim_mm)  # type: ignore[return-value]


@dataclass(frozen=True)
class BackOf:
    """A request for one card's own back (its back layout), not its face."""

    card: "Card"


def card_key(card: "Card | BackOf | None") -> str:
    if isinstance(card, BackOf):
        return f"back:{card.card.id}"
    return "back" if card is None else f"face:{card.id}"


def own_backs(deck: "Deck", trim_mm: tuple[float, float]) -> list["Card"]:
    """Cards whose back differs from the deck's default back."""
    width, height = pt(trim_mm[0]), pt(trim_mm[1])
    default = back_identity(deck, None, width, height)
    return [card for card in deck.cards if back_identity(deck, card, width, height) != default]


def draw_pages(deck: "Deck", trim_mm: tuple[float, float], bleed_mm: float,
               cards: Iterable["Card | BackOf | None"] | None = None) -> FacePages:
    """Every distinct face, then the default back, then each card's own back (or only `cards`,
    None being the default back), a page each,
    with `bleed_mm` around the trim."""
    trim_w, trim_h, bleed = pt(trim_mm[0]), pt(trim_mm[1]), pt(bleed_mm)
    document = CardDocument(deck, trim_w, trim_h, bleed, (trim_w + 2 * bleed, trim_h + 2 * bleed))
    pages: dict[str, int] = {}
    everything = [*deck.cards, None, *(BackOf(card) for card in own_backs(deck, trim_mm))]
    for card in (everything if cards is None else cards):
        pages[card_key(card)] = len(pages)
        if isinstance(card, BackOf):
            document.place(card.card, bleed, bleed, back=True)
        else:
            document.place(card, bleed, bleed)
        document.canvas.showPage()
    return FacePages(deck_identity(deck), trim_mm, bleed_mm, pages, document.finish())


_kept: FacePages | None = None


def face_pages(deck: "Deck", trim_mm: tuple[float, float], bleed_mm: float, dpi: float) -> FacePages:
    """The pages that images of this deck with `bleed_mm` at `dpi` are cut from: the kept
    ones when they are those, else newly drawn ones, which are then kept."""
    global _kept
    bleed = drawn_bleed_mm(bleed_mm, dpi)
    if _kept is None or (_kept.trim_mm, _kept.bleed_mm) != (trim_mm, bleed) or _kept.identity != deck_identity(deck):
        _kept = draw_pages(deck, trim_mm, bleed)
    return _kept


def forget_pages() -> None:
    """Drop the kept pages, so the next request draws afresh (tests, benchmarks)."""
    global _kept
    _kept = None


def rasterise(faces: FacePages, cards: Iterable["Card | None"], size_px: tuple[int, int], dpi: float,
              row_prefix: int = 0) -> Iterator[bytearray]:
    """Each card (None: the back) as RGB pixels, `size_px` large at `dpi`, the card centred:
    rows of 3 × width bytes, each after `row_prefix` zero bytes."""
    import pypdfium2
    import pypdfium2.raw as pdfium

    width, height = size_px
    scale = dpi / 72
    page_w, page_h = faces.page_pt
    # pdfium puts the page in a page_w x page_h point box (y down), then applies this matrix.
    matrix = pdfium.FS_MATRIX(scale, 0, 0, scale, width / 2 - scale * page_w / 2, height / 2 - scale * page_h / 2)
    clip = pdfium.FS_RECTF(0, 0, width, height)
    flags = pdfium.FPDF_ANNOT | pdfium.FPDF_REVERSE_BYTE_ORDER  # RGB, not pdfium's native BGR
    stride = row_prefix + 3 * width
    document = pypdfium2.PdfDocument(faces.pdf)
    try:
        for card in cards:
            buffer = bytearray(stride * height)
            pixels = (ctypes.c_ubyte * (len(buffer) - row_prefix)).from_buffer(buffer, row_prefix)
            bitmap = pdfium.FPDFBitmap_CreateEx(width, height, pdfium.FPDFBitmap_BGR, pixels, stride)
            key = card_key(card)
            page = document[faces.pages[key] if key in faces.pages else faces.pages["back"]]
            try:
                pdfium.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, 0xFFFFFFFF)
                pdfium.FPDF_RenderPageBitmapWithMatrix(bitmap, page, matrix, clip, flags)
            finally:
                pdfium.FPDFBitmap_Destroy(bitmap)
                page.close()
            del pixels  # releases the buffer's export, so the caller may use it freely
            yield buffer
    finally:
        document.close()
