"""A cache of loaded and checked decks, so the quick commands skip parsing and checking.

`load_deck` answers like `generator.deck.loader.load_deck`. When a deck loads without errors, the
`Deck` is pickled into the user's cache folder ($XDG_CACHE_HOME/deckgen, else ~/.cache/deckgen),
one entry per deck file (and per installed copy of deckgen); its layout book is pickled apart, so
`load_deck(..., layouts=False)` (rule, referee: commands that draw no card) skips the costliest
part to unpickle and the layout modules' import. `deck_view(ref, decks_dir, "module:function")` keeps what the function
makes of the deck (plain data: a `deckgen list` row, a `show` table) in the deck's entry too, so
a later call answers without unpickling the deck or importing the model at all.

An entry is used only when everything the load depended on is unchanged, checked on every use:

- the bytes of the deck file, of every file it read (`Deck.inputs`: spreadsheets, shared
  layouts, fonts, icons) and of the art files it names, by size and BLAKE2 digest;
- deckgen itself: its version and the size and modification time of every file in the package
  and its templates (as Python's own byte-code cache checks sources), and the Python version;
- the path as given and the deck folder it resolves to (the model keeps both), and every art
  path, which must still resolve to itself (no symbolic link along it re-pointed).

An entry that fails any check, cannot be read or unpickled, fails its keyed seal, is a symbolic
link or is not the user's own file (writable by no one else), or sits in a cache folder that is
not the user's own, is ignored and rewritten (`core.cachefile`: only what deckgen sealed with
the user's secret is ever unpickled). Entries are written atomically (a temporary file, then a rename), and
not at all while a file the deck read is fresher than the load (saved during it, perhaps: the
digest could then describe bytes the loader never saw). A cache folder that cannot be written
only costs the speed.
"""

from __future__ import annotations

import os
import sys
import time
from importlib import import_module
from io import BytesIO
from pathlib import Path

from .. import __version__
from ..core.cachefile import cache_folder, code_stamp, read_sealed, write_sealed
from ..core.errors import UnreadableInput
from ..core.files import ALLOW_ENV, open_input
from ..core.resources import PACKAGE
from .files import DECKS_DIR, resolve_deck_path
from .model import Deck

try:  # the C module behind hashlib.blake2b, without hashlib loading OpenSSL at start-up
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b
try:  # the C module behind pickle, without pickle.py's pure-Python pickler (~1.5 ms at start-up)
    import _pickle as pickle
except ImportError:  # a Python without it
    import pickle


MAGIC = b"deckgen deck cache 3\n"
# A file modified this close to the load may have changed during it (timestamps are coarse:
# two seconds on FAT); its deck is not cached until a later run.
_SETTLE_NS = 2_000_000_000


class _Entry:
    """A verified entry: the facts of the files it was built from, the pickled deck (its layout
    book a persistent reference) and the pickled book, the views."""

    def __init__(self, files: list, arts: list, pickled: bytes, layouts: bytes, views: dict):
        self.files, self.arts, self.pickled, self.layouts, self.views = files, arts, pickled, layouts, views


def load_deck(ref: str | Path, decks_dir: Path = DECKS_DIR, layouts: bool = True) -> Deck:
    """`generator.deck.loader.load_deck`, from the cache when the deck and its inputs are unchanged.
    With `layouts=False` a deck from the cache comes without its layout book (`Deck.layouts`
    None), for a command that never draws a card."""
    path = resolve_deck_path(ref, decks_dir)
    place = _entry_path(path)
    entry = _read(place, path)
    deck = _unpickle(entry, layouts) if entry is not None else None
    if deck is None:
        deck, entry = _load(path)
        _write(place, path, entry)
    return deck


def deck_view(ref: str | Path, decks_dir: Path, view: str) -> object:
    """`function(load_deck(ref, decks_dir))` for `view` = "module:function", kept in the deck's
    entry; the function must depend on the deck alone and return plain data (it is pickled).
    Named, not passed, so that a hit does not even import the function's module."""
    path = resolve_deck_path(ref, decks_dir)
    place = _entry_path(path)
    entry = _read(place, path)
    if entry is not None and view in entry.views:
        return entry.views[view]
    deck = _unpickle(entry, layouts=True) if entry is not None else None
    if deck is None:
        deck, entry = _load(path)

    module, function = view.split(":")
    value = getattr(import_module(module), function)(deck)
    if entry is not None:
        entry.views = {**entry.views, view: value}
        _write(place, path, entry)
    return value


def _load(path: Path) -> tuple[Deck, _Entry | None]:
    """Load and check the deck afresh; its entry, or None when it is not to be cached."""
    # The loader, its checks and the layouts' modules only on a miss: skipping their import
    # (about 60 ms) is half of what the cache is for.
    from .loader import load_deck as load_checked

    started = time.time_ns()
    deck = load_checked(path)
    # The art files too: the layouts' checks read their sizes while loading.
    art_files = sorted({str(card.art) for card in deck.cards if card.art is not None and card.art.is_file()})
    files = [_file_facts(str(file), started - _SETTLE_NS) for file in (path, *deck.inputs, *art_files)]
    if any(facts is None for facts in files):
        return deck, None
    try:
        pickled, layouts = _pickled_apart(deck)
    except Exception:  # noqa: BLE001 - a deck that cannot be pickled is simply not cached
        return deck, None
    arts = sorted({str(card.art) for card in deck.cards if card.art is not None})
    return deck, _Entry(files, arts, pickled, layouts, {})


def _pickled_apart(deck: Deck) -> tuple[bytes, bytes]:
    """The deck pickled with its layout book as a persistent reference, and the book."""
    book = deck.layouts
    out = BytesIO()
    pickler = pickle.Pickler(out, protocol=5)
    pickler.persistent_id = lambda obj: "layouts" if obj is book and book is not None else None
    pickler.dump(deck)
    return out.getvalue(), pickle.dumps(book, protocol=5)


def _entry_path(path: Path) -> Path | None:
    folder = cache_folder()
    if folder is None:
        return None
    try:  # one entry per deck file and per installed deckgen: two installs do not take turns
        place = f"{path}\0{path.parent.resolve()}\0{PACKAGE}"
    except (OSError, RuntimeError):  # a symbolic link loop: the loader reports it
        return None
    return folder / f"{blake2b(place.encode('utf-8', 'surrogateescape'), digest_size=16).hexdigest()}.deck"


def _key(path: Path) -> tuple:
    """What the entry must have been written under, besides its files."""
    # The folders allowed besides the deck's: a deck cached with one allowed is not read without it.
    return (__version__, sys.version, str(path), str(path.parent.resolve()), code_stamp(),
            os.environ.get(ALLOW_ENV, ""))


def _file_facts(name: str, settled_before: int | None = None) -> tuple[str, int, str] | None:
    """(path, size, digest) of a regular file; None for anything else (a FIFO is never opened),
    or for a file modified after `settled_before` (ns since the epoch)."""
    try:
        with open_input(name, "input") as handle:
            info = os.fstat(handle.fileno())
            if settled_before is not None and info.st_mtime_ns >= settled_before:
                return None
            data = handle.read()
    except (UnreadableInput, OSError):
        return None
    return name, len(data), blake2b(data).hexdigest()


def _read(place: Path | None, path: Path) -> _Entry | None:
    """The entry, checked against the files and code it was built from; None for a missing,
    corrupt or stale one."""
    body = read_sealed(place, MAGIC)
    if body is None:
        return None
    try:
        key, files, arts, pickled, layouts, views = pickle.loads(body)
        if key != _key(path) or not all(_file_facts(facts[0]) == facts for facts in files):
            return None
        if any(os.path.realpath(art) != art for art in arts):
            return None
        return _Entry(files, arts, pickled, layouts, views)
    except Exception:  # noqa: BLE001 - any unreadable entry is a miss, never an error
        return None


def _unpickle(entry: _Entry, layouts: bool) -> Deck | None:

    try:
        book = pickle.loads(entry.layouts) if layouts else None
        unpickler = pickle.Unpickler(BytesIO(entry.pickled))
        unpickler.persistent_load = lambda reference: book if reference == "layouts" else _unknown(reference)
        deck = unpickler.load()
    except Exception:  # noqa: BLE001 - a deck from an older model, say: load it afresh
        return None
    return deck if isinstance(deck, Deck) else None


def _unknown(reference):
    raise pickle.UnpicklingError(f"unknown persistent reference {reference!r}")


def _write(place: Path | None, path: Path, entry: _Entry | None) -> None:
    if place is None or entry is None:
        return
    try:
        body = pickle.dumps((_key(path), entry.files, entry.arts, entry.pickled, entry.layouts, entry.views),
                            protocol=5)
    except Exception:  # noqa: BLE001 - a view that cannot be pickled is simply not kept
        return
    write_sealed(place, MAGIC, body)

