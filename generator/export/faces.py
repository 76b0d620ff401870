"""Card faces at screen size, rendered once per deck and shared by every export.

Lackey and Tabletop Simulator both want one image per distinct card. Both get the same
size: the largest that fits a cell of a 10 x 7 Tabletop Simulator sheet kept under
4096 px a side (409 x 585 px), which is also a comfortable Lackey card (about 300-500 px
wide). The faces of the last deck asked for are kept, so a build that writes both
exports renders each face once, in one document.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

    from ..model import Card, Deck

MAX_SHEET_PX = 4096
SHEET_COLUMNS, SHEET_ROWS = 10, 7
CELL_BOX = (MAX_SHEET_PX // SHEET_COLUMNS, MAX_SHEET_PX // SHEET_ROWS)  # (409, 585)
JPEG_QUALITY = 90


def face_dpi(deck: "Deck") -> int:
    """The highest whole dpi at which the card fits CELL_BOX."""
    width_in, height_in = deck.card_size.width_mm / 25.4, deck.card_size.height_mm / 25.4
    return max(1, int(min(CELL_BOX[0] / width_in, CELL_BOX[1] / height_in)))


class Faces:
    """The faces and back of one deck, all rendered together on first use."""

    def __init__(self, deck: "Deck"):
        from ..render.images import pixel_size

        self.deck = deck
        self.dpi = face_dpi(deck)
        self.size = pixel_size((deck.card_size.width_mm, deck.card_size.height_mm), 0.0, self.dpi)
        self._images: dict[str | None, "Image.Image"] = {}
        self._jpegs: dict[str | None, bytes] = {}

    def image(self, card: "Card | None") -> "Image.Image":
        """The face of `card`, or the back for None: RGB, `self.size` pixels."""
        if not self._images:
            self._render_all()
        return self._images[None if card is None else card.id]

    def jpeg(self, card: "Card | None") -> bytes:
        key = None if card is None else card.id
        if key not in self._jpegs:
            self._jpegs[key] = jpeg_bytes(self.image(card))
        return self._jpegs[key]

    def _render_all(self) -> None:
        from ..render.check import require_printable
        from ..render.images import render_cards

        # The same checks as printing: missing art or text that does not fit is reported, not drawn cut.
        require_printable(self.deck, self.deck.card_size.width_mm, self.deck.card_size.height_mm)
        # One document for the whole deck: far quicker than one render per card.
        cards: list["Card | None"] = [*self.deck.cards, None]
        for card, image in zip(cards, render_cards(self.deck, cards, dpi=self.dpi, bleed_mm=0.0)):
            self._images[None if card is None else card.id] = image


def blank_face(deck: "Deck", size: tuple[int, int]) -> "Image.Image":
    """A plain card in the back's colours: Lackey shows it for spawned cards and missing images."""
    from PIL import Image, ImageDraw

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


def _identity(deck: "Deck") -> tuple:
    """What the faces depend on: the deck's content and its art files' sizes and times."""
    art = tuple((card.art, card.art.stat().st_mtime_ns, card.art.stat().st_size)
                for card in deck.cards if card.art is not None and card.art.exists())
    return deck, art


def faces_for(deck: "Deck") -> Faces:
    """The faces of `deck`: the previous call's renders when the deck and its art are unchanged
    (a build's exports, or repeated exports in one process), new ones otherwise."""
    global _last
    identity = _identity(deck)
    if _last is None or _last[0] != identity:
        _last = (identity, Faces(deck))
    return _last[1]


def clear_cache() -> None:
    """Forget the kept faces, so the next export renders afresh (benchmarks, determinism tests)."""
    global _last
    _last = None
