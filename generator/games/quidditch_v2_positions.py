"""Quidditch v2: positions built by hand (tests, quick rulings, puzzles), as a mixin of the
game state (`QuidditchV2State` in `generator.games.quidditch_v2_state`), whose attributes it
sets and whose step loop it resumes.
"""

from __future__ import annotations

from typing import Sequence

from .quidditch_v2_cards import FLYHIGH, OPPONENT_THINGS, QUAFFLE, InPlay
from .quidditch_v2_steps import TURN_STEPS


class HandBuiltPositions:
    """`set_up_position`: replace a state by a position in the middle of a turn."""

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
        self.draw_cards = None
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
        rest = list(TURN_STEPS)
        if step == "start":
            frames = [("start_one", uid) for uid in self._start_triggers(active)] + rest
        else:
            frames = rest[rest.index(steps[step]):]
        self.stack = list(reversed(frames))
        self.over = False
        self._legal = None
        self._advance()
