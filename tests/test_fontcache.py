"""Parsed fonts kept between runs (generator/render/fontcache.py): the same font as a parse,
used only while the font file, the entry and its owner are as they were."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from reportlab.pdfbase import ttfonts

from generator.render import fontcache
from generator.render.fonts import FONT_DIR


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The font files reportlab parses (a miss) while the test runs."""
    seen: list[str] = []

    class Counting(ttfonts.TTFont):
        def __init__(self, name, filename, *args, **kwargs):
            seen.append(filename)
            super().__init__(name, filename, *args, **kwargs)

    monkeypatch.setattr(ttfonts, "TTFont", Counting)
    return seen


@pytest.fixture
def font_file(tmp_path) -> Path:
    path = tmp_path / "face.ttf"
    shutil.copyfile(FONT_DIR / "DejaVuSans.ttf", path)
    return path


def _entry(cache_home: Path, font_file: Path) -> Path:
    place = fontcache._entry_path(font_file)
    assert place.parent == cache_home / "deckgen" / "fonts"
    return place


def test_a_kept_font_is_the_parsed_font(cache_home, font_file, parses):
    first = fontcache.load_ttfont("Kept", font_file)
    assert parses == [str(font_file)] and _entry(cache_home, font_file).is_file()
    again = fontcache.load_ttfont("Kept", font_file)
    assert parses == [str(font_file)], "the second load should come from the entry"
    assert fontcache._comparable(again) == fontcache._comparable(first)
    assert again.face.name.ustr == "DejaVuSans" and again.face._pdfScale(2048) == first.face._pdfScale(2048)


def test_a_changed_font_file_is_parsed_again(cache_home, font_file, parses):
    fontcache.load_ttfont("Changed", font_file)
    shutil.copyfile(FONT_DIR / "DejaVuSerif.ttf", font_file)
    font = fontcache.load_ttfont("Changed", font_file)
    assert len(parses) == 2 and font.face.familyName.ustr == "DejaVu Serif"
    assert fontcache.load_ttfont("Changed", font_file).face.familyName.ustr == "DejaVu Serif"
    assert len(parses) == 2


@pytest.mark.parametrize("spoil", ["corrupt", "shared"])
def test_a_spoilt_entry_is_never_used(cache_home, font_file, parses, spoil):
    fontcache.load_ttfont("Spoilt", font_file)
    entry = _entry(cache_home, font_file)
    if spoil == "corrupt":
        data = bytearray(entry.read_bytes())
        data[-100] ^= 0xFF
        entry.write_bytes(bytes(data))
    else:  # an entry others may write could have been planted
        os.chmod(entry, 0o666)
    font = fontcache.load_ttfont("Spoilt", font_file)
    assert len(parses) == 2 and font.face.name.ustr == "DejaVuSans"
    assert fontcache.load_ttfont("Spoilt", font_file).face.name.ustr == "DejaVuSans"
    assert len(parses) == 2, "the rewritten entry should be used again"
