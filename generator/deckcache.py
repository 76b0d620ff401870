"""A cache of loaded and checked decks, so the quick commands skip parsing and checking.

`load_deck` answers like `generator.loader.load_deck`. When a deck loads without errors, the
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

An entry that fails any check, cannot be read or unpickled, fails its own checksum, or is not
the user's own file (writable by no one else) is ignored and rewritten. Entries are written atomically (a temporary file, then a rename), and
not at all while a file the deck read is fresher than the load (saved during it, perhaps: the
digest could then describe bytes the loader never saw). A cache folder that cannot be written
only costs the speed.
"""

from __future__ import annotations

import os
import sys
import time
from functools import lru_cache
from pathlib import Path

from . import __version__
from .deckfiles import DECKS_DIR, resolve_deck_path
from .resources import PACKAGE, TEMPLATES

try:  # the C module behind hashlib.blake2b, without hashlib loading OpenSSL at start-up
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b
try:  # the C module behind pickle, without pickle.py's pure-Python pickler (~1.5 ms at start-up)
    import _pickle as pickle
except ImportError:  # a Python without it
    import pickle

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from .model import Deck

MAGIC = b"deckgen deck cache 3\n"
_DIGEST = 32  # bytes of the entry's checksum
# A file modified this close to the load may have changed during it (timestamps are coarse:
# two seconds on FAT); its deck is not cached until a later run.
_SETTLE_NS = 2_000_000_000


class _Entry:
    """A verified entry: the facts of the files it was built from, the pickled deck (its layout
    book a persistent reference) and the pickled book, the views."""

    def __init__(self, files: list, arts: list, pickled: bytes, layouts: bytes, views: dict):
        self.files, self.arts, self.pickled, self.layouts, self.views = files, arts, pickled, layouts, views


def load_deck(ref: str | Path, decks_dir: Path = DECKS_DIR, layouts: bool = True) -> Deck:
    """`generator.loader.load_deck`, from the cache when the deck and its inputs are unchanged.
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
    from importlib import import_module

    module, function = view.split(":")
    value = getattr(import_module(module), function)(deck)
    if entry is not None:
        entry.views = {**entry.views, view: value}
        _write(place, path, entry)
    return value


def cache_folder() -> Path | None:
    """Where entries go: $XDG_CACHE_HOME/deckgen, else ~/.cache/deckgen (None without a home)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        home = os.path.expanduser("~")
        if home == "~":
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "deckgen"


def _load(path: Path) -> tuple[Deck, _Entry | None]:
    """Load and check the deck afresh; its entry, or None when it is not to be cached."""
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
    from io import BytesIO

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
    return (__version__, sys.version, str(path), str(path.parent.resolve()), code_stamp())


@lru_cache(maxsize=1)
def code_stamp() -> str:
    """Size and modification time of every file of deckgen's package and templates."""
    stamps = []
    for root in dict.fromkeys((str(PACKAGE), str(TEMPLATES))):
        stack = [root]
        while stack:
            try:
                with os.scandir(stack.pop()) as entries:
                    for item in entries:
                        if item.is_dir(follow_symlinks=False):
                            if item.name != "__pycache__":
                                stack.append(item.path)
                        else:
                            info = item.stat()
                            stamps.append(f"{item.path}\0{info.st_size}\0{info.st_mtime_ns}")
            except OSError:
                continue
    stamps.sort()
    return blake2b("\n".join(stamps).encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()


def _file_facts(name: str, settled_before: int | None = None) -> tuple[str, int, str] | None:
    """(path, size, digest) of a regular file; None for anything else (a FIFO is never opened),
    or for a file modified after `settled_before` (ns since the epoch)."""
    try:
        info = os.stat(name)
        if info.st_mode & 0o170000 != 0o100000:  # not stat.S_ISREG (stat not imported for this)
            return None
        if settled_before is not None and info.st_mtime_ns >= settled_before:
            return None
        with open(name, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    return name, info.st_size, blake2b(data).hexdigest()


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


def read_sealed(place: Path | None, magic: bytes) -> bytes | None:
    """The body of a cache file written by `write_sealed` with this magic, when the file is the
    user's own and its checksum holds; None otherwise (missing, foreign, torn or corrupt)."""
    if place is None:
        return None
    try:
        with open(place, "rb") as handle:
            if not owned_by_user(os.fstat(handle.fileno())):
                return None
            raw = handle.read()
    except OSError:
        return None
    if not raw.startswith(magic):
        return None
    checksum, body = raw[len(magic):len(magic) + _DIGEST], raw[len(magic) + _DIGEST:]
    if blake2b(body, digest_size=_DIGEST).digest() != checksum:
        return None
    return body


def owned_by_user(info: os.stat_result) -> bool:
    """An entry this user wrote and no one else may change: unpickling runs what it names, so a
    file planted in a shared cache folder must never be read."""
    if not hasattr(os, "getuid"):  # Windows: the user's own profile folder
        return True
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def _unpickle(entry: _Entry, layouts: bool) -> Deck | None:
    from io import BytesIO

    from .model import Deck

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


def write_sealed(place: Path, magic: bytes, body: bytes) -> None:
    """Write magic, checksum and body to `place` atomically, readable by the user alone; a
    folder that cannot be written only costs the speed."""
    data = magic + blake2b(body, digest_size=_DIGEST).digest() + body
    temporary = place.with_name(f".{place.name}.{os.getpid()}.{os.urandom(4).hex()}")
    try:
        place.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # 0o600 whatever the umask: owned_by_user() refuses entries that others may write
        with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600),
                  "wb") as handle:
            handle.write(data)
        os.replace(temporary, place)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
