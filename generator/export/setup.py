"""What a table needs before play starts, as every export sees it: the cards the rules put
in the centre or on the discard pile, the counters each player keeps, the turn's phases.

The MUSH table, the Lackey plugin and the Tabletop Simulator save all read this one
description, so the three set a game up the same way. It comes from the deck: the engine
the deck names says which counters its game keeps, the cards' `props` say which cards are
the Quaffle and the Snitch, and the deck's own rules text gives the turn's phases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..deck.model import Card, Deck

# Per-player counters each game keeps (every game keeps a score). Names are one word, so a
# MUSH command can take them as an argument and Lackey can show them as player stats.
_COUNTERS = {
    "quidditch-v2": ("score", "dominance"),
    "muggle-quidditch": ("score",),
}


@dataclass(frozen=True)
class TableSetup:
    counters: tuple[str, ...]
    centre: tuple["Card", ...]  # face up in the centre of the table at the start
    discard: tuple["Card", ...]  # the discard pile at the start, bottom first
    trick_game: bool
    turns_up_trump: bool
    phases: tuple[str, ...]  # the steps of a turn, when the rules list them

    @property
    def set_aside(self) -> tuple["Card", ...]:
        return self.centre + self.discard


def _cards_with(deck: "Deck", key: str, value: str) -> tuple["Card", ...]:
    return tuple(card for card in deck.cards if card.props.get(key) == value)


# "1. **Start of turn:** ..." or "2. **Draw** the top card": a numbered step with a bold label.
_STEP = re.compile(r"^\s*\d+\.\s+\*\*([^*]+?):?\*\*", re.MULTILINE)


def turn_phases(deck: "Deck") -> tuple[str, ...]:
    """The labels of the numbered steps in the deck's rule about the steps of a turn."""
    for rule in deck.rules():
        if "turn" not in rule.title.lower():
            continue
        steps = [label.strip().rstrip(":") for label in _STEP.findall(rule.text)]
        if len(steps) >= 2:
            return tuple(steps)
    return ()


def table_setup(deck: "Deck") -> TableSetup:
    engine = deck.engine or ""
    centre: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    if engine == "quidditch-v2":
        centre = _cards_with(deck, "ball", "quaffle")
        if deck.params.get("snitch_start", "discard") == "discard":
            discard = _cards_with(deck, "ball", "snitch")
    # a trick-taking game: cards are played to the centre, a round dealt at once (a deck-like
    # object without [rules] has none)
    rules = getattr(deck, "trick_rules", None)
    counters = _COUNTERS.get(engine, ("score",))
    if rules is not None and "bidding" in rules:
        counters = ("bid", "tricks", "score")
    return TableSetup(
        counters=counters,
        centre=centre,
        discard=discard,
        trick_game=rules is not None,
        turns_up_trump=rules is not None and rules.get("trump", {}).get("kind") in ("turn-up", "dealer-card"),
        phases=turn_phases(deck),
    )
