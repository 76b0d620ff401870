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
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTFont

    # fontTools reports tables it drops (DejaVu's FFTM timestamp) as warnings: not the reader's concern.
    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)
    rules = []
    options = subset.Options()
    options.flavor = "woff"
    options.notdef_outline = True
    # A page sets no mathematics; DejaVu's MATH table, once subset, is refused by Chromium's
    # font sanitiser and takes the whole face with it.
    options.drop_tables += ["MATH"]
    for family, css_family in FAMILIES.items():
        for suffix, (weight, style) in _STYLES.items():
            # The shipped file's own timestamps are kept, so the same page gives the same bytes.
            # Lazy: only the parts of the layout tables the page's glyphs reach are decompiled
            # (a quarter quicker, the same bytes).
            font = TTFont(str(FONT_DIR / FACES[family + suffix]), recalcTimestamp=False, lazy=True)
            subsetter = subset.Subsetter(options)
            subsetter.populate(text=characters)
            subsetter.subset(font)
            buffer = io.BytesIO()
            font.flavor = "woff"
            font.save(buffer, reorderTables=False)
            data = base64.b64encode(buffer.getvalue()).decode("ascii")
            rules.append(f'@font-face {{ font-family: "{css_family}"; font-weight: {weight}; '
                         f'font-style: {style}; font-display: block; '
                         f'src: url("data:font/woff;base64,{data}") format("woff"); }}')
    return "\n".join(rules)


def embed_fonts(html: str) -> str:
    """The page with its fonts embedded where the template asked for them (unchanged if not)."""
    if MARKER not in html:
        return html
    return html.replace(MARKER, font_face_rules(page_characters(html)), 1)
