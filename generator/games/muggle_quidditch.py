"""Muggle Quidditch (Morry Dàveeriam, 2001): the reference rules engine.

Two players, 54 cards. Each player leads a house (a suit), fields a team of four
(Ace Seeker, King Keeper, Queen Chaser, Jack Beater), scores goals with pairs of
number cards adding up to 12, bludgers the other team, and ends the match by
catching the Snitch (the two Jokers). `decks/muggle-quidditch.toml` holds the rules
(ids `mq.*`) and the rulings this engine implements; every `IllegalAction` names
one of those rule ids, and the ruling id where a ruling decided the case.

Flow of a match:
  house choices (seat 0, then seat 1) -> shuffle (chance) -> deal 6 each -> turns.
  A turn: the draw step (a decision: take the top discard first or not; a rebuilt
  draw pile is a chance node) -> one action -> maybe the defender's choice of what a
  Bludger removes -> maybe the forced discard after a team-Beater Bludger.
The dive is drawn from the draw pile without decisions, pausing only for a rebuild.

Actions as written in logs (card codes as on the cards: 7H, 10S, QD, AC, JK):
  house hearts          choose a house (suit id, suit code or house name)
  shuffle 7H 2C ...     chance: the new draw pile, top card first
  draw | draw discard   the draw step; "discard" takes the top discard first
  goal 7H 5S            score a goal
  team AH               put a player in (or swap one)
  bludger JS KD         hit KD with JS (a Jack in hand, or your team Beater)
  lose KD               the defender's choice of what the Bludger removes
  spot JK | dive JK     lay the first / the second Joker
  discard 9D            discard a card (also the discard after a team Bludger)
  pass                  only with an empty hand
"""

from __future__ import annotations

import random
from typing import Any, Iterator, Mapping, Sequence

from ..core.errors import DeckgenError
from .base import Action, Game, GameState
from .logs import Entry, GameLog, LogStep, field_path
from .muggle_quidditch_bot import MuggleQuidditchBot
from .muggle_quidditch_deck import PLAYTEST, QUESTIONS, TABLE, requirements
from .muggle_quidditch_rules import (DEAL, DIVE_BONUS_NEUTRAL, DIVE_BONUS_OWN_HOUSE, DRAW, EXTRA_DISCARD, GOAL_KIND,
                                     GOAL_SUM, JOKER, KEEPER_RULES, OVER, POSITIONS, RESPONSE, SHUFFLING, Bludger,
                                     ChooseHouse, Discard, Dive, Draw, Goal, Lose, Pass, Recruit, Refusal, Shuffle, Spot,
                                     TurnRecord)
from .muggle_quidditch_questions import ask
from .muggle_quidditch_state import MuggleQuidditchState
from .muggle_quidditch_view import mq_action_view

# --- the game ------------------------------------------------------------------------------

class MuggleQuidditchGame(Game):
    id = "muggle-quidditch"
    min_players = 2
    max_players = 2
    defaults = {
        "houses": {"hearts": "Gryffindor", "spades": "Hufflepuff", "diamonds": "Slytherin", "clubs": "Ravenclaw"},
        "keeper_rule": "strict",
        "goal_points": 10,
        "snitch_points": 150,
        "hand_size": 6,
        "draw_to": 7,
        "dive_cards": 5,
        "max_turns": 400,
    }
    log_sections = ("houses", "deal", "turns")
    questions, playtest, table_kit = QUESTIONS, PLAYTEST, TABLE
    deck_requirements = staticmethod(requirements)
    # Rollouts play to the end of the match: the Snitch decides nearly every one, and cut after 12
    # turns (the outlook's measured odds of a catch standing in for the rest) pimc-8 won 53.8% of
    # 40 deals against the heuristic, played out to the end 72.5% (docs/playtesting.md)
    search_stages = 0
    standing_scale = 10.0  # a goal

    def __init__(self, deck, params: Mapping[str, Any] | None = None):
        super().__init__(deck, params)
        self.all_codes: list[str] = []
        # Flat look-ups by card code: legal_actions runs at every step of every simulated game.
        self.kind_of: dict[str, str] = {}
        self.suit_of: dict[str, str | None] = {}
        self.value_of: dict[str, int | None] = {}  # number cards only
        self.strength_of: dict[str, int] = {}  # rank order: the dive compares it (Ace highest)
        for card in deck.copies():
            rank = deck.rank(card.rank) if card.rank else None
            self.all_codes.append(card.code)
            self.kind_of[card.code] = card.kind
            self.suit_of[card.code] = card.suit
            self.value_of[card.code] = rank.value if rank and card.kind == GOAL_KIND else None
            self.strength_of[card.code] = rank.order if rank else -1
        self._check_setup()
        self.discard_of = {code: Discard(code) for code in self.kind_of}
        self.recruit_of = {code: Recruit(code) for code, kind in self.kind_of.items() if kind in POSITIONS}
        numbers = [code for code, value in self.value_of.items() if value is not None]
        # One Goal per pair making twelve, found from either card.
        self.goal_of: dict[tuple[str, str], Goal] = {}
        for first in numbers:
            for second in numbers:
                if first != second and self.value_of[first] + self.value_of[second] == GOAL_SUM:
                    self.goal_of[first, second] = Goal(self.goal_pair(first, second))
        beaters = [code for code, kind in self.kind_of.items() if kind == "beater"]
        players = [code for code, kind in self.kind_of.items() if kind in POSITIONS]
        self.bludger_of = {(jack, target): Bludger(jack, target) for jack in beaters for target in players}
        self.keeper_rule_id = KEEPER_RULES[self.params["keeper_rule"]]
        self.keeper_ruling_id = ("mq.ruling.simple-keepers" if self.params["keeper_rule"] == "simple"
                                 else "mq.ruling.keeper")

    def _check_setup(self) -> None:
        where = f"{self.deck.source}: [engine]"
        if self.params["keeper_rule"] not in KEEPER_RULES:
            raise DeckgenError(f"{where} keeper_rule {self.params['keeper_rule']!r} is unknown; "
                               f"allowed: {', '.join(KEEPER_RULES)}")
        suits = {suit.id for suit in self.deck.suits}
        houses = self.params["houses"]
        if not isinstance(houses, Mapping) or set(houses) != suits:
            raise DeckgenError(f"{where} houses must name one house for each suit ({', '.join(sorted(suits))})")
        missing = sorted(set(POSITIONS + (GOAL_KIND, "joker")) - set(self.kind_of.values()))
        if missing or self.kind_of.get(JOKER) != "joker":
            raise DeckgenError(f"{self.deck.source}: the muggle-quidditch engine needs Jokers coded {JOKER} and "
                               f"cards of the kinds {', '.join(POSITIONS)}, {GOAL_KIND} and joker"
                               + (f"; missing: {', '.join(missing)}" if missing else ""))
        for name in ("goal_points", "snitch_points", "hand_size", "draw_to", "dive_cards", "max_turns"):
            value = self.params[name]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise DeckgenError(f"{where} {name} must be a whole number of at least 0, not {value!r}")
        if self.params["max_turns"] < 1:
            raise DeckgenError(f"{where} max_turns must be at least 1")
        if self.params["draw_to"] < self.params["hand_size"]:
            raise DeckgenError(f"{where} draw_to ({self.params['draw_to']}) must be at least hand_size "
                               f"({self.params['hand_size']})")

    # -- Game API --

    def new_state(self, num_players: int = 2) -> "MuggleQuidditchState":
        self.check_players(num_players)
        return MuggleQuidditchState(self)

    def score_bounds(self, num_players: int = 2) -> tuple[int, int]:
        number_cards = sum(1 for value in self.value_of.values() if value is not None)
        return 0, (number_cards // 2) * self.params["goal_points"] + self.params["snitch_points"]

    def max_actions(self, num_players: int = 2) -> int:
        # Two house picks and the first shuffle; then per turn at most the draw, one rebuild while
        # drawing, the action, the defender's answer and the forced discard (a dive instead of a
        # Bludger adds at most one rebuild). A second rebuild in one draw or dive cannot happen:
        # nothing reaches the discard pile in between, and an empty discard pile is never shuffled.
        return 3 + 5 * self.params["max_turns"]

    def house_name(self, suit: str) -> str:
        return self.params["houses"][suit]

    def format_action(self, state: GameState, action: Action) -> str:
        match action:
            case ChooseHouse(suit):
                return f"house {suit}"
            case Shuffle(order):
                return "shuffle " + " ".join(order)
            case Draw(from_discard):
                return "draw discard" if from_discard else "draw"
            case Goal(cards):
                return f"goal {cards[0]} {cards[1]}"
            case Recruit(card):
                return f"team {card}"
            case Bludger(jack, target):
                return f"bludger {jack} {target}"
            case Lose(card):
                return f"lose {card}"
            case Spot():
                return f"spot {JOKER}"
            case Dive():
                return f"dive {JOKER}"
            case Discard(card):
                return f"discard {card}"
            case Pass():
                return "pass"
        raise ValueError(f"not a muggle-quidditch action: {action!r}")

    def parse_action(self, state: GameState | None, text: str) -> Action:
        words = text.replace(",", " ").split()
        if not words:
            raise ValueError("the action is empty")
        verb, args = words[0].lower(), words[1:]
        card_counts = {"goal": 2, "team": 1, "bludger": 2, "lose": 1, "discard": 1, "pass": 0}
        if verb in card_counts and len(args) != card_counts[verb]:
            raise ValueError(f"{verb!r} takes {card_counts[verb]} card code(s), found {len(args)}: {text!r}")
        if verb == "house":
            if len(args) != 1:
                raise ValueError(f"'house' takes one house or suit, found {text!r}")
            return ChooseHouse(self.suit_named(args[0]))
        if verb == "draw":
            if [word.lower() for word in args] not in ([], ["discard"]):
                raise ValueError(f"'draw' takes nothing or the word 'discard', found {text!r}")
            return Draw(bool(args))
        codes = [self.code(word) for word in args]
        if verb == "shuffle":
            return Shuffle(tuple(codes))
        if verb == "goal":
            return Goal(self.goal_pair(codes[0], codes[1]))
        if verb == "team":
            return Recruit(codes[0])
        if verb == "bludger":
            return Bludger(codes[0], codes[1])
        if verb == "lose":
            return Lose(codes[0])
        if verb in ("spot", "dive"):
            if codes not in ([], [JOKER]):
                raise ValueError(f"{verb!r} lays a Joker ({JOKER}), found {text!r}")
            return Spot() if verb == "spot" else Dive()
        if verb == "discard":
            return Discard(codes[0])
        if verb == "pass":
            return Pass()
        raise ValueError(f"unknown action {verb!r}; known: house, shuffle, draw, goal, team, bludger, "
                         "lose, spot, dive, discard, pass")

    def goal_pair(self, first: str, second: str) -> tuple[str, str]:
        """A goal's two cards in one canonical order (higher value first), so each pair is one action."""
        def key(code: str) -> tuple[int, str]:
            return -(self.value_of.get(code) or 0), code
        low_first = key(first) > key(second)
        return (second, first) if low_first else (first, second)

    def code(self, word: str) -> str:
        """A card code from what a person wrote (any case; a code, id or name)."""
        upper = word.strip().upper()
        if upper in self.kind_of:
            return upper
        card = self.deck.find_card(word)
        if card is None:
            raise ValueError(f"unknown card {word!r}; codes look like 7H, 10S, QD, AC, {JOKER}")
        return card.code

    def suit_named(self, word: str) -> str:
        """A house suit from a suit id, code or name, or a house name."""
        folded = word.strip().casefold()
        for suit in self.deck.suits:
            if folded in (suit.id.casefold(), suit.code.casefold(), suit.name.casefold(),
                          self.house_name(suit.id).casefold()):
                return suit.id
        choices = ", ".join(f"{s.id} ({self.house_name(s.id)})" for s in self.deck.suits)
        raise ValueError(f"unknown house {word!r}; choose one of {choices}")

    # -- rule questions, shared by the state, the bots and quick rulings --

    def goal_refusal(self, pair: Sequence[str], attacker_house: str | None, defender_house: str | None,
                     keeper: str | None) -> Refusal | None:
        """Why this pair may not score against this Keeper (None: it may). Looks at the two cards
        and the defending Keeper only, not at the hand or the Chaser."""
        first, second = pair
        if first == second:
            return Refusal(f"{first} cannot be used twice in one goal", "mq.goal.pair", "mq.ruling.goal-cards")
        for card in pair:
            if self.value_of[card] is None:
                return Refusal(f"{card} is not a number card (2 to 10), so it cannot be part of a goal",
                               "mq.goal.pair", "mq.ruling.goal-cards")
        total = self.value_of[first] + self.value_of[second]
        if total != GOAL_SUM:
            return Refusal(f"{first} and {second} add up to {total}, not {GOAL_SUM}", "mq.goal.pair")
        if keeper is None:
            return None
        suits = {self.suit_of[first], self.suit_of[second]}
        rule, ruling = self.keeper_rule_id, self.keeper_ruling_id
        home_keeper = self.suit_of[keeper] == defender_house and self.params["keeper_rule"] != "simple"
        if home_keeper and self.params["keeper_rule"] == "strict" and suits != {attacker_house}:
            return Refusal(f"the defending Keeper {keeper} is of the defender's own house suit ({defender_house}), "
                           f"so both goal cards must be of your house suit ({attacker_house})", rule, ruling)
        if home_keeper and self.params["keeper_rule"] == "loose" and attacker_house not in suits:
            return Refusal(f"the defending Keeper {keeper} is of the defender's own house suit ({defender_house}), "
                           f"so at least one goal card must be of your house suit ({attacker_house})", rule, ruling)
        if defender_house in suits:
            return Refusal(f"the defending Keeper {keeper} keeps out cards of the defender's house suit "
                           f"({defender_house})", rule, ruling)
        return None

    def dive_quota(self, seeker: str, own_house: str | None, rival_house: str | None) -> int:
        """Cards a Seeker draws in the dive: the base plus the bonus for the Seeker's suit."""
        suit = self.suit_of[seeker]
        bonus = DIVE_BONUS_OWN_HOUSE if suit == own_house else 0 if suit == rival_house else DIVE_BONUS_NEUTRAL
        return self.params["dive_cards"] + bonus

    # -- players --

    def action_view(self, before, action, after, seat):
        return mq_action_view(self, before, action, after, seat)

    def bot(self, kind: str, rng: random.Random):
        if kind == "heuristic":
            return MuggleQuidditchBot(rng)
        return super().bot(kind, rng)

    # -- quick rulings --

    def answer_question(self, words: Sequence[str]) -> dict:
        """`goal`, `dive` and `play` questions (`QUESTIONS` in muggle_quidditch_deck)."""
        return ask(self, words)

    # -- game logs --

    def log_steps(self, log: GameLog, state: "MuggleQuidditchState") -> Iterator[LogStep]:
        for name, where in self._house_entries(log):
            yield LogStep(self._parse(log, f"house {name}", where), where)
        deal = log.root.get("deal", list, None, what="deal (the shuffled deck, top card first)")
        yield LogStep(None if deal is None else Shuffle(self._codes(log, deal, "deal")), "deal")
        turns = log.sections("turns", required=False)
        for index, turn in enumerate(turns):
            yield from self._turn_steps(log, state, turn, last=index == len(turns) - 1)

    def _house_entries(self, log: GameLog) -> list[tuple[str, str]]:
        """(house, field) per seat, from `houses = ["hearts", ...]` in seating order or
        `houses = { Ann = "Gryffindor", ... }` keyed by player."""
        houses = log.root.get("houses", (list, dict), what="houses (one per player)")
        if isinstance(houses, list):
            entries = [(name, field_path("houses", seat)) for seat, name in enumerate(houses)]
        else:
            by_seat: dict[int, tuple[Any, str]] = {}
            for player, name in houses.items():
                where = field_path("houses", player)
                by_seat[log.seat(player, where)] = (name, where)
            entries = [by_seat[seat] for seat in sorted(by_seat)]
            missing = [log.players[seat] for seat in range(len(log.players)) if seat not in by_seat]
            if missing:
                raise log.error("houses", f"no house for {', '.join(missing)}")
        if len(entries) != len(log.players):
            raise log.error("houses", f"give one house per player ({len(log.players)}), found {len(entries)}")
        for name, where in entries:
            log.check_type(name, str, where, "a house")
        return entries

    def _turn_steps(self, log: GameLog, state: "MuggleQuidditchState", turn: Entry,
                    last: bool) -> Iterator[LogStep]:
        turn.check_keys(("turn", "player", "take", "draw", "shuffle", "action", "lose", "discard", "dive",
                         "dive_shuffle"))
        if state.phase == OVER:  # label the extra entry as the turn it would be, not the last one played
            how = ("reached the turn cap" if state.capped else "ended when the Snitch was caught")
            raise state.illegal(f"the match {how} in turn {state.turn}, but the log goes on with a turn "
                                f"{state.turn + 1}", "mq.end.turn-cap" if state.capped else "mq.end.capture",
                                "mq.ruling.turn-cap" if state.capped else "", field=turn.field, turn=state.turn + 1)
        # Facts checked after the action are reported at this turn, even once play has moved on.
        this_turn = {"turn": state.turn, "player": state.active} if state.phase == DRAW else {}
        number = turn.get("turn", int, None, what="the turn number")
        if number is not None and state.phase == DRAW and number != state.turn:
            raise state.illegal(f"this is turn {state.turn}, but the log numbers it {number}", "mq.turn.order",
                                field=turn.at("turn"))
        if turn.has("player") and state.phase == DRAW:
            seat = log.seat(turn.get("player", str), turn.at("player"))
            if seat != state.active:
                raise state.illegal(f"it is {state.player_name(state.active)}'s turn, not {state.player_name(seat)}'s: "
                                    "turns alternate, starting with the player who did not deal",
                                    "mq.setup.first" if state.turn == 1 else "mq.turn.order", field=turn.at("player"),
                                    player=seat, legal=[f'player = "{state.player_name(state.active)}"'])
        take = turn.get("take", str, None, what="take (the top discard taken first)")
        if take is not None:
            code = self._code_at(log, take, turn.at("take"))
            top = state.discard_pile[-1] if state.phase == DRAW and state.discard_pile else None
            if top is not None and top != code:
                raise state.illegal(f"the top of the discard pile is {top}, not {code}", "mq.turn.discard-pile",
                                    field=turn.at("take"), legal=[f'take = "{top}"', "no `take`: draw from the pile"])
        yield LogStep(Draw(take is not None), turn.at("take") if take is not None else turn.at("draw")
                      if turn.has("draw") else turn.field)
        if state.phase == SHUFFLING:
            yield LogStep(self._optional_shuffle(log, turn, "shuffle"), turn.at("shuffle"))
        elif turn.has("shuffle"):
            raise state.illegal("the draw pile did not run out during this draw, so nothing was rebuilt",
                                "mq.deck.reshuffle", "mq.ruling.reshuffle", field=turn.at("shuffle"),
                                legal=["no `shuffle` in this turn"])
        record = state.record
        if turn.has("draw"):
            claimed = self._codes(log, turn.get("draw", list), turn.at("draw"))
            if list(claimed) != record.drew:
                owed = len(record.drew)
                raise state.illegal(f"{state.player_name(state.active)} draws {owed} card{'' if owed == 1 else 's'} "
                                    f"to bring the hand up to {self.params['draw_to']}: the draw pile gives "
                                    f"{' '.join(record.drew) or 'nothing'}, the log writes "
                                    f"{' '.join(claimed) or 'nothing'}", "mq.turn.draw", field=turn.at("draw"),
                                    legal=[_toml_list("draw", record.drew)])
        if not turn.has("action"):
            if last:
                return  # the log stops after this draw
            raise log.error(turn.at("action"), "missing action (what the player did after drawing)")
        action_text = turn.get("action", str, what="action")
        yield LogStep(self._parse(log, action_text, turn.at("action")), turn.at("action"))
        for key, phase, rule, when in (
                ("lose", RESPONSE, "mq.bludger.defence",
                 "the player hit by a Bludger, with a Beater to give up instead, chooses what leaves the team"),
                ("discard", EXTRA_DISCARD, "mq.bludger.team",
                 "a Bludger sent by the team Beater is followed by a discard from hand")):
            if state.phase == phase:
                if not turn.has(key):
                    if last:
                        return
                    raise state.illegal(f"the log goes on without `{key}`, but {when}", rule, field=turn.at(key))
                code = self._code_at(log, turn.get(key, str), turn.at(key))
                yield LogStep(Lose(code) if key == "lose" else Discard(code), turn.at(key))
            elif turn.has(key):
                raise state.illegal(f"nothing here calls for `{key}`: only when {when}", rule, field=turn.at(key),
                                    legal=[f"no `{key}` in this turn"], **this_turn)
        if state.phase == SHUFFLING:
            yield LogStep(self._optional_shuffle(log, turn, "dive_shuffle"), turn.at("dive_shuffle"))
        elif turn.has("dive_shuffle"):
            raise state.illegal("the draw pile did not run out during a dive this turn, so nothing was rebuilt",
                                "mq.dive.short", "mq.ruling.dive-length", field=turn.at("dive_shuffle"),
                                legal=["no `dive_shuffle` in this turn"], **this_turn)
        if turn.has("dive"):
            claimed = self._codes(log, turn.get("dive", list), turn.at("dive"))
            if list(claimed) != record.dive:
                raise state.illegal(f"the dive turned {' '.join(record.dive) or 'no cards'}, not "
                                    f"{' '.join(claimed) or 'no cards'}", "mq.dive.draws", field=turn.at("dive"),
                                    legal=[_toml_list("dive", record.dive)], **this_turn)

    def _parse(self, log: GameLog, text: str, where: str) -> Action:
        try:
            return self.parse_action(None, text)
        except ValueError as error:
            raise log.error(where, str(error)) from None

    def _code_at(self, log: GameLog, word: Any, where: str) -> str:
        log.check_type(word, str, where, "a card code")
        try:
            return self.code(word)
        except ValueError as error:
            raise log.error(where, str(error), hint="`deckgen show muggle-quidditch` lists the cards") from None

    def _codes(self, log: GameLog, words: list, where: str) -> tuple[str, ...]:
        return tuple(self._code_at(log, word, field_path(where, index)) for index, word in enumerate(words))

    def _optional_shuffle(self, log: GameLog, turn: Entry, key: str) -> Shuffle | None:
        if not turn.has(key):
            return None  # the referee draws it from the log's seed, or says it is missing
        return Shuffle(self._codes(log, turn.get(key, list), turn.at(key)))

    def log_body(self, players: Sequence[str], actions: Sequence[Action]) -> dict:
        """`houses`, `deal` and one `[[turns]]` entry per turn, replaying `actions` for the facts."""
        state = self.new_state(len(players))
        houses: list[str] = []
        deal: list[str] = []
        turns: list[tuple[dict, TurnRecord]] = []
        for action in actions:
            if isinstance(action, ChooseHouse):
                houses.append(action.suit)
            elif isinstance(action, Shuffle) and state.shuffle_for == DEAL:
                deal = list(action.order)
            elif isinstance(action, Draw):
                turns.append(({"turn": state.turn, "player": players[state.active]}, state.record))
            elif not isinstance(action, Shuffle):
                entry = turns[-1][0]
                key = "lose" if isinstance(action, Lose) else "discard" if state.phase == EXTRA_DISCARD else "action"
                entry[key] = action.card if key != "action" else self.format_action(state, action)
            state.apply(action)
        body: dict[str, Any] = {"houses": {players[seat]: suit for seat, suit in enumerate(houses)}}
        if deal:
            body["deal"] = deal
        body["turns"] = [_turn_entry(entry, record) for entry, record in turns]
        return body


def _toml_list(key: str, cards: Sequence[str]) -> str:
    """`key = ["JD", "6C"]`, as the log writes it."""
    return f"{key} = [" + ", ".join(f'"{card}"' for card in cards) + "]"


def _turn_entry(decisions: dict, record: TurnRecord) -> dict:
    """One [[turns]] table: decisions and facts in the order they happened."""
    entry: dict[str, Any] = {"turn": decisions["turn"], "player": decisions["player"]}
    if record.took:
        entry["take"] = record.took
    if record.drew:
        entry["draw"] = list(record.drew)
    if record.draw_shuffle is not None:
        entry["shuffle"] = list(record.draw_shuffle)
    for key in ("action", "lose", "discard"):
        if key in decisions:
            entry[key] = decisions[key]
    if record.dive:
        entry["dive"] = list(record.dive)
    if record.dive_shuffle is not None:
        entry["dive_shuffle"] = list(record.dive_shuffle)
    return entry
