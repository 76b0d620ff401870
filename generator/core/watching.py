"""Saves to a set of files, one call per burst of saves (`deckgen watch` redraws on it,
`deckgen play` offers the new rules).

watchfiles (the Rust `notify` crate: inotify on Linux, FSEvents on macOS, with a polling
fallback) groups the events of one burst: an editor's write-to-temp-and-rename, or several
quick saves, arrive as one batch once the folder has been quiet for `QUIET_MS`. A batch that
touches one of the watched files calls `on_change` once.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from watchfiles import watch

QUIET_MS = 40  # a burst ends after this much quiet...
LONGEST_BURST_MS = 400  # ...or after this long, whichever comes first


def watched_folders(files: set[Path]) -> list[Path]:
    """The folders to watch for these files: each file's folder, none inside another."""
    folders = sorted({path.parent for path in files if path.parent.is_dir()})
    return [folder for folder in folders if not any(folder != other and folder.is_relative_to(other)
                                                    for other in folders)]


class FileWatcher:
    """A thread that calls `on_change()` whenever one of `files()` is saved; `files` is asked
    again after each change, so newly named files (new art) are watched too."""

    def __init__(self, files: Callable[[], set[Path]], on_change: Callable[[], None], name: str = "deckgen-watch"):
        self.files = files
        self.on_change = on_change
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.ready = threading.Event()  # set once the first watch is in place

    def start(self) -> "FileWatcher":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            folders = watched_folders(self.files())
            restart = False
            # `yield_on_timeout` lets the first (empty) batch say the watch is in place.
            for changes in watch(*folders, debounce=LONGEST_BURST_MS, step=QUIET_MS, stop_event=self._stop,
                                 rust_timeout=200, yield_on_timeout=True, raise_interrupt=False):
                self.ready.set()
                if not changes:
                    continue
                touched = {Path(path).resolve() for _, path in changes}
                if touched & self.files():
                    self.on_change()
                    if watched_folders(self.files()) != folders:
                        restart = True  # a file in a new folder: watch that too
                        break
            if not restart:
                return
