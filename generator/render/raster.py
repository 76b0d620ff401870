"""Card faces as pixels: each distinct face drawn once into a PDF, rasterised at any size.

A build wants the same faces several times: 300-dpi images with bleed, and smaller
faces without bleed for the Lackey and Tabletop Simulator exports. Drawing is the slow
part (reportlab, in Python); rasterising a page is quick (pdfium, in C). So the faces
of the last deck asked for are kept as one PDF, a page per face with the card centred,
and every later request that fits inside those pages is a view of them: pdfium's matrix
rendering maps the page's centre to the bitmap's centre at the asked resolution, so a
smaller bleed, or none, comes out exact without drawing anything again.

Pixels are rendered straight into a caller-shaped buffer: `row_prefix` bytes of zeros
before every row let the PNG writer compress the buffer as it is (a zero is PNG's
"no filter" tag), with no copy.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Iterator

from .document import CardDocument

if TYPE_CHECKING:
    from ..model import Card, Deck

INCH = 25.4
SLACK_PT = 1e-6  # page sizes travel through pdfium as 32-bit floats


def card_key(card: "Card | None") -> str:
    return "back" if card is None else f"face:{card.id}"


def deck_identity(deck: "Deck") -> tuple:
    """What drawn faces depend on: the deck's content and its art files' sizes and times."""
    art = tuple((card.art, card.art.stat().st_mtime_ns, card.art.stat().st_size)
                for card in deck.cards if card.art is not None and card.art.exists())
    return deck, art


@dataclass(frozen=True)
class FacePages:
    """A PDF with one page per face (and the back), the trimmed card centred on each page."""

    identity: tuple
    trim_mm: tuple[float, float]
    page_pt: tuple[float, float]
    pages: dict[str, int]  # card_key -> page index
    pdf: bytes

    def holds(self, identity: tuple, keys: Iterable[str], trim_mm: tuple[float, float],
              page_pt: tuple[float, float]) -> bool:
        return (self.trim_mm == trim_mm and all(key in self.pages for key in keys)
                and all(want <= have + SLACK_PT for want, have in zip(page_pt, self.page_pt))
                and self.identity == identity)


def draw_pages(deck: "Deck", cards: list["Card | None"], trim_mm: tuple[float, float],
               page_pt: tuple[float, float]) -> FacePages:
    """Draw each distinct card of `cards` once, on a page of `page_pt` points."""
    page_w, page_h = page_pt
    trim_w, trim_h = trim_mm[0] * 72 / INCH, trim_mm[1] * 72 / INCH
    # The card sits centred; its bleed fills the page whichever way the page is larger.
    bleed = max(page_w - trim_w, page_h - trim_h) / 2
    document = CardDocument(deck, trim_w, trim_h, bleed, page_pt)
    pages: dict[str, int] = {}
    for card in cards:
        if card_key(card) in pages:
            continue
        pages[card_key(card)] = len(pages)
        document.place(card, (page_w - trim_w) / 2, (page_h - trim_h) / 2)
        document.canvas.showPage()
    return FacePages(deck_identity(deck), trim_mm, page_pt, pages, document.finish())


_kept: FacePages | None = None


def face_pages(deck: "Deck", cards: list["Card | None"], trim_mm: tuple[float, float],
               page_pt: tuple[float, float]) -> FacePages:
    """The kept pages when they hold these cards at this trim on pages at least this large;
    else newly drawn ones (which are then kept)."""
    global _kept
    keys = [card_key(card) for card in cards]
    if _kept is None or not _kept.holds(deck_identity(deck), keys, trim_mm, page_pt):
        _kept = draw_pages(deck, cards, trim_mm, page_pt)
    return _kept


def forget_pages() -> None:
    """Drop the kept pages, so the next request draws afresh (tests, benchmarks)."""
    global _kept
    _kept = None


def rasterise(deck: "Deck", cards: Iterable["Card | None"], trim_mm: tuple[float, float],
              size_px: tuple[int, int], dpi: float, row_prefix: int = 0) -> Iterator[bytearray]:
    """Each card as RGB pixels, `size_px` large at `dpi`, the card centred: rows of
    3 × width bytes, each after `row_prefix` zero bytes."""
    import pypdfium2
    import pypdfium2.raw as pdfium

    cards = list(cards)
    if not cards:
        return
    width, height = size_px
    scale = dpi / 72
    faces = face_pages(deck, cards, trim_mm, (width / scale, height / scale))
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
            page = document[faces.pages[card_key(card)]]
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
