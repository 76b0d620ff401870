"""What one seat sees of a Wizard round: the turned card and trump, and the bids as far as the
bidding style shows them (open bids at once; hidden bids once everyone has bid; delayed bids
only when the round is over, in the score sheet); and how each action looks to that seat.
"""

from __future__ import annotations

from .base import view_area
from .tricks import NO_SUIT, PLAY, ChooseSeat, Deal
from .trick_view import card_played_view
from .wizard_rules import BID, BIDDING, CHOOSE_TRUMP, TRUMP

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any

HIDDEN_BID = "?"  # in a view's Bid column: this seat has bid, and its bid is not shown yet


def bids_shown(state) -> bool:
    """Whether every bid made this round is open to `seat`'s eyes by now."""
    style = state.game.params["bidding"]
    return style == "open" or (style == "hidden" and state.phase != BIDDING)


def wizard_view_extras(state, seat: int | None) -> dict[str, Any]:
    """The turned card, trump and the Bid column as `seat` sees them."""
    areas = []
    if state.turned is not None:
        areas.append(view_area("Turned for trump", [state.table.code[state.turned]]))
    trump = "-" if state.phase not in (BIDDING, PLAY) else "none" if state.trump == NO_SUIT \
        else state.game.deck.suits[state.trump].name
    shown = bids_shown(state)
    bids = [bid if bid is None or shown or other == seat else HIDDEN_BID for other, bid in enumerate(state.bids)]
    return {"areas": areas, "counters": {"Trump": trump}, "columns": {"Bid": bids}}


def wizard_action_view(game, before, action, after, seat: int | None) -> dict | None:
    """How `seat` sees one Wizard action: deals without their cards, a hidden bid without its number."""
    dealer = before.player_name(before.dealer)
    if isinstance(action, ChooseSeat):
        return {"seat": None, "text": f"{before.player_name(action.seat)} deals first"}
    if isinstance(action, Deal):
        size = before.round + 1
        return {"seat": None, "text": f"{dealer} deals round {size}: {size} card(s) each"}
    if before.phase < 0:  # the card turned for trump
        return {"seat": None, "text": f"{dealer} turns {game.table.code[action.card]} for trump"}
    actor = before.current_player()
    if before.phase == BIDDING:
        shown = game.params["bidding"] == "open" or actor == seat
        return {"seat": actor, "text": f"bids {action - BID}" if shown else "bids"}
    if before.phase == CHOOSE_TRUMP:
        return {"seat": actor, "text": f"names {game.deck.suits[action - TRUMP].name} trump"}
    return card_played_view(before, action, after)
