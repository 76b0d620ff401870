"""Card pictures for the HTML and Markdown rulebooks, rasterised from the deck's drawn faces.

The faces are the very pages the card images are cut from (`render.raster`): in a build
the images step has drawn them already, so the pictures cost only pdfium rasterising each
face at the size a picture file needs (vectors, so any size is sharp), with no second
drawing of the cards and no cutting out of the rulebook's pages.
"""

from __future__ import annotations

import io
from pathlib import Path

from ..model import Card, Deck
from ..output import write_bytes

# Sharp enough for a card shown about 7 rem wide on a phone with a 2x screen, small enough
# that sixty of them keep a self-contained HTML file well under a megabyte.
PICTURE_DPI = 110
IMAGE_FOLDER = Path("images") / "rulebook"
EDGE = (169, 164, 154, 255)


class CardPictures:
    def __init__(self, deck: Deck, dpi: int = PICTURE_DPI):
        self.deck, self.dpi = deck, dpi
        self._png: dict[str, bytes] = {}

    def png(self, card: Card) -> bytes:
        if not self._png:
            self._render_all()
        return self._png[card.id]

    def _render_all(self) -> None:
        from ..render.images import render_cards

        for card, image in zip(self.deck.cards, render_cards(self.deck, self.deck.cards, dpi=self.dpi)):
            buffer = io.BytesIO()
            # A 256-colour palette: card art is flat colour, and the files are a third the size.
            _as_card(image).quantize(256).save(buffer, format="PNG", compress_level=6)
            self._png[card.id] = buffer.getvalue()

    @staticmethod
    def relative_path(card: Card) -> str:
        """Where the Markdown rulebook expects a card's picture, relative to itself."""
        return (IMAGE_FOLDER / f"{card.id}.png").as_posix()

    def write_files(self, folder: Path) -> list[Path]:
        """Every card's PNG under `folder`/images/rulebook/, for the Markdown rulebook."""
        return [write_bytes(folder / self.relative_path(card), self.png(card)) for card in self.deck.cards]


def _as_card(image):
    """Rounded corners (transparent outside) and a hairline edge, so a white card reads on white paper."""
    from PIL import Image, ImageDraw

    from .pdf import CORNER_RADIUS

    width, height = image.size
    radius = round(width * CORNER_RADIUS)
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius, fill=255)
    card = image.convert("RGBA")
    card.putalpha(mask)
    ImageDraw.Draw(card).rounded_rectangle((0, 0, width - 1, height - 1), radius, outline=EDGE, width=1)
    return card
