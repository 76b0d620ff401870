"""The actions of a game played by the rules engine, and its phases.

A card played is its index in `deck.cards` (copies share one); a bid b is `BID + b`; the
dealer's trump choice is `TRUMP + suit index`, or `NO_TRUMP` where no trump may be named; a card passed is `PASS + index`, and
`PASS_DONE` ends an optional pass early. Chance actions are records: `ChooseSeat` (the first
dealer) and `Deal` (from `generator.games.tricks`), `RoundSuit` (the suit revealed for the
round) and `TurnUp` (the card turned for trump).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tricks import PLAY, ChooseSeat, Deal

__all__ = ["BID", "BIDDING", "CHOOSE_TRUMP", "ChooseSeat", "Deal", "PASS", "PASS_DONE", "PASSING", "PLAY",
           "NO_TRUMP", "RoundSuit", "TRUMP", "TurnUp"]

BID = 1000
TRUMP = 2000
PASS = 3000
PASS_DONE = 2999  # "I pass no more cards" where passing is optional
NO_TRUMP = 2998  # "no trump", named where [rules.trump] may_name_none (a deck has far fewer suits)

# player phases besides PLAY (chance and the end are base.CHANCE and base.TERMINAL)
PASSING = 101
BIDDING = 102
CHOOSE_TRUMP = 103


@dataclass(frozen=True, slots=True)
class TurnUp:
    """Chance: the card turned to set trump."""

    card: int


@dataclass(frozen=True, slots=True)
class RoundSuit:
    """Chance: the suit revealed for the round (Wizard Hearts' Shun suit)."""

    suit: int
