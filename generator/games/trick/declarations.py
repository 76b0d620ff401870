"""What the rules engine declares for the tools around play, read from each deck's [rules]:
the questions at the table (`deckgen rule`, with examples in the deck's own card codes), what
the deck must hold (`deckgen validate`'s composition), the table an export sets up, and how the
playtest reads a trick game (a card is its index in `deck.cards`, a seat's hand a list of them).
"""

from __future__ import annotations

from ...core.errors import DeckgenError
from ...deck.trickrules import rules_for
from ..profile import PlaytestProfile, TableKit
from ..questions import Question
from ..tricks import words
from . import questions
from .bounds import best_round

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Hashable, Iterable, Sequence

    from ...deck.model import Deck
    from ..base import Game, GameState
    from ..requirements import Checker
    from .game import RulesGame


def _seat_hand(state: "GameState", seat: int) -> Iterable[Hashable]:
    return state.hands[seat]


def _deck_code(game: "Game", index: Hashable) -> str:
    return game.deck.cards[index].code


def _trick_round(state: "GameState") -> int:
    return state.round


PLAYTEST = PlaytestProfile(lead_by_rounds=True, hand=_seat_hand, code=_deck_code, round_of=_trick_round)


def table_kit(deck: "Deck") -> TableKit:
    """Tricks won are kept face down in a pile; bids, tricks and scores are counted when the
    game bids, else the score (a game of points against shows Points)."""
    rules = deck.trick_rules or {}
    bidding = "bidding" in rules
    stats = ("Score", "Bid") if bidding else ("Points",) if rules.get("points") else ("Score",)
    return TableKit(counters=("bid", "tricks", "score") if bidding else ("score",), stats=stats, piles=("Tricks",),
                    trick_game=True,
                    turns_up_trump=rules.get("trump", {}).get("kind") in ("turn-up", "dealer-card"))


def _trick(game: "Game", words_given: Sequence[str]) -> dict:
    return questions.trick_question(game, words_given)


def _play(game: "Game", words_given: Sequence[str]) -> dict:
    return questions.play_question(game, words(words_given))


def _bid(game: "Game", words_given: Sequence[str]) -> dict:
    if game.bidding is None:
        raise DeckgenError(f"{game.id} has no bidding")
    return questions.bid_question(game, words(words_given)[1:])


TRICK_USAGE = "trick [trump SUIT | no trump] [lead NAME] CARD CARD ..."
PLAY_USAGE = "play CARD hand CARD ... [trick CARD ...] [trump SUIT | no trump]"
BID_USAGE = "bid N round R [after B B ...] [scores S S ...] [players P]"
TRICK_SUMMARY = "who wins the trick, and why: cards in play order, in the deck's codes"
PLAY_SUMMARY = "may this card be played from this hand to this trick? For no, the legal cards"
BID_SUMMARY = ("whether a bid is allowed: R is the round, `after` the bids already made this round, "
               "`scores` the score sheet before the round in bidding order, the bidder's last")

# What the engine answers for any [rules] deck, with examples in a typical deck's codes; each
# game asks its own deck's (`questions_for`).
QUESTIONS = (
    Question("trick", "trick", TRICK_USAGE, TRICK_SUMMARY, "trick 7H 9H 2H", _trick, default=True),
    Question("play", "play", PLAY_USAGE, PLAY_SUMMARY, "play 7H hand 7H 9S trick 2H", _play),
    Question("bid", "bid", BID_USAGE, BID_SUMMARY, "bid 1 round 3 after 1 0", _bid),
)


def questions_for(game: "RulesGame") -> tuple[Question, ...]:
    """The questions this deck's game answers (a bid only where it bids), each with an example
    in the deck's own card codes."""
    codes = [card.code for card in game.deck.cards]
    by_suit: dict[object, str] = {}
    for card in game.deck.cards:
        by_suit.setdefault(card.suit, card.code)
    lead, other = codes[0], next((code for code in by_suit.values() if code != codes[0]), codes[-1])
    third = next(code for code in codes if code not in (lead, other))
    trick = " ".join(codes[:game.min_players])
    asked = [Question("trick", "trick", TRICK_USAGE, TRICK_SUMMARY, f"trick {trick}", _trick, default=True),
             Question("play", "play", PLAY_USAGE, PLAY_SUMMARY, f"play {other} hand {other} {third} trick {lead}",
                      _play)]
    if game.bidding is not None:
        asked.append(Question("bid", "bid", BID_USAGE, BID_SUMMARY, f"bid 0 round 1 players {game.min_players}", _bid))
    return tuple(asked)


def rules_requirements(check: Checker, game_class: type[RulesGame]) -> None:
    """A deck with [rules]: the rules read with these parameters (the loader has read them with the
    deck's own and its variants'), each player count's figures, and passes that would hand over
    a whole hand (the engine plays them; a designer means something else)."""
    deck = check.deck
    rules, problems = rules_for(deck, check.params)
    for problem in problems.errors:  # its warnings are the loader's to report
        check.error(problem.field, problem.message, problem.hint)
    if rules is None:
        return
    game = game_class(deck, {key: value for key, value in check.params.items() if key in deck.params})
    leftover = rules.deal.leftover_name.removeprefix("the ")
    uneven = []
    for players in check.player_counts:
        rounds = game.num_rounds(players)
        hand = max(game.hand(players, number) for number in range(1, (rounds or 1) + 1))
        if rounds is not None:
            check.figure(players, "rounds", rounds)
            check.figure(players, "largest hand", hand)
        else:
            check.figure(players, "hand", hand)
        check.figure(players, leftover[:1].upper() + leftover[1:], deck.total - hand * players)
        if rounds is not None and game.hand(players, rounds) * players != deck.total:
            uneven.append(players)
        if game.target is not None and rounds is None and best_round(game, players) <= 0 < game.target:
            raw = str(deck.trick_rules["end"].get("target", ""))
            where = f"engine.{raw}" if raw in deck.params else "rules.end.target"
            check.error(where, f"no {rules.round_name} can raise anyone's score, so nobody reaches {game.target} and "
                               "the game cannot end", hint="give the cards that score some points")
            break
        if rules.passing is not None and 0 < hand <= rules.passing.count:
            raw = str(deck.trick_rules["passing"].get("count", ""))
            where = f"engine.{raw.lstrip('$')}" if raw.lstrip("$") in deck.params else "rules.passing.count"
            check.error(where, f"with {players} players each hand holds {hand} card(s), too few to pass "
                               f"{rules.passing.count}", hint="pass fewer cards or allow fewer players")
    if uneven and rules.deal.last_round_deals_all:
        total = deck.total
        shown = ", ".join(f"{total}/{p} = {total / p:.2f}" for p in uneven)
        check.error("cards", f"the deck has {total} cards, and the last round deals every card, so the number of "
                             f"rounds is the cards divided by the players; that is not whole for {_players(uneven)} "
                             f"({shown})", hint="make the deck divide by every player count ([deck] players), "
                                                "or set last_round_deals_all = false")


def _players(counts: list[int]) -> str:
    shown = [str(n) for n in counts]
    return (", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]) + " players"
