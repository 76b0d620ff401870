"""CMYK PDF/X files read back: each requirement of PDF/X-1a (and X-4) checked in the written file."""

from __future__ import annotations

import io

import pikepdf
import pypdf
import pypdfium2
import pytest
from PIL import Image, ImageChops, ImageCms, ImageStat
from pypdf.generic import ContentStream

from tests.conftest import DECKS
from tests.pdf_support import font_problems
from tests.faces.test_render import text_cards, write_deck
from generator.core.errors import OptionError
from generator.deck.loader import load_deck
from generator.printing import pdfx, sheets
from generator.printing.pdfx import ColorOptions
from generator.printing.sheets import SheetOptions

QV2 = DECKS / "quidditch-v2.toml"


def _streams(reader: pypdf.PdfReader):
    """(where, operations, resources) for every page and every form drawn on it."""
    seen = set()

    def visit(owner, resources, where):
        yield where, ContentStream(owner, reader).operations, resources
        for name, xobject in ((resources or {}).get("/XObject") or {}).items():
            obj = xobject.get_object()
            if obj["/Subtype"] == "/Form" and xobject.idnum not in seen:
                seen.add(xobject.idnum)
                yield from visit(obj, obj.get("/Resources"), f"{where} {name}")

    for number, page in enumerate(reader.pages):
        yield from visit(page.get_contents(), page.get("/Resources"), f"page {number + 1}")


def _images(reader: pypdf.PdfReader):
    for _where, _ops, resources in _streams(reader):
        for xobject in ((resources or {}).get("/XObject") or {}).values():
            obj = xobject.get_object()
            if obj["/Subtype"] == "/Image":
                yield obj


def check_pdfx(data: bytes, version: str, pdf_version: str, transparency_allowed: bool) -> pypdf.PdfReader:
    assert data.startswith(f"%PDF-{pdf_version}".encode())
    with pikepdf.open(io.BytesIO(data)) as document:
        assert document.check_pdf_syntax() == []  # qpdf's structural check: xref, streams, objects
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert not reader.is_encrypted
    info = reader.metadata
    assert info["/GTS_PDFXVersion"] == version
    assert info["/Trapped"] == "/False" and info["/Title"]
    assert "/ID" in reader.trailer
    (intent,) = reader.trailer["/Root"]["/OutputIntents"]
    intent = intent.get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"]
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4
    assert ImageCms.ImageCmsProfile(io.BytesIO(profile.get_data())).profile.xcolor_space.strip() == "CMYK"
    for page in reader.pages:
        media, bleed, trim = ([float(v) for v in page[key]] for key in ("/MediaBox", "/BleedBox", "/TrimBox"))
        assert media[0] <= bleed[0] <= trim[0] and media[1] <= bleed[1] <= trim[1]
        assert trim[2] <= bleed[2] <= media[2] and trim[3] <= bleed[3] <= media[3]
    assert font_problems(reader) == []
    for where, operations, resources in _streams(reader):
        operators = {op for _operands, op in operations}
        assert not operators & {b"rg", b"RG"}, where
        for _operands, op in operations:
            if op in (b"cs", b"CS"):
                assert _operands[0] != "/DeviceRGB", where
        if not transparency_allowed:
            for state in ((resources or {}).get("/ExtGState") or {}).values():
                state = state.get_object()
                assert float(state.get("/CA", 1)) == 1 and float(state.get("/ca", 1)) == 1, where
                assert state.get("/SMask", "/None") == "/None", where
    for image in _images(reader):
        assert image["/ColorSpace"] in ("/DeviceCMYK", "/DeviceGray")
        if not transparency_allowed:
            assert "/SMask" not in image
    return reader


def test_cmyk_one_per_page_is_pdf_x1a_2001():
    deck = load_deck(QV2)
    data = sheets.one_per_page(deck, bleed_mm=3.175, color=ColorOptions("cmyk"))
    reader = check_pdfx(data, "PDF/X-1:2001", "1.3", transparency_allowed=False)
    assert reader.metadata["/GTS_PDFXConformance"] == "PDF/X-1a:2001"
    assert len(reader.pages) == 2 * deck.total
    # Colours went through the profile: the back's colour is there as the profile's CMYK.
    transform = ImageCms.buildTransform(ImageCms.createProfile("sRGB"),
                                        ImageCms.getOpenProfile(str(pdfx.output_profile(None))), "RGB", "CMYK",
                                        renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                        flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
    red = tuple(int(deck.back.color[i:i + 2], 16) for i in (1, 3, 5))
    expected = ImageCms.applyTransform(Image.new("RGB", (1, 1), red), transform).getpixel((0, 0))
    fills = {tuple(round(float(v) * 255) for v in operands) for _where, operations, _res in _streams(reader)
             for operands, op in operations if op == b"k"}
    assert any(max(abs(a - b) for a, b in zip(fill, expected)) <= 1 for fill in fills), (expected, sorted(fills)[:5])


def test_cmyk_sheets_are_pdf_x4_with_xmp_and_boxes_on_every_page():
    deck = load_deck(QV2)
    data = sheets.print_sheets(deck, SheetOptions(color=ColorOptions("cmyk", "x4")))
    reader = check_pdfx(data, "PDF/X-4", "1.6", transparency_allowed=True)
    with pikepdf.open(io.BytesIO(data)) as document:
        meta = document.open_metadata()
        assert meta["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
        assert meta["xmpMM:DocumentID"].startswith("uuid:") and len(meta["xmpMM:DocumentID"]) == 41
        assert meta["xmpMM:VersionID"] == "1" and meta["xmpMM:RenditionClass"] == "default"
        # The XMP says what the Info dictionary says (ISO 15930-7 asks that the two agree).
        info = document.docinfo
        assert meta["dc:title"] == str(info.Title) and meta["dc:creator"] == [str(info.Author)]
        assert meta["xmp:CreatorTool"] == str(info.Creator) and meta["pdf:Producer"] == str(info.Producer)
        assert meta["xmp:CreateDate"] == meta["xmp:ModifyDate"] == meta["xmp:MetadataDate"] \
            == "2000-01-01T00:00:00+00:00" and str(info.CreationDate).startswith("D:20000101000000")
        assert meta["pdf:Trapped"] == "False" and info.Trapped == "/False"
    assert data == sheets.print_sheets(deck, SheetOptions(color=ColorOptions("cmyk", "x4")))  # deterministic
    assert reader.pages[0]["/TrimBox"] == reader.pages[0]["/MediaBox"]


def test_cmyk_pages_look_like_the_rgb_pages():
    deck = load_deck(QV2)
    rgb = sheets.one_per_page(deck, bleed_mm=3)
    cmyk = sheets.one_per_page(deck, bleed_mm=3, color=ColorOptions("cmyk"))
    for number in (0, 1):
        images = []
        for data in (rgb, cmyk):
            pdf = pypdfium2.PdfDocument(data)
            images.append(pdf[number].render(scale=50 / 72).to_pil().convert("RGB"))
            pdf.close()
        difference = ImageStat.Stat(ImageChops.difference(*images)).mean
        assert max(difference) < 25, difference  # the same card, in the printer's gamut


def _art_deck(tmp_path, mode):
    # Large enough to print at 300 ppi in the text card's art box.
    (tmp_path / "art").mkdir()
    image = Image.new(mode, (800, 600), (200, 80, 20, 120) if mode == "RGBA" else (200, 80, 20))
    image.save(tmp_path / "art" / "art.png")
    return load_deck(write_deck(tmp_path, text_cards(2, art="art/art.png")))


def test_rgb_art_becomes_cmyk(tmp_path):
    deck = _art_deck(tmp_path, "RGB")
    data = sheets.one_per_page(deck, color=ColorOptions("cmyk"))
    reader = check_pdfx(data, "PDF/X-1:2001", "1.3", transparency_allowed=False)
    assert {image["/ColorSpace"] for image in _images(reader)} == {"/DeviceCMYK"}


def test_transparent_art_is_flattened_for_x1a_and_kept_for_x4(tmp_path):
    deck = _art_deck(tmp_path, "RGBA")
    flat = check_pdfx(sheets.one_per_page(deck, color=ColorOptions("cmyk", "x1a")), "PDF/X-1:2001", "1.3",
                      transparency_allowed=False)
    assert _images(flat) and not any("/SMask" in image for image in _images(flat))
    data = sheets.one_per_page(deck, color=ColorOptions("cmyk", "x4"))
    reader = check_pdfx(data, "PDF/X-4", "1.6", transparency_allowed=True)
    assert any("/SMask" in image for image in _images(reader))


def test_print_cli_writes_cmyk_and_explains_bad_colour_options(run_cli, tmp_path, monkeypatch):
    result = run_cli("print", QV2, "-o", tmp_path, "--one-per-page", "--color", "cmyk", "--json")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "quidditch-v2" / "quidditch-v2-cards-cmyk.pdf").exists()
    for args, needle in ((["--color", "hsv"], "--color 'hsv'"), (["--color", "cmyk", "--pdfx", "x9"], "--pdfx 'x9'"),
                         (["--color", "cmyk", "--icc-profile", str(QV2)], "--icc-profile")):
        bad = run_cli("print", QV2, "-o", tmp_path / "bad", *args)
        assert bad.exit_code == 2 and needle in bad.stderr, bad.stderr
    monkeypatch.setattr(pdfx, "SYSTEM_PROFILES", ())
    missing = run_cli("print", QV2, "-o", tmp_path / "bad", "--color", "cmyk")
    assert missing.exit_code == 2 and "libgs-common" in missing.stderr and "--icc-profile" in missing.stderr
    assert not (tmp_path / "bad").exists()
