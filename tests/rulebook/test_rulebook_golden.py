"""Rulebook pages as a reader sees them: each shipped deck's and the designer example's first
rules page, rasterised and compared with the committed reference pictures in golden/, and the
typography read back from the PDFs (quotes, dashes, minus signs, hyphenation, icons, fonts).

A deliberate change of the typesetting regenerates the references:
    DECKGEN_UPDATE_GOLDEN=1 python -m pytest tests/rulebook/test_rulebook_golden.py
then look at the new PNGs before committing them.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import re
import subprocess
import sys
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_raw
import pytest
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader

from generator.rulebook.hyphenation import MIN_LETTERS
from generator.rulebook.paper import geometry
from generator.rulebook.pdf_styles import balanced_rows
from generator.core.typography import smarten, smarten_markup

from tests.conftest import DECK_PATHS

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
DESIGNER = ROOT / "examples" / "designer" / "cauldron-club.toml"
DECKS = {path.stem: path for path in DECK_PATHS} | {"cauldron-club": DESIGNER}
# The pages compared: the first rules page of each book (sections, components table, icons).
PAGES = {"wizard": (3,), "wizard-hearts": (3,), "muggle-quidditch": (4,), "quidditch-v2": (4,), "cauldron-club": (3,)}
DPI = 40
# Mean difference per channel (0-255) and the share of pixels that differ visibly: a glyph
# moved or a font changed exceeds them; anti-aliasing differences between runs do not.
MEAN_TOLERANCE = 1.5
CHANGED_SHARE = 0.004


@pytest.fixture(scope="module")
def rulebooks(tmp_path_factory):
    """Each deck's PDF rulebook written by `deckgen rulebook`, as a user runs it."""
    out = tmp_path_factory.mktemp("rulebooks")
    found = {}
    for deck_id, path in DECKS.items():
        subprocess.run([sys.executable, "-m", "generator", "rulebook", str(path), "--format", "pdf", "-o", str(out)],
                       check=True, capture_output=True, cwd=ROOT)
        found[deck_id] = out / deck_id / f"{deck_id}-rules.pdf"
    return found


def _page_image(pdf: Path, number: int) -> Image.Image:
    document = pdfium.PdfDocument(pdf)
    try:
        return document[number - 1].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        document.close()


def _texts(pdf: Path) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        return [document[index].get_textpage().get_text_bounded() for index in range(len(document))]
    finally:
        document.close()


def _own_texts(pdf: Path) -> list[str]:
    """The rulebook's own words on each page: its text objects, not those inside the card faces'
    forms (the cards print what the card renderer sets)."""
    document = pdfium.PdfDocument(pdf)
    pages = []
    try:
        for page in document:
            textpage = page.get_textpage()
            words = []
            for item in page.get_objects(max_depth=0):
                if item.type != pdfium_raw.FPDF_PAGEOBJ_TEXT:
                    continue
                length = pdfium_raw.FPDFTextObj_GetText(item.raw, textpage.raw, None, 0)
                buffer = ctypes.create_string_buffer(length)
                pdfium_raw.FPDFTextObj_GetText(item.raw, textpage.raw,
                                               ctypes.cast(buffer, ctypes.POINTER(pdfium_raw.FPDF_WCHAR)), length)
                words.append(buffer.raw.decode("utf-16-le").rstrip("\x00"))
            pages.append("\n".join(words))
    finally:
        document.close()
    return pages


@pytest.mark.parametrize("deck_id, number", [(deck, number) for deck, numbers in PAGES.items() for number in numbers])
def test_rulebook_page_matches_its_reference(rulebooks, deck_id, number):
    image = _page_image(rulebooks[deck_id], number)
    reference = GOLDEN / f"{deck_id}-p{number}.png"
    if os.environ.get("DECKGEN_UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        image.save(reference, optimize=True)
    assert reference.exists(), f"no reference {reference.name}: run with DECKGEN_UPDATE_GOLDEN=1"
    expected = Image.open(reference).convert("RGB")
    assert image.size == expected.size, f"page size changed: {image.size} != {expected.size}"
    difference = ImageChops.difference(image, expected)
    mean = sum(ImageStat.Stat(difference).mean) / 3
    changed = sum(difference.convert("L").point(lambda value: 255 if value > 48 else 0).histogram()[255:]) / (image.width * image.height)
    assert mean <= MEAN_TOLERANCE and changed <= CHANGED_SHARE, (
        f"{deck_id} page {number} differs from {reference.name}: mean {mean:.2f}, {changed:.2%} of pixels changed")


def test_a_changed_page_fails_the_comparison(rulebooks):
    """The tolerance catches a typographic change: the next page is not the reference page."""
    image = _page_image(rulebooks["wizard"], 4)
    expected = Image.open(GOLDEN / "wizard-p3.png").convert("RGB")
    difference = ImageChops.difference(image, expected)
    assert sum(ImageStat.Stat(difference).mean) / 3 > MEAN_TOLERANCE


@pytest.mark.parametrize("deck_id", list(DECKS))
def test_prose_has_typographers_punctuation(rulebooks, deck_id):
    text = "\n".join(_own_texts(rulebooks[deck_id]))
    assert '"' not in text, "a straight double quote in the rulebook"
    assert "'" not in text, re.findall(r".{20}'.{20}", text)[:3]
    assert not re.findall(r"(?<![\w.-])\d+-\d+(?![\w-])", text), "a number range set with a hyphen"
    assert not re.findall(r"(?:^|\s)-\d", text), "a negative number set with a hyphen"


def test_ranges_and_minus_signs_are_set(rulebooks):
    wizard = "\n".join(_own_texts(rulebooks["wizard"]))
    assert "45\u201360 minutes" in wizard
    hearts = "\n".join(_own_texts(rulebooks["wizard-hearts"]))
    assert "\u22122" in hearts


@pytest.mark.parametrize("deck_id", list(DECKS))
def test_hyphenation_leaves_three_letters_each_side(rulebooks, deck_id):
    text = "\n".join(_texts(rulebooks[deck_id]))
    # pdfium marks a word hyphenated at a line's end with \x02 between its halves.
    source = DECKS[deck_id].read_text(encoding="utf-8")
    for head, tail in re.findall(r"(\w+)\x02\s*(\w+)", text):
        if f"{head}-{tail}" in source:  # a line broken at a hyphen the words have ("out-of-turn")
            continue
        assert len(head) >= MIN_LETTERS and len(tail) >= MIN_LETTERS, f"{head}-{tail}"


@pytest.mark.parametrize("deck_id", list(DECKS))
def test_no_engine_setting_names_in_prose(rulebooks, deck_id):
    text = "\n".join(_own_texts(rulebooks[deck_id]))
    # Referee options in the variants' boxes are named as the referee takes them; prose is not.
    prose = re.sub(r"\w+ = \w[\w-]*", "", text)
    for name in ("tie_break", "turn_cap", "max_hands"):
        assert name not in prose


def test_icons_are_drawn_not_named_and_the_decks_font_is_used(rulebooks):
    pdf = rulebooks["cauldron-club"]
    text = "\n".join(_texts(pdf))
    assert "[drop]" not in text and "[leaf]" not in text and "Worth" in text
    reader = PdfReader(pdf)
    fonts = set()
    for page in reader.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            font = font.get_object()
            if "/FontDescriptor" in font or "/DescendantFonts" in font:
                descriptor = font.get("/FontDescriptor")
                if descriptor is not None and "/FontFile2" in descriptor.get_object():
                    fonts.add(str(font["/BaseFont"]).split("+")[-1])
    assert "LiberationSerif" in fonts, fonts


def test_smartening_leaves_references_and_codes_alone():
    assert smarten_markup("{card:Sandy's Broom}'s turn, \"go\", 2-6 or -1") == (
        "{card:Sandy's Broom}\u2019s turn, \u201cgo\u201d, 2\u20136 or \u22121")
    assert smarten("never-even 2001-04-09 A-1-2") == "never-even 2001-04-09 A-1-2"


@pytest.mark.parametrize("count, columns, rows", [(13, 5, [5, 4, 4]), (12, 4, [4, 4, 4]), (10, 5, [5, 5]),
                                                  (7, 4, [4, 3]), (9, 5, [5, 4]), (1, 4, [1])])
def test_galleries_balance_their_rows(count, columns, rows):
    assert balanced_rows(count, columns) == rows


@pytest.mark.parametrize("deck_id", list(DECKS))
def test_the_contents_take_one_page(rulebooks, deck_id):
    """The first chapter starts on page 3: cover, one page of contents (in two balanced columns
    when one would spill a few lines over), then the rules."""
    document = pdfium.PdfDocument(rulebooks[deck_id])
    try:
        first = [mark for mark in document.get_toc() if mark.get_title() != "Contents"][0]
        assert first.get_dest().get_index() == 2, f"{first.get_title()} starts on page {first.get_dest().get_index() + 1}"
    finally:
        document.close()


@pytest.mark.parametrize("deck_id", list(DECKS))
def test_no_settled_by_line_heads_a_column(rulebooks, deck_id):
    g = geometry("a4")
    document = pdfium.PdfDocument(rulebooks[deck_id])
    try:
        for number, page in enumerate(document, start=1):
            textpage = page.get_textpage()
            top = g.page_height - g.top
            for column in range(g.columns):
                left = g.margin + column * (g.column_width + g.gutter)
                head = textpage.get_text_bounded(left, top - 12, left + g.column_width, top + 2).strip()
                assert not head.startswith("Settled by"), f"page {number}, column {column + 1}: {head!r}"
    finally:
        document.close()


def test_a_row_of_icons_is_drawn_as_many_icons(run_cli, tmp_path):
    """`{icon:drop*2}` sets two drops, as `{icon:drop}{icon:drop}` does, never its markup."""
    books = {}
    for name, text in (("written", "{icon:drop}{icon:drop}"), ("repeated", "{icon:drop*2}")):
        folder = tmp_path / name
        shutil.copytree(ROOT / "examples" / "designer", folder)
        deck = folder / "cauldron-club.toml"
        source = deck.read_text(encoding="utf-8")
        assert "Worth {icon:drop}{icon:drop} when brewing." in source
        deck.write_text(source.replace("Worth {icon:drop}{icon:drop} when", f"Worth {text} when"), encoding="utf-8")
        result = run_cli("rulebook", deck, "--format", "all", "--output", tmp_path / f"out-{name}")
        assert result.exit_code == 0, result.stdout + result.stderr
        books[name] = tmp_path / f"out-{name}" / "cauldron-club"
    pages = {name: (book / "cauldron-club-rules.html").read_text(encoding="utf-8") for name, book in books.items()}
    assert pages["repeated"].count('class="icon"') == pages["written"].count('class="icon"')
    assert "drop*2" not in pages["repeated"]
    pdf_text = "\n".join(_texts(books["repeated"] / "cauldron-club-rules.pdf"))
    assert "drop*2" not in pdf_text and "Worth" in pdf_text
