"""What the Muggle Quidditch engine declares for the tools around play: what its deck must hold
(`deckgen validate`'s composition), the table an export sets up, and how the playtest reads a
match (a seat's hand is a list of card codes; the state keeps the scores).
"""

from __future__ import annotations

from collections import Counter

from .profile import PlaytestProfile, TableKit
from .questions import Question

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Hashable, Iterable, Sequence

    from .base import GameState
    from .requirements import Checker


def _scores(state: "GameState") -> "Sequence[int]":
    return [state.score(seat) for seat in (0, 1)]


def _seat_hand(state: "GameState", seat: int) -> "Iterable[Hashable]":
    return state.hands[seat]


def _answer(game, words: "Sequence[str]") -> dict:
    return game.answer_question(words)


QUESTIONS = (
    Question("goal", "score", "goal CARD CARD [keeper CARD|none] [house SUIT] [rival SUIT]",
             "whether the pair may score against that Keeper, and for how many points",
             "goal 7H 5S keeper KD house hearts rival diamonds", _answer),
    Question("dive", "other", "dive SEEKER house SUIT rival SUIT", "how many cards that Seeker turns in the dive",
             "dive AH house hearts rival diamonds", _answer),
    Question("play", "play", "play CARD hand CARD ... [house SUIT] [rival SUIT] [team CARD ...] "
             "[rival-team CARD ...] [spotted]",
             "what the card may do in your action step (team, goal, Bludger, Snitch), or why it can only be "
             "discarded", "play 7H hand 7H 5S KD", _answer),
)
PLAYTEST = PlaytestProfile(scores=_scores, hand=_seat_hand)
TABLE = TableKit(counters=("score",), stats=("Points",), piles=("Score Pile",))


def requirements(check: Checker) -> None:
    """A full grid, one Seeker, Keeper, Chaser and Beater per suit, two Jokers, a pair of Quaffle
    cards that can make a goal, a house for every suit, and a draw pile the first turn can draw from."""
    deck, params = check.deck, check.params
    check.require_grid([s.id for s in deck.suits], [r.id for r in deck.ranks])
    for kind, role, why in (("seeker", "Seekers", "a Seeker spots the Snitch and dives for it"),
                            ("keeper", "Keepers", "Keepers guard the hoops"),
                            ("chaser", "Chasers", "no goal can be scored without a Chaser"),
                            ("beater", "Beaters", "Jacks are Beaters and Bludgers")):
        check.require_count(f"{role} (kind {kind!r})", lambda c, kind=kind: c.kind == kind, len(deck.suits), why)
    jokers = check.require_count("Jokers (kind 'joker')", lambda c: c.kind == "joker", 2,
                                 "the first Joker spots the Snitch and the second starts the dive")
    if jokers == 1:
        check.error("cards", "with one Joker the dive for the Snitch can never start, so no match ends "
                    "except at the turn cap", hint="the deck needs two Jokers")
    values = [check.deck.rank(c.rank).value for c in check.deck.copies()
              if c.kind == "quaffle" and c.rank and check.deck.rank(c.rank).value is not None]
    held = Counter(values)
    if not any(held[v] and held[12 - v] and (v != 6 or held[v] >= 2) for v in held):
        check.error(check.locate.cards_field, "no two Quaffle cards add up to 12, so no goal can ever be scored",
                    hint="number cards 2 to 10 give 10+2, 9+3, 8+4, 7+5 and 6+6")
    houses = params.get("houses", {})
    unmapped = [s.id for s in deck.suits if s.id not in houses]
    if unmapped:
        check.error("engine.houses", f"no house named for suit(s) {', '.join(unmapped)}",
                    hint="[engine] houses maps every suit id to a house name")
    hand, draw_to = params["hand_size"], params["draw_to"]
    for players in check.player_counts:
        pile = deck.total - hand * players
        check.figure(players, "cards dealt", hand * players)
        check.figure(players, "draw pile", pile)
        if pile < draw_to - hand + 1:
            check.error("engine.hand_size", f"with {players} players the deal of {hand} cards each leaves "
                        f"{pile} card(s) to draw from; the first turn alone draws {draw_to - hand}",
                        hint="deal fewer cards or add cards")
