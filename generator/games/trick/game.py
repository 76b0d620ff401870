"""`RulesGame`: the `Game` of any deck whose `[rules]` describe a trick-taking game.

Built from the deck and a set of parameters (the deck's `[engine]` table, a variant's, a
log's), it reads the rules (`generator.deck.trickrules`), compiles their expressions and
builds the card tables once; `RulesState` (`.state`) plays. Logs are read and written by
`.logs`, questions at the table answered by `.questions`, the heuristic player is `.bot`.
"""

from __future__ import annotations

from ...core.errors import DeckgenError
from ...deck.model import Deck
from ...deck.trickrules import rules_for
from ...deck.trickrules.compile import compile_expr, fold
from ...deck.trickrules.expr import calls_in, names_in
from ...deck.trickrules.selectors import select
from ..base import Game
from ..tricks import NO_SUIT, CardTable, CardTables, ChooseSeat, Deal, deal_hands, words
from . import bounds, declarations, logs, view
from .actions import BID, BIDDING, CHOOSE_TRUMP, NO_TRUMP, PASS, PASS_DONE, PASSING, TRUMP, RoundSuit, TurnUp
from .bidding import BiddingRules
from .bot import RulesHeuristicBot
from .scoring import PLAIN_COLUMNS, PLAIN_VALUES
from .state import RulesState
from .tables import FREE, GameTables, RoundTables

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    import random
    from typing import Any, Iterator, Mapping, Sequence

    from ..logs import GameLog, LogStep
    from ..profile import TableKit
    from ..requirements import Checker

PASS_OFFSETS = {"left": 1, "right": -1}


class RulesGame(Game):
    """A trick-taking game read from the deck's [rules]."""

    id = "rules"
    min_players = 2
    max_players = 12
    players_from_deck = True  # [rules] players
    search_stages = 1  # a search player's rollout plays out the round, whose points are the game's
    log_sections = ("rounds",)
    questions, playtest = declarations.QUESTIONS, declarations.PLAYTEST

    def __init__(self, deck: Deck, params: Mapping[str, Any] | None = None):
        if deck.trick_rules is None:
            raise DeckgenError(f"deck {deck.id!r} has no [rules] table for the rules engine to play")
        self.defaults = dict(deck.params)  # a rules deck's parameters are its own [engine] table
        super().__init__(deck, params)
        rules, problems = rules_for(deck, params)
        if rules is None:
            shown = "; ".join(f"{problem.field}: {problem.message}" for problem in problems.errors[:5])
            raise DeckgenError(f"{deck.source}: the [rules] cannot be played with these parameters: {shown}")
        self.rules = rules
        self.id = deck.id
        self.min_players, self.max_players = rules.min_players, rules.max_players
        self.lower_score_wins = rules.lower_score_wins
        self.table = table = CardTable(deck)
        facts = GameTables(rules, table)
        self.num_suits = facts.num_suits
        self.bucket, self.any_time, self.suited_any_time = facts.bucket, facts.any_time, facts.suited_any_time
        self.top_rank, self.bottom_rank = facts.top_rank, facts.bottom_rank
        self.free_cards = any(bucket == FREE for bucket in self.bucket)  # cards kept in a hand's FREE list
        # whether only cards without a suit come in copies, so a hand's repeats are among those
        self.only_suitless_repeat = all(copies == 1 or suit == NO_SUIT for copies, suit in zip(table.copies, table.suit))
        self.round_tables = CardTables(self._round_tables)
        params = self.params
        self._hand = compile_expr(rules.deal.hand, params)
        self._sits_out = compile_expr(rules.deal.dealer_sits_out, params) if rules.deal.dealer_sits_out else None
        self._next_seats: dict[tuple[int, int], tuple[int, ...]] = {}
        # whether the hand size changes from round to round (a deal's message then names the round)
        self.hand_by_round = rules.deal.hand[0] == "schedule" or "round" in names_in(fold(rules.deal.hand, params))
        self._rounds = compile_expr(rules.end.rounds, params) if rules.end.rounds else None
        self.target, self.max_rounds = rules.end.target, rules.end.max_rounds
        self.trump_kind = rules.trump.kind
        self.no_trump = select(rules.trump.no_trump, deck)
        self.dealer_chooses = select(rules.trump.dealer_chooses, deck)
        self.leftover_to_first_trick = rules.deal.leftover == "first-trick"
        self.stock = rules.deal.leftover == "stock"  # drawn from after each trick
        self.has_points = any(entry.points for entry in rules.points)
        self.bidding = BiddingRules(rules, params) if rules.bidding else None
        self._scoring(rules, params)
        restrictions = rules.play.restrictions
        self.breakers = any(restriction.until_broken for restriction in restrictions)
        # free_first / free_later [leading]: whether a card of the first / a later trick is bound by
        # nothing but following suit, so the play can skip the general steps (`moves`)
        self.free_first = self._free([r for r in restrictions if r.trick != "later"],
                                     forced_lead=rules.play.first_lead.by == "holder")
        self.free_later = self._free([r for r in restrictions if r.trick != "first"])
        # chance actions and passes are immutable, so they are shared rather than built each time
        self.turn_ups = tuple(map(TurnUp, range(len(table.code))))
        self.seat_choices = tuple(map(ChooseSeat, range(self.max_players)))
        self.pass_actions = tuple(range(PASS, PASS + len(table.code)))
        self.questions = declarations.questions_for(self)  # with this deck's cards in the examples

    def _free(self, restrictions, forced_lead: bool = False) -> tuple[bool, bool]:
        play = self.rules.play
        following = not (play.must_trump or play.must_overtake or self.suited_any_time
                         or any(r.to != "lead" for r in restrictions))
        return following, not (forced_lead or any(r.to != "follow" for r in restrictions))

    def _scoring(self, rules, params) -> None:
        scoring = rules.scoring
        self.lets = tuple((name, compile_expr(tree, params)) for name, tree in scoring.lets)
        self.carries = tuple((name, compile_expr(tree, params)) for name, tree in scoring.carries)
        self.round_score = compile_expr(scoring.round, params)
        self.counted = bool(scoring.selectors)
        self.counted_keys = tuple("caught:" + selector.text for selector in scoring.selectors)
        # scoring of each player alone from plain counts (no lets, carries, teams, caught cards or
        # aggregates): the names its expression reads; None where the general scoring is needed
        folded = fold(scoring.round, params)
        names = sorted(names_in(folded))
        plain = (scoring.by == "player" and not scoring.lets and not scoring.carries
                 and not calls_in(folded) - {"if", "min", "max", "abs"}
                 and all(name in PLAIN_COLUMNS or name in PLAIN_VALUES for name in names))
        self.plain_scoring = ((tuple((name, PLAIN_COLUMNS[name]) for name in names if name in PLAIN_COLUMNS),
                               tuple((name, PLAIN_VALUES[name]) for name in names if name in PLAIN_VALUES))
                              if plain else None)
        tie = fold(rules.end.tie_break, params) if rules.end.tie_break else None
        self.tie_break = None if tie is None or tie[0] in ("int", "bool") else compile_expr(tie)
        self.tie_names = names_in(tie) if self.tie_break else set()

    def _round_tables(self, key: tuple[int, int]) -> RoundTables:  # a method, so a game still pickles
        return RoundTables(self.rules, self.table, *key)

    def __reduce__(self):
        """A game pickles as its deck and parameters (its compiled expressions are closures)."""
        return (type(self), (self.deck, self.params))

    # -- the shape of a game ----------------------------------------------------------------------
    def hand(self, num_players: int, round_number: int) -> int:
        return self._hand({"round": round_number, "players": num_players, "cards": self.table.total,
                           "playing": self.playing(num_players, round_number)})

    def deal_out(self, order: tuple[int, ...], num_players: int, size: int, first: int,
                 sitter: int = -1) -> list[tuple[int, ...]]:
        """The hands dealt from `order` (top card first), clockwise from seat `first`, passing over a
        seat that sits the round out: one card at a time, or in the rules' packets (each lap round
        the table gives each seat in turn its packet)."""
        packets = self.rules.deal.packets
        if not packets and sitter < 0:
            return deal_hands(order, num_players, size, first)
        seats = [(first + step) % num_players for step in range(num_players) if (first + step) % num_players != sitter]
        hands: list[tuple[int, ...]] = [()] * num_players
        if not packets:
            for position, seat in enumerate(seats):
                hands[seat] = order[position:size * len(seats):len(seats)]
            return hands
        taken = 0
        for lap in packets:
            for position, seat in enumerate(seats):
                count = lap[position % len(lap)]
                hands[seat] += order[taken:taken + count]
                taken += count
        return hands

    def sitter(self, num_players: int, round_number: int, dealer: int) -> int:
        """The seat that sits this round out (the dealer, where the rules say so), or -1."""
        sits = self._sits_out is not None and self._sits_out({"players": num_players, "round": round_number})
        return dealer if sits else -1

    def playing(self, num_players: int, round_number: int) -> int:
        """The players dealt in to a round."""
        return num_players - (self.sitter(num_players, round_number, 0) == 0)

    def next_seats(self, num_players: int, sitter: int) -> tuple[int, ...]:
        """By seat, the next seat to play clockwise, passing over the one that sits out."""
        found = self._next_seats.get((num_players, sitter))
        if found is None:
            following = [(seat + 1) % num_players for seat in range(num_players)]
            found = tuple(following[after] if after == sitter else after for after in following)
            self._next_seats[num_players, sitter] = found
        return found

    def tricks(self, num_players: int, round_number: int) -> int:
        """The tricks of a round: the hand, and with a stock one more for each card each player draws."""
        hand, dealt = self.hand(num_players, round_number), self.playing(num_players, round_number)
        return hand + (self.table.total - hand * dealt) // dealt if self.stock else hand

    def hand_size(self, num_players: int) -> int:
        """The hand of the first round."""
        return self.hand(num_players, 1)

    def num_rounds(self, num_players: int) -> int | None:
        """The fixed number of rounds; None for a game that ends at a target score."""
        return self._rounds({"players": num_players, "cards": self.table.total}) if self._rounds else None

    def teams(self, num_players: int) -> list[tuple[int, ...]]:
        half = num_players // 2
        return [tuple(range(team, num_players, half)) for team in range(half)] if self.rules.teams == "partners" \
            else [(seat,) for seat in range(num_players)]

    def scorer_seats(self, num_players: int) -> list[tuple[int, ...]]:
        return self.teams(num_players) if self.rules.scoring.by == "team" else [(s,) for s in range(num_players)]

    def pass_direction(self, num_players: int, round_index: int) -> str:
        cycle = self.rules.passing.directions[num_players]
        return cycle[round_index % len(cycle)]

    @staticmethod
    def pass_offset(direction: str, num_players: int) -> int:
        return num_players // 2 if direction == "across" else PASS_OFFSETS[direction]

    def new_state(self, num_players: int) -> RulesState:
        self.check_players(num_players)
        return RulesState(self, num_players)

    def score_bounds(self, num_players: int) -> tuple[int, int]:
        return bounds.score_bounds(self, num_players)

    def max_actions(self, num_players: int) -> int:
        return bounds.max_actions(self, num_players)

    # -- text forms of actions ------------------------------------------------------------------
    def format_action(self, state: RulesState, action: Any) -> str:
        table = self.table
        if isinstance(action, int):
            if action == PASS_DONE:
                return "pass no more"
            if action == NO_TRUMP:
                return "trump none"
            if action >= PASS:
                return f"pass {table.code[action - PASS]}"
            if action >= TRUMP:
                return f"trump {self.deck.suits[action - TRUMP].name}"
            if action >= BID:
                return f"bid {action - BID}"
            return table.code[action]
        if isinstance(action, TurnUp):
            return f"turn {table.code[action.card]}"
        if isinstance(action, RoundSuit):
            return f"{self.rules.round_suit.key} {self.deck.suits[action.suit].name}"
        if isinstance(action, ChooseSeat):
            return f"first dealer: {state.player_name(action.seat)}"
        if isinstance(action, Deal):
            return "deal " + " / ".join(" ".join(table.codes(hand)) for hand in action.hands)
        return repr(action)

    def parse_action(self, state: RulesState, text: str) -> Any:
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
            text = " ".join(tokens)
            if self.rules.trump.may_name_none and text in ("none", "no trump", "no-trump", "notrump", "no"):
                return NO_TRUMP
            suit = self.table.suit_from_text(text)
            if suit is None:
                raise ValueError(f"expected a suit ({', '.join(s.name for s in self.deck.suits)}), not {text!r}")
            return TRUMP + suit
        if tokens and tokens[0] == "pass":
            tokens = tokens[1:]
            if state.phase == PASSING and tokens in (["no", "more"], ["done"]):
                return PASS_DONE
        card = self.table.index(" ".join(tokens)) if tokens else None
        if card is None:
            raise ValueError(f"no card {text!r} in deck {self.deck.id!r}")
        return PASS + card if state.phase == PASSING else card

    # -- logs, players and questions --------------------------------------------------------------
    def log_steps(self, log: GameLog, state: RulesState) -> Iterator[LogStep]:
        return logs.log_steps(self, log, state)

    def log_body(self, players: Sequence[str], actions: Sequence[Any]) -> dict:
        return logs.log_body(self, players, actions)

    def action_view(self, before: RulesState, action: Any, after: RulesState, seat: int | None) -> dict | None:
        return view.action_view(self, before, action, after, seat)

    def bot(self, kind: str, rng: random.Random):
        if kind == "heuristic":
            return RulesHeuristicBot(rng)
        return super().bot(kind, rng)

    @classmethod
    def parameter_defaults(cls, deck: Deck) -> Mapping[str, Any]:
        return dict(deck.params)  # a rules deck declares its parameters in its own [engine] table

    @classmethod
    def table_kit_for(cls, deck: Deck) -> TableKit:
        return declarations.table_kit(deck)

    @staticmethod
    def deck_requirements(check: Checker) -> None:
        declarations.rules_requirements(check, RulesGame)

