"""The HTML rulebook in a real Chromium: it prints like the PDF, its fonts travel with it, and
nothing overlaps at desktop or phone width."""

from __future__ import annotations

import re

import pytest
from pypdf import PdfReader

from generator.deck.loader import load_deck
from generator.rulebook import write_rulebooks

from tests.browser import external_requests
from tests.conftest import DECK_PATHS

DECK_IDS = [path.stem for path in DECK_PATHS]


@pytest.fixture(scope="module")
def rulebooks(tmp_path_factory):
    cache = {}

    def get(deck_id):
        if deck_id not in cache:
            deck = load_deck(next(path for path in DECK_PATHS if path.stem == deck_id))
            out = tmp_path_factory.mktemp(f"html-{deck_id}")
            written = {path.suffix: path for path in write_rulebooks(deck, out, ("pdf", "html"))}
            cache[deck_id] = written
        return cache[deck_id]

    return get


@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_printing_the_html_gives_about_the_pdfs_page_count(rulebooks, page, deck_id, tmp_path):
    written = rulebooks(deck_id)
    page.goto(written[".html"].as_uri())
    page.emulate_media(media="print")
    printed = tmp_path / "printed.pdf"
    page.pdf(path=str(printed), prefer_css_page_size=True, print_background=True)
    html_pages, pdf_pages = len(PdfReader(printed).pages), len(PdfReader(written[".pdf"]).pages)
    # Within a fifth: the PDF's two columns and one-page contents set more on a page than a browser.
    assert abs(html_pages - pdf_pages) <= max(2, pdf_pages // 5), (html_pages, pdf_pages)
    assert external_requests(page.deckgen_requests) == []


def _boxes_overlap(first, second) -> bool:
    return not (first["x"] + first["width"] <= second["x"] or second["x"] + second["width"] <= first["x"]
                or first["y"] + first["height"] <= second["y"] or second["y"] + second["height"] <= first["y"])


@pytest.mark.parametrize("width", [1200, 400])
@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_sample_cards_never_cover_the_text_beside_them(rulebooks, page, deck_id, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(rulebooks(deck_id)[".html"].as_uri())
    rows = page.locator("table.components tbody tr")
    assert rows.count() > 0
    for index in range(rows.count()):
        row = rows.nth(index)
        text_cell = row.locator("td").nth(1).bounding_box()
        for image in row.locator("img.sample").all():
            assert not _boxes_overlap(image.bounding_box(), text_cell), (deck_id, width, index)


@pytest.mark.parametrize("width", [1200, 400])
@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_figures_of_play_show_their_picture_within_the_column(rulebooks, page, deck_id, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(rulebooks(deck_id)[".html"].as_uri())
    column = page.locator("main").bounding_box()
    shown = page.locator("figure.play-figure")
    assert shown.count() > 0
    for index in range(shown.count()):
        figure = shown.nth(index)
        image = figure.locator("img")
        image.scroll_into_view_if_needed()
        assert image.evaluate("e => e.complete && e.naturalWidth > 0"), (deck_id, index)
        assert image.get_attribute("alt").split(":")[0] in ("Trick", "Hand", "Goal", "Manoeuvre")
        box, words = image.bounding_box(), figure.locator("figcaption").bounding_box()
        assert column["x"] - 1 <= box["x"] and box["x"] + box["width"] <= column["x"] + column["width"] + 1
        assert box["width"] > 0.5 * min(column["width"], image.evaluate("e => e.naturalWidth") / 2.5)
        assert not _boxes_overlap(box, words) and words["y"] >= box["y"] + box["height"] - 1


def test_the_facts_under_the_cover_keep_each_value_on_one_line_on_a_phone(rulebooks, page):
    page.set_viewport_size({"width": 400, "height": 900})
    page.goto(rulebooks("wizard")[".html"].as_uri())
    for value in page.locator(".facts dd").all():
        line_height = float(value.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)"))
        assert value.bounding_box()["height"] < 1.5 * line_height, value.inner_text()


FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>{fonts}</dir><cachedir>{cache}</cachedir></fontconfig>
"""


@pytest.fixture
def latin_only_page(chromium, tmp_path):
    """A Chromium whose system has one font, and that font has no suit symbols: a Latin-only
    cut of DejaVu Sans under another name (Chromium needs some system font to start)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    from generator.faces.fonts import FONT_DIR

    from tests.browser import chromium_path

    fonts = tmp_path / "system-fonts"
    fonts.mkdir()
    font = TTFont(str(FONT_DIR / "DejaVuSans.ttf"))
    subsetter = subset.Subsetter(subset.Options())
    subsetter.populate(text="".join(chr(code) for code in range(0x20, 0x7F)))
    subsetter.subset(font)
    for name_id in (1, 4, 6):
        font["name"].setName("LatinOnly", name_id, 3, 1, 0x409)
    font.save(str(fonts / "latin-only.ttf"))
    config = tmp_path / "fonts.conf"
    config.write_text(FONTCONFIG.format(fonts=fonts, cache=tmp_path / "fc-cache"), encoding="utf-8")
    # A second browser from the same Playwright as the shared one, with its own font config.
    browser = chromium.browser_type.launch(executable_path=chromium_path(), args=["--no-sandbox"],
                                           env={"FONTCONFIG_FILE": str(config), "HOME": str(tmp_path)})
    try:
        yield browser.new_page(viewport={"width": 900, "height": 700})
    finally:
        browser.close()


def test_suit_symbols_render_from_the_embedded_fonts_alone(rulebooks, latin_only_page, tmp_path):
    html = rulebooks("wizard")[".html"].read_text(encoding="utf-8")
    assert html.count("@font-face") == 8 and "data:font/woff;base64," in html
    probe = '<p><span class="suit" id="probe" style="font-size:60px">♠♥♦♣</span></p></body>'
    with_fonts = tmp_path / "with.html"
    with_fonts.write_text(html.replace("</body>", probe), encoding="utf-8")
    without_fonts = tmp_path / "without.html"
    without_fonts.write_text(re.sub(r"@font-face \{[^}]*\}", "", html).replace("</body>", probe), encoding="utf-8")

    page = latin_only_page
    page.goto(with_fonts.as_uri())
    loaded = page.evaluate("async () => { await document.fonts.ready; "
                           "return [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family); }")
    assert any("deckgen Sans" in family for family in loaded)
    assert page.evaluate("document.fonts.check('60px \"deckgen Sans\"', '♠♥♦♣')")
    drawn = page.locator("#probe").screenshot()
    page.goto(without_fonts.as_uri())
    fallback = page.locator("#probe").screenshot()
    assert drawn != fallback, "the symbols look the same without the embedded fonts"
