"""What a deck must hold for its engine, checked before any game is played (`deckgen validate`'s
composition): the primitives an engine writes its requirements in.

An engine declares `Game.deck_requirements(check)`, a static method: it runs on the class, never
on an engine built from the deck, because a deck short of what the engine needs (a missing
Quaffle, a deck that does not divide by the players) may not even build one. `check` is a
`Checker`: errors and warnings at the deck's fields and lines, the figures per player count a
designer checks by hand (rounds, hand size, draw pile), a suit-by-rank grid, a required card, a
count of copies. `generator.validate.composition` adds the generic checks (the engine's player
range, its parameters) and collects the result.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from ..core.errors import Problem
from ..deck.locate import Locator
from ..deck.model import Card, Deck


@dataclass
class Composition:
    """Problems found, and per player count the figures a designer checks by hand
    (rounds, hand size, Cauldron, draw pile)."""

    problems: list[Problem] = field(default_factory=list)
    per_players: dict[int, dict[str, int]] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"per_players": {str(n): figures for n, figures in self.per_players.items()}}


class Checker:
    """The primitives an engine's requirements are written in: problems at the deck's fields and
    lines, figures per player count, counts of cards."""

    def __init__(self, deck: Deck, params: Mapping[str, Any]):
        self.deck = deck
        self.params = params
        self.locate = Locator(deck)
        self.result = Composition()

    @property
    def player_counts(self) -> range:
        return range(self.deck.min_players, self.deck.max_players + 1)

    def error(self, field: str, message: str, hint: str = "") -> None:
        self.result.problems.append(self.locate.problem(field, message, hint))

    def warning(self, field: str, message: str, hint: str = "") -> None:
        self.result.problems.append(self.locate.problem(field, message, hint, severity="warning"))

    def figure(self, players: int, name: str, value: int) -> None:
        self.result.per_players.setdefault(players, {})[name] = value

    def cards(self, predicate: Callable[[Card], bool]) -> list[Card]:
        return [card for card in self.deck.cards if predicate(card)]

    def copies(self, predicate: Callable[[Card], bool]) -> int:
        return sum(card.count for card in self.cards(predicate))

    def require_count(self, what: str, predicate: Callable[[Card], bool], wanted: int, why: str,
                      exact: bool = True) -> int:
        """`wanted` copies of a card class: none is an error, a different number a warning
        (the engine still runs, but the rules as written assume `wanted`)."""
        matching = self.cards(predicate)
        found = sum(card.count for card in matching)
        if found == 0:
            self.error("cards", f"the deck has no {what}; {why}", hint=f"add {wanted} {what}")
        elif found < wanted or (exact and found != wanted):
            self.warning(self.locate.card_field(matching[0], "count"), f"the deck has {found} {what}, the rules expect {wanted}; {why}",
                         hint=f"set the count to {wanted}, or reword the rules for {found}")
        return found

    def require_card(self, name: str, predicate: Callable[[Card], bool], why: str) -> Card | None:
        """Exactly one copy of a named card the engine looks for."""
        found = self.cards(predicate)
        total = sum(card.count for card in found)
        if not found:
            self.error("cards", f"the deck has no {name} card; {why}",
                       hint=f"add a [[cards]] entry named {name!r}")
            return None
        if total > 1:
            self.error(self.locate.card_field(found[0], "count"),
                       f"the deck has {total} copies of the {name}; the rules use exactly one",
                       hint="set count = 1")
        return found[0]

    def require_grid(self, suits: list[str], ranks: list[str], copies: int = 1) -> None:
        """Each suit holds each rank exactly `copies` times."""
        held: Counter[tuple[str, str]] = Counter()
        for card in self.deck.cards:
            if card.suit in suits and card.rank in ranks:
                held[card.suit, card.rank] += card.count
        missing = [(s, r) for s in suits for r in ranks if held[s, r] < copies]
        extra = [(s, r) for s in suits for r in ranks if held[s, r] > copies]
        if missing:
            self.error(self.locate.cards_field, f"{len(missing)} suit card(s) missing: {_grid_names(self.deck, missing)}",
                       hint=f"every suit needs each of its ranks {'once' if copies == 1 else f'{copies} times'}")
        if extra:
            self.error(self.locate.cards_field, f"{len(extra)} suit card(s) appear too often: {_grid_names(self.deck, extra)}",
                       hint=f"every suit needs each of its ranks {'once' if copies == 1 else f'{copies} times'}")



def _grid_names(deck: Deck, pairs: list[tuple[str, str]], limit: int = 8) -> str:
    names = [f"{deck.rank(r).name} of {deck.suit(s).name}" for s, r in pairs[:limit]]
    more = f" and {len(pairs) - limit} more" if len(pairs) > limit else ""
    return ", ".join(names) + more
