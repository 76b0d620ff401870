"""Parses kept between runs in deckgen's cache folder: fonts (generator/faces/fontcache.py) and
hyphenation patterns (generator/rulebook/hyphenation.py) rebuilt from an entry are what the parse
gives, and an entry is used only while the file, the entry and its owner are as they were."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from reportlab.pdfbase import ttfonts

from generator.faces import fontcache
from generator.core.cachefile import entry_path, template_code
from generator.faces.fonts import FONT_DIR


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The font files reportlab parses (a miss) while the test runs."""
    seen: list[str] = []

    class Counting(ttfonts.TTFont):
        def __init__(self, name, filename, *args, **kwargs):
            seen.append(getattr(filename, "name", filename))  # deckgen hands it the file's bytes, named
            super().__init__(name, filename, *args, **kwargs)

    monkeypatch.setattr(ttfonts, "TTFont", Counting)
    return seen


@pytest.fixture
def font_file(tmp_path) -> Path:
    path = tmp_path / "face.ttf"
    shutil.copyfile(FONT_DIR / "DejaVuSans.ttf", path)
    return path


def _comparable(font) -> tuple:
    """Everything of a font that drawing and embedding read, in a form `==` compares."""
    face = vars(font.face)
    fields = {field: value for field, value in face.items() if field != "_pdfScale"}
    names = {field: (bytes(value), value.ustr) for field, value in face.items() if hasattr(value, "ustr")}
    rest = {field: value for field, value in vars(font).items() if field not in ("face", "encoding", "state")}
    return (fields, names, rest, type(font.encoding), type(font.state), face["_pdfScale"](1234))


def _entry(cache_home: Path, font_file: Path) -> Path:
    from reportlab import Version

    place = entry_path("font", os.path.abspath(font_file), Version)
    assert place.parent == cache_home / "deckgen" / "font"
    return place


def test_a_kept_font_is_the_parsed_font(cache_home, font_file, parses):
    first = fontcache.load_ttfont("Kept", font_file)
    assert parses == [str(font_file)] and _entry(cache_home, font_file).is_file()
    again = fontcache.load_ttfont("Kept", font_file)
    assert parses == [str(font_file)], "the second load should come from the entry"
    assert _comparable(again) == _comparable(first)
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


@pytest.mark.parametrize("face", ["DejaVuSans.ttf", "DejaVuSerif-BoldItalic.ttf"])
def test_every_shipped_face_rebuilds_as_parsed(cache_home, face, parses):
    path = FONT_DIR / face
    fontcache.load_ttfont("Face", path)
    rebuilt = fontcache.load_ttfont("Face", path)
    assert len(parses) <= 1, "the second load should come from the entry"
    assert _comparable(rebuilt) == _comparable(ttfonts.TTFont.__mro__[1]("Face", str(path)))


def test_hyphenation_patterns_rebuild_as_parsed(cache_home, monkeypatch):
    import pyphen

    from generator.rulebook.hyphenation import hyphenation_language

    path = pyphen.LANGUAGES["en_GB"]
    parsed = pyphen.HyphDict(path)

    class NoParse(pyphen.HyphDict):
        """Stands in for HyphDict where the patterns must come from the entry."""

        def __init__(self, path):
            raise AssertionError(f"{path} was parsed again")

    for second in (False, True):  # the first call makes the entry, the second uses it
        monkeypatch.setattr(pyphen, "hdcache", {})
        if second:
            monkeypatch.setattr(pyphen, "HyphDict", NoParse)
        assert hyphenation_language("en-GB") == "en_GB"
        kept = pyphen.hdcache[path]
        assert (kept.patterns, kept.maxlen, kept.cache) == (parsed.patterns, parsed.maxlen, {})
    assert pyphen.Pyphen(lang="en_GB").inserted("hyphenation") == "hy-phen-a-tion"



def test_the_shipped_templates_compile_once_per_user(cache_home, monkeypatch):
    import jinja2

    from generator.deck.loader import load_deck
    from generator.rulebook import templated
    from generator.rulebook.book import build_book

    from tests.conftest import DECK_PATHS

    book = build_book(load_deck(DECK_PATHS[0]))
    template = templated.TEMPLATE_DIR / templated.TEMPLATE_NAMES["md"]
    templated._environment.cache_clear()
    first = templated.render(book, "md", template, lambda card: f"{card.id}.png", lambda figure: ("f.png", 1, 1))
    assert list((cache_home / "deckgen" / "template").glob("*.template"))

    def no_compiling(*args, **kwargs):
        raise AssertionError("the template was compiled again")

    templated._environment.cache_clear()  # a new process: a fresh environment, nothing in memory
    template_code.cache_clear()
    monkeypatch.setattr(jinja2.Environment, "compile", no_compiling)
    try:
        again = templated.render(book, "md", template, lambda card: f"{card.id}.png", lambda figure: ("f.png", 1, 1))
    finally:
        templated._environment.cache_clear()
    assert again == first


def test_the_report_and_export_templates_compile_once_per_user(run_cli, cache_home, monkeypatch, tmp_path):
    import jinja2

    from generator.export import common as export_common
    from generator.validate import page

    def outputs(out: Path) -> dict[str, bytes]:
        assert run_cli("validate", "wizard", "--simulate", "2", "--report", "--output", out).exit_code == 0
        assert run_cli("export", "lackey", "wizard", "--output", out).exit_code == 0
        return {str(path.relative_to(out)): path.read_bytes() for path in out.rglob("*")
                if path.is_file() and path.suffix in (".html", ".txt", ".dek")}

    first = outputs(tmp_path / "first")

    def no_compiling(*args, **kwargs):
        raise AssertionError("a template was compiled again")

    page._environment.cache_clear()  # a new process: fresh environments, nothing in memory
    template_code.cache_clear()
    monkeypatch.setattr(export_common, "_kept", None)
    monkeypatch.setattr(jinja2.Environment, "compile", no_compiling)
    try:
        again = outputs(tmp_path / "again")
    finally:
        page._environment.cache_clear()
        template_code.cache_clear()
    assert again == first and any(name.endswith("validation.html") for name in first)
