"""Card pictures and figures of play for the HTML and Markdown rulebooks.

Card pictures are rasterised from the deck's drawn faces: the very pages the card images are
cut from (`render.raster`); in a build the images step has drawn them already, so they cost
only pdfium rasterising each face at the size a picture file needs. Figures of play are cut
out of the typeset PDF, so all three formats show one drawing; the PDF is typeset for them
only when a figure is asked for.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from PIL import Image, ImageDraw

from ..core.errors import DeckgenError
from ..core.output import write_bytes
from ..deck.figures import Figure
from ..deck.model import Card, Deck
from ..faces.images import render_cards
from .pdf_cards import CORNER_RADIUS
from .templated import png_data_uri

if TYPE_CHECKING:
    from .pdf import Typeset

# Sharp enough for a card shown about 7 rem wide on a phone with a 2x screen, small enough
# that sixty of them keep a self-contained HTML file well under a megabyte.
PICTURE_DPI = 110
IMAGE_FOLDER = Path("images") / "rulebook"
EDGE = (169, 164, 154, 255)
# A figure is shown half as large again as in print (its labels stay legible on a screen), at
# most the column's width, from pixels sharp enough for a 2x phone screen.
FIGURE_SCALE = 1.5
FIGURE_DPI = 240
CSS_PX_PER_POINT = 96 / 72


class CardPictures:
    def __init__(self, deck: Deck, typeset_rulebook: Callable[[], "Typeset"], dpi: int = PICTURE_DPI):
        self.deck, self.dpi = deck, dpi
        self._typeset_rulebook = typeset_rulebook  # the PDF the figures are cut from, made on first use
        self._rulebook: "Typeset | None" = None
        self._png: dict[str, bytes] = {}
        self._figures: dict[str, bytes] = {}

    @property
    def rulebook(self) -> "Typeset":
        if self._rulebook is None:
            self._rulebook = self._typeset_rulebook()
        return self._rulebook

    def figure_image(self, figure: Figure, as_file: bool = False) -> tuple[str, int, int]:
        """(data URL, or the Markdown's relative path; width and height in CSS pixels) of a figure."""
        placement = self.rulebook.figure_placements.get(figure.key)
        if placement is None:
            raise DeckgenError(f"internal: the rulebook PDF does not show the figure {figure.text}")
        left, bottom, right, top = placement.box
        size = (round((right - left) * CSS_PX_PER_POINT * FIGURE_SCALE),
                round((top - bottom) * CSS_PX_PER_POINT * FIGURE_SCALE))
        return (self.figure_path(figure) if as_file else png_data_uri(self.figure_png(figure))), *size

    def figure_png(self, figure: Figure) -> bytes:
        if not self._figures:
            self._cut_figures()
        return self._figures[figure.key]

    def _cut_figures(self) -> None:
        """Every figure's drawing as a PNG with a transparent background, the PDF opened once."""
        import pypdfium2

        document = pypdfium2.PdfDocument(self.rulebook.pdf)
        try:
            for key, placement in self.rulebook.figure_placements.items():
                page = document[placement.page]
                page_width, page_height = page.get_size()
                left, bottom, right, top = placement.box
                bitmap = page.render(scale=FIGURE_DPI / 72, draw_annots=False, fill_color=(255, 255, 255, 0),
                                     crop=(left, bottom, page_width - right, page_height - top))
                page.close()
                buffer = io.BytesIO()
                # A palette of 256 colours (transparency kept) makes the file a third the size.
                bitmap.to_pil().convert("RGBA").quantize(256, method=Image.Quantize.FASTOCTREE).save(
                    buffer, format="PNG", optimize=True)
                self._figures[key] = buffer.getvalue()
        finally:
            document.close()

    @staticmethod
    def figure_path(figure: Figure) -> str:
        return (IMAGE_FOLDER / f"figure-{figure.key}.png").as_posix()

    def png(self, card: Card) -> bytes:
        if not self._png:
            self._render_all()
        return self._png[card.id]

    def _render_all(self) -> None:
        for card, image in zip(self.deck.cards, render_cards(self.deck, self.deck.cards, dpi=self.dpi)):
            buffer = io.BytesIO()
            # A 256-colour palette: card art is flat colour, and the files are a third the size.
            _as_card(image).quantize(256).save(buffer, format="PNG", compress_level=6)
            self._png[card.id] = buffer.getvalue()

    @staticmethod
    def relative_path(card: Card) -> str:
        """Where the Markdown rulebook expects a card's picture, relative to itself."""
        return (IMAGE_FOLDER / f"{card.id}.png").as_posix()

    def write_files(self, folder: Path, figures: list[Figure] = ()) -> list[Path]:
        """Every card's PNG under `folder`/images/rulebook/, and each figure's, for the Markdown rulebook."""
        written = [write_bytes(folder / self.relative_path(card), self.png(card)) for card in self.deck.cards]
        for figure in {figure.key: figure for figure in figures}.values():
            written.append(write_bytes(folder / self.figure_path(figure), self.figure_png(figure)))
        return written


def _as_card(image):
    """Rounded corners (transparent outside) and a hairline edge, so a white card reads on white paper."""
    shape, edges = _card_masks(image.size)
    card = image.convert("RGBA")
    card.putalpha(shape)
    for box, edge in edges:  # the pixels ImageDraw's one-pixel outline sets, set to EDGE
        card.paste(EDGE, box, mask=edge)
    return card


@lru_cache(maxsize=4)
def _card_masks(size: tuple[int, int]):
    """A card's shape (255 inside its rounded corners), drawn once per size, and its one-pixel
    outline as four bands along the sides (the outline lies within a corner radius of them),
    so marking it touches only those."""

    width, height = size
    radius = round(width * CORNER_RADIUS)
    shape, outline = Image.new("L", size, 0), Image.new("L", size, 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, width - 1, height - 1), radius, fill=255)
    ImageDraw.Draw(outline).rounded_rectangle((0, 0, width - 1, height - 1), radius, outline=255, width=1)
    band = min(radius + 1, width // 2, height // 2)
    boxes = [(0, 0, width, band), (0, height - band, width, height),
             (0, band, band, height - band), (width - band, band, width, height - band)]
    return shape, [(box, outline.crop(box)) for box in boxes if box[2] > box[0] and box[3] > box[1]]
