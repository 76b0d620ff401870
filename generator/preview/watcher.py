"""Saves to a deck's files, one reload per burst of saves.

watchfiles (the Rust `notify` crate: inotify on Linux, FSEvents on macOS, with a polling
fallback) groups the events of one burst: an editor's write-to-temp-and-rename, or several
quick saves, arrive as one batch once the folder has been quiet for `QUIET_MS`. A batch that
touches a file the deck uses (the deck file, an art file) reloads the deck once.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from watchfiles import watch

from .session import PreviewSession

QUIET_MS = 40  # a burst ends after this much quiet...
LONGEST_BURST_MS = 400  # ...or after this long, whichever comes first


def watched_folders(files: set[Path]) -> list[Path]:
    """The folders to watch for these files: each file's folder, none inside another."""
    folders = sorted({path.parent for path in files if path.parent.is_dir()})
    return [folder for folder in folders if not any(folder != other and folder.is_relative_to(other)
                                                    for other in folders)]


class DeckWatcher:
    """A thread that reloads `session` whenever one of its files is saved."""

    def __init__(self, session: PreviewSession, on_reload: Callable[[dict], None] | None = None):
        self.session = session
        self.on_reload = on_reload or (lambda update: None)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="deckgen-watch", daemon=True)
        # Checking a deck (lint, composition) takes longer than redrawing a card: it runs on a
        # thread of its own, once for the latest of any saves that came while it ran.
        self._check_wanted = threading.Event()
        self._checker = threading.Thread(target=self._check, name="deckgen-check", daemon=True)
        self.ready = threading.Event()  # set once the first watch is in place

    def start(self) -> "DeckWatcher":
        self._thread.start()
        self._checker.start()
        self._check_wanted.set()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._check_wanted.set()
        self._thread.join(timeout=5)
        self._checker.join(timeout=5)

    def _check(self) -> None:
        while True:
            self._check_wanted.wait()
            if self._stop.is_set():
                return
            self._check_wanted.clear()
            self.session.check()

    def _run(self) -> None:
        while not self._stop.is_set():
            files = self.session.watched_files()
            folders = watched_folders(files)
            restart = False
            # `yield_on_timeout` lets the first (empty) batch say the watch is in place.
            for changes in watch(*folders, debounce=LONGEST_BURST_MS, step=QUIET_MS, stop_event=self._stop,
                                 rust_timeout=200, yield_on_timeout=True, raise_interrupt=False):
                self.ready.set()
                if not changes:
                    continue
                touched = {Path(path).resolve() for _, path in changes}
                if touched & self.session.watched_files():
                    self.on_reload(self.session.reload(check=False))
                    self._check_wanted.set()
                    if watched_folders(self.session.watched_files()) != folders:
                        restart = True  # art in a new folder: watch that too
                        break
            if not restart:
                return
