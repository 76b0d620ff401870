"""The rulebook PDF typeset as a reader expects: headings kept with their text, hyphenated
justified columns, balanced card galleries, suit symbols that never start a line, numbered
steps as lists, running heads that name the chapter in force."""

from __future__ import annotations

import io
import re

import pypdfium2 as pdfium
import pytest
from reportlab.platypus import KeepTogether, Paragraph, Spacer

from generator.deck import markup
from generator.deck.loader import load_deck
from generator.rulebook.book import Heading, build_book
from generator.rulebook.paper import geometry
from generator.rulebook.hyphenation import hyphenation_language
from generator.rulebook.pdf import typeset
from generator.rulebook.pdf_page import HeadingParagraph, RulebookDocument
from generator.rulebook.pdf_styles import Styles, grid_columns

from tests.conftest import DECK_PATHS

DECK_IDS = [path.stem for path in DECK_PATHS]


@pytest.fixture(scope="module")
def typeset_decks():
    cache = {}

    def get(deck_id):
        if deck_id not in cache:
            deck = load_deck(next(path for path in DECK_PATHS if path.stem == deck_id))
            book = build_book(deck)
            cache[deck_id] = (deck, book, typeset(book))
        return cache[deck_id]

    return get


@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_no_heading_is_left_at_the_foot_of_a_column(typeset_decks, deck_id):
    _, _, result = typeset_decks(deck_id)
    assert result.stranded_headings == ()


def test_a_heading_whose_text_moves_on_is_reported(typeset_decks):
    """The check above can fail: a heading set in the last lines of a column, its text kept
    together and so carried to the next column, is reported."""
    _, book, _ = typeset_decks("wizard")
    styles = Styles(book)
    heading = Heading(1, "9", "A heading at the foot", "probe-heading")
    a4 = geometry("a4")
    story = [Spacer(1, a4.body_height - 40), HeadingParagraph("<a name=\"probe-heading\"/>9 A heading at the foot", styles.rule, heading),
             KeepTogether([Paragraph("words " * 400, styles.body)])]
    document = RulebookDocument(io.BytesIO(), book, styles, [], a4)
    document.build(story)
    assert document.stranded_headings == ["probe-heading"]


def test_justified_columns_are_hyphenated_in_the_decks_language(typeset_decks, tmp_path):
    deck, _, result = typeset_decks("quidditch-v2")
    assert deck.language == "en-GB" and hyphenation_language(deck.language) == "en_GB"
    document = pdfium.PdfDocument(result.pdf)
    text = "\n".join(document[index].get_textpage().get_text_bounded() for index in range(len(document)))
    # pdfium joins a word hyphenated at a line's end and marks the break with \x02: "man\x02oeuvre".
    broken_words = re.findall(r"[a-z]\x02[a-z]", text)
    assert len(broken_words) >= 5, "no words were hyphenated at the ends of justified lines"


def test_a_language_without_a_dictionary_is_not_hyphenated():
    assert hyphenation_language("xx") == ""
    assert hyphenation_language("de").startswith("de")


@pytest.mark.parametrize("count, columns", [(13, 5), (12, 4), (4, 4), (9, 3), (10, 5), (7, 4), (60, 4)])
def test_card_galleries_balance_their_rows(count, columns):
    assert grid_columns(count) == columns


def test_numbered_steps_are_a_list_and_bullets_stay_bullets():
    steps = markup.parse("Take these steps:\n1. **Draw** a card.\n2. Play one,\n   wrapped.\n3) Pass.")
    assert isinstance(steps[0], markup.Paragraph)
    assert isinstance(steps[1], markup.BulletList) and steps[1].ordered
    assert [markup.render_spans(item, str, lambda t, s: t, str) for item in steps[1].items] == [
        "Draw a card.", "Play one, wrapped.", "Pass."]
    bullets = markup.parse("- one\n- two")
    assert isinstance(bullets[0], markup.BulletList) and not bullets[0].ordered


def test_numbered_steps_are_numbered_in_every_format(tmp_path):
    from generator.rulebook import write_rulebooks

    deck = load_deck(next(path for path in DECK_PATHS if path.stem == "quidditch-v2"))
    written = {path.suffix: path for path in write_rulebooks(deck, tmp_path)}
    html = written[".html"].read_text(encoding="utf-8")
    assert "<ol><li><strong>Start of turn:</strong>" in html
    md = written[".md"].read_text(encoding="utf-8")
    assert "\n1. **Start of turn:**" in md and "\n2. **Draw**" in md


def test_a_suit_symbol_never_starts_a_line():
    from generator.rulebook.text import HtmlWriter

    deck = load_deck(next(path for path in DECK_PATHS if path.stem == "wizard"))
    written = HtmlWriter(deck, lambda card_id: card_id).inline("lead a {suit:clubs} now")
    assert "lead a\xa0<span class=\"suit\"" in written


@pytest.mark.parametrize("deck_id", DECK_IDS)
def test_running_heads_name_the_chapter_in_force_at_the_top_of_the_page(typeset_decks, deck_id):
    """Each page of the rules is headed by the chapter that opens it, or else by the one in force
    at its top; a chapter beginning part-way down a page heads the next page."""
    _, _, result = typeset_decks(deck_id)
    document = pdfium.PdfDocument(result.pdf)
    top = geometry("a4").page_height - geometry("a4").top
    # (page index, opens the page?) for each chapter, from the outline's destinations.
    chapters = [(mark.get_title(), mark.get_dest().get_index(), mark.get_dest().get_view()[1][1] >= top - 5)
                for mark in document.get_toc() if mark.level == 0 and mark.get_title() != "Contents"]
    assert any(not at_top for _, _, at_top in chapters), "no chapter begins part-way down a page"

    def head(index: int) -> str:
        page = document[index]
        width, height = page.get_size()
        return page.get_textpage().get_text_bounded(0, height - 70, width, height)

    for index in range(chapters[0][1], len(document)):
        in_force = [title for title, page, at_top in chapters if page < index or (page == index and at_top)][-1]
        assert in_force in head(index), f"page {index + 1} is headed {head(index)!r}, not {in_force!r}"
