"""Wizard's heuristic player (`deckgen simulate --bot heuristic`): bids the tricks its hand
should take, then plays to make the bid."""

from __future__ import annotations

from generator.games.base import Action
from generator.games.bots import HeuristicBot
from generator.games.tricks import NO_SUIT
from tests.oracles.wizard_rules import BID, TRUMP

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
from tests.oracles.wizard_rules import BIDDING, CHOOSE_TRUMP

if TYPE_CHECKING:
    pass

if TYPE_CHECKING:
    from tests.oracles.wizard import WizardGame, WizardState


class WizardHeuristicBot(HeuristicBot):
    """Bids the tricks its strong cards should take; then plays to make exactly that bid:
    the cheapest winning card while it still needs tricks, else the strongest losing card."""

    def choose(self, state: WizardState) -> Action:
        legal = state.legal_actions()
        if state.phase == CHOOSE_TRUMP:
            hand = state.hands[state.turn]
            suit_of, rank_of = state.table.suit, state.table.rank
            strength = [sum(1 + rank_of[c] / 13 for c in hand if suit_of[c] == suit) for suit in range(state.game.num_suits)]
            return TRUMP + max(range(len(strength)), key=lambda s: (strength[s], -s))
        if state.phase == BIDDING:
            wanted = round(self._expected_tricks(state))
            return min(legal, key=lambda action: (abs(action - BID - wanted), action))
        return self._play(state, legal)

    @staticmethod
    def _expected_tricks(state: WizardState) -> float:
        worth = state.game.bot_worth[state.trump, state.num_players]
        expected = 0.0
        for card in state.hands[state.turn]:  # added in hand order, so the float sum never varies
            expected += worth[card]
        return expected

    def _play(self, state: WizardState, legal: list[int]) -> int:
        seat = state.turn
        need = state.bids[seat] - state.won[seat]
        game, trump, led, trick = state.game, state.trump, state.led, state.trick
        # Would each card take the trick as it stands? It must out-claim every card before it.
        if led == NO_SUIT:  # no suit yet (an empty trick, or only Jesters): each card would set it
            best = -1 if trick else -2  # a Jester's claim is -1 in every table
            strengths, sets_led = game.strengths, game.sets_led
            winning = [card for card in legal if strengths[trump, sets_led[card]][card] > best]
        else:
            claims = game.strengths[trump, led]
            best = max(map(claims.__getitem__, trick))
            winning = [card for card in legal if claims[card] > best]
        power = game.bot_power[trump].__getitem__  # Wizards top, Jesters bottom, trumps above plain cards
        if need > 0:
            return min(winning or legal, key=power)
        losing = [card for card in legal if card not in winning] if winning else legal
        if losing:
            return max(losing, key=power)
        return min(legal, key=power)


def expected_tricks(card: int, trump: int, num_players: int, game: WizardGame) -> float:
    """The heuristic bot's guess of the tricks a card takes: a Wizard one, a trump by its
    rank, a plain King or Ace some, the rest none."""
    table = game.table
    if game.is_wizard[card]:
        return 1
    if game.is_jester[card]:
        return 0
    if table.suit[card] == trump:
        return 0.35 + 0.6 * table.rank[card] / 12
    if table.rank[card] >= 11:  # King or Ace of a plain suit
        return (0.9 if table.rank[card] == 12 else 0.5) * (4 / (num_players + 1))
    return 0
