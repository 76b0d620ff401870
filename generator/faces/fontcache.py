"""Parsed TrueType fonts kept between runs, so a command does not parse the same fonts again.

reportlab parses a font's tables in Python when it loads it (cmap, metrics, glyph offsets):
5-8 ms for each DejaVu face, and a deck draws with four or more. What the parse finds is kept
in the cache folder ($XDG_CACHE_HOME/deckgen/font/, beside the deck cache, see
`core.cachefile`), and a later run builds the same `TTFont` from it in a millisecond or two.

The font's bytes are always read from the font file itself (they are what the PDF embeds), and
an entry is used only for the file it was made from, unchanged (the same device, inode, size
and modification time), for the same reportlab and Python.

An entry holds the attributes reportlab's parse sets on the font's face, and is made only
when the face has exactly the attributes this module knows how to bring back, each a plain
value: a reportlab whose fonts hold anything else gets no entry, and so parses every time, as
it would without this cache. (tests/deck/test_kept_parses.py checks that a rebuilt font equals the
parsed one, attribute by attribute.)
"""

from __future__ import annotations

import marshal
import os
from fnmatch import fnmatch
from io import BytesIO
from pathlib import Path
from weakref import WeakKeyDictionary

from reportlab import Version, rl_config
from reportlab.pdfbase import ttfonts
from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFontFace, unShapedFontGlob

from ..core.cachefile import entry_path, file_stamp, read_entry, write_entry
from ..core.files import open_input
from ..deck.layouts.fontfiles import truetype_data

MAGIC = b"deckgen font cache 1\n"
# Set on the face by the parse but not kept: the font's bytes (read afresh) and its scale function.
_FACE_UNKEPT = ("_ttf_data", "_pdfScale")
# The face's attributes that are kept, as reportlab 4 and 5 set them; the names are kept as text.
_FACE_KEPT = {
    "_full_font", "_pos", "ascent", "bbox", "bold", "builtIn", "capHeight", "charToGlyph", "charWidths",
    "defaultWidth", "descent", "entrySelector", "filename", "flags", "fontRevision", "glyphNames", "glyphPos",
    "glyphToChar", "glyphWidths", "hmetrics", "italic", "italicAngle", "numGlyphs", "numTables", "rangeShift",
    "requiredEncoding", "searchRange", "stemV", "subfontNameX", "table", "tables", "underlinePosition",
    "underlineThickness", "unitsPerEm", "validate", "version"}
_NAMES = {"name", "familyName", "styleName", "fullName", "uniqueFontID"}
_PLAIN = (int, float, bool, str, bytes, list, dict, tuple, type(None))


def load_ttfont(name: str, path: Path):
    """A reportlab `TTFont` named `name` from the TTF at `path`, as `TTFont(name, path)` makes it
    (the file read through the opener: `UnreadableInput` for a missing, odd or huge one)."""

    with open_input(path, "font") as handle:
        data, stamp = truetype_data(handle.read()), file_stamp(handle)
    place = entry_path("font", os.path.abspath(path), Version)
    if place is not None:
        entry = read_entry(place, MAGIC)
        font = _from_entry(entry, name, data, stamp) if entry is not None else None
        if font is not None:
            return font
    named = BytesIO(data)
    named.name = str(path)  # what reportlab calls the font in its PDF and its messages, as by name
    font = ttfonts.TTFont(name, named)
    if place is not None and getattr(font.face, "_ttf_data", None) == data:
        _write_entry(place, font, data, stamp)
    return font


def _scale(units_per_em: int):
    """The face's font-units-to-PDF-units function, as reportlab's parse defines it."""
    if units_per_em == 1000:
        return lambda x: x
    multiplier = 1000 / units_per_em
    return lambda x: x * multiplier


def _from_entry(entry, name: str, data: bytes, stamp: tuple):
    """The font from its entry, or None for a stale or malformed one."""
    try:
        made_from, face_fields, name_fields = entry
        if made_from != stamp:
            return None
        return _rebuild(name, data, face_fields, name_fields)
    except Exception:  # noqa: BLE001 - a malformed entry is a miss, never an error
        return None


def _rebuild(name: str, data: bytes, face_fields: dict, name_fields: dict):
    """The font `TTFont(name, ...)` makes, from its face's parsed attributes and its bytes."""


    face = TTFontFace.__new__(TTFontFace)
    face.__dict__.update(face_fields)
    for field, text in name_fields.items():
        setattr(face, field, TTFNameBytes(text.encode("utf8")))
    face._ttf_data = data
    face._pdfScale = _scale(face.unitsPerEm)
    font = ttfonts.TTFont.__new__(ttfonts.TTFont)
    font.fontName, font.face, font.encoding, font.state = name, face, TTEncoding(), WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(name, pattern) for pattern in unShapedFontGlob)
    return font


def _write_entry(place: Path, font, data: bytes, stamp: tuple) -> None:
    face = vars(font.face)
    if set(face) != _FACE_KEPT | _NAMES | set(_FACE_UNKEPT) or set(vars(font)) - {"_shapable", "shapable"} != {
            "_asciiReadable", "encoding", "face", "fontName", "state"}:
        return  # a reportlab whose fonts this module does not know
    if any(type(face[field]) not in _PLAIN for field in _FACE_KEPT) or any(
            type(face[field]) is not TTFNameBytes for field in _NAMES):
        return
    try:
        body = marshal.dumps((stamp, {field: face[field] for field in _FACE_KEPT},
                              {field: face[field].ustr for field in _NAMES}))
    except ValueError:  # a value marshal cannot keep
        return
    write_entry(place, MAGIC, body)
