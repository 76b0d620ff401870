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

import copy
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, Sequence

from ..errors import DeckgenError
from .base import CHANCE, TERMINAL, Action, Game, GameState, IllegalAction, Outcome, Pending
from .bots import HeuristicBot
from .logs import Entry, GameLog, LogStep, field_path

POSITIONS = ("seeker", "keeper", "chaser", "beater")
JOKER = "JK"
GOAL_KIND = "quaffle"
GOAL_SUM = 12
KEEPER_RULES = {"strict": "mq.goal.keeper", "loose": "mq.variants.loose-keeper",
                "simple": "mq.variants.simple-keepers"}
DIVE_BONUS_OWN_HOUSE = 2
DIVE_BONUS_NEUTRAL = 1


# --- actions -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ChooseHouse:
    suit: str


@dataclass(frozen=True, slots=True)
class Shuffle:
    order: tuple[str, ...]  # the new draw pile, top card first


@dataclass(frozen=True, slots=True)
class Draw:
    from_discard: bool = False


@dataclass(frozen=True, slots=True)
class Goal:
    cards: tuple[str, str]  # canonical order: see MuggleQuidditchGame.goal_pair


@dataclass(frozen=True, slots=True)
class Recruit:
    card: str


@dataclass(frozen=True, slots=True)
class Bludger:
    jack: str
    target: str


@dataclass(frozen=True, slots=True)
class Lose:
    card: str


@dataclass(frozen=True, slots=True)
class Spot:
    pass


@dataclass(frozen=True, slots=True)
class Dive:
    pass


@dataclass(frozen=True, slots=True)
class Discard:
    card: str


@dataclass(frozen=True, slots=True)
class Pass:
    pass


DRAW_FROM_PILE, TAKE_DISCARD = Draw(False), Draw(True)
# The actions of a turn's action step (rule mq.turn.actions).
TURN_ACTIONS = frozenset({Goal, Recruit, Bludger, Spot, Dive, Discard, Pass})


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the rules refuse something: the words, the rule id, and the ruling id if one decided it."""

    message: str
    rule: str
    ruling: str = ""


# --- phases and per-turn facts ------------------------------------------------------------

HOUSES, SHUFFLING, DRAW, ACTION, RESPONSE, EXTRA_DISCARD, OVER = (
    "houses", "shuffle", "draw", "action", "response", "extra-discard", "over")
# What a pending shuffle resumes.
DEAL, DRAWING, DIVING = "deal", "drawing", "diving"


@dataclass(slots=True)
class TurnRecord:
    """What a turn did besides its decisions: the facts a log writes down and the referee checks."""

    took: str | None = None  # the top discard taken as the first card
    drew: list[str] = field(default_factory=list)  # cards from the draw pile, in order
    draw_shuffle: tuple[str, ...] | None = None  # the draw pile rebuilt during the draw step
    dive: list[str] = field(default_factory=list)  # dive cards in the order they were turned
    dive_shuffle: tuple[str, ...] | None = None  # the draw pile rebuilt during the dive


@dataclass(slots=True)
class DiveRows:
    starter: int
    quotas: list[int]
    rows: list[list[str]]

    def next_drawer(self) -> int | None:
        """The starter draws first, then they alternate; whoever still has cards to draw goes on alone."""
        wanting = [seat for seat in (0, 1) if len(self.rows[seat]) < self.quotas[seat]]
        if len(wanting) == 2:
            other = 1 - self.starter
            return self.starter if len(self.rows[self.starter]) <= len(self.rows[other]) else other
        return wanting[0] if wanting else None


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

    def bot(self, kind: str, rng: random.Random):
        if kind == "heuristic":
            return MuggleQuidditchBot(rng)
        return super().bot(kind, rng)

    # -- quick rulings --

    def quick_ruling(self, words: Sequence[str]) -> dict:
        """`goal 7H 5S [keeper KD|none] [house hearts] [rival diamonds]`: may this pair score?
        `dive AD house hearts rival diamonds`: how many cards does this Seeker draw in the dive?"""
        tokens = [word.lstrip("-").lower() for phrase in words for word in phrase.replace(",", " ").split()]
        if tokens and tokens[0] == "play":
            return self._play_question(tokens[1:])
        if not tokens or tokens[0] not in ("goal", "dive"):
            raise DeckgenError("ask `goal CARD CARD [keeper CARD|none] [house SUIT] [rival SUIT]` or "
                               "`dive SEEKER house SUIT rival SUIT`, e.g. "
                               "deckgen rule muggle-quidditch goal 7H 5S keeper KD house hearts rival diamonds")
        question, options, cards = tokens[0], {}, []
        aliases = {"keeper": "keeper", "house": "house", "attacker": "house", "mine": "house",
                   "rival": "rival", "defender": "rival", "against": "rival"}
        position = 1
        try:
            while position < len(tokens):
                word = tokens[position]
                if word in aliases:
                    if position + 1 >= len(tokens):
                        raise ValueError(f"{word!r} needs a value")
                    options[aliases[word]] = tokens[position + 1]
                    position += 2
                else:
                    cards.append(self.code(word))
                    position += 1
            house = self.suit_named(options["house"]) if "house" in options else None
            rival = self.suit_named(options["rival"]) if "rival" in options else None
            keeper = options.get("keeper")
            keeper = None if keeper in (None, "none", "no") else self.code(keeper)
        except ValueError as error:
            raise DeckgenError(f"rule muggle-quidditch {question}: {error}") from None
        if house is not None and house == rival:
            raise DeckgenError("the two players lead different houses: give two different suits")
        if question == "goal":
            return self._goal_question(cards, keeper, house, rival)
        return self._dive_question(cards, house, rival)

    def _play_question(self, tokens: list[str]) -> dict:
        """`play CARD hand CARD ... [house SUIT] [rival SUIT] [team CARD ...] [rival-team CARD ...] [spotted]`:
        what may this card do in the action step (put in the team, score, hit, spot or dive)?"""
        usage = ("ask: play CARD hand CARD ... [house SUIT] [rival SUIT] [team CARD ...] [rival-team CARD ...] "
                 "[spotted]   (the asker's action step; `spotted` when one Joker is on the table)")
        lists: dict[str, list[str]] = {"hand": [], "team": [], "rival-team": []}
        options: dict[str, str] = {}
        spotted, current = False, None
        try:
            if not tokens:
                raise ValueError("say the card first")
            card = self.code(tokens[0])
            position = 1
            while position < len(tokens):
                word = tokens[position]
                if word in lists:
                    current = lists[word]
                elif word in ("house", "rival") and position + 1 < len(tokens):
                    options[word] = self.suit_named(tokens[position + 1])
                    position += 1
                    current = None
                elif word == "spotted":
                    spotted, current = True, None
                elif current is not None:
                    current.append(self.code(word))
                else:
                    raise ValueError(f"cannot read {word!r}")
                position += 1
        except ValueError as error:
            raise DeckgenError(f"rule muggle-quidditch play: {error}; {usage}") from None
        suits = [suit.id for suit in self.deck.suits]
        house = options.get("house", suits[0])
        rival = options.get("rival", next(suit for suit in suits if suit != house))
        if house == rival:
            raise DeckgenError("the two players lead different houses: give two different suits")
        hand = lists["hand"]
        if card not in hand:
            hand.insert(0, card)
        state = self.new_state()
        state.houses = [house, rival]
        state.hands = [list(hand), []]
        for seat, key in ((0, "team"), (1, "rival-team")):
            for code in lists[key]:
                kind = self.kind_of[code]
                if kind not in POSITIONS:
                    raise DeckgenError(f"{code} is not a team player (Ace, King, Queen or Jack)")
                if kind in state.teams[seat]:
                    raise DeckgenError(f"a team has one {kind}: {state.teams[seat][kind]} and {code}")
                state.teams[seat][kind] = code
        state.snitch = [JOKER] if spotted else []
        state.phase, state.active, state.turn = ACTION, 0, 1
        choices = state._action_choices()
        uses = [action for action in choices if not isinstance(action, Discard) and card in _cards_of(action)]
        shown = [self.format_action(state, action) for action in uses]
        if uses:
            return {"question": "play", "card": card, "allowed": True, "legal": shown,
                    "answer": f"Yes: {card} may be used now: {', '.join(shown)} (or discarded).",
                    "reasons": [], "rules": ["mq.turn.actions"], "rulings": []}
        refusal = self._play_refusal(state, card)
        return {"question": "play", "card": card, "allowed": False, "legal": [f"discard {card}"],
                "answer": f"No: {card} can only be discarded now: {refusal.message}.",
                "reasons": [], "rules": [refusal.rule], "rulings": [refusal.ruling] if refusal.ruling else []}

    def _play_refusal(self, state: "MuggleQuidditchState", card: str) -> Refusal:
        """Why the most natural use of a card is refused in this position."""
        kind = self.kind_of[card]
        if card == JOKER:
            attempt: Action = Dive() if state.snitch else Spot()
        elif kind in POSITIONS:
            attempt = Recruit(card)
        else:
            partners = [other for other in state.hands[0] if other != card and self.value_of[other] is not None
                        and self.value_of[other] + (self.value_of[card] or 0) == GOAL_SUM]
            if not partners:
                return Refusal(f"no card in the hand adds up to {GOAL_SUM} with {card}", "mq.goal.pair")
            attempt = self.goal_of[card, partners[0]]
        refusal = state._action_refusal(attempt)
        return refusal or Refusal("nothing else is open to it here", "mq.turn.actions")

    def _goal_question(self, cards: list[str], keeper: str | None, house: str | None, rival: str | None) -> dict:
        if len(cards) != 2:
            raise DeckgenError(f"a goal is two cards; found {len(cards)}: {' '.join(cards) or 'none'}")
        if keeper is not None and self.kind_of[keeper] != "keeper":
            raise DeckgenError(f"{keeper} is not a Keeper (a King)")
        if keeper is not None and (house is None or rival is None):
            raise DeckgenError("against a Keeper the answer depends on both houses: add `house SUIT rival SUIT` "
                               "(the scorer's house, then the defender's)")
        pair = self.goal_pair(*cards)
        refusal = self.goal_refusal(pair, house, rival, keeper)
        against = f"against the Keeper {keeper}" if keeper else "with no Keeper to stop it"
        # The rule that decided first, then the others a goal depends on.
        rules = ["mq.goal.pair"] + ([self.keeper_rule_id, "mq.goal.keeper"] if keeper else []) + ["mq.goal.chaser"]
        if refusal is None:
            return {"answer": f"Yes: {pair[0]} + {pair[1]} may score {against} (10 points), "
                              "as long as your team has a Chaser.",
                    "allowed": True, "reasons": [], "rules": list(dict.fromkeys(rules)),
                    "rulings": [self.keeper_ruling_id] if keeper else []}
        return {"answer": f"No: {pair[0]} + {pair[1]} may not score {against}.", "allowed": False,
                "reasons": [refusal.message], "rules": list(dict.fromkeys([refusal.rule] + rules)),
                "rulings": [refusal.ruling] if refusal.ruling else []}

    def _dive_question(self, cards: list[str], house: str | None, rival: str | None) -> dict:
        if len(cards) != 1 or self.kind_of[cards[0]] != "seeker":
            raise DeckgenError("ask about one Seeker (an Ace), e.g. `dive AD house hearts rival diamonds`")
        if house is None or rival is None:
            raise DeckgenError("the dive bonus depends on both houses: add `house SUIT rival SUIT`")
        seeker = cards[0]
        quota = self.dive_quota(seeker, house, rival)
        suit = self.suit_of[seeker]
        why = ("of your own house suit: 2 extra cards" if suit == house else
               "of the rival's house suit: no extra cards" if suit == rival else "of a neutral suit: 1 extra card")
        return {"answer": f"{seeker} dives for {self.house_name(house)} with {quota} cards.",
                "reasons": [f"{self.params['dive_cards']} cards, and the Seeker is {why}"],
                "rules": ["mq.dive.draws"], "rulings": []}

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
                                    "mq.setup.first" if state.turn == 1 else "mq.turn.order", field=turn.at("player"))
        take = turn.get("take", str, None, what="take (the top discard taken first)")
        if take is not None:
            code = self._code_at(log, take, turn.at("take"))
            top = state.discard_pile[-1] if state.phase == DRAW and state.discard_pile else None
            if top is not None and top != code:
                raise state.illegal(f"the top of the discard pile is {top}, not {code}", "mq.turn.discard-pile",
                                    field=turn.at("take"))
        yield LogStep(Draw(take is not None), turn.at("take") if take is not None else turn.at("draw")
                      if turn.has("draw") else turn.field)
        if state.phase == SHUFFLING:
            yield LogStep(self._optional_shuffle(log, turn, "shuffle"), turn.at("shuffle"))
        elif turn.has("shuffle"):
            raise state.illegal("the draw pile did not run out during this draw, so nothing was rebuilt",
                                "mq.deck.reshuffle", "mq.ruling.reshuffle", field=turn.at("shuffle"))
        record = state.record
        if turn.has("draw"):
            claimed = self._codes(log, turn.get("draw", list), turn.at("draw"))
            if list(claimed) != record.drew:
                raise state.illegal(f"the draw pile gave {' '.join(record.drew) or 'nothing'}, not "
                                    f"{' '.join(claimed) or 'nothing'}", "mq.turn.draw", field=turn.at("draw"))
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
                                    **this_turn)
        if state.phase == SHUFFLING:
            yield LogStep(self._optional_shuffle(log, turn, "dive_shuffle"), turn.at("dive_shuffle"))
        elif turn.has("dive_shuffle"):
            raise state.illegal("the draw pile did not run out during a dive this turn, so nothing was rebuilt",
                                "mq.dive.short", "mq.ruling.dive-length", field=turn.at("dive_shuffle"),
                                **this_turn)
        if turn.has("dive"):
            claimed = self._codes(log, turn.get("dive", list), turn.at("dive"))
            if list(claimed) != record.dive:
                raise state.illegal(f"the dive turned {' '.join(record.dive) or 'no cards'}, not "
                                    f"{' '.join(claimed) or 'no cards'}", "mq.dive.draws", field=turn.at("dive"),
                                    **this_turn)

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


# --- the state -----------------------------------------------------------------------------

class MuggleQuidditchState(GameState):
    num_players = 2

    def __init__(self, game: MuggleQuidditchGame):
        self.game = game
        self.houses: list[str | None] = [None, None]
        self.hands: list[list[str]] = [[], []]
        self.teams: list[dict[str, str]] = [{}, {}]  # position -> card
        self.score_piles: list[list[str]] = [[], []]
        self.goals = [0, 0]
        self.draw_pile: list[str] = []  # the top is the end of the list
        self.discard_pile: list[str] = []  # the top is the end of the list
        self.snitch: list[str] = []  # Jokers on the table
        self.dive: DiveRows | None = None
        self.phase = HOUSES
        self.active = 0  # whose turn it is; seat 1 deals, so seat 0 starts
        self.turn = 0  # turns started
        self.fresh_jack: str | None = None  # a Jack taken from the discard pile this turn
        self.bludger: tuple[str, str, bool] | None = None  # a Bludger awaiting its answer: jack, target, from team
        self.shuffle_for: str | None = None  # what a pending shuffle resumes
        self.shuffle_cards: list[str] = []  # the cards the pending shuffle orders
        self.caught_by: int | None = None
        self.capped = False
        self.record = TurnRecord()

    # -- GameState API --

    def current_player(self) -> int:
        phase = self.phase
        if phase == OVER:
            return TERMINAL
        if phase == SHUFFLING:
            return CHANCE
        if phase == HOUSES:
            return 0 if self.houses[0] is None else 1
        if phase == RESPONSE:
            return 1 - self.active
        return self.active

    def pending(self) -> Pending | None:
        phase, name = self.phase, self.player_name
        turn = f" in turn {self.turn}" if self.turn else ""
        if phase == OVER:
            return None
        if phase == SHUFFLING:
            what = {DEAL: "the shuffle and deal that start the match", DRAWING: "the rebuilt draw pile's order",
                    DIVING: "the rebuilt draw pile's order, for the dive"}[self.shuffle_for]
            return Pending(CHANCE, what + turn, "mq.setup.deal" if self.shuffle_for == DEAL else "mq.deck.reshuffle")
        if phase == HOUSES:
            seat = self.current_player()
            return Pending(seat, f"{name(seat)}'s choice of house", "mq.setup.houses")
        seat = self.current_player()
        if phase == DRAW:
            return Pending(seat, f"{name(seat)}'s draw step{turn}", "mq.turn.draw")
        if phase == RESPONSE:
            return Pending(seat, f"{name(seat)}'s choice of what leaves the team after the Bludger on "
                                 f"{self.bludger[1]}{turn}", "mq.bludger.defence")
        if phase == EXTRA_DISCARD:
            return Pending(seat, f"{name(seat)}'s discard after the team Beater's Bludger{turn}", "mq.bludger.team")
        return Pending(seat, f"{name(seat)}'s action{turn}", "mq.turn.actions")

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == ACTION:
            return self._action_choices()
        if phase == DRAW:
            if self.discard_pile and len(self.hands[self.active]) < self.game.params["draw_to"]:
                return [DRAW_FROM_PILE, TAKE_DISCARD]
            return [DRAW_FROM_PILE]
        if phase == HOUSES:
            return [ChooseHouse(suit.id) for suit in self.game.deck.suits if suit.id not in self.houses]
        if phase == RESPONSE:
            return [Lose(self.bludger[1]), Lose(self.teams[1 - self.active]["beater"])]
        if phase == EXTRA_DISCARD:
            return [self.game.discard_of[card] for card in _distinct(self.hands[self.active])]
        return []  # terminal, or chance: see sample_chance

    def _action_choices(self) -> list[Action]:
        hand = self.hands[self.active]
        if not hand:
            return [Pass()] + self._bludgers()
        game = self.game
        team = self.teams[self.active]
        cards = _distinct(hand) if hand.count(JOKER) > 1 else hand
        kind_of = game.kind_of
        actions: list[Action] = self._goals() if "chaser" in team else []
        actions += [game.recruit_of[card] for card in cards if kind_of[card] in POSITIONS and card != self.fresh_jack]
        actions += self._bludgers()
        if "seeker" in team and JOKER in hand:
            if not self.snitch:
                actions.append(Spot())
            elif len(self.snitch) == 1:
                actions.append(Dive())
        discard_of = game.discard_of
        actions += [discard_of[card] for card in cards]
        return actions

    def _goals(self) -> list[Action]:
        me = self.active
        game = self.game
        value_of, goal_of = game.value_of, game.goal_of
        numbers = [card for card in self.hands[me] if value_of[card] is not None]
        keeper = self.teams[1 - me].get("keeper")
        goals: list[Action] = []
        for index, first in enumerate(numbers):
            wanted = GOAL_SUM - value_of[first]
            for second in numbers[index + 1:]:
                if value_of[second] != wanted:
                    continue
                goal = goal_of[first, second]
                if keeper is None or game.goal_refusal(goal.cards, self.houses[me], self.houses[1 - me],
                                                       keeper) is None:
                    goals.append(goal)
        return goals

    def _bludgers(self) -> list[Action]:
        me = self.active
        targets = list(self.teams[1 - me].values())
        if not targets:
            return []
        kind_of = self.game.kind_of
        jacks = [card for card in self.hands[me] if kind_of[card] == "beater" and card != self.fresh_jack]
        if "beater" in self.teams[me]:
            jacks.append(self.teams[me]["beater"])
        bludger_of = self.game.bludger_of
        return [bludger_of[jack, target] for jack in jacks for target in targets]

    def apply(self, action: Action) -> None:
        self._check(action)
        EFFECTS[type(action)](self, action)

    # One effect per action type, looked up by type in `EFFECTS` (cheaper than a match).

    def _take_house(self, action: ChooseHouse) -> None:
        self.houses[self.current_player()] = action.suit
        if None not in self.houses:
            self._await_shuffle(DEAL, list(self.game.all_codes))

    def _draw(self, action: Draw) -> None:
        if action.from_discard:
            card = self.discard_pile.pop()
            self.hands[self.active].append(card)
            self.record.took = card
            if self.game.kind_of[card] == "beater":
                self.fresh_jack = card
        self.phase = ACTION
        self._draw_to_full()

    def _discard(self, action: Discard) -> None:
        self.hands[self.active].remove(action.card)
        self.discard_pile.append(action.card)
        self._end_turn()

    def _recruit(self, action: Recruit) -> None:
        card = action.card
        self.hands[self.active].remove(card)
        position = self.game.kind_of[card]
        replaced = self.teams[self.active].get(position)
        if replaced:
            self.discard_pile.append(replaced)
        self.teams[self.active][position] = card
        self._end_turn()

    def _score(self, action: Goal) -> None:
        hand = self.hands[self.active]
        for card in action.cards:
            hand.remove(card)
        self.score_piles[self.active].extend(action.cards)
        self.goals[self.active] += 1
        self._end_turn()

    def _spot(self, action: Spot) -> None:
        self.hands[self.active].remove(JOKER)
        self.snitch.append(JOKER)
        self._end_turn()

    def _dive(self, action: Dive) -> None:
        self.hands[self.active].remove(JOKER)
        self.snitch.append(JOKER)
        self._start_dive()

    def _pass(self, action: Pass) -> None:
        self._end_turn()

    def clone(self) -> "MuggleQuidditchState":
        return copy.deepcopy(self, {id(self.game): self.game})  # the rules and the deck are shared

    def sample_chance(self, rng: random.Random) -> Action:
        if self.phase != SHUFFLING:
            raise ValueError("not a chance node: nothing is being shuffled")
        order = list(self.shuffle_cards)
        rng.shuffle(order)
        return Shuffle(tuple(order))

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        scores = (self.score(0), self.score(1))
        best = max(scores)
        winners = tuple(seat for seat in (0, 1) if scores[seat] == best)
        reason = (f"turn-cap: stopped after {self.game.params['max_turns']} turns with the Snitch uncaught"
                  if self.capped else "finished")
        return Outcome(scores, winners, reason, draw=len(winners) > 1)  # mq.end.tie: equal totals draw

    def score(self, seat: int) -> int:
        points = self.goals[seat] * self.game.params["goal_points"]
        if self.caught_by == seat:
            points += self.game.params["snitch_points"]
        return points

    def summary(self) -> dict:
        game = self.game
        columns = {
            "house": [game.house_name(house) if house else None for house in self.houses],
            "team": [" ".join(team[position] for position in POSITIONS if position in team) or None
                     for team in self.teams],
            "goals": list(self.goals),
            "snitch": [game.params["snitch_points"] if self.caught_by == seat else 0 for seat in (0, 1)],
            "score": [self.score(seat) for seat in (0, 1)],
        }
        how = ("the Snitch caught" if self.caught_by is not None else
               "stopped by the turn cap" if self.capped else "in progress")
        played = self.turn if self.phase == OVER else max(self.turn - 1, 0)
        return {
            "scores": [self.score(seat) for seat in (0, 1)],
            "rounds": [{"title": f"Match: {played} turns played, {how}", "columns": columns}],
            "turn": self.turn,
            "houses": list(self.houses),
            "teams": [dict(team) for team in self.teams],
            "hands": [len(hand) for hand in self.hands],
            "snitch_on_table": len(self.snitch),
            "caught_by": self.caught_by,
            "capped": self.capped,
            "draw_pile": len(self.draw_pile),
            "discard_pile": len(self.discard_pile),
        }

    def table_view(self) -> dict:
        areas = [{"title": f"{self.player_name(seat)}'s team",
                  "cards": [self.teams[seat][position] for position in POSITIONS if position in self.teams[seat]]}
                 for seat in (0, 1)]
        areas.append({"title": "Snitch on the table", "cards": list(self.snitch)})
        if self.dive is not None or self.record.dive:
            areas.append({"title": "Dive", "cards": list(self.record.dive)})
        return {"hands": [list(hand) for hand in self.hands], "areas": areas,
                "counters": {"Turn": self.turn, "Draw pile": len(self.draw_pile),
                             "Discard pile": len(self.discard_pile),
                             "Top discard": self.discard_pile[-1] if self.discard_pile else "-",
                             "Goals": " / ".join(map(str, self.goals))},
                "scores": [self.score(seat) for seat in (0, 1)]}

    def all_cards(self) -> list[str]:
        """Every card wherever it is: hands, piles, tables, score piles, the dive, a shuffle in
        progress, a Bludger in flight. The game conserves this multiset."""
        cards = self.draw_pile + self.discard_pile + self.snitch + self.shuffle_cards
        for seat in (0, 1):
            cards += self.hands[seat] + list(self.teams[seat].values()) + self.score_piles[seat]
        if self.dive:
            cards += self.record.dive
        if self.bludger:
            cards.append(self.bludger[0])
        return cards

    def __str__(self) -> str:
        lines = [f"turn {self.turn}, phase {self.phase}, to act: {self.current_player()}"]
        for seat in (0, 1):
            team = " ".join(f"{position}={card}" for position, card in self.teams[seat].items())
            lines.append(f"seat {seat} ({self.houses[seat]}): hand {' '.join(self.hands[seat]) or '-'} | "
                         f"team {team or '-'} | goals {self.goals[seat]}")
        top = self.discard_pile[-1] if self.discard_pile else "-"
        lines.append(f"draw pile {len(self.draw_pile)}, discard pile {len(self.discard_pile)} (top {top}), "
                     f"Jokers on the table {len(self.snitch)}")
        return "\n".join(lines)

    # -- checking --

    def illegal(self, message: str, rule: str, ruling: str = "", **where: Any) -> IllegalAction:
        """The error for a move the rules forbid here, listing what was legal instead."""
        if self.phase == SHUFFLING:
            legal = [f"shuffle: any order of these {len(self.shuffle_cards)} cards: "
                     + " ".join(sorted(self.shuffle_cards))]
        else:
            legal = [self.game.format_action(self, action) for action in self.legal_actions()]
        seat = self.current_player()
        place: dict[str, Any] = {"turn": self.turn} if self.turn else {}
        if seat >= 0:
            place["player"] = seat
        place.update(where)
        return IllegalAction(message, rule, legal, place, ruling=ruling)

    def _refuse(self, refusal: Refusal) -> IllegalAction:
        return self.illegal(refusal.message, refusal.rule, refusal.ruling)

    def _check(self, action: Action) -> None:
        """Raise IllegalAction, naming the rule, unless the action is legal now."""
        refusal = self._refusal(action)
        if refusal is not None:
            raise self._refuse(refusal)

    def _shuffle_mismatch(self, order: Sequence[str]) -> str:
        """Which cards a written shuffle leaves out or adds, naming a missing Joker's way in."""
        want, got = Counter(self.shuffle_cards), Counter(order)
        missing, extra = sorted((want - got).elements()), sorted((got - want).elements())
        parts = []
        if missing:
            parts.append("leaves out " + " ".join(missing))
        if extra:
            parts.append("adds " + " ".join(extra) + ", which " + ("is" if len(extra) == 1 else "are")
                         + " not among the cards being shuffled")
        message = (f"the shuffle must put exactly the {len(self.shuffle_cards)} cards being shuffled in order, "
                   f"each once; this one {' and '.join(parts)}")
        if JOKER in missing and self.shuffle_for != DEAL:
            message += f" (a Joker ({JOKER}) held in a hand goes onto the discard pile before it is shuffled)"
        return message

    def _refusal(self, action: Action) -> Refusal | None:
        phase = self.phase
        if phase == ACTION and type(action) in TURN_ACTIONS:
            return self._action_refusal(action)
        if phase == OVER:
            if self.capped:
                return Refusal("the match is over: it reached the turn cap", "mq.end.turn-cap", "mq.ruling.turn-cap")
            return Refusal("the match is over: the Snitch has been caught", "mq.end.capture")
        dealing = "mq.setup.deal" if self.shuffle_for == DEAL else "mq.deck.reshuffle"
        if isinstance(action, Shuffle):
            if phase != SHUFFLING:
                return Refusal("no shuffle is due: the draw pile is rebuilt when it runs out (or when a card must "
                               "be drawn from it empty), from a discard pile that is not empty", "mq.deck.reshuffle",
                               "mq.ruling.reshuffle")
            if sorted(action.order) != sorted(self.shuffle_cards):
                return Refusal(self._shuffle_mismatch(action.order), dealing,
                               "mq.ruling.reshuffle" if dealing == "mq.deck.reshuffle" else "")
            return None
        if phase == SHUFFLING:
            return Refusal("the cards must be shuffled before anyone acts", dealing)
        if phase == HOUSES:
            if not isinstance(action, ChooseHouse):
                return Refusal("both players choose their houses before the deal", "mq.setup.houses")
            if action.suit in self.houses:
                return Refusal(f"{action.suit} is already the other player's house", "mq.setup.houses",
                               "mq.ruling.houses")
            if action.suit not in self.game.params["houses"]:
                return Refusal(f"{action.suit} is not one of the houses", "mq.setup.houses")
            return None
        if isinstance(action, ChooseHouse):
            return Refusal("houses are chosen once, before the deal", "mq.setup.houses")
        if phase == DRAW:
            if not isinstance(action, Draw):
                return Refusal("every turn starts with the draw step", "mq.turn.order")
            if action.from_discard and not self.discard_pile:
                return Refusal("the discard pile is empty, so there is nothing to take from it",
                               "mq.turn.discard-pile", "mq.ruling.draw")
            if action.from_discard and len(self.hands[self.active]) >= self.game.params["draw_to"]:
                return Refusal("your hand is already full, so you draw nothing", "mq.turn.draw")
            return None
        if isinstance(action, Draw):
            return Refusal("you have already drawn this turn (at most one card may come from the discard pile)",
                           "mq.turn.discard-pile" if action.from_discard else "mq.turn.order")
        if phase == RESPONSE:
            if not isinstance(action, Lose):
                return Refusal("the player hit by the Bludger must first choose what leaves their team",
                               "mq.bludger.defence", "mq.ruling.bludger")
            if action not in self.legal_actions():
                return Refusal(f"{action.card} is neither the Bludger's target nor your Beater",
                               "mq.bludger.defence", "mq.ruling.bludger")
            return None
        if isinstance(action, Lose):
            return Refusal("there is no Bludger to answer", "mq.bludger.defence")
        if phase == EXTRA_DISCARD:
            if not isinstance(action, Discard):
                return Refusal("after a Bludger from your team Beater you must discard a card from your hand",
                               "mq.bludger.team")
            if action.card not in self.hands[self.active]:
                return Refusal(f"{action.card} is not in your hand", "mq.bludger.team")
            return None
        return self._action_refusal(action)

    def _action_refusal(self, action: Action) -> Refusal | None:
        me, them = self.active, 1 - self.active
        hand = self.hands[me]
        team = self.teams[me]
        kind_of = self.game.kind_of
        match action:
            case Discard(card):
                if card not in hand:
                    return Refusal(f"{card} is not in your hand", "mq.turn.actions")
            case Goal(cards):
                for card in cards:
                    if card not in hand:
                        return Refusal(f"{card} is not in your hand", "mq.goal.pair")
                refusal = self.game.goal_refusal(cards, self.houses[me], self.houses[them], None)
                if refusal is not None:
                    return refusal
                if "chaser" not in team:
                    return Refusal("your team has no Chaser, so you cannot score", "mq.goal.chaser")
                return self.game.goal_refusal(cards, self.houses[me], self.houses[them], self.teams[them].get("keeper"))
            case Recruit(card):
                if card not in hand:
                    return Refusal(f"{card} is not in your hand", "mq.team.positions")
                if kind_of[card] not in POSITIONS:
                    return Refusal(f"{card} is not a team player (an Ace, King, Queen or Jack)", "mq.team.positions")
                if card == self.fresh_jack:
                    return Refusal(f"{card} was taken from the discard pile this turn, so it cannot be played "
                                   "until your next turn", "mq.turn.discard-pile", "mq.ruling.draw")
            case Bludger(jack, target):
                if team.get("beater") != jack:
                    if jack not in hand:
                        return Refusal(f"{jack} is neither in your hand nor your team's Beater", "mq.bludger.hand")
                    if kind_of[jack] != "beater":
                        return Refusal(f"{jack} is not a Jack: only Beaters hit Bludgers", "mq.bludger.hand")
                    if jack == self.fresh_jack:
                        return Refusal(f"{jack} was taken from the discard pile this turn, so it cannot be played "
                                       "until your next turn", "mq.turn.discard-pile", "mq.ruling.draw")
                if target not in self.teams[them].values():
                    return Refusal(f"{target} is not on your opponent's team", "mq.bludger.hand", "mq.ruling.bludger")
            case Spot() | Dive():
                rule = "mq.snitch.spot" if isinstance(action, Spot) else "mq.snitch.dive"
                if JOKER not in hand:
                    return Refusal(f"you hold no Joker ({JOKER})", rule)
                if "seeker" not in team:
                    return Refusal("a Joker can only be laid while your team has a Seeker", rule)
                if isinstance(action, Spot) and self.snitch:
                    return Refusal("the Snitch is already spotted: the next Joker starts the dive", rule)
                if isinstance(action, Dive) and not self.snitch:
                    return Refusal("the Snitch has not been spotted yet: the first Joker spots it", rule)
            case Pass():
                if hand:
                    return Refusal("you may only pass with an empty hand; discard a card instead",
                                   "mq.turn.actions", "mq.ruling.hand-size")
            case _:
                return Refusal(f"{action!r} is not a Muggle Quidditch action", "mq.turn.actions")
        return None

    # -- effects --

    def _await_shuffle(self, resume: str, cards: list[str]) -> None:
        self.phase = SHUFFLING
        self.shuffle_for = resume
        self.shuffle_cards = cards

    def _apply_shuffle(self, action: Shuffle) -> None:
        order = action.order
        resume = self.shuffle_for
        self.draw_pile = list(reversed(order))
        self.shuffle_cards = []
        self.shuffle_for = None
        if resume == DEAL:
            for _ in range(self.game.params["hand_size"]):
                for seat in (0, 1):  # seat 0, the player who did not deal, gets the first card
                    if self.draw_pile:
                        self.hands[seat].append(self.draw_pile.pop())
            self.turn = 1
            self.phase = DRAW
        elif resume == DRAWING:
            self.record.draw_shuffle = order
            self.phase = ACTION
            self._draw_to_full()
        else:
            self.record.dive_shuffle = order
            self.phase = ACTION
            self._continue_dive()

    def _start_reshuffle(self, resume: str) -> bool:
        """The draw pile has just run out, or a card must be drawn from it empty (mq.ruling.reshuffle):
        Jokers in hands join the discard pile, which becomes the cards to shuffle. False, and nothing
        moves, if the discard pile is empty (there is nothing to rebuild from)."""
        if not self.discard_pile:
            return False
        for hand in self.hands:
            while JOKER in hand:
                hand.remove(JOKER)
                self.discard_pile.append(JOKER)
        self._await_shuffle(resume, self.discard_pile)
        self.discard_pile = []
        return True

    def _draw_to_full(self) -> None:
        hand = self.hands[self.active]
        target = self.game.params["draw_to"]
        while len(hand) < target:
            if not self.draw_pile:
                self._start_reshuffle(DRAWING)  # if nothing can be rebuilt, the hand stays short
                return
            card = self.draw_pile.pop()
            hand.append(card)
            self.record.drew.append(card)
            if not self.draw_pile and self._start_reshuffle(DRAWING):  # rebuilt the moment it runs out
                return

    def _bludger(self, action: Bludger) -> None:
        jack, target = action.jack, action.target
        me, them = self.active, 1 - self.active
        from_team = self.teams[me].get("beater") == jack
        if from_team:
            del self.teams[me]["beater"]
        else:
            self.hands[me].remove(jack)
        self.bludger = (jack, target, from_team)
        defender_beater = self.teams[them].get("beater")
        if defender_beater and defender_beater != target:
            self.phase = RESPONSE
        else:
            self._resolve_bludger(target)

    def _lose(self, action: Lose) -> None:
        self._resolve_bludger(action.card)

    def _resolve_bludger(self, victim: str) -> None:
        jack, _, from_team = self.bludger
        me, them = self.active, 1 - self.active
        del self.teams[them][self.game.kind_of[victim]]
        self.discard_pile.append(victim)
        self.discard_pile.append(jack)
        self.bludger = None
        if self.snitch and "seeker" not in self.teams[0] and "seeker" not in self.teams[1]:
            self.discard_pile.extend(self.snitch)
            self.snitch = []
        if from_team and self.hands[me]:
            self.phase = EXTRA_DISCARD
        else:
            self._end_turn()

    def _start_dive(self) -> None:
        me, them = self.active, 1 - self.active
        if "seeker" not in self.teams[them]:
            self._capture(me)
            return
        quotas = [self.game.dive_quota(self.teams[seat]["seeker"], self.houses[seat], self.houses[1 - seat])
                  for seat in (0, 1)]
        self.dive = DiveRows(me, quotas, [[], []])
        self._continue_dive()

    def _continue_dive(self) -> None:
        dive = self.dive
        while (drawer := dive.next_drawer()) is not None:
            if not self.draw_pile:
                if self._start_reshuffle(DIVING):
                    return
                break  # nothing left anywhere: the dive stops with the cards turned so far
            card = self.draw_pile.pop()
            dive.rows[drawer].append(card)
            self.record.dive.append(card)
            if not self.draw_pile and self._start_reshuffle(DIVING):  # rebuilt the moment it runs out
                return
        strength = self.game.strength_of
        best = [max((strength[card] for card in row), default=-1) for row in dive.rows]
        self.dive = None
        if best[0] == best[1]:
            self.discard_pile.extend(self.snitch)  # the Jokers first, buried under the dive cards
            self.snitch = []
            self.discard_pile.extend(self.record.dive)
            self._end_turn()
        else:
            self.discard_pile.extend(self.record.dive)
            self._capture(0 if best[0] > best[1] else 1)

    def _capture(self, seat: int) -> None:
        self.score_piles[seat].extend(self.snitch)
        self.snitch = []
        self.caught_by = seat
        self.phase = OVER

    def _end_turn(self) -> None:
        if self.turn >= self.game.params["max_turns"]:
            self.capped = True
            self.phase = OVER
            return
        self.active = 1 - self.active
        self.turn += 1
        self.fresh_jack = None
        self.record = TurnRecord()
        self.phase = DRAW


def _cards_of(action: Action) -> tuple[str, ...]:
    """The cards a turn action uses from the hand."""
    if isinstance(action, Goal):
        return action.cards
    if isinstance(action, Recruit):
        return (action.card,)
    if isinstance(action, Bludger):
        return (action.jack,)
    if isinstance(action, (Spot, Dive)):
        return (JOKER,)
    return ()


EFFECTS = {
    ChooseHouse: MuggleQuidditchState._take_house,
    Shuffle: MuggleQuidditchState._apply_shuffle,
    Draw: MuggleQuidditchState._draw,
    Goal: MuggleQuidditchState._score,
    Recruit: MuggleQuidditchState._recruit,
    Bludger: MuggleQuidditchState._bludger,
    Lose: MuggleQuidditchState._lose,
    Spot: MuggleQuidditchState._spot,
    Dive: MuggleQuidditchState._dive,
    Discard: MuggleQuidditchState._discard,
    Pass: MuggleQuidditchState._pass,
}


def _distinct(cards: list[str]) -> list[str]:
    """Each card code once, in hand order (the two Jokers share a code)."""
    return list(dict.fromkeys(cards))


# --- the heuristic player ------------------------------------------------------------------------

class MuggleQuidditchBot(HeuristicBot):
    """A simple sensible player. It reads only its own hand and what is public (both teams, the
    discard pile, the score piles, the Jokers on the table), never the other hand or the draw pile.

    Its priorities: dive when the dive favours it (and there are cards to dive for) and the Snitch
    would win the match; score any goal; spot the Snitch when it holds both Jokers; fill the team
    (Chaser first); knock out the rival Seeker once the Snitch is spotted, a rival Keeper that
    blocks one of its pairs, or the rival Chaser; otherwise discard its least useful card."""

    def choose(self, state: MuggleQuidditchState) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        if state.phase == DRAW:
            return self._draw(state, me)
        if state.phase == RESPONSE:
            return self._answer(state, me, legal)
        if state.phase in (ACTION, EXTRA_DISCARD):
            return self._act(state, me, legal)
        return self.pick(legal)

    def _draw(self, state: MuggleQuidditchState, me: int) -> Action:
        top = state.discard_pile[-1] if state.discard_pile else None
        if top is not None and len(state.hands[me]) < state.game.params["draw_to"] and self._wanted(state, me, top):
            return Draw(True)
        return Draw(False)

    def _wanted(self, state: MuggleQuidditchState, me: int, card: str) -> bool:
        game = state.game
        kind = game.kind_of[card]
        team = state.teams[me]
        if kind == "joker":
            return "seeker" in team
        if kind in POSITIONS:
            return kind not in team
        if game.suit_of[card] == state.houses[1 - me]:
            return False  # any rival Keeper will keep it out
        partner_value = GOAL_SUM - game.value_of[card]
        keeper = state.teams[1 - me].get("keeper")
        return any(game.value_of[other] == partner_value and other != card
                   and game.goal_refusal((card, other), state.houses[me], state.houses[1 - me], keeper) is None
                   for other in state.hands[me])

    def _answer(self, state: MuggleQuidditchState, me: int, legal: list[Action]) -> Action:
        return min(legal, key=lambda action: self._member_value(state, me, action.card))

    def _member_value(self, state: MuggleQuidditchState, me: int, card: str) -> int:
        kind = state.game.kind_of[card]
        if kind == "seeker":
            return 6 if state.snitch else 3
        own = state.game.suit_of[card] == state.houses[me]
        return {"chaser": 5, "keeper": 4 + own, "beater": 3}[kind]

    def _act(self, state: MuggleQuidditchState, me: int, legal: list[Action]) -> Action:
        if state.phase == EXTRA_DISCARD:
            return self._least_useful(state, me, legal)
        game = state.game
        them = 1 - me
        team, rival_team = state.teams[me], state.teams[them]
        by_type: dict[type, list[Action]] = {}
        for action in legal:
            by_type.setdefault(type(action), []).append(action)
        snitch_wins = state.score(me) + game.params["snitch_points"] > state.score(them)
        if Dive in by_type and snitch_wins:
            rival_seeker = rival_team.get("seeker")
            mine = game.dive_quota(team["seeker"], state.houses[me], state.houses[them])
            theirs = (game.dive_quota(rival_seeker, state.houses[them], state.houses[me]) if rival_seeker else 0)
            cards_to_dive_for = state.draw_pile or state.discard_pile  # both piles empty: a certain tie
            if rival_seeker is None or (mine >= theirs and cards_to_dive_for):
                return by_type[Dive][0]
        if Goal in by_type:
            return self.pick(by_type[Goal])
        if Spot in by_type and state.hands[me].count(JOKER) == 2 and snitch_wins:
            return by_type[Spot][0]  # and dive next turn with the other Joker
        recruits = self._useful_recruits(state, me, by_type.get(Recruit, []))
        if recruits:
            return recruits[0]
        bludger = self._bludger_choice(state, me, by_type.get(Bludger, []))
        if bludger is not None:
            return bludger
        return self._least_useful(state, me, by_type.get(Discard, legal))

    def _useful_recruits(self, state: MuggleQuidditchState, me: int, recruits: list[Action]) -> list[Action]:
        game = state.game
        team = state.teams[me]
        order = {"chaser": 0, "seeker": 1, "keeper": 2, "beater": 3}
        useful = []
        for action in recruits:
            kind = game.kind_of[action.card]
            current = team.get(kind)
            upgrade = (current is not None and kind in ("seeker", "keeper")
                       and game.suit_of[action.card] == state.houses[me] != game.suit_of[current])
            if current is None or upgrade:
                useful.append(action)
        return sorted(useful, key=lambda action: order[game.kind_of[action.card]])

    def _bludger_choice(self, state: MuggleQuidditchState, me: int, bludgers: list[Action]) -> Action | None:
        if not bludgers:
            return None
        rival_team = state.teams[1 - me]
        targets = []
        if state.snitch and "seeker" in state.teams[me] and "seeker" in rival_team:
            targets.append(rival_team["seeker"])
        if "keeper" in rival_team and self._keeper_blocks_a_pair(state, me):
            targets.append(rival_team["keeper"])
        if "chaser" in rival_team:
            targets.append(rival_team["chaser"])
        own_beater = state.teams[me].get("beater")
        for target in targets:
            options = [action for action in bludgers if action.target == target]
            from_hand = [action for action in options if action.jack != own_beater]
            if from_hand or options:
                return (from_hand or options)[0]
        return None

    def _keeper_blocks_a_pair(self, state: MuggleQuidditchState, me: int) -> bool:
        """Whether the rival Keeper stops a goal this hand could otherwise score."""
        if "chaser" not in state.teams[me]:
            return False
        game = state.game
        keeper = state.teams[1 - me]["keeper"]
        numbers = [card for card in state.hands[me] if game.value_of[card] is not None]
        return any(game.value_of[first] + game.value_of[second] == GOAL_SUM
                   and game.goal_refusal((first, second), state.houses[me], state.houses[1 - me], keeper) is not None
                   for index, first in enumerate(numbers) for second in numbers[index + 1:])

    def _least_useful(self, state: MuggleQuidditchState, me: int, discards: list[Action]) -> Action:
        scored = [(self._card_value(state, me, action.card), action) for action in discards]
        lowest = min(value for value, _ in scored)
        return self.pick([action for value, action in scored if value == lowest])

    def _card_value(self, state: MuggleQuidditchState, me: int, card: str) -> int:
        game = state.game
        kind = game.kind_of[card]
        team = state.teams[me]
        if kind == "joker":
            return 8
        if kind == "beater":
            return 6
        if kind in POSITIONS:
            current = team.get(kind)
            if current is None:
                return 7
            return 4 if game.suit_of[card] == state.houses[me] != game.suit_of[current] else 1
        value = 2
        partner = GOAL_SUM - game.value_of[card]
        if any(game.value_of[other] == partner and other != card for other in state.hands[me]):
            value += 2
        if game.suit_of[card] == state.houses[me]:
            value += 1
        if game.suit_of[card] == state.houses[1 - me]:
            value -= 2
        return value
