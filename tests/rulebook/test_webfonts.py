"""The WOFF fonts embedded in HTML rulebooks (generator/rulebook/webfonts.py): deckgen's own
WOFF writer gives byte for byte the file fontTools writes, for every face and character set."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from fontTools.ttLib import TTFont

from generator.rulebook import webfonts

TEXTS = {
    "ascii": "",
    "suits and marks": "♠♥♦♣ — “quoted” ☀☾❄⚗✦☘ ½ × é ß",
    "scripts": "Привет αβγ " + "".join(chr(code) for code in range(0xA0, 0x250)),
}
FACES = [family + style for family in webfonts.FAMILIES for style in webfonts._STYLES]


def _fonttools_woff(font: bytes) -> bytes:
    woff = TTFont(io.BytesIO(font), lazy=True, recalcBBoxes=False, recalcTimestamp=False)
    woff.flavor = "woff"
    buffer = io.BytesIO()
    woff.save(buffer, reorderTables=False)
    return buffer.getvalue()


@pytest.mark.parametrize("text", TEXTS.values(), ids=TEXTS.keys())
@pytest.mark.parametrize("face", FACES)
def test_the_woff_is_the_one_fonttools_writes(face, text):
    subset = webfonts._subset(face, webfonts.page_characters(text))
    woff = webfonts._woff(subset)
    assert woff == _fonttools_woff(subset)
    # and it unpacks to the subset's own tables
    count = struct.unpack(">H", woff[12:14])[0]
    for index in range(count):
        tag, offset, packed, length, _checksum = struct.unpack(">4sLLLL", woff[44 + 20 * index:64 + 20 * index])
        data = woff[offset:offset + packed]
        table = zlib.decompress(data) if packed < length else data
        assert len(table) == length
        if tag != b"head":  # head differs in its checksum adjustment alone
            assert table in subset
