"""One moment of a game played by the rules engine: the round's flow (first dealer, round suit,
deal, trump, passing, bidding, tricks, scoring), the legal actions at each step and the
refusal of an illegal one, naming the rule the deck's `[rules]` cites for it.

The hot path of a simulation, playing a card where no restriction applies, is written out
in `legal_actions` and `apply` (as in the engines this one replaced); `options` is the
general computation every restriction goes through, and says which rule narrowed the cards.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from operator import itemgetter

from ..base import CHANCE, IllegalAction, Outcome, Pending
from ..tricks import NO_SUIT, PLAY, Deal, TrickState, draw_cards, random_below, shuffled
from . import report, view
from .actions import BIDDING, CHOOSE_TRUMP, NO_TRUMP, PASS, PASS_DONE, PASSING, TRUMP, RoundSuit
from .flow import apply_chance, choose_trump, draw_from_stock, pass_card, start_round
from .worlds import sample_world
from .moves import Options, play_options, refuse_card
from .scoring import end_round, outcome
from .tables import FREE, winner_position

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    import random
    from typing import Any


@dataclass(slots=True)
class RoundInfo:
    """What a round has settled besides its tricks, read a few times a round rather than for
    every card: kept apart so that a state has fewer than 30 attributes (past that CPython 3.11
    stops sharing instance dictionary keys and every attribute read slows)."""

    turned: int | None = None  # the card turned for trump
    round_suit: int = NO_SUIT
    bids_made: int = 0
    bid_cache: tuple = (-1, ())  # (round << 8 | bids made, the bid actions allowed then)
    carried: dict = field(default_factory=dict)  # name -> a value per seat, kept from round to round
    aside: tuple[int, ...] = ()  # the cards left over this round (in the order dealt)
    stock: list[int] = field(default_factory=list)  # the cards still to draw, top first (leftover = "stock")
    sampled_left: list[int] = field(default_factory=list)  # the cards a sampled deal left, in card order
    passed: list[list[int]] = field(default_factory=list)  # by seat, the cards passed this round
    passes_made: int = 0
    first_card: int = -1  # the card that must lead the first trick (first_lead by = "holder")
    broken: list[bool] = field(default_factory=list)  # by restriction: lifted this round
    voids: list[int] = field(default_factory=list)  # by seat: suits it showed it lacks this round, a bit each
    sitter: int = -1  # the seat that sits this round out (dealer_sits_out), or -1
    playing: int = 0  # the players dealt in this round


class RulesState(TrickState):
    PLAY = PLAY

    @property
    def table(self):  # not an attribute: a state keeps fewer than 30 (see RoundInfo)
        return self.game.table

    @property
    def ROUND_OPENS(self) -> str:  # noqa: N802 (the replay's name: the chance step that opens a round)
        return self.game.rules.round_suit.key if self.game.rules.round_suit else "deal"

    def __init__(self, game, num_players: int):  # the base's attributes, but for its suit_of
        rules = game.rules
        self.game = game
        self.bucket = game.bucket  # each card's list in a hand (`tables`), read for every card played
        self.num_players = num_players
        self.phase = CHANCE
        self.chance = "dealer"  # which chance node: dealer, the round suit's key, deal, turn
        self.round = 0  # 0-based round number
        self.dealer = 0
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self.trick: list[int] = []
        self.leader = self.turn = self.trick_number = 0
        self.won = [0] * num_players
        self.sampled: Any = None  # the chance action `sample_chance` last drew (it needs no checking)
        self.trump = NO_SUIT
        self.led = NO_SUIT
        self.tables = None  # RoundTables of this round's trump and round suit
        self.bids: list[int | None] = [None] * num_players
        self.totals = [0] * num_players
        self.history: list[dict] = []
        # per seat, the cards held in hand order: one list per suit, then OTHER and FREE (`tables`)
        self.by_suit = [[[] for _ in range(game.num_suits + 2)] for _ in range(num_players)]
        self.repeats = [0] * num_players  # per seat, how many held cards repeat one held earlier
        self.hand_points = [0] * num_players
        self.caught: list[list[int]] = [[] for _ in range(num_players)]
        self.rounds_total = game.num_rounds(num_players)
        self.hand_size = 0
        # free[leading]: whether only following suit binds the next card (no restriction of this trick)
        self.free = game.free_later
        self.next_seat = game.next_seats(num_players, -1)  # by seat, the next to play (past one sitting out)
        self.info = RoundInfo(playing=num_players, carried={name: [0] * num_players for name, _ in rules.scoring.carries},
                              passed=[[] for _ in range(num_players)], broken=[False] * len(rules.play.restrictions))
        if rules.deal.first_dealer == "first-seat":  # no chance: the first player listed deals first
            start_round(self)

    # -- the GameState API ---------------------------------------------------------------------
    def legal_actions(self) -> list:
        phase = self.phase
        if phase == PLAY:
            seat = self.turn
            if self.free[not self.trick]:  # nothing but following suit binds
                held = self.by_suit[seat]
                led = self.led
                if led >= 0 and held[led]:
                    cards = held[led] + held[FREE] if self.game.free_cards else held[led][:]
                else:
                    cards = self.hands[seat][:]
                return list(dict.fromkeys(cards)) if self.repeats[seat] else cards
            return self.options(seat).cards
        if phase == BIDDING:
            return self.game.bidding.legal_actions(self)
        if phase == PASSING:
            hand = self.hands[self.turn]
            cards = hand if self.table.unique else list(dict.fromkeys(hand))
            passes = list(itemgetter(*cards)(self.game.pass_actions)) if len(cards) > 1 else [PASS + c for c in cards]
            return passes + [PASS_DONE] if self.game.rules.passing.optional else passes
        if phase == CHOOSE_TRUMP:
            suits = [TRUMP + suit for suit in range(self.game.num_suits)]
            return suits + [NO_TRUMP] if self.game.rules.trump.may_name_none else suits
        return []

    def options(self, seat: int) -> Options:
        return play_options(self, seat)

    def play_options(self, seat: int) -> list[int]:
        return play_options(self, seat).cards

    def apply(self, action: Any) -> None:
        if self.phase == PLAY:
            seat = self.turn
            game = self.game
            held = self.by_suit[seat]
            if type(action) is not int:
                refuse_card(self, seat, action)
            try:
                bucket = self.bucket[action]
            except IndexError:
                refuse_card(self, seat, action)
            led = self.led
            trick = self.trick
            if self.free[not trick]:  # the common case: nothing but following suit binds
                if led >= 0 and bucket != led and bucket != FREE and held[led]:
                    refuse_card(self, seat, action)
            elif action not in play_options(self, seat).cards:
                refuse_card(self, seat, action)
            same = held[bucket]
            try:  # a list of one suit is short, so looking there is the cheap test of holding the card
                same.remove(action)
            except ValueError:
                refuse_card(self, seat, action)
            if self.repeats[seat] and action in same:
                self.repeats[seat] -= 1
            self.hands[seat].remove(action)
            if led >= 0 and bucket >= 0 and bucket != led:  # another suit's card: everyone saw the seat has none of led
                self.info.voids[seat] |= 1 << led
            trick.append(action)
            if led == NO_SUIT:  # nothing set yet: this card may set the suit
                self.led = led = self.tables.sets_led[action]
            if game.breakers:
                self._note_breaks(action)
            following = self.next_seat[seat]
            if following != self.leader:  # the trick is complete when the turn would come back to its leader
                self.turn = following
                return
            # every seat has played: the highest claim takes the trick (an itemgetter reads the
            # cards' claims at C speed; a bound __getitem__ would cost a call per card)
            tables = self.tables
            of_trick = itemgetter(*trick)
            claims = of_trick(tables.claims[led])
            best = max(claims)
            position = claims.index(best) if best not in tables.last_wins else winner_position(claims, tables.last_wins)
            winner = self.seat_at(self.leader, position)
            self.won[winner] += 1
            self.caught[winner] += trick
            if game.has_points:
                self.hand_points[winner] += sum(of_trick(tables.points))
            if not self.trick_number:
                self.free = game.free_later
                if self.info.aside and game.leftover_to_first_trick:
                    self.caught[winner] += self.info.aside
                    self.hand_points[winner] += sum(map(tables.points.__getitem__, self.info.aside))
            self.led = NO_SUIT
            self.trick = []
            self.trick_number += 1
            self.leader = self.turn = winner
            if self.info.stock:
                draw_from_stock(self, winner)
            if not self.hands[winner]:
                end_round(self)
        elif self.phase == BIDDING:
            self.game.bidding.apply(self, action)
        elif self.phase == PASSING:
            pass_card(self, action)
        elif self.phase == CHOOSE_TRUMP:
            choose_trump(self, action)
        elif self.phase == CHANCE:
            apply_chance(self, action)
        else:
            rules = self.game.rules
            raise IllegalAction(f"the game is over after {rules.round_name} {self.round + 1}", rules.end.rule,
                                where={"round": self.round + 1})

    def _note_breaks(self, card: int) -> None:
        for index, breaks in enumerate(self.tables.breaks):
            if card in breaks and self.game.rules.play.restrictions[index].until_broken:
                self.info.broken[index] = True

    def sample_chance(self, rng: random.Random) -> Any:
        chance = self.chance
        game = self.game
        if chance == "dealer":
            return game.seat_choices[random_below(rng, self.num_players)]
        physical = self.table.physical
        if chance == "deal":
            n = self.num_players
            size = game.hand(n, self.round + 1)
            first = (self.dealer + 1) % n
            sitter = game.sitter(n, self.round + 1, self.dealer)
            dealt = size * (n - (sitter >= 0))
            if game.trump_kind == "turn-up" and not game.stock:  # a sample of the hands; the turn-up from the rest
                drawn, left = draw_cards(physical, dealt, rng)
                left.sort()
                self.info.sampled_left = left
                deal = Deal(tuple(game.deal_out(tuple(drawn), n, size, first, sitter)))
            else:  # the whole deck shuffled: what is not dealt is left over in its shuffled order
                order = tuple(shuffled(physical, rng))
                deal = Deal(tuple(game.deal_out(order, n, size, first, sitter)), order[dealt:])
            self.sampled = deal
            return deal
        if chance == "turn":
            if game.trump_kind == "dealer-card":  # the last card dealt to the dealer
                turn_up = self.sampled = game.turn_ups[self.hands[self.dealer][-1]]
                return turn_up
            if game.stock:  # the stock's top or bottom card
                place = 0 if game.rules.deal.turned_in_stock == "top" else -1
                turn_up = self.sampled = game.turn_ups[self.info.stock[place]]
                return turn_up
            left = self.info.aside
            turn_up = self.sampled = game.turn_ups[left[random_below(rng, len(left))]]
            return turn_up
        skip, suit_of = game.rules.round_suit.skip, self.table.suit
        while True:  # turn cards until one shows a suit that is not skipped
            card = physical[random_below(rng, len(physical))]
            if suit_of[card] != NO_SUIT and suit_of[card] not in skip:
                return RoundSuit(suit_of[card])

    @property
    def direction(self) -> str:
        """This round's passing direction."""
        return self.game.pass_direction(self.num_players, self.round)

    def trick_size(self) -> int:
        """The cards of a complete trick: one from each player dealt in."""
        return self.info.playing

    def seat_at(self, leader: int, position: int) -> int:
        seat = leader
        for _ in range(position):  # passing over a dealer who sits the round out
            seat = self.next_seat[seat]
        return seat

    def clone(self) -> "RulesState":
        """An independent copy sharing the game, its card tables, the round's tables and the past
        rounds' records (only ever read). Lists are copied at every depth, the rest is shared:
        a state's other values are numbers, strings, tuples and tables (a deep copy cost search
        players two thirds of their time)."""
        other = copy.copy(self)
        for name, value in vars(self).items():
            if type(value) is list:
                setattr(other, name, _copy_lists(value))
        info = other.info = copy.copy(self.info)
        for name in RoundInfo.__slots__:
            if type(value := getattr(info, name)) is list:
                setattr(info, name, _copy_lists(value))
        info.carried = {name: list(values) for name, values in info.carried.items()}
        return other

    # -- what each seat has seen (search players: generator.games.search) ------------------------------
    def sees_bid(self, viewer: int, seat: int) -> bool:
        """Whether `viewer` sees `seat`'s bid of this round now: their own always; open bids all;
        hidden bids once the bidding is over; delayed bids not before the round ends."""
        style = self.game.bidding.spec.style
        return viewer == seat or style == "open" or style == "hidden" and self.phase != BIDDING

    def void_suits(self, seat: int) -> int:
        return self.info.voids[seat] if self.info.voids else 0

    def standing(self) -> list[int]:
        return self.totals

    def stage(self) -> int:
        return self.round

    def determinize(self, seat: int, rng: random.Random) -> "RulesState":
        return sample_world(self, seat, rng)

    # -- what is owed, and the record ------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        return outcome(self)

    def pending(self) -> Pending | None:
        return report.pending(self)

    def summary(self) -> dict:
        return report.summary(self)

    def view_counters(self) -> dict:
        return report.view_counters(self)

    def view_extras(self, seat: int | None) -> dict:
        return view.view_extras(self, seat)


def _copy_lists(values: list) -> list:
    """A list and the lists in it copied, at every depth; anything else shared."""
    return [_copy_lists(value) if type(value) is list else value for value in values]
