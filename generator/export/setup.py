"""What a table needs before play starts, as every export sees it: the cards the rules put
in the centre or on the discard pile, the counters each player keeps, the turn's phases.

The MUSH table, the Lackey plugin and the Tabletop Simulator save all read this one
description, so the three set a game up the same way. It comes from the deck: the engine
the deck names declares what its table needs (`Game.table_kit`, generator.games.profile: the
counters its game keeps, the cards set aside before play, whether cards are played in tricks),
and the deck's own rules text gives the turn's phases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..games.base import engine_class
from ..games.profile import TableKit

if TYPE_CHECKING:
    from ..deck.model import Card, Deck

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


def engine_table(deck: "Deck") -> TableKit:
    """What the deck's engine declares its table needs; the defaults for a deck with no engine."""
    return engine_class(deck).table_kit_for(deck) if deck.engine else TableKit()


def table_setup(deck: "Deck") -> TableSetup:
    kit = engine_table(deck)
    centre, discard = kit.set_aside(deck, deck.params)
    return TableSetup(
        counters=kit.counters,
        centre=centre,
        discard=discard,
        trick_game=kit.trick_game,
        turns_up_trump=kit.turns_up_trump,
        phases=turn_phases(deck),
    )
