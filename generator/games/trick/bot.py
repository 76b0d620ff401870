"""The heuristic player of any rules-engine game, reading only its own hand and the table.

It plays one of three ways, by what the rules score: where players bid, it bids the tricks
its strong cards should take and then plays to make exactly that (the cheapest winning card
while it needs tricks, else the strongest losing one); where caught points count against
the lowest-wins, it ducks tricks with points and sheds its most dangerous cards; otherwise
it takes what tricks it cheaply can.
"""

from __future__ import annotations

from ..bots import HeuristicBot
from ..tricks import NO_SUIT
from .actions import BID, BIDDING, CHOOSE_TRUMP, PASS, PASS_DONE, PASSING, TRUMP
from .tables import LOSE

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any


class RulesHeuristicBot(HeuristicBot):
    def choose(self, state) -> Any:
        legal = state.legal_actions()
        phase = state.phase
        if phase == CHOOSE_TRUMP:
            hand = state.hands[state.turn]
            suit_of, rank_of = state.table.suit, state.table.rank
            top = state.game.top_rank or 1
            strength = [sum(1 + rank_of[c] / top for c in hand if suit_of[c] == suit)
                        for suit in range(state.game.num_suits)]
            return TRUMP + max(range(len(strength)), key=lambda s: (strength[s], -s))
        if phase == BIDDING:
            wanted = round(expected_tricks(state))
            return min(legal, key=lambda action: (abs(action - BID - wanted), action))
        if phase == PASSING:
            cards = [action - PASS for action in legal if action != PASS_DONE]
            return PASS + max(cards, key=lambda card: danger(state, card))
        if state.game.bidding is not None:
            return _make_the_bid(state, legal)
        if state.game.has_points and state.game.lower_score_wins:
            return _duck(state, legal)
        return _take(state, legal)


def power(state, card: int) -> int:
    """How strong a card is in any trick: always-winning cards top, always-losing ones bottom,
    trumps above the rest."""
    tables = state.tables
    if card in tables.wins:
        return 1000
    if card in tables.loses:
        return -1
    rank = state.table.rank[card]
    return rank + 100 if state.table.suit[card] == state.trump != NO_SUIT else rank


def danger(state, card: int) -> tuple[int, int, int]:
    """How much holding the card hurts where caught points count against: points, then rank."""
    return state.tables.points[card], state.table.rank[card], card


def expected_tricks(state) -> float:
    """A guess of the tricks the hand takes: an always-winning card one, a trump by its rank,
    a plain top card some, the rest none."""
    game, tables, table = state.game, state.tables, state.table
    top = game.top_rank or 1
    expected = 0.0
    for card in state.hands[state.turn]:  # added in hand order, so the float sum never varies
        rank = table.rank[card]
        if card in tables.wins:
            expected += 1
        elif card in tables.loses or table.suit[card] == NO_SUIT:
            pass
        elif table.suit[card] == state.trump:
            expected += 0.35 + 0.6 * rank / top
        elif rank >= top - 1:
            expected += (0.9 if rank == top else 0.5) * (4 / (state.num_players + 1))
    return expected


def _claims_if_played(state, legal: list[int]) -> tuple[list[int], int]:
    """Each legal card's claim on the trick were it played now, and the best claim so far."""
    tables, trick, led = state.tables, state.trick, state.led
    if led == NO_SUIT:  # nothing set yet: each card would set the suit
        return [tables.claims[tables.sets_led[card]][card] for card in legal], (LOSE if trick else LOSE - 1)
    claims = tables.claims[led]
    return [claims[card] for card in legal], max(claims[card] for card in trick)


def _make_the_bid(state, legal: list[int]) -> int:
    seat = state.turn
    need = (state.bids[seat] or 0) - state.won[seat]
    claims, best = _claims_if_played(state, legal)
    winning = [card for card, claim in zip(legal, claims) if claim > best]
    strength = lambda card: power(state, card)  # noqa: E731
    if need > 0:
        return min(winning or legal, key=strength)
    losing = [card for card in legal if card not in winning]
    return max(losing, key=strength) if losing else min(legal, key=strength)


def _duck(state, legal: list[int]) -> int:
    """Lead low and safe; follow under the best card, or over it when the trick is worth taking."""
    tables, table = state.tables, state.table
    if not state.trick:
        return min(legal, key=lambda card: (tables.points[card] > 0, table.rank[card], card))
    claims, best = _claims_if_played(state, legal)
    if state.led >= 0 and all(table.suit[card] != state.led for card in legal):  # void: shed the worst card
        return max(legal, key=lambda card: danger(state, card))
    at_stake = sum(tables.points[card] for card in state.trick)
    under = [card for card, claim in zip(legal, claims) if claim < best]
    over = [card for card, claim in zip(legal, claims) if claim > best]
    rank = lambda card: (table.rank[card], card)  # noqa: E731
    if at_stake < 0 and over:
        return min(over, key=rank)
    if under:
        return max(under, key=rank)
    return max(legal, key=rank)


def _take(state, legal: list[int]) -> int:
    """Win the trick with the cheapest card that does (unless a partner already wins it), else
    throw the weakest."""
    claims, best = _claims_if_played(state, legal)
    strength = lambda card: power(state, card)  # noqa: E731
    if state.trick and state.game.rules.teams == "partners" and len(state.trick) >= 2:
        led = state.led if state.led != NO_SUIT else NO_SUIT
        table_claims = state.tables.claims[led]
        partner_position = len(state.trick) - 2
        if table_claims[state.trick[partner_position]] == best and best > LOSE:
            return min(legal, key=strength)
    winning = [card for card, claim in zip(legal, claims) if claim > best]
    return min(winning, key=strength) if winning else min(legal, key=strength)
