"""What one seat sees of a Quidditch v2 game: its own hand and Seeker cards chosen for the
Snitch, every Thing in play, the cards a Search turned up, the Quaffle, dominance, scores and
the discard pile (other hands, other Seeker choices and the draw pile face down); and how each
action looks to that seat (a card drawn into a hand is named only to its holder).
"""

from __future__ import annotations

from .base import CHANCE, seat_view, view_area
from .quidditch_v2_cards import SNITCH, Draw, Reveal


class SeatView:
    """`GameState.view` and the Snitch's place as one seat knows it. Mixed into the state."""

    __slots__ = ()

    def view(self, seat: int | None) -> dict:
        code = self._code
        order = {card.id: index for index, card in enumerate(self.game.deck.cards)}
        hand = ([code(card) for card in sorted(self.hands[seat], key=order.__getitem__)
                 for _ in range(self.hands[seat][card])] if seat is not None else [])
        areas = [view_area(f"{self.label(owner)} in play", [code(t.card) for t in self.table if t.owner == owner],
                           [owner] * sum(t.owner == owner for t in self.table), kind="team")
                 for owner in range(self.num_players)]
        for owner, cards in sorted(self.committed.items()):
            shown = [code(card) for card in cards] if owner == seat else []
            areas.append(view_area(f"{self.label(owner)}'s Seeker cards", shown, [owner] * len(shown),
                                   hidden=0 if owner == seat else len(cards)))
        if self.revealed:
            areas.append(view_area("Turned up by a Search", [code(card) for card in self.revealed]))
        areas.append(view_area("Discard pile", [code(card) for card in self.discard[-1:]],
                               hidden=max(len(self.discard) - 1, 0)))
        areas.append(view_area("Draw pile", hidden=self.draw_total))
        counters = {"Turn": self.turn_slots, "Active": self.label(self.active),
                    "Quaffle": "centre" if self.quaffle is None else self.label(self.quaffle),
                    "Snitch": self.snitch_seen_by(seat), "Draw pile": self.draw_total,
                    "Discard pile": len(self.discard)}
        summary = self.summary()
        return seat_view(hand, [sum(held.values()) for held in self.hands], areas, counters,
                         {"Dominance": list(self.dom)}, summary["rounds"], summary["scores"])

    def snitch_seen_by(self, seat: int | None) -> str:
        """Where the Golden Snitch is, as far as `seat` can tell: in a hand or the draw pile it is unseen."""
        place = self._snitch_place()
        if place.startswith("hand of") or place == "draw pile":
            return "in your hand" if seat is not None and self.hands[seat].get(SNITCH) else "unseen"
        return place


def qv2_action_view(before, action, after, seat: int | None) -> dict | None:
    """How `seat` sees one action: cards drawn into another hand and Seeker cards chosen stay hidden."""
    frame = before.stack[-1]
    actor = frame[2]
    if isinstance(action, Draw) and len(frame) > 4 and frame[4] == "hand":
        drawer = frame[3]
        card = before._code(action.card) if seat == drawer else "a card"
        return {"seat": drawer, "text": f"draws {card}"}
    if actor == CHANCE:
        return {"seat": None, "text": before.format_action(action)}
    if isinstance(action, Reveal) and seat != actor:
        return {"seat": actor, "text": f"chooses {len(action.cards)} Seeker card(s) for the Snitch"}
    return {"seat": actor, "text": before.format_action(action)}
