"""Every PDF deckgen writes for a designer's deck opens cleanly in three renderers and embeds its fonts.

The deck is the designer example (own fonts, translucent panels, full-bleed art) with SVG art
and an SVG icon that draw linear and radial gradients and SVG text. `deckgen build` and the
`deckgen print` variants write their PDFs; each is drawn by mupdf (`mutool draw`), Ghostscript
and pdfium, and any warning fails the test: an undefined graphics state (`gRLs1`) or shading
(`Sh0`) is one. Every font in every file must be embedded; the PDF/X files hold no RGB, their
gradients included; and the gradients are drawn as gradients, not black boxes.

mutool and gs come from Debian's mupdf-tools and ghostscript (.ci/install-pdftools.sh).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pikepdf
import pypdfium2
import pytest
from PIL import Image

from generator.printing.pdfx import rgb_left

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def deckgen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def tool(name: str) -> str:
    """The program's path; without it the test is skipped here and fails in CI (`CI=true`), like
    the browser and TinyMUX tests."""
    found = shutil.which(name)
    if not found:
        reason = f"{name} is missing: run .ci/install-pdftools.sh (Debian's mupdf-tools and ghostscript)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must open every PDF with a second renderer")
        pytest.skip(reason)
    return found


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("every-pdf")
    decks = work / "decks"
    shutil.copytree(ROOT / "examples" / "designer", decks)
    shutil.copy(FIXTURES / "gradient-art.svg", decks / "art" / "cauldron.svg")
    shutil.copy(FIXTURES / "gradient-icon.svg", decks / "icons" / "leaf.svg")
    out = work / "out"
    deck = str(decks / "cauldron-club.toml")
    deckgen("build", "--decks-dir", str(decks), "-o", str(out), cwd=work)
    deckgen("print", deck, "-o", str(out), "--color", "cmyk", "--pdfx", "x4", cwd=work)
    deckgen("print", deck, "-o", str(out / "x1a"), "--color", "cmyk", cwd=work)  # transparency flattened
    deckgen("print", deck, "-o", str(out), "--one-per-page", cwd=work)
    deckgen("print", deck, "-o", str(out), "--registration", "silhouette", "--paper", "letter", cwd=work)
    deckgen("print", deck, "-o", str(out), "--service", "dtc", "--pdfx", "x4", cwd=work)
    deckgen("images", deck, "-o", str(out), "--dpi", "150", cwd=work)
    return out


def pdfs(out: Path) -> list[Path]:
    found = sorted(out.rglob("*.pdf"))
    names = {path.name for path in found}
    assert len([path for path in found if path.name == "cauldron-club-print-a4-cmyk.pdf"]) == 2  # X-4 and X-1a
    assert {"cauldron-club-rules.pdf", "cauldron-club-print-a4.pdf", "cauldron-club-print-a4-cmyk.pdf",
            "cauldron-club-cards.pdf", "cauldron-club-print-letter-silhouette.pdf",
            "cauldron-club-dtc.pdf"} <= names, names
    return found


def test_mupdf_and_ghostscript_draw_every_pdf_without_a_warning(outputs, tmp_path):
    for path in pdfs(outputs):
        mupdf = subprocess.run([tool("mutool"), "draw", "-N", "-q", "-r", "20", "-o", str(tmp_path / "page%d.png"),
                                str(path)], capture_output=True, text=True, timeout=300)
        assert mupdf.returncode == 0 and not mupdf.stderr.strip() and not mupdf.stdout.strip(), (
            f"mutool on {path.name}: {mupdf.stderr}{mupdf.stdout}")
        ghostscript = subprocess.run([tool("gs"), "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=nullpage", str(path)],
                                     capture_output=True, text=True, timeout=300)
        assert ghostscript.returncode == 0 and not (ghostscript.stderr + ghostscript.stdout).strip(), (
            f"Ghostscript on {path.name}: {ghostscript.stderr}{ghostscript.stdout}")


def test_pdfium_draws_every_page(outputs):
    for path in pdfs(outputs):
        document = pypdfium2.PdfDocument(str(path))
        try:
            assert len(document) > 0
            for page in document:
                bitmap = page.render(scale=0.2).to_pil()
                assert bitmap.getbbox() is not None, f"{path.name}: an empty page"
        finally:
            document.close()


def test_qpdf_finds_nothing_wrong_in_any_pdf(outputs):
    for path in pdfs(outputs):
        with pikepdf.open(path) as document:
            assert document.check_pdf_syntax() == [], path.name


def test_every_resource_a_stream_names_is_defined(outputs):
    """Each `/Name gs` and `/Name sh` in every page and form names an entry of its own resources."""
    for path in pdfs(outputs):
        with pikepdf.open(path) as document:
            seen: set = set()

            def check(owner, resources, where):
                for operands, operator in pikepdf.parse_content_stream(owner, "gs sh"):
                    kind = "/ExtGState" if str(operator) == "gs" else "/Shading"
                    assert str(operands[0]) in (resources.get(kind) or {}), f"{path.name}, {where}: {operands[0]}"
                for name, xobject in (resources.get("/XObject") or {}).items():
                    if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                        seen.add(xobject.objgen)
                        check(xobject, xobject.get("/Resources") or {}, f"{where} {name}")

            for number, page in enumerate(document.pages, start=1):
                check(page, page.obj.get("/Resources") or {}, f"page {number}")


def test_every_font_in_every_pdf_is_embedded(outputs):
    for path in pdfs(outputs):
        with pikepdf.open(path) as document:
            fonts = [obj for obj in document.objects
                     if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font"]
            assert fonts, path.name
            for font in fonts:
                described = font.DescendantFonts[0] if "/DescendantFonts" in font else font
                descriptor = described.get("/FontDescriptor")
                assert descriptor is not None and any(key in descriptor for key in (
                    "/FontFile", "/FontFile2", "/FontFile3")), f"{path.name}: {font.get('/BaseFont')} not embedded"


def test_pdfx_files_hold_cmyk_gradients_and_no_rgb(outputs):
    for path in [*outputs.rglob("cauldron-club-print-a4-cmyk.pdf"), next(outputs.rglob("cauldron-club-dtc.pdf"))]:
        with pikepdf.open(path) as document:
            assert rgb_left(document) == []
            shadings = [obj for obj in document.objects
                        if isinstance(obj, pikepdf.Dictionary) and "/ShadingType" in obj]
            assert {int(s.ShadingType) for s in shadings} == {2, 3}  # axial and radial
            assert all(s.ColorSpace == pikepdf.Name.DeviceCMYK for s in shadings)


def test_gradients_are_drawn_not_black_boxes(outputs):
    """The Grand Elixir's art: a sky that runs from cream at the top to tan lower down (linear) and
    a brew lightest at its middle (radial), in its picture and in DTC's CMYK PDF/X page."""
    picture = Image.open(next(outputs.rglob("images/ge.png"))).convert("RGB")
    document = pypdfium2.PdfDocument(str(next(outputs.rglob("cauldron-club-dtc.pdf"))))
    try:
        face = document[len(document) - 1].render(scale=2).to_pil().convert("RGB")  # DTC: back, then face
    finally:
        document.close()
    for image in (picture, face):
        def at(x: float, y: float) -> tuple[int, int, int]:
            return image.getpixel((round(image.width * x), round(image.height * y)))

        sky_top, sky_low, brew = at(0.25, 0.17), at(0.25, 0.45), at(0.5, 0.275)
        assert sum(sky_top) > 600 and 400 < sum(sky_low) < sum(sky_top) - 80, (sky_top, sky_low)
        assert brew[1] > 200 and brew[1] > brew[0] + 20, brew  # light green, not black
