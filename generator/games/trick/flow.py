"""The course of a round between the tricks: the chance actions (first dealer, round suit,
deal, turned card) checked and applied, then trump, passing and bidding in that order, each
skipped where the rules have none, and the start of play (who leads, with which card)."""

from __future__ import annotations

from itertools import chain, repeat

from ..base import CHANCE, IllegalAction
from ..deal_checks import card_count, check_hand_sizes, overdealt
from ..tricks import NO_SUIT, PLAY, Deal, cards_left
from .actions import BIDDING, CHOOSE_TRUMP, NO_TRUMP, PASS, PASS_DONE, PASSING, TRUMP, ChooseSeat, RoundSuit, TurnUp
from .tables import FREE, OTHER

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any


def start_round(state) -> None:
    """A new round: chance reveals the round suit, or deals."""
    state.phase = CHANCE
    state.chance = state.game.rules.round_suit.key if state.game.rules.round_suit else "deal"


def apply_chance(state, action: Any) -> None:
    game, chance = state.game, state.chance
    rules = game.rules
    where = {"round": state.round + 1}
    if chance == "turn" and type(action) is TurnUp:
        _turn_up(state, action)
    elif chance == "deal" and isinstance(action, Deal):
        _deal(state, action)
    elif chance == "dealer":
        if not isinstance(action, ChooseSeat) or not 0 <= action.seat < state.num_players:
            raise IllegalAction("the game starts by choosing the first dealer", rules.deal.first_dealer_rule, where=where)
        state.dealer = action.seat
        start_round(state)
    elif chance == "deal":
        raise IllegalAction(f"the {rules.round_name} starts with the deal", rules.deal.rule, where=where)
    elif chance == "turn":
        raise IllegalAction("after the deal a card is turned for trump", rules.trump.rule, where=where)
    else:
        _round_suit(state, action, where)


def _round_suit(state, action: Any, where: dict) -> None:
    rules, suits = state.game.rules, state.game.deck.suits
    spec = rules.round_suit
    allowed = [suit for suit in range(len(suits)) if suit not in spec.skip]
    if not isinstance(action, RoundSuit) or action.suit not in allowed:
        shown = (suits[action.suit].name if isinstance(action, RoundSuit) and 0 <= action.suit < len(suits)
                 else "that")
        skipped = " and ".join(suits[suit].name for suit in spec.skip) or "nothing"
        raise IllegalAction(f"{shown} cannot be the {spec.name}: {skipped} is skipped when revealing", spec.rule,
                            [suits[suit].name for suit in allowed], where)
    state.info.round_suit = action.suit
    state.chance = "deal"


def _deal(state, deal: Deal) -> None:
    game, table = state.game, state.table
    rules = game.rules
    n = state.num_players
    size = state.hand_size = game.hand(n, state.round + 1)
    where = {"round": state.round + 1}
    hands = deal.hands
    checked = deal is state.sampled
    state.sampled = None
    sitter = state.info.sitter = game.sitter(n, state.round + 1, state.dealer)
    state.info.playing = n - (sitter >= 0)
    state.next_seat = game.next_seats(n, sitter)
    if not checked:
        _check_deal(state, deal, size, where)
    if deal.aside or size * state.info.playing == table.total:
        aside = tuple(deal.aside)
    elif checked:
        aside = tuple(state.info.sampled_left)
    else:  # what is not dealt, in card order
        left = cards_left(table.copies, hands)
        aside = tuple(chain.from_iterable(map(repeat, range(len(left)), left)))
    state.hands = list(map(list, hands))
    state.info.aside = aside
    state.info.stock = list(aside) if game.stock else []
    state.info.voids = [0] * n
    state.trump = game.rules.trump.suit if game.trump_kind == "fixed" else NO_SUIT
    state.info.turned = None
    state.trick = []
    state.led = NO_SUIT
    state.trick_number = 0
    state.won = [0] * n
    state.bids = [None] * n
    state.info.bids_made = 0
    state.hand_points = [0] * n
    state.caught = [[] for _ in range(n)]
    if rules.passing is not None:
        state.info.passed = [[] for _ in range(n)]
    if rules.play.restrictions:
        state.info.broken = [False] * len(rules.play.restrictions)
    if game.trump_kind == "dealer-card" or (game.trump_kind == "turn-up" and aside):
        state.chance = "turn"
    else:  # no trump to turn (in Wizard's final round every card is dealt)
        after_trump(state)


def _check_deal(state, deal: Deal, size: int, where: dict) -> None:
    """Refuse a deal of the wrong shape, or of cards the deck does not hold that often."""
    game, table = state.game, state.table
    rules = game.rules
    hands = deal.hands
    sitter = state.info.sitter
    if sitter >= 0 and len(hands) == state.num_players and hands[sitter]:
        raise IllegalAction(f"{state.player_name(sitter)} deals and sits this {rules.round_name} out, so is dealt no "
                            "cards", rules.deal.rule, where={**where, "player": sitter})
    if sitter >= 0 and len(hands) == state.num_players:
        size_of = [size if seat != sitter else 0 for seat in range(state.num_players)]
        wrong = next((seat for seat, hand in enumerate(hands) if len(hand) != size_of[seat]), None)
        if wrong is not None:
            raise IllegalAction(f"{state.player_name(wrong)} is dealt {card_count(len(hands[wrong]))}: with the dealer "
                                f"sitting out each of the others is dealt {size}", rules.deal.rule,
                                where={**where, "player": wrong})
    elif len(hands) != state.num_players or any(len(hand) != size for hand in hands):
        reason = (f"{rules.round_name} {state.round + 1} deals {card_count(size)} to each player" if game.hand_by_round
                  else f"with {state.num_players} players each player is dealt {size}")
        check_hand_sizes(state, deal, size, reason, rules.deal.rule, where)
    try:
        left = cards_left(table.copies, (*hands, deal.aside))
    except (IndexError, TypeError):
        raise IllegalAction("the deal holds something that is not a card of the deck", rules.deal.deck_rule,
                            where=where) from None
    if min(left) < 0:
        whole = bool(deal.aside) or size * state.info.playing == table.total  # every card dealt or set aside
        raise IllegalAction(overdealt(state, hands, deal.aside, rules.deal.leftover_name if whole else ""),
                            rules.deal.deck_rule, where=where)
    if any(card < 0 for hand in (*hands, deal.aside) for card in hand):
        raise IllegalAction("the deal holds something that is not a card of the deck", rules.deal.deck_rule,
                            where=where)
    if deal.aside and sum(left):
        card = next(card for card, count in enumerate(left) if count > 0)
        raise IllegalAction(f"{table.name[card]} is neither dealt nor in {rules.deal.leftover_name}",
                            rules.deal.rule, where=where)


def _turn_up(state, action: TurnUp) -> None:
    game, table = state.game, state.table
    rules = game.rules
    card = action.card
    sampled, state.sampled = state.sampled, None
    if action is not sampled and game.stock:
        place = rules.deal.turned_in_stock
        expected = state.info.stock[0 if place == "top" else -1]
        if card != expected:
            raise IllegalAction(f"the card turned for trump is the {place} card of {rules.deal.leftover_name}, "
                                f"{table.name[expected]}", rules.trump.rule, [table.code[expected]],
                                where={"round": state.round + 1})
    elif action is not sampled:
        dealer_card = game.trump_kind == "dealer-card"
        pile = state.hands[state.dealer] if dealer_card else state.info.aside
        if card not in pile:
            name = table.name[card] if type(card) is int and 0 <= card < len(table.code) else str(card)
            where = "the dealer's hand" if dealer_card else "the deck: every copy is already dealt"
            raise IllegalAction(f"the turned card {name} cannot come from {where}",
                                rules.trump.rule if dealer_card else rules.deal.deck_rule,
                                where={"round": state.round + 1})
    state.info.turned = card
    if card in game.dealer_chooses:
        state.phase = CHOOSE_TRUMP
        state.turn = state.dealer
        return
    state.trump = NO_SUIT if card in game.no_trump else table.suit[card]
    after_trump(state)


def draw_from_stock(state, winner: int) -> None:
    """After a trick: each player draws the stock's top card, the trick's winner first, then the
    others in turn. What anyone showed they lack no longer holds once they have drawn."""
    stock, unique = state.info.stock, state.table.unique
    seat = winner
    for _ in range(state.info.playing):  # passing over a dealer who sits the round out
        card = stock.pop(0)
        if not unique and card in state.hands[seat]:
            state.repeats[seat] += 1
        state.hands[seat].append(card)
        state.by_suit[seat][state.bucket[card]].append(card)
        seat = state.next_seat[seat]
    state.info.voids = [0] * state.num_players


def choose_trump(state, action: Any) -> None:
    """The dealer names trump after a turned card that lets them; or, where the highest bidder
    names it, that player does once the bids are in, and play starts."""
    game = state.game
    suits = game.deck.suits
    suit = action - TRUMP if type(action) is int else -1
    none_allowed = game.rules.trump.may_name_none
    if none_allowed and action == NO_TRUMP:
        suit = NO_SUIT
    elif not 0 <= suit < len(suits):
        who = "the highest bidder" if game.trump_kind == "highest-bidder" else "the dealer"
        choices = [s.name for s in suits] + (["no trump"] if none_allowed else [])
        what = f"one of the {len(suits)} suits" + (" or no trump" if none_allowed else "")
        raise IllegalAction(f"{who} must name {what} as trump", game.rules.trump.rule, choices,
                            state.where(state.turn), ruling=game.rules.trump.choose_ruling)
    state.trump = suit
    if game.trump_kind == "highest-bidder":
        state.tables = game.round_tables[suit, state.info.round_suit]
        start_play(state)
    else:
        after_trump(state)


def highest_bidder(state) -> int:
    """The seat that bid the most; of equal bids, the first to make it (from the dealer's left)."""
    n = state.num_players
    order = [(state.dealer + 1 + step) % n for step in range(n) if state.bids[(state.dealer + 1 + step) % n] is not None]
    return max(order, key=lambda seat: (state.bids[seat], -order.index(seat)))


def after_bidding(state) -> None:
    """The bids are in: the highest bidder names trump where the rules say so, else play starts."""
    if state.game.trump_kind == "highest-bidder":
        state.phase = CHOOSE_TRUMP
        state.turn = highest_bidder(state)
        return
    start_play(state)


def after_trump(state) -> None:
    """Trump is settled: passing, if this round passes; else bidding or play."""
    game = state.game
    state.tables = game.round_tables[state.trump, state.info.round_suit]
    if game.rules.passing is not None and game.rules.passing.count and state.direction != "hold":
        state.phase = PASSING
        state.turn = (state.dealer + 1) % state.num_players
        state.info.passes_made = 0
        return
    after_passing(state)


def pass_card(state, action: Any) -> None:
    game, table = state.game, state.table
    seat = state.turn
    passing = game.rules.passing
    passed = state.info.passed[seat]
    if action != PASS_DONE or not passing.optional:  # a card passed (PASS_DONE ends an optional pass)
        card = action - PASS if type(action) is int and action >= PASS else -1
        try:  # no hand holds a negative card
            state.hands[seat].remove(card)
        except ValueError:
            shown = table.code[card] if 0 <= card < len(table.code) else repr(action)
            raise IllegalAction(f"{state.player_name(seat)} passes {shown}, which is not in their hand",
                                game.rules.play.own_cards_rule, table.codes(sorted(set(state.hands[seat]))),
                                state.where(seat)) from None
        passed.append(card)
        if len(passed) < passing.count and state.hands[seat]:
            return
    state.info.passes_made += 1
    if state.info.passes_made < state.num_players:
        state.turn = (seat + 1) % state.num_players
        return
    direction, n = state.direction, state.num_players
    for giver in range(n):
        state.hands[(giver + game.pass_offset(direction, n)) % n].extend(state.info.passed[giver])
    after_passing(state)


def after_passing(state) -> None:
    if state.game.bidding is not None:
        state.phase = BIDDING
        state.turn = (state.dealer + 1) % state.num_players
        return
    start_play(state)


def start_play(state) -> None:
    """The hands are final: sort them into their lists by suit, find the first leader."""
    game, table = state.game, state.table
    lead = game.rules.play.first_lead
    n = state.num_players
    bucket = state.bucket = state.tables.bucket  # this round's: a card above the trumps is kept with them
    # the round before played every card, so the lists are empty and are filled again
    for split, hand in zip(state.by_suit, state.hands):
        for card in hand:
            split[bucket[card]].append(card)
    if table.unique:
        state.repeats = [0] * n
    elif game.only_suitless_repeat:  # copies are few cards without a suit: count among those
        state.repeats = [len(split[FREE]) + len(split[OTHER]) - len(set(split[FREE] + split[OTHER]))
                         for split in state.by_suit]
    else:
        state.repeats = [len(hand) - len(set(hand)) for hand in state.hands]
    state.info.first_card = -1
    if lead.by == "holder":
        card = lead.card
        if not any(card in hand for hand in state.hands) and lead.otherwise == "lowest-of-suit":
            suit_of, rank_of = table.suit, table.rank
            suit = suit_of[lead.card]
            card = min((c for hand in state.hands for c in hand if suit_of[c] == suit), key=rank_of.__getitem__,
                       default=-1)
        holder = next((seat for seat, hand in enumerate(state.hands) if card in hand), None)
        if holder is not None:
            state.info.first_card = card
            state.leader = state.turn = holder
        else:  # nobody holds it or any card of its suit: the dealer's left leads
            state.leader = state.turn = (state.dealer + 1) % n
    else:
        state.leader = state.turn = state.dealer if lead.by == "dealer" else (state.dealer + 1) % n
    state.free = game.free_first
    state.phase = PLAY

