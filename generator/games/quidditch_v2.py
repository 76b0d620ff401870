"""Quidditch v2, a Dvorak deck: the reference rules engine.

Rules live in `decks/quidditch-v2.toml` (rule ids `qv2.*`, rulings `qv2.ruling.*`); this
module applies them. The state is a small interpreter: `self.stack` holds the steps still
to run, as plain tuples `(step, *args)`. `_advance` runs steps until it meets an `ask`
step, which is a decision for one seat or for chance; `apply` answers it. Card effects
with choices, responses out of turn (Saved, Pass, Blagging), dice and coins are all asks,
so every game replays exactly from its list of actions.

Actions, as written in a log (seats are P1..Pn, cards by code):

    draw CODE [to Pn] / turn CODE   chance: a card off the draw pile (to a hand / for Search)
    roll N, coin heads|tails        chance: die and coin
    first Pn, random CODE           chance: starting player; Powerful Beater's random discard
    play CODE [Pn|Pn:CODE] [discarding CODE]
    end                             no more cards this turn
    score Pn | bludger Pn [random] | snatch | outfly Pn | search | skip     the manoeuvre step
    discard CODE, accept, decline, pick Pn, destroy Pn:CODE, reveal CODE... | reveal none

The draw pile is kept as a multiset: nothing in this deck looks at its order except by
drawing, so "which card comes off the top" is the chance action itself.
"""

from __future__ import annotations

import copy
import itertools
import random
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..errors import DeckgenError
from .base import CHANCE, TERMINAL, Game, GameState, IllegalAction, Outcome

# Card ids the engine gives meaning to (the deck's ids; codes may change freely).
QUAFFLE = "quaffle"
SNITCH = "golden-snitch"
SWEEP = "sweeping-play"
LPASS = "lightning-passing"
FLYHIGH = "flying-high"
TRICK = "trick-play"
TOUGH = "playing-tough"
TACBLUD = "tactical-bludgering"
WEAVE = "weaving"
BLISTER = "blistering-speed"
OUTPROB = "outside-problems"
SUPPORT = "supporters"
QUIET = "its-all-gone-quiet"
DOPPLE = "dopplebeater-defence"
NERVES = "match-nerves"
RAIN = "rain"
SAVED = "saved"
STRAYED = "strayed-off-the-pitch"
STUNNED = "stunned-by-a-bludger"
PASS = "pass"
PENALTY = "penalty"
BLAG = "blagging"
WRONSKI = "wronski-feint"
NIPPY = "nippy-seeker"
ACCBEAT = "accurate-beater"
POWBEAT = "powerful-beater"
CRACK = "crack-shot-chaser"
SUREHAND = "sure-handed-chaser"
CAPTAIN = "competitive-captain"
KEEPER = "top-keeper"
N2000 = "nimbus-2000"
N2001 = "nimbus-2001"
FIREBOLT = "firebolt"

KNOWN_CARDS = frozenset({
    QUAFFLE, SNITCH, SWEEP, LPASS, FLYHIGH, TRICK, TOUGH, TACBLUD, WEAVE, BLISTER, OUTPROB,
    SUPPORT, QUIET, DOPPLE, NERVES, RAIN, SAVED, STRAYED, STUNNED, PASS, PENALTY, BLAG,
    WRONSKI, NIPPY, ACCBEAT, POWBEAT, CRACK, SUREHAND, CAPTAIN, KEEPER, N2000, N2001, FIREBOLT,
    "bludger-the-seeker", "daring-risk", "perfect-catch", "obstruction-by-the-chaser",
    "nudge-off-course", "quick-off-the-mark",
})
# Actions that target one opponent when played.
OPPONENT_ACTIONS = frozenset({TACBLUD, WRONSKI, PENALTY, BLAG})
# Things that target one opponent when played.
OPPONENT_THINGS = frozenset({OUTPROB, NERVES})
RESPONSES = frozenset({SAVED, PASS})
# Things acting at the start of their controller's turn, and at the start of their target's.
START_OF_OWN_TURN = frozenset({LPASS, SUPPORT, TOUGH, N2000, N2001, FIREBOLT})
START_OF_TARGET_TURN = frozenset({OUTPROB, NERVES})

# Upper bounds used to declare score bounds and game length.
GOALS_PER_TURN_BOUND = 10
ACTIONS_PER_TURN_BOUND = 300


# ------------------------------------------------------------------------------ actions

@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the card that comes off the draw pile."""
    card: str


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: a die roll."""
    value: int


@dataclass(frozen=True, slots=True)
class Coin:
    """Chance: a coin flip."""
    heads: bool


@dataclass(frozen=True, slots=True)
class FirstPlayer:
    """Chance: the seat that takes the first turn."""
    seat: int


@dataclass(frozen=True, slots=True)
class RandomPick:
    """Chance: the card picked at random from a hand (Powerful Beater)."""
    card: str


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from hand, with the player or Thing it targets and a card paid as cost."""
    card: str
    player: int | None = None
    thing: int | None = None  # uid of a Thing in play
    cost: str | None = None


@dataclass(frozen=True, slots=True)
class EndPlays:
    """Play no more cards this turn."""


@dataclass(frozen=True, slots=True)
class Manoeuvre:
    """A manoeuvre ('score', 'bludger', 'snatch', 'outfly', 'search') or 'skip'."""
    kind: str
    target: int | None = None
    random: bool = False  # Bludger with Powerful Beater's random discard


@dataclass(frozen=True, slots=True)
class Discard:
    card: str


@dataclass(frozen=True, slots=True)
class Accept:
    """Take an optional effect: draw for Quiet or Captain, discard two to stop a Penalty."""


@dataclass(frozen=True, slots=True)
class Decline:
    """Let a response window or an optional effect pass."""


@dataclass(frozen=True, slots=True)
class Pick:
    """Choose a player for an effect already under way (Rain, Playing Tough's penalty)."""
    seat: int


@dataclass(frozen=True, slots=True)
class Destroy:
    """Destroy one of your own Things where a card allows it (Playing Tough)."""
    thing: int


@dataclass(frozen=True, slots=True)
class Reveal:
    """The Seeker cards a player shows for the Snitch (sorted card ids; empty is allowed)."""
    cards: tuple[str, ...]


SKIP = Manoeuvre("skip")
END = EndPlays()
ACCEPT = Accept()
DECLINE = Decline()


@dataclass(frozen=True, slots=True)
class InPlay:
    """A Thing on the table. `uid` tells copies apart; targets are fixed when it is played."""
    uid: int
    card: str
    owner: int
    player: int | None = None
    thing: int | None = None


@dataclass(frozen=True, slots=True)
class CardFacts:
    id: str
    code: str
    name: str
    kind: str  # thing / action / seeker
    subtype: str  # "player", "broomstick", "response", "" ...
    props: Mapping[str, Any]

    @property
    def speed(self) -> int:
        return int(self.props.get("speed", 0))


# Which rule a wrong answer at each kind of decision breaks, when nothing more precise applies.
STEP_RULES = {
    "play": "qv2.turn.plays",
    "manoeuvre": "qv2.manoeuvre.general",
    "saved": "qv2.response.saved",
    "pass": "qv2.response.pass",
    "blag": "qv2.response.blagging",
    "block": "card:blistering-speed",
    "penalty_save": "card:penalty",
    "quiet": "card:its-all-gone-quiet",
    "captain": "card:competitive-captain",
    "rain_pick": "card:rain",
    "penalty_to": "card:playing-tough",
    "reveal": "qv2.snitch.seekers",
    "end": "qv2.turn.end",
    "draw": "qv2.turn.draw",
    "roll": "qv2.components.extras",
    "coin": "qv2.components.extras",
    "first": "qv2.setup.deal",
    "random_discard": "card:powerful-beater",
}


def seat_name(seat: int) -> str:
    return f"P{seat + 1}"


# ------------------------------------------------------------------------------ the game

class QuidditchV2Game(Game):
    """The Quidditch v2 Dvorak deck for 2-6 players."""

    id = "quidditch-v2"
    min_players = 2
    max_players = 6
    defaults = {
        "hand_size": 5,
        "goal_points": 10,
        "snitch_points": 150,
        "score_margin": 4,
        "bludger_margin": 3,
        "search_reveal": 5,
        "turn_cap": 150,
        "revealed_seekers": "discard",
        "snitch_start": "discard",
    }

    def __init__(self, deck, params=None):
        super().__init__(deck, params)
        for key in ("hand_size", "goal_points", "snitch_points", "score_margin", "bludger_margin",
                    "search_reveal", "turn_cap"):
            value = self.params[key]
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise DeckgenError(f"{deck.source}: [engine] {key} must be a whole number of at least 1, not {value!r}")
        for key, allowed in (("revealed_seekers", ("discard", "return")), ("snitch_start", ("discard", "draw"))):
            if self.params[key] not in allowed:
                raise DeckgenError(f"{deck.source}: [engine] {key} must be one of {', '.join(allowed)}, "
                                   f"not {self.params[key]!r}")
        ids = {card.id for card in deck.cards}
        missing = sorted(KNOWN_CARDS - ids)
        if missing:
            raise DeckgenError(f"deck {deck.id!r} lacks cards the quidditch-v2 engine needs: {', '.join(missing)}")
        unknown = sorted(ids - KNOWN_CARDS)
        if unknown:
            raise DeckgenError(f"deck {deck.id!r} has cards the quidditch-v2 engine has no rules for: {', '.join(unknown)}")
        self.facts: dict[str, CardFacts] = {}
        for card in deck.cards:
            subtype = card.type_line.split(" - ", 1)[1].strip().lower() if " - " in card.type_line else ""
            self.facts[card.id] = CardFacts(card.id, card.code, card.name, card.kind, subtype, dict(card.props))
        self.counts = {card.id: card.count for card in deck.cards}
        self.seekers = frozenset(c for c, f in self.facts.items() if f.kind == "seeker")
        self.brooms = frozenset(c for c, f in self.facts.items() if f.subtype == "broomstick")
        self.player_cards = frozenset(c for c, f in self.facts.items() if f.subtype == "player")

    def new_state(self, num_players: int) -> "QuidditchV2State":
        self.check_players(num_players)
        return QuidditchV2State(self, num_players)

    def score_bounds(self, num_players: int) -> tuple[int, int]:
        turns = self.params["turn_cap"] * num_players
        return 0, self.params["snitch_points"] + self.params["goal_points"] * GOALS_PER_TURN_BOUND * turns

    def max_actions(self, num_players: int) -> int:
        setup = 1 + self.params["hand_size"] * num_players
        return setup + ACTIONS_PER_TURN_BOUND * self.params["turn_cap"] * num_players

    def code(self, card: str) -> str:
        return self.facts[card].code

    def format_action(self, state: GameState, action) -> str:
        assert isinstance(state, QuidditchV2State)
        return state.format_action(action)

    def parse_action(self, state: GameState, text: str):
        assert isinstance(state, QuidditchV2State)
        return state.parse_action(text)


# ------------------------------------------------------------------------------ the state

class QuidditchV2State(GameState):
    """One moment of a Quidditch v2 game. Seats are 0-based; logs call them P1..Pn."""

    def __init__(self, game: QuidditchV2Game, num_players: int):
        self.game = game
        self.params = game.params
        self.num_players = num_players
        self.draw: dict[str, int] = {}
        self.draw_total = 0
        for card, count in game.counts.items():
            if card != QUAFFLE and not (card == SNITCH and self.params["snitch_start"] == "discard"):
                self.draw[card] = count
                self.draw_total += count
        self.discard: list[str] = [SNITCH] if self.params["snitch_start"] == "discard" else []
        self.hands: list[dict[str, int]] = [{} for _ in range(num_players)]
        self.table: list[InPlay] = []
        self.flyhigh: InPlay | None = None
        self.outprob: InPlay | None = None
        self.next_uid = 1
        self.quaffle: int | None = None
        self.dom = [0] * num_players
        self.score = [0] * num_players
        self.revealed: list[str] = []  # Search: cards turned up, not yet discarded
        self.committed: dict[int, tuple[str, ...]] = {}  # Snitch: Seeker cards chosen, not yet shown
        self.snitch_zone: str | None = None  # "pitch" while resolving, "caught" once caught
        self.caught_by: int | None = None
        self.deferred: list[tuple[int, int]] = []  # Snitch-Blagging goals: (scorer, defender)
        self.out_of_game: dict[str, int] = {}  # only for hand-built positions
        self.active = 0
        self.turn_slots = 0
        self.own_turns = [0] * num_players
        self.missed = [0] * num_players
        self.feint_lock = [-1] * num_players  # locked out while own_turns <= this
        self.thing_played = False
        self.action_played = False
        self.no_bludger = False
        self.no_draw = False
        self.reshuffles = 0
        self.over = False
        self.end_reason = ""
        self.actions_applied = 0
        self._legal: tuple | None = None
        self.stack: list[tuple] = [("turn",), ("deal",), ("ask", "first", CHANCE)]

    # -- the GameState API ------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return self.stack[-1][2]

    def legal_actions(self) -> tuple:
        if self._legal is None:
            self._legal = () if self.over else self._legal_for(self.stack[-1])
        return self._legal

    def apply(self, action) -> None:
        if self.over:
            raise IllegalAction("the game is over", "qv2.end.snitch" if self.end_reason == "finished"
                                else "qv2.end.turn-cap", (), self.where())
        if not self._is_legal(action):
            raise self._illegal(action)
        frame = self.stack.pop()
        self._legal = None
        self.actions_applied += 1
        getattr(self, "_answer_" + frame[1])(action, *frame[2:])
        self._advance()

    def _is_legal(self, action) -> bool:
        frame = self.stack[-1]
        kind = frame[1]
        # Card draws are the most frequent actions: check them without listing every outcome.
        if kind == "draw":
            return type(action) is Draw and self.draw.get(action.card, 0) > 0
        if kind == "roll":
            return type(action) is Roll and 1 <= action.value <= 6
        return action in self.legal_actions()

    def sample_chance(self, rng: random.Random):
        frame = self.stack[-1]
        kind = frame[1]
        if kind == "draw":
            return Draw(_weighted(self.draw, self.draw_total, rng))
        if kind == "random_discard":
            hand = self.hands[frame[3]]
            return RandomPick(_weighted(hand, sum(hand.values()), rng))
        if kind == "roll":
            return Roll(rng.randint(1, 6))
        if kind == "coin":
            return Coin(rng.random() < 0.5)
        if kind == "first":
            return FirstPlayer(rng.randrange(self.num_players))
        raise ValueError("not a chance node")

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """Each chance action with its probability (for generic checks)."""
        frame = self.stack[-1]
        kind = frame[1]
        if kind in ("draw", "random_discard"):
            pile = self.draw if kind == "draw" else self.hands[frame[3]]
            total = sum(pile.values())
            make = Draw if kind == "draw" else RandomPick
            return [(make(card), pile[card] / total) for card in sorted(pile)]
        actions = self.legal_actions()
        return [(action, 1 / len(actions)) for action in actions]

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        best = max(self.score)
        winners = tuple(seat for seat, points in enumerate(self.score) if points == best)
        return Outcome(tuple(self.score), winners, self.end_reason)

    def summary(self) -> dict:
        return {
            "scores": list(self.score),
            "dominance": list(self.dom),
            "quaffle": "centre" if self.quaffle is None else seat_name(self.quaffle),
            "turns": self.turn_slots,
            "active": seat_name(self.active),
            "reshuffles": self.reshuffles,
            "snitch": ("caught by " + seat_name(self.caught_by)) if self.caught_by is not None else self._snitch_place(),
            "table": [self.thing_name(thing) for thing in self.table],
            "hand_sizes": [sum(hand.values()) for hand in self.hands],
            "draw_pile": self.draw_total,
            "discard_pile": len(self.discard),
        }

    def clone(self) -> "QuidditchV2State":
        other = copy.copy(self)
        other.draw = dict(self.draw)
        other.discard = list(self.discard)
        other.hands = [dict(hand) for hand in self.hands]
        other.table = list(self.table)
        other.dom = list(self.dom)
        other.score = list(self.score)
        other.revealed = list(self.revealed)
        other.committed = dict(self.committed)
        other.deferred = list(self.deferred)
        other.out_of_game = dict(self.out_of_game)
        other.own_turns = list(self.own_turns)
        other.missed = list(self.missed)
        other.feint_lock = list(self.feint_lock)
        other.stack = list(self.stack)
        return other

    def __deepcopy__(self, memo):
        return self.clone()

    # -- where things are ------------------------------------------------------------------

    def where(self) -> dict:
        step = "over" if self.over else self.stack[-1][1]
        actor = self.current_player()
        return {"turn": self.turn_slots, "active": seat_name(self.active), "step": step,
                "actor": "chance" if actor == CHANCE else ("-" if actor == TERMINAL else seat_name(actor))}

    def zone_counts(self) -> dict[str, int]:
        """How many copies of each card are where, summed over every zone (for invariants)."""
        counts: dict[str, int] = {}

        def add(card: str, n: int = 1) -> None:
            counts[card] = counts.get(card, 0) + n

        for pile in (self.draw, self.out_of_game, *self.hands):
            for card, n in pile.items():
                add(card, n)
        for card in itertools.chain(self.discard, self.revealed, *self.committed.values()):
            add(card)
        for thing in self.table:
            add(thing.card)
        add(QUAFFLE)
        if self.snitch_zone:
            add(SNITCH)
        return counts

    def _snitch_place(self) -> str:
        if self.snitch_zone == "pitch":
            return "being chased"
        if SNITCH in self.discard:
            return "discard pile"
        if self.draw.get(SNITCH):
            return "draw pile"
        for seat, hand in enumerate(self.hands):
            if hand.get(SNITCH):
                return "hand of " + seat_name(seat)
        return "turned up by a Search"

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    def thing(self, uid: int) -> InPlay | None:
        for thing in self.table:
            if thing.uid == uid:
                return thing
        return None

    def is_blank(self, thing: InPlay) -> bool:
        """Flying High blanks its chosen Thing while its controller has the Quaffle."""
        flyhigh = self.flyhigh
        return flyhigh is not None and flyhigh.thing == thing.uid and flyhigh.owner == self.quaffle

    def has(self, seat: int, card: str) -> bool:
        """Whether the seat controls a working (not blank) copy of the card."""
        return any(t.card == card and t.owner == seat and not self.is_blank(t) for t in self.table)

    def broom_speed(self, seat: int) -> int:
        """Speed of the seat's fastest broomstick in play (0 with none). Blank brooms keep speed."""
        brooms = self.game.brooms
        facts = self.game.facts
        return max((facts[t.card].speed for t in self.table if t.owner == seat and t.card in brooms), default=0)

    def opponents(self, seat: int) -> list[int]:
        """The other seats in turn order, starting on the seat's left."""
        n = self.num_players
        return [(seat + step) % n for step in range(1, n)]

    def locked_out(self, seat: int) -> bool:
        """Wronski Feint: no Search and no Snitch for the rest of this turn and the next three."""
        return self.own_turns[seat] <= self.feint_lock[seat]

    # -- hand-built positions (tests, puzzles) -----------------------------------------------

    def set_up_position(self, *, active: int = 0, hands: Sequence[Sequence[str]] = (),
                        table: Sequence[tuple] = (), draw: Sequence[str] | None = None,
                        discard: Sequence[str] | None = None, dominance: Sequence[int] | None = None,
                        scores: Sequence[int] | None = None, quaffle: int | None = None,
                        step: str = "plays", reshuffles: int = 1) -> None:
        """Replace this state by a position in the middle of `active`'s turn.

        Cards are given by code or id. `table` lists `(card, owner[, target])`, where a
        target is a seat number or the index of an earlier table entry. Cards not placed
        go to the draw pile (or, when `draw` is given, out of the game). `step` is where
        the turn resumes: "start", "draw", "plays", "manoeuvre", "end" or "hand_limit".
        """
        game = self.game
        remaining = dict(game.counts)
        remaining[QUAFFLE] -= 1

        def take(ref: str) -> str:
            card = game.deck.card(ref).id
            if remaining.get(card, 0) < 1:
                raise ValueError(f"no copy of {ref} left to place")
            remaining[card] -= 1
            return card

        n = self.num_players
        self.hands = [{} for _ in range(n)]
        for seat, cards in enumerate(hands):
            for ref in cards:
                card = take(ref)
                self.hands[seat][card] = self.hands[seat].get(card, 0) + 1
        self.table = []
        for entry in table:
            card, owner = take(entry[0]), entry[1]
            target = entry[2] if len(entry) > 2 else None
            player = target if card in OPPONENT_THINGS else None
            thing = self.table[target].uid if card == FLYHIGH and target is not None else None
            self.table.append(InPlay(len(self.table) + 1, card, owner, player, thing))
        self.next_uid = len(self.table) + 1
        self.discard = [take(ref) for ref in (discard or ())]
        self.draw = {}
        for ref in (draw or ()):
            card = take(ref)
            self.draw[card] = self.draw.get(card, 0) + 1
        leftover = {card: count for card, count in remaining.items() if count}
        if draw is None:
            for card, count in leftover.items():
                self.draw[card] = self.draw.get(card, 0) + count
            self.out_of_game = {}
        else:
            self.out_of_game = leftover
        self.draw_total = sum(self.draw.values())
        self.dom = list(dominance or [0] * n)
        self.score = list(scores or [0] * n)
        self.quaffle = quaffle
        self.active = active
        self.turn_slots = 1
        self.own_turns = [1] * n
        self.reshuffles = reshuffles
        self.thing_played = self.action_played = self.no_bludger = self.no_draw = False
        steps = {"draw": ("draw_step",), "plays": ("plays",), "manoeuvre": ("manoeuvre",),
                 "end": ("end_destroy",), "hand_limit": ("hand_limit",)}
        if step not in steps and step != "start":
            raise ValueError(f"unknown step {step!r}; known: start, {', '.join(steps)}")
        self._sync_watched()
        rest = [("draw_step",), ("blag_turn",), ("plays",), ("manoeuvre",), ("end_destroy",), ("hand_limit",),
                ("next",)]
        if step == "start":
            frames = [("start_one", uid) for uid in self._start_triggers(active)] + rest
        else:
            frames = rest[rest.index(steps[step]):]
        self.stack = list(reversed(frames))
        self.over = False
        self._legal = None
        self._advance()

    # -- running steps ---------------------------------------------------------------------

    def _push(self, *frames: tuple) -> None:
        """Queue steps to run next, in the order given."""
        self.stack.extend(reversed(frames))

    def _ask(self, kind: str, actor: int, *args) -> None:
        self.stack.append(("ask", kind, actor, *args))

    def _advance(self) -> None:
        stack = self.stack
        while stack and not self.over:
            self._check_outside_problems()
            top = stack[-1]
            if top[0] == "ask":
                return
            stack.pop()
            getattr(self, "_do_" + top[0])(*top[1:])

    def _finish(self, reason: str) -> None:
        self.over = True
        self.end_reason = reason
        self.stack.clear()
        self._legal = None

    def _gain(self, seat: int, amount: int) -> None:
        """Change dominance; it never drops below 0 (qv2.dominance.track)."""
        self.dom[seat] = max(0, self.dom[seat] + amount)

    def _check_outside_problems(self) -> None:
        """Outside Problems goes the moment its condition holds (qv2.ruling.outside-problems)."""
        thing = self.outprob
        if thing is not None and not self.is_blank(thing):
            target = thing.player
            if self.dom[target] == 0 or self.dom[target] > self.dom[thing.owner]:
                self._destroy(thing)

    def _sync_watched(self) -> None:
        """Remember the single Flying High and Outside Problems in play (the deck has one of each)."""
        self.flyhigh = next((t for t in self.table if t.card == FLYHIGH), None)
        self.outprob = next((t for t in self.table if t.card == OUTPROB), None)

    def _remove_from_table(self, thing: InPlay) -> None:
        self.table.remove(thing)
        if thing.card in (FLYHIGH, OUTPROB):
            self._sync_watched()

    def _destroy(self, thing: InPlay) -> None:
        self._remove_from_table(thing)
        self.discard.append(thing.card)

    def _take_from_hand(self, seat: int, card: str) -> None:
        hand = self.hands[seat]
        if hand[card] == 1:
            del hand[card]
        else:
            hand[card] -= 1

    def _to_hand(self, seat: int, card: str) -> None:
        hand = self.hands[seat]
        hand[card] = hand.get(card, 0) + 1

    def _discard_from_hand(self, seat: int, card: str) -> None:
        self._take_from_hand(seat, card)
        self.discard.append(card)

    def _reshuffle(self) -> None:
        """The discard pile becomes the draw pile (qv2.turn.draw)."""
        for card in self.discard:
            self.draw[card] = self.draw.get(card, 0) + 1
        self.draw_total += len(self.discard)
        self.discard = []
        self.reshuffles += 1

    # setup and the turn

    def _do_deal(self) -> None:
        seats = [self.active] + self.opponents(self.active)
        self._push(*[("draw", seat, "hand") for _ in range(self.params["hand_size"]) for seat in seats])

    def _do_draw(self, seat: int, dest: str) -> None:
        if not self.draw_total:
            self._reshuffle()
        if self.draw_total:  # both piles empty: nothing to draw (qv2.ruling.empty-piles)
            self._ask("draw", CHANCE, seat, dest)

    def _do_turn(self) -> None:
        if self.turn_slots >= self.params["turn_cap"] * self.num_players:
            self._finish("turn-cap")
            return
        self.turn_slots += 1
        self.thing_played = self.action_played = self.no_bludger = self.no_draw = False
        seat = self.active
        if self.missed[seat]:
            self.missed[seat] -= 1
            self._push(("next",))
            return
        self.own_turns[seat] += 1
        self._push(*[("start_one", uid) for uid in self._start_triggers(seat)], ("draw_step",), ("blag_turn",), ("plays",),
                   ("manoeuvre",), ("end_destroy",), ("hand_limit",), ("next",))

    def _do_next(self) -> None:
        self.active = (self.active + 1) % self.num_players
        self._push(("turn",))

    def _start_triggers(self, seat: int) -> list[int]:
        """Things that act at the start of this seat's turn, oldest first (qv2.turn.start)."""
        return [t.uid for t in self.table
                if t.card in START_OF_OWN_TURN and t.owner == seat
                or t.card in START_OF_TARGET_TURN and t.player == seat or t.card == RAIN]

    def _do_start_one(self, uid: int) -> None:
        thing = self.thing(uid)
        if thing is None or self.is_blank(thing):
            return
        seat, card, owner = self.active, thing.card, thing.owner
        props = self.game.facts[card].props
        if card == RAIN:
            self._ask("roll", CHANCE, "rain", uid)
        elif card in (OUTPROB, NERVES):
            if thing.player == seat:
                if card == OUTPROB:
                    self._gain(seat, props.get("start_dominance", -1))
                else:
                    self._ask("roll", CHANCE, "nerves", uid)
        elif owner != seat:
            return
        elif card == LPASS or card == FIREBOLT:
            self._gain(seat, props.get("start_dominance", 1))
        elif card == SUPPORT:
            if all(self.dom[seat] < self.dom[other] for other in self.opponents(seat)):
                self._gain(seat, props.get("start_dominance", 1))
        elif card == TOUGH:
            self._gain(seat, props.get("start_dominance", 1))
            self._ask("roll", CHANCE, "tough", uid)
        elif card == N2000:
            if not any(t.owner != seat and t.card in self.game.brooms for t in self.table):
                self._gain(seat, 1)
        elif card == N2001:
            own = self.game.facts[card].speed
            if not any(self.broom_speed(other) > own for other in self.opponents(seat)):
                self._gain(seat, 1)

    def _do_draw_step(self) -> None:
        if not self.no_draw:
            self._push(("draw", self.active, "hand"))

    def _do_blag_turn(self) -> None:
        holder = self._blag_holder()
        if holder is not None and holder != self.active:
            self._ask("blag", holder, "turn")

    def _blag_holder(self) -> int | None:
        for seat, hand in enumerate(self.hands):
            if hand.get(BLAG):
                return seat
        return None

    def _do_plays(self) -> None:
        if len(self._play_options(self.active)) > 1:
            self._ask("play", self.active)

    def _do_manoeuvre(self) -> None:
        if self._manoeuvre_options(self.active):
            self._ask("manoeuvre", self.active)

    def _do_end_destroy(self) -> None:
        if self._own_toughs(self.active):
            self._ask("end", self.active)

    def _own_toughs(self, seat: int) -> list[InPlay]:
        return [t for t in self.table if t.card == TOUGH and t.owner == seat and not self.is_blank(t)]

    def _do_hand_limit(self) -> None:
        if self.hand_size(self.active) > self.params["hand_size"]:
            self._push(("hand_limit",))
            self._ask("discard", self.active, "any", "qv2.turn.hand-limit")

    def _do_discard_n(self, seat: int, count: int, which: str, rule: str) -> None:
        if count > 0 and self._discardable(seat, which):
            self._push(("discard_n", seat, count - 1, which, rule))
            self._ask("discard", seat, which, rule)

    def _discardable(self, seat: int, which: str) -> list[str]:
        hand = self.hands[seat]
        if which == "seeker":
            return sorted(card for card in hand if card in self.game.seekers)
        if which == "broom":
            return sorted(card for card in hand if card in self.game.brooms)
        return sorted(hand)

    # goals and the Quaffle

    def _do_goal(self, scorer: int, defender: int) -> None:
        """A goal against `defender`: Saved, else Top Keeper, else it counts (qv2.goal.saves)."""
        if self.hands[defender].get(SAVED):
            self._ask("saved", defender, scorer)
        else:
            self._push(("keeper", scorer, defender))

    def _do_keeper(self, scorer: int, defender: int) -> None:
        if self.has(defender, KEEPER):
            self._ask("roll", CHANCE, "keeper", scorer, defender)
        else:
            self._push(("goal_counts", scorer))

    def _do_goal_counts(self, scorer: int) -> None:
        self.score[scorer] += self.params["goal_points"]
        for thing in list(self.table):
            if thing.card == NERVES and thing.player == scorer and not self.is_blank(thing):
                self._destroy(thing)
            elif thing.card == FLYHIGH and thing.owner == scorer:
                self._remove_from_table(thing)
                self._to_hand(scorer, FLYHIGH)
        self._push(("quaffle", None, scorer, True))

    def _do_quaffle(self, to: int | None, cause: int, passable: bool) -> None:
        """Move the Quaffle; its holder may answer with Pass if an opponent caused it."""
        holder = self.quaffle
        if holder == to:
            return
        if holder is not None and passable and holder != cause and self.hands[holder].get(PASS):
            self._ask("pass", holder, to)
        else:
            self.quaffle = to

    # the Snitch

    def _do_snitch(self, seat: int) -> None:
        self.snitch_zone = "pitch"
        order = [seat] + self.opponents(seat)
        self._push(("snitch_blag", seat), ("commits", tuple(order)), ("snitch_reveal",), ("deferred",),
                   ("caught_end",))

    def _do_snitch_blag(self, seat: int) -> None:
        holder = self._blag_holder()
        if holder is not None:
            self._ask("blag", holder, "snitch")

    def _do_commits(self, order: tuple[int, ...]) -> None:
        for index, seat in enumerate(order):
            if self._discardable(seat, "seeker"):
                self._push(("commits", order[index + 1:]))
                self._ask("reveal", seat)
                return

    def _do_snitch_reveal(self) -> None:
        nippy = self.game.facts[NIPPY].props.get("seeker_bonus", 1)
        totals = [len(self.committed.get(seat, ())) + (nippy if self.has(seat, NIPPY) else 0)
                  for seat in range(self.num_players)]
        for seat, cards in sorted(self.committed.items()):
            for card in cards:
                if self.params["revealed_seekers"] == "return":
                    self._to_hand(seat, card)
                else:
                    self.discard.append(card)
        self.committed = {}
        best = max(totals)
        catchers = [seat for seat, total in enumerate(totals) if total == best]
        if len(catchers) == 1:
            self.caught_by = catchers[0]
            self.score[catchers[0]] += self.params["snitch_points"]
            self.snitch_zone = "caught"
        else:
            self.snitch_zone = None
            self.discard.append(SNITCH)

    def _do_deferred(self) -> None:
        goals, self.deferred = self.deferred, []
        self._push(*[("goal", scorer, defender) for scorer, defender in goals])

    def _do_caught_end(self) -> None:
        if self.caught_by is not None:
            self._finish("finished")

    # card effects that run as steps

    def _do_quiet(self) -> None:
        best = max(self.score)
        leaders = [seat for seat, points in enumerate(self.score) if points == best]
        if len(leaders) == 1 and (self.draw_total or self.discard):
            self._ask("quiet", leaders[0])

    def _do_blister(self, seat: int, mine: int, seats: tuple[int, ...]) -> None:
        """Blistering Speed: opponents in turn order may discard a faster broom to stop it."""
        facts = self.game.facts
        for index, other in enumerate(seats):
            if any(facts[card].speed > mine for card in self._discardable(other, "broom")):
                self._ask("block", other, seat, mine, seats[index + 1:])
                return
        self._gain(seat, facts[BLISTER].props.get("dominance", 2))

    def _do_penalty(self, seat: int, defender: int, seats: tuple[int, ...]) -> None:
        """Penalty: opponents in turn order may discard two cards to stop it (qv2.ruling.penalty-card)."""
        needed = self.game.facts[PENALTY].props.get("save_discards", 2)
        for index, other in enumerate(seats):
            if self.hand_size(other) >= needed:
                self._ask("penalty_save", other, seat, defender, seats[index + 1:])
                return
        self._push(("goal", seat, defender))

    def _do_search_done(self, seat: int) -> None:
        revealed, self.revealed = self.revealed, []
        found = SNITCH in revealed
        self.discard.extend(card for card in revealed if card != SNITCH)
        if found:
            self._push(("snitch", seat))

    def _do_tough_penalty(self, owner: int) -> None:
        opponents = self.opponents(owner)
        if len(opponents) == 1:
            self._push(("goal", opponents[0], owner))
        else:
            self._ask("penalty_to", owner)

    # -- answers to asks -------------------------------------------------------------------

    def _answer_first(self, action: FirstPlayer, _chance: int) -> None:
        self.active = action.seat

    def _answer_draw(self, action: Draw, _chance: int, seat: int, dest: str) -> None:
        card = action.card
        self.draw[card] -= 1
        if not self.draw[card]:
            del self.draw[card]
        self.draw_total -= 1
        if dest == "hand":
            self._to_hand(seat, card)
        else:
            self.revealed.append(card)

    def _answer_random_discard(self, action: RandomPick, _chance: int, seat: int) -> None:
        self._discard_from_hand(seat, action.card)

    def _answer_roll(self, action: Roll, _chance: int, purpose: str, *args) -> None:
        value = action.value
        facts = self.game.facts
        seat = self.active
        if purpose == "tough":
            thing = self.thing(args[0])
            if value in facts[TOUGH].props.get("foul_on", (1,)) and thing is not None:
                self._destroy(thing)
                self._push(("tough_penalty", thing.owner))
        elif purpose == "nerves":
            if value in facts[NERVES].props.get("no_draw_on", (1, 2)):
                self.no_draw = True
        elif purpose == "rain":
            props = facts[RAIN].props
            if value in props.get("pick_on", (1, 2, 3)):
                self._ask("rain_pick", seat)
            elif value in props.get("lose_on", (5, 6)):
                self._gain(seat, -1)
                thing = self.thing(args[0])
                if value in props.get("destroy_on", (6,)) and thing is not None:
                    self._destroy(thing)
        elif purpose == "keeper":
            scorer, defender = args
            if value in facts[KEEPER].props.get("save_on", (5, 6)):
                self._push(("quaffle", defender, defender, True))
            else:
                self._push(("goal_counts", scorer))

    def _answer_coin(self, action: Coin, _chance: int, seat: int) -> None:
        props = self.game.facts[TRICK].props
        if action.heads:
            lowest = all(self.dom[seat] < self.dom[other] for other in self.opponents(seat))
            self._gain(seat, props.get("heads", 2) + (props.get("lowest_bonus", 2) if lowest else 0))
        else:
            self._gain(seat, props.get("tails", 1))

    def _answer_play(self, action, seat: int) -> None:
        if isinstance(action, EndPlays):
            return
        self._push(("plays",))
        self._play_card(seat, action)

    def _answer_manoeuvre(self, action: Manoeuvre, seat: int) -> None:
        kind, target = action.kind, action.target
        if kind == "skip":
            return
        self._gain(seat, -1)
        if kind == "score":
            self._gain(seat, -1)
            self._push(("goal", seat, target))
        elif kind == "bludger":
            if not self.hands[target]:
                return
            if action.random:
                self._ask("random_discard", CHANCE, target)
            else:
                self._push(("discard_n", target, 1, "any", "qv2.manoeuvre.bludger"))
        elif kind == "snatch":
            self._push(("quaffle", seat, seat, True))
        elif kind == "outfly":
            self._gain(target, -1)
            self._gain(seat, 1)
            if self.has(seat, CAPTAIN):
                self._ask("captain", seat)
        elif kind == "search":
            self._push(*[("draw", seat, "reveal")] * self.params["search_reveal"], ("search_done", seat))

    def _answer_discard(self, action: Discard, seat: int, which: str, rule: str) -> None:
        self._discard_from_hand(seat, action.card)

    def _answer_saved(self, action, defender: int, scorer: int) -> None:
        if isinstance(action, Decline):
            self._push(("keeper", scorer, defender))
            return
        self._discard_from_hand(defender, SAVED)
        self._gain(scorer, -self.game.facts[SAVED].props.get("dominance_loss", 1))
        self._push(("quaffle", defender, defender, True))

    def _answer_pass(self, action, holder: int, to: int | None) -> None:
        if isinstance(action, Decline):
            self.quaffle = to
        else:
            self._discard_from_hand(holder, PASS)

    def _answer_blag(self, action, holder: int, moment: str) -> None:
        if isinstance(action, Decline):
            return
        self._discard_from_hand(holder, BLAG)
        self._blagging(holder, action.player, deferred=(moment == "snitch"))

    def _blagging(self, seat: int, target: int, deferred: bool) -> None:
        discards = self.game.facts[BLAG].props.get("discards", 2)
        if deferred:
            self.deferred.append((target, seat))
            self._push(("discard_n", target, discards, "any", "card:blagging"))
        else:
            self._push(("discard_n", target, discards, "any", "card:blagging"), ("goal", target, seat))

    def _answer_block(self, action, defender: int, seat: int, mine: int, rest: tuple[int, ...]) -> None:
        if isinstance(action, Decline):
            self._push(("blister", seat, mine, rest))
        else:
            self._discard_from_hand(defender, action.card)

    def _answer_penalty_save(self, action, other: int, seat: int, defender: int, rest: tuple[int, ...]) -> None:
        if isinstance(action, Decline):
            self._push(("penalty", seat, defender, rest))
        else:
            needed = self.game.facts[PENALTY].props.get("save_discards", 2)
            self._push(("discard_n", other, needed, "any", "card:penalty"))

    def _answer_quiet(self, action, leader: int) -> None:
        if isinstance(action, Accept):
            self._push(("draw", leader, "hand"))

    def _answer_captain(self, action, seat: int) -> None:
        if isinstance(action, Accept):
            props = self.game.facts[CAPTAIN].props
            self._push(*[("draw", seat, "hand")] * props.get("draw", 2),
                       ("discard_n", seat, props.get("discard", 2), "any", "card:competitive-captain"))

    def _answer_rain_pick(self, action, seat: int) -> None:
        if isinstance(action, Pick):
            self._gain(action.seat, -1)

    def _answer_penalty_to(self, action: Pick, owner: int) -> None:
        self._push(("goal", action.seat, owner))

    def _answer_end(self, action, seat: int) -> None:
        if isinstance(action, Destroy):
            self._destroy(self.thing(action.thing))
            self._push(("end_destroy",))

    def _answer_reveal(self, action: Reveal, seat: int) -> None:
        for card in action.cards:
            self._take_from_hand(seat, card)
        self.committed[seat] = action.cards

    # -- playing a card ----------------------------------------------------------------------

    def _play_card(self, seat: int, action: Play) -> None:
        card = action.card
        facts = self.game.facts[card]
        props = facts.props
        self._take_from_hand(seat, card)
        if facts.kind == "thing":
            self.thing_played = True
            if card == SNITCH:
                self._push(("snitch", seat))
                return
            if card in self.game.brooms:
                for old in [t for t in self.table if t.owner == seat and t.card in self.game.brooms]:
                    if not self.is_blank(old):
                        self._destroy(old)
            self.table.append(InPlay(self.next_uid, card, seat, action.player, action.thing))
            self.next_uid += 1
            if card in (FLYHIGH, OUTPROB):
                self._sync_watched()
            return
        self.action_played = True
        self.discard.append(card)
        target = action.player
        if card in (SWEEP, WEAVE):
            self._gain(seat, props.get("dominance", 1))
        elif card == QUIET:
            self._gain(seat, props.get("dominance", 1))
            self._push(("quiet",))
        elif card == TRICK:
            self._ask("coin", CHANCE, seat)
        elif card == TACBLUD:
            self.dom[target] = (self.dom[target] + 1) // 2
        elif card == BLISTER:
            mine = self.broom_speed(seat)
            if not any(self.broom_speed(other) > mine for other in self.opponents(seat)):
                self._push(("blister", seat, mine, tuple(self.opponents(seat))))
        elif card == DOPPLE:
            self._discard_from_hand(seat, action.cost)
            self.missed[target] += props.get("missed_turns", 1)
            self.no_bludger = True
        elif card == STUNNED:
            self._destroy(self.thing(action.thing))
        elif card == STRAYED:
            if self.quaffle is not None:
                self._push(("quaffle", (self.quaffle + 1) % self.num_players, seat, False))
        elif card == PENALTY:
            self._push(("penalty", seat, target, tuple(self.opponents(seat))))
        elif card == BLAG:
            self._blagging(seat, target, deferred=False)
        elif card == WRONSKI:
            self.feint_lock[seat] = self.own_turns[seat] + props.get("lockout_turns", 3)
            if self._discardable(target, "seeker"):
                self._push(("discard_n", target, props.get("seeker_discards", 2), "seeker", "card:wronski-feint"))
            else:
                self._gain(seat, -props.get("miss_penalty", 1))

    # -- legal actions -----------------------------------------------------------------------

    def _legal_for(self, frame: tuple) -> tuple:
        kind, actor, args = frame[1], frame[2], frame[3:]
        if kind == "draw":
            return tuple(Draw(card) for card in sorted(self.draw))
        if kind == "roll":
            return tuple(Roll(value) for value in range(1, 7))
        if kind == "coin":
            return (Coin(True), Coin(False))
        if kind == "first":
            return tuple(FirstPlayer(seat) for seat in range(self.num_players))
        if kind == "random_discard":
            return tuple(RandomPick(card) for card in sorted(self.hands[args[0]]))
        if kind == "play":
            return self._play_options(actor)
        if kind == "manoeuvre":
            return (*self._manoeuvre_options(actor), SKIP)
        if kind == "discard":
            return tuple(Discard(card) for card in self._discardable(actor, args[0]))
        if kind == "saved":
            return (Play(SAVED), DECLINE)
        if kind == "pass":
            return (Play(PASS), DECLINE)
        if kind == "blag":
            return (*(Play(BLAG, player=other) for other in self.opponents(actor)), DECLINE)
        if kind == "block":
            mine = args[1]
            return (*(Discard(card) for card in self._discardable(actor, "broom")
                      if self.game.facts[card].speed > mine), DECLINE)
        if kind in ("penalty_save", "quiet", "captain"):
            return (ACCEPT, DECLINE)
        if kind == "rain_pick":
            return (*(Pick(seat) for seat in range(self.num_players)), DECLINE)
        if kind == "penalty_to":
            return tuple(Pick(seat) for seat in self.opponents(actor))
        if kind == "end":
            return (*(Destroy(t.uid) for t in self._own_toughs(actor)), DECLINE)
        if kind == "reveal":
            hand = self.hands[actor]
            seekers = sorted(card for card in hand if card in self.game.seekers)
            options = []
            for counts in itertools.product(*(range(hand[card] + 1) for card in seekers)):
                options.append(Reveal(tuple(card for card, k in zip(seekers, counts) for _ in range(k))))
            return tuple(options)
        raise AssertionError(f"unknown decision {kind}")

    def _play_options(self, seat: int) -> tuple:
        options: list = []
        hand = self.hands[seat]
        game = self.game
        opponents = self.opponents(seat)
        for card in sorted(hand):
            kind = game.facts[card].kind
            if kind == "thing" and not self.thing_played:
                if card == SNITCH:
                    if not self.locked_out(seat):
                        options.append(Play(card))
                elif card == FLYHIGH:
                    options.extend(Play(card, thing=t.uid) for t in self.table)
                elif card in OPPONENT_THINGS:
                    options.extend(Play(card, player=other) for other in opponents)
                else:
                    options.append(Play(card))
            elif kind == "action" and not self.action_played and card not in RESPONSES:
                if card in OPPONENT_ACTIONS:
                    options.extend(Play(card, player=other) for other in opponents)
                elif card == DOPPLE:
                    costs = [c for c in sorted(hand) if c != DOPPLE or hand[c] > 1]
                    options.extend(Play(card, player=other, cost=cost) for other in opponents for cost in costs)
                elif card == STUNNED:
                    options.extend(Play(card, thing=t.uid) for t in self.table if t.card in game.player_cards)
                else:
                    options.append(Play(card))
        options.append(END)
        return tuple(options)

    def _manoeuvre_options(self, seat: int) -> list:
        dom = self.dom
        if dom[seat] < 1:
            return []
        options: list = []
        opponents = self.opponents(seat)
        facts = self.game.facts
        if self.quaffle == seat:
            margin = (facts[CRACK].props.get("score_margin", 3) if self.has(seat, CRACK)
                      else self.params["score_margin"])
            if dom[seat] >= 2 and all(dom[seat] - dom[other] >= margin for other in opponents):
                options.extend(Manoeuvre("score", other) for other in opponents)
        if not self.no_bludger:
            normal = self.params["bludger_margin"]
            accurate = facts[ACCBEAT].props.get("bludger_margin", 2) if self.has(seat, ACCBEAT) else None
            powerful = self.has(seat, POWBEAT)
            for other in opponents:
                lead = dom[seat] - dom[other]
                if lead >= normal:
                    if powerful:
                        options.append(Manoeuvre("bludger", other, random=True))
                    if not powerful or accurate is not None:
                        options.append(Manoeuvre("bludger", other))
                elif accurate is not None and lead >= accurate:
                    options.append(Manoeuvre("bludger", other))
        holder = self.quaffle
        if holder is None:
            options.append(Manoeuvre("snatch"))
        elif holder != seat:
            need = facts[SUREHAND].props.get("snatch_margin", 2) if self.has(holder, SUREHAND) else 1
            if dom[seat] - dom[holder] >= need:
                options.append(Manoeuvre("snatch"))
        options.extend(Manoeuvre("outfly", other) for other in opponents)
        if not self.locked_out(seat):
            options.append(Manoeuvre("search"))
        return options

    # -- explaining an illegal action --------------------------------------------------------

    def _illegal(self, action) -> IllegalAction:
        frame = self.stack[-1]
        kind, actor = frame[1], frame[2]
        legal = [self.format_action(a) for a in self.legal_actions()]
        try:
            text = self.format_action(action)
        except (KeyError, AttributeError, TypeError, IndexError):
            text = repr(action)
        message, rule = self._why_illegal(action, frame)
        who = "chance" if actor == CHANCE else seat_name(actor)
        return IllegalAction(f"{who}: {text!r} is not allowed here: {message}", rule, legal, self.where())

    def _why_illegal(self, action, frame: tuple) -> tuple[str, str]:
        kind, actor, args = frame[1], frame[2], frame[3:]
        facts = self.game.facts
        expected = _EXPECTED[kind]
        if not isinstance(action, expected):
            wanted = " or ".join(_ACTION_WORDS[t] for t in expected)
            return f"the game is waiting for {_DECISION_WORDS[kind]} ({wanted})", STEP_RULES.get(
                kind, args[1] if kind == "discard" else "qv2.turn.order")
        if kind == "draw":
            if action.card == SNITCH and self.reshuffles == 0:
                return "the Golden Snitch is in the discard pile until the first reshuffle", "qv2.setup.snitch"
            return f"{self._code(action.card)} is not in the draw pile", "qv2.turn.draw"
        if kind == "random_discard":
            return f"{self._code(action.card)} is not in {seat_name(args[0])}'s hand", "card:powerful-beater"
        if kind in ("roll", "coin", "first"):
            return "no such outcome", STEP_RULES[kind]
        if kind == "play":
            return self._why_play_illegal(action, actor)
        if kind == "manoeuvre":
            return self._why_manoeuvre_illegal(action, actor)
        if kind == "discard":
            which, rule = args
            if not self.hands[actor].get(action.card):
                return f"{seat_name(actor)} holds no {self._code(action.card)}", rule
            return f"only {which} cards can be discarded here", rule
        if kind == "reveal":
            return "only Seeker cards from the player's own hand can be shown", "qv2.snitch.seekers"
        if kind == "blag":
            if isinstance(action, Play) and action.card == BLAG:
                return "Blagging must target an opponent", "qv2.cards.targets"
            return "only Blagging can be played at this moment", "qv2.response.blagging"
        if kind in ("saved", "pass"):
            card = SAVED if kind == "saved" else PASS
            return f"only {facts[card].name} answers this", STEP_RULES[kind]
        if kind == "block":
            return "only a broomstick from hand faster than the player's own can stop it", "card:blistering-speed"
        if kind == "penalty_to":
            return "the penalty goal goes to an opponent", "qv2.cards.targets"
        if kind == "end":
            return "only your own Playing Tough may be destroyed now", "card:playing-tough"
        return "not one of the choices", STEP_RULES.get(kind, "qv2.turn.order")

    def _why_play_illegal(self, action, seat: int) -> tuple[str, str]:
        card = action.card
        facts = self.game.facts.get(card)
        if facts is None or not self.hands[seat].get(card):
            return f"{seat_name(seat)} holds no {self._code(card)}", "qv2.turn.plays"
        rule_card = "card:" + card
        if card == QUAFFLE:
            return "the Quaffle never leaves play", "qv2.quaffle.control"
        if facts.kind == "seeker":
            return "Seeker cards are never played, only shown for the Snitch", "qv2.snitch.seekers"
        if card in RESPONSES:
            return f"{facts.name} is played only in answer to its event", "qv2.response.general"
        if facts.kind == "thing" and self.thing_played:
            return "one Thing a turn, and one has been played", "qv2.turn.plays"
        if facts.kind == "action" and self.action_played:
            return "one Action a turn, and one has been played", "qv2.turn.plays"
        if card == SNITCH and self.locked_out(seat):
            return "Wronski Feint forbids playing the Snitch for now", "card:" + WRONSKI
        if card in OPPONENT_ACTIONS or card in OPPONENT_THINGS or card == DOPPLE:
            if action.player is None or action.player == seat or not 0 <= action.player < self.num_players:
                return f"{facts.name} needs an opponent as target", "qv2.cards.targets"
        if card == DOPPLE:
            hand = self.hands[seat]
            if action.cost is None or not hand.get(action.cost) or (action.cost == DOPPLE and hand[DOPPLE] < 2):
                return "another card from hand must be discarded to play it", rule_card
        if card == FLYHIGH:
            return "choose another Thing in play (not the Quaffle)", rule_card
        if card == STUNNED:
            return "choose a Player card in play", rule_card
        return "wrong target or extra choices for this card", rule_card

    def _why_manoeuvre_illegal(self, action: Manoeuvre, seat: int) -> tuple[str, str]:
        kind, target = action.kind, action.target
        dom = self.dom
        if kind not in ("score", "bludger", "snatch", "outfly", "search"):
            return f"no manoeuvre called {kind!r}", "qv2.manoeuvre.general"
        if dom[seat] < 1:
            return "a manoeuvre costs 1 dominance and there is none to pay", "qv2.manoeuvre.general"
        if kind in ("score", "bludger", "outfly") and (target is None or target == seat
                                                       or not 0 <= target < self.num_players):
            return f"{kind} needs an opponent as target", "qv2.cards.targets"
        if kind == "score":
            if self.quaffle != seat:
                return "only the player controlling the Quaffle can score", "qv2.manoeuvre.score"
            return "dominance must be far enough above every opponent's", (
                "card:" + CRACK if self.has(seat, CRACK) else "qv2.manoeuvre.score")
        if kind == "bludger":
            if self.no_bludger:
                return "Dopplebeater Defence was played this turn", "card:" + DOPPLE
            powerful, accurate = self.has(seat, POWBEAT), self.has(seat, ACCBEAT)
            lead = dom[seat] - dom[target]
            if action.random and not powerful:
                return "a random discard needs Powerful Beater", "card:" + POWBEAT
            if action.random and lead < self.params["bludger_margin"]:
                return "Accurate Beater's lower requirement cannot be combined with Powerful Beater", "card:" + ACCBEAT
            if not action.random and powerful and not accurate:
                return "with Powerful Beater the discard is random", "card:" + POWBEAT
            return "dominance must be far enough above the target's", "qv2.manoeuvre.bludger"
        if kind == "snatch":
            if self.quaffle == seat:
                return "you already control the Quaffle", "qv2.manoeuvre.snatch"
            if self.quaffle is not None and self.has(self.quaffle, SUREHAND):
                return "the holder's Sure-handed Chaser needs a lead of 2", "card:" + SUREHAND
            return "dominance must be higher than the holder's", "qv2.manoeuvre.snatch"
        if kind == "search":
            return "Wronski Feint forbids Search for now", "card:" + WRONSKI
        return "not one of the choices", "qv2.manoeuvre.general"

    # -- text form of actions ----------------------------------------------------------------

    def _code(self, card: str) -> str:
        facts = self.game.facts.get(card)
        return facts.code if facts else str(card)

    def thing_name(self, thing: InPlay) -> str:
        """`P2:TOUGH`, or `P2:TOUGH#2` when the controller has more than one in play."""
        same = [t.uid for t in self.table if t.owner == thing.owner and t.card == thing.card]
        name = f"{seat_name(thing.owner)}:{self._code(thing.card)}"
        return name + (f"#{same.index(thing.uid) + 1}" if len(same) > 1 else "")

    def format_action(self, action) -> str:
        code = self._code
        if isinstance(action, Draw):
            frame = self.stack[-1] if self.stack else ()
            if len(frame) > 4 and frame[1] == "draw" and frame[4] == "reveal":
                return f"turn {code(action.card)}"
            if len(frame) > 3 and frame[1] == "draw":
                return f"draw {code(action.card)} to {seat_name(frame[3])}"
            return f"draw {code(action.card)}"
        if isinstance(action, Roll):
            return f"roll {action.value}"
        if isinstance(action, Coin):
            return "coin heads" if action.heads else "coin tails"
        if isinstance(action, FirstPlayer):
            return f"first {seat_name(action.seat)}"
        if isinstance(action, RandomPick):
            return f"random {code(action.card)}"
        if isinstance(action, Play):
            words = ["play", code(action.card)]
            if action.player is not None:
                words.append(seat_name(action.player))
            if action.thing is not None:
                thing = self.thing(action.thing)
                words.append(self.thing_name(thing) if thing else f"#{action.thing}")
            if action.cost is not None:
                words += ["discarding", code(action.cost)]
            return " ".join(words)
        if isinstance(action, EndPlays):
            return "end"
        if isinstance(action, Manoeuvre):
            words = [action.kind]
            if action.target is not None:
                words.append(seat_name(action.target))
            if action.random:
                words.append("random")
            return " ".join(words)
        if isinstance(action, Discard):
            return f"discard {code(action.card)}"
        if isinstance(action, Accept):
            return "accept"
        if isinstance(action, Decline):
            return "decline"
        if isinstance(action, Pick):
            return f"pick {seat_name(action.seat)}"
        if isinstance(action, Destroy):
            thing = self.thing(action.thing)
            return "destroy " + (self.thing_name(thing) if thing else f"#{action.thing}")
        if isinstance(action, Reveal):
            return "reveal " + (" ".join(code(card) for card in action.cards) or "none")
        raise TypeError(f"not a quidditch-v2 action: {action!r}")

    def parse_action(self, text: str):
        words = text.split()
        if not words:
            raise ValueError("empty action")
        verb, rest = words[0].lower(), words[1:]
        if verb in ("draw", "turn"):
            if not rest:
                raise ValueError(f"{verb} needs a card")
            card = self._card(rest[0])
            if verb == "draw" and len(rest) == 3 and rest[1].lower() == "to":
                frame = self.stack[-1] if self.stack else ()
                seat = self._seat(rest[2])
                if len(frame) > 3 and frame[1] == "draw" and frame[3] != seat:
                    raise IllegalAction(f"the card is drawn by {seat_name(frame[3])}, not {rest[2]}",
                                        "qv2.turn.draw", [self.format_action(a) for a in self.legal_actions()],
                                        self.where())
            elif len(rest) != 1:
                raise ValueError(f"expected '{verb} CODE'")
            return Draw(card)
        if verb == "roll":
            value = _one(rest, "roll N")
            if not value.isdigit():
                raise ValueError("a roll is a number")
            return Roll(int(value))
        if verb == "coin":
            side = _one(rest, "coin heads|tails").lower()
            if side not in ("heads", "tails"):
                raise ValueError("a coin lands heads or tails")
            return Coin(side == "heads")
        if verb == "first":
            return FirstPlayer(self._seat(_one(rest, "first Pn")))
        if verb == "random":
            return RandomPick(self._card(_one(rest, "random CODE")))
        if verb == "play":
            return self._parse_play(rest)
        if verb == "end" and not rest:
            return END
        if verb in ("score", "bludger", "outfly"):
            if not rest or len(rest) > 2 or (len(rest) == 2 and (verb != "bludger" or rest[1].lower() != "random")):
                raise ValueError(f"expected '{verb} Pn'" + (" [random]" if verb == "bludger" else ""))
            return Manoeuvre(verb, self._seat(rest[0]), random=len(rest) == 2)
        if verb in ("snatch", "search", "skip") and not rest:
            return Manoeuvre(verb)
        if verb == "discard":
            return Discard(self._card(_one(rest, "discard CODE")))
        if verb == "accept" and not rest:
            return ACCEPT
        if verb == "decline" and not rest:
            return DECLINE
        if verb == "pick":
            return Pick(self._seat(_one(rest, "pick Pn")))
        if verb == "destroy":
            return Destroy(self._thing_ref(_one(rest, "destroy Pn:CODE")))
        if verb == "reveal":
            if rest == ["none"]:
                return Reveal(())
            if not rest:
                raise ValueError("expected 'reveal CODE...' or 'reveal none'")
            return Reveal(tuple(sorted(self._card(word) for word in rest)))
        raise ValueError(f"unknown action {text!r}")

    def _parse_play(self, words: list[str]) -> Play:
        if not words:
            raise ValueError("play needs a card")
        card = self._card(words[0])
        player = thing = cost = None
        rest = words[1:]
        if len(rest) >= 2 and rest[-2].lower() == "discarding":
            cost = self._card(rest[-1])
            rest = rest[:-2]
        if len(rest) > 1:
            raise ValueError("expected 'play CODE [Pn | Pn:CODE] [discarding CODE]'")
        if rest:
            if ":" in rest[0]:
                thing = self._thing_ref(rest[0])
            else:
                player = self._seat(rest[0])
        return Play(card, player, thing, cost)

    def _card(self, ref: str) -> str:
        card = self.game.deck.find_card(ref)
        if card is None:
            raise ValueError(f"no card {ref!r} in this deck")
        return card.id

    def _seat(self, ref: str) -> int:
        if len(ref) >= 2 and ref[0] in "pP" and ref[1:].isdigit() and 1 <= int(ref[1:]) <= self.num_players:
            return int(ref[1:]) - 1
        raise ValueError(f"no player {ref!r}; players are P1..P{self.num_players}")

    def _thing_ref(self, ref: str) -> int:
        owner_text, _, card_text = ref.partition(":")
        card_text, _, index_text = card_text.partition("#")
        owner, card = self._seat(owner_text), self._card(card_text)
        matches = [t for t in self.table if t.owner == owner and t.card == card]
        index = int(index_text) - 1 if index_text.isdigit() else 0
        if not 0 <= index < len(matches):
            raise IllegalAction(f"there is no {ref} in play", "qv2.cards.targets",
                                [self.format_action(a) for a in self.legal_actions()], self.where())
        return matches[index].uid


# What answers each decision takes, and how to say it in messages.
_EXPECTED = {
    "draw": (Draw,), "roll": (Roll,), "coin": (Coin,), "first": (FirstPlayer,), "random_discard": (RandomPick,),
    "play": (Play, EndPlays), "manoeuvre": (Manoeuvre,), "discard": (Discard,),
    "saved": (Play, Decline), "pass": (Play, Decline), "blag": (Play, Decline), "block": (Discard, Decline),
    "penalty_save": (Accept, Decline), "quiet": (Accept, Decline), "captain": (Accept, Decline),
    "rain_pick": (Pick, Decline), "penalty_to": (Pick,), "end": (Destroy, Decline), "reveal": (Reveal,),
}
_ACTION_WORDS = {
    Draw: "draw", Roll: "roll", Coin: "coin", FirstPlayer: "first", RandomPick: "random", Play: "play",
    EndPlays: "end", Manoeuvre: "a manoeuvre or skip", Discard: "discard", Accept: "accept",
    Decline: "decline", Pick: "pick", Destroy: "destroy", Reveal: "reveal",
}
_DECISION_WORDS = {
    "draw": "the card drawn", "roll": "a die roll", "coin": "a coin flip", "first": "the first player",
    "random_discard": "a random discard", "play": "a card to play or 'end'", "manoeuvre": "the manoeuvre step",
    "discard": "a discard", "saved": "an answer to a goal", "pass": "an answer to losing the Quaffle",
    "blag": "a chance to play Blagging", "block": "a chance to stop Blistering Speed",
    "penalty_save": "a chance to stop a Penalty", "quiet": "a chance to draw",
    "captain": "Competitive Captain's draw", "rain_pick": "Rain's choice of player",
    "penalty_to": "who gets the penalty goal", "end": "the end-of-turn step", "reveal": "Seeker cards to show",
}


def _weighted(pile: Mapping[str, int], total: int, rng: random.Random) -> str:
    point = rng.randrange(total)
    for card in sorted(pile):
        point -= pile[card]
        if point < 0:
            return card
    raise AssertionError("pile total out of step")


def _one(words: list[str], form: str) -> str:
    if len(words) != 1:
        raise ValueError(f"expected '{form}'")
    return words[0]
