"""A deck's font files as the TrueType reportlab embeds: OpenType fonts with PostScript (CFF)
outlines converted.

reportlab embeds TrueType outlines only, and many OpenType fonts (Lobster, Source Serif, the
fonts of most type foundries' `.otf` files) carry PostScript outlines in a `CFF ` table. Such a
font is converted here with fontTools: each glyph's cubic curves become quadratic ones (cu2qu,
within 1 font unit, invisible at any print size), written as a `glyf` table, and the rest of
the font (names, metrics, kerning) kept. The conversion is deterministic (no new timestamp), so
the same font file gives the same PDF bytes; it takes about 0.2 s a face, once per process.
"""

from __future__ import annotations

import hashlib
import io
from functools import lru_cache

CFF_TAGS = ("CFF ", "CFF2")
MAX_CURVE_ERROR = 1.0  # font units: a thousandth of an em on a 1000-unit font


def is_cff(data: bytes) -> bool:
    """An OpenType font with PostScript outlines (its sfnt version is 'OTTO')."""
    return data[:4] == b"OTTO"


def truetype_data(data: bytes) -> bytes:
    """The font's bytes with TrueType outlines: unchanged for a TrueType font, converted for CFF."""
    if not is_cff(data):
        return data
    return _converted(hashlib.sha256(data).hexdigest(), data)


@lru_cache(maxsize=16)
def _converted(_digest: str, data: bytes) -> bytes:
    from fontTools.pens.cu2quPen import Cu2QuPen  # fontTools only for a deck with a CFF font
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    font = TTFont(io.BytesIO(data), recalcTimestamp=False)
    if "CFF2" in font:
        raise ValueError("a variable CFF2 font; give one of its instances as a static .otf or .ttf")
    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder, glyf.glyphs = order, {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        # PostScript outlines run counter-clockwise, TrueType ones clockwise
        glyphs[name].draw(Cu2QuPen(pen, MAX_CURVE_ERROR, reverse_direction=True))
        glyf[name] = pen.glyph()
    for tag in CFF_TAGS + ("VORG",):
        if tag in font:
            del font[tag]
    font["loca"], font["glyf"] = newTable("loca"), glyf
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000  # TrueType's maxp; fontTools fills in the glyph counts on save
    for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, field, 1 if field == "maxZones" else 0)
    font["head"].indexToLocFormat, font["head"].glyphDataFormat = 0, 0
    post = font["post"]
    post.formatType, post.extraNames, post.mapping = 2.0, [], {}
    post.glyphOrder = order
    font.sfntVersion = "\x00\x01\x00\x00"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()
