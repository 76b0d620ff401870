"""What every card design shares: sizes relative to a poker card, text boxes, common colours.

A design is a class built for one card at one trim size. `boxes()` lists its text
boxes (checked by `text.text_problems`) and `draw()` paints it with the card's
lower-left trim corner at the origin and the background reaching `bleed` beyond.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import paint
from . import text as text_layout
from .text import TextBox

if TYPE_CHECKING:
    from ..model import Card, Deck

INK = "#1b1b1b"
READABLE_PT = 5.0  # text never shrinks below this (or its design minimum, if smaller) on small cards
PAPER = "#ffffff"
# Figures a picture card can show, with the colour used when the card's kind names none.
FIGURES = {"wizard": "#23255e", "jester": "#2e7d32", "joker": "#b3261e"}
# Frame colours for kinds that name no colour, picked by a stable hash of the kind id.
KIND_PALETTE = ("#2f5d8a", "#8a3b2f", "#3b7a48", "#6a4c93", "#a86b16", "#2f7f7f", "#8a2f62")


def figure_of(deck: "Deck", card: "Card") -> str | None:
    """A known figure named by the card's kind or rank (id or kind), else None."""
    names = [card.kind]
    if card.rank:
        rank = deck.rank(card.rank)
        names += [rank.id, rank.kind or ""]
    for name in names:
        if name in FIGURES:
            return name
    return None


def fill_and_draw(canvas, box: TextBox, color: str, rule_color: str | None = None) -> None:
    if box.spec.empty:
        return
    fitted = text_layout.fit(box.spec, box.width, box.height) or text_layout.overflowing(box.spec, box.width)
    text_layout.draw(canvas, box.spec, fitted, box.x, box.y, box.width, box.height, color, rule_color)


def rotated(canvas, width, height, draw) -> None:
    """Draw something upside down (turned about the card's centre)."""
    canvas.saveState()
    canvas.translate(width, height)
    canvas.rotate(180)
    draw()
    canvas.restoreState()


def kind_color(deck: "Deck", kind_id: str) -> str:
    try:
        color = deck.kind(kind_id).color
    except KeyError:
        color = ""
    return color or KIND_PALETTE[paint.stable_index(kind_id, len(KIND_PALETTE))]


def rules_and_flavor(deck, card, box_w, box_h, x, y, max_size, min_size, family="serif",
                      align="left") -> TextBox:
    blocks = text_layout.rich_blocks(deck, card.text, family)
    if card.flavor:
        flavor = text_layout.rich_blocks(deck, card.flavor, family, scale=0.92, italic=True)
        if flavor and blocks:
            flavor[0] = text_layout.Block(flavor[0].words, flavor[0].bullet, flavor[0].scale, rule_above=True)
        blocks += flavor
    spec = text_layout.TextSpec("text", tuple(blocks), max_size, min_size, align=align, valign="middle")
    return TextBox(spec, x, y, box_w, box_h)


class Scaled:
    """Sizes relative to a 63×88 mm poker card, with a floor below which text is unreadable."""

    POKER_PT = (178.58, 249.45)

    def __init__(self, width: float, height: float):
        self.w, self.h = width, height
        # 1 on a poker card; limited by the height on cards wider than poker proportions.
        self.k = min(width / self.POKER_PT[0], height / self.POKER_PT[1])

    def sizes(self, largest: float, smallest: float, floor: float = READABLE_PT) -> tuple[float, float]:
        """(max, min) font sizes in points for this card size; the min never drops below `floor`."""
        low = max(smallest * self.k, min(smallest, floor))
        return max(largest * self.k, low), low


class Design(Scaled):
    name = ""

    def __init__(self, deck: "Deck", card: "Card", width: float, height: float):
        super().__init__(width, height)
        self.deck, self.card = deck, card

    def boxes(self) -> list[TextBox]:
        raise NotImplementedError

    def draw(self, canvas, bleed: float) -> None:
        raise NotImplementedError

    def background(self, canvas, bleed: float, color: str = PAPER) -> None:
        paint.fill_rect(canvas, -bleed, -bleed, self.w + 2 * bleed, self.h + 2 * bleed, color)
