"""The fonts an HTML rulebook uses, embedded in it: a subset of the shipped DejaVu faces holding
just the characters of the page, as data URLs in @font-face rules.

Suit symbols and typographic marks then render the same on every reader's machine, with no
system fonts and no network. A template opts in by writing `/* deckgen:fonts */` inside its
<style> element; the shipped template does.
"""

from __future__ import annotations

import base64
import io
import re
from functools import lru_cache

from ..render.fonts import FACES, FONT_DIR

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
    import uharfbuzz

    return uharfbuzz.Face(uharfbuzz.Blob.from_file_path(str(FONT_DIR / FACES[key])))


def _subset(key: str, characters: str) -> bytes:
    """The face reduced to the glyphs of `characters` (and what its layout features reach from
    them), as a TrueType font: HarfBuzz's subsetter, a few milliseconds a face where fontTools'
    takes a fifth of a second."""
    import uharfbuzz

    request = uharfbuzz.SubsetInput()
    request.unicode_set.update(ord(char) for char in characters)
    dropped = request.sets(uharfbuzz.SubsetInputSets.DROP_TABLE_TAG)
    for tag in _DROPPED:
        dropped.add(int.from_bytes(tag, "big"))
    return bytes(uharfbuzz.subset(_face(key), request).blob.data)


def _woff(font: bytes) -> bytes:
    """A TrueType font as WOFF (each table deflated), its tables and timestamps as they are."""
    from fontTools.ttLib import TTFont

    woff = TTFont(io.BytesIO(font), lazy=True, recalcBBoxes=False, recalcTimestamp=False)
    woff.flavor = "woff"
    buffer = io.BytesIO()
    woff.save(buffer, reorderTables=False)
    return buffer.getvalue()


def embed_fonts(html: str) -> str:
    """The page with its fonts embedded where the template asked for them (unchanged if not)."""
    if MARKER not in html:
        return html
    return html.replace(MARKER, font_face_rules(page_characters(html)), 1)
