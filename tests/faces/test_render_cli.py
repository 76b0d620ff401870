"""`deckgen print` and `deckgen images` as a user runs them, card images, and the build steps."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pypdf
import pypdfium2
import pytest
from PIL import Image, ImageChops, ImageStat

from tests.conftest import DECKS
from generator.deck.loader import load_deck
from generator.faces import images
from generator.printing import sheets
from generator.faces.images import card_image, pixel_size, render_cards

MINI_DECK = """
[deck]
id = "mini"
name = "Mini"
players = { min = 2, max = 4 }

[back]
title = "MINI"
subtitle = "test deck"
pattern = "waves"
color = "#5a1f1f"
accent = "#f0d070"

[[suits]]
id = "hearts"
name = "Hearts"
symbol = "♥"
code = "H"
color = "#c8102e"

[[ranks]]
id = "7"
name = "Seven"
code = "7"
kind = "number"
[[ranks]]
id = "queen"
name = "Queen"
code = "Q"
kind = "court"

[[kinds]]
id = "number"
name = "Number"
[[kinds]]
id = "court"
name = "Court"
[[kinds]]
id = "joker"
name = "Joker"
[[kinds]]
id = "action"
name = "Action"

[[card_sets]]

[[cards]]
name = "Joker"
code = "JK"
kind = "joker"
count = 2

[[cards]]
name = "Sweeping Play"
code = "SP"
kind = "action"
corner = "+3"
text = "Add 3 to your dominance."
flavor = "Wide, fast and gone."
"""


@pytest.fixture
def mini(tmp_path) -> Path:
    path = tmp_path / "decks" / "mini.toml"
    path.parent.mkdir()
    path.write_text(MINI_DECK, encoding="utf-8")
    return path


def test_print_writes_the_sheets_pdf_and_says_where(run_cli, mini, tmp_path):
    out = tmp_path / "out"
    result = run_cli("print", mini, "--output", out, "--paper", "letter")
    assert result.exit_code == 0, result.stderr
    pdf = out / "mini" / "mini-print-letter.pdf"
    assert str(pdf) in result.stdout and "3×2 per sheet (landscape)" in result.stdout
    reader = pypdf.PdfReader(pdf)
    assert len(reader.pages) == 2  # 5 cards: one sheet of faces, one of backs
    assert [float(v) for v in reader.pages[0].mediabox[2:]] == pytest.approx([792, 612], abs=0.1)  # landscape Letter


def test_print_options_change_the_file(run_cli, mini, tmp_path):
    out = tmp_path / "out"
    result = run_cli("print", mini, "-o", out, "--card-size", "mini", "--duplex", "short-edge", "--gap", "2",
                     "--bleed", "0", "--json")
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert Path(summary["file"]).name == "mini-print-a4-mini-short-edge.pdf"
    assert summary["cards_per_sheet"] == summary["columns"] * summary["rows"] > 9
    reader = pypdf.PdfReader(summary["file"])
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"


def test_one_per_page_alternates_faces_and_backs(run_cli, mini, tmp_path):
    result = run_cli("print", mini, "-o", tmp_path, "--one-per-page", "--bleed", "3.175")
    assert result.exit_code == 0, result.stderr
    reader = pypdf.PdfReader(tmp_path / "mini" / "mini-cards.pdf")
    deck = load_deck(mini)
    assert len(reader.pages) == 2 * deck.total
    pdf = pypdfium2.PdfDocument(tmp_path / "mini" / "mini-cards.pdf")
    texts = [page.get_textpage().get_text_range() for page in pdf]
    pdf.close()
    assert all("MINI" in t for t in texts[1::2])
    assert "Sweeping Play" in texts[-2]


@pytest.mark.parametrize("args, needle", [
    (["--paper", "b5"], "--paper 'b5'"),
    (["--card-size", "huge"], "--card-size 'huge'"),
    (["--duplex", "sideways"], "--duplex 'sideways'"),
    (["--bleed", "-1"], "--bleed -1"),
    (["--gap", "80"], "--gap 80"),
    (["--calibration", "--duplex", "none"], "--calibration"),
    (["--sides", "middle"], "--sides 'middle'"),
    (["--sides", "backs", "--duplex", "none"], "--sides backs"),
    (["--back-offset", "1"], "--back-offset '1'"),
    (["--back-offset", "30,0"], "--back-offset 30"),
    (["--printer-margin", "-2"], "--printer-margin -2"),
    (["--orientation", "diagonal"], "--orientation 'diagonal'"),
    (["--fold", "--sides", "fronts"], "--fold"),
    (["--gap", "2", "--shared-cuts"], "--shared-cuts"),
    (["--printer", "nowhere"], "--printer 'nowhere'"),
])
def test_bad_print_options_are_clear_errors_with_exit_code_2(run_cli, mini, tmp_path, args, needle):
    result = run_cli("print", mini, "-o", tmp_path, *args)
    assert result.exit_code == 2
    assert needle in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert not (tmp_path / "mini").exists()


def test_a_layout_that_does_not_fit_says_which_option_to_change(run_cli, mini, tmp_path):
    # A 150×270 mm card fits A4 with room for crop marks inside the printer margin; Letter is too short.
    mini.write_text(mini.read_text().replace('players = {', 'card_size = { width_mm = 150, height_mm = 270 }\n'
                                             'players = {', 1), encoding="utf-8")
    result = run_cli("print", mini, "-o", tmp_path, "--paper", "letter")
    assert result.exit_code == 2
    assert "does not fit on letter" in result.stderr and "crop marks" in result.stderr
    assert "--paper a4" in result.stderr and "--card-size" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "mini").exists()
    assert run_cli("print", mini, "-o", tmp_path, "--paper", "a4").exit_code == 0


def test_printing_refuses_a_deck_whose_art_is_missing(run_cli, mini, tmp_path):
    mini.write_text(mini.read_text() + 'art = "art/sweep.png"\n', encoding="utf-8")
    result = run_cli("print", mini, "-o", tmp_path)
    assert result.exit_code == 1
    assert "Sweeping Play" in result.stderr and "art/sweep.png" in result.stderr


# Images ---------------------------------------------------------------------------------------

def test_pixel_sizes_match_the_print_services():
    # 63×88 mm with 3 mm bleed is not TGC's size; their 2.5×3.5" card with 1/8" bleed is.
    assert pixel_size((63, 88), 3, 300) == (815, 1110)
    poker_in = (2.5 * 25.4, 3.5 * 25.4)
    assert pixel_size(poker_in, 25.4 / 8, 300) == (825, 1125)
    assert pixel_size((2.75 * 25.4, 4.75 * 25.4), 25.4 / 8, 300) == (900, 1500)


@pytest.mark.parametrize("profile, size", [("tgc", (825, 1125)), ("mpc", (822, 1122)), (None, (815, 1110))])
def test_images_command_writes_a_png_per_distinct_face_and_the_back(run_cli, mini, tmp_path, profile, size):
    args = ["images", mini, "-o", tmp_path] + (["--profile", profile] if profile else [])
    result = run_cli(*args)
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "mini" / "images"
    deck = load_deck(mini)
    names = sorted(p.name for p in folder.glob("*.png"))
    assert names == sorted([f"{card.id}.png" for card in deck.cards] + ["back.png"])
    for name in ("back.png", names[0]):
        with Image.open(folder / name) as image:
            assert image.size == size and image.mode == "RGB"
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_image_options_are_checked(run_cli, mini, tmp_path):
    for args, needle in ((["--profile", "nope"], "--profile 'nope'"), (["--dpi", "5"], "--dpi 5"),
                         (["--bleed", "-2"], "--bleed -2")):
        result = run_cli("images", mini, "-o", tmp_path, *args)
        assert result.exit_code == 2 and needle in result.stderr, result.stderr


def test_card_image_is_the_pdf_page_rasterised(mini):
    deck = load_deck(mini)
    card = deck.card("SP")
    # At 254 dpi a 63×88 mm card is exactly 630×880 px, so the PDF page needs no rounding.
    image = card_image(deck, card, dpi=254, bleed_mm=0)
    assert image.size == pixel_size((63, 88), 0, 254) == (630, 880)
    pdf = pypdfium2.PdfDocument(sheets.one_per_page(deck, bleed_mm=0))
    index = 2 * [c.code for c in deck.copies()].index("SP")
    page = pdf[index].render(scale=254 / 72 * (1 - 1e-6), rev_byteorder=True).to_pil().convert("RGB")
    pdf.close()
    assert page.size == image.size
    difference = ImageStat.Stat(ImageChops.difference(page, image)).mean
    assert max(difference) < 1.0


def test_card_image_of_the_back_and_of_a_face_differ(mini):
    deck = load_deck(mini)
    back = card_image(deck, None, dpi=50)
    face = card_image(deck, deck.cards[0], dpi=50)
    assert back.size == face.size
    assert ImageStat.Stat(back).mean[0] < ImageStat.Stat(face).mean[0]  # the back is dark, the face white


def test_draw_face_works_inside_a_platypus_flowable(mini, tmp_path):
    from reportlab.platypus import Flowable, SimpleDocTemplate

    from generator.faces.cards import draw_face

    deck = load_deck(mini)

    class CardPicture(Flowable):
        def wrap(self, available_width, available_height):
            return 90, 126

        def draw(self):
            draw_face(self.canv, deck, deck.card("SP"), 0, 0, 90, 126, 0)

    buffer = io.BytesIO()
    SimpleDocTemplate(buffer).build([CardPicture()])
    assert "Sweeping Play" in pypdf.PdfReader(buffer).pages[0].extract_text()


def test_rendered_images_are_deterministic(mini):
    deck = load_deck(mini)
    first = [image.tobytes() for image in render_cards(deck, list(deck.cards) + [None], dpi=40)]
    second = [image.tobytes() for image in render_cards(deck, list(deck.cards) + [None], dpi=40)]
    assert first == second


# Build ----------------------------------------------------------------------------------------

def test_build_writes_the_print_pdf_and_the_images(run_cli, mini, tmp_path):
    out = tmp_path / "out"
    result = run_cli("build", "--decks-dir", mini.parent, "--output", out)
    assert result.exit_code == 0, result.stderr
    folder = out / "mini"
    assert (folder / "mini-print-a4.pdf").is_file()
    assert (folder / images.IMAGES_DIR / images.BACK_NAME).is_file()
    reader = pypdf.PdfReader(folder / "mini-print-a4.pdf")
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipLongEdge"


def test_wizard_deck_images_cover_every_distinct_card(tmp_path):
    deck = load_deck(DECKS / "wizard.toml")
    written = images.write_images(deck, tmp_path, dpi=40, bleed_mm=0)
    assert len(written) == len(deck.cards) + 1
