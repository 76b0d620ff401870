"""`deckgen layout show`: a layout as a designer reads it, every element with the box it gets on a
real card of the deck (in mm from the trim's top-left corner), so built-in layouts need no
reading of their TOML to be extended or overridden."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .choose import choose_back, choose_face
from .fields import DEFAULTS
from .place import place
from .units import POINTS_PER_MM
from .values import CardValues

if TYPE_CHECKING:
    from ..model import Card, Deck
    from .book import Layout

_BLEED_MM = 3.0
_SHOWN_PROPS = ("field", "text", "src", "shape", "pattern", "fill", "color", "family", "size", "when", "unless")


class UnknownLayout(LookupError):
    """A name that is not one of the deck's layouts (built-in, shared or its own)."""


def sample_card(deck: "Deck", layout: "Layout") -> "Card | None":
    """The first card that draws this layout (face or back), else the deck's first card."""
    chooser = choose_back if layout.side == "back" else choose_face
    return next((card for card in deck.cards if chooser(deck, card).name == layout.name),
                deck.cards[0] if deck.cards else None)


def describe(deck: "Deck", name: str, card: "Card | None" = None) -> list[str]:
    """Lines describing layout `name`: its side, what it extends, and each element's type, box and
    main settings on `card` (default: the first card that uses it)."""
    layout = deck.layouts.get(name) if deck.layouts is not None else None
    if layout is None:
        known = ", ".join(deck.layouts.names()) if deck.layouts is not None else "none"
        raise UnknownLayout(f"deck {deck.id!r} has no layout {name!r}; known: {known}")
    card = card or sample_card(deck, layout)
    width_mm, height_mm = deck.card_size.width_mm, deck.card_size.height_mm
    points = POINTS_PER_MM
    placed = {item.element.where: item for item in place(
        deck, layout, card, width_mm * points, height_mm * points, _BLEED_MM * points, CardValues(deck, card))}
    origin = "built-in" if layout.builtin else "the deck's"
    shown_on = f"card {card.name!r} ({card.code})" if card else "no card"
    lines = [f"layout {layout.name!r}: {origin} {layout.side} layout, {len(layout.elements)} elements, "
             f"on {shown_on}, {width_mm:g}×{height_mm:g} mm trim, {_BLEED_MM:g} mm bleed",
             f"  {'element':<16} {'type':<8} {'x':>7} {'y':>7} {'width':>7} {'height':>7}  settings (mm from the "
             "trim's top-left)"]
    for element in layout.elements:
        item = placed.get(element.where)
        props = {**DEFAULTS.get(element.type, {}), **element.props}  # what it draws, however written
        settings = "; ".join(f"{key}={props[key]!r}" for key in _SHOWN_PROPS if key in props)
        if item is None:
            lines.append(f"  {element.name:<16} {element.type:<8} {'not drawn on this card':>31}  {settings}")
            continue
        box = item.box
        x, y = box.x / points, height_mm - box.top / points
        lines.append(f"  {element.name:<16} {element.type:<8} {x:7.1f} {y:7.1f} {box.width / points:7.1f} "
                     f"{box.height / points:7.1f}  {settings}")
    return lines
