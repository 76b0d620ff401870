"""What one link may see of the table, as the JSON its page draws: the deck's card pictures,
the seats, and of the game only what the engine shows that seat (`GameState.view`, the moves
as `Game.action_view` tells them to it, its own legal moves when it is to act). The owner's
link adds the other seats' links, the log's path, the undo and the offer of new rules.
"""

from __future__ import annotations

from ..deck.model import Deck
from ..games.base import CHANCE
from ..games.bots import BOT_KINDS
from .table import PERSON, Table, default_plan

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from .session import PlaySession


def faces(deck: Deck) -> dict[str, int]:
    """Each card code's picture: the index of the first card with that code."""
    found: dict[str, int] = {}
    for index, card in enumerate(deck.cards):
        found.setdefault(card.code, index)
    return found


def link_state(session: "PlaySession", owner: bool, seat_link: int | None) -> dict:
    """Everything the page of one link shows, and nothing else."""
    with session.lock:
        seat = session.seat_of(owner, seat_link)
        table = session.table
        deck = session.decks[session.game_version] if table else session.deck
        version = session.game_version if table else session.newest
        state: dict = {
            "version": session.version,
            "deck": {"id": deck.id, "name": deck.name, "pictures": f"card/{version}/", "faces": faces(deck),
                     "card_mm": [deck.card_size.width_mm, deck.card_size.height_mm]},
            "you": {"seat": seat, "owner": owner, "name": session.plan[seat].name if seat is not None else None},
            "seats": [{"name": entry.name, "kind": entry.kind} for entry in session.plan],
            "hot_seat": session.hot_seat,
            "game": _game(session, table, seat) if table else None,
            "failure": session.failure,
        }
        if owner:
            state["owner"] = _owner_part(session, table)
        return state


def _game(session: "PlaySession", table: Table, seat: int | None) -> dict:
    to_act = table.to_act()
    pending = table.state.pending()
    rule = None
    if pending is not None and pending.rule:
        try:
            found = table.game.deck.rule(pending.rule)
            rule = {"id": found.id, "number": found.number, "title": found.title}
        except KeyError:
            rule = {"id": pending.rule, "number": "", "title": ""}
    yours = seat is not None and to_act == seat
    return {
        "number": session.games,
        "step": session.step(table),
        "over": table.over,
        "outcome": table.outcome(),
        "to_act": to_act if to_act >= 0 else None,
        "chance": to_act == CHANCE,
        "owes": pending.owes if pending else "",
        "rule": rule,
        "your_turn": yours,
        "moves": table.moves() if yours else [],
        "view": table.state.view(seat),
        "events": table.events(seat),
        "last_trick": table.last_trick(seat),
        "pass_to": _pass_to(session, table),
    }


def _pass_to(session: "PlaySession", table: Table) -> dict | None:
    """Hot seat: the person the device must be handed to before the table shows their hand."""
    if not session.hot_seat:
        return None
    to_act = table.person_to_act()
    if to_act is None or to_act == session.viewer:
        return None
    return {"seat": to_act, "name": session.plan[to_act].name}


def _owner_part(session: "PlaySession", table: Table | None) -> dict:
    return {
        "links": [{"seat": seat, "name": session.plan[seat].name, "link": f"/t/{token}/"}
                  for seat, token in sorted(session.links.items())],
        "kinds": [PERSON, *BOT_KINDS],
        "players": list(session.players),
        "log": str(table.log_path) if table else None,
        "can_undo": bool(table and any(actor >= 0 and table.seats[actor].person for actor in table.actors)),
        "undone": list(table.undone) if table else [],
        "new_rules": session.newest != session.game_version and table is not None,
        "reload_error": list(session.reload_error),
        "plan": [{"name": entry.name, "kind": entry.kind}
                 for entry in session.plan or default_plan(session.players[0])],
    }
