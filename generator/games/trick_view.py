"""What one seat sees of a trick-taking game (Wizard, Wizard Hearts): its own hand, the trick
on the table with who played each card, the tricks won, the score sheet of finished rounds,
and whatever the game adds (trump and bids, the Shun suit and passes) through `view_extras`.

A mixin of `generator.games.tricks.TrickState`, kept apart from the state's hot paths; the
games' `action_view` reads a played card through `card_played_view`.
"""

from __future__ import annotations

from .base import seat_view, view_area

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any


class TrickView:
    """`GameState.view` for trick-taking states (attributes are the `TrickState`'s)."""

    def view(self, seat: int | None) -> dict:
        table = self.table
        n = self.num_players
        hand = table.codes(table.sorted(self.hands[seat])) if seat is not None else []
        areas = []
        if self.phase == self.PLAY:
            areas.append(view_area(f"Trick {self.trick_number + 1}", table.codes(self.trick),
                                   [(self.leader + i) % n for i in range(len(self.trick))], kind="trick"))
        extras = self.view_extras(seat)
        areas += extras.get("areas", [])
        counters = {"Round": self.round + 1, "Dealer": self.player_name(self.dealer), **extras.get("counters", {})}
        columns = {**extras.get("columns", {}), "Tricks": list(self.won)}
        summary = self.summary()
        # an unfinished round's row may hold what is not yet shown (hidden bids): the view's columns show it
        rounds = [entry for entry in summary.get("rounds", []) if not entry.get("in_progress")]
        return seat_view(hand, [len(held) for held in self.hands], areas, counters, columns, rounds,
                         summary.get("scores", []))

    def view_extras(self, seat: int | None) -> dict[str, Any]:
        """Hook: the game's own `areas`, `counters` and `columns` as `seat` may see them."""
        return {}


def card_played_view(before, card: int, after) -> dict:
    """A card played to a trick as everyone sees it, with the whole trick and its winner when
    the card ends it (the winner leads the next trick, or the round is over)."""
    seat = before.turn
    code = before.table.code[card]
    event: dict[str, Any] = {"seat": seat, "text": f"plays {code}"}
    if len(before.trick) + 1 == before.num_players:
        cards = [*before.trick, card]
        seats = [(before.leader + i) % before.num_players for i in range(len(cards))]
        winner = after.leader
        event["trick"] = {"cards": [{"code": before.table.code[c], "seat": s} for c, s in zip(cards, seats)],
                          "winner": winner}
        event["text"] += f"; {before.player_name(winner)} takes trick {before.trick_number + 1}"
    return event
