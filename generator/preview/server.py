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
visits cannot read the preview through a rebound DNS name (`generator.core.localweb`).
"""

from __future__ import annotations

import json
import mimetypes
import re
from http import HTTPStatus
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..core.localweb import LocalHandler, LocalServer, contained
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
            png = session.image(match.group("hash"), int(match.group("dpi")))
            if png is None:
                return self.send_text(HTTPStatus.NOT_FOUND, "no such picture (the card has changed since)")
            return self.send(HTTPStatus.OK, png, "image/png", cache="public, max-age=31536000, immutable")
        for prefix, root in (("/deck/", session.folder), ("/output/", session.output_dir)):
            if path.startswith(prefix):
                return self._file(root, unquote(path[len(prefix):]))
        return self.send_text(HTTPStatus.NOT_FOUND, f"nothing at {path}")

    def _file(self, root: Path, relative: str) -> None:
        found = contained(root, relative)
        if found is None:
            return self.send_text(HTTPStatus.FORBIDDEN, "only files inside the deck's folder and the output folder")
        if not found.is_file():
            return self.send_text(HTTPStatus.NOT_FOUND, f"no file {relative}")
        kind = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        self.send(HTTPStatus.OK, found.read_bytes(), kind, cache="no-cache")

    def _events(self) -> None:
        session = self.server.session
        # The page may have loaded before the last update: it compares versions.
        self.stream_events(session.listeners, f'{{"type": "hello", "version": {session.version}}}')


class PreviewServer(LocalServer):
    handler_class = PreviewHandler
    session: PreviewSession
