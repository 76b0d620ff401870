"""Where a validation problem lives: the TOML field, its line, and the card or rule it concerns.

Checks work on the typed `Deck`, which no longer knows which TOML entry a card
came from; `Locator` maps cards back to `cards[N]` or `card_sets[N]` so every
problem points at the line a designer has to edit.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache

from ..core.errors import Problem, UnreadableInput
from ..core.files import read_text_input
from .cardids import card_id
from .loader import _LineFinder, parse_toml
from .model import Card, Deck


def _source_text(deck: Deck) -> str:
    """The deck file's text, for line numbers ("" when it is gone or unreadable since the load:
    the problems then carry no line)."""
    if deck.source is None:
        return ""
    try:
        return read_text_input(deck.source, "deck")
    except UnreadableInput:
        return ""


class Locator:
    """Builds `Problem`s for one deck, with the field path and line filled in."""

    def __init__(self, deck: Deck):
        self.deck = deck
        text = _source_text(deck)
        self._lines, self._card_fields, self.cards_field, self._rule_fields, self._variant_fields = _fields(text)

    def card_field(self, card: Card, attribute: str = "") -> str:
        field = self._card_fields.get(card.id, self.cards_field)
        return f"{field}.{attribute}" if attribute and field.startswith("cards[") else field

    def rule_field(self, rule_id: str, attribute: str = "") -> str:
        field = self._rule_fields.get(rule_id, "sections")
        return f"{field}.{attribute}" if attribute else field

    def variant_field(self, variant_id: str) -> str:
        return self._variant_fields.get(variant_id, "variants")

    def line(self, field: str) -> int | None:
        """The line of a field path; a whole array of tables ("cards") points at its first entry."""
        return self._lines(field) or self._lines(f"{field}[0]") if field else None

    def text_line(self, field: str, offset: int) -> int | None:
        """The line of the `offset`-th line of a text field's value (a figure in a rule's text)."""
        return self._lines.text_line(field, offset)

    def figure_field(self, kind: str, item_id: str) -> str:
        """The field of a text that may hold figures (`generator.deck.figures.rule_texts`): a section's
        or rule's text, a variant's, a ruling's decision or reason."""
        if kind in ("section", "rule"):
            return self.rule_field(item_id, "text")
        if kind == "variant":
            return self.variant_field(item_id) + ".text"
        index = next(i for i, ruling in enumerate(self.deck.rulings) if ruling.id == item_id)
        return f"rulings[{index}].{kind}"

    def relocate(self, problem: Problem) -> Problem:
        """A renderer's problem about `card CODE.attribute`, pointed at the card's TOML field and line."""
        match = re.fullmatch(r"card (?P<code>\S+)\.(?P<attribute>[\w-]+)", problem.field)
        card = self.deck.find_card(match.group("code")) if match else None
        if card is None:
            return replace(problem, line=self.line(problem.field))
        field = self.card_field(card, match.group("attribute"))
        return replace(problem, field=field, line=self.line(field))

    def problem(self, field: str, message: str, hint: str = "", severity: str = "error") -> Problem:
        return Problem(message, field=field, line=self.line(field),
                       severity=severity, file=self.deck.source, hint=hint)

    def card_problem(self, card: Card, message: str, hint: str = "", severity: str = "error",
                     attribute: str = "") -> Problem:
        """A problem about one card; the message starts with the card's name and code."""
        return self.problem(self.card_field(card, attribute), f"card {card.name!r} ({card.code}): {message}",
                            hint, severity)


@lru_cache(maxsize=8)
def _fields(text: str) -> tuple[_LineFinder, dict[str, str], str, dict[str, str], dict[str, str]]:
    """Where each card, rule and variant of a deck file's text is (read only, so shared): a
    validation builds a Locator for each of its checks, and the file is parsed once, not per check."""
    data = parse_toml(text) if text else {}
    # A card listed under [[cards]] keeps its index; cards a [[card_sets]] table made do not,
    # so they point at the set that made them.
    card_fields: dict[str, str] = {}
    for index, raw in enumerate(data.get("cards", ())):
        card_fields.setdefault(card_id(raw), f"cards[{index}]")
    cards_field = "card_sets[0]" if data.get("card_sets") else "cards"
    rule_fields: dict[str, str] = {}
    for s_index, section in enumerate(data.get("sections", ())):
        rule_fields[section["id"]] = f"sections[{s_index}]"
        for r_index, rule in enumerate(section.get("rules", ())):
            rule_fields[rule["id"]] = f"sections[{s_index}].rules[{r_index}]"
    variant_fields = {v["id"]: f"variants[{i}]" for i, v in enumerate(data.get("variants", ()))}
    return _LineFinder(text), card_fields, cards_field, rule_fields, variant_fields
