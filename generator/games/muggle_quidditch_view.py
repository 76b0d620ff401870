"""What one seat sees of a Muggle Quidditch match: its own hand, both teams, the Jokers laid
for the Snitch, the dive, the goals scored and the top of the discard pile (the draw pile and
the other hand face down); and how each action looks to that seat (cards drawn from the pile
are named only to the player who drew them).
"""

from __future__ import annotations

from .base import seat_view, view_area
from .muggle_quidditch_rules import DEAL, JOKER, POSITIONS, Dive, Draw, Shuffle


def mq_view(state, seat: int | None) -> dict:
    """`GameState.view` of a Muggle Quidditch state."""
    game = state.game
    order = {code: index for index, code in reversed(list(enumerate(game.all_codes)))}
    hand = sorted(state.hands[seat], key=order.__getitem__) if seat is not None else []
    areas = []
    for owner in (0, 1):
        house = f" ({game.house_name(state.houses[owner])})" if state.houses[owner] else ""
        team = [state.teams[owner][position] for position in POSITIONS if position in state.teams[owner]]
        areas.append(view_area(f"{state.player_name(owner)}'s team{house}", team, [owner] * len(team), kind="team"))
    if state.snitch:
        areas.append(view_area("Snitch spotted", state.snitch))
    if state.bludger:
        jack, target, _ = state.bludger
        areas.append(view_area(f"Bludger on {target}", [jack], [state.active]))
    rows = state.dive.rows if state.dive is not None else None
    if rows:
        for owner in (0, 1):
            areas.append(view_area(f"{state.player_name(owner)}'s dive", rows[owner], [owner] * len(rows[owner])))
    elif state.record.dive:
        areas.append(view_area("Dive", state.record.dive))
    discard = state.discard_pile
    areas.append(view_area("Discard pile", discard[-1:], hidden=max(len(discard) - 1, 0)))
    areas.append(view_area("Draw pile", hidden=len(state.draw_pile)))
    for owner in (0, 1):
        if state.score_piles[owner]:
            pile = state.score_piles[owner]
            areas.append(view_area(f"{state.player_name(owner)}'s goals", pile, [owner] * len(pile)))
    counters = {"Turn": state.turn, "Draw pile": len(state.draw_pile), "Discard pile": len(discard)}
    columns = {"House": [game.house_name(house) if house else None for house in state.houses],
               "Goals": list(state.goals)}
    summary = state.summary()
    return seat_view(hand, [len(held) for held in state.hands], areas, counters, columns, summary["rounds"],
                     summary["scores"])


def mq_action_view(game, before, action, after, seat: int | None) -> dict | None:
    """How `seat` sees one action: a shuffle's order and the cards drawn stay hidden from the others."""
    if isinstance(action, Shuffle):
        return {"seat": None, "text": "the cards are shuffled and dealt" if before.shuffle_for == DEAL
                else "the discard pile is shuffled into a new draw pile"}
    actor = before.current_player()
    if isinstance(action, Draw):
        drew = after.record.drew if after.active == actor else []
        taken = f"takes {before.discard_pile[-1]} from the discard pile and " if action.from_discard else ""
        cards = " ".join(drew) if seat == actor else f"{len(drew)} card(s)"
        return {"seat": actor, "text": f"{taken}draws {cards}" if drew else f"{taken}draws nothing"}
    if isinstance(action, Dive):
        turned = after.record.dive
        result = (f"; {after.player_name(after.caught_by)} catches the Snitch" if after.caught_by is not None
                  else "; the dive is level and the Snitch escapes" if not after.snitch else "")
        shown = f" ({' '.join(turned)})" if turned else ""
        return {"seat": actor, "text": f"dives for the Snitch with {JOKER}{shown}{result}"}
    return {"seat": actor, "text": game.format_action(before, action)}
