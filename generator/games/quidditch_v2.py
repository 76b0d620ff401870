"""Quidditch v2, a Dvorak deck: the reference rules engine.

Rules live in `decks/quidditch-v2.toml` (rule ids `qv2.*`, rulings `qv2.ruling.*`); this
module is the game (parameters, logs, quick rulings), over `quidditch_v2_state` (the state
and its turn), `quidditch_v2_cards` (the cards and their effects), `quidditch_v2_steps`
(the decisions), `quidditch_v2_text` (messages, actions as text) and `quidditch_v2_bot`.
The state is a small interpreter: `self.stack` holds the steps still
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

import random
import re
from typing import Iterator, Sequence

from ..core.errors import DeckgenError
from .base import CHANCE, Game, GameState, IllegalAction
from .logs import Entry, GameLog, LogStep, field_path
from .quidditch_v2_bot import QuidditchV2Bot
from .quidditch_v2_cards import KNOWN_CARDS, POWBEAT, RESPONSES, SKIP, CardFacts, Manoeuvre, Play
from .quidditch_v2_deck import PLAYTEST, QUESTIONS, TABLE, requirements
from .quidditch_v2_state import QuidditchV2State
from .quidditch_v2_view import qv2_action_view
from .quidditch_v2_steps import (ACTIONS_PER_TURN_BOUND, CHANCE_VERBS, GOALS_PER_TURN_BOUND, MAX_PLAYERS,
                                 MIN_PLAYERS, NAME_PATTERN, RESPONSE_RULES, SEAT_PATTERN, decision_words, owed_decision,
                                 seat_name)


def _owed(state: "QuidditchV2State") -> tuple[int, str] | None:
    """(seat, rule) when the game waits for a decision owed under a rule of its own (an answer,
    a card's discard) rather than for the active player's next turn step."""
    return None if state.over else owed_decision(state.stack, state.active)




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
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
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
    questions, playtest, table_kit = QUESTIONS, PLAYTEST, TABLE
    deck_requirements = staticmethod(requirements)
    search_stages = 2  # rounds of turns a rollout plays (then `standing()`: points, dominance, the Quaffle)
    standing_scale = 10.0  # a goal

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
            if not NAME_PATTERN.fullmatch(name):
                raise log.error(field_path("players", index), f"player name {name!r} cannot be used in actions",
                                hint="quidditch-v2 logs need one-word names without ':'")
            if SEAT_PATTERN.fullmatch(name) and name.upper() != seat_name(index):
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
                owed = _owed(state)
                if owed is not None:
                    seat, rule = owed
                    raise IllegalAction(
                        f"this turn is {log.players[turn_of]}'s, but {log.players[seat]} still owes "
                        f"{decision_words(state.stack)} in {log.players[state.active]}'s turn", rule,
                        [state.format_action(a) for a in state.legal_actions()],
                        {**state.where(), "player": seat, "field": field})
                raise IllegalAction(
                    f"this turn is {log.players[turn_of]}'s, but it is still {log.players[state.active]}'s turn "
                    f"({decision_words(state.stack)})", "qv2.turn.order",
                    [state.format_action(a) for a in state.legal_actions()], {**state.where(), "field": field})
            try:
                action = state.parse_action(action_text)
            except ValueError as error:
                raise log.error(field, str(error), hint="see docs/game-logs.md for how actions are written") from None
            except IllegalAction as error:
                error.where["field"] = field
                raise
            expected = state.current_player()
            owed = _owed(state)
            if actor is not None and actor != expected and owed is not None:
                seat, rule = owed
                raise IllegalAction(
                    f"{log.players[seat]} owes {decision_words(state.stack)} before {log.players[actor]} acts "
                    f"({text!r} is written first)", rule,
                    [state.format_action(a) for a in state.legal_actions()],
                    {**state.where(), "player": seat, "field": field})
            if actor is not None and actor != expected:
                waiting = log.players[expected] if expected >= 0 else "chance"
                response = isinstance(action, Play) and action.card in RESPONSES
                raise IllegalAction(
                    f"{log.players[actor]} acts out of turn: the game is waiting for {waiting} "
                    f"({decision_words(state.stack)})",
                    "qv2.response.general" if response else "qv2.turn.order",
                    [state.format_action(a) for a in state.legal_actions()],
                    {**state.where(), "player": actor, "field": field})
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
                                f"the game is waiting for {decision_words(state.stack)}",
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

    def answer_question(self, question: Sequence[str]) -> dict:
        """`manoeuvres dominance D1 D2 ... [quaffle Pn|centre] [Pn CODE ...]... [dopplebeater] [feint]`:
        which manoeuvres P1 may choose in that position, and what bars the others; `play CODE ...`:
        may P1 play this card? (`questions` in quidditch_v2_deck)"""
        tokens = [word for word in re.split(r"[\s,;]+", " ".join(question)) if word]
        if tokens[0].casefold().lstrip("-") == "play":
            return self._play_question(tokens[1:])
        usage = ("ask: manoeuvres dominance D1 D2 [D3...] [quaffle Pn|centre] [Pn CODE CODE ...] "
                 "[dopplebeater] [feint]   (the question is asked for P1)")
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
            elif SEAT_PATTERN.fullmatch(low):
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
        target = rest.pop(0) if rest and SEAT_PATTERN.fullmatch(rest[0].split(":")[0]) else None
        hand, table, dominance = [], [], []
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
            elif SEAT_PATTERN.fullmatch(low):
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
        if not hand:
            raise DeckgenError(f"say the cards of P1's hand; {usage}")
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
        legal = [state.format_action(action) for action in plays]
        name = self.facts[card].name
        if card not in hand:  # whatever the card would do, P1 does not hold it
            return {"question": "play", "card": self.code(card), "allowed": False, "legal": legal,
                    "answer": f"No: P1 may not play {name}: the hand given ({' '.join(map(self.code, hand))}) does "
                              f"not hold it, and cards are played from your hand. Legal plays here: "
                              f"{', '.join(legal) or 'none'}.",
                    "reasons": [], "rules": ["qv2.turn.plays"], "rulings": []}
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

    def action_view(self, before, action, after, seat):
        return qv2_action_view(before, action, after, seat)

    def format_action(self, state: GameState, action) -> str:
        assert isinstance(state, QuidditchV2State)
        return state.format_action(action)

    def parse_action(self, state: GameState, text: str):
        assert isinstance(state, QuidditchV2State)
        return state.parse_action(text)



def _quick_seat(word: str, usage: str) -> int:
    if SEAT_PATTERN.fullmatch(word) and int(word[1:]) >= 1:
        return int(word[1:]) - 1
    raise DeckgenError(f"{word!r} is not a player (P1, P2...); {usage}")
