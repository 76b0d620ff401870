"""How a trick-taking round looks in the step-through replay (`generator.games.replay`): the
hands, the trick on the table, the trick just taken and by whom, and counters that always
describe one round: between the last trick of a round and the next deal they are the
finished round's, not a mix of the next round's number with the old trump or Shun suit.

It also says what one seat may see at a table (`deckgen play`): its own hand, the trick with
who played each card, tricks won, the finished rounds' score sheet, and what the game adds
(trump and bids, the Shun suit) through `view_extras`.

`TrickView` is mixed into `generator.games.tricks.TrickState`. It reads the attributes every
trick engine keeps (`round`, `dealer`, `hands`, `trick`, `leader`, `trick_number`, `won`,
`phase`, `chance`: which chance step is due) and `history`, one dict per finished round with
at least its `dealer`. `ROUND_OPENS` is the chance step that opens a round.
"""

from __future__ import annotations

from .base import CHANCE, TERMINAL, seat_view, view_area

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any

PLAY = 100  # the phase in which cards are played to tricks


class TrickView:
    """`table_view` and the replay hooks of a trick-taking state."""

    ROUND_OPENS = "deal"

    def table_view(self) -> dict:
        table = self.table
        n = self.num_players
        trick = [f"{self.player_name(self.seat_at(self.leader, i))}: {table.code[card]}"
                 for i, card in enumerate(self.trick)]
        finished = self.between_rounds()
        counters = {"Round": self.round + 1, "Dealer": self.player_name(self.dealer)}
        if finished:  # the round is over and the next not dealt: the counters stay with the round played
            counters = {"Round": f"{self.round} (over)", "Dealer": self.player_name(self.history[-1]["dealer"]),
                        "Next dealer": self.player_name(self.dealer)}
        settled = self.phase == PLAY or finished or self.phase == TERMINAL  # else no trick yet this round
        counters["Tricks won"] = " / ".join(map(str, self.won if settled else [0] * n))
        counters.update(self.view_counters())
        return {"hands": [table.codes(table.sorted(hand)) for hand in self.hands],
                "areas": [{"title": f"Trick {self.trick_number + 1}" if self.phase == PLAY else "Table",
                           "cards": trick}],
                "counters": counters, "scores": list(self.summary().get("scores", []))}

    def view(self, seat: int | None) -> dict:
        table = self.table
        hand = table.codes(table.sorted(self.hands[seat])) if seat is not None else []
        areas = []
        if self.phase == PLAY:
            areas.append(view_area(f"Trick {self.trick_number + 1}", table.codes(self.trick),
                                   [self.seat_at(self.leader, i) for i in range(len(self.trick))], kind="trick"))
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


    def between_rounds(self) -> bool:
        """A round has been played out and nothing of the next has happened yet (its round
        number and dealer are set, but its trump, bids and tricks still are the last round's)."""
        return self.phase == CHANCE and bool(self.history) and self.chance == self.ROUND_OPENS

    def setting_up(self) -> bool:
        """A new round is under way but its play has not started: chance (a deal, a turned
        card) or a choice before bidding; what the last round left in the counters is stale."""
        return self.phase == CHANCE and not self.between_rounds()

    def trick_size(self) -> int:
        """The cards of a complete trick (one per player, unless someone sits the round out)."""
        return self.num_players

    def seat_at(self, leader: int, position: int) -> int:
        """Who plays the card at `position` (0: the lead) of a trick `leader` leads."""
        return (leader + position) % self.num_players

    def view_counters(self) -> dict:
        """Hook: the game's own counters for the replay (trump, bids, Shun suit...)."""
        return {}

    def replay_context(self) -> tuple:
        return self.phase, self.leader, list(self.trick), self.trick_number, self.round

    def replay_events(self, context: tuple, action: "Any") -> dict:
        """The trick the action completed, with its winner: every engine hands the lead to the
        trick's winner as it takes the trick, and nothing moves the lead again before the next deal."""
        phase, leader, trick, number, round_index = context
        if phase != PLAY or len(trick) != self.trick_size() - 1 or self.trick or type(action) is not int:
            return {}
        table = self.table
        cards = trick + [action]
        seats = [self.seat_at(leader, position) for position in range(len(cards))]
        winner = self.leader
        card = table.code[cards[seats.index(winner)]]
        name = self.player_name(winner)
        played = [f"{self.player_name(seat)}: {table.code[c]}" for seat, c in zip(seats, cards)]
        return {"note": f"{name} wins trick {number + 1} with {card}",
                "areas": [{"title": f"Round {round_index + 1}, trick {number + 1}: won by {name} ({card})",
                           "cards": played}]}


def card_played_view(before, card: int, after) -> dict:
    """A card played to a trick as everyone sees it, with the whole trick and its winner when
    the card ends it (the winner leads the next trick, or the round is over)."""
    seat = before.turn
    code = before.table.code[card]
    event: dict[str, Any] = {"seat": seat, "text": f"plays {code}"}
    if len(before.trick) + 1 == before.trick_size():
        cards = [*before.trick, card]
        seats = [before.seat_at(before.leader, i) for i in range(len(cards))]
        winner = after.leader
        event["trick"] = {"cards": [{"code": before.table.code[c], "seat": s} for c, s in zip(cards, seats)],
                          "winner": winner}
        event["text"] += f"; {before.player_name(winner)} takes trick {before.trick_number + 1}"
    return event
