"""Wizard's heuristic player (`deckgen simulate --bot heuristic`) and the trick estimate it bids
by; search players use the same estimate to guess the bids a seat has not seen.

The player follows the rules the variants change: it bids against the earlier bids when it can
see them (open bidding, not hidden or delayed bids), counts its sure tricks in the final round
(every card is dealt and there is no trump), and in play it reads what the others still need
when their bids are visible (hidden bids are shown before the first trick, delayed ones only
after the round).
"""

from __future__ import annotations

from .bots import HeuristicBot
from .tricks import NO_SUIT
from .wizard_rules import BID, BIDDING, CHOOSE_TRUMP, TRUMP

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from .base import Action
    from .wizard import WizardGame, WizardState

# How far the earlier bids may move an estimate (a table that bid too much leaves fewer tricks).
BIDS_SEEN_LOW, BIDS_SEEN_HIGH = 0.6, 1.4
FINAL_ROUND_SHARE = 0.6  # see final_round_tricks


class WizardHeuristicBot(HeuristicBot):
    """Bids the tricks its strong cards should take; then plays to make exactly that bid: while it
    still needs tricks it leads its strongest card and follows with its strongest winning card,
    or the cheapest one when it sees that every player still to come has made their bid; else
    it plays its strongest losing card. (Measured: leading low when the others have all made
    their bids loses them more tricks than it wins.)"""

    def choose(self, state: WizardState) -> Action:
        legal = state.legal_actions()
        if state.phase == CHOOSE_TRUMP:
            hand = state.hands[state.turn]
            suit_of, rank_of = state.table.suit, state.table.rank
            strength = [sum(1 + rank_of[c] / 13 for c in hand if suit_of[c] == suit) for suit in range(state.game.num_suits)]
            return TRUMP + max(range(len(strength)), key=lambda s: (strength[s], -s))
        if state.phase == BIDDING:
            wanted = round(bid_estimate(state, state.turn))
            return min(legal, key=lambda action: (abs(action - BID - wanted), action))
        return self._play(state, legal)

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
            if not winning:
                return min(legal, key=power)
            if trick and not self._anyone_wants(state, seat, range(len(trick) + 1, state.num_players)):
                return min(winning, key=power)  # the players still to come made their bids: they will duck
            return max(winning, key=power)
        losing = [card for card in legal if card not in winning] if winning else legal
        if losing:
            return max(losing, key=power)
        return min(legal, key=power)

    @staticmethod
    def _anyone_wants(state: WizardState, seat: int, positions: range) -> bool:
        """Whether a player at these places in the trick (after the leader) may still want tricks:
        their bid is more than they have won, or the seat cannot see their bid."""
        leader, n = state.leader, state.num_players
        for position in positions:
            other = (leader + position) % n
            if other != seat and (not state.sees_bid(seat, other) or state.bids[other] > state.won[other]):
                return True
        return False


def bid_estimate(state: WizardState, seat: int) -> float:
    """The tricks the seat's hand should take, moved by the earlier bids it can see."""
    game, hand, n = state.game, state.hands[seat], state.num_players
    size = len(hand)
    if state.trump == NO_SUIT and size * n == game.table.total:
        estimate = final_round_tricks(game, hand, n)
    else:
        worth = game.bot_worth[state.trump, n]
        estimate = 0.0
        for card in hand:  # added in hand order, so the float sum never varies
            estimate += worth[card]
    seen = [bid for other, bid in enumerate(state.bids)
            if other != seat and bid is not None and state.sees_bid(seat, other)]
    if seen and estimate > 0:
        later = n - 1 - len(seen)
        table_total = sum(seen) + estimate + later * size / n  # the bidders to come take their share
        estimate *= min(max(size / table_total, BIDS_SEEN_LOW), BIDS_SEEN_HIGH)
    return estimate


def final_round_tricks(game: WizardGame, hand: list[int], players: int) -> float:
    """The final round deals every card and turns none, so each suit is played out among the
    hands: in the k-th round of a suit, the seat's k-th highest card takes the trick if it beats
    the highest the others have left, when they spend their highest cards first (the others
    hold the suit's other cards, shared evenly). A Wizard always takes one, and the Wizards
    held by others each spoil a share of those tricks."""
    table = game.table
    wizards = sum(map(game.is_wizard.__getitem__, hand))
    mine: list[list[int]] = [[] for _ in range(game.num_suits)]
    for card in hand:
        if table.suit[card] != NO_SUIT:
            mine[table.suit[card]].append(table.rank[card])
    tricks = 0.0
    for suit, ranks in enumerate(mine):
        ranks.sort(reverse=True)
        others = sorted(game.suit_ranks[suit], reverse=True)
        for rank in ranks:
            others.remove(rank)
        for round_of_suit, rank in enumerate(ranks):
            best_left = round_of_suit * (players - 1)  # the others spent their highest cards before
            if best_left >= len(others) or rank > others[best_left]:
                tricks += 1
    # Not every round of every suit is played out before the hands run dry, so only part of
    # that count comes true: with this share, bids add up to about the tricks there are
    # (measured at 3 players: 19 of 20, and the mean miss fell from 2.1 to 1.2 tricks).
    tricks *= FINAL_ROUND_SHARE
    return wizards + tricks * max(0.0, 1 - (game.wizard_copies - wizards) / len(hand))


def expected_tricks(card: int, trump: int, num_players: int, game: WizardGame) -> float:
    """The heuristic bot's guess of the tricks a card takes in a round with a trump (or a
    Jester turned): a Wizard one, a trump by its rank, a plain King or Ace some, the rest none."""
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
