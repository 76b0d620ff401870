"""The table's web server: the standard library's threading HTTP server with deckgen's local
rules (`generator.core.localweb`: its own Host only, same-origin JSON writes, bounded bodies)
and server-sent events. Everything lives under a link's token; anything else is "not found":

- `GET /t/<token>/` the page; `/state` what this link may see (JSON, `seen.link_state`);
  `/events` a stream of version numbers, one per change (the page then asks for `/state`);
  `/card/<deck version>/<index or back>.png` the deck's card pictures;
- `POST /t/<token>/act` a move (`{"move": id, "step": step}` or `{"text": "7H"}`); the owner's
  link also `/seat` (the seating plan and hot seat), `/deal` (a new game), `/undo` and
  `/hand-over` (hot seat: the device is now in this person's hands).

A move answers 200 with the new state, 422 with the referee's refusal (message, rule, legal
moves), 409 when it is not that seat's turn or the table moved on.
"""

from __future__ import annotations

import json
import re
from http import HTTPStatus
from urllib.parse import urlsplit

from ..core.errors import DeckgenError
from ..core.localweb import LocalHandler, LocalServer
from ..games.base import IllegalAction
from .page import page_html
from .seen import link_state
from .session import PlaySession
from .table import SeatPlan, TableError

_ROUTE = re.compile(r"^/t/(?P<token>[A-Za-z0-9_-]{16,64})/(?P<rest>.*)$")
_CARD = re.compile(r"^card/(?P<version>\d{1,9})/(?P<key>\d{1,5}|back)\.png$")
# The page's script and style are inline, its pictures and requests this server's own; nothing
# else may load, and no link (a token) leaves in a Referer.
PAGE_POLICY = ("default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
NOT_FOUND = "nothing here: open a link `deckgen play` printed, or one the table's owner gave you"


class PlayHandler(LocalHandler):
    server: "PlayServer"
    extra_headers = {"Content-Security-Policy": PAGE_POLICY, "Referrer-Policy": "no-referrer"}

    def _link(self) -> tuple[bool, int | None, str] | None:
        """(owner?, seat, the rest of the path) for a request under a known link; answered otherwise."""
        if self.host_refused():
            return None
        match = _ROUTE.match(urlsplit(self.path).path)
        role = self.server.session.role(match.group("token")) if match else None
        if role is None:
            self.send_text(HTTPStatus.NOT_FOUND, NOT_FOUND)
            return None
        return (*role, match.group("rest"))

    def do_GET(self) -> None:
        found = self._link()
        if found is None:
            return
        owner, seat, rest = found
        session = self.server.session
        if rest == "":
            state = link_state(session, owner, seat)
            return self.send(HTTPStatus.OK, page_html(state).encode(), "text/html; charset=utf-8")
        if rest == "state":
            return self._json(HTTPStatus.OK, link_state(session, owner, seat))
        if rest == "events":
            return self._events()
        match = _CARD.match(rest)
        if match:
            png = session.images.picture(int(match.group("version")), match.group("key"))
            if png is None:
                return self.send_text(HTTPStatus.NOT_FOUND, "no such card picture")
            return self.send(HTTPStatus.OK, png, "image/png", cache="private, max-age=31536000, immutable")
        return self.send_text(HTTPStatus.NOT_FOUND, NOT_FOUND)

    def do_POST(self) -> None:
        found = self._link()
        if found is None:
            return
        owner, seat, rest = found
        body = self.read_json_body()
        if body is None:
            return
        try:
            request = json.loads(body or b"{}")
        except (ValueError, UnicodeDecodeError):
            return self._json(HTTPStatus.BAD_REQUEST, {"ok": False, "error": "the request is not JSON"})
        if not isinstance(request, dict):
            return self._json(HTTPStatus.BAD_REQUEST, {"ok": False, "error": "send a JSON object"})
        session = self.server.session
        owners_only = {"seat", "deal", "undo", "hand-over"}
        if rest not in owners_only | {"act"}:
            return self.send_text(HTTPStatus.NOT_FOUND, NOT_FOUND)
        if rest in owners_only and not owner:
            return self._json(HTTPStatus.FORBIDDEN, {"ok": False, "error": "only the table's owner may do that"})
        try:
            if rest == "act":
                session.act(owner, seat, request)
            elif rest == "seat":
                session.seat(_plan(request), bool(request.get("hot_seat")))
            elif rest == "deal":
                session.deal()
            elif rest == "undo":
                session.undo()
            else:
                session.hand_over(_whole(request.get("seat"), "seat"))
        except IllegalAction as error:
            return self._json(HTTPStatus.UNPROCESSABLE_ENTITY, {"ok": False, "refusal": session.refusal(error),
                                                                "state": link_state(session, owner, seat)})
        except TableError as error:
            return self._json(HTTPStatus.CONFLICT, {"ok": False, "error": str(error),
                                                    "state": link_state(session, owner, seat)})
        except DeckgenError as error:
            return self._json(HTTPStatus.BAD_REQUEST, {"ok": False, "error": str(error)})
        return self._json(HTTPStatus.OK, {"ok": True, "state": link_state(session, owner, seat)})

    def _json(self, status: HTTPStatus, data: dict) -> None:
        self.send(status, json.dumps(data, ensure_ascii=False).encode(), "application/json")

    def _events(self) -> None:
        session = self.server.session
        self.stream_events(session.listeners, json.dumps({"version": session.version}))


class PlayServer(LocalServer):
    handler_class = PlayHandler
    session: PlaySession


def _whole(value, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TableError(f"{what} must be a whole number")
    return value


def _plan(request: dict) -> list[SeatPlan]:
    """The seating plan of a `/seat` request: `{"seats": [{"name": "Ann", "kind": "person"}, ...]}`."""
    seats = request.get("seats")
    if not isinstance(seats, list) or not seats:
        raise TableError("say who sits where: seats = [{name, kind}, ...]")
    plan = []
    for seat in seats:
        if not isinstance(seat, dict) or not isinstance(seat.get("name"), str) or not isinstance(seat.get("kind"), str):
            raise TableError("each seat has a name and a kind (person or a bot level)")
        plan.append(SeatPlan(seat["name"].strip(), seat["kind"]))
    return plan
