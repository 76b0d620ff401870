"""Composition: does the deck hold what its engine needs, for every player count it allows?

Each engine's requirements are a function here, keyed by engine id, rather than a
hook on the `Game` classes. The validator has to judge decks whose engine cannot
even be built from them (a missing Quaffle makes the Quidditch engine fail on
setup), so the checks must not depend on constructing the engine; and keeping
them together lets them share one vocabulary of primitives (a suit-by-rank grid,
a required card, a count per player) and one message style. The engine classes
stay the source of their player bounds, read from their class attributes.
"""

from __future__ import annotations

import importlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from ..errors import Problem
from ..games.base import ENGINES
from ..model import Card, Deck
from .locate import Locator


@dataclass
class Composition:
    """Problems found, and per player count the figures a designer checks by hand
    (rounds, hand size, Cauldron, draw pile)."""

    problems: list[Problem] = field(default_factory=list)
    per_players: dict[int, dict[str, int]] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"per_players": {str(n): figures for n, figures in self.per_players.items()}}


class _Checker:
    """The primitives every engine's requirements are written in."""

    def __init__(self, deck: Deck):
        self.deck = deck
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

    def engine_bounds(self) -> tuple[int, int] | None:
        module_name, class_name = ENGINES[self.deck.engine].split(":")
        try:
            game_class = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError) as error:
            self.error("deck.engine", f"the {self.deck.engine} engine cannot be loaded: {error}")
            return None
        return game_class.min_players, game_class.max_players


def _grid_names(deck: Deck, pairs: list[tuple[str, str]], limit: int = 8) -> str:
    names = [f"{deck.rank(r).name} of {deck.suit(s).name}" for s, r in pairs[:limit]]
    more = f" and {len(pairs) - limit} more" if len(pairs) > limit else ""
    return ", ".join(names) + more


def _players_fit_engine(check: _Checker) -> None:
    bounds = check.engine_bounds()
    if bounds is None:
        return
    low, high = bounds
    deck = check.deck
    if deck.min_players < low or deck.max_players > high:
        check.error("deck.players",
                    f"the deck allows {deck.min_players}-{deck.max_players} players, but the "
                    f"{deck.engine} engine plays {low}-{high}",
                    hint=f"set players = {{ min = {max(low, deck.min_players)}, max = {min(high, deck.max_players)} }}")


def _wizard(check: _Checker) -> None:
    deck = check.deck
    number_suits = [s.id for s in deck.suits]
    check.require_grid(number_suits, [r.id for r in deck.ranks])
    check.require_count("Wizards (kind 'wizard')", lambda c: c.kind == "wizard", 4,
                        "a Wizard wins the trick and lets the dealer choose trump")
    check.require_count("Jesters (kind 'jester')", lambda c: c.kind == "jester", 4,
                        "a Jester turned up means no trump")
    total = deck.total
    uneven = []
    for players in check.player_counts:
        check.figure(players, "rounds", total // players)
        check.figure(players, "left over", total % players)
        if total % players:
            uneven.append(players)
    if uneven:
        shown = ", ".join(f"{total}/{p} = {total / p:.2f}" for p in uneven)
        check.error("cards", f"the deck has {total} cards, and Wizard plays (cards / players) rounds so that the "
                    f"last round deals the whole deck; that is not whole for {_players(uneven)} ({shown})",
                    hint="the published deck has 60 cards: 52 suit cards, 4 Wizards and 4 Jesters; "
                         "every count from 3 to 6 divides 60")


def _players(counts: list[int]) -> str:
    words = [str(n) for n in counts]
    return (", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]) + " players"


REQUIREMENTS: dict[str, Callable[[_Checker], None]] = {
    "wizard": _wizard,
}


def check_composition(deck: Deck) -> Composition:
    """Every way the deck falls short of what its engine needs; nothing for a deck without an engine."""
    if not deck.engine:
        return Composition()
    check = _Checker(deck)
    _players_fit_engine(check)
    REQUIREMENTS[deck.engine](check)
    return check.result
