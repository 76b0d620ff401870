"""Card ids: where a card's id comes from, and the checks that keep ids usable as file names.

A card's id names its files and entries in every output (images/<id>.png, the print services'
folders, the exports, diff keys, reprint lists). A [[cards]] entry without its own `id` takes
its code, slugged ("JK" -> "jk"), not its name: renaming a card keeps its id, so its pictures,
exports and diff entry stay where they were (its translations already follow the code). Cards a
[[card_sets]] table makes take `<rank id>-<suit id>`.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Callable, Sequence

from .model import Card

RESERVED_CARD_ID = "back"  # images/<card id>.png sits next to images/back.png

Report = Callable[..., None]  # the loader's error(field, message, hint="")


def slug(text: str) -> str:
    """Lower case ASCII letters and digits joined by '-' (accents dropped, "" when none are
    left): what a code or name becomes as an id, and a deck's folder name as its deck id."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def card_id(raw: dict) -> str:
    """The id of a [[cards]] entry (or a spreadsheet row): its own `id`, else its code's slug."""
    return raw.get("id") or slug(raw["code"]) or "card"


def check_card_ids(cards: Sequence[Card], fields: Sequence[str], own_ids: set[str],
                   error: Report, place: Callable[[str], str]) -> None:
    """Report ids used twice and the reserved id, at the field the id came from: `id` for an
    entry that set one (`own_ids` holds those entries' fields, e.g. `cards[3]`), `code` for one
    whose id its code gave, the [[card_sets]] table for a card a set made. `place` names where
    a card came from (a spreadsheet row or the field)."""
    seen: dict[str, tuple[Card, str]] = {}
    for card, where in zip(cards, fields):
        from_code = where.startswith("cards[") and where not in own_ids
        field = where if not where.startswith("cards[") else f"{where}.{'code' if from_code else 'id'}"
        fix = f'give the card its own id, e.g. id = "{_suggestion(card, seen)}"'
        if card.id == RESERVED_CARD_ID:
            error(field, _origin(card, from_code) + "is reserved: images/back.png is the card back",
                  hint=fix if from_code else "give the card another id")
        key = card.id.upper()
        if key not in seen:
            seen[key] = (card, where)
            continue
        other, other_where = seen[key]
        if from_code and other.code.upper() == card.code.upper():
            continue  # the same code twice: the loader's duplicate-code error says it
        used_by = f"{place(other_where)} {other.name!r}"
        if from_code:
            error(field, _origin(card, from_code) + f"is already used by {used_by}",
                  hint=f"a card without an id takes its code as id (lower case, '+' as '-', none at either end); {fix}")
        else:
            error(field, f"duplicate card id {card.id!r} (also used by {used_by})",
                  hint="card ids must be unique" + (
                      "; that card takes its id from its code" if other_where not in own_ids
                      and other_where.startswith("cards[") else ""))


def _origin(card: Card, from_code: bool) -> str:
    if from_code:
        return f"the card's id {card.id!r}, from its code {card.code!r}, "
    return f"the card id {card.id!r} "


def _suggestion(card: Card, seen: dict[str, tuple[Card, str]]) -> str:
    """An id for the hint that no card before this one has: the name's slug, else the code's
    with a number."""
    candidates = [slug(card.name) or "card"] + [f"{card.id}-{number}" for number in range(2, 100)]
    return next((c for c in candidates if c.upper() not in seen and c != RESERVED_CARD_ID), candidates[0])
