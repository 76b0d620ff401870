"""Card rendering: layout geometry, what the sheet PDFs contain and where, duplex backs, text fitting."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
import pypdfium2
import pytest

from tests.conftest import DECK_PATHS, DECKS
from tests.pdf_support import page_content
from generator.core.errors import InvalidDeck
from generator.deck.loader import load_deck
from generator.deck.model import CARD_SIZES_MM
from generator.faces import cards, check, text
from generator.printing import sheets
from generator.deck.sizes import PAPERS_MM, pt

WIZARD = DECKS / "wizard.toml"

HEADER = """
[deck]
id = "{id}"
name = "{name}"
players = {{ min = 2, max = 4 }}

[back]
title = "TEST"
pattern = "{pattern}"
color = "#204080"
accent = "#e0c040"

[[kinds]]
id = "thing"
name = "Thing"
color = "#3a7d44"
[[kinds]]
id = "action"
name = "Action"
"""


def write_deck(folder: Path, cards_toml: str, *, deck_id: str = "tiny", name: str = "Tiny Deck",
               pattern: str = "dots") -> Path:
    path = folder / f"{deck_id}.toml"
    path.write_text(HEADER.format(id=deck_id, name=name, pattern=pattern) + cards_toml, encoding="utf-8")
    return path


def deck_with_layout(tmp_path, layout: str, element: str, cards: int = 2, extends: str | None = "text") -> Path:
    """A deck of text cards all drawn with `layout`: `extends` (or nothing) plus one element (TOML lines)."""
    path = write_deck(tmp_path, text_cards(cards))
    base = f'extends = "{extends}"\n' if extends else ""
    path.write_text(path.read_text().replace('players = {', f'layout = "{layout}"\nplayers = {{', 1)
                    + f'\n[layouts.{layout}]\n{base}\n[[layouts.{layout}.elements]]\n{element}\n')
    return path


def text_cards(count: int, **fields) -> str:
    """`count` distinct text cards named Card 1..count."""
    entries = []
    for number in range(1, count + 1):
        extra = "".join(f'{key} = "{value}"\n' for key, value in fields.items())
        entries.append(f'[[cards]]\nname = "Card {number}"\ncode = "C{number}"\nkind = "thing"\n'
                       f'text = "Rules of card {number}."\n{extra}')
    return "\n".join(entries)


def pdf_text(data: bytes) -> str:
    """All text of a PDF, whitespace collapsed (pypdfium2: fast, and it reads text inside forms)."""
    pdf = pypdfium2.PdfDocument(data)
    try:
        return " ".join(" ".join(page.get_textpage().get_text_range() for page in pdf).split())
    finally:
        pdf.close()


def close(a, b, tolerance=0.01) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


# Sheet PDFs -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def wizard_sheets():
    deck = load_deck(WIZARD)
    data = sheets.print_sheets(deck)
    return deck, pypdf.PdfReader(io.BytesIO(data)), data


def test_each_distinct_drawing_is_stored_once(wizard_sheets):
    deck, reader, _data = wizard_sheets
    forms = set()
    for page in reader.pages:
        forms.update(page["/Resources"]["/XObject"].keys())
    assert len(forms) == len(deck.cards) + 1  # every distinct face, plus the back
    draws = sum(len(page_content(reader, n).forms) for n in range(len(reader.pages)))
    assert draws == 2 * deck.total


def test_text_on_cards_is_extractable(wizard_sheets):
    deck, reader, data = wizard_sheets
    flat = pdf_text(data)
    assert "Play at any time" in reader.pages[12].extract_text()  # pypdf reads it too
    for card in deck.cards:
        if card.text:
            assert " ".join(card.text.split()[:5]) in flat
    assert deck.back.title in flat


def test_fonts_are_embedded_subsets_and_cards_are_vectors(wizard_sheets):
    _deck, reader, _data = wizard_sheets
    fonts, images = {}, 0
    for page in reader.pages:
        for form in page["/Resources"]["/XObject"].values():
            resources = form.get_object()["/Resources"]
            for font in resources.get("/Font", {}).values():
                font = font.get_object()
                fonts[font["/BaseFont"]] = font
            images += sum(1 for x in resources.get("/XObject", {}).values() if x.get_object()["/Subtype"] == "/Image")
    assert fonts and images == 0
    for name, font in fonts.items():
        assert "+DejaVu" in name, name  # a subset tag: only the glyphs used are stored
        descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"] if "/DescendantFonts" in font \
            else font["/FontDescriptor"]
        assert "/FontFile2" in descriptor.get_object()


def test_same_input_gives_the_same_bytes():
    deck = load_deck(WIZARD)
    assert sheets.print_sheets(deck) == sheets.print_sheets(load_deck(WIZARD))
    assert sheets.one_per_page(deck, bleed_mm=2) == sheets.one_per_page(deck, bleed_mm=2)


def test_an_art_file_used_by_every_card_is_stored_once(tmp_path):
    from PIL import Image

    (tmp_path / "art").mkdir()
    Image.new("RGB", (900, 600), (200, 80, 20)).save(tmp_path / "art" / "shared.png")  # 300+ ppi in its box
    deck = load_deck(write_deck(tmp_path, text_cards(12, art="art/shared.png")))
    reader = pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck)))
    images = set()
    for number in range(len(reader.pages)):
        for form in reader.pages[number]["/Resources"]["/XObject"].values():
            resources = form.get_object().get("/Resources", {})
            for name, xobject in resources.get("/XObject", {}).items():
                if xobject.get_object()["/Subtype"] == "/Image":
                    images.add(xobject.idnum)
    assert len(images) == 1


def test_missing_art_is_an_error_naming_card_and_path(tmp_path):
    deck = load_deck(write_deck(tmp_path, text_cards(1, art="art/nowhere.png")))
    with pytest.raises(InvalidDeck) as caught:
        sheets.print_sheets(deck)
    message = str(caught.value)
    assert "Card 1" in message and "nowhere.png" in message


def test_one_per_page_sets_trim_and_bleed_boxes():
    deck = load_deck(WIZARD)
    reader = pypdf.PdfReader(io.BytesIO(sheets.one_per_page(deck, bleed_mm=3)))
    assert len(reader.pages) == 2 * deck.total
    width, height = pt(63 + 6), pt(88 + 6)
    for page in (reader.pages[0], reader.pages[1], reader.pages[-1]):
        assert close([float(v) for v in page.mediabox], [0, 0, width, height])
        assert close([float(v) for v in page["/BleedBox"]], [0, 0, width, height])
        assert close([float(v) for v in page["/TrimBox"]], [pt(3), pt(3), width - pt(3), height - pt(3)])
    # Face then back: the back's drawing is the same form on every even page.
    assert "Play at any time" not in reader.pages[1].extract_text()
    assert page_content(reader, 1).forms[0].form == page_content(reader, 3).forms[0].form


# Text fitting -----------------------------------------------------------------------------------

def test_long_text_shrinks_before_it_is_reported(tmp_path):
    medium = " ".join(["The Snitch darts away again."] * 16)
    deck = load_deck(write_deck(tmp_path, f'[[cards]]\nname = "Long"\ncode = "L"\nkind = "thing"\ntext = "{medium}"\n'))
    assert check.text_problems(deck) == []
    box = next(b for b in cards.face_text_boxes(deck, deck.cards[0], pt(63), pt(88)) if b.spec.field == "text")
    fitted = text.fit(box.spec, box.width, box.height)
    assert box.spec.min_size <= fitted.size < box.spec.max_size


def test_text_that_cannot_fit_is_reported_never_cut(tmp_path):
    huge = " ".join(["Dominance shifts whenever a Beater hits the Bludger."] * 30)
    deck = load_deck(write_deck(tmp_path, f'[[cards]]\nname = "Wordy"\ncode = "W"\nkind = "thing"\ntext = "{huge}"\n'))
    problems = check.text_problems(deck)
    assert len(problems) == 1
    assert problems[0].field == "card W.text" and "'Wordy'" in problems[0].message
    with pytest.raises(InvalidDeck, match="does not fit"):
        sheets.print_sheets(deck)


def test_a_character_the_font_cannot_draw_is_an_error_naming_the_card(tmp_path):
    deck = load_deck(write_deck(tmp_path, '[[cards]]\nname = "Fire \U0001F525"\ncode = "F"\nkind = "action"\n'))
    problems = check.text_problems(deck)
    assert [p.field for p in problems] == ["card F.name"]
    assert "U+1F525" in problems[0].message and "'Fire" in problems[0].message


def test_symbols_missing_from_the_serif_fall_back_to_the_sans(tmp_path):
    deck = load_deck(write_deck(tmp_path, '[[cards]]\nname = "Ice ❄ and Moon ☾"\ncode = "I"\nkind = "thing"\n'))
    assert check.text_problems(deck) == []
    pieces = [p for w in text.words_of("Ice ❄", "serif") for p in w]
    assert [p.face for p in pieces] == ["serif", "sans"]


# Every deck in decks/ --------------------------------------------------------------------------

@pytest.mark.parametrize("deck_path", DECK_PATHS, ids=[p.stem for p in DECK_PATHS])
def test_every_deck_prints_with_all_its_text_on_the_sheets(deck_path):
    deck = load_deck(deck_path)
    assert check.text_problems(deck) == []
    flat = pdf_text(sheets.print_sheets(deck))
    for card in deck.cards:
        design = cards.design_name(deck, card)
        if design.startswith("text"):
            assert text.typographic(card.name) in flat
        elif design.startswith("picture"):
            assert text.typographic(card.name).upper() in flat
        else:
            assert (deck.rank(card.rank).index or deck.rank(card.rank).code) in flat


def test_designs_follow_what_a_card_has(tmp_path):
    suited = """
[[suits]]
id = "sun"
name = "Sun"
symbol = "☀"
code = "SU"
color = "#c98a00"
[[ranks]]
id = "3"
name = "Three"
code = "3"
[[ranks]]
id = "knight"
name = "Knight"
code = "N"
[[ranks]]
id = "wizard"
name = "Wizard"
code = "W"
[[card_sets]]
kind = "thing"
[[kinds]]
id = "jester"
name = "Jester"
[[cards]]
name = "Fool"
code = "FO"
kind = "jester"
text = "Loses every trick."
"""
    deck = load_deck(write_deck(tmp_path, suited + text_cards(1)))
    designs = {card.code: cards.design_name(deck, card) for card in deck.cards}
    assert designs == {"3SU": "playing", "NSU": "playing", "WSU": "playing", "FO": "picture", "C1": "text"}
    # The built-in designs are layouts, chosen by what each card has.
    assert cards.choose_face(deck, deck.card("FO")).builtin
    flat = pdf_text(sheets.print_sheets(deck))
    assert "KNIGHT" in flat  # a rank with no pips, letter or figure is named on the card
    assert "FOOL" in flat and "Loses every trick." in flat
    assert flat.count("☀") >= 3 * 2 + 3  # corner indices at both ends, and the Three's pips


def test_a_word_longer_than_a_line_is_named(tmp_path):
    word = "Supercalifragilisticexpialidocious" * 3
    deck = load_deck(write_deck(tmp_path, f'[[cards]]\nname = "Long Word"\ncode = "LW"\nkind = "thing"\n'
                                          f'text = "Fly with the {word} today."\n'))
    problems = check.text_problems(deck)
    assert len(problems) == 1 and word in problems[0].message and "hyphen" in problems[0].hint
