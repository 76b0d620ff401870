"""Card faces at screen size, rendered once per deck and shared by every export.

Lackey and Tabletop Simulator both want one image per distinct card. Both get the same
size: the largest that fits a cell of a 10 x 7 Tabletop Simulator sheet kept under
4096 px a side (409 x 585 px), which is also a comfortable Lackey card (about 300-500 px
wide). The faces of the last deck asked for are kept, so a build that writes both
exports renders each face once (`Faces.keep_jpegs`); in a build they are rasterised from the pages the
images step drew (`render.raster`), so nothing is drawn twice.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Iterable, Iterator

from PIL import Image, ImageDraw

from ..faces.check import require_printable
from ..faces.images import pixel_size, render_cards
from ..faces.raster import BackOf, deck_identity, forget_pages

if TYPE_CHECKING:
    from ..deck.model import Card, Deck

MAX_SHEET_PX = 4096
SHEET_COLUMNS, SHEET_ROWS = 10, 7
CELL_BOX = (MAX_SHEET_PX // SHEET_COLUMNS, MAX_SHEET_PX // SHEET_ROWS)  # (409, 585)
JPEG_QUALITY = 90


def face_dpi(deck: "Deck") -> int:
    """The highest whole dpi at which the card fits CELL_BOX."""
    width_in, height_in = deck.card_size.width_mm / 25.4, deck.card_size.height_mm / 25.4
    return max(1, int(min(CELL_BOX[0] / width_in, CELL_BOX[1] / height_in)))


class Faces:
    """The faces and back of one deck: their JPEGs, made on first use and kept, and the images
    themselves, rasterised afresh when asked (kept, they would take a megabyte each).

    With `keep_jpegs()` (a build, which writes the Tabletop Simulator sheets and then the
    Lackey images), every face rasterised for a sheet is also kept as the JPEG Lackey wants,
    so no face is rasterised twice."""

    def __init__(self, deck: "Deck"):
        self.deck = deck
        self.dpi = face_dpi(deck)
        self.size = pixel_size((deck.card_size.width_mm, deck.card_size.height_mm), 0.0, self.dpi)
        self._jpegs: dict[str | None, bytes] = {}
        self._checked = False
        self._keeping = False

    def keep_jpegs(self) -> None:
        self._keeping = True

    def images(self, cards: Iterable["Card | BackOf | None"]) -> Iterator["Image.Image"]:
        """The face of each card, its own back for a `BackOf`, or the deck's back for None: RGB,
        `self.size` pixels."""

        if not self._checked:
            # The same checks as printing: missing art or text that does not fit is reported, not drawn cut.
            require_printable(self.deck, self.deck.card_size.width_mm, self.deck.card_size.height_mm)
            self._checked = True
        cards = list(cards)
        # Rasterised from the pages the build's images step drew, or drawn once for the whole deck.
        for card, image in zip(cards, render_cards(self.deck, cards, dpi=self.dpi, bleed_mm=0.0)):
            key = None if card is None else getattr(card, "id", None)
            if self._keeping and not isinstance(card, BackOf) and key not in self._jpegs:
                self._jpegs[key] = jpeg_bytes(image)
            yield image

    def jpeg(self, card: "Card | None") -> bytes:
        key = None if card is None else card.id
        if key not in self._jpegs:
            cards: list["Card | None"] = [each for each in (*self.deck.cards, None)
                                          if (None if each is None else each.id) not in self._jpegs]
            for each, image in zip(cards, self.images(cards)):
                self._jpegs.setdefault(None if each is None else each.id, jpeg_bytes(image))
        return self._jpegs[key]


def blank_face(deck: "Deck", size: tuple[int, int]) -> "Image.Image":
    """A plain card in the back's colours: Lackey shows it for spawned cards and missing images."""
    image = Image.new("RGB", size, "#ffffff")
    border = max(2, size[0] // 24)
    ImageDraw.Draw(image).rectangle((0, 0, size[0] - 1, size[1] - 1), outline=deck.back.color, width=border)
    return image


def jpeg_bytes(image: "Image.Image") -> bytes:
    """Baseline JPEG, full-resolution colour so small text stays sharp, no metadata: the
    same pixels give the same bytes."""
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, subsampling=0)
    return buffer.getvalue()


_last: tuple[tuple, Faces] | None = None


def faces_for(deck: "Deck") -> Faces:
    """The faces of `deck`: the previous call's renders when the deck and its art are unchanged
    (a build's exports, or repeated exports in one process), new ones otherwise."""
    global _last
    identity = deck_identity(deck)
    if _last is None or _last[0] != identity:
        _last = (identity, Faces(deck))
    return _last[1]


def clear_cache() -> None:
    """Forget the kept faces and drawn pages, so the next export renders afresh (benchmarks,
    determinism tests)."""
    global _last
    _last = None
    forget_pages()
