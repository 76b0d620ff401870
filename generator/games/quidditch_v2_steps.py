"""Quidditch v2: the steps of a turn and the decisions they ask for, with the rule each
decision answers to and how messages name it; and the small helpers the state, its
messages and the game share.
"""

from __future__ import annotations

import random
import re
from typing import Mapping

from .quidditch_v2_cards import (BLAG, PASS, SAVED, Accept, Coin, Decline, Destroy, Discard, Draw, EndPlays,
                                 FirstPlayer, Manoeuvre, Pick, Play, RandomPick, Reveal, Roll)

CHANCE_VERBS = frozenset({"draw", "turn", "roll", "coin", "first", "random"})
NAME_PATTERN = re.compile(r"[^\s:]+")
SEAT_PATTERN = re.compile(r"[Pp]\d+")

# The steps of a turn after the start-of-turn effects (qv2.turn.order). A step that ends without
# queueing anything may run the one after it at once when it finds that step's frame (these very
# tuples) on top of the stack: the same order, without a trip through the step loop.
DRAW_STEP, PLAYS_STEP, NEXT_STEP = ("draw_step",), ("plays",), ("next",)
TURN_STEPS = (DRAW_STEP, ("blag_turn",), PLAYS_STEP, ("manoeuvre",), ("end_destroy",), ("hand_limit",), NEXT_STEP)
TURN_STEPS_AFTER_DRAW_REVERSED = tuple(reversed(TURN_STEPS[1:]))

# Upper bounds used to declare score bounds and game length.
GOALS_PER_TURN_BOUND = 10
ACTIONS_PER_TURN_BOUND = 300

# Which rule a wrong answer at each kind of decision breaks, when nothing more precise applies.
STEP_RULES = {
    "play": "qv2.turn.plays",
    "manoeuvre": "qv2.manoeuvre.general",
    "saved": "qv2.response.saved",
    "pass": "qv2.response.pass",
    "blag": "qv2.response.blagging",
    "block": "card:blistering-speed",
    "penalty_save": "card:penalty",
    "quiet": "card:its-all-gone-quiet",
    "captain": "card:competitive-captain",
    "rain_pick": "card:rain",
    "penalty_to": "card:playing-tough",
    "reveal": "qv2.snitch.seekers",
    "end": "qv2.turn.end",
    "draw": "qv2.turn.draw",
    "roll": "qv2.components.extras",
    "coin": "qv2.components.extras",
    "first": "qv2.setup.deal",
    "random_discard": "card:powerful-beater",
}


RESPONSE_RULES = {SAVED: "qv2.response.saved", PASS: "qv2.response.pass", BLAG: "qv2.response.blagging"}



def seat_name(seat: int) -> str:
    """A seat as logs write it when players have no names."""
    return f"P{seat + 1}"


# What answers each decision takes, and how to say it in messages.
EXPECTED = {
    "draw": (Draw,), "roll": (Roll,), "coin": (Coin,), "first": (FirstPlayer,), "random_discard": (RandomPick,),
    "play": (Play, EndPlays), "manoeuvre": (Manoeuvre,), "discard": (Discard,),
    "saved": (Play, Decline), "pass": (Play, Decline), "blag": (Play, Decline), "block": (Discard, Decline),
    "penalty_save": (Accept, Decline), "quiet": (Accept, Decline), "captain": (Accept, Decline),
    "rain_pick": (Pick, Decline), "penalty_to": (Pick,), "end": (Destroy, Decline), "reveal": (Reveal,),
}
ACTION_WORDS = {
    Draw: "draw", Roll: "roll", Coin: "coin", FirstPlayer: "first", RandomPick: "random", Play: "play",
    EndPlays: "end", Manoeuvre: "a manoeuvre or skip", Discard: "discard", Accept: "accept",
    Decline: "decline", Pick: "pick", Destroy: "destroy", Reveal: "reveal",
}
STEP_NAMES = {
    "draw": "draw", "roll": "die roll", "coin": "coin flip", "first": "choosing the first player",
    "random_discard": "Bludger", "play": "playing cards", "manoeuvre": "manoeuvre", "discard": "discarding",
    "saved": "goal", "pass": "Quaffle changing hands", "blag": "Blagging window", "block": "Blistering Speed",
    "penalty_save": "Penalty", "quiet": "It's all gone quiet", "captain": "Competitive Captain",
    "rain_pick": "Rain", "penalty_to": "Playing Tough", "end": "end of turn", "reveal": "Snitch",
}
DECISION_WORDS = {
    "draw": "the card drawn", "roll": "a die roll", "coin": "a coin flip", "first": "the first player",
    "random_discard": "a random discard", "play": "a card to play or 'end'", "manoeuvre": "the manoeuvre step",
    "discard": "a discard", "saved": "an answer to a goal", "pass": "an answer to losing the Quaffle",
    "blag": "a chance to play Blagging", "block": "a chance to stop Blistering Speed",
    "penalty_save": "a chance to stop a Penalty", "quiet": "a chance to draw",
    "captain": "Competitive Captain's draw", "rain_pick": "Rain's choice of player",
    "penalty_to": "who gets the penalty goal", "end": "the end-of-turn step", "reveal": "Seeker cards to show",
}


def weighted(pile: Mapping[str, int], total: int, rng: random.Random) -> str:
    """A card drawn from a pile of `total` cards: the `below(total)`-th in sorted order."""
    point = below(total, rng)
    for card in sorted(pile):
        point -= pile[card]
        if point < 0:
            return card
    raise AssertionError("pile total out of step")


def below(total: int, rng: random.Random) -> int:
    """`rng.randrange(total)`, draw for draw, without its Python-level checks."""
    if total <= 0:
        raise ValueError("nothing to draw from")
    bits = total.bit_length()
    point = rng.getrandbits(bits)
    while point >= total:
        point = rng.getrandbits(bits)
    return point


def one_word(words: list[str], form: str) -> str:
    if len(words) != 1:
        raise ValueError(f"expected '{form}'")
    return words[0]


# Seats in turn order from each seat's left, by player count.
MIN_PLAYERS, MAX_PLAYERS = 2, 6
OPPONENTS = {n: tuple(tuple((seat + step) % n for step in range(1, n)) for seat in range(n))
             for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


# The steps every turn goes through: a log that skips one breaks the turn order (qv2.turn.order);
# any other decision answers to its own rule (a response, a card's effect, the hand limit).
TURN_ORDER_STEPS = frozenset({"play", "manoeuvre", "end"})


def decision_rule(stack: list[tuple]) -> str:
    """The rule the decision on top of the stack answers to: a discard names the rule that
    asked for it (the hand limit, a card), every other decision its kind's rule."""
    frame = stack[-1]
    if frame[1] == "discard" and len(frame) > 4:
        return frame[4]
    return STEP_RULES.get(frame[1], "qv2.turn.order")


def decision_words(stack: list[tuple]) -> str:
    """The decision on top of the stack in words; a run of discards says how many are left."""
    frame = stack[-1]
    if frame[1] == "discard" and len(stack) > 1 and stack[-2][:2] == ("discard_n", frame[2]):
        left = 1 + stack[-2][2]
        return "a discard" if left == 1 else f"{left} discards"
    return DECISION_WORDS[frame[1]]


def owed_decision(stack: list[tuple], active: int) -> tuple[int, str] | None:
    """(seat, rule) when the game waits for a player's decision under a rule of its own (an
    answer out of turn, a card's discard), rather than for the active player's next turn step."""
    if not stack:
        return None
    frame = stack[-1]
    seat = frame[2]
    if seat < 0 or frame[0] != "ask" or seat == active and frame[1] in TURN_ORDER_STEPS:
        return None
    return seat, decision_rule(stack)
