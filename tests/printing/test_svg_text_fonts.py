"""Text in a deck's SVG art and icons is drawn in the deck's own fonts, in every PDF and image.

A deck made here declares two fonts from tests/fixtures/fonts (Bitstream Vera first, Lobster
second), and an SVG icon with a word in Lobster, drawn by an icon element and inline in a text;
its art is an SVG with three texts: one in `font-family="lobster"` (a declared family,
named in another case), one in a family the deck does not declare (drawn in its first family,
Vera) and one in bold Lobster (Lobster has no bold file: its regular). `deckgen print --pdfx x4`,
`--pdfx x1a` and `deckgen build` write the PDFs; mupdf reads back which font draws each SVG
string, pikepdf lists every font (all embedded, no Helvetica), and the
card images are rasterised to see the letters inked where the SVG puts them.
"""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from generator.faces import svgfonts
from generator.faces.fonts import font_name_of

FONTS = Path(__file__).resolve().parents[1] / "fixtures" / "fonts"

SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200">
  <rect x="0" y="0" width="200" height="200" fill="#ffffff"/>
  <text x="100" y="50" font-family="lobster" font-size="36" text-anchor="middle">Spell<tspan>book</tspan></text>
  <text x="100" y="110" font-family="'No Such Face', Helvetica" font-size="30" text-anchor="middle">Potion</text>
  <text x="100" y="170" style="font-family: LOBSTER; font-weight: 700" font-size="30">Zest</text>
</svg>
"""

ICON = """<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40" viewBox="0 0 60 40">
  <text x="30" y="30" font-family="Lobster, cursive" font-size="24" text-anchor="middle">Wax</text>
</svg>
"""

# Where each string should be drawn, and in which font (as mupdf names the embedded font).
# (tests/fixtures/fonts/lobster.otf is Lobster Two Bold Italic; Vera.ttf is Bitstream Vera Sans.)
LOBSTER, VERA = "LobsterTwo-BoldItalic", "BitstreamVeraSans-Roman"
SVG_LINES = {"Spellbook": LOBSTER, "Potion": VERA, "Zest": LOBSTER, "Wax": LOBSTER}  # Wax: the icon's
CARD_LINES = {**SVG_LINES, "FirstPlate": VERA}  # and the card's title, in the layout's family

DECK = """[deck]
id = "inkwell"
name = "Inkwell"
players = { min = 2, max = 4 }
designer = "Test Designer"
layout = "plate"
back_layout = "plain-back"

[[kinds]]
id = "thing"
name = "Thing"

[[cards]]
name = "First Plate"
code = "P1"
kind = "thing"

[[cards]]
name = "Second Plate"
code = "P2"
kind = "thing"

[[fonts]]
family = "Vera Body"
regular = "fonts/Vera.ttf"

[[fonts]]
family = "Lobster"
regular = "fonts/lobster.otf"

[icons]
seal = "seal.svg"

[layouts.plate]
[[layouts.plate.elements]]
name = "picture"
type = "image"
src = "plate.svg"
x = "0mm"
y = "0mm"
width = "100%"
height = "70%"
fit = "contain"

[[layouts.plate.elements]]
name = "title"
type = "text"
field = "name"
family = "Vera Body"
x = "4mm"
y = "72%"
width = "55mm"
height = "10mm"
size = [12, 8]

[[layouts.plate.elements]]
name = "seal"
type = "icon"
icon = "seal"
x = "45mm"
y = "85%"
width = "12mm"
height = "8mm"

[[layouts.plate.elements]]
name = "inline"
type = "text"
text = "{icon:seal}"
x = "4mm"
y = "85%"
width = "30mm"
height = "10mm"
size = [14, 8]

[layouts.plain-back]
[[layouts.plain-back.elements]]
name = "ground"
type = "shape"
shape = "rect"
x = "0mm"
y = "0mm"
width = "100%"
height = "100%"
fill = "#335577"
"""


@pytest.fixture(scope="module")
def deck_path(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("inkwell")
    (folder / "fonts").mkdir()
    shutil.copy(FONTS / "Vera.ttf", folder / "fonts" / "Vera.ttf")
    shutil.copy(FONTS / "lobster.otf", folder / "fonts" / "lobster.otf")
    (folder / "plate.svg").write_text(SVG)
    (folder / "seal.svg").write_text(ICON)
    path = folder / "inkwell.toml"
    path.write_text(DECK)
    return path


def pdf_fonts(pdf: Path) -> dict[str, bool]:
    """Every font in the PDF by its base name (subset tag dropped): embedded or not."""
    with pikepdf.open(pdf) as document:
        found = {}
        for obj in document.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font":
                descriptor = obj.get("/FontDescriptor") or {}
                found[str(obj.BaseFont).split("+")[-1]] = any(key.startswith("/FontFile") for key in descriptor.keys())
        return found


def strings_by_font(pdf: Path, pages: str) -> dict[str, set[str]]:
    """mupdf's reading of pages ("1", "1-N"): each line of text and the fonts that draw it."""
    drawn = subprocess.run(["mutool", "draw", "-N", "-q", "-F", "stext", "-o", "-", str(pdf), pages],
                           capture_output=True, text=True, timeout=120)
    assert drawn.returncode == 0 and not drawn.stderr.strip(), drawn.stderr
    lines: dict[str, set[str]] = {}
    for line in ElementTree.fromstring(drawn.stdout).iter("line"):
        chars = [(font.get("name"), char.get("c")) for font in line.iter("font") for char in font.iter("char")]
        text = "".join(c for _, c in chars if c.strip())
        lines.setdefault(text, set()).update(name for name, c in chars if c.strip())
    return lines


def assert_svg_text_in_deck_fonts(pdf: Path, pages: str = "1", expected: dict = CARD_LINES) -> None:
    fonts = pdf_fonts(pdf)
    assert all(fonts.values()), f"{pdf.name}: not embedded: {fonts}"
    assert not [name for name in fonts if "Helvetica" in name], fonts
    lines = strings_by_font(pdf, pages)
    for text, font in expected.items():
        assert lines.get(text) == {font}, f"{pdf.name}: {text!r} drawn in {lines.get(text)} (lines: {lines})"


@pytest.mark.parametrize("options", [("--color", "cmyk", "--pdfx", "x4"), ("--color", "cmyk", "--pdfx", "x1a"),
                                     ("--one-per-page",)])
def test_svg_text_is_drawn_in_the_deck_fonts_when_printing(run_cli, deck_path, tmp_path, options):
    result = run_cli("print", deck_path, "-o", tmp_path, *options)
    assert result.exit_code == 0, result.stdout + result.stderr
    name = "inkwell-cards.pdf" if "--one-per-page" in options else "inkwell-print-a4-cmyk.pdf"
    assert_svg_text_in_deck_fonts(tmp_path / "inkwell" / name)


def test_svg_text_is_drawn_in_the_deck_fonts_by_build(run_cli, deck_path, tmp_path):
    result = run_cli("build", "--decks-dir", deck_path.parent, "-o", tmp_path, "-j", "1")
    assert result.exit_code == 0, result.stdout + result.stderr
    out = tmp_path / "inkwell"
    assert_svg_text_in_deck_fonts(out / "inkwell-print-a4.pdf")
    # The rulebook's card gallery (its captions are the rulebook's own type)
    assert_svg_text_in_deck_fonts(out / "inkwell-rules.pdf", "1-N", SVG_LINES)
    # The card images: the SVG fills the top 70 % of the card, its three lines at 25 %, 55 % and
    # 85 % of its height; each band is inked (dark pixels on the white plate).
    image = Image.open(out / "images" / "p1.png").convert("L")
    bleed = round(3 / 25.4 * 300)
    top, art_height = bleed, (image.height - 2 * bleed) * 0.7
    for row in (0.25, 0.55, 0.85):
        band = image.crop((bleed, round(top + art_height * (row - 0.08)), image.width - bleed,
                           round(top + art_height * (row + 0.02))))
        dark = sum(1 for value in band.tobytes() if value < 100)
        assert dark > 200, f"no letters drawn near {row:.0%} of the art: {dark} dark pixels"


def test_two_decks_with_different_fonts_never_share_an_svg_drawing(deck_path, tmp_path):
    """The drawing is cached per file and font map: the same SVG in a deck without fonts is set in DejaVu."""
    from generator.deck.loader import load_deck
    from generator.deck.layouts.artfiles import svg_drawing

    own = svgfonts.for_deck(load_deck(deck_path))
    plain_path = tmp_path / "plain.toml"
    plain_path.write_text(DECK.split("[[fonts]]")[0].replace('layout = "plate"\nback_layout = "plain-back"\n', ""))
    bare = svgfonts.for_deck(load_deck(plain_path))
    assert own != bare and bare == svgfonts.SvgFonts((), "")
    svg = deck_path.parent / "plate.svg"

    def fonts_of(drawing) -> list[str]:
        pending, names = [drawing], []
        while pending:
            node = pending.pop(0)
            pending.extend(getattr(node, "contents", ()))
            if getattr(node, "text", None) is not None:
                names.append(node.fontName)
        return names

    deck_fonts, dejavu = fonts_of(svg_drawing(svg, own)), fonts_of(svg_drawing(svg, bare))
    assert all(name.startswith("Deckgen-deck") for name in deck_fonts), deck_fonts
    assert dejavu == [font_name_of(face) for face in ("sans", "sans", "sans", "sans-bold")], dejavu
    assert svg_drawing(svg, own) is svg_drawing(svg, svgfonts.for_deck(load_deck(deck_path)))


def test_validate_warns_of_svg_text_in_a_family_the_deck_does_not_declare(run_cli, deck_path):
    result = run_cli("validate", deck_path)
    assert result.exit_code == 0, result.stdout + result.stderr
    seen = result.stdout + result.stderr
    warnings = [line for line in seen.splitlines() if "font-family" in line]
    assert len(warnings) == 1, seen  # "lobster" and "LOBSTER" are the deck's Lobster
    assert "plate.svg" in warnings[0] and "'No Such Face', Helvetica" in warnings[0] and "'Vera Body'" in warnings[0]
    assert "Vera Body, Lobster" in seen
