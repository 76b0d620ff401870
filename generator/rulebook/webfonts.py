"""The fonts an HTML rulebook uses, embedded in it: a subset of the shipped DejaVu faces holding
just the characters of the page, as data URLs in @font-face rules.

Suit symbols and typographic marks then render the same on every reader's machine, with no
system fonts and no network. A template opts in by writing `/* deckgen:fonts */` inside its
<style> element; the shipped template does.
"""

from __future__ import annotations

import base64
import re
import struct
import zlib
from functools import lru_cache

import uharfbuzz

from ..faces.fonts import FACES, FONT_DIR

MARKER = "/* deckgen:fonts */"

# CSS family names, chosen so they never clash with a reader's installed fonts.
FAMILIES = {"serif": "deckgen Serif", "sans": "deckgen Sans"}
_STYLES = {"": ("normal", "normal"), "-bold": ("bold", "normal"), "-italic": ("normal", "italic"),
           "-bolditalic": ("bold", "italic")}

_TAG = re.compile(r"<[^>]*>|data:[^\"')\s]+")


def page_characters(html: str) -> str:
    """Every character a reader can see: the page less its tags and data URLs, with entities
    counted as themselves only where they are not plain ASCII (ASCII is always embedded)."""
    visible = set(_TAG.sub(" ", html))
    visible.update(chr(code) for code in range(0x20, 0x7F))
    return "".join(sorted(visible))


def font_face_rules(characters: str) -> str:
    """@font-face rules for every shipped face, each subset to `characters` (WOFF, zlib)."""
    rules = []
    for family, css_family in FAMILIES.items():
        for suffix, (weight, style) in _STYLES.items():
            data = base64.b64encode(_woff(_subset(family + suffix, characters))).decode("ascii")
            rules.append(f'@font-face {{ font-family: "{css_family}"; font-weight: {weight}; '
                         f'font-style: {style}; font-display: block; '
                         f'src: url("data:font/woff;base64,{data}") format("woff"); }}')
    return "\n".join(rules)


# Tables a web page has no use for. DejaVu's MATH table, once subset, is refused by Chromium's
# font sanitiser and takes the whole face with it; FFTM is FontForge's timestamp.
_DROPPED = (b"MATH", b"FFTM")


@lru_cache(maxsize=None)
def _face(key: str):
    return uharfbuzz.Face(uharfbuzz.Blob.from_file_path(str(FONT_DIR / FACES[key])))


def _subset(key: str, characters: str) -> bytes:
    """The face reduced to the glyphs of `characters` (and what its layout features reach from
    them), as a TrueType font: HarfBuzz's subsetter, a few milliseconds a face where fontTools'
    takes a fifth of a second."""
    request = uharfbuzz.SubsetInput()
    request.unicode_set.update(ord(char) for char in characters)
    dropped = request.sets(uharfbuzz.SubsetInputSets.DROP_TABLE_TAG)
    for tag in _DROPPED:
        dropped.add(int.from_bytes(tag, "big"))
    return bytes(uharfbuzz.subset(_face(key), request).blob.data)


def _woff(font: bytes) -> bytes:
    """A TrueType font as WOFF 1.0: each table deflated (zlib, level 6) where that makes it
    smaller, in the font's own order, `head` stored as it is but for the checksum adjustment,
    which is recomputed for the tables' new places. Byte for byte what fontTools writes for
    `TTFont(font, lazy=True, recalcBBoxes=False, recalcTimestamp=False)` saved with
    `flavor = "woff"` and `reorderTables=False` (tests/rulebook/test_webfonts.py compares them),
    without its round trip: fontTools writes the tables sorted, reads them back and writes them
    again in the original order, deflating every table twice."""

    (version, count), tables = struct.unpack(">4sH", font[:6]), []
    for index in range(count):
        tag, checksum, offset, length = struct.unpack(">4sLLL", font[12 + 16 * index:28 + 16 * index])
        tables.append((offset, index, tag, font[offset:offset + length]))
    tables.sort()  # the font's own order: where its tables are, as fontTools reads them
    header_size, entry_size = 44, 20
    sfnt_offset = 12 + 16 * count  # where each table would sit in the uncompressed font
    woff_offset = header_size + entry_size * count
    entries, stored, head = {}, [], None
    for _offset, _index, tag, data in tables:
        if tag == b"head":
            checksum, packed, head = _checksum(data[:8] + b"\0\0\0\0" + data[12:]), data, len(stored)
        else:
            checksum, deflated = _checksum(data), zlib.compress(data, 6)
            packed = deflated if len(deflated) < len(data) else data
        entries[tag] = (woff_offset, len(packed), len(data), checksum, sfnt_offset)
        stored.append(packed + b"\0" * (-len(packed) % 4))
        woff_offset += len(stored[-1])
        sfnt_offset += (len(data) + 3) & ~3
    ordered = sorted(entries.items())
    exponent = count.bit_length() - 1
    sfnt_directory = struct.pack(">4sHHHH", version, count, 16 << exponent, exponent, max(0, 16 * count - (16 << exponent)))
    for tag, (_woff_at, _packed, length, checksum, sfnt_at) in ordered:
        sfnt_directory += struct.pack(">4sLLL", tag, checksum, sfnt_at, length)
    major = minor = 0
    if head is not None:
        total = sum(entry[3] for entry in entries.values()) + _checksum(sfnt_directory)
        adjustment = (0xB1B0AFBA - total) & 0xFFFFFFFF
        data = stored[head]
        stored[head] = data[:8] + struct.pack(">L", adjustment) + data[12:]
        major, minor = struct.unpack(">HH", data[4:8])
    sfnt_size = 12 + 16 * count + sum((entry[2] + 3) & ~3 for entry in entries.values())
    header = struct.pack(">4s4sLHHLHHLLLLL", b"wOFF", version, woff_offset, count, 0, sfnt_size, major, minor,
                         0, 0, 0, 0, 0)
    directory = b"".join(struct.pack(">4sLLLL", tag, at, packed, length, checksum)
                         for tag, (at, packed, length, checksum, _sfnt_at) in ordered)
    return header + directory + b"".join(stored)


def _checksum(data: bytes) -> int:
    """An OpenType table checksum: the sum of its big-endian 32-bit words, zero-padded."""
    data += b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(data) // 4}L", data)) & 0xFFFFFFFF


def embed_fonts(html: str) -> str:
    """The page with its fonts embedded where the template asked for them (unchanged if not)."""
    if MARKER not in html:
        return html
    return html.replace(MARKER, font_face_rules(page_characters(html)), 1)
