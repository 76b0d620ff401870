"""Art, fonts and print quality in layouts: SVG art, made bleed, low resolution, deck fonts,
WCAG contrast."""

from __future__ import annotations

import io
from pathlib import Path

import pypdf
import pytest
from PIL import Image

from generator.core.errors import InvalidDeck
from generator.deck.loader import check_deck, load_deck
from generator.printing import sheets
from generator.faces.check import text_problems
from generator.faces.images import card_image
from generator.faces.quality import contrast_problems, contrast_ratio, resolution_problems

from tests.deck.test_layouts import write

FIXTURE_FONTS = Path(__file__).resolve().parents[1] / "fixtures" / "fonts"

FULL_ART = """
[[kinds]]
id = "scene"
name = "Scene"
layout = "full"

[[cards]]
name = "View"
code = "V"
kind = "scene"
art = "{art}"

[layouts.full]
[[layouts.full.elements]]
name = "art"
type = "image"
frame = "bleed"
bleed = "{mode}"
bleed_color = "#00ff00"
"""


def trim_art(folder, px_per_mm: float = 12, name: str = "view.png"):
    """Trim-sized art: left half red, right half blue, a black stripe at the top edge."""
    width, height = round(63 * px_per_mm), round(88 * px_per_mm)
    image = Image.new("RGB", (width, height), "#ff0000")
    image.paste((0, 0, 255), (width // 2, 0, width, height))
    image.paste((0, 0, 0), (0, 0, width, max(1, height // 40)))
    image.save(folder / name)
    return name


@pytest.mark.parametrize("mode, top_left", [("mirror", (0, 0, 0)), ("extend", (0, 0, 0)), ("color", (0, 255, 0))])
def test_art_without_bleed_gets_bleed_made(tmp_path, mode, top_left):
    art = trim_art(tmp_path)
    deck = load_deck(write(tmp_path, FULL_ART.replace("{art}", art).replace("{mode}", mode)))
    image = card_image(deck, deck.card("V"), dpi=100, bleed_mm=3).convert("RGB")
    bleed_px = round(3 / 25.4 * 100)
    assert image.getpixel((bleed_px // 2, bleed_px // 2)) == top_left  # in the bleed, above the art's black edge
    assert image.getpixel((bleed_px // 2, image.height // 2)) == ((0, 255, 0) if mode == "color" else (255, 0, 0))
    middle = image.getpixel((image.width // 2 + 20, image.height // 2))
    assert middle == (0, 0, 255)  # the art itself fills the trim, uncropped


def test_svg_art_is_drawn_as_vectors(tmp_path):
    (tmp_path / "pic.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="63" height="88">'
                                      '<rect width="63" height="88" fill="#ff8800"/></svg>')
    deck = load_deck(write(tmp_path, FULL_ART.replace("{art}", "pic.svg").replace('bleed = "{mode}"\n', "")))
    data = sheets.one_per_page(deck)
    page = pypdf.PdfReader(io.BytesIO(data)).pages[0]
    forms = [form.get_object() for form in page["/Resources"]["/XObject"].values()]
    inner = [x.get_object() for form in forms for x in form["/Resources"].get("/XObject", {}).values()]
    assert all(x["/Subtype"] != "/Image" for x in forms + inner)  # no raster image: the SVG became paths
    assert card_image(deck, deck.card("V"), dpi=50).convert("RGB").getpixel((60, 80)) == (255, 136, 0)


def test_low_resolution_art_warns_under_300_ppi_and_fails_under_150(tmp_path):
    art = trim_art(tmp_path, px_per_mm=8)  # about 200 ppi at trim size
    deck = load_deck(write(tmp_path, FULL_ART.replace("{art}", art).replace("{mode}", "mirror")))
    [warning] = resolution_problems(deck)
    assert warning.severity == "warning" and "ppi" in warning.message and "'View' (V)" in warning.message
    art = trim_art(tmp_path, px_per_mm=3, name="tiny.png")  # about 75 ppi
    deck = load_deck(write(tmp_path, FULL_ART.replace("{art}", art).replace("{mode}", "mirror"), "tiny"))
    [error] = resolution_problems(deck)
    assert error.severity == "error" and "--allow-low-res" in error.hint
    with pytest.raises(InvalidDeck, match="ppi"):
        sheets.print_sheets(deck)
    assert sheets.print_sheets(deck, sheets.SheetOptions(allow_low_res=True))[:4] == b"%PDF"


def test_print_command_takes_allow_low_res(tmp_path, run_cli):
    art = trim_art(tmp_path, px_per_mm=3)
    path = write(tmp_path, FULL_ART.replace("{art}", art).replace("{mode}", "mirror"))
    assert run_cli("print", str(path), "--output", str(tmp_path / "out")).exit_code == 1
    assert run_cli("print", str(path), "--output", str(tmp_path / "out"), "--allow-low-res").exit_code == 0


FONT_DECK = """
[[fonts]]
family = "Body"
regular = "{font}"

[[kinds]]
id = "note"
name = "Note"
layout = "note"

[[cards]]
name = "Note"
code = "N"
kind = "note"
text = "{text}"

[layouts.note]
[[layouts.note.elements]]
name = "text"
type = "text"
field = "text"
family = "Body"
x = 5
y = 5
width = 50
height = 40
size = [10, 6]
"""


def test_a_deck_font_is_embedded_subset_and_its_missing_glyphs_are_errors(tmp_path):
    import shutil

    # Bitstream Vera ships with the tests (tests/fixtures/fonts, its licence beside it): a face
    # unlike deckgen's own DejaVu, with no snowflake (U+2744) among its 256 characters.
    shutil.copy(FIXTURE_FONTS / "Vera.ttf", tmp_path / "body.ttf")
    deck = load_deck(write(tmp_path, FONT_DECK.replace("{font}", "body.ttf").replace("{text}", "Plain words.")))
    reader = pypdf.PdfReader(io.BytesIO(sheets.one_per_page(deck)))
    fonts = {str(font["/BaseFont"]) for page in reader.pages for form in page["/Resources"]["/XObject"].values()
             for font in form.get_object()["/Resources"]["/Font"].values()
             if "/BaseFont" in font.get_object()}
    assert any(name.endswith("+BitstreamVeraSans-Roman") for name in fonts)  # subset tag AAAAAA+
    deck = load_deck(write(tmp_path, FONT_DECK.replace("{font}", "body.ttf").replace("{text}", "Snow ❄ falls."), "miss"))
    [problem] = [p for p in text_problems(deck) if p.severity == "error"]
    assert problem.field == "card N.text" and "U+2744" in problem.message


def test_a_missing_font_file_is_an_error_at_its_line(tmp_path):
    path = write(tmp_path, FONT_DECK.replace("{font}", "nope.ttf").replace("{text}", "x"))
    _deck, problems = check_deck(path)
    problem = next(p for p in problems if "nope.ttf" in p.message)
    assert problem.field == "fonts[0].regular" and problem.line == 3 + path.read_text().split("[[fonts]]")[0].count("\n")


def test_contrast_under_wcag_is_a_warning_naming_the_element():
    from pathlib import Path

    deck = load_deck(Path(__file__).resolve().parents[2] / "decks" / "wizard-hearts.toml")
    sun = [p for p in contrast_problems(deck) if "#c98a00" in p.message]
    assert sun and sun[0].severity == "warning" and "index" in sun[0].message and "2.95:1" in sun[0].message
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21)


@pytest.mark.parametrize("figure", ["jester", "joker", "wizard", "court", "crest"])
def test_a_figure_never_draws_outside_its_box(run_cli, tmp_path, figure):
    """The Jester's harlequin ground used to spill half a diamond past the frame on every side."""
    from PIL import ImageChops

    from tests.faces.test_render import deck_with_layout

    path = deck_with_layout(tmp_path, "solo", f'name = "picture"\ntype = "figure"\nfigure = "{figure}"\n'
                                              'x = "20mm"\ny = "25mm"\nwidth = "20mm"\nheight = "30mm"',
                            cards=1, extends=None)
    result = run_cli("images", path, "--dpi", "100", "--bleed", "0", "-o", tmp_path / "out")
    assert result.exit_code == 0, result.stderr
    with Image.open(tmp_path / "out" / "tiny" / "images" / "c1.png") as image:
        face = image.convert("RGB")
    drawn = ImageChops.difference(face, Image.new("RGB", face.size, face.getpixel((2, 2)))).convert("L")
    left, top, right, bottom = drawn.point(lambda v: 255 if v > 24 else 0).getbbox()
    px = 100 / 25.4
    assert (right - left) <= 20 * px + 2 and (bottom - top) <= 30 * px + 2, (figure, (left, top, right, bottom))
    assert left >= 20 * px - 1 and top >= 25 * px - 1, (figure, (left, top, right, bottom))
