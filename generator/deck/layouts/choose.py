"""Which layout draws a card's face and its back.

Face: the card's own `layout`, else its rank's, its suit's, its kind's, the deck's
default, else the built-in one that suits what the card has:

- a suit and a rank: `playing` (corner indices, pips, courts, figures; with a caption
  strip when the card has text: `playing-captioned`);
- a kind or rank naming a known figure (wizard, jester, joker): `picture` (`picture-full`
  when the card has no text);
- anything else: `text` (`text-art` when the card has art).

Back: the card's `back_layout`, else its kind's, else the deck's, else `back`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .book import Layout, LayoutBook, builtin_book
from .values import figure_of

if TYPE_CHECKING:
    from ..model import Card, Deck


def choose_face(deck: "Deck", card: "Card") -> Layout:
    name = card.layout
    if not name and card.rank:
        name = deck.rank(card.rank).layout
    if not name and card.suit:
        name = deck.suit(card.suit).layout
    if not name:
        kind = next((k for k in deck.kinds if k.id == card.kind), None)
        name = kind.layout if kind else ""
    name = name or deck.layout or automatic_layout(deck, card)
    return _book(deck).get(name) or builtin_book().layouts[automatic_layout(deck, card)]


def choose_back(deck: "Deck", card: "Card | None") -> Layout:
    name = ""
    if card is not None:
        name = card.back_layout
        if not name:
            kind = next((k for k in deck.kinds if k.id == card.kind), None)
            name = kind.back_layout if kind else ""
    name = name or deck.back_layout or "back"
    return _book(deck).get(name) or builtin_book().layouts["back"]


def automatic_layout(deck: "Deck", card: "Card") -> str:
    """The built-in layout for what a card has."""
    if card.suit and card.rank:
        return "playing-captioned" if card.text else "playing"
    if figure_of(deck, card):
        return "picture" if card.text or card.flavor else "picture-full"
    return "text-art" if card.art else "text"


def _book(deck: "Deck") -> LayoutBook:
    return deck.layouts if deck.layouts is not None else builtin_book()
