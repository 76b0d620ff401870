"""Wizard (Ken Fisher): the reference referee for decks/wizard.toml.

Every round: the dealer (a chance action in round 1, then one seat left each round) deals
round-number cards (chance), turns the next card for trump (chance; none in the final
round), picks a suit if it is a Wizard, everyone bids from the dealer's left, and the
tricks are played. Rule ids cited are the deck's; parameters come from its `[engine]`:
`bid_restriction` (none | every-round | final-round | never-even), `bidding`
(open | hidden | delayed: no restriction applies unless bids are open) and `tie_break`
(shared | sum-of-bids).

Actions: a card is its index in `deck.cards` (0..53); a bid b is `BID + b`; the dealer's
trump choice is `TRUMP + suit index`. Chance actions: `ChooseSeat` (first dealer), `Deal`
(the hands) and `TurnUp` (the turned card).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import chain, repeat
from operator import add, itemgetter

from ..core.errors import DeckgenError
from . import wizard_questions
from .base import CHANCE, TERMINAL, Action, Game, IllegalAction, Outcome, Pending
from .bots import HeuristicBot
from .logs import GameLog, LogStep, field_path
from .tricks import (NO_SUIT, PLAY, CardTable, CardTables, ChooseSeat, Deal, TrickState, check_hand_sizes, count_cards,
                     deal_hands, draw_cards, empty_by_suit, fill_by_suit, log_played_card, random_below, read_dealer,
                     read_hands, read_tricks, words)
from .wizard_rules import (BID, BID_STYLES, BIDDING, CHOOSE_TRUMP, NO_TRUMP_WORDS, R_BID_RANGE, R_COUNTS, R_DEAL,
                           R_FIRST_DEALER, R_FOLLOW, R_LEAD, R_OWN_CARDS, R_ROUNDS, R_TRUMP, RESTRICTIONS, TIE_BREAKS,
                           TRUMP, WIZARD_LED, card_strengths, forbidden_bid, trick_led_suit, trick_winner)
from .wizard_view import wizard_action_view, wizard_view_extras

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, Iterator, Sequence


@dataclass(frozen=True, slots=True)
class TurnUp:
    """Chance: the card turned after the deal to set trump."""

    card: int


class WizardGame(Game):
    id = "wizard"
    min_players = 3
    max_players = 6
    defaults = {"bid_restriction": "every-round", "bidding": "open", "tie_break": "shared"}
    log_sections = ("rounds",)

    def __init__(self, deck, params=None):
        super().__init__(deck, params)
        for key, allowed in (("bid_restriction", RESTRICTIONS), ("bidding", BID_STYLES), ("tie_break", TIE_BREAKS)):
            if self.params[key] not in allowed:
                raise DeckgenError(f"{deck.source}: [engine] {key} = {self.params[key]!r}; "
                                   f"allowed: {', '.join(allowed)}")
        self.table = table = CardTable(deck)
        self.is_wizard = tuple(kind == "wizard" for kind in table.kind)
        self.is_jester = tuple(kind == "jester" for kind in table.kind)
        self.free = tuple(w or j for w, j in zip(self.is_wizard, self.is_jester))
        self.num_suits = len(deck.suits)
        # whether only cards without a suit (Wizards, Jesters) come in copies, so a hand's repeats are among them
        self.only_free_cards_repeat = all(copies == 1 or suit == NO_SUIT
                                          for copies, suit in zip(table.copies, table.suit))
        # strengths[trump, led]: each card's claim on a trick (trump and led may be NO_SUIT; led may be WIZARD_LED)
        self.strengths = CardTables(self._strengths)
        # claims[trump][led]: the same tables by trump, then by led suit, WIZARD_LED and NO_SUIT
        # (negative, so they index from the end), for the trick's winner in one lookup
        self.claims = CardTables(self._claims)
        # what the heuristic bot reads: the suit each card would set if led, each card's power
        # by trump, and the tricks it may take by (trump, players)
        self.sets_led = tuple(trick_led_suit((card,), self.is_wizard, self.is_jester, table.suit)
                              for card in range(len(table.code)))
        self.bot_power = CardTables(self._bot_power)
        self.bot_worth = CardTables(self._bot_worth)
        # playable_when_led[suit][card]: may the card be played to a trick of that suit by a
        # player who holds the suit (wizard.play.follow: the suit itself, Wizards, Jesters)
        self.playable_when_led = tuple(tuple(card_suit == suit or free for card_suit, free in zip(table.suit, self.free))
                                       for suit in range(self.num_suits))
        # the bids of a round of n cards: BID + 0 .. BID + n
        self.bid_options = tuple(tuple(range(BID, BID + cards + 1)) for cards in range(table.total + 1))
        # Hidden and delayed bids have no last bidder, so no restriction applies (wizard.variants.*).
        self.restriction = self.params["bid_restriction"] if self.params["bidding"] == "open" else "none"
        # chance actions are immutable, so sampling hands out shared ones rather than building each
        self.turn_ups = tuple(map(TurnUp, range(len(table.code))))
        self.seat_choices = tuple(map(ChooseSeat, range(self.max_players)))

    # builders of the card tables (methods rather than lambdas, so a game still pickles)
    def _strengths(self, key: tuple[int, int]) -> tuple[int, ...]:
        return card_strengths(*key, self.is_wizard, self.table.suit, self.table.rank)

    def _claims(self, trump: int) -> tuple[tuple[int, ...], ...]:
        return tuple(self.strengths[trump, led] for led in (*range(self.num_suits), WIZARD_LED, NO_SUIT))

    def _bot_power(self, trump: int) -> tuple[int, ...]:
        return tuple(1000 if wizard else -1 if jester else rank + (100 if suit == trump else 0)
                     for wizard, jester, suit, rank in zip(self.is_wizard, self.is_jester, self.table.suit, self.table.rank))

    def _bot_worth(self, key: tuple[int, int]) -> tuple[float, ...]:
        return tuple(expected_tricks(card, *key, self) for card in range(len(self.table.code)))

    def num_rounds(self, num_players: int) -> int:
        return self.table.total // num_players

    def new_state(self, num_players: int) -> "WizardState":
        self.check_players(num_players)
        return WizardState(self, num_players)

    def score_bounds(self, num_players: int) -> tuple[int, int]:
        rounds = range(1, self.num_rounds(num_players) + 1)
        return -10 * sum(rounds), sum(20 + 10 * r for r in rounds)

    def max_actions(self, num_players: int) -> int:
        # first dealer, then per round: deal, turn-up, trump choice, bids, cards
        return 1 + sum(3 + num_players + num_players * r for r in range(1, self.num_rounds(num_players) + 1))

    # -- text forms of actions ------------------------------------------------------------
    def format_action(self, state: "WizardState", action: Action) -> str:
        if isinstance(action, int):
            if action >= TRUMP:
                return f"trump {self.deck.suits[action - TRUMP].name}"
            if action >= BID:
                return f"bid {action - BID}"
            return self.table.code[action]
        if isinstance(action, TurnUp):
            return f"turn {self.table.code[action.card]}"
        if isinstance(action, ChooseSeat):
            return f"first dealer: {state.player_name(action.seat)}"
        if isinstance(action, Deal):
            return "deal " + " / ".join(" ".join(self.table.codes(hand)) for hand in action.hands)
        return repr(action)

    def parse_action(self, state: "WizardState", text: str) -> Action:
        tokens = words(text.casefold())
        if state.phase == BIDDING:
            if tokens and tokens[0] == "bid":
                tokens = tokens[1:]
            if len(tokens) == 1 and tokens[0].lstrip("-").isdigit():
                return BID + int(tokens[0])
            raise ValueError(f"expected a bid such as `bid 2`, not {text!r}")
        if state.phase == CHOOSE_TRUMP:
            if tokens and tokens[0] == "trump":
                tokens = tokens[1:]
            suit = self.table.suit_from_text(" ".join(tokens))
            if suit is None:
                raise ValueError(f"expected a suit ({', '.join(s.name for s in self.deck.suits)}), not {text!r}")
            return TRUMP + suit
        card = self.table.index(text)
        if card is None:
            raise ValueError(f"no card {text!r} in deck {self.deck.id!r}")
        return card

    # -- logs -----------------------------------------------------------------------------
    def log_steps(self, log: GameLog, state: "WizardState") -> Iterator[LogStep]:
        table = self.table
        entries = log.sections("rounds")
        for index, entry in enumerate(entries):
            last = index == len(entries) - 1
            entry.check_keys(("dealer", "dealer_draw", "hands", "turned", "trump", "bids", "tricks"))
            if state.phase == TERMINAL:
                raise IllegalAction(f"the game ended after round {state.round + 1}, but the log goes on",
                                    R_ROUNDS, where={"round": index + 1, "field": entry.field})
            if entry.has("dealer_draw"):
                if index:
                    raise log.error(entry.at("dealer_draw"), "only the first round has a draw for the first dealer")
                yield LogStep(ChooseSeat(self._first_dealer(log, entry)), entry.at("dealer_draw"))
            else:
                yield from read_dealer(log, entry, state, index, R_DEAL)
            hands = read_hands(log, entry, table, state.num_players)
            yield LogStep(None if hands is None else Deal(hands), entry.at("hands"))
            if state.chance == "turn":
                code = entry.get("turned", str, None)
                yield LogStep(None if code is None else TurnUp(table.by_id[log.card(code, entry.at("turned")).id]),
                              entry.at("turned"))
            elif entry.has("turned") and entry.get("turned", str).casefold() not in ("none", ""):
                raise IllegalAction("in the final round every card is dealt, so no card is left to turn",
                                    R_TRUMP, ["turned = \"none\" (or leave it out)"],
                                    where={"round": index + 1, "field": entry.at("turned")})
            if state.phase == CHOOSE_TRUMP:
                name = entry.get("trump", str, None)
                if name is None:
                    if last and not entry.has("bids") and not entry.has("tricks"):
                        return
                    raise log.error(entry.at("trump"), "a Wizard was turned, so the dealer's trump choice is needed")
                if name.strip().casefold() in NO_TRUMP_WORDS:
                    raise IllegalAction(f"a Wizard was turned, so {log.players[state.dealer]}, the dealer, must name "
                                        "one of the four suits as trump; \"no trump\" is not a choice", R_TRUMP,
                                        [suit.name for suit in self.deck.suits],
                                        {**state.where(state.dealer), "field": entry.at("trump")},
                                        ruling="wizard.ruling.wizard-trump")
                yield LogStep(TRUMP + self._suit(log, name, entry.at("trump")), entry.at("trump"))
            elif entry.has("trump"):
                name = entry.get("trump", str)
                stated = NO_SUIT if name.casefold() in NO_TRUMP_WORDS else self._suit(log, name, entry.at("trump"))
                if stated != state.trump:
                    actual = "no trump" if state.trump == NO_SUIT else self.deck.suits[state.trump].name
                    raise IllegalAction(f"the log says trump is {name!r}, but the turned card makes it {actual}",
                                        R_TRUMP, [f"trump = \"{'none' if state.trump == NO_SUIT else self.deck.suits[state.trump].id}\""],
                                        where={"round": index + 1, "field": entry.at("trump")})
            yield from self._read_bids(log, entry, state, last)
            if state.phase == BIDDING:
                return
            yield from read_tricks(log, entry, table, state, last, R_LEAD)

    def _first_dealer(self, log: GameLog, entry) -> int:
        """Check round 1's `dealer_draw` (wizard.setup.first-dealer): one card each, highest deals
        (Wizard high, Jester low); tied players draw again, in the next table of the list. The seat
        it gives must match `dealer` when the log names one."""
        table, field = self.table, entry.at("dealer_draw")
        draws = entry.get("dealer_draw", (dict, list), what="dealer_draw (one card per player)")
        draws = [draws] if isinstance(draws, dict) else draws
        drawing = list(range(len(log.players)))
        for number, draw in enumerate(draws):
            where = field if isinstance(entry.data["dealer_draw"], dict) else field_path(field, number)
            log.check_type(draw, dict, where, "a draw (player name -> card code)")
            cards = {log.seat(name, field_path(where, name)): table.by_id[log.card(code, field_path(where, name)).id]
                     for name, code in draw.items()}
            if sorted(cards) != drawing:
                wanted = ", ".join(log.players[seat] for seat in drawing)
                what = "every player" if number == 0 else "the players tied in the draw before"
                raise IllegalAction(f"the draw for the first dealer is between {what}: {wanted}",
                                    R_FIRST_DEALER, [f"one card each for {wanted}"],
                                    where={"round": 1, "field": where})
            counts = count_cards(cards.values(), len(table.code))
            for card, count in enumerate(counts):
                if count > table.copies[card]:
                    raise IllegalAction(f"{count} players drew {table.name[card]}; the deck has {table.copies[card]}",
                                        R_COUNTS, where={"round": 1, "field": where})
            value = {seat: self.draw_value(card) for seat, card in cards.items()}
            best = max(value.values())
            drawing = [seat for seat in sorted(value) if value[seat] == best]
            if len(drawing) == 1 and number < len(draws) - 1:
                raise IllegalAction(f"{log.players[drawing[0]]} drew the highest card alone, so nobody draws again",
                                    R_FIRST_DEALER, [f"dealer = {log.players[drawing[0]]!r}"],
                                    where={"round": 1, "field": field_path(field, number + 1)})
        if len(drawing) > 1:
            names = " and ".join(log.players[seat] for seat in drawing)
            raise IllegalAction(f"{names} tie for the highest card, so they draw again, but the log stops here",
                                R_FIRST_DEALER, [f"another draw between {names}"], where={"round": 1, "field": field})
        seat = drawing[0]
        if entry.has("dealer"):
            named = log.seat(entry.get("dealer", str), entry.at("dealer"))
            if named != seat:
                raise IllegalAction(f"{log.players[named]} is named as dealer, but {log.players[seat]} drew the "
                                    "highest card", R_FIRST_DEALER, [f"dealer = {log.players[seat]!r}"],
                                    where={"round": 1, "player": named, "field": entry.at("dealer")})
        return seat

    def draw_value(self, card: int) -> int:
        """A card's height in the draw for the first dealer: Wizards highest, Jesters lowest."""
        return 100 if self.is_wizard[card] else -1 if self.is_jester[card] else self.table.rank[card]

    def _suit(self, log: GameLog, name: str, field: str) -> int:
        suit = self.table.suit_from_text(name)
        if suit is None:
            raise log.error(field, f"unknown suit {name!r}; the deck has {', '.join(s.id for s in self.deck.suits)}")
        return suit

    def _read_bids(self, log: GameLog, entry, state: "WizardState", last: bool) -> Iterator[LogStep]:
        bids = entry.get("bids", (dict, list), None)
        field = entry.at("bids")
        n = state.num_players
        if isinstance(bids, list):  # in bidding order, from the dealer's left
            if len(bids) > n:
                raise log.error(field, f"{len(bids)} bids for {n} players")
            written = [(f"{field}[{k}]", bid) for k, bid in enumerate(bids)]
        else:
            by_seat = {log.seat(name, field_path(field, name)): (field_path(field, name), bid)
                       for name, bid in (bids or {}).items()}
            written = []
            for k in range(n):
                seat = (state.dealer + 1 + k) % n
                if seat not in by_seat:
                    break
                written.append(by_seat[seat])
            if len(written) < len(by_seat):
                missing = log.players[(state.dealer + 1 + len(written)) % n]
                raise log.error(field, f"no bid for {missing}, who bids before the later bids listed")
        for where, bid in written:
            log.check_type(bid, int, where, "a bid")
            yield LogStep(BID + bid, where)
        if len(written) < n and not (last and not entry.has("tricks")):
            missing = log.players[(state.dealer + 1 + len(written)) % n]
            raise log.error(field if bids is not None else entry.field, f"no bid for {missing}",
                            hint="every player bids before the first card; only the last round of a log may stop early")

    def log_body(self, players: Sequence[str], actions: Sequence[Action]) -> dict:
        table = self.table
        state = self.new_state(len(players))
        rounds: list[dict] = []
        current: dict[str, Any] = {}
        for action in actions:
            if isinstance(action, Deal):
                current = {"dealer": players[state.dealer],
                           "hands": {players[seat]: table.codes(table.sorted(action.hands[seat]))
                                     for seat in range(len(players))}}
                rounds.append(current)
            elif isinstance(action, TurnUp):
                current["turned"] = table.code[action.card]
            elif isinstance(action, int) and action >= TRUMP:
                current["trump"] = self.deck.suits[action - TRUMP].id
            elif isinstance(action, int) and action >= BID:
                current.setdefault("bids", {})[players[state.turn]] = action - BID
            elif isinstance(action, int):
                log_played_card(current, state, table.code[action])
            state.apply(action)
        return {"rounds": rounds}

    def action_view(self, before, action, after, seat):
        return wizard_action_view(self, before, action, after, seat)

    # -- players and questions --------------------------------------------------------------
    def bot(self, kind: str, rng: random.Random):
        if kind == "heuristic":
            return WizardHeuristicBot(rng)
        return super().bot(kind, rng)

    def quick_ruling(self, question: Sequence[str]) -> dict:
        return wizard_questions.ask(self, question)



class WizardState(TrickState):
    def __init__(self, game: WizardGame, num_players: int):
        super().__init__(game, num_players)
        self.rounds_total = game.num_rounds(num_players)
        self.chance = "dealer"  # which chance node: dealer, deal, turn
        self.trump = NO_SUIT
        self.turned: int | None = None
        self.led = NO_SUIT
        self.claims: tuple[tuple[int, ...], ...] = ()  # the game's claims for this round's trump, by led suit
        self.bids: list[int | None] = [None] * num_players
        self.bids_made = 0
        self.bids_total = 0  # the sum of this round's bids so far
        self.totals = [0] * num_players
        self.history: list[dict] = []  # one entry per finished round
        self.deck_left: list[int] = []  # the cards not dealt, in card order: one of them is turned
        self.sampled_left: list[int] = []  # the cards a sampled deal leaves in the deck, in card order
        # per seat and suit, the cards held in hand order, Wizards and Jesters (no suit) in the
        # last list; and per seat how many held cards repeat one held earlier (a second Wizard...)
        self.by_suit = empty_by_suit(num_players, game.table)
        self.repeats: list[int] = []

    # -- GameState API -------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == PLAY:  # play_options(self.turn), inlined: the hottest path of a simulation
            seat = self.turn
            held = self.by_suit[seat]
            led = self.led
            if led >= 0 and held[led]:
                if self.repeats[seat]:
                    return list(dict.fromkeys(held[led] + held[NO_SUIT]))
                return held[led] + held[NO_SUIT]
            if self.repeats[seat]:
                return list(dict.fromkeys(self.hands[seat]))
            return self.hands[seat][:]
        if phase == BIDDING:
            bids = self.game.bid_options[self.round + 1]
            if self.bids_made == self.num_players - 1:  # only the last bidder can be restricted
                forbidden = self.forbidden()[0]
                if forbidden is not None:
                    return [bid for bid in bids if bid != BID + forbidden]
            return list(bids)
        if phase == CHOOSE_TRUMP:
            return [TRUMP + suit for suit in range(self.game.num_suits)]
        return []

    def pending(self) -> Pending | None:
        phase, name = self.phase, self.player_name
        if phase == TERMINAL:
            return None
        if phase == CHANCE:
            owes = {"dealer": ("the draw for the first dealer", R_FIRST_DEALER),
                    "deal": (f"the deal of round {self.round + 1} by {name(self.dealer)}", R_DEAL),
                    "turn": (f"the card {name(self.dealer)} turns for trump", R_TRUMP)}[self.chance]
            return Pending(CHANCE, *owes)
        if phase == CHOOSE_TRUMP:
            return Pending(self.dealer, f"{name(self.dealer)}, the dealer, names the trump suit (a Wizard was turned)",
                           R_TRUMP)
        seat = self.turn
        if phase == BIDDING:
            forbidden, rule = self.forbidden()
            return Pending(seat, f"{name(seat)}'s bid for round {self.round + 1}",
                           rule if forbidden is not None else R_BID_RANGE)
        what = "lead" if not self.trick else "play"
        return Pending(seat, f"{name(seat)} to {what} a card to trick {self.trick_number + 1} of round {self.round + 1}",
                       R_LEAD if not self.trick else R_FOLLOW)

    def view_counters(self) -> dict:
        suits = self.game.deck.suits
        trump = "none" if self.trump == NO_SUIT else suits[self.trump].name
        turned = "-" if self.turned is None else self.table.code[self.turned]
        bids = " / ".join("-" if bid is None else str(bid) for bid in self.bids)
        return {"Turned": turned, "Trump": trump, "Bids": bids}

    def view_extras(self, seat: int | None) -> dict:
        return wizard_view_extras(self, seat)

    def play_options(self, seat: int) -> list[int]:
        """The distinct cards the seat may play, in a fixed order (the compiled playout keeps
        the same): following suit, the led suit's cards then the Wizards and Jesters, each in
        hand order; otherwise the whole hand in hand order. A repeated copy is listed once."""
        held = self.by_suit[seat]
        led = self.led
        if led >= 0 and held[led]:
            if self.repeats[seat]:
                return list(dict.fromkeys(held[led] + held[NO_SUIT]))
            return held[led] + held[NO_SUIT]
        if self.repeats[seat]:
            return list(dict.fromkeys(self.hands[seat]))
        return self.hands[seat][:]

    def apply(self, action: Action) -> None:
        phase = self.phase
        if phase == PLAY:
            seat = self.turn
            held = self.by_suit[seat]
            led = self.led
            if type(action) is not int:
                self._refuse_card(seat, action)
            try:
                suit = self.suit_of[action]
            except IndexError:
                self._refuse_card(seat, action)
            if led >= 0 and suit != led and suit >= 0 and held[led]:  # holds the suit led and does not follow
                self._refuse_card(seat, action)
            same = held[suit]
            try:  # the suit's cards are few, so looking there first is the cheap test of holding the card
                same.remove(action)
            except ValueError:
                self._refuse_card(seat, action)
            if led == NO_SUIT:  # nothing set yet: the first card that is not a Jester sets it
                if suit >= 0:
                    self.led = suit
                elif self.game.is_wizard[action]:
                    self.led = WIZARD_LED
            if self.repeats[seat] and action in same:
                self.repeats[seat] -= 1
            self.hands[seat].remove(action)
            trick = self.trick
            trick.append(action)
            if len(trick) < self.num_players:
                self.turn = seat + 1 if seat + 1 < self.num_players else 0
                return
            # every seat has played: the highest claim takes the trick (an itemgetter reads the
            # cards' claims at C speed; a bound __getitem__ would cost a call per card)
            claims = itemgetter(*trick)(self.claims[self.led])
            winner = (self.leader + claims.index(max(claims))) % self.num_players
            self.won[winner] += 1
            self.led = NO_SUIT
            self.trick = []
            self.trick_number += 1
            self.leader = self.turn = winner
            if not self.hands[winner]:
                self.end_round()
        elif phase == BIDDING:
            self._bid(action)
        elif phase == CHOOSE_TRUMP:
            self._choose_trump(action)
        elif phase == CHANCE:
            self._chance(action)
        else:
            raise IllegalAction(f"the game is over after round {self.rounds_total}", R_ROUNDS,
                                where={"round": self.round + 1})

    def _refuse_card(self, seat: int, card: Any) -> None:
        legal = self.table.codes(sorted(self.play_options(seat)))
        if type(card) is not int or not 0 <= card < len(self.table.code):
            raise IllegalAction(f"a card is to be played, not {card!r}", R_LEAD, legal, self.where(seat))
        if card not in self.hands[seat]:
            self.check_in_hand(seat, card, R_OWN_CARDS)
        suit = self.game.deck.suits[self.led].name
        setter = next(c for c in self.trick if not self.game.is_jester[c])
        how = (f"{suit} was led" if setter == self.trick[0] else
               f"a Jester was led and {self.table.code[setter]} set {suit} as the suit to follow")
        raise IllegalAction(f"{self.player_name(seat)} plays {self.table.code[card]}, but {how} "
                            f"and they hold {suit}: they must follow suit", R_FOLLOW, legal, self.where(seat))

    def trick_winner(self, cards: list[int]) -> int:
        return trick_winner(cards, self.game.strengths[self.trump, self.led])

    def end_round(self) -> None:
        points = [20 + 10 * won if won == bid else -10 * abs(won - bid) for won, bid in zip(self.won, self.bids)]
        self.totals = list(map(add, self.totals, points))
        # no copies: the next round starts new bid, trick and total lists, so these stay as they are
        self.history.append({"dealer": self.dealer, "turned": self.turned, "trump": self.trump,
                             "bids": self.bids, "won": self.won, "points": points, "totals": self.totals})
        if self.round + 1 == self.rounds_total:
            self.phase = TERMINAL
            return
        self.round += 1
        self.dealer = (self.dealer + 1) % self.num_players
        self.phase = CHANCE
        self.chance = "deal"

    # -- bidding and trump ---------------------------------------------------------------
    def forbidden(self) -> tuple[int | None, str]:
        restriction = self.game.restriction
        if self.bids_made != self.num_players - 1 or restriction == "none":
            return None, ""
        totals = self.totals
        mine = totals[self.turn]
        ahead = mine == max(totals) and totals.count(mine) == 1  # strictly ahead of every other player
        return forbidden_bid(restriction, self.round + 1, self.bids_total, True, ahead,
                             self.round + 1 == self.rounds_total)

    def _bid(self, action: Action) -> None:
        seat = self.turn
        bid = action - BID if type(action) is int else None
        hand = self.round + 1
        if bid is None or not 0 <= bid <= hand:
            shown = bid if bid is not None else action
            raise IllegalAction(f"a bid is a whole number from 0 to {hand}, not {shown}", R_BID_RANGE,
                                [str(b) for b in range(hand + 1) if b != self.forbidden()[0]], self.where(seat))
        made = self.bids_made
        # only the last bidder's bid that makes the bids add up to the tricks can be forbidden
        if made == self.num_players - 1 and bid == hand - self.bids_total:
            forbidden, rule = self.forbidden()
            if bid == forbidden:
                why = ("the last bidder may never make the bids add up to the tricks"
                       if self.game.restriction == "never-even"
                       else "the last bidder is strictly ahead and may not make the bids add up to the tricks")
                raise IllegalAction(f"bid {bid} makes the bids total {hand}, the tricks available: {why}", rule,
                                    [str(b) for b in range(hand + 1) if b != forbidden], self.where(seat),
                                    ruling="wizard.ruling.leader")
        self.bids[seat] = bid
        self.bids_made = made = made + 1
        self.bids_total += bid
        if made == self.num_players:
            self.phase = PLAY
            self.leader = self.turn = (self.dealer + 1) % self.num_players
        else:
            self.turn = (seat + 1) % self.num_players

    def _choose_trump(self, action: Action) -> None:
        suit = action - TRUMP if type(action) is int else -1
        if not 0 <= suit < self.game.num_suits:
            raise IllegalAction(f"the dealer must name one of the {self.game.num_suits} suits as trump", R_TRUMP,
                                [s.name for s in self.game.deck.suits], self.where(self.dealer),
                                ruling="wizard.ruling.wizard-trump")
        self.trump = suit
        self._start_bidding()

    def _start_bidding(self) -> None:
        """Trump is settled: bidding starts from the dealer's left."""
        self.claims = self.game.claims[self.trump]
        self.phase = BIDDING
        self.bids = [None] * self.num_players
        self.bids_made = 0
        self.bids_total = 0
        self.won = [0] * self.num_players
        self.trick_number = 0
        self.turn = (self.dealer + 1) % self.num_players

    # -- chance --------------------------------------------------------------------------
    def _chance(self, action: Action) -> None:
        chance = self.chance
        if chance == "turn" and type(action) is TurnUp:  # the common cases first
            card = action.card
            sampled, self.sampled = self.sampled, None
            if action is not sampled and card not in self.deck_left:  # one sampled here came from the deck
                name = self.table.name[card] if 0 <= card < len(self.table.code) else str(card)
                raise IllegalAction(f"the turned card {name} cannot come from the deck: every copy is already dealt",
                                    R_COUNTS, where={"round": self.round + 1})
            self.turned = card
            if self.game.is_wizard[card]:
                self.phase = CHOOSE_TRUMP
                self.turn = self.dealer
                self.trick_number = 0
                return
            self.trump = NO_SUIT if self.game.is_jester[card] else self.table.suit[card]
            self._start_bidding()
            return
        if chance == "deal" and isinstance(action, Deal):
            self._deal(action)
            return
        where = {"round": self.round + 1}
        if chance == "dealer":
            if not isinstance(action, ChooseSeat) or not 0 <= action.seat < self.num_players:
                raise IllegalAction("the game starts by choosing the first dealer", R_FIRST_DEALER,
                                    where=where)
            self.dealer = action.seat
            self.chance = "deal"
        elif chance == "deal":
            raise IllegalAction("the round starts with the deal", R_DEAL, where=where)
        else:
            raise IllegalAction("after the deal the next card is turned for trump", R_TRUMP, where=where)

    def _deal(self, deal: Deal) -> None:
        size = self.round + 1
        hands = deal.hands
        checked = deal is self.sampled
        self.sampled = None
        if not checked and (len(hands) != self.num_players or set(map(len, hands)) != {size}):
            check_hand_sizes(self, deal, size, f"round {size} deals {size} card(s) to each player", R_DEAL,
                             {"round": size})
        table = self.table
        suit_of = table.suit
        if checked:
            by_suit = self.by_suit
            fill_by_suit(by_suit, hands, suit_of)  # the round before emptied the lists
            deck_left = self.sampled_left
        else:  # new lists, so a refused deal leaves the state as it was
            by_suit = []
            undealt = list(table.copies)
            try:  # one pass over the dealt cards counts them and sorts each hand by suit
                for hand in hands:
                    split: list[list[int]] = [[] for _ in range(self.game.num_suits + 1)]
                    for card in hand:
                        undealt[card] -= 1
                        split[suit_of[card]].append(card)
                    by_suit.append(split)
            except (IndexError, TypeError):
                raise IllegalAction("the deal holds something that is not a card of the deck", R_COUNTS,
                                    where={"round": size}) from None
            if min(undealt) < 0:
                card = next(card for card, left in enumerate(undealt) if left < 0)
                raise IllegalAction(f"{table.copies[card] - undealt[card]} copies of {table.name[card]} dealt; "
                                    f"the deck has {table.copies[card]}", R_COUNTS, where={"round": size})
            deck_left = list(chain.from_iterable(map(repeat, range(len(undealt)), undealt)))
        self.hands = list(map(list, hands))
        self.by_suit = by_suit
        if self.game.only_free_cards_repeat:  # a set of the few Wizards and Jesters held, not of the hand
            self.repeats = [len(free) - len(set(free)) if len(free) > 1 else 0
                            for free in map(itemgetter(NO_SUIT), by_suit)]
        else:
            self.repeats = [len(hand) - len(set(hand)) for hand in hands]
        self.trump = NO_SUIT
        self.turned = None
        self.deck_left = deck_left
        if size * self.num_players < table.total:
            self.chance = "turn"
        else:  # final round: every card dealt, no trump (wizard.setup.trump)
            self._start_bidding()

    def sample_chance(self, rng: random.Random) -> Action:
        chance = self.chance
        if chance == "deal":
            size = self.round + 1
            drawn, left = draw_cards(self.table.physical, size * self.num_players, rng)
            left.sort()
            self.sampled_left = left
            deal = self.sampled = Deal(tuple(deal_hands(tuple(drawn), self.num_players, size,
                                                        (self.dealer + 1) % self.num_players)))
            return deal
        if chance == "turn":
            left = self.deck_left
            turn_up = self.sampled = self.game.turn_ups[left[random_below(rng, len(left))]]
            return turn_up
        return self.game.seat_choices[random_below(rng, self.num_players)]

    # -- results -------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        if self.phase != TERMINAL:
            return None
        best = max(self.totals)
        winners = [seat for seat, total in enumerate(self.totals) if total == best]
        if len(winners) > 1 and self.game.params["tie_break"] == "sum-of-bids":
            bid_sums = {seat: sum(entry["bids"][seat] for entry in self.history) for seat in winners}
            most = max(bid_sums.values())
            winners = [seat for seat in winners if bid_sums[seat] == most]
        return Outcome(tuple(self.totals), tuple(winners))

    def summary(self) -> dict:
        suits = self.game.deck.suits
        code = self.table.code

        def trump_name(suit: int) -> str:
            return "none" if suit == NO_SUIT else suits[suit].name

        rounds = []
        for number, entry in enumerate(self.history, start=1):
            turned = f", turned {code[entry['turned']]}" if entry["turned"] is not None else ""
            rounds.append({
                "round": number, "dealer": entry["dealer"],
                "turned": code[entry["turned"]] if entry["turned"] is not None else None,
                "trump": None if entry["trump"] == NO_SUIT else suits[entry["trump"]].id,
                "title": f"Round {number}: dealer {self.player_name(entry['dealer'])}{turned}, "
                         f"trump {trump_name(entry['trump'])}",
                "columns": {"bid": entry["bids"], "tricks": entry["won"], "points": entry["points"],
                            "total": entry["totals"]},
            })
        if self.phase in (CHOOSE_TRUMP, BIDDING, PLAY) or (self.phase == CHANCE and self.chance == "turn"):
            rounds.append({
                "round": self.round + 1, "dealer": self.dealer, "in_progress": True,
                "title": f"Round {self.round + 1} (unfinished): dealer {self.player_name(self.dealer)}, "
                         f"trump {trump_name(self.trump)}, {self.trick_number} trick(s) played",
                "columns": {"bid": list(self.bids), "tricks": list(self.won), "total": list(self.totals)},
            })
        return {"scores": list(self.totals), "rounds": rounds, "rounds_total": self.rounds_total}


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
