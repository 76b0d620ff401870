"""What one seat sees of a Wizard Hearts hand: the Shun suit and passing direction, the cards it
is passing (nobody else's), how many each seat has passed, the hand's points so far and the
Cauldron face down; and how each action looks to that seat (a pass shows its card only to
the passer).
"""

from __future__ import annotations

from .base import CHANCE, view_area
from .tricks import NO_SUIT, ChooseSeat, Deal, pass_target
from .trick_view import card_played_view

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any


def hearts_view_extras(state, passing: int, seat: int | None) -> dict[str, Any]:
    """The Shun suit, the passing, the points and the Cauldron as `seat` sees them
    (`passing` is the engine's passing phase)."""
    suits = state.game.deck.suits
    direction = state.direction
    areas = []
    if state.phase == passing and seat is not None:
        target = pass_target(seat, direction, state.num_players)
        areas.append(view_area(f"Your pass to {state.player_name(target)}",
                               state.table.codes(state.passed[seat]), kind="pass"))
    if state.cauldron and state.phase >= 0:
        areas.append(view_area("Cauldron", hidden=len(state.cauldron)))
    counters = {"Shun suit": "-" if state.shun == NO_SUIT else suits[state.shun].name, "Passing": direction}
    passed = [len(cards) for cards in state.passed] if state.phase == passing else [None] * state.num_players
    columns = {"Passed": passed, "Points": list(state.hand_points)}
    return {"areas": areas, "counters": counters, "columns": columns}


def hearts_action_view(game, before, action, after, seat: int | None, pass_offset: int, shun_type) -> dict | None:
    """How `seat` sees one Wizard Hearts action (`pass_offset` marks a pass, `shun_type` the reveal)."""
    dealer = before.player_name(before.dealer)
    if isinstance(action, ChooseSeat):
        return {"seat": None, "text": f"{before.player_name(action.seat)} deals first"}
    if isinstance(action, shun_type):
        return {"seat": None, "text": f"{dealer} reveals {game.deck.suits[action.suit].name} as the Shun suit"}
    if isinstance(action, Deal) or before.current_player() == CHANCE:
        return {"seat": None, "text": f"{dealer} deals hand {before.round + 1}"}
    actor = before.turn
    if action >= pass_offset:
        target = before.player_name(pass_target(actor, before.direction, before.num_players))
        card = game.table.code[action - pass_offset] if seat == actor else "a card"
        return {"seat": actor, "text": f"passes {card} to {target}"}
    return card_played_view(before, action, after)
