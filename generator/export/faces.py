"""Card faces at screen size, rendered once per deck and shared by every export.

Lackey and Tabletop Simulator both want one image per distinct card. Both get the same
size: the largest that fits a cell of a 10 x 7 Tabletop Simulator sheet kept under
4096 px a side (409 x 585 px), which is also a comfortable Lackey card (about 300-500 px
wide). The faces of the last deck asked for are kept, so a build that writes both
exports renders each face once.
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


def face_size(deck: "Deck") -> tuple[int, int]:
    """Pixel size of a card face: the card's shape, as large as fits CELL_BOX."""
    width_mm, height_mm = deck.card_size.width_mm, deck.card_size.height_mm
    scale = min(CELL_BOX[0] / width_mm, CELL_BOX[1] / height_mm)
    return max(1, int(width_mm * scale)), max(1, int(height_mm * scale))


class Faces:
    """The faces and back of one deck, rendered on first use."""

    def __init__(self, deck: "Deck"):
        self.deck = deck
        self.size = face_size(deck)
        self._images: dict[str | None, "Image.Image"] = {}

    def image(self, card: "Card | None") -> "Image.Image":
        """The face of `card`, or the back for None: RGB, exactly `self.size`."""
        key = None if card is None else card.id
        if key not in self._images:
            self._images[key] = self._render(card)
        return self._images[key]

    def jpeg(self, card: "Card | None") -> bytes:
        return jpeg_bytes(self.image(card))

    def _render(self, card: "Card | None") -> "Image.Image":
        from PIL import Image

        from ..render.images import card_image

        dpi = self.size[0] / (self.deck.card_size.width_mm / 25.4)
        image = card_image(self.deck, card, dpi=dpi, bleed_mm=0.0).convert("RGB")
        if image.size != self.size:
            image = image.resize(self.size, Image.Resampling.LANCZOS)
        return image


def blank_face(deck: "Deck", size: tuple[int, int]) -> "Image.Image":
    """A plain card in the back's colours: Lackey shows it for spawned cards and missing images."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size, "#ffffff")
    border = max(2, size[0] // 24)
    ImageDraw.Draw(image).rectangle((0, 0, size[0] - 1, size[1] - 1), outline=deck.back.color, width=border)
    return image


def jpeg_bytes(image: "Image.Image") -> bytes:
    """Baseline JPEG, full-resolution colour (small text stays sharp), no metadata: same
    pixels give the same bytes."""
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=JPEG_QUALITY, subsampling=0, optimize=True)
    return buffer.getvalue()


_last: Faces | None = None


def faces_for(deck: "Deck") -> Faces:
    """The faces of `deck`, reusing the renders of the previous call for the same deck object."""
    global _last
    if _last is None or _last.deck is not deck:
        _last = Faces(deck)
    return _last
