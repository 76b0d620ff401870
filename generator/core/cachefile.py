"""Entry files in deckgen's cache folder for data parsed from a file (fonts, hyphenation
patterns), so a later run skips the parse.

An entry is marshal data (plain numbers, strings, lists and dicts: nothing in it is run)
behind a magic line and a seal. Every sealed file of the cache folder (these, and the deck
cache's pickles) trusts nothing it did not write:

- the seal is keyed: BLAKE2b with a per-user secret kept in `seal-key` (mode 0600), so a
  planted entry with a correct checksum still fails;
- the folder is used only when it is the user's own real folder, writable by no one else;
- an entry is opened without following a symbolic link (O_NOFOLLOW), through
  `core.files` (a FIFO planted there cannot block), and read only when it is the user's own
  file that no one else may write;
- entries are written atomically (a temporary file, then a rename) with mode 0o600.

Any failure is a miss, never an error: deleting the folder is always safe.
"""

from __future__ import annotations

import functools
import marshal
import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import UnreadableInput
from .files import open_input
from .resources import PACKAGE, TEMPLATES

if TYPE_CHECKING:
    import jinja2

try:  # the C module behind hashlib.blake2b, without hashlib loading OpenSSL
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b
try:  # hmac.compare_digest, without hmac loading hashlib and OpenSSL
    from _operator import _compare_digest as compare_digest
except ImportError:  # another Python
    from hmac import compare_digest

_DIGEST = 32  # bytes of an entry's seal
_KEY_BYTES = 32  # bytes of the user's sealing secret (BLAKE2b's longest key is 64)
_KEY_FILE = "seal-key"
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)


def entry_path(kind: str, source: str, *versions: str) -> Path | None:
    """Where the entry for `source` (an absolute file name, or another key) goes: one per
    source and per version of the parser and Python (None when there is no cache folder)."""
    folder = cache_folder()
    if folder is None:
        return None
    name = "\0".join((source, *versions, sys.version))
    return folder / kind / f"{blake2b(name.encode('utf-8', 'surrogateescape'), digest_size=16).hexdigest()}.{kind}"


def file_stamp(handle) -> tuple:
    """What identifies this version of an open file: device, inode, size, modification time (as
    Python checks its byte-code against a source)."""
    info = os.fstat(handle.fileno())
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def read_entry(place: Path, magic: bytes):
    """The entry's data, or None for a missing, foreign, corrupt or unreadable one."""
    body = read_sealed(place, magic)
    if body is None:
        return None
    try:
        return marshal.loads(body)
    except Exception:  # noqa: BLE001 - any unreadable entry is a miss, never an error
        return None


def write_entry(place: Path, magic: bytes, body: bytes) -> None:
    """Write `body` (marshal data) as the entry at `place`; a folder that cannot be written only
    costs the speed."""
    write_sealed(place, magic, body)


_TEMPLATE_MAGIC = b"deckgen template cache 1\n"


@functools.lru_cache(maxsize=None)
def template_code(namespace: str) -> "jinja2.BytecodeCache":
    """Jinja's compiled code of deckgen's shipped templates, for the environments of one
    `namespace` (environments with other options compile differently): kept in memory for this
    process, every deck's environment sharing it, and as an entry in the cache folder for the
    next run. Jinja uses code only while its template's source is the one it was compiled from."""
    import jinja2  # only the commands that render templates pay for Jinja (about 25 ms to import)

    class Kept(jinja2.BytecodeCache):
        def __init__(self) -> None:
            self.code: dict[str, bytes] = {}

        def load_bytecode(self, bucket) -> None:
            code = self.code.get(bucket.key)
            if code is None:
                place = entry_path("template", f"{namespace}\0{bucket.key}", jinja2.__version__)
                code = read_entry(place, _TEMPLATE_MAGIC) if place is not None else None
            if isinstance(code, bytes):
                bucket.bytecode_from_string(code)  # Jinja drops it unless the source is unchanged

        def dump_bytecode(self, bucket) -> None:
            code = self.code[bucket.key] = bucket.bytecode_to_string()
            place = entry_path("template", f"{namespace}\0{bucket.key}", jinja2.__version__)
            if place is not None:
                write_entry(place, _TEMPLATE_MAGIC, marshal.dumps(code))

    return Kept()


def cache_folder() -> Path | None:
    """Where entries go: $XDG_CACHE_HOME/deckgen, else ~/.cache/deckgen (None without a home)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        home = os.path.expanduser("~")
        if home == "~":
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "deckgen"


def read_sealed(place: Path | None, magic: bytes) -> bytes | None:
    """The body of a cache file written by `write_sealed` with this magic, when the cache folder
    is trusted, the file is the user's own (not a link) and its keyed seal holds; None otherwise
    (missing, foreign, planted, torn or corrupt)."""
    key = seal_key() if place is not None else None
    if key is None:
        return None
    try:
        with open_input(place, "cache", follow_links=False) as handle:
            if not owned_by_user(os.fstat(handle.fileno())):
                return None
            raw = handle.read()
    except (UnreadableInput, OSError):
        return None
    if not raw.startswith(magic):
        return None
    checksum, body = raw[len(magic):len(magic) + _DIGEST], raw[len(magic) + _DIGEST:]
    if not compare_digest(seal(body, key), checksum):
        return None
    return body


def seal(body: bytes, key: bytes) -> bytes:
    """The keyed seal of an entry's body: BLAKE2b keyed with the user's secret (a MAC), so an
    entry that someone else wrote, even with a correct unkeyed checksum, never passes."""
    return blake2b(body, digest_size=_DIGEST, key=key).digest()


def owned_by_user(info: os.stat_result) -> bool:
    """An entry this user wrote and no one else may change: unpickling runs what it names, so a
    file planted in a shared cache folder must never be read."""
    if not hasattr(os, "getuid"):  # Windows: the user's own profile folder
        return True
    return info.st_uid == os.getuid() and not info.st_mode & 0o022


def trusted_folder(folder: Path) -> bool:
    """Whether `folder` is a real folder (not a link) of this user's that no one else may
    write: the cache is used only then."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and owned_by_user(info)


def seal_key(create: bool = False) -> bytes | None:
    """The user's secret for sealing entries, from `<cache folder>/seal-key` (mode 0600, made on
    the first write); None when there is no trusted cache folder or no usable secret."""
    folder = cache_folder()
    if folder is None:
        return None
    if create:
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            return None
    if not trusted_folder(folder):
        return None
    place = os.path.join(folder, _KEY_FILE)
    key = _KEYS.get(place) or _read_key(place)
    if key is None and create:
        _make_key(place)
        key = _read_key(place)
    if key is not None:
        _KEYS[place] = key  # read once a process: a cache hit costs no second file
    return key


_KEYS: dict[str, bytes] = {}


def _read_key(place: str) -> bytes | None:
    try:
        with open_input(place, "cache", follow_links=False) as handle:
            info = os.fstat(handle.fileno())
            key = handle.read(_KEY_BYTES + 1)
    except (UnreadableInput, OSError):
        return None
    private = not hasattr(os, "getuid") or (info.st_uid == os.getuid() and not info.st_mode & 0o077)
    return key if private and len(key) == _KEY_BYTES else None


def _make_key(place: str) -> None:
    """Write a new secret where none is: written whole under another name, then linked into
    place, so a concurrent run reads either no secret or the whole of one."""
    temporary = f"{place}.{os.getpid()}.{os.urandom(4).hex()}"
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_FOLLOW | getattr(os, "O_BINARY", 0),
                             0o600)
        with open(descriptor, "wb") as handle:
            handle.write(os.urandom(_KEY_BYTES))
        os.link(temporary, place)
    except OSError:
        pass  # another run made it first, or the folder cannot be written: read what is there
    finally:
        try:
            os.unlink(temporary)
        except OSError:
            pass


def write_sealed(place: Path, magic: bytes, body: bytes) -> None:
    """Write magic, keyed seal and body to `place` atomically, readable by the user alone; a
    folder that cannot be written or trusted only costs the speed."""
    key = seal_key(create=True)
    if key is None:
        return
    data = magic + seal(body, key) + body
    temporary = place.with_name(f".{place.name}.{os.getpid()}.{os.urandom(4).hex()}")
    try:
        place.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # 0o600 whatever the umask: owned_by_user() refuses entries that others may write
        with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_FOLLOW | getattr(os, "O_BINARY", 0),
                          0o600), "wb") as handle:
            handle.write(data)
        os.replace(temporary, place)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


@functools.lru_cache(maxsize=1)
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
