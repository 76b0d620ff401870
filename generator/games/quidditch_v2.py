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
from bisect import bisect_left
import random
import re
from typing import Any, Iterator, Mapping, Sequence

from ..errors import DeckgenError
from .base import CHANCE, TERMINAL, Game, GameState, IllegalAction, Outcome, Pending
from .bots import HeuristicBot
from .logs import Entry, GameLog, LogStep, field_path
from .quidditch_v2_cards import (
    draw_of, manoeuvre_of, play_of,
    ACCBEAT, ACCEPT, BLAG, CAPTAIN, CRACK, DECLINE, DOPPLE, END, FLYHIGH, KEEPER, KNOWN_CARDS, NERVES, NIPPY,
    OPPONENT_ACTIONS, OPPONENT_THINGS, PASS, POWBEAT, QUAFFLE, RESPONSES, SAVED, SKIP, SNITCH,
    STUNNED, SUREHAND, WRONSKI, Accept, CardEffects, CardFacts, Coin, Decline, Destroy, Discard, Draw, EndPlays,
    FirstPlayer, InPlay, Manoeuvre, Pick, Play, RandomPick, Reveal, Roll,
)

CHANCE_VERBS = frozenset({"draw", "turn", "roll", "coin", "first", "random"})
_NAME = re.compile(r"[^\s:]+")
_SEAT = re.compile(r"[Pp]\d+")

# The steps of a turn after the start-of-turn effects (qv2.turn.order).
_TURN_STEPS = (("draw_step",), ("blag_turn",), ("plays",), ("manoeuvre",), ("end_destroy",), ("hand_limit",),
               ("next",))

_TURN_STEPS_REVERSED = tuple(reversed(_TURN_STEPS))

# Upper bounds used to declare score bounds and game length.
GOALS_PER_TURN_BOUND = 10
ACTIONS_PER_TURN_BOUND = 300

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


RESPONSE_RULES = {SAVED: "qv2.response.saved", PASS: "qv2.response.pass", BLAG: "qv2.response.blagging"}


def _owed_response(state: "QuidditchV2State") -> tuple[int, str] | None:
    """(seat, decision kind) when the game waits for an answer from someone whose turn it is not."""
    if state.over or not state.stack:
        return None
    frame = state.stack[-1]
    seat = frame[2]
    if seat < 0 or seat == state.active or frame[1] not in STEP_RULES:
        return None
    return seat, frame[1]


def seat_name(seat: int) -> str:
    """A seat as logs write it when players have no names."""
    return f"P{seat + 1}"


# ------------------------------------------------------------------------------ the game

# Card props that name something; those ending in "_on" list die faces; every other is a number.
_NAMING_PROPS = ("role", "ball", "response")


def _check_props(deck, card) -> None:
    """A card's props as the card effects read them, or an error naming the card and prop."""
    for key, value in card.props.items():
        where = f"{deck.source}: card {card.name!r} ({card.code}) props.{key}"
        if key in _NAMING_PROPS:
            if not isinstance(value, str):
                raise DeckgenError(f"{where} must be text, not {value!r}")
        elif key.endswith("_on"):
            if not isinstance(value, list) or not all(type(face) is int and 1 <= face <= 6 for face in value):
                raise DeckgenError(f"{where} must list die faces 1-6, e.g. [5, 6], not {value!r}")
        elif type(value) is not int or not -100 <= value <= 100:
            raise DeckgenError(f"{where} must be a whole number from -100 to 100, not {value!r}")


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
            raise DeckgenError(f"deck {deck.id!r} has cards the quidditch-v2 engine has no rules for: "
                               f"{', '.join(unknown)}")
        self.facts: dict[str, CardFacts] = {}
        for card in deck.cards:
            _check_props(deck, card)
            subtype = card.type_line.split(" - ", 1)[1].strip().lower() if " - " in card.type_line else ""
            self.facts[card.id] = CardFacts(card.id, card.code, card.name, card.kind, subtype, dict(card.props))
        self.counts = {card.id: card.count for card in deck.cards}
        self.seekers = frozenset(c for c, f in self.facts.items() if f.kind == "seeker")
        self.brooms = frozenset(c for c, f in self.facts.items() if f.subtype == "broomstick")
        self.player_cards = frozenset(c for c, f in self.facts.items() if f.subtype == "player")
        self.kind_of = {card: facts.kind for card, facts in self.facts.items()}  # read on every play step

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

    # -- game logs (docs/game-logs.md) ---------------------------------------------------------

    log_sections = ("setup", "turns")

    def log_steps(self, log: GameLog, state: GameState) -> Iterator[LogStep]:
        """`[setup] actions = [...]`, then `[[turns]]` with `player` and `actions`: one string per
        action, `"NAME: ACTION"` for a player's decision and the bare action for chance."""
        for index, name in enumerate(log.players):
            if not _NAME.fullmatch(name):
                raise log.error(field_path("players", index), f"player name {name!r} cannot be used in actions",
                                hint="quidditch-v2 logs need one-word names without ':'")
            if _SEAT.fullmatch(name) and name.upper() != seat_name(index):
                raise log.error(field_path("players", index), f"{name!r} would be read as another seat",
                                hint=f"name the player at seat {index + 1} {seat_name(index)} or a word")
        setup = log.root.table("setup", None)
        if setup is not None:
            setup.check_keys(("actions",))
            yield from self._log_actions(log, state, setup, None)
        for entry in log.sections("turns", required=False):
            entry.check_keys(("player", "actions"))
            seat = log.seat(entry.get("player", str, what="player (whose turn it is)"), entry.at("player"))
            yield from self._log_actions(log, state, entry, seat)

    def _log_actions(self, log: GameLog, state: GameState, entry: Entry, turn_of: int | None) -> Iterator[LogStep]:
        assert isinstance(state, QuidditchV2State)
        lines = entry.get("actions", list, what="actions (a list of strings)")
        for index, raw in enumerate(lines):
            field = field_path(entry.at("actions"), index)
            text = log.check_type(raw, str, field, "an action")
            name, said, action_text = text.partition(": ")
            actor = log.seat(name.strip(), field) if said else None
            action_text = action_text.strip() if said else text.strip()
            is_chance = action_text.split(" ", 1)[0].lower() in CHANCE_VERBS
            if is_chance and actor is not None:
                raise log.error(field, f"{text!r}: chance events are written without a player's name")
            if not is_chance and actor is None:
                raise log.error(field, f"{text!r}: say who decides, e.g. \"{log.players[0]}: {text}\"")
            if actor is not None and state.current_player() == CHANCE and log.seed is None:
                self._refuse_unasked_response(log, state, actor, action_text, field)
            while actor is not None and state.current_player() == CHANCE:
                yield LogStep(None, field)  # chance the log leaves to its seed
            if state.is_terminal():
                rule = "qv2.end.turn-cap" if state.end_reason == "turn-cap" else "qv2.end.snitch"
                raise IllegalAction(f"{text!r} comes after the end of the game", rule,
                                    where={**state.where(), "field": field})
            if index == 0 and turn_of is not None and state.active != turn_of:
                owed = _owed_response(state)
                if owed is not None:
                    seat, kind = owed
                    raise IllegalAction(
                        f"this turn is {log.players[turn_of]}'s, but {log.players[seat]} still owes "
                        f"{_DECISION_WORDS[kind]} in {log.players[state.active]}'s turn", STEP_RULES[kind],
                        [state.format_action(a) for a in state.legal_actions()],
                        {**state.where(), "player": seat, "field": field})
                raise IllegalAction(
                    f"this turn is {log.players[turn_of]}'s, but it is still {log.players[state.active]}'s turn "
                    f"({_DECISION_WORDS[state.stack[-1][1]]})", "qv2.turn.order",
                    [state.format_action(a) for a in state.legal_actions()], {**state.where(), "field": field})
            try:
                action = state.parse_action(action_text)
            except ValueError as error:
                raise log.error(field, str(error), hint="see docs/game-logs.md for how actions are written") from None
            except IllegalAction as error:
                error.where["field"] = field
                raise
            expected = state.current_player()
            owed = _owed_response(state)
            if actor is not None and actor != expected and owed is not None:
                seat, kind = owed
                raise IllegalAction(
                    f"{log.players[seat]} owes {_DECISION_WORDS[kind]} before {log.players[actor]} acts "
                    f"({text!r} is written first)", STEP_RULES[kind],
                    [state.format_action(a) for a in state.legal_actions()],
                    {**state.where(), "player": seat, "field": field})
            if actor is not None and actor != expected:
                waiting = log.players[expected] if expected >= 0 else "chance"
                response = isinstance(action, Play) and action.card in RESPONSES
                raise IllegalAction(
                    f"{log.players[actor]} acts out of turn: the game is waiting for {waiting} "
                    f"({_DECISION_WORDS[state.stack[-1][1]]})",
                    "qv2.response.general" if response else "qv2.turn.order",
                    [state.format_action(a) for a in state.legal_actions()], {**state.where(), "field": field})
            yield LogStep(action, field)

    @staticmethod
    def _refuse_unasked_response(log: GameLog, state: "QuidditchV2State", actor: int, action_text: str,
                                 field: str) -> None:
        """A player's response card where only chance can come next (and no seed could fill it
        in): nothing asked for that answer, which breaks the response's rule."""
        try:
            action = state.parse_action(action_text)
        except (ValueError, IllegalAction):
            return
        if isinstance(action, Play) and action.card in RESPONSE_RULES:
            name = state.game.facts[action.card].name
            raise IllegalAction(f"{log.players[actor]} plays {name}, but nothing is waiting for that answer: "
                                f"the game is waiting for {_DECISION_WORDS[state.stack[-1][1]]}",
                                RESPONSE_RULES[action.card], [], {**state.where(), "player": actor, "field": field},
                                ruling="qv2.ruling.responses")

    def log_body(self, players: Sequence[str], actions: Sequence) -> dict:
        state = self.new_state(len(players))
        state.player_names = tuple(players)
        setup: list[str] = []
        turns: list[dict] = []
        turn = 0
        for action in actions:
            actor = state.current_player()
            text = state.format_action(action)
            line = text if actor == CHANCE else f"{players[actor]}: {text}"
            if not state.turn_slots:
                setup.append(line)
            else:
                if state.turn_slots != turn:
                    turn = state.turn_slots
                    turns.append({"player": players[state.active], "actions": []})
                turns[-1]["actions"].append(line)
            state.apply(action)
        return {"setup": {"actions": setup}, "turns": turns}

    # -- quick rulings (deckgen rule quidditch-v2 ...) -----------------------------------------

    def quick_ruling(self, question: Sequence[str]) -> dict:
        """`manoeuvres dominance D1 D2 ... [quaffle Pn|centre] [Pn CODE ...]... [dopplebeater] [feint]`:
        which manoeuvres P1 may choose in that position, and what bars the others."""
        tokens = [word for word in re.split(r"[\s,;]+", " ".join(question)) if word]
        if tokens and tokens[0].casefold() == "play":
            return self._play_question(tokens[1:])
        usage = ("ask: manoeuvres dominance D1 D2 [D3...] [quaffle Pn|centre] [Pn CODE CODE ...] "
                 "[dopplebeater] [feint]   (the question is asked for P1)")
        if not tokens or tokens[0].casefold() not in ("manoeuvres", "manoeuvre", "maneuvers", "maneuver"):
            raise DeckgenError(f"quidditch-v2 answers one question; {usage}")
        dominance: list[int] = []
        quaffle: int | None = None
        table: list[tuple[str, int]] = []
        flags: set[str] = set()
        owner = None
        rest = iter(tokens[1:])
        for word in rest:
            low = word.casefold()
            if low == "dominance":
                continue
            if low.isdigit() and not table and owner is None:
                dominance.append(int(low))
            elif low == "quaffle":
                where = next(rest, "").casefold()
                quaffle = None if where in ("centre", "center", "none") else _quick_seat(where, usage)
            elif _SEAT.fullmatch(low):
                owner = _quick_seat(low, usage)
            elif low in ("dopplebeater", "dopple", "feint", "wronski"):
                flags.add("feint" if low in ("feint", "wronski") else "dopplebeater")
            elif owner is not None and self.deck.find_card(word) is not None:
                table.append((self.deck.find_card(word).code, owner))
            else:
                raise DeckgenError(f"cannot read {word!r} in the question; {usage}")
        if not self.min_players <= len(dominance) <= self.max_players:
            raise DeckgenError(f"give one dominance per player, {self.min_players} to {self.max_players} numbers; "
                               f"{usage}")
        if quaffle is not None and quaffle >= len(dominance) or any(seat >= len(dominance) for _, seat in table):
            raise DeckgenError(f"there are only {len(dominance)} players (P1..P{len(dominance)})")
        state = self.new_state(len(dominance))
        position = ", ".join(f"P{seat + 1} {points}" for seat, points in enumerate(dominance))
        rules, rulings = ["qv2.manoeuvre.general"], ["qv2.ruling.thresholds"]
        if dominance[0] < 1:
            return {"question": "manoeuvres", "allowed": [], "answer": f"P1 cannot manoeuvre (dominance {position}).",
                    "reasons": ["every manoeuvre costs 1 dominance and P1 has none to pay"],
                    "rules": rules, "rulings": rulings}
        state.set_up_position(hands=[[] for _ in dominance], table=table, dominance=dominance, quaffle=quaffle,
                              step="manoeuvre")
        state.no_bludger = "dopplebeater" in flags
        if "feint" in flags:
            state.feint_lock[0] = state.own_turns[0] + 3
        state._legal = None
        legal = state.legal_actions()
        allowed = [state.format_action(action) for action in legal if action != SKIP]
        reasons = []
        targets = state.opponents(0)
        for kind in ("score", "bludger", "snatch", "outfly", "search"):
            asked = [Manoeuvre(kind, target) for target in targets] if kind in ("score", "bludger", "outfly") \
                else [Manoeuvre(kind)]
            if kind == "bludger" and state.has(0, POWBEAT):
                asked = [Manoeuvre(kind, target, random=True) for target in targets]
            for action in asked:
                if action in legal or (kind == "bludger" and Manoeuvre(kind, action.target) in legal):
                    continue
                message, rule, ruling = state._why_manoeuvre_illegal(action, 0)
                reasons.append(f"not {state.format_action(action)}: {message} [{rule}]")
                if not rule.startswith("card:") and rule not in rules:
                    rules.append(rule)
                if ruling and ruling not in rulings:
                    rulings.append(ruling)
        holder = "in the centre" if quaffle is None else f"with P{quaffle + 1}"
        answer = (f"With dominance {position} and the Quaffle {holder}, P1 may choose: "
                  f"{', '.join(allowed) or 'nothing'} (or no manoeuvre).")
        return {"question": "manoeuvres", "allowed": allowed, "answer": answer, "reasons": reasons,
                "rules": rules, "rulings": rulings}

    def _play_question(self, tokens: list[str]) -> dict:
        """`play CODE [Pn|Pn:CODE] hand CODE ... [dominance D1 D2 ...] [quaffle Pn|centre] [Pn CODE ...]`:
        may P1, in the play step of their turn, play this card (at that target)?"""
        usage = ("ask: play CODE [Pn | Pn:CODE] hand CODE ... [dominance D1 D2 ...] [quaffle Pn|centre] "
                 "[Pn CODE ...]   (P1 asks, in the play step of their turn; Pn CODE lists cards in play)")
        if not tokens or self.deck.find_card(tokens[0]) is None:
            raise DeckgenError(f"say the card first; {usage}")
        card = self.deck.find_card(tokens[0]).id
        rest = tokens[1:]
        # a target comes right after the card; `Pn CODE ...` (cards in play) only after `hand` or `dominance`
        target = rest.pop(0) if rest and _SEAT.fullmatch(rest[0].split(":")[0]) else None
        hand, table, dominance = [card], [], []
        quaffle: int | None = None
        mode, owner = "", None
        words = iter(rest)
        for word in words:
            low = word.casefold()
            if low in ("hand", "dominance"):
                mode = low
            elif low == "quaffle":
                where = next(words, "").casefold()
                quaffle = None if where in ("centre", "center", "none") else _quick_seat(where, usage)
                mode = ""
            elif _SEAT.fullmatch(low):
                owner, mode = _quick_seat(low, usage), "table"
            elif mode == "dominance" and low.lstrip("-").isdigit():
                dominance.append(int(low))
            elif mode in ("hand", "table") and self.deck.find_card(word) is not None:
                code = self.deck.find_card(word).id
                if mode == "hand":
                    hand.append(code)
                else:
                    table.append((code, owner))
            else:
                raise DeckgenError(f"cannot read {word!r} in the question; {usage}")
        if hand.count(card) > 1:  # the card was listed in the hand as well: count it once
            hand.remove(card)
        players = len(dominance) or 2
        if not self.min_players <= players <= self.max_players:
            raise DeckgenError(f"give one dominance per player, {self.min_players} to {self.max_players} numbers")
        state = self.new_state(players)
        try:
            state.set_up_position(hands=[hand] + [[] for _ in range(players - 1)], table=table,
                                  dominance=dominance or [0] * players, quaffle=quaffle, step="plays")
        except ValueError as error:
            raise DeckgenError(f"{error}; {usage}") from None
        state._legal = None
        plays = [action for action in state.legal_actions() if isinstance(action, Play)]
        wanted = [action for action in plays if action.card == card]
        text_target = None
        if target is not None:
            try:
                asked = state.parse_action(f"play {tokens[0]} {target}")
            except (ValueError, IllegalAction) as error:
                raise DeckgenError(f"{error}; {usage}") from None
            text_target = target
            wanted = [action for action in wanted if action == asked]
        else:
            asked = wanted[0] if wanted else Play(card)
        name = self.facts[card].name
        legal = [state.format_action(action) for action in plays]
        if wanted:
            shown = ", ".join(state.format_action(action) for action in wanted)
            return {"question": "play", "card": self.code(card), "allowed": True, "legal": legal,
                    "answer": f"Yes: P1 may play {name} now ({shown}).", "reasons": [],
                    "rules": ["qv2.turn.plays"], "rulings": []}
        message, rule, ruling = state._why_play_illegal(asked, 0)
        if rule == "card:" + card and text_target is None and any(a.card == card for a in plays):
            rule = "qv2.cards.targets"
        return {"question": "play", "card": self.code(card), "allowed": False, "legal": legal,
                "answer": f"No: P1 may not play {name}" + (f" at {text_target}" if text_target else "")
                          + f" now: {message}. Legal plays here: {', '.join(legal) or 'none'}.",
                "reasons": [], "rules": [rule], "rulings": [ruling] if ruling else []}

    def bot(self, kind: str, rng: random.Random):
        if kind == "heuristic":
            return QuidditchV2Bot(rng)
        return super().bot(kind, rng)

    def format_action(self, state: GameState, action) -> str:
        assert isinstance(state, QuidditchV2State)
        return state.format_action(action)

    def parse_action(self, state: GameState, text: str):
        assert isinstance(state, QuidditchV2State)
        return state.parse_action(text)


# ------------------------------------------------------------------------------ the state

class QuidditchV2State(CardEffects, GameState):
    """One moment of a Quidditch v2 game. Seats are 0-based; logs call them P1..Pn."""

    # Step and answer methods by name (`_do_<step>`, `_answer_<decision>`), filled in below the class.
    _steps: dict[str, Any] = {}
    _answers: dict[str, Any] = {}

    def __init__(self, game: QuidditchV2Game, num_players: int):
        self.game = game
        self.params = game.params
        self.num_players = num_players
        self.draw: dict[str, int] = {}
        self.draw_total = 0
        self.draw_order: list[str] | None = None  # the draw pile's cards, sorted; None: sort again
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
        self.round_ends: list[tuple] = []  # (round, scores, dominance, hand sizes, quaffle) per full round
        self._legal: tuple | None = None
        self.stack: list[tuple] = [("turn",), ("deal",), ("ask", "first", CHANCE)]

    # -- the GameState API ------------------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return self.stack[-1][2]

    def pending(self) -> Pending | None:
        if self.over:
            return None
        kind, seat = self.stack[-1][1], self.stack[-1][2]
        who = "chance" if seat == CHANCE else self.label(seat)
        turn = f" in {self.label(self.active)}'s turn" if self.turn_slots else " during the setup"
        return Pending(seat, f"{who}: {_DECISION_WORDS[kind]}{turn}", STEP_RULES.get(kind, "qv2.turn.order"))

    def table_view(self) -> dict:
        code = self._code
        hands = [sorted(code(card) for card, count in hand.items() for _ in range(count)) for hand in self.hands]
        areas = [{"title": f"{self.label(seat)} in play",
                  "cards": [code(thing.card) for thing in self.table if thing.owner == seat]}
                 for seat in range(self.num_players)]
        counters = {"Turn": self.turn_slots, "Quaffle": "centre" if self.quaffle is None else self.label(self.quaffle),
                    "Dominance": " / ".join(map(str, self.dom)), "Snitch": self._snitch_place(),
                    "Draw pile": self.draw_total, "Discard pile": len(self.discard),
                    "Top discard": code(self.discard[-1]) if self.discard else "-"}
        return {"hands": hands, "areas": areas, "counters": counters, "scores": list(self.score)}

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
        self._answers[frame[1]](self, action, *frame[2:])
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
            if self.draw_order is None:
                self.draw_order = sorted(self.draw)
            return draw_of(_weighted(self.draw, self.draw_total, rng, self.draw_order))
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
            "quaffle": "centre" if self.quaffle is None else self.label(self.quaffle),
            "turns": self.turn_slots,
            "active": self.label(self.active),
            "reshuffles": self.reshuffles,
            "snitch": self._snitch_place(),
            "table": [self.thing_name(thing) for thing in self.table],
            "hand_sizes": [sum(hand.values()) for hand in self.hands],
            "draw_pile": self.draw_total,
            "discard_pile": len(self.discard),
            "rounds": [self._round_table(*entry) for entry in self.round_ends],
        }

    def _round_table(self, number: int, complete: bool, scores, dominance, hands, quaffle) -> dict:
        title = f"After round {number}" if complete else f"Round {number}, when the game ended"
        return {"title": title, "columns": {
            "points": list(scores), "dominance": list(dominance), "hand": list(hands),
            "quaffle": ["yes" if seat == quaffle else "" for seat in range(self.num_players)]}}

    def _mark_round(self, complete: bool) -> None:
        number = (self.turn_slots - 1) // self.num_players + 1
        self.round_ends.append((number, complete, tuple(self.score), tuple(self.dom),
                                tuple(self.hand_size(seat) for seat in range(self.num_players)), self.quaffle))

    def clone(self) -> "QuidditchV2State":
        other = copy.copy(self)
        other.draw = dict(self.draw)
        other.draw_order = None
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
        other.round_ends = list(self.round_ends)
        return other

    def __deepcopy__(self, memo):
        return self.clone()

    # -- where things are ------------------------------------------------------------------

    def label(self, seat: int) -> str:
        """A seat as actions write it: the player's name in a log, else P1..Pn."""
        return self.player_names[seat] if self.player_names else seat_name(seat)

    def where(self) -> dict:
        """Round, turn, whose turn and the step, for error reports (the referee names the player)."""
        step = "game over" if self.over else _STEP_NAMES[self.stack[-1][1]]
        rounds = (self.turn_slots - 1) // self.num_players + 1 if self.turn_slots else 0
        return {"round": rounds, "turn": self.turn_slots, "player": self.active, "step": step}

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
        if self.caught_by is not None:
            return "caught by " + self.label(self.caught_by)
        if self.snitch_zone == "pitch":
            return "being chased"
        if SNITCH in self.discard:
            return "discard pile"
        if self.draw.get(SNITCH):
            return "draw pile"
        for seat, hand in enumerate(self.hands):
            if hand.get(SNITCH):
                return "hand of " + self.label(seat)
        return "turned up by a Search"

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    def thing(self, uid: int) -> InPlay | None:
        for thing in self.table:
            if thing.uid == uid:
                return thing
        return None

    def opponents(self, seat: int) -> tuple[int, ...]:
        """The other seats in turn order, starting on the seat's left."""
        return _OPPONENTS[self.num_players][seat]

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
        self.draw_order = None
        self.dom = list(dominance or [0] * n)
        self.score = list(scores or [0] * n)
        self.quaffle = quaffle
        self.active = active
        self.turn_slots = 1
        self.own_turns = [1] * n
        self.reshuffles = reshuffles
        self.thing_played = self.action_played = self.no_bludger = self.no_draw = False
        self.missed = [0] * n
        self.feint_lock = [-1] * n
        self.revealed, self.committed, self.deferred, self.round_ends = [], {}, [], []
        self.snitch_zone = self.caught_by = None
        steps = {"draw": ("draw_step",), "plays": ("plays",), "manoeuvre": ("manoeuvre",),
                 "end": ("end_destroy",), "hand_limit": ("hand_limit",)}
        if step not in steps and step != "start":
            raise ValueError(f"unknown step {step!r}; known: start, {', '.join(steps)}")
        self._sync_watched()
        rest = list(_TURN_STEPS)
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
        steps = self._steps
        while stack and not self.over:
            if self.outprob is not None:
                self._check_outside_problems()
            top = stack[-1]
            name = top[0]
            if name == "ask":
                return
            stack.pop()
            if len(top) == 1:
                steps[name](self)
            else:
                steps[name](self, *top[1:])

    def _finish(self, reason: str) -> None:
        if self.turn_slots:
            self._mark_round(complete=self.turn_slots % self.num_players == 0 and reason == "turn-cap")
        self.over = True
        self.end_reason = reason
        self.stack.clear()
        self._legal = None

    def _gain(self, seat: int, amount: int) -> None:
        """Change dominance; it never drops below 0 (qv2.dominance.track)."""
        self.dom[seat] = max(0, self.dom[seat] + amount)

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
        self.draw_order = None
        self.discard = []
        self.reshuffles += 1

    # setup and the turn

    def _do_deal(self) -> None:
        seats = (self.active, *self.opponents(self.active))
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
        if self.turn_slots and self.turn_slots % self.num_players == 0:
            self._mark_round(complete=True)
        self.turn_slots += 1
        self.thing_played = self.action_played = self.no_bludger = self.no_draw = False
        seat = self.active
        if self.missed[seat]:
            self.missed[seat] -= 1
            self._push(("next",))
            return
        self.own_turns[seat] += 1
        stack = self.stack
        stack.extend(_TURN_STEPS_REVERSED)
        triggers = self._start_triggers(seat)
        if triggers:
            stack.extend([("start_one", uid) for uid in reversed(triggers)])

    def _do_next(self) -> None:
        self.active = (self.active + 1) % self.num_players
        self._push(("turn",))

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
        options = self._play_options(self.active)
        if len(options) > 1:
            self._ask("play", self.active)
            self._legal = options  # nothing changes before the ask is answered

    def _do_manoeuvre(self) -> None:
        options = self._manoeuvre_options(self.active)
        if options:
            self._ask("manoeuvre", self.active)
            self._legal = (*options, SKIP)

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
        order = (seat, *self.opponents(seat))
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

    # the Search manoeuvre

    def _do_search_done(self, seat: int) -> None:
        revealed, self.revealed = self.revealed, []
        found = SNITCH in revealed
        self.discard.extend(card for card in revealed if card != SNITCH)
        if found:
            self._push(("snitch", seat))

    # -- answers to asks -------------------------------------------------------------------

    def _answer_first(self, action: FirstPlayer, _chance: int) -> None:
        self.active = action.seat

    def _answer_draw(self, action: Draw, _chance: int, seat: int, dest: str) -> None:
        card = action.card
        draw = self.draw
        draw[card] -= 1
        if not draw[card]:
            del draw[card]
            order = self.draw_order
            if order is not None:
                del order[bisect_left(order, card)]
        self.draw_total -= 1
        if dest == "hand":
            self._to_hand(seat, card)
        else:
            self.revealed.append(card)

    def _answer_random_discard(self, action: RandomPick, _chance: int, seat: int) -> None:
        self._discard_from_hand(seat, action.card)

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
            if self.has(seat, CAPTAIN) and (self.draw_total or self.discard):
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

    def _answer_reveal(self, action: Reveal, seat: int) -> None:
        for card in action.cards:
            self._take_from_hand(seat, card)
        self.committed[seat] = action.cards

    # -- legal actions -----------------------------------------------------------------------

    def _legal_for(self, frame: tuple) -> tuple:
        kind, actor, args = frame[1], frame[2], frame[3:]
        if kind == "draw":
            return tuple(map(draw_of, sorted(self.draw)))
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
            return (play_of(SAVED), DECLINE)
        if kind == "pass":
            return (play_of(PASS), DECLINE)
        if kind == "blag":
            return (*(play_of(BLAG, other) for other in self.opponents(actor)), DECLINE)
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
                options.extend(manoeuvre_of("score", other) for other in opponents)
        if not self.no_bludger:
            normal = self.params["bludger_margin"]
            accurate = facts[ACCBEAT].props.get("bludger_margin", 2) if self.has(seat, ACCBEAT) else None
            powerful = self.has(seat, POWBEAT)
            for other in opponents:
                lead = dom[seat] - dom[other]
                if lead >= normal:
                    if powerful:
                        options.append(manoeuvre_of("bludger", other, True))
                    if not powerful or accurate is not None:
                        options.append(manoeuvre_of("bludger", other))
                elif accurate is not None and lead >= accurate:
                    options.append(manoeuvre_of("bludger", other))
        holder = self.quaffle
        if holder is None:
            options.append(manoeuvre_of("snatch"))
        elif holder != seat:
            need = facts[SUREHAND].props.get("snatch_margin", 2) if self.has(holder, SUREHAND) else 1
            if dom[seat] - dom[holder] >= need:
                options.append(manoeuvre_of("snatch"))
        options.extend(manoeuvre_of("outfly", other) for other in opponents)
        if not self.locked_out(seat):
            options.append(manoeuvre_of("search"))
        return options

    # -- explaining an illegal action --------------------------------------------------------

    def _illegal(self, action) -> IllegalAction:
        frame = self.stack[-1]
        actor = frame[2]
        legal = [self.format_action(a) for a in self.legal_actions()]
        try:
            text = self.format_action(action)
        except (KeyError, AttributeError, TypeError, IndexError):
            text = repr(action)
        message, rule, ruling = self._why_illegal(action, frame)
        who = "chance" if actor == CHANCE else self.label(actor)
        return IllegalAction(f"{who}: {text!r} is not allowed here: {message}", rule, legal, self.where(), ruling)

    def _why_illegal(self, action, frame: tuple) -> tuple[str, str, str]:
        """(message, rule id or card:<id>, ruling id or "") for an action not in the legal list."""
        kind, actor, args = frame[1], frame[2], frame[3:]
        facts = self.game.facts
        expected = _EXPECTED[kind]
        if isinstance(action, Play) and kind != "play" and actor == self.active and action.card not in RESPONSES:
            # A play written after the play step: say why the card could not be played then.
            message, rule, ruling = self._why_play_illegal(action, actor)
            if not rule.startswith("card:" + action.card):
                return message, rule, ruling
            return "cards are played before the manoeuvre step, and that step is over", "qv2.turn.order", ""
        if not isinstance(action, expected):
            wanted = " or ".join(_ACTION_WORDS[t] for t in expected)
            rule = args[1] if kind == "discard" else STEP_RULES.get(kind, "qv2.turn.order")
            return f"the game is waiting for {_DECISION_WORDS[kind]} ({wanted})", rule, ""
        if kind == "draw":
            if action.card == SNITCH and self.reshuffles == 0:
                return ("the Golden Snitch lies in the discard pile until the first reshuffle", "qv2.setup.snitch",
                        "qv2.ruling.snitch-discard-pile")
            return f"{self._code(action.card)} is not in the draw pile", "qv2.turn.draw", ""
        if kind == "random_discard":
            return f"{self._code(action.card)} is not in {self.label(args[0])}'s hand", "card:" + POWBEAT, ""
        if kind in ("roll", "coin", "first"):
            return "no such outcome", STEP_RULES[kind], ""
        if kind == "play":
            return self._why_play_illegal(action, actor)
        if kind == "manoeuvre":
            return self._why_manoeuvre_illegal(action, actor)
        if kind == "discard":
            which, rule = args
            if not self.hands[actor].get(action.card):
                return f"{self.label(actor)} holds no {self._code(action.card)}", rule, ""
            return f"only {which} cards can be discarded here", rule, ""
        if kind == "reveal":
            return "only Seeker cards from the player's own hand can be shown", "qv2.snitch.seekers", ""
        if kind == "blag":
            if isinstance(action, Play) and action.card == BLAG:
                return "Blagging must target an opponent", "qv2.cards.targets", ""
            return "only Blagging can be played at this moment", "qv2.response.blagging", "qv2.ruling.blagging-any-time"
        if kind in ("saved", "pass"):
            card = SAVED if kind == "saved" else PASS
            return f"only {facts[card].name} answers this", STEP_RULES[kind], "qv2.ruling.responses"
        if kind == "block":
            return ("only a broomstick from hand faster than the player's own can stop it", "card:blistering-speed",
                    "qv2.ruling.blistering-speed")
        if kind == "penalty_to":
            return "the penalty goal goes to an opponent", "qv2.cards.targets", "qv2.ruling.penalty-receiver"
        if kind == "end":
            return "only your own Playing Tough may be destroyed now", "card:playing-tough", ""
        return "not one of the choices", STEP_RULES.get(kind, "qv2.turn.order"), ""

    def _why_play_illegal(self, action, seat: int) -> tuple[str, str, str]:
        card = action.card
        facts = self.game.facts.get(card)
        if facts is None or not self.hands[seat].get(card):
            return f"{self.label(seat)} holds no {self._code(card)}", "qv2.turn.plays", ""
        rule_card = "card:" + card
        if card == QUAFFLE:
            return "the Quaffle never leaves play", "qv2.quaffle.control", ""
        if facts.kind == "seeker":
            return ("Seeker cards are never played, only shown for the Snitch", "qv2.snitch.seekers",
                    "qv2.ruling.seeker-cards")
        if card in RESPONSES:
            return f"{facts.name} is played only in answer to its event", "qv2.response.general", "qv2.ruling.responses"
        if facts.kind == "thing" and self.thing_played:
            return "one Thing a turn, and one has been played", "qv2.turn.plays", ""
        if facts.kind == "action" and self.action_played:
            return "one Action a turn, and one has been played", "qv2.turn.plays", ""
        if card == SNITCH and self.locked_out(seat):
            return "Wronski Feint forbids playing the Snitch for now", "card:" + WRONSKI, "qv2.ruling.wronski"
        if card in OPPONENT_ACTIONS or card in OPPONENT_THINGS or card == DOPPLE:
            if action.player is None or action.player == seat or not 0 <= action.player < self.num_players:
                ruling = "qv2.ruling.wronski" if card == WRONSKI else ""
                return f"{facts.name} needs an opponent as target", "qv2.cards.targets", ruling
        if card == DOPPLE:
            hand = self.hands[seat]
            if action.cost is None or not hand.get(action.cost) or (action.cost == DOPPLE and hand[DOPPLE] < 2):
                return "another card from hand must be discarded to play it", rule_card, "qv2.ruling.dopplebeater"
        if card == FLYHIGH:
            return "choose another Thing in play (not the Quaffle)", rule_card, "qv2.ruling.flying-high"
        if card == STUNNED:
            return "choose a Player card in play", rule_card, "qv2.ruling.stunned"
        return "wrong target or extra choices for this card", rule_card, ""

    def _why_manoeuvre_illegal(self, action: Manoeuvre, seat: int) -> tuple[str, str, str]:
        kind, target = action.kind, action.target
        dom = self.dom
        thresholds = "qv2.ruling.thresholds"
        if kind not in ("score", "bludger", "snatch", "outfly", "search"):
            return f"no manoeuvre called {kind!r}", "qv2.manoeuvre.general", ""
        if dom[seat] < 1:
            return "a manoeuvre costs 1 dominance and there is none to pay", "qv2.manoeuvre.general", thresholds
        if kind in ("score", "bludger", "outfly") and (target is None or target == seat
                                                       or not 0 <= target < self.num_players):
            return f"{kind} needs an opponent as target", "qv2.cards.targets", ""
        if kind == "score":
            if self.quaffle != seat:
                return "only the player controlling the Quaffle can score", "qv2.manoeuvre.score", thresholds
            margin = "3" if self.has(seat, CRACK) else str(self.params["score_margin"])
            return (f"dominance must be at least {margin} above every opponent's", "qv2.manoeuvre.score", thresholds)
        if kind == "bludger":
            if self.no_bludger:
                return "Dopplebeater Defence was played this turn", "card:" + DOPPLE, ""
            powerful, accurate = self.has(seat, POWBEAT), self.has(seat, ACCBEAT)
            lead = dom[seat] - dom[target]
            if action.random and not powerful:
                return "a random discard needs Powerful Beater", "card:" + POWBEAT, "qv2.ruling.beaters"
            if action.random and accurate and lead < self.params["bludger_margin"]:
                return ("Accurate Beater's lower requirement cannot be combined with Powerful Beater",
                        "card:" + ACCBEAT, "qv2.ruling.beaters")
            if not action.random and powerful and not accurate:
                return "with Powerful Beater the discard is random", "card:" + POWBEAT, "qv2.ruling.beaters"
            return "dominance must be far enough above the target's", "qv2.manoeuvre.bludger", thresholds
        if kind == "snatch":
            if self.quaffle == seat:
                return "you already control the Quaffle", "qv2.manoeuvre.snatch", ""
            if self.quaffle is not None and self.has(self.quaffle, SUREHAND):
                return "the holder's Sure-handed Chaser needs a lead of 2", "card:" + SUREHAND, thresholds
            return "dominance must be higher than the holder's", "qv2.manoeuvre.snatch", thresholds
        if kind == "search":
            return "Wronski Feint forbids Search for now", "card:" + WRONSKI, "qv2.ruling.wronski"
        return "not one of the choices", "qv2.manoeuvre.general", ""

    # -- text form of actions ----------------------------------------------------------------

    def _code(self, card: str) -> str:
        facts = self.game.facts.get(card)
        return facts.code if facts else str(card)

    def thing_name(self, thing: InPlay) -> str:
        """`P2:TOUGH`, or `P2:TOUGH#2` when the controller has more than one in play."""
        same = [t.uid for t in self.table if t.owner == thing.owner and t.card == thing.card]
        name = f"{self.label(thing.owner)}:{self._code(thing.card)}"
        return name + (f"#{same.index(thing.uid) + 1}" if len(same) > 1 else "")

    def format_action(self, action) -> str:
        code = self._code
        if isinstance(action, Draw):
            frame = self.stack[-1] if self.stack else ()
            if len(frame) > 4 and frame[1] == "draw" and frame[4] == "reveal":
                return f"turn {code(action.card)}"
            if len(frame) > 3 and frame[1] == "draw":
                return f"draw {code(action.card)} to {self.label(frame[3])}"
            return f"draw {code(action.card)}"
        if isinstance(action, Roll):
            return f"roll {action.value}"
        if isinstance(action, Coin):
            return "coin heads" if action.heads else "coin tails"
        if isinstance(action, FirstPlayer):
            return f"first {self.label(action.seat)}"
        if isinstance(action, RandomPick):
            return f"random {code(action.card)}"
        if isinstance(action, Play):
            words = ["play", code(action.card)]
            if action.player is not None:
                words.append(self.label(action.player))
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
                words.append(self.label(action.target))
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
            return f"pick {self.label(action.seat)}"
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
                    raise IllegalAction(f"the card is drawn by {self.label(frame[3])}, not {rest[2]}",
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
        """A player written as their log name (any case) or as P1..Pn."""
        folded = ref.casefold()
        for seat, name in enumerate(self.player_names):
            if name.casefold() == folded:
                return seat
        if len(ref) >= 2 and ref[0] in "pP" and ref[1:].isdigit() and 1 <= int(ref[1:]) <= self.num_players:
            return int(ref[1:]) - 1
        names = ", ".join(self.player_names) if self.player_names else f"P1..P{self.num_players}"
        raise ValueError(f"no player {ref!r}; the players are {names}")

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


QuidditchV2State._steps = {name[4:]: getattr(QuidditchV2State, name)
                           for name in dir(QuidditchV2State) if name.startswith("_do_")}
QuidditchV2State._answers = {name[8:]: getattr(QuidditchV2State, name)
                             for name in dir(QuidditchV2State) if name.startswith("_answer_")}
_OPPONENTS = {n: tuple(tuple((seat + step) % n for step in range(1, n)) for seat in range(n))
              for n in range(QuidditchV2Game.min_players, QuidditchV2Game.max_players + 1)}

def _quick_seat(word: str, usage: str) -> int:
    if _SEAT.fullmatch(word) and int(word[1:]) >= 1:
        return int(word[1:]) - 1
    raise DeckgenError(f"{word!r} is not a player (P1, P2...); {usage}")


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
_STEP_NAMES = {
    "draw": "draw", "roll": "die roll", "coin": "coin flip", "first": "choosing the first player",
    "random_discard": "Bludger", "play": "playing cards", "manoeuvre": "manoeuvre", "discard": "discarding",
    "saved": "goal", "pass": "Quaffle changing hands", "blag": "Blagging window", "block": "Blistering Speed",
    "penalty_save": "Penalty", "quiet": "It's all gone quiet", "captain": "Competitive Captain",
    "rain_pick": "Rain", "penalty_to": "Playing Tough", "end": "end of turn", "reveal": "Snitch",
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


def _weighted(pile: Mapping[str, int], total: int, rng: random.Random, order: Sequence[str] | None = None) -> str:
    """A card drawn from a pile of `total` cards (`order`: its cards sorted, when known), with
    `rng.randrange(total)`'s draws, inlined."""
    if total <= 0:
        raise ValueError("nothing to draw from")
    bits = total.bit_length()
    point = rng.getrandbits(bits)
    while point >= total:
        point = rng.getrandbits(bits)
    for card in order if order is not None else sorted(pile):
        point -= pile[card]
        if point < 0:
            return card
    raise AssertionError("pile total out of step")


def _one(words: list[str], form: str) -> str:
    if len(words) != 1:
        raise ValueError(f"expected '{form}'")
    return words[0]


# ------------------------------------------------------------------------------ the heuristic player

# What a card is worth to keep or to play, roughly in dominance points.
_THING_VALUE = {
    "lightning-passing": 5, "firebolt": 6, "nimbus-2001": 4, "nimbus-2000": 3, "supporters": 3,
    "playing-tough": 2, "crack-shot-chaser": 4, "accurate-beater": 3, "powerful-beater": 3, "top-keeper": 4,
    "sure-handed-chaser": 3, "competitive-captain": 3, "nippy-seeker": 4, "match-nerves": 3, "rain": -1,
}
_ACTION_VALUE = {
    "sweeping-play": 6, "trick-play": 4, "blistering-speed": 4, "weaving": 3, "its-all-gone-quiet": 3,
    "penalty": 7, "saved": 6, "pass": 4, "blagging": -1, "wronski-feint": 0, "dopplebeater-defence": 3,
}


class QuidditchV2Bot(HeuristicBot):
    """A simple strategic player: builds dominance, grabs and scores the Quaffle, answers every
    goal and every Snatch it can, and chases the Snitch when it can win by catching it. It reads
    its own hand and what is public (table, dominance, points, hand sizes), never other hands."""

    def choose(self, state: GameState):
        assert isinstance(state, QuidditchV2State)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        frame = state.stack[-1]
        kind, me = frame[1], frame[2]
        if kind in ("saved", "pass", "quiet", "captain"):
            return legal[0]  # play the response / accept the draw
        if kind == "penalty_save":
            return ACCEPT if state.hand_size(me) >= 3 else DECLINE
        if kind in ("blag", "end"):
            return DECLINE
        if kind == "block":
            return legal[0]
        if kind == "rain_pick":
            return self._hurt(state, me, legal)
        if kind == "penalty_to":
            return min(legal, key=lambda a: (state.score[a.seat], self.rng.random()))
        if kind == "discard":
            return min(legal, key=lambda a: (self._keep_value(state, a.card), self.rng.random()))
        if kind == "reveal":
            leading_rival = max(state.score[o] for o in state.opponents(me))
            if state.score[me] + state.params["snitch_points"] > leading_rival:
                return max(legal, key=lambda a: len(a.cards))
            return Reveal(())
        if kind == "play":
            return self._best(legal, lambda a: 0.0 if isinstance(a, EndPlays) else self._play_value(state, me, a))
        if kind == "manoeuvre":
            return self._best(legal, lambda a: self._manoeuvre_value(state, me, a))
        return self.pick(legal)

    def _best(self, options, value):
        scored = [(value(option), self.rng.random(), option) for option in options]
        return max(scored, key=lambda item: item[:2])[2]

    def _hurt(self, state, me: int, legal):
        """Rain: make the strongest opponent lose a point, if anyone has one to lose."""
        picks = [a for a in legal if isinstance(a, Pick) and a.seat != me and state.dom[a.seat] > 0]
        return max(picks, key=lambda a: state.dom[a.seat]) if picks else DECLINE

    def _keep_value(self, state, card: str) -> float:
        if card in state.game.seekers:
            return 5 if state.reshuffles else 1
        if card == SNITCH:
            return 9
        return _THING_VALUE.get(card, _ACTION_VALUE.get(card, 2))

    def _leader(self, state, me: int) -> int:
        return max(state.opponents(me), key=lambda o: (state.score[o], state.dom[o]))

    def _play_value(self, state, me: int, action: Play) -> float:
        card, dom = action.card, state.dom
        if card == SNITCH:
            strength = sum(state.hands[me].get(c, 0) for c in state.game.seekers) + state.has(me, NIPPY)
            rival = max(state.score[o] for o in state.opponents(me))
            return 10 if strength >= 2 and state.score[me] + state.params["snitch_points"] > rival else -1
        if card in state.game.brooms:
            return 2 * (state.game.facts[card].speed - state.broom_speed(me)) + 1
        if card in OPPONENT_THINGS:
            target = action.player
            if card == "outside-problems" and not 0 < dom[target] <= dom[me]:
                return -1
            return 3 + (target == self._leader(state, me))
        if card == FLYHIGH:
            thing = state.thing(action.thing)
            worth = _THING_VALUE.get(thing.card, 2)
            return worth if thing.owner != me else -worth
        if card == STUNNED:
            thing = state.thing(action.thing)
            worth = _THING_VALUE.get(thing.card, 2)
            return worth if thing.owner != me else -worth
        if card == "tactical-bludgering":
            return dom[action.player] - (dom[action.player] + 1) // 2 - 0.5
        if card == "strayed-off-the-pitch":
            holder = state.quaffle
            if holder is None or holder == me:
                return -3
            return 5 if (holder + 1) % state.num_players == me else 0.5
        if card == "blistering-speed":
            faster = any(state.broom_speed(o) > state.broom_speed(me) for o in state.opponents(me))
            return -1 if faster else 4
        if card == DOPPLE:
            cost = self._keep_value(state, action.cost) if action.cost else 0
            return 3 + (action.player == self._leader(state, me)) - cost / 2
        if card == WRONSKI:
            return 1 if state.reshuffles and state.hand_size(action.player) >= 4 else -1
        if card == "its-all-gone-quiet":
            best = max(state.score)
            return 3 + (state.score[me] == best and state.score.count(best) == 1)
        return _THING_VALUE.get(card, _ACTION_VALUE.get(card, 1))

    def _manoeuvre_value(self, state, me: int, action: Manoeuvre) -> float:
        kind, dom = action.kind, state.dom
        if kind == "score":
            return 10 - state.score[action.target] / 1000
        if kind == "snatch":
            return 6
        if kind == "bludger":
            return 3 + state.hand_size(action.target) / 10
        if kind == "outfly":
            return 4 if dom[action.target] > 0 else 0.5
        if kind == "search":
            reachable = state.reshuffles > 0 and SNITCH not in state.discard
            strength = sum(state.hands[me].get(c, 0) for c in state.game.seekers)
            return 5 if reachable and strength >= 2 else 0
        return 0.1
