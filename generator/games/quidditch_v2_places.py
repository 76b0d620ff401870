"""Quidditch v2: where things are at one moment of a game (seats' labels, zones and their
counts, the Snitch, hands, Things in play, who is locked out); a mixin of `QuidditchV2State`."""

from __future__ import annotations

import itertools

from .quidditch_v2_cards import QUAFFLE, SNITCH, InPlay
from .quidditch_v2_steps import STEP_NAMES, seat_name


class Places:
    """Questions about the table that change nothing."""

    def label(self, seat: int) -> str:
        """A seat as actions write it: the player's name in a log, else P1..Pn."""
        return self.player_names[seat] if self.player_names else seat_name(seat)

    def where(self) -> dict:
        """Round, turn, whose turn and the step, for error reports (the referee names the player)."""
        step = "game over" if self.over else STEP_NAMES[self.stack[-1][1]]
        if not self.turn_slots:  # the setup: no round or turn yet, and nobody's turn
            return {"step": f"setup, {step}"}
        rounds = (self.turn_slots - 1) // self.num_players + 1
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
        return self.opponent_seats[seat]

    def locked_out(self, seat: int) -> bool:
        """Wronski Feint: no Search and no Snitch for the rest of this turn and the next three."""
        return self.own_turns[seat] <= self.feint_lock[seat]
