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
    from ..deckcache import read_sealed

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
    from ..deckcache import write_sealed

    write_sealed(place, magic, body)
