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
from .actions import BID, BIDDING, CHOOSE_TRUMP, NO_TRUMP, PASS, PASS_DONE, PASSING, TRUMP
from .tables import LOSE

# How far the earlier bids the seat sees may move its estimate.
BIDS_SEEN_LOW, BIDS_SEEN_HIGH = 0.6, 1.4
ALL_DEALT_SHARE = 0.6  # see all_dealt_tricks
SAFE_POINT_LEADS = 3  # the lowest ranks of a point suit, led to hand its points on to a higher card

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
            best = max(range(len(strength)), key=lambda s: (strength[s], -s))
            longest = max(sum(1 for c in hand if suit_of[c] == suit) for suit in range(state.game.num_suits))
            if NO_TRUMP in legal and longest * state.game.num_suits <= len(hand):  # no long suit: no trump
                return NO_TRUMP
            return TRUMP + best
        if phase == BIDDING:
            wanted = round(bid_estimate(state, state.turn))
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


def bid_estimate(state, seat: int) -> float:
    """The tricks the seat's hand should take, moved by the earlier bids it can see (a table that
    bid too much leaves fewer tricks): search players guess unseen bids by it too."""
    size, n = state.hand_size, state.num_players
    if state.trump == NO_SUIT and size * n == state.table.total:  # every card dealt: count the sure tricks
        estimate = all_dealt_tricks(state, seat)
    else:
        estimate = expected_tricks(state, seat)
    seen = [bid for other, bid in enumerate(state.bids)
            if other != seat and bid is not None and state.sees_bid(seat, other)]
    if seen and estimate > 0:
        table_total = sum(seen) + estimate + (n - 1 - len(seen)) * size / n  # the bidders to come take a share
        estimate *= min(max(size / table_total, BIDS_SEEN_LOW), BIDS_SEEN_HIGH)
    return estimate


def all_dealt_tricks(state, seat: int) -> float:
    """With every card dealt and no trump each suit is played out among the hands: in the k-th
    round of a suit the seat's k-th highest card takes the trick if it beats the highest the
    others have left, when they spend their highest first. An always-winning card takes one,
    and those the others hold each spoil a share of the rest."""
    table, wins = state.table, state.tables.wins
    hand = state.hands[seat]
    mine: dict[int, list[int]] = {}
    for card in hand:
        if table.suit[card] != NO_SUIT and card not in wins:
            mine.setdefault(table.suit[card], []).append(table.rank[card])
    tricks = 0.0
    for suit, ranks in mine.items():
        ranks.sort(reverse=True)
        others = sorted((table.rank[card] for card in table.physical if table.suit[card] == suit and card not in wins),
                        reverse=True)
        for rank in ranks:
            others.remove(rank)
        for round_of_suit, rank in enumerate(ranks):
            best_left = round_of_suit * (state.num_players - 1)  # the others spent their highest cards before
            if best_left >= len(others) or rank > others[best_left]:
                tricks += 1
    # Not every round of every suit is played before the hands run dry, so only part of that
    # count comes true (measured on Wizard at 3 players: bids then add up to about the tricks).
    tricks *= ALL_DEALT_SHARE
    held = sum(card in wins for card in hand)
    spoilers = sum(card in wins for card in table.physical) - held
    return held + tricks * max(0.0, 1 - spoilers / len(hand)) if hand else 0.0


def expected_tricks(state, seat: int | None = None) -> float:
    """A guess of the tricks a hand (the seat to play's, by default) takes: an always-winning
    card one, a trump by its rank, a plain top card some, the rest none."""
    game, tables, table = state.game, state.tables, state.table
    top = game.top_rank or 1
    expected = 0.0
    for card in state.hands[state.turn if seat is None else seat]:  # in hand order: the float sum never varies
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
        if winning and state.trick and not _anyone_wants(state, seat, range(len(state.trick) + 1, state.trick_size())):
            return min(winning, key=strength)  # those still to play have made the bids it sees: they will duck
        return max(winning, key=strength) if winning else min(legal, key=strength)
    losing = [card for card in legal if card not in winning]
    return max(losing, key=strength) if losing else min(legal, key=strength)


def _anyone_wants(state, seat: int, positions: range) -> bool:
    """Whether a player at these places in the trick may still want tricks: their bid is more
    than they have won, or the seat cannot see their bid (hidden while bidding, delayed bids)."""
    for position in positions:
        other = state.seat_at(state.leader, position)
        if other != seat and (not state.sees_bid(seat, other) or (state.bids[other] or 0) > state.won[other]):
            return True
    return False


def _duck(state, legal: list[int]) -> int:
    """Lead low and safe; follow under the best card, or over it when the trick is worth taking."""
    tables, table = state.tables, state.table
    if not state.trick:  # the lowest point cards first (a higher card takes them), then low plain cards
        low = state.game.bottom_rank + SAFE_POINT_LEADS
        return min(legal, key=lambda card: (1 if tables.points[card] <= 0 else 0 if table.rank[card] < low else 2,
                                            table.rank[card], card))
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
