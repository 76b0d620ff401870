"""Parsed TrueType fonts kept between runs, so a command does not parse the same fonts again.

reportlab parses a font's tables in Python when it loads it (cmap, metrics, glyph offsets):
5-8 ms for each DejaVu face, and a deck draws with four or more. What the parse finds is kept
in the cache folder ($XDG_CACHE_HOME/deckgen/fonts/, beside the deck cache), as marshal data
(plain numbers, strings, lists and dicts: nothing in an entry is run), and a later run builds
the same `TTFont` from it in a millisecond or two.

The font's bytes are always read from the font file itself (they are what the PDF embeds), and
an entry is used only for the file it was made from, unchanged (the same device, inode, size
and modification time, as Python checks its byte-code against a source), for the same
reportlab and Python, and only when it is the user's own file with its checksum intact. Anything else is a
miss: the font is parsed as before and the entry rewritten. Deleting the folder is always safe.

An entry holds the attributes the parse sets on the font's face. When one is made, the font
it rebuilds is compared with the freshly parsed one, attribute by attribute: a reportlab whose
fonts hold anything this module does not rebuild gets no entry, and so parses every time, as
it would without this cache.
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

MAGIC = b"deckgen font cache 1\n"
_DIGEST = 32  # bytes of the entry's checksum
# Set on the face by the parse but not kept: the font's bytes (read afresh) and its scale function.
_FACE_UNKEPT = ("_ttf_data", "_pdfScale")


def load_ttfont(name: str, path: Path):
    """A reportlab `TTFont` named `name` from the TTF at `path`, as `TTFont(name, path)` makes it."""
    from reportlab.pdfbase.ttfonts import TTFont

    data, stamp = _read_font(path)
    place = _entry_path(path)
    if data is not None and place is not None:
        font = _from_entry(place, name, data, stamp)
        if font is not None:
            return font
    font = TTFont(name, str(path))
    if data is not None and place is not None and getattr(font.face, "_ttf_data", None) == data:
        _write_entry(place, font, data, stamp)
    return font


def _read_font(path: Path) -> tuple[bytes | None, tuple]:
    """The font file's bytes and the facts that identify this version of it."""
    try:
        with open(path, "rb") as handle:
            info = os.fstat(handle.fileno())
            return handle.read(), (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
    except OSError:  # TTFont reports the unreadable file in its own words
        return None, ()


def _entry_path(path: Path) -> Path | None:
    from reportlab import Version

    from ..deckcache import cache_folder

    folder = cache_folder()
    if folder is None:
        return None
    place = f"{os.path.abspath(path)}\0{Version}\0{sys.version}"
    return folder / "fonts" / f"{blake2b(place.encode('utf-8', 'surrogateescape'), digest_size=16).hexdigest()}.font"


def _scale(units_per_em: int):
    """The face's font-units-to-PDF-units function, as reportlab's parse defines it."""
    if units_per_em == 1000:
        return lambda x: x
    multiplier = 1000 / units_per_em
    return lambda x: x * multiplier


def _from_entry(place: Path, name: str, data: bytes, stamp: tuple):
    """The font from its entry, or None for a missing, foreign, corrupt or stale entry."""
    try:
        with open(place, "rb") as handle:
            if hasattr(os, "getuid"):  # an entry only this user could have written
                info = os.fstat(handle.fileno())
                if info.st_uid != os.getuid() or info.st_mode & 0o022:
                    return None
            raw = handle.read()
        if not raw.startswith(MAGIC):
            return None
        checksum, body = raw[len(MAGIC):len(MAGIC) + _DIGEST], raw[len(MAGIC) + _DIGEST:]
        if blake2b(body, digest_size=_DIGEST).digest() != checksum:
            return None
        made_from, face_fields, name_fields = marshal.loads(body)
        if made_from != stamp:
            return None
        return _rebuild(name, data, face_fields, name_fields)
    except Exception:  # noqa: BLE001 - any unreadable entry is a miss, never an error
        return None


def _rebuild(name: str, data: bytes, face_fields: dict, name_fields: dict):
    """The font `TTFont(name, ...)` makes, from its face's parsed attributes and its bytes."""
    from fnmatch import fnmatch
    from weakref import WeakKeyDictionary

    from reportlab import rl_config
    from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont, TTFontFace, unShapedFontGlob

    face = TTFontFace.__new__(TTFontFace)
    face.__dict__.update(face_fields)
    for field, text in name_fields.items():
        setattr(face, field, TTFNameBytes(text.encode("utf8")))
    face._ttf_data = data
    face._pdfScale = _scale(face.unitsPerEm)
    font = TTFont.__new__(TTFont)
    font.fontName, font.face, font.encoding, font.state = name, face, TTEncoding(), WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(name, pattern) for pattern in unShapedFontGlob)
    return font


def _comparable(font) -> tuple:
    """Everything of a font that drawing and embedding read, in a form `==` compares."""
    face = vars(font.face)
    fields = {field: value for field, value in face.items() if field != "_pdfScale"}
    names = {field: (bytes(value), value.ustr) for field, value in face.items() if hasattr(value, "ustr")}
    rest = {field: value for field, value in vars(font).items() if field not in ("face", "encoding", "state")}
    return (fields, names, rest, type(font.encoding), type(font.state), face["_pdfScale"](1234))


def _write_entry(place: Path, font, data: bytes, stamp: tuple) -> None:
    face = vars(font.face)
    if "_pdfScale" not in face or "unitsPerEm" not in face:
        return
    kept = {field: value for field, value in face.items() if field not in _FACE_UNKEPT}
    names = {field: value.ustr for field, value in kept.items() if hasattr(value, "ustr")}
    plain = {field: value for field, value in kept.items() if field not in names}
    try:
        body = marshal.dumps((stamp, plain, names))
        if _comparable(_rebuild(font.fontName, data, *marshal.loads(body)[1:])) != _comparable(font):
            return  # this reportlab's fonts hold something the entry would not bring back
    except (ValueError, TypeError, AttributeError):  # a value marshal cannot keep, or a different reportlab
        return
    entry = MAGIC + blake2b(body, digest_size=_DIGEST).digest() + body
    temporary = place.with_name(f".{place.name}.{os.getpid()}.{os.urandom(4).hex()}")
    try:
        place.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # 0o600 whatever the umask: entries that others may write are never read
        with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600),
                  "wb") as handle:
            handle.write(entry)
        os.replace(temporary, place)
    except OSError:  # a cache folder that cannot be written only costs the speed
        try:
            os.unlink(temporary)
        except OSError:
            pass
