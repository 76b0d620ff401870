"""Wizard Hearts' heuristic player (`deckgen simulate --bot heuristic`) and the card orders it
plays by under each Shun suit."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.games.base import Action
from generator.games.bots import HeuristicBot

PASS = 1000
PASSING = 101  # player phase: choosing cards to pass
EMPTY_TRICK = -2  # the led suit before a trick's first card (NO_SUIT, -1, is the suit of a card without one)

DIRECTIONS = ("left", "right", "across", "hold")

if TYPE_CHECKING:
    from tests.oracles.wizard_hearts import WizardHeartsGame, WizardHeartsState


class WizardHeartsHeuristicBot(HeuristicBot):
    """Passes its most dangerous cards, ducks tricks that carry points, grabs tricks that
    carry only Wizards, and dumps the Opposite Queen and high Shun cards when void."""

    def choose(self, state: WizardHeartsState) -> Action:
        legal = state.legal_actions()
        game = state.game
        orders = game.bot_orders[state.shun]
        if state.phase == PASSING:
            return PASS + max([action - PASS for action in legal], key=orders.danger.__getitem__)
        trick = state.trick
        if not trick:  # lead low, Shun cards last
            return min(legal, key=orders.lead.__getitem__)
        suit_of, rank_of = state.suit_of, state.table.rank
        led = suit_of[trick[0]]
        high = max(map(game.strengths[led].__getitem__, trick))  # the rank to beat
        if suit_of[legal[0]] != led:  # void: dump the worst card
            return max(legal, key=orders.danger.__getitem__)
        at_stake = sum(map(state.points.__getitem__, trick))
        under = [c for c in legal if rank_of[c] < high]
        over = [c for c in legal if rank_of[c] > high]
        by_rank = orders.rank.__getitem__
        if at_stake < 0 and over:
            return min(over, key=by_rank)
        if under:
            return max(under, key=by_rank)
        return max(legal, key=by_rank)


@dataclass(frozen=True, slots=True)
class BotOrders:
    """The heuristic bot's orderings of the cards under one Shun suit, as one int per card
    with ties broken by card index, so `max(cards, key=order.__getitem__)` picks at C speed."""

    danger: tuple[int, ...]  # how much a card hurts its holder: passed and dumped first
    lead: tuple[int, ...]  # non-Shun cards before Shun cards, then low rank first
    rank: tuple[int, ...]

    @classmethod
    def for_shun(cls, game: WizardHeartsGame, shun: int) -> "BotOrders":
        table = game.table
        size = len(table.code)
        ranks = max(table.rank) + 2

        def danger(card: int) -> int:
            if card == game.opposite_queen[shun]:
                return 1000
            value = table.rank[card]
            if table.suit[card] == shun:
                value += 100
            if game.is_wizard[card]:
                value -= 20  # worth catching
            return value

        cards = range(size)
        return cls(danger=tuple(danger(card) * size + card for card in cards),
                   lead=tuple(((table.suit[card] == shun) * ranks + table.rank[card] + 1) * size + card
                              for card in cards),
                   rank=tuple((table.rank[card] + 1) * size + card for card in cards))
