"""Card rendering: layout geometry, what the sheet PDFs contain and where, duplex backs, text fitting."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pypdf
import pypdfium2
import pytest
from pypdf.generic import ContentStream

from .conftest import DECK_PATHS, DECKS
from generator.errors import InvalidDeck, OptionError
from generator.loader import load_deck
from generator.model import CARD_SIZES_MM
from generator.render import cards, check, sheets, text
from generator.render.sizes import PAPERS_MM, pt

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


def text_cards(count: int, **fields) -> str:
    """`count` distinct text cards named Card 1..count."""
    entries = []
    for number in range(1, count + 1):
        extra = "".join(f'{key} = "{value}"\n' for key, value in fields.items())
        entries.append(f'[[cards]]\nname = "Card {number}"\ncode = "C{number}"\nkind = "thing"\n'
                       f'text = "Rules of card {number}."\n{extra}')
    return "\n".join(entries)


def operations(reader: pypdf.PdfReader, page_number: int) -> list[tuple[bytes, list]]:
    page = reader.pages[page_number]
    stream = ContentStream(page.get_contents(), reader)
    return [(op, list(operands)) for operands, op in stream.operations]


def placements(reader: pypdf.PdfReader, page_number: int) -> list[dict]:
    """Each form drawn on a page: its clip rectangle, where its origin is moved to, and its name."""
    found, clip, origin = [], None, None
    for op, operands in operations(reader, page_number):
        if op == b"re":
            clip = tuple(float(v) for v in operands)
        elif op == b"cm":
            origin = (float(operands[4]), float(operands[5]))
        elif op == b"Do":
            found.append({"clip": clip, "origin": origin, "form": str(operands[0])})
        elif op == b"Q":
            clip, origin = None, None
    return found


def segments(reader: pypdf.PdfReader, page_number: int) -> list[tuple[float, float, float, float]]:
    """Straight lines stroked directly on a page (not inside forms): the crop marks."""
    found, start = [], None
    for op, operands in operations(reader, page_number):
        if op == b"m":
            start = tuple(float(v) for v in operands)
        elif op == b"l" and start:
            end = tuple(float(v) for v in operands)
            found.append(start + end)
            start = None
    return found


def pdf_text(data: bytes) -> str:
    """All text of a PDF, whitespace collapsed (pypdfium2: fast, and it reads text inside forms)."""
    pdf = pypdfium2.PdfDocument(data)
    try:
        return " ".join(" ".join(page.get_textpage().get_text_range() for page in pdf).split())
    finally:
        pdf.close()


def close(a, b, tolerance=0.01) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


# Layout geometry ------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", sorted(PAPERS_MM))
def test_default_layout_puts_nine_poker_cards_on_a_page(paper):
    layout = sheets.sheet_layout(paper, CARD_SIZES_MM["poker"])
    assert (layout.columns, layout.rows) == (3, 3)
    page_w, page_h = (pt(v) for v in PAPERS_MM[paper])
    assert (layout.page_width, layout.page_height) == pytest.approx((page_w, page_h))
    # Centred, and every card's bleed stays on the paper with room for the marks.
    left = min(s.x for s in layout.slots)
    right = max(s.right for s in layout.slots)
    assert left == pytest.approx(page_w - right)
    for clip in layout.clips:
        assert clip.x >= pt(sheets.MARK_ROOM_MM) - 1e-6
        assert clip.top <= page_h - pt(sheets.MARK_ROOM_MM) + 1e-6


def test_layout_with_gap_gives_each_card_its_own_cuts_and_bleed():
    layout = sheets.sheet_layout("a4", (63, 88), bleed_mm=2, gap_mm=6)
    assert len(layout.cut_xs) == 2 * layout.columns
    assert len(layout.cut_ys) == 2 * layout.rows
    for slot, clip in zip(layout.slots, layout.clips):
        assert clip.width == pytest.approx(slot.width + pt(4))
    # Shared cuts: no gap means one cut between neighbours, bleed only on the outside.
    shared = sheets.sheet_layout("a4", (63, 88), bleed_mm=3, gap_mm=0)
    assert len(shared.cut_xs) == shared.columns + 1
    middle = shared.clips[4]
    assert close(middle.tuple(), shared.slots[4].tuple())


def test_crop_marks_stay_off_the_cards_and_reach_the_paper_edge():
    layout = sheets.sheet_layout("letter", (63, 88), bleed_mm=3)
    for x0, y0, x1, y1 in layout.marks:
        for clip in layout.clips:
            overlaps_x = min(x0, x1) < clip.right and max(x0, x1) > clip.x
            overlaps_y = min(y0, y1) < clip.top and max(y0, y1) > clip.y
            assert not (overlaps_x and overlaps_y), "a crop mark crosses a card"
        touches_edge = {round(v, 3) for v in (x0, y0, x1, y1)} & {0.0, round(layout.page_width, 3),
                                                                  round(layout.page_height, 3)}
        assert touches_edge
    # Every cut line has a mark at both ends of the sheet.
    assert len(layout.marks) == 2 * (len(layout.cut_xs) + len(layout.cut_ys))


def test_a_layout_that_cannot_fit_names_the_options_to_change():
    with pytest.raises(OptionError) as caught:
        sheets.sheet_layout("letter", (190, 270), bleed_mm=3)
    message = str(caught.value)
    assert "--bleed" in message and "--paper a4" in message and "--card-size" in message


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_back_slot_is_the_face_slot_after_turning_the_sheet(duplex):
    layout = sheets.sheet_layout("a4", (63, 88))
    for index, slot in enumerate(layout.slots):
        back = layout.back_slot(index, duplex)
        # Turn the backs page the way the printer does; the back must cover its face exactly.
        if duplex == "long-edge":
            turned = (layout.page_width - back.right, back.y)
        else:
            turned = (back.x, layout.page_height - back.top)
        assert close(turned, (slot.x, slot.y))


# Sheet PDFs -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def wizard_sheets():
    deck = load_deck(WIZARD)
    data = sheets.print_sheets(deck)
    return deck, pypdf.PdfReader(io.BytesIO(data)), data


def test_sheet_pages_have_paper_size_and_alternate_faces_and_backs(wizard_sheets):
    deck, reader, _data = wizard_sheets
    layout = sheets.sheet_layout("a4", CARD_SIZES_MM["poker"])
    assert len(reader.pages) == 2 * math.ceil(deck.total / layout.per_page)
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(pt(210), abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(pt(297), abs=0.01)
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge" and prefs["/PrintScaling"] == "/None"


def test_cards_and_crop_marks_are_drawn_where_the_layout_says(wizard_sheets):
    _deck, reader, _data = wizard_sheets
    layout = sheets.sheet_layout("a4", CARD_SIZES_MM["poker"])
    drawn = placements(reader, 0)
    assert len(drawn) == layout.per_page
    for placed, slot, clip in zip(drawn, layout.slots, layout.clips):
        assert close(placed["origin"], (slot.x, slot.y))
        assert close(placed["clip"], clip.tuple())
    marks = sorted(tuple(round(v, 2) for v in mark) for mark in segments(reader, 0))
    expected = sorted(tuple(round(v, 2) for v in mark) for mark in layout.marks)
    assert marks == expected
    assert segments(reader, 1) == []  # no marks behind the cards


def test_backs_page_mirrors_the_faces_page(wizard_sheets):
    _deck, reader, _data = wizard_sheets
    layout = sheets.sheet_layout("a4", CARD_SIZES_MM["poker"])
    faces, backs = placements(reader, 0), placements(reader, 1)
    assert len({b["form"] for b in backs}) == 1  # one back drawing, reused
    for index, back in enumerate(backs):
        assert close(back["origin"], (layout.back_slot(index, "long-edge").x, layout.slots[index].y))
        assert back["form"] not in {f["form"] for f in faces}


def test_each_distinct_drawing_is_stored_once(wizard_sheets):
    deck, reader, _data = wizard_sheets
    forms = set()
    for page in reader.pages:
        forms.update(page["/Resources"]["/XObject"].keys())
    assert len(forms) == len(deck.cards) + 1  # every distinct face, plus the back
    draws = sum(len(placements(reader, n)) for n in range(len(reader.pages)))
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


def _rendered(data: bytes, page: int, dpi: int = 20):
    pdf = pypdfium2.PdfDocument(data)
    image = pdf[page].render(scale=dpi / 72).to_pil().convert("RGB")
    pdf.close()
    return image


@pytest.mark.parametrize("duplex", ["long-edge", "short-edge"])
def test_each_back_lands_behind_its_face_after_the_flip(tmp_path, duplex):
    # Four cards on a nine-slot sheet: the empty slots show whether backs follow their faces.
    deck = load_deck(write_deck(tmp_path, text_cards(4)))
    data = sheets.print_sheets(deck, paper="letter", duplex=duplex)
    layout = sheets.sheet_layout("letter", CARD_SIZES_MM["poker"])
    dpi = 20
    backs = _rendered(data, 1, dpi)
    if duplex == "long-edge":
        turned = backs.transpose(0)  # FLIP_LEFT_RIGHT: what lies behind each point of the front
    else:
        turned = backs.transpose(1)  # FLIP_TOP_BOTTOM
    scale = dpi / 72
    for index, slot in enumerate(layout.slots):
        cx, cy = slot.center
        pixel = (int(cx * scale), int((layout.page_height - cy) * scale))
        behind = turned.getpixel(pixel)
        if index < 4:
            assert sum(behind) < 600, (index, behind)  # the dark back is there
        else:
            assert behind == (255, 255, 255), index


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


def test_calibration_sheet_comes_first_and_mirrors_like_the_backs():
    deck = load_deck(WIZARD)
    plain = pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck)))
    calibrated = pypdf.PdfReader(io.BytesIO(sheets.print_sheets(deck, calibration=True)))
    assert len(calibrated.pages) == len(plain.pages) + 2
    assert "front" in calibrated.pages[0].extract_text() and "back" in calibrated.pages[1].extract_text()
    with pytest.raises(OptionError, match="--duplex"):
        sheets.print_sheets(deck, calibration=True, duplex="none")


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
    assert placements(reader, 1)[0]["form"] == placements(reader, 3)[0]["form"]


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
