"""Card data seen from a layout: `{suit.color}` variables, `when` conditions, colour functions.

A template is a string with `{path}` holes; `{a|b}` takes the first non-empty of several
paths. (Colour functions such as `lighten(c, t)` are applied when drawing: `render.paint.color_value`.)
"""

from __future__ import annotations

import re
import zlib
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..model import Card, Deck

HOLE = re.compile(r"\{([A-Za-z0-9_.|\- ]+)\}")
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")
# Pictures a card can show, with the colour used when the card's kind names none.
FIGURES = {"wizard": "#23255e", "jester": "#2e7d32", "joker": "#b3261e"}
# Frame colours for kinds that name no colour, picked by a stable hash of the kind id.
KIND_PALETTE = ("#2f5d8a", "#8a3b2f", "#3b7a48", "#6a4c93", "#a86b16", "#2f7f7f", "#8a2f62")
COURT_LETTERS = ("J", "Q", "K")
CREST_SHAPES = ("shield", "round", "diamond", "banner")
PIP_COUNTS = range(1, 11)
# Fields every card has (possibly empty), so `when = "corner"` on a deck without corners is fine.
CARD_FIELDS = ("id", "name", "code", "kind", "type_line", "count", "suit", "rank", "corner", "text",
               "flavor", "art", "figure")
GROUPS = ("card", "kind", "suit", "rank", "deck", "back", "props")


def stable_index(text: str, modulo: int) -> int:
    return zlib.crc32(text.encode()) % modulo


def figure_of(deck: "Deck", card: "Card") -> str:
    """A known figure named by the card's kind or rank (id or kind), else ''."""
    names = [card.kind]
    if card.rank:
        rank = deck.rank(card.rank)
        names += [rank.id, rank.kind or ""]
    return next((name for name in names if name in FIGURES), "")


def kind_color(deck: "Deck", kind_id: str) -> str:
    try:
        color = deck.kind(kind_id).color
    except KeyError:
        color = ""
    return color or KIND_PALETTE[stable_index(kind_id, len(KIND_PALETTE))]


class CardValues:
    """Every value a layout may name for one card (None: a back with no card)."""

    def __init__(self, deck: "Deck", card: "Card | None"):
        self.deck, self.card = deck, card
        self.values = self._collect()

    def _collect(self) -> dict[str, Any]:
        deck, card = self.deck, self.card
        values: dict[str, Any] = {
            "deck.id": deck.id, "deck.name": deck.name, "deck.designer": deck.designer,
            "deck.version": deck.version,
            "back.title": deck.back.title, "back.subtitle": deck.back.subtitle, "back.pattern": deck.back.pattern,
            "back.color": deck.back.color, "back.accent": deck.back.accent,
        }
        if card is None:
            values["version_mark"] = f"v{deck.version}" if deck.version_mark else ""
            return values
        figure = figure_of(deck, card)
        values["version_mark"] = f"v{deck.version} · {card.code}" if deck.version_mark else ""
        for name in CARD_FIELDS[:-1]:
            value = getattr(card, name)
            values[name] = values[f"card.{name}"] = "" if value is None else str(value) if name != "count" else value
        values["figure"] = values["card.figure"] = figure
        for key, value in card.props.items():
            values[f"props.{key}"] = value
        kind = next((k for k in deck.kinds if k.id == card.kind), None)
        values["kind.id"] = card.kind
        values["kind.name"] = kind.name if kind else card.kind
        initial = _NOT_ALNUM.sub("", values["kind.name"])[:1].upper()
        values["kind.initial"] = initial or "?"
        position = deck.kinds.index(kind) if kind else 0
        values["kind.crest"] = CREST_SHAPES[position % len(CREST_SHAPES)]
        values["kind.color"] = (kind.color if kind and kind.color else "") or (
            FIGURES[figure] if figure and card.suit is None else kind_color(deck, card.kind))
        if card.suit:
            suit = deck.suit(card.suit)
            values.update({"suit.id": suit.id, "suit.name": suit.name, "suit.symbol": suit.symbol,
                           "suit.code": suit.code, "suit.color": suit.color})
        if card.rank:
            rank = deck.rank(card.rank)
            label = rank.index or rank.code
            pips = 1 if label.upper() == "A" or rank.id == "ace" else (
                int(label) if label.isdigit() and int(label) in PIP_COUNTS else "")
            values.update({"rank.id": rank.id, "rank.name": rank.name, "rank.code": rank.code,
                           "rank.index": label, "rank.value": "" if rank.value is None else rank.value,
                           "rank.pips": pips,
                           "rank.letter": label.upper() if label.upper() in COURT_LETTERS else ""})
        return values

    def known(self, path: str) -> bool:
        """Whether a path names something a card can have (for layout checks)."""
        return path in self.values or path in CARD_FIELDS or path.split(".")[0] in GROUPS

    def lookup(self, path: str) -> Any:
        values = self.values
        for option in _options(path):
            value = values.get(option, "")
            if value != "" and value is not None:
                return value
        return ""

    def fill(self, template: Any) -> Any:
        """A template string with its holes filled; anything else unchanged."""
        if not isinstance(template, str) or "{" not in template:
            return template
        whole = HOLE.fullmatch(template)
        if whole:  # a lone variable keeps its type (numbers stay numbers)
            return self.lookup(whole.group(1))
        return HOLE.sub(lambda m: str(self.lookup(m.group(1))), template)

    def holds(self, when: Any) -> bool:
        """Whether a `when` condition holds for this card."""
        if when is None:
            return True
        if isinstance(when, str):
            negated, path = _test(when)
            present = self.lookup(path) not in ("", None, 0, False)
            return present != negated
        if isinstance(when, list):
            return all(self.holds(item) for item in when)
        if isinstance(when, dict):
            for key, wanted in when.items():
                value = self.lookup(key)
                if isinstance(wanted, bool):
                    if (value not in ("", None)) != wanted:
                        return False
                elif isinstance(wanted, list):
                    if str(value) not in [str(w) for w in wanted]:
                        return False
                elif str(value) != str(wanted):
                    return False
            return True
        return True


@lru_cache(maxsize=4096)
def _options(path: str) -> tuple[str, ...]:
    """The alternatives of a path: "corner|code" -> ("corner", "code")."""
    return tuple(option.strip() for option in path.split("|"))


@lru_cache(maxsize=4096)
def _test(when: str) -> tuple[bool, str]:
    """A string condition: (negated, path)."""
    return when.startswith("!"), when.lstrip("!").strip()


def template_paths(value: Any) -> list[str]:
    """Every variable path a value names (for checking layouts against the deck)."""
    if isinstance(value, str):
        return [option.strip() for match in HOLE.finditer(value) for option in match.group(1).split("|")]
    if isinstance(value, list):
        return [p for item in value for p in template_paths(item)]
    return []


def condition_paths(when: Any) -> list[str]:
    if isinstance(when, str):
        return [option.strip() for option in when.lstrip("!").split("|")]
    if isinstance(when, list):
        return [p for item in when for p in condition_paths(item)]
    if isinstance(when, dict):
        return [str(key) for key in when]
    return []


def layout_paths(layout) -> tuple[str, ...]:
    """Every value a layout names, in its templates and its conditions (computed once per layout)."""
    found = layout.__dict__.get("_paths")
    if found is None:
        paths: list[str] = []
        for element in layout.elements:
            for key, value in element.props.items():
                paths += condition_paths(value) if key in ("when", "unless") else template_paths(value)
            if element.type == "text" and "text" not in element.props:
                paths.append(element.props.get("field", element.name))
        found = tuple(dict.fromkeys(paths))
        object.__setattr__(layout, "_paths", found)
    return found
