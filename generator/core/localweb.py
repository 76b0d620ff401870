"""The ground rules of deckgen's little web servers (`deckgen watch`, `deckgen play`): the
standard library's threading HTTP server, answering only to its own name, with bounded
request bodies, same-origin writes and server-sent events.

Why these rules: a server on 127.0.0.1 is still reachable from any web page the user opens
(a page can send requests to localhost, or point a DNS name of its own at 127.0.0.1). So a
request naming another host than the server's own address is refused while the server is
bound to the loopback address; a request that changes something (POST) must come from a page
of this server (its `Origin`), carry JSON (which a foreign page cannot send without asking
first) and a body of at most `MAX_BODY_BYTES`. A client silent for `READ_TIMEOUT_SECONDS` is
dropped, the listen backlog is `BACKLOG`, and files are streamed through deckgen's opener (a
FIFO in a served folder is refused, not waited on).
"""

from __future__ import annotations

import json
import mimetypes
import os
import queue
import sys
import threading
import time
import webbrowser
from functools import lru_cache
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable

from .files import RefusedInput, open_input

LOOPBACK = ("127.0.0.1", "::1", "localhost")
MAX_BODY_BYTES = 16 * 1024  # a move, a seating plan: a few hundred bytes
KEEPALIVE_SECONDS = 10.0  # an event stream says it is alive this often
# A client that sends nothing for this long is dropped (a slow or stalled client holds one
# thread; a browser sends a request at once).
READ_TIMEOUT_SECONDS = 30.0
BACKLOG = 128  # connections waiting to be accepted: a page opens a few dozen at once
CHUNK = 1 << 16  # files are sent in pieces of this size, never read whole into memory


def contained(root: Path, relative: str) -> Path | None:
    """The file `relative` (already URL-decoded) names inside `root`, or None if it is outside."""
    if "\0" in relative:
        return None
    base = root.resolve()
    candidate = (base / relative.lstrip("/")).resolve()
    return candidate if candidate.is_relative_to(base) else None


def script_json(data) -> str:
    """JSON that is safe inside a page's <script> element: no `</script>`, no `<!--`."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


@lru_cache(maxsize=8)
def page_template(folder: Path, name: str):
    """A Jinja template of a page deckgen serves, HTML-escaped, from one of its template folders."""
    import jinja2

    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(folder), autoescape=True,
                                     trim_blocks=True, lstrip_blocks=True)
    return environment.get_template(name)


def serve_until_interrupted(url: str, open_browser: bool, stop: Callable[[], None], say: Callable[[str], None]) -> None:
    """Open `url` in the browser if asked, wait for Ctrl-C, then `stop()` the server."""
    if open_browser:
        webbrowser.open(url)
    try:
        while True:
            time.sleep(0.5)
    except KeyboardInterrupt:
        say("stopped")
    finally:
        stop()


class Listeners:
    """The open pages' event queues: every message goes to each; a page that stopped reading is
    dropped (it asks for the whole state again when it reconnects)."""

    def __init__(self) -> None:
        self._queues: list[queue.Queue] = []
        self._lock = threading.Lock()

    def subscribe(self) -> queue.Queue:
        listener: queue.Queue = queue.Queue(maxsize=64)
        with self._lock:
            self._queues.append(listener)
        return listener

    def unsubscribe(self, listener: queue.Queue) -> None:
        with self._lock:
            if listener in self._queues:
                self._queues.remove(listener)

    def publish(self, message: str) -> None:
        with self._lock:
            queues = list(self._queues)
        for listener in queues:
            try:
                listener.put_nowait(message)
            except queue.Full:
                self.unsubscribe(listener)


class LocalServer(ThreadingHTTPServer):
    """A threading server of one session (`handler_class` answers its requests) that knows its
    own address and stops cleanly."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = BACKLOG
    handler_class: type[BaseHTTPRequestHandler]

    def __init__(self, session, host: str = "127.0.0.1", port: int = 8000):
        super().__init__((host, port), self.handler_class)
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


class LocalHandler(BaseHTTPRequestHandler):
    """Answers with explicit lengths and no-sniffing, checks the Host, Origin and body size,
    and writes server-sent events."""

    server: LocalServer
    protocol_version = "HTTP/1.1"
    timeout = READ_TIMEOUT_SECONDS  # socketserver sets it on the connection: reads wait no longer
    extra_headers: dict[str, str] = {}  # sent with every answer (a page's security policy...)

    def log_message(self, format: str, *args) -> None:  # quiet: the terminal shows what matters
        pass

    def host_refused(self) -> bool:
        """Refuse (and answer) a request naming another host while bound to the loopback address."""
        bound = self.server.server_address[0]
        if bound in LOOPBACK and self.headers.get("Host", "") not in self.server.allowed_hosts():
            self.send_text(HTTPStatus.FORBIDDEN, "this server answers to its own address only")
            return True
        return False

    def read_json_body(self) -> bytes | None:
        """The body of a same-origin JSON request of bounded size; None (answered) otherwise."""
        origin = self.headers.get("Origin")
        if origin is None or origin != f"http://{self.headers.get('Host', '')}":
            self.send_text(HTTPStatus.FORBIDDEN, "only this server's own pages may send this")
            return None
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            self.send_text(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON (Content-Type: application/json)")
            return None
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self.send_text(HTTPStatus.LENGTH_REQUIRED, "say the body's length (Content-Length)")
            return None
        if not 0 <= length <= MAX_BODY_BYTES:
            self.close_connection = True  # the body is not read: the connection cannot be reused
            self.send_text(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a request body is at most {MAX_BODY_BYTES} bytes")
            return None
        return self.rfile.read(length)

    def send(self, status: HTTPStatus, body: bytes, kind: str, cache: str = "no-store") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def send_text(self, status: HTTPStatus, text: str) -> None:
        self.send(status, (text + "\n").encode(), "text/plain; charset=utf-8")

    def send_file(self, root: Path, relative: str, refusal: str) -> None:
        """Stream the file `relative` names inside `root` (`refusal` answers a path leading out)."""
        found = contained(root, relative)
        if found is None:
            return self.send_text(HTTPStatus.FORBIDDEN, refusal)
        try:
            handle = open_input(found, "output", within=root)
        except RefusedInput as error:
            return self.send_text(HTTPStatus.NOT_FOUND, f"no file {relative}: {error.reason}")
        with handle:
            remaining = os.fstat(handle.fileno()).st_size
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", mimetypes.guess_type(found.name)[0] or "application/octet-stream")
            self.send_header("Content-Length", str(remaining))
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")
            for name, value in self.extra_headers.items():
                self.send_header(name, value)
            self.end_headers()
            while remaining:  # no more than announced, should the file grow meanwhile
                piece = handle.read(min(CHUNK, remaining))
                if not piece:  # it shrank: the answer is short, so the connection cannot go on
                    self.close_connection = True
                    break
                self.wfile.write(piece)
                remaining -= len(piece)

    def start_events(self) -> None:
        """Open a server-sent event stream (then `event` and `keep_alive` write to it)."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "keep-alive")
        self.end_headers()

    def stream_events(self, listeners: Listeners, hello: str) -> None:
        """Answer with an event stream: `hello` first, then each message published, until the
        page goes or the server stops."""
        listener = listeners.subscribe()
        try:
            self.start_events()
            self.event(hello)
            while not self.server.stopping.is_set():
                try:
                    self.event(listener.get(timeout=KEEPALIVE_SECONDS))
                except queue.Empty:
                    self.keep_alive()
        except ConnectionError:
            pass
        finally:
            listeners.unsubscribe(listener)
            self.close_connection = True

    def event(self, data: str) -> None:
        self.wfile.write(b"retry: 500\ndata: " + data.encode() + b"\n\n")
        self.wfile.flush()

    def keep_alive(self) -> None:
        self.wfile.write(b": keep-alive\n\n")
        self.wfile.flush()
