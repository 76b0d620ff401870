"""What one seat sees of a game played by the rules engine (`deckgen play`): the turned card and
trump, the round suit, the passing with only its own passed cards named, the cards left over
face down (and the stock), the bids as far as the bidding style shows them, and hand points; and how each
action looks to that seat (a card passed or a hidden bid is named only to the one who made it).

The trick on the table, tricks won and the score sheet come from `generator.games.trick_view`.
"""

from __future__ import annotations

from ..base import CHANCE, view_area
from ..trick_view import card_played_view
from ..tricks import pass_target
from .actions import (BID, BIDDING, CHOOSE_TRUMP, NO_TRUMP, PASS, PASS_DONE, PASSING, TRUMP, ChooseSeat, Deal, RoundSuit,
                      TurnUp)
from .report import view_counters

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any

HIDDEN_BID = "?"  # in a view's Bid column: this seat has bid, and the viewer may not see it yet


def view_extras(state, seat: int | None) -> dict[str, Any]:
    """The areas, counters and columns of `state` as `seat` (None: an onlooker) may see them."""
    game, info, table = state.game, state.info, state.table
    viewer = -1 if seat is None else seat
    counters = view_counters(state)
    counters.pop("Bids", None)  # each seat's bid is a column, shown only where the viewer may see it
    counters.pop("Hand points", None)
    areas = []
    if info.turned is not None and "Turned" in counters and counters["Turned"] != "-":
        areas.append(view_area("Turned for trump", [table.code[info.turned]]))
    if state.phase == PASSING and seat is not None and info.passed[seat]:
        target = pass_target(seat, state.direction, state.num_players)
        areas.append(view_area(f"Your pass to {state.player_name(target)}", table.codes(info.passed[seat]),
                               kind="pass"))
    if info.stock and not state.between_rounds():
        areas.append(view_area("Stock", hidden=len(info.stock)))
    face_down = len(info.aside) - (info.turned in info.aside)
    if face_down > 0 and not state.setting_up() and not state.between_rounds():
        areas.append(view_area(game.rules.deal.leftover_name.capitalize(), hidden=face_down))
    columns: dict[str, list] = {}
    if game.bidding is not None:
        columns["Bid"] = [bid if bid is None or state.sees_bid(viewer, other) else HIDDEN_BID
                          for other, bid in enumerate(state.bids)]
    if game.has_points:
        columns["Points"] = list(state.hand_points)
    return {"areas": areas, "counters": counters, "columns": columns}


def action_view(game, before, action, after, seat: int | None) -> dict | None:
    """How `seat` sees one action taken in `before`: chance steps without the cards dealt, a
    hidden bid without its number, a card passed by someone else as "a card"."""
    dealer = before.player_name(before.dealer)
    round_name = game.rules.round_name
    if isinstance(action, ChooseSeat):
        return {"seat": None, "text": f"{before.player_name(action.seat)} deals first"}
    if isinstance(action, Deal):
        return {"seat": None, "text": f"{dealer} deals {round_name} {before.round + 1}: "
                                      f"{len(after.hands[0])} card(s) each"}
    if isinstance(action, TurnUp):
        return {"seat": None, "text": f"{dealer} turns {game.table.code[action.card]} for trump"}
    if isinstance(action, RoundSuit):
        name = game.rules.round_suit.name
        return {"seat": None, "text": f"{dealer} reveals {game.deck.suits[action.suit].name} as the {name}"}
    if before.current_player() == CHANCE:
        return None
    actor = before.current_player()
    if before.phase == BIDDING:
        shown = game.bidding.spec.style == "open" or actor == seat
        return {"seat": actor, "text": f"bids {action - BID}" if shown else "bids"}
    if before.phase == CHOOSE_TRUMP:
        named = "no" if action == NO_TRUMP else game.deck.suits[action - TRUMP].name
        return {"seat": actor, "text": f"names {named} trump"}
    if before.phase == PASSING:
        if action == PASS_DONE:
            return {"seat": actor, "text": "passes no more cards"}
        target = pass_target(actor, before.direction, before.num_players)
        card = game.table.code[action - PASS] if seat == actor else "a card"
        return {"seat": actor, "text": f"passes {card} to {before.player_name(target)}"}
    return card_played_view(before, action, after)
