"""PDF/X-1a allows no transparency: `deckgen print --color cmyk` (X-1a) flattens the designer
example's translucent panels and transparent icons into pictures of what they show, keeps the
text on them as text, and looks like the PDF/X-4 file that keeps the transparency."""

from __future__ import annotations

import subprocess

import pikepdf
import pypdfium2
from PIL import ImageChops, ImageFilter, ImageStat

from tests.conftest import ROOT

DESIGNER = ROOT / "examples" / "designer" / "cauldron-club.toml"


def _render(path, page: int = 0):
    document = pypdfium2.PdfDocument(str(path))
    try:
        return document[page].render(scale=150 / 72).to_pil().convert("RGB")
    finally:
        document.close()


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
        difference = ImageChops.difference(_render(flat, page), _render(kept, page))
        assert max(ImageStat.Stat(difference).mean) < 2.0  # the same page to the eye, mean of 0-255
        # strong differences only along edges, one pixel wide (anti-aliasing): none survive an erosion
        strong = difference.convert("L").point(lambda v: 255 if v > 48 else 0).filter(ImageFilter.MinFilter(3))
        assert strong.getbbox() is None
    # The names and rules on the panels are still text, drawn over the flattened pictures.
    text = subprocess.run(["mutool", "draw", "-N", "-q", "-F", "txt", "-o", "-", str(flat), "1"],
                          capture_output=True, text=True, timeout=120).stdout
    assert "Moonpetal" in text and "when brewing" in text
