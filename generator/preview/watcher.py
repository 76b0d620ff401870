"""Saves to a deck's files, one reload per burst of saves (`generator.core.watching` groups
the file events), and the deck's check after each reload on a thread of its own.
"""

from __future__ import annotations

import threading
from typing import Callable

from ..core.watching import FileWatcher
from .session import PreviewSession


class DeckWatcher:
    """Threads that reload `session` whenever one of its files is saved, and check it after."""

    def __init__(self, session: PreviewSession, on_reload: Callable[[dict], None] | None = None):
        self.session = session
        self.on_reload = on_reload or (lambda update: None)
        self._files = FileWatcher(session.watched_files, self._reload)
        self.ready = self._files.ready  # set once the first watch is in place
        self._stop = threading.Event()
        # Checking a deck (lint, composition) takes longer than redrawing a card: it runs on a
        # thread of its own, once for the latest of any saves that came while it ran.
        self._check_wanted = threading.Event()
        self._checker = threading.Thread(target=self._check, name="deckgen-check", daemon=True)

    def start(self) -> "DeckWatcher":
        self._files.start()
        self._checker.start()
        self._check_wanted.set()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._check_wanted.set()
        self._files.stop()
        self._checker.join(timeout=5)

    def _reload(self) -> None:
        self.on_reload(self.session.reload(check=False))
        self._check_wanted.set()

    def _check(self) -> None:
        while True:
            self._check_wanted.wait()
            if self._stop.is_set():
                return
            self._check_wanted.clear()
            self.session.check()
