"""Muggle Quidditch's fixed facts: the positions, goal sum and dive bonuses, the actions
players and chance take, the phases of a turn and what a turn records. Shared by the game
(`generator.games.muggle_quidditch`), its state and its bot.
"""

from __future__ import annotations

from dataclasses import dataclass, field

POSITIONS = ("seeker", "keeper", "chaser", "beater")
JOKER = "JK"
GOAL_KIND = "quaffle"
GOAL_SUM = 12
KEEPER_RULES = {"strict": "mq.goal.keeper", "loose": "mq.variants.loose-keeper",
                "simple": "mq.variants.simple-keepers"}
DIVE_BONUS_OWN_HOUSE = 2
DIVE_BONUS_NEUTRAL = 1


# --- actions -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ChooseHouse:
    suit: str


@dataclass(frozen=True, slots=True)
class Shuffle:
    order: tuple[str, ...]  # the new draw pile, top card first


@dataclass(frozen=True, slots=True)
class Draw:
    from_discard: bool = False


@dataclass(frozen=True, slots=True)
class Goal:
    cards: tuple[str, str]  # canonical order: see MuggleQuidditchGame.goal_pair


@dataclass(frozen=True, slots=True)
class Recruit:
    card: str


@dataclass(frozen=True, slots=True)
class Bludger:
    jack: str
    target: str


@dataclass(frozen=True, slots=True)
class Lose:
    card: str


@dataclass(frozen=True, slots=True)
class Spot:
    pass


@dataclass(frozen=True, slots=True)
class Dive:
    pass


@dataclass(frozen=True, slots=True)
class Discard:
    card: str


@dataclass(frozen=True, slots=True)
class Pass:
    pass


DRAW_FROM_PILE, TAKE_DISCARD = Draw(False), Draw(True)
# The actions of a turn's action step (rule mq.turn.actions).
TURN_ACTIONS = frozenset({Goal, Recruit, Bludger, Spot, Dive, Discard, Pass})


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the rules refuse something: the words, the rule id, and the ruling id if one decided it."""

    message: str
    rule: str
    ruling: str = ""


# --- phases and per-turn facts ------------------------------------------------------------

HOUSES, SHUFFLING, DRAW, ACTION, RESPONSE, EXTRA_DISCARD, OVER = (
    "houses", "shuffle", "draw", "action", "response", "extra-discard", "over")
# What a pending shuffle resumes.
DEAL, DRAWING, DIVING = "deal", "drawing", "diving"


@dataclass(slots=True)
class TurnRecord:
    """What a turn did besides its decisions: the facts a log writes down and the referee checks."""

    took: str | None = None  # the top discard taken as the first card
    drew: list[str] = field(default_factory=list)  # cards from the draw pile, in order
    draw_shuffle: tuple[str, ...] | None = None  # the draw pile rebuilt during the draw step
    dive: list[str] = field(default_factory=list)  # dive cards in the order they were turned
    dive_shuffle: tuple[str, ...] | None = None  # the draw pile rebuilt during the dive


@dataclass(slots=True)
class DiveRows:
    starter: int
    quotas: list[int]
    rows: list[list[str]]

    def next_drawer(self) -> int | None:
        """The starter draws first, then they alternate; whoever still has cards to draw goes on alone."""
        wanting = [seat for seat in (0, 1) if len(self.rows[seat]) < self.quotas[seat]]
        if len(wanting) == 2:
            other = 1 - self.starter
            return self.starter if len(self.rows[self.starter]) <= len(self.rows[other]) else other
        return wanting[0] if wanting else None
