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
visits cannot read the preview through a rebound DNS name. A client silent for
`READ_TIMEOUT_SECONDS` is dropped, the listen backlog is `BACKLOG`, and files are streamed
through deckgen's opener (a FIFO in the deck's folder is refused, not waited on).
"""

from __future__ import annotations

import json
import mimetypes
import os
import queue
import re
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ..core.files import RefusedInput, open_input
from .page import page_html
from .session import PreviewSession

KEEPALIVE_SECONDS = 10.0
# A client that sends nothing for this long is dropped (a slow or stalled client holds one
# thread; a browser sends a request at once).
READ_TIMEOUT_SECONDS = 30.0
BACKLOG = 128  # connections waiting to be accepted: a page opens a few dozen at once
CHUNK = 1 << 16  # files are sent in pieces of this size, never read whole into memory
_IMAGE = re.compile(r"^/img/(?P<dpi>\d{2,4})/(?P<hash>[0-9a-f]{8,64})\.png$")


def contained(root: Path, relative: str) -> Path | None:
    """The file `relative` (already URL-decoded) names inside `root`, or None if it is outside."""
    if "\0" in relative:
        return None
    base = root.resolve()
    candidate = (base / relative.lstrip("/")).resolve()
    return candidate if candidate.is_relative_to(base) else None


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = BACKLOG

    def __init__(self, session: PreviewSession, host: str = "127.0.0.1", port: int = 8000):
        super().__init__((host, port), PreviewHandler)
        self.session = session
        self.stopping = threading.Event()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        shown = f"[{host}]" if ":" in str(host) else host
        return f"http://{shown}:{port}/"

    def allowed_hosts(self) -> set[str]:
        host, port = self.server_address[:2]
        names = {str(host), "localhost", "127.0.0.1", "[::1]"}
        return {f"{name}:{port}" for name in names} | names

    def handle_error(self, request, client_address) -> None:
        """A browser that closes a tab mid-answer is no error; anything else is printed as usual."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def stop(self) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()


class PreviewHandler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"
    timeout = READ_TIMEOUT_SECONDS  # socketserver sets it on the connection: reads wait no longer

    def log_message(self, format: str, *args) -> None:  # quiet: the terminal shows redraws
        pass

    def do_GET(self) -> None:
        host = self.headers.get("Host", "")
        bound = self.server.server_address[0]
        if bound in ("127.0.0.1", "::1", "localhost") and host not in self.server.allowed_hosts():
            return self._send_text(HTTPStatus.FORBIDDEN, "this preview answers to its own address only")
        path = urlsplit(self.path).path
        session = self.server.session
        if path == "/":
            return self._send(HTTPStatus.OK, page_html(session.state()).encode(), "text/html; charset=utf-8")
        if path == "/state":
            body = json.dumps(session.state(), ensure_ascii=False).encode()
            return self._send(HTTPStatus.OK, body, "application/json", cache="no-store")
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
                return self._send_text(HTTPStatus.NOT_FOUND, "no such picture (the card has changed since)")
            return self._send(HTTPStatus.OK, png, "image/png", cache="public, max-age=31536000, immutable")
        for prefix, root in (("/deck/", session.folder), ("/output/", session.output_dir)):
            if path.startswith(prefix):
                return self._file(root, unquote(path[len(prefix):]))
        return self._send_text(HTTPStatus.NOT_FOUND, f"nothing at {path}")

    def _file(self, root: Path, relative: str) -> None:
        found = contained(root, relative)
        if found is None:
            return self._send_text(HTTPStatus.FORBIDDEN, "only files inside the deck's folder and the output folder")
        try:
            handle = open_input(found, "output", within=root)
        except RefusedInput as error:
            return self._send_text(HTTPStatus.NOT_FOUND, f"no file {relative}: {error.reason}")
        kind = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        with handle:
            remaining = os.fstat(handle.fileno()).st_size
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(remaining))
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            while remaining:  # no more than announced, should the file grow meanwhile
                piece = handle.read(min(CHUNK, remaining))
                if not piece:  # it shrank: the answer is short, so the connection cannot go on
                    self.close_connection = True
                    break
                self.wfile.write(piece)
                remaining -= len(piece)

    def _events(self) -> None:
        session = self.server.session
        listener = session.subscribe()
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "keep-alive")
            self.end_headers()
            # The page may have loaded before the last update: it compares versions.
            self._event(f'{{"type": "hello", "version": {session.version}}}')
            while not self.server.stopping.is_set():
                try:
                    self._event(listener.get(timeout=KEEPALIVE_SECONDS))
                except queue.Empty:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
        except ConnectionError:
            pass
        finally:
            session.unsubscribe(listener)
            self.close_connection = True

    def _event(self, data: str) -> None:
        self.wfile.write(b"retry: 500\ndata: " + data.encode() + b"\n\n")
        self.wfile.flush()

    def _send(self, status: HTTPStatus, body: bytes, kind: str, cache: str = "no-store") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def _send_text(self, status: HTTPStatus, text: str) -> None:
        self._send(status, (text + "\n").encode(), "text/plain; charset=utf-8")
