"""The preview's web server: the standard library's threading HTTP server and server-sent events.

Why the standard library: the page needs a handful of GET routes and a one-way push, which
`http.server` and an SSE stream give without a dependency; one designer's browser tabs are a
few connections, which a thread each serves well. Routes:

- `/` the page; `/state` the current cards, problems and error as JSON;
- `/events` the stream of updates (each a JSON `data:` line, see `session`);
- `/img/<dpi>/<hash>.png` a card's picture by content hash: a new drawing has a new URL, so
  the browser may cache every picture for ever and never shows an old one;
- `/deck/<path>` and `/output/<path>` files from the deck's folder and the output folder, and
  nothing outside them (`..`, encoded or not, and links that lead out are refused).

Requests naming another host than the server's are refused too, so a web page the designer
visits cannot read the preview through a rebound DNS name; slow clients, the backlog and
files streamed through deckgen's opener are `generator.core.localweb`'s rules.
"""

from __future__ import annotations

import json
import re
from http import HTTPStatus
from urllib.parse import unquote, urlsplit

from ..core.localweb import LocalHandler, LocalServer
from .page import page_html
from .session import PreviewSession

_IMAGE = re.compile(r"^/img/(?P<dpi>\d{2,4})/(?P<hash>[0-9a-f]{8,64})\.png$")


class PreviewHandler(LocalHandler):
    server: "PreviewServer"

    def do_GET(self) -> None:
        if self.host_refused():
            return
        path = urlsplit(self.path).path
        session = self.server.session
        if path == "/":
            return self.send(HTTPStatus.OK, page_html(session.state()).encode(), "text/html; charset=utf-8")
        if path == "/state":
            body = json.dumps(session.state(), ensure_ascii=False).encode()
            return self.send(HTTPStatus.OK, body, "application/json", cache="no-store")
        if path == "/events":
            return self._events()
        match = _IMAGE.match(path)
        if match:
            try:
                png = session.image(match.group("hash"), int(match.group("dpi")))
            except Exception as error:  # noqa: BLE001 - a zoom that cannot be drawn: say so, keep serving
                return self._send_text(HTTPStatus.INTERNAL_SERVER_ERROR,
                                       f"cannot draw this card: {type(error).__name__}: {error}")
            if png is None:
                return self.send_text(HTTPStatus.NOT_FOUND, "no such picture (the card has changed since)")
            return self.send(HTTPStatus.OK, png, "image/png", cache="public, max-age=31536000, immutable")
        for prefix, root in (("/deck/", session.folder), ("/output/", session.output_dir)):
            if path.startswith(prefix):
                return self.send_file(root, unquote(path[len(prefix):]),
                                      "only files inside the deck's folder and the output folder")
        return self.send_text(HTTPStatus.NOT_FOUND, f"nothing at {path}")

    def _events(self) -> None:
        session = self.server.session
        # The page may have loaded before the last update: it compares versions.
        self.stream_events(session.listeners, f'{{"type": "hello", "version": {session.version}}}')


class PreviewServer(LocalServer):
    handler_class = PreviewHandler
    session: PreviewSession
