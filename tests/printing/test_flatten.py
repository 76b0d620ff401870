"""PDF/X-1a allows no transparency: `deckgen print --color cmyk` (X-1a) flattens the designer
example's translucent panels and transparent icons, and see-through text, into pictures of what
they show, keeps the text on them as text, and looks like the PDF/X-4 file that keeps the
transparency: pages composited for a CMYK press by Ghostscript are compared, since a RIP blends
the X-4 file's transparency in CMYK and the flattener composites in CMYK as well."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pikepdf
import pypdfium2
import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from tests.conftest import ROOT
from tests.faces.test_render import deck_with_layout
from tests.printing.test_every_pdf_renders import tool
from tests.printing.test_pdfx import check_pdfx

DESIGNER = ROOT / "examples" / "designer" / "cauldron-club.toml"


def _render(path, page: int = 0):
    document = pypdfium2.PdfDocument(str(path))
    try:
        return document[page].render(scale=150 / 72).to_pil().convert("RGB")
    finally:
        document.close()


def _separations(path, page: int = 0):
    """The page as Ghostscript composites it for a CMYK press (tiff32nc, 150 dpi): a see-through
    drawing in the PDF/X-4 file blended in CMYK, as a RIP blends it."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "page.tif"
        subprocess.run([tool("gs"), "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=tiff32nc", "-r150",
                        f"-dFirstPage={page + 1}", f"-dLastPage={page + 1}", f"-sOutputFile={out}", str(path)],
                       check=True, capture_output=True, timeout=300)
        with Image.open(out) as image:
            return image.copy()


def assert_prints_alike(flat, kept, page: int = 0, mean: float = 2.0) -> None:
    """The flattened page prints as the X-4 page: each ink's mean difference under `mean` (of 255),
    and strong differences (over 48) only along edges, one pixel wide (anti-aliasing), so none
    survive an erosion."""
    difference = ImageChops.difference(_separations(flat, page), _separations(kept, page))
    assert max(ImageStat.Stat(difference).mean) < mean, ImageStat.Stat(difference).mean
    for ink in difference.split():
        strong = ink.point(lambda v: 255 if v > 48 else 0).filter(ImageFilter.MinFilter(3))
        assert strong.getbbox() is None, strong.getbbox()


def _see_through(document) -> list[str]:
    """Every graphics state with an opacity under 1 and every image with a soft mask, in every page
    and form."""
    found, seen = [], set()

    def walk(resources, where):
        for name, state in ((resources or {}).get("/ExtGState") or {}).items():
            if float(state.get("/ca", 1)) < 1 or float(state.get("/CA", 1)) < 1:
                found.append(f"{where} {name}: opacity")
        for name, xobject in ((resources or {}).get("/XObject") or {}).items():
            if xobject.objgen in seen:
                continue
            seen.add(xobject.objgen)
            if "/SMask" in xobject:
                found.append(f"{where} {name}: soft mask")
            if xobject.get("/Subtype") == "/Form":
                walk(xobject.get("/Resources"), f"{where} {name}")

    for number, page in enumerate(document.pages, start=1):
        walk(page.obj.get("/Resources"), f"page {number}")
    return found


def test_translucent_panels_are_flattened_for_pdf_x1a_and_look_as_in_x4(run_cli, tmp_path):
    for standard in ("x1a", "x4"):
        result = run_cli("print", DESIGNER, "-o", tmp_path / standard, "--color", "cmyk", "--pdfx", standard)
        assert result.exit_code == 0, result.stderr
    flat = tmp_path / "x1a" / "cauldron-club" / "cauldron-club-print-a4-cmyk.pdf"
    kept = tmp_path / "x4" / "cauldron-club" / "cauldron-club-print-a4-cmyk.pdf"
    with pikepdf.open(flat) as document:
        assert document.pdf_version == "1.3"
        assert _see_through(document) == []
    with pikepdf.open(kept) as document:  # the X-4 file is the same drawing with its transparency
        found = _see_through(document)
        assert any("opacity" in what for what in found) and any("soft mask" in what for what in found), found
    for page in range(2):
        assert_prints_alike(flat, kept, page)
    # The names and rules on the panels are still text, drawn over the flattened pictures.
    text = subprocess.run(["mutool", "draw", "-N", "-q", "-F", "txt", "-o", "-", str(flat), "1"],
                          capture_output=True, text=True, timeout=120).stdout
    assert "Moonpetal" in text and "when brewing" in text


FAINT = ('name = "ghost"\ntype = "text"\ntext = "FAINT WORDS"\nx = "5mm"\ny = "30mm"\nwidth = "50mm"\n'
         'height = "14mm"\nfamily = "sans"\nweight = "bold"\nsize = [20, 8]\ncolor = "#aa0000"\nopacity = 0.5')


GRADIENT_PANEL = ('name = "ghost"\ntype = "shape"\nx = "5mm"\ny = "30mm"\nwidth = "50mm"\nheight = "14mm"\n'
                  'fill = "linear(90deg, #aa0000, #2040c0)"\nopacity = 0.5')
GRADIENT_TEXT = FAINT.replace('color = "#aa0000"', 'color = "linear(90deg, #aa0000, #aa4400)"')


@pytest.mark.parametrize("element", [FAINT, GRADIENT_TEXT, GRADIENT_PANEL], ids=["text", "gradient-text", "gradient"])
def test_see_through_text_and_gradients_are_flattened_for_pdf_x1a_and_look_as_in_x4(run_cli, tmp_path, element):
    """A text element (plain or in a gradient) or a gradient panel with opacity 0.5: X-1a draws it
    as a picture of what the card shows there, with nothing see-through left; it looks as the X-4
    file does."""
    path = deck_with_layout(tmp_path, "ghosted", element)
    for standard in ("x1a", "x4"):
        result = run_cli("print", path, "-o", tmp_path / standard, "--color", "cmyk", "--pdfx", standard)
        assert result.exit_code == 0, result.stdout + result.stderr
    flat = tmp_path / "x1a" / "tiny" / "tiny-print-a4-cmyk.pdf"
    kept = tmp_path / "x4" / "tiny" / "tiny-print-a4-cmyk.pdf"
    check_pdfx(flat.read_bytes(), "PDF/X-1:2001", "1.3", transparency_allowed=False)
    with pikepdf.open(flat) as document:
        assert _see_through(document) == []
    with pikepdf.open(kept) as document:
        assert any("opacity" in what for what in _see_through(document))
    assert_prints_alike(flat, kept, mean=0.5)
    flat_face = _render(flat)
    # The faint drawing shows: against the same page drawn without the element, its region differs.
    (tmp_path / "plain").mkdir()
    plain = deck_with_layout(tmp_path / "plain", "ghosted", FAINT.replace("FAINT WORDS", ""))  # draws nothing
    assert run_cli("print", plain, "-o", tmp_path / "plain", "--color", "cmyk", "--pdfx", "x1a").exit_code == 0
    without = _render(tmp_path / "plain" / "tiny" / "tiny-print-a4-cmyk.pdf")
    drawn = ImageChops.difference(flat_face, without).convert("L").point(lambda v: 255 if v > 40 else 0)
    box = drawn.getbbox()
    assert box is not None and box[2] - box[0] > 150, box  # about 50 mm wide at 150 ppi: hundreds of pixels
    reddish = flat_face.crop(box).convert("RGB")
    red, green, _blue = (channel for channel in ImageStat.Stat(reddish).mean)
    assert red > green + 10  # half-strength red on white: pink, neither solid red nor white
    if element is GRADIENT_PANEL:
        return
    # Still text (invisible, under its picture): it can be searched and copied.
    document = pypdfium2.PdfDocument(str(flat))
    try:
        assert "FAINT WORDS" in document[0].get_textpage().get_text_range()
    finally:
        document.close()


def test_see_through_text_goes_to_drivethrucards_flattened(run_cli, tmp_path):
    path = deck_with_layout(tmp_path, "ghosted", FAINT)
    result = run_cli("print", path, "-o", tmp_path / "dtc", "--service", "dtc")
    assert result.exit_code == 0, result.stdout + result.stderr  # DTC's default, PDF/X-1a:2003
    pdf = tmp_path / "dtc" / "tiny" / "dtc" / "tiny-dtc.pdf"
    check_pdfx(pdf.read_bytes(), "PDF/X-1a:2003", "1.4", transparency_allowed=False)
    with pikepdf.open(pdf) as document:
        assert _see_through(document) == []
    kept = run_cli("print", path, "-o", tmp_path / "x4", "--service", "dtc", "--pdfx", "x4")
    assert kept.exit_code == 0, kept.stderr
    face = 1  # DTC's pages run back, then face
    assert_prints_alike(pdf, tmp_path / "x4" / "tiny" / "dtc" / "tiny-dtc.pdf", face, mean=0.5)
