"""Entry files in deckgen's cache folder for data parsed from a file (fonts, hyphenation
patterns), so a later run skips the parse.

An entry is marshal data (plain numbers, strings, lists and dicts: nothing in it is run)
behind a magic line and a BLAKE2 checksum. It is read only when it is the user's own file,
writable by no one else, and intact; it is written atomically (a temporary file, then a
rename) with mode 0o600. Any failure is a miss, never an error: deleting the folder is
always safe.
"""

from __future__ import annotations

import marshal
import os
import sys
from pathlib import Path

try:  # the C module behind hashlib.blake2b, without hashlib loading OpenSSL
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b

_DIGEST = 32  # bytes of an entry's checksum


def entry_path(kind: str, source: str, *versions: str) -> Path | None:
    """Where the entry for `source` (an absolute file name, or another key) goes: one per
    source and per version of the parser and Python (None when there is no cache folder)."""
    from ..deckcache import cache_folder

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
    try:
        with open(place, "rb") as handle:
            if hasattr(os, "getuid"):  # an entry only this user could have written
                info = os.fstat(handle.fileno())
                if info.st_uid != os.getuid() or info.st_mode & 0o022:
                    return None
            raw = handle.read()
        if not raw.startswith(magic):
            return None
        checksum, body = raw[len(magic):len(magic) + _DIGEST], raw[len(magic) + _DIGEST:]
        if blake2b(body, digest_size=_DIGEST).digest() != checksum:
            return None
        return marshal.loads(body)
    except Exception:  # noqa: BLE001 - any unreadable entry is a miss, never an error
        return None


def write_entry(place: Path, magic: bytes, body: bytes) -> None:
    """Write `body` (marshal data) as the entry at `place`; a folder that cannot be written only
    costs the speed."""
    entry = magic + blake2b(body, digest_size=_DIGEST).digest() + body
    temporary = place.with_name(f".{place.name}.{os.getpid()}.{os.urandom(4).hex()}")
    try:
        place.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # 0o600 whatever the umask: entries that others may write are never read
        with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600),
                  "wb") as handle:
            handle.write(entry)
        os.replace(temporary, place)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
