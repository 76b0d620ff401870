"""Card faces and the card back, drawn on any reportlab canvas.

`draw_face` / `draw_back` are the public entry points (print sheets, single-card
PDFs, images and the rulebook all call them). The design is chosen by what a
card has, never by the deck's name:

- a suit and a rank: a playing card (corner indices; pips for number ranks, one
  large pip for an ace, a double-ended figure for J/Q/K, a picture for a rank
  that names a known figure such as a suited Wizard);
- a kind with a known figure (wizard, jester, joker) and no suit/rank: a picture card;
- anything else: a text card (title, corner value, art box, type line, rules and flavour).

Coordinates: (x, y) is the lower-left corner of the trimmed card, width/height its
trim size in points; the background extends `bleed_pt` beyond the trim on every side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .backs import Back
from .design import figure_of
from .picture import PictureCard
from .playing import PlayingCard
from .text import TextBox
from .textcard import TextCard

if TYPE_CHECKING:
    from ..model import Card, Deck


# Public API -----------------------------------------------------------------------------

def draw_face(canvas, deck: "Deck", card: "Card", x: float, y: float, width_pt: float,
              height_pt: float, bleed_pt: float = 0.0) -> None:
    """Draw a card's face with its lower-left trim corner at (x, y)."""
    _framed(canvas, x, y, width_pt, height_pt, bleed_pt,
            lambda: _design_for(deck, card, width_pt, height_pt).draw(canvas, bleed_pt))


def draw_back(canvas, deck: "Deck", x: float, y: float, width_pt: float, height_pt: float,
              bleed_pt: float = 0.0) -> None:
    """Draw the deck's card back (the same for every card) with its lower-left trim corner at (x, y)."""
    _framed(canvas, x, y, width_pt, height_pt, bleed_pt,
            lambda: Back(deck, width_pt, height_pt).draw(canvas, bleed_pt))


def face_text_boxes(deck: "Deck", card: "Card", width_pt: float, height_pt: float) -> list[TextBox]:
    """Every text box on a card's face, as the face draws it (for checking)."""
    return _design_for(deck, card, width_pt, height_pt).boxes()


def back_text_boxes(deck: "Deck", width_pt: float, height_pt: float) -> list[TextBox]:
    return Back(deck, width_pt, height_pt).boxes()


def design_name(deck: "Deck", card: "Card") -> str:
    """Which design draws this card: 'playing', 'picture' or 'text'."""
    return _design_class(deck, card).name


# Choosing a design ------------------------------------------------------------------------

def _framed(canvas, x, y, width, height, bleed, draw) -> None:
    canvas.saveState()
    canvas.translate(x, y)
    clip = canvas.beginPath()
    clip.rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed)
    canvas.clipPath(clip, stroke=0, fill=0)
    draw()
    canvas.restoreState()


def _design_class(deck: "Deck", card: "Card"):
    if card.suit and card.rank:
        return PlayingCard
    if figure_of(deck, card):
        return PictureCard
    return TextCard


def _design_for(deck, card, width, height):
    return _design_class(deck, card)(deck, card, width, height)
