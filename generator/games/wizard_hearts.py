"""Wizard Hearts: the reference referee for decks/wizard-hearts.toml.

Every hand: the dealer (a chance action in hand 1, then one seat left) reveals the Shun
suit (chance; never Luck), deals equal hands with the rest set aside as the Cauldron
(chance), everyone passes cards by the deck's table (one action per card passed; the
passes are exchanged once all are made), the holder of the Two of Luck (or of the lowest
Luck card dealt) leads it, and the tricks are played with no Shun card or Opposite Queen
on the first one. The game ends after the hand in which someone reaches the target.

Parameters come from the deck's `[engine]` table (see decks/wizard-hearts.toml): the Luck
suit, the lead card, the Queen rank, `pass_count`, the `passing` table by player count,
the points, `target_score`, `cauldron` (set-aside | first-trick), `shun_must_be_broken`
and `max_hands` (a safety stop for simulations).

Actions: a card played is its index in `deck.cards`; a card passed is `PASS + index`.
Chance actions: `ChooseSeat` (first dealer), `Shun` (the revealed suit), `Deal`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import chain
from operator import itemgetter
from typing import Any, Iterator, Sequence

from ..core.errors import DeckgenError
from . import wizard_hearts_questions
from .base import CHANCE, TERMINAL, Action, Game, IllegalAction, Outcome, Pending
from .bots import HeuristicBot
from .logs import Entry, GameLog, LogStep, field_path
from .tricks import (NO_SUIT, PLAY, CardTable, CardTables, ChooseSeat, Deal, TrickState, cards_left, check_hand_sizes,
                     count_cards, deal_hands, distinct, empty_by_suit, fill_by_suit, log_played_card, pass_target,
                     random_below, read_dealer, read_hands, read_tricks, shuffled, words)
from .wizard_hearts_view import hearts_action_view, hearts_view_extras
from .wizard_hearts_rules import (R_BROKEN, R_DEAL, R_DEALER, R_DECK, R_END, R_FIRST_LEAD, R_FIRST_TRICK, R_FOLLOW,
                                  R_LEAD, R_OWN_CARDS, R_PASSING, R_SHUN, trick_winner)

PASS = 1000
PASSING = 101  # player phase: choosing cards to pass
EMPTY_TRICK = -2  # the led suit before a trick's first card (NO_SUIT, -1, is the suit of a card without one)

DIRECTIONS = ("left", "right", "across", "hold")


@dataclass(frozen=True, slots=True)
class Shun:
    """Chance: the suit revealed as this hand's Shun suit."""

    suit: int


class WizardHeartsGame(Game):
    id = "wizard-hearts"
    min_players = 3
    max_players = 7
    lower_score_wins = True
    defaults = {
        "luck_suit": "luck", "lead_card": "2-luck", "queen_rank": "queen", "pass_count": 3,
        "passing": {"3": ["left", "right", "hold"], "4": ["left", "right", "across", "hold"],
                    "5": ["left", "right", "hold"], "6": ["left", "right", "across", "hold"],
                    "7": ["left", "right", "hold"]},
        "shun_points": 1, "queen_points": 13, "wizard_points": -2, "target_score": 25,
        "cauldron": "set-aside", "shun_must_be_broken": False, "max_hands": 100,
    }
    log_sections = ("rounds",)

    def __init__(self, deck, params=None):
        super().__init__(deck, params)
        p = self.params
        self.table = table = CardTable(deck)
        where = f"{deck.source}: [engine]"
        if p["luck_suit"] not in table.suit_index:
            raise DeckgenError(f"{where} luck_suit = {p['luck_suit']!r} is not a suit of the deck")
        self.luck = table.suit_index[p["luck_suit"]]
        if p["lead_card"] not in table.by_id:
            raise DeckgenError(f"{where} lead_card = {p['lead_card']!r} is not a card id of the deck")
        self.lead_card = table.by_id[p["lead_card"]]
        try:
            self.queen_rank = deck.rank(p["queen_rank"]).order
        except KeyError as error:
            raise DeckgenError(f"{where} queen_rank: {error.args[0]}") from None
        if p["cauldron"] not in ("set-aside", "first-trick"):
            raise DeckgenError(f"{where} cauldron = {p['cauldron']!r}; allowed: set-aside, first-trick")
        if p["max_hands"] < 1:
            raise DeckgenError(f"{where} max_hands = {p['max_hands']!r}; allowed: 1 or more")
        smallest_hand = self.hand_size(self.max_players)
        if not 0 <= p["pass_count"] <= smallest_hand:
            raise DeckgenError(f"{where} pass_count = {p['pass_count']!r}; allowed: 0 to {smallest_hand} "
                               f"(the hand of {self.max_players} players)")
        for count in range(self.min_players, self.max_players + 1):
            cycle = p["passing"].get(str(count))
            if not cycle or any(direction not in DIRECTIONS for direction in cycle):
                raise DeckgenError(f"{where} passing.\"{count}\" must list directions from {', '.join(DIRECTIONS)}")
            if "across" in cycle and count % 2:
                raise DeckgenError(f"{where} passing.\"{count}\": no seat is across with {count} players")
        self.is_wizard = tuple(kind == "wizard" for kind in table.kind)
        suits = deck.suits
        # The Opposite Queen for each possible Shun suit.
        self.opposite_queen = {}
        for index, suit in enumerate(suits):
            if suit.opposite:
                opposite = table.suit_index[suit.opposite]
                self.opposite_queen[index] = next(card for card in range(len(table.code))
                                                  if table.suit[card] == opposite and table.rank[card] == self.queen_rank)
        self.shun_suits = tuple(sorted(self.opposite_queen))
        self._points = {suit: self._points_for(suit) for suit in self.shun_suits}
        # strengths[led][card]: the card's claim on a trick of that suit (wh.play.winner)
        self.strengths = CardTables(self._strengths)
        self.shun_must_be_broken = bool(p["shun_must_be_broken"])
        self.bot_orders = CardTables(self._bot_orders)  # by Shun suit
        self.cauldron_to_first_trick = p["cauldron"] == "first-trick"
        self.pass_count = p["pass_count"]
        self.seat_choices = tuple(map(ChooseSeat, range(self.max_players)))  # immutable, so shared by every game
        self.pass_actions = tuple(range(PASS, PASS + len(table.code)))  # by card: passing it

    # builders of the card tables (methods rather than lambdas, so a game still pickles)
    def _strengths(self, led: int) -> tuple[int, ...]:
        return tuple(rank if suit == led else -1 for suit, rank in zip(self.table.suit, self.table.rank))

    def _bot_orders(self, shun: int) -> "BotOrders":
        return BotOrders.for_shun(self, shun)

    def _points_for(self, shun: int) -> tuple[int, ...]:
        p, table = self.params, self.table
        queen = self.opposite_queen[shun]
        return tuple((p["shun_points"] if table.suit[card] == shun else 0)
                     + (p["queen_points"] if card == queen else 0)
                     + (p["wizard_points"] if self.is_wizard[card] else 0) for card in range(len(table.code)))

    def hand_size(self, num_players: int) -> int:
        return self.table.total // num_players

    def pass_direction(self, num_players: int, hand_number: int) -> str:
        cycle = self.params["passing"][str(num_players)]
        return cycle[hand_number % len(cycle)]

    def new_state(self, num_players: int) -> "WizardHeartsState":
        self.check_players(num_players)
        return WizardHeartsState(self, num_players)

    def score_bounds(self, num_players: int) -> tuple[int, int]:
        worst_hand = max(sum(v for v in points if v > 0) for points in self._points.values())
        best_hand = min(sum(v for v in points if v < 0) for points in self._points.values())
        high = self.params["target_score"] - 1 + worst_hand
        return min(0, best_hand * self.params["max_hands"]), high

    def max_actions(self, num_players: int) -> int:
        per_hand = 2 + num_players * self.params["pass_count"] + self.hand_size(num_players) * num_players
        return 1 + per_hand * self.params["max_hands"]

    # -- text forms of actions ------------------------------------------------------------
    def format_action(self, state: "WizardHeartsState", action: Action) -> str:
        if isinstance(action, int):
            return f"pass {self.table.code[action - PASS]}" if action >= PASS else self.table.code[action]
        if isinstance(action, Shun):
            return f"shun {self.deck.suits[action.suit].name}"
        if isinstance(action, ChooseSeat):
            return f"first dealer: {state.player_name(action.seat)}"
        if isinstance(action, Deal):
            return "deal " + " / ".join(" ".join(self.table.codes(hand)) for hand in action.hands)
        return repr(action)

    def parse_action(self, state: "WizardHeartsState", text: str) -> Action:
        tokens = words(text)
        passing = state.phase == PASSING
        if tokens and tokens[0].casefold() == "pass":
            tokens = tokens[1:]
        card = self.table.index(" ".join(tokens))
        if card is None:
            raise ValueError(f"no card {text!r} in deck {self.deck.id!r}")
        return PASS + card if passing else card

    # -- logs -----------------------------------------------------------------------------
    def log_steps(self, log: GameLog, state: "WizardHeartsState") -> Iterator[LogStep]:
        table = self.table
        entries = log.sections("rounds")
        for index, entry in enumerate(entries):
            last = index == len(entries) - 1
            entry.check_keys(("dealer", "shun", "shun_reveal", "hands", "cauldron", "passes", "tricks"))
            if state.phase == TERMINAL:
                raise IllegalAction(f"the game ended after hand {state.round + 1}, but the log goes on",
                                    R_END, where={"round": index + 1, "field": entry.field})
            yield from read_dealer(log, entry, state, index, R_DEALER)
            name = entry.get("shun", str, None)
            stated = None if name is None else self._suit(log, name, entry.at("shun"))
            if entry.has("shun_reveal"):
                revealed = self._read_reveal(log, entry, state)
                if stated is not None and stated != revealed:
                    raise IllegalAction(f"the log says the Shun suit is {self.deck.suits[stated].name}, but the "
                                        f"reveal shows {self.deck.suits[revealed].name}", R_SHUN,
                                        [f"shun = \"{self.deck.suits[revealed].id}\""],
                                        where={"round": state.round + 1, "field": entry.at("shun")})
                stated = revealed
            field = entry.at("shun_reveal") if entry.has("shun_reveal") else entry.at("shun")
            yield LogStep(None if stated is None else Shun(stated), field)
            hands = read_hands(log, entry, table, state.num_players)
            if hands is None:
                if entry.has("cauldron"):
                    raise log.error(entry.at("cauldron"), "a Cauldron without the hands: write both, or neither")
                yield LogStep(None, entry.at("hands"))
            else:
                if entry.has("cauldron"):
                    codes = entry.get("cauldron", list)
                    aside = tuple(table.by_id[log.card(code, f"{entry.at('cauldron')}[{i}]").id]
                                  for i, code in enumerate(codes))
                else:  # the Cauldron is whatever was not dealt
                    counts = count_cards((card for hand in hands for card in hand), len(table.code))
                    aside = tuple(card for card in range(len(table.code))
                                  for _ in range(max(0, table.copies[card] - counts[card])))
                yield LogStep(Deal(hands, aside), entry.at("hands"))
            yield from self._read_passes(log, entry, state, last)
            if state.phase == PASSING:
                return
            yield from read_tricks(log, entry, table, state, last, R_LEAD, R_FIRST_LEAD)

    def _read_reveal(self, log: GameLog, entry: Entry, state: "WizardHeartsState") -> int:
        """`shun_reveal`: the cards the dealer turned, in order, until one was not Luck (wh.setup.shun).
        Every card before the last must be Luck, the last must not; returns the last card's suit."""
        table, field = self.table, entry.at("shun_reveal")
        codes = entry.get("shun_reveal", list, what="shun_reveal (the cards turned, in order)")
        if not codes:
            raise log.error(field, "list the cards turned for the Shun suit, the last one not Luck")
        cards = [table.by_id[log.card(code, field_path(field, i)).id] for i, code in enumerate(codes)]
        where = {"round": state.round + 1, "player": state.dealer}
        for i, card in enumerate(cards):
            if cards.index(card) != i:
                raise IllegalAction(f"{table.code[card]} is turned twice in the Shun reveal; the deck has one",
                                    R_DECK, where={**where, "field": field_path(field, i)})
            luck = table.suit[card] == self.luck
            if luck and i == len(cards) - 1:
                raise IllegalAction(f"the reveal ends on {table.code[card]}, a Luck card: Luck is skipped and the "
                                    "dealer turns again until a card of another suit shows", R_SHUN,
                                    ["another card turned after it"], where={**where, "field": field_path(field, i)})
            if not luck and i < len(cards) - 1:
                raise IllegalAction(f"{table.code[card]} already names the Shun suit "
                                    f"({self.deck.suits[table.suit[card]].name}); nothing more is turned", R_SHUN,
                                    [f"shun_reveal = {table.codes(cards[:i + 1])}"],
                                    where={**where, "field": field_path(field, i + 1)})
        return table.suit[cards[-1]]

    def _suit(self, log: GameLog, name: str, field: str) -> int:
        suit = self.table.suit_from_text(name)
        if suit is None:
            raise log.error(field, f"unknown suit {name!r}; the deck has {', '.join(s.id for s in self.deck.suits)}")
        return suit

    def _read_passes(self, log: GameLog, entry: Entry, state: "WizardHeartsState", last: bool) -> Iterator[LogStep]:
        passes = entry.table("passes", None)
        if state.phase != PASSING:
            if passes is not None and passes.data:
                raise IllegalAction(f"hand {state.round + 1} is a hold hand: nobody passes", R_PASSING,
                                    ["no passes on this hand"], where={"round": state.round + 1, "field": passes.field},
                                    ruling="wh.ruling.passing")
            return
        by_seat = {}
        for name, codes in (passes.data.items() if passes else ()):
            field = passes.at(name)
            log.check_type(codes, list, field, "the cards passed")
            by_seat[log.seat(name, field)] = (field, codes)
        n, count = state.num_players, self.params["pass_count"]
        open_end = last and not entry.has("tricks")  # the log may stop during the passes
        order = [(state.dealer + 1 + k) % n for k in range(n)]
        for k, seat in enumerate(order):
            if seat not in by_seat:
                if open_end and not any(later in by_seat for later in order[k:]):
                    return  # the log stops here; the report says who still owes a pass
                raise log.error(passes.field if passes else entry.field,
                                f"no cards passed by {log.players[seat]} on this passing hand",
                                hint=f"write passes.{log.players[seat]} = [...] with {count} cards")
            field, codes = by_seat[seat]
            short_at_end = len(codes) < count and open_end and not any(later in by_seat for later in order[k + 1:])
            if len(codes) != count and not short_at_end:
                raise IllegalAction(f"{log.players[seat]} passes {len(codes)} card(s); every player passes {count} "
                                    f"on a passing hand", R_PASSING, [f"{count} cards from {log.players[seat]}'s hand"],
                                    where={"round": state.round + 1, "player": seat, "field": field},
                                    ruling="wh.ruling.passing")
            for i, code in enumerate(codes):
                yield LogStep(PASS + table_index(self.table, log, code, f"{field}[{i}]"), f"{field}[{i}]")

    def log_body(self, players: Sequence[str], actions: Sequence[Action]) -> dict:
        table = self.table
        state = self.new_state(len(players))
        rounds: list[dict] = []
        current: dict[str, Any] = {}
        for action in actions:
            if isinstance(action, Shun):
                current = {"dealer": players[state.dealer], "shun": self.deck.suits[action.suit].id}
                rounds.append(current)
            elif isinstance(action, Deal):
                current["hands"] = {players[seat]: table.codes(table.sorted(action.hands[seat]))
                                    for seat in range(len(players))}
                if action.aside:
                    current["cauldron"] = table.codes(table.sorted(action.aside))
            elif isinstance(action, int) and action >= PASS:
                current.setdefault("passes", {}).setdefault(players[state.turn], []).append(table.code[action - PASS])
            elif isinstance(action, int):
                log_played_card(current, state, table.code[action])
            state.apply(action)
        return {"rounds": rounds}

    def action_view(self, before, action, after, seat):
        return hearts_action_view(self, before, action, after, seat, PASS, Shun)

    # -- players and questions --------------------------------------------------------------
    def bot(self, kind: str, rng: random.Random):
        if kind == "heuristic":
            return WizardHeartsHeuristicBot(rng)
        return super().bot(kind, rng)

    def quick_ruling(self, question: Sequence[str]) -> dict:
        return wizard_hearts_questions.ask(self, question)


def table_index(table: CardTable, log: GameLog, code: Any, field: str) -> int:
    return table.by_id[log.card(code, field).id]


class WizardHeartsState(TrickState):
    def __init__(self, game: WizardHeartsGame, num_players: int):
        super().__init__(game, num_players)
        self.chance = "dealer"  # which chance node: dealer, shun, deal
        self.shun = NO_SUIT
        self.queen = -1
        self.points: tuple[int, ...] = ()
        self.cauldron: tuple[int, ...] = ()
        self.passed: list[list[int]] = [[] for _ in range(num_players)]
        self.passes_made = 0
        self.first_card = game.lead_card  # the card that must lead the first trick
        self.led = EMPTY_TRICK  # the suit of the trick's first card
        self.broken = False
        self.hand_points = [0] * num_players
        self.captured = [0] * num_players  # cards taken in tricks this hand
        # per seat and suit, the cards held in hand order (filled once passing is done): following
        # suit is a copy of one list
        self.by_suit = empty_by_suit(num_players, self.table)
        self.totals = [0] * num_players
        self.history: list[dict] = []

    @property
    def direction(self) -> str:
        """This hand's passing direction."""
        return self.game.pass_direction(self.num_players, self.round)

    # -- GameState API -------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == PLAY:
            if self.trick_number and (self.trick or not self.game.shun_must_be_broken):
                # after the first trick, following suit or leading anything: `_options`, inlined (the hottest path)
                seat = self.turn
                led = self.led
                cards = (self.by_suit[seat][led] or self.hands[seat]) if led != EMPTY_TRICK else self.hands[seat]
                return cards[:] if self.table.unique else list(dict.fromkeys(cards))
            return self._options(self.turn)[0]
        if phase == PASSING:
            hand = self.hands[self.turn]
            cards = hand if self.table.unique else list(dict.fromkeys(hand))
            if len(cards) > 1:  # an itemgetter reads the cards' pass actions at C speed (one card: a bare item)
                return list(itemgetter(*cards)(self.game.pass_actions))
            return [PASS + card for card in cards]
        return []

    def pending(self) -> Pending | None:
        phase, name = self.phase, self.player_name
        if phase == TERMINAL:
            return None
        if phase == CHANCE:
            owes = {"dealer": ("the choice of the first dealer", R_DEALER),
                    "shun": (f"the Shun suit {name(self.dealer)} reveals for hand {self.round + 1}", R_SHUN),
                    "deal": (f"the deal of hand {self.round + 1} by {name(self.dealer)}", R_DEAL)}[self.chance]
            return Pending(CHANCE, *owes)
        seat = self.turn
        if phase == PASSING:
            left = self.game.params["pass_count"] - len(self.passed[seat])
            target = name(pass_target(seat, self.direction, self.num_players))
            return Pending(seat, f"{name(seat)} to pass {left} more card(s) to {target} "
                                 f"({len(self.passed[seat])} passed so far)", R_PASSING)
        options, rule = self._options(seat)
        what = "lead" if not self.trick else "play"
        return Pending(seat, f"{name(seat)} to {what} a card to trick {self.trick_number + 1} of hand {self.round + 1}",
                       rule)

    def view_counters(self) -> dict:
        suits = self.game.deck.suits
        shun = "-" if self.shun == NO_SUIT else suits[self.shun].name
        passed = " / ".join(str(len(cards)) for cards in self.passed)
        return {"Shun suit": shun, "Passing": self.direction, "Cards passed": passed,
                "Hand points": " / ".join(map(str, self.hand_points))}

    def view_extras(self, seat: int | None) -> dict:
        return hearts_view_extras(self, PASSING, seat)

    def play_options(self, seat: int) -> list[int]:
        return self._options(seat)[0]

    def _options(self, seat: int) -> tuple[list[int], str]:
        """The distinct playable cards and the rule that narrowed them (for messages)."""
        hand = self.hands[seat]
        suit_of = self.suit_of
        if not self.trick:
            if self.trick_number == 0:
                return [self.first_card], R_FIRST_LEAD
            if self.game.shun_must_be_broken and not self.broken:
                unbroken = [c for c in hand if suit_of[c] != self.shun]
                if unbroken:
                    return distinct(unbroken, self.table.unique), R_BROKEN
            return distinct(hand, self.table.unique), R_LEAD
        options = self.by_suit[seat][suit_of[self.trick[0]]] or hand
        rule = R_FOLLOW
        if self.trick_number == 0:
            shun, queen = self.shun, self.queen
            clean = [c for c in options if suit_of[c] != shun and c != queen]
            if clean:
                if len(clean) < len(options):
                    rule = R_FIRST_TRICK
                options = clean
        return distinct(options, self.table.unique), rule

    def apply(self, action: Action) -> None:
        phase = self.phase
        if phase == PLAY:
            seat = self.turn
            held = self.by_suit[seat]
            if type(action) is not int:
                self._refuse(seat, action)
            try:
                suit = self.suit_of[action]
            except IndexError:
                self._refuse(seat, action)
            led = self.led
            if led != EMPTY_TRICK and self.trick_number:  # the common case: follow suit if you can
                if suit != led and held[led]:
                    self._refuse(seat, action)
            elif self.trick_number == 0 or self.game.shun_must_be_broken:  # the first trick, or a restricted lead
                if action not in self._options(seat)[0]:
                    self._refuse(seat, action)
            try:  # the suit's cards are few, so looking there first is the cheap test of holding the card
                held[suit].remove(action)
            except ValueError:
                self._refuse(seat, action)
            if suit == self.shun:
                self.broken = True
            self.hands[seat].remove(action)
            trick = self.trick
            trick.append(action)
            if led == EMPTY_TRICK:
                self.led = led = suit
            if len(trick) < self.num_players:
                self.turn = seat + 1 if seat + 1 < self.num_players else 0
                return
            # every seat has played: the highest card of the suit led takes the trick and its points
            of_trick = itemgetter(*trick)  # reads the trick's cards in a card table at C speed
            ranks = of_trick(self.game.strengths[led])
            winner = (self.leader + ranks.index(max(ranks))) % self.num_players
            self.won[winner] += 1
            self.hand_points[winner] += sum(of_trick(self.points))
            self.captured[winner] += len(trick)
            if self.trick_number == 0 and self.game.cauldron_to_first_trick and self.cauldron:
                self.hand_points[winner] += sum(map(self.points.__getitem__, self.cauldron))
                self.captured[winner] += len(self.cauldron)
            self.led = EMPTY_TRICK
            self.trick = []
            self.trick_number += 1
            self.leader = self.turn = winner
            if not self.hands[winner]:
                self.end_round()
        elif phase == PASSING:
            self._pass(action)
        elif phase == CHANCE:
            self._chance(action)
        else:
            raise IllegalAction("the game is over", R_END, where={"round": self.round + 1})

    def _refuse(self, seat: int, card: Any) -> None:
        options, rule = self._options(seat)
        legal = self.table.codes(sorted(options))
        if type(card) is not int or not 0 <= card < len(self.table.code):
            shown = self.game.format_action(self, card) if type(card) is int and card >= PASS else repr(card)
            raise IllegalAction(f"{self.player_name(seat)} is to play a card to trick {self.trick_number + 1}, not "
                                f"{shown!r}: the passing is over", rule, legal, self.where(seat))
        if card not in self.hands[seat]:
            self.check_in_hand(seat, card, R_OWN_CARDS)
        raise IllegalAction(self._refusal(seat, card, rule), rule, legal, self.where(seat), ruling=_RULINGS.get(rule, ""))

    def _refusal(self, seat: int, card: int, rule: str) -> str:
        code = self.table.code[card]
        name = self.player_name(seat)
        if rule == R_FIRST_LEAD:
            return f"{name} must lead {self.table.name[self.first_card]} to the first trick, not {code}"
        if rule == R_BROKEN:
            return f"{name} leads {code}, but the Shun suit has not been broken and they hold other cards"
        if rule == R_FIRST_TRICK:
            what = "the Opposite Queen" if card == self.queen else "a Shun card"
            return f"{name} plays {code}, {what}, to the first trick while holding other cards they may play"
        led = self.game.deck.suits[self.table.suit[self.trick[0]]].name
        return f"{name} plays {code}, but {led} was led and they hold {led}: they must follow suit"

    def trick_winner(self, cards: list[int]) -> int:
        return trick_winner(cards, self.game.strengths[self.suit_of[cards[0]]])

    def end_round(self) -> None:
        self.totals = [total + p for total, p in zip(self.totals, self.hand_points)]
        self.history.append({"dealer": self.dealer, "shun": self.shun, "direction": self.direction,
                             "points": list(self.hand_points), "totals": list(self.totals),
                             "tricks": list(self.won)})
        target = self.game.params["target_score"]
        if max(self.totals) >= target:
            self.phase = TERMINAL
        elif self.round + 1 >= self.game.params["max_hands"]:  # the length cap (outcome: "turn-cap")
            self.phase = TERMINAL
        else:
            self.round += 1
            self.dealer = (self.dealer + 1) % self.num_players
            self.phase = CHANCE
            self.chance = "shun"

    # -- passing -------------------------------------------------------------------------
    def _pass(self, action: Action) -> None:
        seat = self.turn
        card = action - PASS if type(action) is int else -1
        try:  # no hand holds a negative card
            self.hands[seat].remove(card)
        except ValueError:
            shown = self.table.code[card] if 0 <= card < len(self.table.code) else repr(action)
            raise IllegalAction(f"{self.player_name(seat)} passes {shown}, which is not in their hand", R_OWN_CARDS,
                                self.table.codes(sorted(set(self.hands[seat]))), self.where(seat)) from None
        passed = self.passed[seat]
        passed.append(card)
        if len(passed) < self.game.pass_count:
            return
        self.passes_made += 1
        if self.passes_made < self.num_players:
            self.turn = (seat + 1) % self.num_players
            return
        direction = self.direction
        for giver in range(self.num_players):
            self.hands[pass_target(giver, direction, self.num_players)].extend(self.passed[giver])
        self._start_play()

    def _start_play(self) -> None:
        lead = self.game.lead_card
        if lead in self.cauldron:  # wh.ruling.luck-two: the lowest Luck card dealt leads
            luck, rank_of, suit_of = self.game.luck, self.table.rank, self.table.suit
            lead = min((c for hand in self.hands for c in hand if suit_of[c] == luck), key=rank_of.__getitem__)
        self.first_card = lead
        self.leader = self.turn = next(seat for seat, hand in enumerate(self.hands) if lead in hand)
        fill_by_suit(self.by_suit, self.hands, self.suit_of)  # the hand before emptied the lists
        self.phase = PLAY

    # -- chance --------------------------------------------------------------------------
    def _chance(self, action: Action) -> None:
        where = {"round": self.round + 1}
        if self.chance == "dealer":
            if not isinstance(action, ChooseSeat) or not 0 <= action.seat < self.num_players:
                raise IllegalAction("the game starts by choosing the first dealer", R_DEALER, where=where)
            self.dealer = action.seat
            self.chance = "shun"
        elif self.chance == "shun":
            if not isinstance(action, Shun) or action.suit not in self.game.opposite_queen:
                suit = (self.game.deck.suits[action.suit].name if isinstance(action, Shun)
                        and 0 <= action.suit < len(self.game.deck.suits) else "that")
                raise IllegalAction(f"{suit} cannot be the Shun suit: Luck is skipped when revealing", R_SHUN,
                                    [self.game.deck.suits[s].name for s in self.game.shun_suits], where)
            self.shun = action.suit
            self.queen = self.game.opposite_queen[action.suit]
            self.points = self.game._points[action.suit]
            self.chance = "deal"
        else:
            if not isinstance(action, Deal):
                raise IllegalAction("after the Shun suit is revealed the cards are dealt", R_DEAL, where=where)
            self._deal(action, where)

    def _deal(self, deal: Deal, where: dict) -> None:
        size = self.game.hand_size(self.num_players)
        checked = deal is self.sampled
        self.sampled = None
        if not checked and (len(deal.hands) != self.num_players or set(map(len, deal.hands)) != {size}):
            check_hand_sizes(self, deal, size, f"with {self.num_players} players everyone gets", R_DEAL, where)
        if not checked and sorted(chain(*deal.hands, deal.aside)) != self.table.physical:  # not every copy once
            copies = self.table.copies
            left = cards_left(copies, (*deal.hands, deal.aside))
            if min(left) < 0:
                card = next(card for card, count in enumerate(left) if count < 0)
                raise IllegalAction(f"{self.table.name[card]} is dealt {copies[card] - left[card]} times; the deck "
                                    f"has {copies[card]}", R_DECK, where=where)
            card = next((card for card, count in enumerate(left) if count > 0), None)
            if card is None:  # the counts add up, so something dealt is no card index (-1, say)
                raise IllegalAction("the deal holds something that is not a card of the deck", R_DECK, where=where)
            raise IllegalAction(f"{self.table.name[card]} is neither dealt nor in the Cauldron", R_DEAL, where=where)
        self.hands = list(map(list, deal.hands))
        self.cauldron = tuple(deal.aside)
        self.trick = []
        self.led = EMPTY_TRICK
        self.trick_number = 0
        self.won = [0] * self.num_players
        self.hand_points = [0] * self.num_players
        self.captured = [0] * self.num_players
        self.broken = False
        self.passed = [[] for _ in range(self.num_players)]
        self.passes_made = 0
        if self.direction == "hold" or self.game.pass_count == 0:
            self._start_play()
        else:
            self.phase = PASSING
            self.turn = (self.dealer + 1) % self.num_players

    def sample_chance(self, rng: random.Random) -> Action:
        if self.chance == "dealer":
            return self.game.seat_choices[random_below(rng, self.num_players)]
        physical = self.table.physical
        if self.chance == "shun":
            suit_of, luck = self.table.suit, self.game.luck
            while True:  # turn cards until one is not Luck
                card = physical[random_below(rng, len(physical))]
                if suit_of[card] != luck:
                    return Shun(suit_of[card])
        order = tuple(shuffled(physical, rng))
        size = self.game.hand_size(self.num_players)
        hands = deal_hands(order, self.num_players, size, (self.dealer + 1) % self.num_players)  # slices: tuples
        deal = self.sampled = Deal(tuple(hands), order[size * self.num_players:])
        return deal

    # -- results -------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.phase != TERMINAL:
            return None
        low = min(self.totals)
        winners = tuple(seat for seat, total in enumerate(self.totals) if total == low)
        capped = max(self.totals) < self.game.params["target_score"]  # stopped by max_hands
        return Outcome(tuple(self.totals), winners, "turn-cap" if capped else "finished")

    def summary(self) -> dict:
        suits = self.game.deck.suits
        rounds = []
        for number, entry in enumerate(self.history, start=1):
            rounds.append({
                "round": number, "dealer": entry["dealer"], "shun": suits[entry["shun"]].id,
                "passing": entry["direction"],
                "title": f"Hand {number}: dealer {self.player_name(entry['dealer'])}, Shun suit "
                         f"{suits[entry['shun']].name}, passing {entry['direction']}",
                "columns": {"tricks": entry["tricks"], "points": entry["points"], "total": entry["totals"]},
            })
        if self.phase in (PASSING, PLAY):
            rounds.append({
                "round": self.round + 1, "dealer": self.dealer, "shun": suits[self.shun].id, "in_progress": True,
                "title": f"Hand {self.round + 1} (unfinished): dealer {self.player_name(self.dealer)}, Shun suit "
                         f"{suits[self.shun].name}, {self.trick_number} trick(s) played",
                "columns": {"tricks": list(self.won), "points": list(self.hand_points), "total": list(self.totals)},
            })
        return {"scores": list(self.totals), "rounds": rounds}


_RULINGS = {R_FIRST_TRICK: "wh.ruling.first-trick", R_FOLLOW: "wh.ruling.follow"}


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
