"""Card pictures for the HTML and Markdown rulebooks: PNGs from the print renderer, made once per card."""

from __future__ import annotations

import io
from pathlib import Path

from ..model import Card, Deck
from ..output import write_bytes

# Sharp enough for a card shown about 7 rem wide on a phone with a 2x screen, small enough
# that sixty of them keep a self-contained HTML file around a megabyte.
PICTURE_DPI = 110
IMAGE_FOLDER = Path("images") / "rulebook"


class CardPictures:
    def __init__(self, deck: Deck, dpi: int = PICTURE_DPI):
        self.deck, self.dpi = deck, dpi
        self._png: dict[str, bytes] = {}

    def png(self, card: Card) -> bytes:
        if card.id not in self._png:
            from ..render.images import card_image

            buffer = io.BytesIO()
            card_image(self.deck, card, self.dpi, 0).save(buffer, format="PNG", optimize=False, compress_level=6)
            self._png[card.id] = buffer.getvalue()
        return self._png[card.id]

    @staticmethod
    def relative_path(card: Card) -> str:
        """Where the Markdown rulebook expects a card's picture, relative to itself."""
        return (IMAGE_FOLDER / f"{card.id}.png").as_posix()

    def write_files(self, folder: Path) -> list[Path]:
        """Every card's PNG under `folder`/images/rulebook/, for the Markdown rulebook."""
        return [write_bytes(folder / self.relative_path(card), self.png(card)) for card in self.deck.cards]
