"""`deckgen print --ink-saver`: flat fills printed as outlines, art as a light grey wash, text kept;
read back from the PDF (every image's pixels) and rasterised (the ink on the page)."""

from __future__ import annotations

import pikepdf
import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageStat
from pikepdf import PdfImage

from tests.designer.tidepool import make


def _ink(path) -> float:
    """Mean darkness (0 white .. 1 black) over every page."""
    document = pdfium.PdfDocument(path)
    values = [1 - ImageStat.Stat(document[i].render(scale=0.5).to_pil().convert("L")).mean[0] / 255
              for i in range(len(document))]
    return sum(values) / len(values)


def _images(path):
    with pikepdf.open(path) as pdf:
        seen = set()
        for page in pdf.pages:
            for form in page.Resources.get("/XObject", {}).values():
                for image in form.get("/Resources", {}).get("/XObject", {}).values():
                    if image.get("/Subtype") == "/Image" and image.objgen not in seen:
                        seen.add(image.objgen)
                        yield PdfImage(image).as_pil_image()


def test_ink_saver_prints_outlines_and_grey_art(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    out = tmp_path / "out"
    assert run_cli("print", deck, "-o", out).exit_code == 0
    result = run_cli("print", deck, "--ink-saver", "-o", out)
    assert result.exit_code == 0, result.stdout + result.stderr
    normal, saver = out / "tidepool" / "tidepool-print-a4.pdf", out / "tidepool" / "tidepool-print-a4-ink-saver.pdf"
    assert str(saver) in result.stdout
    assert _ink(saver) < 0.4 * _ink(normal)
    colour_images = [image for image in _images(normal) if image.mode == "RGB"]
    assert colour_images  # the art is there in colour without the option
    grey = list(_images(saver))
    assert grey
    for image in grey:
        red, green, blue = image.convert("RGB").split()
        assert ImageChops.difference(red, green).getbbox() is None and ImageChops.difference(red, blue).getbbox() is None
        assert ImageStat.Stat(red).extrema[0][0] >= 255 - 0.4 * 255 - 1  # a light wash: 40 % of the darkness
    text = pdfium.PdfDocument(saver)[0].get_textpage().get_text_range()
    assert "Conch" in text and "Worth" in text
    # The text layout's frame (High Tide, a fill in the kind's colour) is an outline: inside it, paper.
    page = pdfium.PdfDocument(saver)[0].render(scale=2).to_pil().convert("RGB")
    tide = (0x2e, 0x7d, 0x4f)
    away = ImageChops.difference(page, Image.new("RGB", page.size, tide)).convert("L")
    assert away.histogram()[0] < 0.002 * page.width * page.height  # pixels of exactly the frame's colour


def test_ink_saver_is_for_sheets_only(tmp_path, run_cli):
    deck = make(tmp_path / "tidepool")
    said = run_cli("print", deck, "--ink-saver", "--one-per-page", "-o", tmp_path / "out")
    assert said.exit_code == 2 and "--ink-saver" in said.stdout + said.stderr
    said = run_cli("print", deck, "--ink-saver", "--service", "tgc", "-o", tmp_path / "out")
    assert said.exit_code == 2 and "--ink-saver" in said.stdout + said.stderr
