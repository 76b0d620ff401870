"""Bilingual faces: `{lang.XX.FIELD}` in a layout shows the card's FIELD from the deck's XX overlay.

A layout names a second language as a variable (`text = "{lang.de.text}"`,
`field = "lang.de.name"`); the card's values are filled from the translation overlay
`translations/<deck>.<XX>.toml` (`deck.translate`), so the second text is a text element like
any other: fitted to its box, shrunk within its sizes, and an error when it cannot fit. The
translated deck is read once per deck and language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..deck.layouts.values import LANG_FIELDS, CardValues, layout_paths
from ..deck.translate import translated

if TYPE_CHECKING:
    from ..deck.layouts.book import Layout
    from ..deck.model import Card, Deck

_KEPT: dict[tuple[int, str], tuple["Deck", dict[str, "Card"]]] = {}
_KEEP = 8


def languages_named(layout: "Layout") -> list[str]:
    """The second languages a layout shows (`lang.XX.FIELD` variables), in order."""
    return sorted({path.split(".")[1] for path in layout_paths(layout)
                   if path.startswith("lang.") and path.count(".") >= 2})


def card_values(deck: "Deck", card: "Card | None", layout: "Layout") -> CardValues:
    """The card's values, with `lang.XX.FIELD` for every language the layout shows."""
    values = CardValues(deck, card)
    if card is None:
        return values
    for lang in languages_named(layout):
        twin = _cards_in(deck, lang).get(card.id)
        for name in LANG_FIELDS:
            values.values[f"lang.{lang}.{name}"] = (getattr(twin, name) or "") if twin else ""
    return values


def _cards_in(deck: "Deck", lang: str) -> dict[str, "Card"]:
    """The deck's cards in `lang`, by id (an unknown language raises, naming the known ones)."""
    kept = _KEPT.get((id(deck), lang))
    if kept is not None and kept[0] is deck:
        return kept[1]
    cards = {card.id: card for card in translated(deck, lang).deck.cards}
    if len(_KEPT) >= _KEEP:
        _KEPT.pop(next(iter(_KEPT)))
    _KEPT[(id(deck), lang)] = (deck, cards)
    return cards
