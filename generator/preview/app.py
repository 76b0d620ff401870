"""A whole preview: session, watcher and server started together, stopped together.

`start_preview` is the library entry point (tests and benchmarks use it); `serve` is what
`deckgen watch` runs: it starts one, prints the address and waits for Ctrl-C.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from ..core.errors import OptionError
from ..core.localweb import serve_until_interrupted
from ..deck.loader import DECKS_DIR, resolve_deck_path
from .server import PreviewServer
from .session import PreviewSession
from .watcher import DeckWatcher


@dataclass
class Preview:
    session: PreviewSession
    server: PreviewServer
    watcher: DeckWatcher
    thread: threading.Thread

    @property
    def url(self) -> str:
        return self.server.url

    def stop(self) -> None:
        self.watcher.stop()
        self.server.stop()
        self.thread.join(timeout=5)


def start_preview(deck: str | Path, decks_dir: Path = DECKS_DIR, output_dir: Path = Path("output"),
                  host: str = "127.0.0.1", port: int = 0, dpi: int = 100, simulate: int = 0,
                  on_reload: Callable[[dict], None] | None = None, links: Sequence[tuple[str, str]] = ()) -> Preview:
    """Load and draw the deck, then serve it and watch its files; a broken deck still starts
    (the page shows its error until a save mends it). `links` are (title, address) tabs the
    page shows beside its own (the CLI adds `deckgen play`'s table as "Play")."""
    session = PreviewSession(resolve_deck_path(deck, decks_dir), output_dir, dpi=dpi, simulate=simulate, links=links)
    session.reload(check=False)
    try:
        server = PreviewServer(session, host, port)
    except OSError as error:
        raise OptionError(f"cannot serve on {host}:{port}: {error.strerror or error}; "
                          "give another --port (0 picks a free one)") from None
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                              name="deckgen-preview", daemon=True)
    thread.start()
    watcher = DeckWatcher(session, on_reload).start()
    watcher.ready.wait(timeout=5)
    return Preview(session, server, watcher, thread)


def serve(deck: str | Path, decks_dir: Path, output_dir: Path, host: str, port: int, dpi: int, simulate: int,
          open_browser: bool, say: Callable[[str], None], links: Sequence[tuple[str, str]] = ()) -> None:
    """Run a preview until Ctrl-C, printing its address and each redraw."""
    def report(update: dict) -> None:
        if update["type"] == "error":
            say("\n".join(update["error"]))
        else:
            codes = {card["key"]: card["code"] or card["key"] for card in update["cards"]}
            changed = [codes.get(key, key) for key in update.get("changed") or []]
            say(f"redrawn: {', '.join(changed)}" if changed else "saved: no card's drawing changed")

    preview = start_preview(deck, decks_dir, output_dir, host, port, dpi, simulate, on_reload=report, links=links)
    if preview.session.error:
        say("\n".join(preview.session.error))
    say(f"previewing {preview.session.deck_path} at {preview.url} (Ctrl-C stops)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        say(f"note: --host {host} lets other computers on the network see this preview")
    serve_until_interrupted(preview.url, open_browser, preview.stop, say)
