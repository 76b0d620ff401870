"""Card pictures in the printed rulebook: each distinct face drawn once as a PDF form (by the
print renderer, so the rulebook shows what the sheets print) and placed as a physical card,
singly, fanned as in a hand, or in a figure of play."""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from ..deck.model import Card, Deck
from ..faces.cards import draw_face

CARD_EDGE = colors.HexColor("#a9a49a")
CORNER_RADIUS = 3.2 / 63  # of the card's width: a poker card's 3.2 mm corners


class CardPicture(Flowable):
    """A card face drawn by the print renderer (vectors, same as the print sheets)."""

    def __init__(self, deck: Deck, card: Card, width: float, shadow: bool = True):
        super().__init__()
        self.deck, self.card = deck, card
        self.width = width
        self.height = width * deck.card_size.height_mm / deck.card_size.width_mm
        self.shadow = shadow

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        _card(self.canv, self.deck, self.card, 0, 0, self.width, self.height, self.shadow, upright=True)


class CardFan(Flowable):
    """A few cards fanned out around a point below them, as held in a hand."""

    def __init__(self, deck: Deck, cards: tuple[Card, ...], card_width: float, spread: float = 11.0):
        super().__init__()
        self.deck, self.cards = deck, cards
        self.card_width = card_width
        self.card_height = card_width * deck.card_size.height_mm / deck.card_size.width_mm
        self.radius = self.card_height * 1.6  # pivot distance below the cards' bottom edge
        self.angles = [(index - (len(cards) - 1) / 2) * -spread for index in range(len(cards))]
        corners = [_rotate(x, y, angle) for angle in self.angles
                   for x in (-card_width / 2, card_width / 2)
                   for y in (self.radius, self.radius + self.card_height)]
        self.left = min(x for x, _ in corners)
        self.bottom = min(y for _, y in corners)
        self.width = max(x for x, _ in corners) - self.left
        self.height = max(y for _, y in corners) - self.bottom

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        # Outer cards first, so the middle card (the one the cover is about) lies on top.
        order = sorted(range(len(self.cards)), key=lambda index: -abs(self.angles[index]))
        for angle, card in ((self.angles[index], self.cards[index]) for index in order):
            self.canv.saveState()
            self.canv.translate(-self.left, -self.bottom)
            self.canv.rotate(angle)
            x, y = -self.card_width / 2, self.radius
            _card(self.canv, self.deck, card, x, y, self.card_width, self.card_height, shadow=True)
            self.canv.restoreState()


def _rotate(x: float, y: float, degrees: float) -> tuple[float, float]:
    angle = math.radians(degrees)
    return x * math.cos(angle) - y * math.sin(angle), x * math.sin(angle) + y * math.cos(angle)


def figure_card(canv, card: Card, x: float, y: float, width: float, height: float) -> None:
    _card(canv, canv._doctemplate.book.deck, card, x, y, width, height, shadow=True)


def _card(canv, deck: Deck, card: Card, x: float, y: float, width: float, height: float,
          shadow: bool, upright: bool = False) -> None:
    """A card as a physical object: rounded corners, a hairline edge, a soft shadow under it.
    `upright`: drawn unrotated, so its picture can be cut out of the page (see `Typeset`)."""
    stamps: CardStamps = canv._doctemplate.card_stamps
    radius = width * CORNER_RADIUS
    if shadow:
        canv.saveState()
        canv.setFillColor(colors.Color(0, 0, 0, alpha=0.18))
        canv.roundRect(x + 0.8, y - 1.2, width, height, radius, stroke=0, fill=1)
        canv.restoreState()
    stamps.place(canv, card, x, y, width, height, upright)
    canv.saveState()
    canv.setStrokeColor(CARD_EDGE)
    canv.setLineWidth(0.4)
    canv.roundRect(x, y, width, height, radius, stroke=1, fill=0)
    canv.restoreState()


class CardStamps:
    """Each distinct face is drawn once, as a PDF form, and placed wherever it is shown; where it
    is shown upright and largest is kept, so its picture can be cut out of the page later."""

    def __init__(self, deck: Deck):
        self.deck = deck
        self.width = deck.card_size.width_mm * mm
        self.height = deck.card_size.height_mm * mm
        self.names = {card.id: f"CardFace{index}" for index, card in enumerate(deck.cards)}
        self.placements: dict[str, Placement] = {}
        self._defined: set[str] = set()

    def place(self, canv, card: Card, x: float, y: float, width: float, height: float,
              upright: bool) -> None:
        name = self.names[card.id]
        if name not in self._defined:
            canv.beginForm(name, 0, 0, self.width, self.height)
            outline = canv.beginPath()
            outline.roundRect(0, 0, self.width, self.height, self.width * CORNER_RADIUS)
            canv.clipPath(outline, stroke=0, fill=0)
            draw_face(canv, self.deck, card, 0, 0, self.width, self.height, 0)
            canv.endForm()
            self._defined.add(name)
        canv.saveState()
        canv.translate(x, y)
        canv.scale(width / self.width, height / self.height)
        canv.doForm(name)
        canv.restoreState()
        if upright:
            left, bottom = canv.absolutePosition(x, y)
            right, top = canv.absolutePosition(x + width, y + height)
            known = self.placements.get(card.id)
            if known is None or right - left > known.box[2] - known.box[0]:
                self.placements[card.id] = Placement(canv.getPageNumber() - 1, (left, bottom, right, top))


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a card's picture is on the typeset pages: page index and (left, bottom, right, top) in points."""

    page: int
    box: tuple[float, float, float, float]
