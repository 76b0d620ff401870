"""The worlds a seat cannot tell apart, for search players (`GameState.determinize`): every card
the seat has not seen shared out again among the places it may be (the others' hands, the
cards they are passing, the cards left over), keeping what the seat has seen: its own hand,
the cards played, the card turned for trump, the suits others showed void in, the cards it
passed (still with the player it passed them to), and the bids it can see (the others are
guessed from the sampled hands, as the heuristic player would bid them).
"""

from __future__ import annotations

from ..tricks import PLAY
from ..worlds import deal_unseen
from .actions import PASSING
from .bot import bid_estimate
from .tables import FREE, OTHER

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    import random

    from .state import RulesState


def sample_world(state: "RulesState", seat: int, rng: "random.Random") -> "RulesState":
    game, info, n = state.game, state.info, state.num_players
    world = state.clone()
    others = [other for other in range(n) if other != seat]
    known = _seen_in_others_hands(state, seat)
    in_transit = state.phase == PASSING  # the cards others have passed so far stay face down until the exchange
    pile = info.stock if game.stock else info.aside  # the cards nobody holds
    shown = [] if info.turned is None or info.turned not in pile else [info.turned]
    hidden_aside = list(pile)
    for card in shown:
        hidden_aside.remove(card)
    unseen = [card for other in others for card in _without(state.hands[other], known[other])]
    unseen += [card for other in others for card in info.passed[other]] if in_transit else []
    unseen += hidden_aside
    voids = info.voids or [0] * n
    holders = [(len(state.hands[other]) - len(known[other]), voids[other]) for other in others]
    holders += [(len(info.passed[other]), 0) for other in others] if in_transit else []
    holders.append((len(hidden_aside), 0))
    suit_of = state.tables.suit if state.tables is not None else state.table.suit  # this round's suits
    places = deal_unseen(sorted(unseen), holders, suit_of, rng)
    for other, hand in zip(others, places):
        world.hands[other] = known[other] + hand
    if in_transit:
        world.info.passed = [list(passed) for passed in info.passed]
        for other, passed in zip(others, places[len(others):]):
            world.info.passed[other] = passed
    if game.stock:  # the stock face down in a new order, a turned card kept where it lies
        stock = places[-1][:]
        rng.shuffle(stock)
        top = game.rules.deal.turned_in_stock == "top"
        world.info.stock = (shown + stock) if top else (stock + shown)
    else:
        world.info.aside = tuple(sorted(shown + places[-1]))
    if state.phase == PLAY:  # in play the hands are sorted into their lists by suit: sort the new ones
        _sort_hands(world, others)
    if game.bidding is not None:
        for other in others:
            if state.bids[other] is not None and not state.sees_bid(seat, other):
                world.bids[other] = min(max(round(bid_estimate(world, other)), 0), state.hand_size)
    world.sampled = None
    return world


def _seen_in_others_hands(state: "RulesState", seat: int) -> list[list[int]]:
    """By seat: the cards `seat` knows another holds: those it passed to it this round and that
    it still holds, and the dealer's turned-up card for trump (shown to all) until it is played."""
    known: list[list[int]] = [[] for _ in range(state.num_players)]
    turned, dealer = state.info.turned, state.dealer
    if state.game.trump_kind == "dealer-card" and turned is not None and dealer != seat \
            and turned in state.hands[dealer]:
        known[dealer].append(turned)
    if state.game.stock and turned is not None and turned not in state.info.stock:  # drawn face up: seen by all
        holder = next((other for other, hand in enumerate(state.hands) if turned in hand), seat)
        if holder != seat:
            known[holder].append(turned)
    passing = state.game.rules.passing
    if passing is None or state.phase == PASSING or not state.table.unique or not state.info.passed[seat]:
        return known  # before the exchange nobody holds them; with copies, which copy was played is not known
    target = (seat + state.game.pass_offset(state.direction, state.num_players)) % state.num_players
    if target != seat:
        known[target] += [card for card in state.info.passed[seat] if card in state.hands[target]]
    return known


def _without(hand: list[int], cards: list[int]) -> list[int]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def _sort_hands(world: "RulesState", seats: list[int]) -> None:
    bucket, table = world.bucket, world.table
    for seat in seats:
        split = world.by_suit[seat] = [[] for _ in world.by_suit[seat]]
        for card in world.hands[seat]:
            split[bucket[card]].append(card)
        if not table.unique:
            free = split[FREE] + split[OTHER]
            world.repeats[seat] = (len(free) - len(set(free)) if world.game.only_suitless_repeat
                                   else len(world.hands[seat]) - len(set(world.hands[seat])))
