"""Entry files in deckgen's cache folder for data parsed from a file (fonts, hyphenation
patterns), so a later run skips the parse.

An entry is marshal data (plain numbers, strings, lists and dicts: nothing in it is run)
behind a magic line and a BLAKE2 checksum. It is read only when it is the user's own file,
writable by no one else, and intact; it is written atomically (a temporary file, then a
rename) with mode 0o600. Any failure is a miss, never an error: deleting the folder is
always safe.
"""

from __future__ import annotations

import functools
import marshal
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

try:  # the C module behind hashlib.blake2b, without hashlib loading OpenSSL
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b

if TYPE_CHECKING:
    import jinja2


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


_TEMPLATE_MAGIC = b"deckgen template cache 1\n"


@functools.lru_cache(maxsize=None)
def template_code(namespace: str) -> "jinja2.BytecodeCache":
    """Jinja's compiled code of deckgen's shipped templates, for the environments of one
    `namespace` (environments with other options compile differently): kept in memory for this
    process, every deck's environment sharing it, and as an entry in the cache folder for the
    next run. Jinja uses code only while its template's source is the one it was compiled from."""
    import jinja2

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
