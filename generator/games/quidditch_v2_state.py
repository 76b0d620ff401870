"""Quidditch v2: one moment of a game. The state is a small interpreter: `self.stack` holds
the steps still to run, as plain tuples `(step, *args)`; `_advance` runs steps until it
meets an `ask` step, a decision for one seat or for chance, and `apply` answers it.
"""

from __future__ import annotations

import copy
import random
from itertools import repeat
from operator import is_
from typing import Any

from .base import CHANCE, TERMINAL, Game, GameState, IllegalAction, Outcome, Pending
from .quidditch_v2_answers import Answers
from .quidditch_v2_cards import (BLAG, COINS, DRAWS, FLYHIGH, KEEPER, NERVES, NIPPY, PASS, QUAFFLE, ROLLS, SAVED, SKIP,
                                 SNITCH, CardEffects, Draw, FirstPlayer, InPlay, RandomPick, Roll, draw_of)

from .quidditch_v2_known import KnownCards
from .quidditch_v2_legal import LegalActions
from .quidditch_v2_places import Places
from .quidditch_v2_positions import HandBuiltPositions
from .quidditch_v2_steps import (DRAW_STEP, NEXT_STEP, OPPONENTS, PLAYS_STEP, TURN_STEPS_AFTER_DRAW_REVERSED, below,
                                 decision_rule, decision_words, weighted)
from .quidditch_v2_text import ActionText
from .quidditch_v2_view import SeatView


class QuidditchV2State(CardEffects, ActionText, HandBuiltPositions, LegalActions, Answers, Places, KnownCards, SeatView,
                       GameState):
    """One moment of a Quidditch v2 game. Seats are 0-based; logs call them P1..Pn."""

    # Slots rather than the instance dictionary: past 30 attributes CPython 3.11 stops sharing
    # instance dictionary keys, and every attribute read and method call of the engine slows.
    __slots__ = ("game", "params", "num_players", "draw", "draw_total", "draw_cards", "discard", "hands", "table",
                 "flyhigh", "outprob", "next_uid", "quaffle", "dom", "score", "revealed", "committed", "snitch_zone",
                 "caught_by", "deferred", "out_of_game", "active", "turn_slots", "own_turns", "missed", "feint_lock",
                 "thing_played", "action_played", "no_bludger", "no_draw", "reshuffles", "over", "end_reason",
                 "actions_applied", "round_ends", "_legal", "stack", "opponent_seats", "shown")

    # Step and answer methods by name (`_do_<step>`, `_answer_<decision>`), filled in below the class.
    _steps: dict[str, Any] = {}
    _answers: dict[str, Any] = {}

    def __init__(self, game: Game, num_players: int):
        self.game = game
        self.params = game.params
        self.num_players = num_players
        self.opponent_seats = OPPONENTS[num_players]  # `opponents(seat)`, read without a call
        self.draw: dict[str, int] = {}
        self.draw_total = 0
        # every card of the draw pile, copies repeated, sorted (None: build it again from `draw`), so
        # the n-th card of the pile in that order, the chance draw, is one index
        self.draw_cards: list[str] | None = None
        for card, count in game.counts.items():
            if card != QUAFFLE and not (card == SNITCH and self.params["snitch_start"] == "discard"):
                self.draw[card] = count
                self.draw_total += count
        self.discard: list[str] = [SNITCH] if self.params["snitch_start"] == "discard" else []
        self.hands: list[dict[str, int]] = [{} for _ in range(num_players)]
        self.shown: list[list[str]] = [[] for _ in range(num_players)]  # cards each hand took face up
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
        seat = self.stack[-1][2]
        who = "chance" if seat == CHANCE else self.label(seat)
        turn = f" in {self.label(self.active)}'s turn" if self.turn_slots else " during the setup"
        return Pending(seat, f"{who}: {decision_words(self.stack)}{turn}", decision_rule(self.stack))

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
        stack = self.stack
        frame = stack[-1]
        kind = frame[1]
        # Card draws and die rolls, the most frequent chance actions, are checked without listing
        # every outcome; a decision is looked up by identity first (the bots answer with one of the
        # listed actions, which are shared values), by equality only when that misses.
        if kind == "draw":
            if type(action) is not Draw or not self.draw.get(action.card):
                raise self._illegal(action)
        elif kind == "roll":
            if type(action) is not Roll or not 1 <= action.value <= 6:
                raise self._illegal(action)
        else:
            legal = self._legal
            if legal is None:
                legal = self.legal_actions()
            if not any(map(is_, legal, repeat(action))) and action not in legal:
                raise self._illegal(action)
        stack.pop()
        self._legal = None
        self.actions_applied += 1
        # Calls spelled out by length: a call with `*args` is several times dearer in CPython 3.11.
        answer = self._answers[kind]
        size = len(frame)
        if size == 3:
            answer(self, action, frame[2])
        elif size == 5:
            answer(self, action, frame[2], frame[3], frame[4])
        else:
            answer(self, action, *frame[2:])
        self._advance()

    def sample_chance(self, rng: random.Random):
        frame = self.stack[-1]
        kind = frame[1]
        if kind == "draw":
            cards = self.draw_cards
            if cards is None:
                cards = self.draw_cards = sorted(card for card, count in self.draw.items() for _ in range(count))
            total = self.draw_total
            if total <= 0:
                raise ValueError("nothing to draw from")
            bits = total.bit_length()  # `below(total, rng)`, inlined: this is every other action
            point = rng.getrandbits(bits)
            while point >= total:
                point = rng.getrandbits(bits)
            card = cards[point]
            return DRAWS.get(card) or draw_of(card)
        if kind == "random_discard":
            hand = self.hands[frame[3]]
            return RandomPick(weighted(hand, sum(hand.values()), rng))
        if kind == "roll":
            return ROLLS[1 + below(6, rng)]  # `randint(1, 6)`, draw for draw, without making a Roll
        if kind == "coin":
            return COINS[rng.random() < 0.5]
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
                                tuple([sum(hand.values()) for hand in self.hands]), self.quaffle))

    def clone(self) -> "QuidditchV2State":
        other = copy.copy(self)
        other.draw = dict(self.draw)
        other.draw_cards = None
        other.discard = list(self.discard)
        other.hands = [dict(hand) for hand in self.hands]
        other.shown = [list(cards) for cards in self.shown]
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

    # -- running steps ---------------------------------------------------------------------

    def _push(self, *frames: tuple) -> None:
        """Queue steps to run next, in the order given (a single step is `stack.append`ed)."""
        self.stack.extend(reversed(frames))

    def _ask(self, kind: str, actor: int, *args) -> None:
        self.stack.append(("ask", kind, actor, *args))

    def _advance(self) -> None:
        stack = self.stack
        steps = self._steps
        while stack:  # `_finish` empties it
            if self.outprob is not None:
                self._check_outside_problems()
            top = stack.pop()
            name = top[0]
            if name == "ask":
                stack.append(top)
                return
            size = len(top)
            if size == 1:
                steps[name](self)
            elif size == 2:
                steps[name](self, top[1])
            elif size == 3:
                steps[name](self, top[1], top[2])
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
        shown = self.shown[seat]
        if shown and card in shown:
            shown.remove(card)

    def _to_hand(self, seat: int, card: str) -> None:
        """A card goes back to a hand face up (Flying High, shown Seekers): everyone knows it is there."""
        hand = self.hands[seat]
        hand[card] = hand.get(card, 0) + 1
        self.shown[seat].append(card)

    def _discard_from_hand(self, seat: int, card: str) -> None:
        self._take_from_hand(seat, card)
        self.discard.append(card)

    def _reshuffle(self) -> None:
        """The discard pile becomes the draw pile (qv2.turn.draw)."""
        for card in self.discard:
            self.draw[card] = self.draw.get(card, 0) + 1
        self.draw_total += len(self.discard)
        self.draw_cards = None
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
            self.stack.append(("ask", "draw", CHANCE, seat, dest))  # _ask, inlined: the most frequent

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
            self.stack.append(("next",))
            return
        self.own_turns[seat] += 1
        stack = self.stack
        stack.extend(TURN_STEPS_AFTER_DRAW_REVERSED)
        # The start-of-turn effects, then the draw step, run here in order as `_advance` would
        # run their frames (with its Outside Problems check before each but the first: nothing
        # changed since the last). One that asks (a die roll) leaves the rest queued below it.
        depth = len(stack)
        triggers = self._start_triggers(seat)
        for index, uid in enumerate(triggers):
            if index and self.outprob is not None:
                self._check_outside_problems()
            self._do_start_one(uid)
            if len(stack) > depth:
                stack[depth:depth] = [DRAW_STEP, *[("start_one", later) for later in reversed(triggers[index + 1:])]]
                return
        if triggers and self.outprob is not None:
            self._check_outside_problems()
        self._do_draw(seat, "hand")  # the draw step: no start effect asked, so none stopped the draw

    def _do_next(self) -> None:
        self.active = (self.active + 1) % self.num_players
        self._do_turn()  # as if queued: nothing between the two steps can change the position

    def _do_draw_step(self) -> None:
        if not self.no_draw:
            self.stack.append(("draw", self.active, "hand"))

    def _do_blag_turn(self) -> None:
        for holder, hand in enumerate(self.hands):  # `_blag_holder`, inlined: once a turn
            if hand.get(BLAG):
                if holder != self.active:
                    self._ask("blag", holder, "turn")
                    return
                break
        stack = self.stack
        if stack[-1] is PLAYS_STEP:  # nothing changed: the play step, run now
            stack.pop()
            self._do_plays()

    def _blag_holder(self) -> int | None:
        for seat, hand in enumerate(self.hands):
            if hand.get(BLAG):
                return seat
        return None

    def _do_plays(self) -> None:
        options = self._play_options(self.active)
        if len(options) > 1:
            self.stack.append(("ask", "play", self.active))  # _ask, inlined
            self._legal = options  # nothing changes before the ask is answered

    def _do_manoeuvre(self) -> None:
        options = self._manoeuvre_options(self.active)
        if options:
            self.stack.append(("ask", "manoeuvre", self.active))  # _ask, inlined: once a turn
            options.append(SKIP)
            self._legal = tuple(options)

    def _do_hand_limit(self) -> None:
        stack = self.stack
        if sum(self.hands[self.active].values()) > self.params["hand_size"]:
            stack.append(("hand_limit",))
            self._ask("discard", self.active, "any", "qv2.turn.hand-limit")
        elif stack and stack[-1] is NEXT_STEP:  # nothing changed: the next turn, started now
            stack.pop()
            self._do_next()

    def _do_discard_n(self, seat: int, count: int, which: str, rule: str) -> None:
        if count > 0 and self._discardable(seat, which):
            self.stack.append(("discard_n", seat, count - 1, which, rule))
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
            self.stack.append(("keeper", scorer, defender))

    def _do_keeper(self, scorer: int, defender: int) -> None:
        if self.has(defender, KEEPER):
            self._ask("roll", CHANCE, "keeper", scorer, defender)
        else:
            self.stack.append(("goal_counts", scorer))

    def _do_goal_counts(self, scorer: int) -> None:
        self.score[scorer] += self.params["goal_points"]
        for thing in list(self.table):
            if thing.card == NERVES and thing.player == scorer and not self.is_blank(thing):
                self._destroy(thing)
            elif thing.card == FLYHIGH and thing.owner == scorer:
                self._remove_from_table(thing)
                self._to_hand(scorer, FLYHIGH)
        self.stack.append(("quaffle", None, scorer, True))

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
                self.stack.append(("commits", order[index + 1:]))
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
            self.stack.append(("snitch", seat))

QuidditchV2State._steps = {name[4:]: getattr(QuidditchV2State, name)
                           for name in dir(QuidditchV2State) if name.startswith("_do_")}
QuidditchV2State._answers = {name[8:]: getattr(QuidditchV2State, name)
                             for name in dir(QuidditchV2State) if name.startswith("_answer_")}
