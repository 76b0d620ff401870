"""A deck's OpenType font with PostScript (CFF) outlines is accepted, drawn and embedded in every
PDF `deckgen print` writes (converted to TrueType outlines), read back with pikepdf and mutool."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen

from tests.faces.test_render import deck_with_layout
from generator.deck.layouts.fontfiles import is_cff

# Lobster (SIL OFL 1.1, licence beside it): a real OpenType font with PostScript (CFF) outlines
LOBSTER = Path(__file__).resolve().parents[1] / "fixtures" / "fonts" / "lobster.otf"


def boxes_otf(path: Path) -> Path:
    """A small CFF-flavoured OpenType font: every printable ASCII character a box."""
    names = [".notdef"] + [f"c{code}" for code in range(32, 127)]
    builder = FontBuilder(1000, isTTF=False)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({code: f"c{code}" for code in range(32, 127)})
    charstrings = {}
    for name in names:
        pen = T2CharStringPen(600, None)
        if name not in (".notdef", "c32"):
            pen.moveTo((50, 0))
            pen.lineTo((550, 0))
            pen.curveTo((560, 300), (560, 400), (550, 700))
            pen.lineTo((50, 700))
            pen.closePath()
        charstrings[name] = pen.getCharString()
    builder.setupCFF("DeckgenBoxes", {"FullName": "Deckgen Boxes"}, charstrings, {})
    builder.setupHorizontalMetrics({name: (600, 50) for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Deckgen Boxes", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    builder.save(str(path))
    return path


def fonts_of(pdf: Path) -> dict[str, pikepdf.Dictionary]:
    with pikepdf.open(pdf) as document:
        found = {}
        for obj in document.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font":
                descriptor = obj.get("/FontDescriptor")
                found[str(obj.BaseFont).split("+")[-1]] = sorted(k for k in (descriptor or {}).keys()
                                                                if k.startswith("/FontFile"))
        return found


@pytest.mark.parametrize("font", ["built", "lobster"])
def test_a_cff_opentype_font_is_drawn_and_embedded(run_cli, tmp_path, font):
    if font == "lobster":
        source = shutil.copy(LOBSTER, tmp_path / "display.otf")
    else:
        source = boxes_otf(tmp_path / "display.otf")
    assert is_cff(Path(source).read_bytes())
    element = ('name = "title"\ntype = "text"\nfield = "name"\nx = "5mm"\ny = "5mm"\nwidth = "50mm"\n'
               'height = "12mm"\nfamily = "Display"\nsize = [14, 8]')
    path = deck_with_layout(tmp_path, "display", element, extends=None)
    path.write_text(path.read_text() + '\n[[fonts]]\nfamily = "Display"\nregular = "display.otf"\n')
    assert run_cli("validate", path).exit_code == 0
    for options, name in (((), "tiny-print-a4.pdf"), (("--color", "cmyk", "--pdfx", "x4"), "tiny-print-a4-cmyk.pdf"),
                          (("--one-per-page",), "tiny-cards.pdf")):
        result = run_cli("print", path, "-o", tmp_path / "out", *options)
        assert result.exit_code == 0, result.stdout + result.stderr
        pdf = tmp_path / "out" / "tiny" / name
        fonts = fonts_of(pdf)
        display = [key for key in fonts if key.startswith("Deckgen-Boxes" if font == "built" else "Lobster")]
        assert display, fonts
        assert all(files == ["/FontFile2"] for files in fonts.values()), fonts  # every font embedded
        drawn = subprocess.run(["mutool", "draw", "-N", "-q", "-F", "txt", "-o", "-", str(pdf), "1"],
                               capture_output=True, text=True, timeout=120)
        assert drawn.returncode == 0 and not drawn.stderr.strip(), drawn.stderr
        assert "Card 1" in drawn.stdout  # the text is drawn, and stays text
