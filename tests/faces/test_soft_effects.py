"""Soft shadows and glows (`shadow_blur`, `glow_blur`) through the CLI: in card images the halo
fades out across the blur width in many small steps, blur 0 draws today's hard edge byte for
byte, and PDF/X-1a flattens the see-through copies into what PDF/X-4 shows."""

from __future__ import annotations

import shutil
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageChops, ImageFilter, ImageStat

from tests.faces.test_drawing_tools import GALLERY, deckgen
from tests.printing.test_flatten import _see_through, _separations
from tests.printing.test_pdfx import check_pdfx

DPI = 300  # `deckgen images`' default
FACE = "output/gallery-soft/images/sc.png"
GLOW, TEXT_INK = (0x7c, 0xf2, 0xff), (0x1b, 0x1b, 0x1b)
GLOW_BLUR_PX = 2.5 / 25.4 * DPI  # glow_blur = "2.5mm"
SHADOW_BLUR_PX = 3 / 25.4 * DPI  # shadow_blur = "3mm"


@pytest.fixture()
def soft(tmp_path: Path) -> Path:
    folder = tmp_path / "gallery"
    shutil.copytree(GALLERY, folder)
    return folder


def _face(folder: Path, toml: str = "soft.toml") -> Image.Image:
    result = deckgen("images", toml, "--decks-dir", ".", cwd=folder)
    assert result.returncode == 0, result.stderr
    return Image.open(folder / FACE).convert("RGB")


def _without(folder: Path, *fields: str) -> str:
    """soft.toml without the lines that set `fields`, as another deck file next to it."""
    lines = (folder / "soft.toml").read_text().splitlines()
    kept = [line for line in lines if line.split(" = ")[0] not in fields]
    (folder / "plain.toml").write_text("\n".join(kept) + "\n")
    return "plain.toml"


def _near(image, xy: tuple[int, int], colour, within: int) -> bool:
    return max(abs(a - b) for a, b in zip(image.getpixel(xy), colour)) < within


def _cover(pixel, background, colour) -> float:
    """How much of `colour` lies over `background` in `pixel` (0 none, 1 all), channel by channel."""
    spans = [(p - b, c - b) for p, b, c in zip(pixel, background, colour) if abs(c - b) > 40]
    return sum(moved / span for moved, span in spans) / len(spans)


def _profile(face, bare, row: int, start: int, step: int, colour, length: int) -> list[float]:
    """The cover of `colour` from `start` outwards along `row`, against the card drawn without the effect."""
    return [_cover(face.getpixel((x, row)), bare.getpixel((x, row)), colour)
            for x in range(start, start + step * length, step)]


def _assert_fades(cover: list[float], blur_px: float) -> None:
    """Full near the edge, nothing far out, never rising outwards, many levels between, and the
    fall from 90 % to 10 % spread over a good part of the blur width (one pixel when hard)."""
    assert cover[0] > 0.9 and cover[-1] < 0.05, cover
    assert all(later <= earlier + 0.02 for earlier, later in zip(cover, cover[1:])), cover
    between = [value for value in cover if 0.1 < value < 0.9]
    assert len({round(value, 2) for value in between}) >= 8, cover
    assert 0.4 * blur_px < len(between) < 1.1 * blur_px, (len(between), blur_px)


def test_a_soft_glow_around_letters_fades_across_its_blur_width(soft):
    face = _face(soft)
    bare = _face(soft, _without(soft, "glow", "glow_width", "glow_blur"))
    # the letters' middle row: the "G"'s left side, its ink at the leftmost dark pixel
    letters = [(x, y) for y in range(int(face.height * 0.5), int(face.height * 0.7))
               for x in range(0, face.width, 2) if _near(bare, (x, y), TEXT_INK, 30)]
    top, bottom = min(y for _, y in letters), max(y for _, y in letters)
    row = (top + bottom) // 2
    edge = min(x for x in range(face.width) if _near(bare, (x, row), TEXT_INK, 60))
    cover = _profile(face, bare, row, edge - 4, -1, GLOW, int(2 * GLOW_BLUR_PX))
    _assert_fades(cover, GLOW_BLUR_PX)
    hard = soft / "hard.toml"
    hard.write_text((soft / "soft.toml").read_text().replace('glow_blur = "2.5mm"', "glow_blur = 0"))
    hard_face = _face(soft, "hard.toml")
    hard_cover = _profile(hard_face, bare, row, edge - 1, -1, GLOW, int(2 * GLOW_BLUR_PX))
    assert len([value for value in hard_cover if 0.1 < value < 0.9]) <= 2, hard_cover


def test_a_soft_shadow_under_a_shape_fades_across_its_blur_width(soft):
    face = _face(soft)
    bare = _face(soft, _without(soft, "shadow", "shadow_offset", "shadow_blur"))
    paper = (0xf5, 0xf1, 0xe6)  # the rounded panel that casts the shadow
    row = int(face.height * 0.24)
    right = max(x for x in range(face.width) if _near(bare, (x, row), paper, 8))
    offset_px = 4 / 72 * DPI  # shadow_offset = [4, 4] pt: solid shadow just beyond the panel's edge
    cover = _profile(face, bare, row, right + int(offset_px / 2), 1, (0, 0, 0), int(2 * SHADOW_BLUR_PX))
    _assert_fades(cover, SHADOW_BLUR_PX)


def test_blur_0_draws_the_hard_edge_byte_for_byte(soft):
    deck = soft / "soft.toml"
    text = deck.read_text()
    for line in ('glow_blur = "2.5mm"', 'shadow_blur = "3mm"', "glow_blur = 6", "shadow_blur = 4"):
        assert line in text
        text = text.replace(line, line.split(" = ")[0] + " = 0")
    (soft / "zero.toml").write_text(text)
    zero = _face(soft, "zero.toml").tobytes(), (soft / FACE).read_bytes()
    (soft / "soft.toml").write_text(text)  # the same deck with the blur lines left out
    _without(soft, "glow_blur", "shadow_blur")
    missing = _face(soft, "plain.toml").tobytes(), (soft / FACE).read_bytes()
    assert zero[1] == missing[1] and zero[0] == missing[0]


@pytest.mark.parametrize("service", [None, "dtc"])
def test_pdf_x1a_flattens_soft_effects_and_prints_as_x4(soft, service):
    """Every see-through copy becomes a picture of what the card shows there; Ghostscript's CMYK
    separations of the X-1a page match those of the X-4 page that keeps them see-through."""
    target = ["--service", "dtc"] if service else ["--one-per-page", "--color", "cmyk"]
    for standard in ("x1a", "x4"):  # DTC's default is PDF/X-1a:2003
        pdfx = [] if service and standard == "x1a" else ["--pdfx", standard]
        result = deckgen("print", "soft.toml", "--decks-dir", ".", *target, *pdfx, "-o", standard, cwd=soft)
        assert result.returncode == 0, result.stderr
    [flat], [kept] = ((soft / standard / "gallery-soft").rglob("*.pdf") for standard in ("x1a", "x4"))
    check_pdfx(flat.read_bytes(), "PDF/X-1a:2003" if service else "PDF/X-1:2001", "1.4" if service else "1.3",
               transparency_allowed=False)
    with pikepdf.open(flat) as document:
        assert _see_through(document) == []
        # one picture for each soft shadow or glow (its twelve copies together), not one per copy
        pictures = [name for page in document.pages for form in page.Resources.XObject.values()
                    for name in (form.get("/Resources", {}).get("/XObject") or {}) if name.startswith("/Flat")]
        assert len(pictures) == 4, pictures
    with pikepdf.open(kept) as document:
        assert any("opacity" in what for what in _see_through(document))
    page = 1 if service else 0  # DTC's pages run back, then face
    inks = ImageChops.difference(_separations(flat, page), _separations(kept, page))
    assert max(ImageStat.Stat(inks).mean) < 1.5, ImageStat.Stat(inks).mean
    # Strong differences (over 48 of 255) only along edges, one pixel wide, but for a few pixels
    # (at most 1 in 10,000): Ghostscript draws the X-4 file's stroked copies without anti-aliasing
    # at 150 dpi, the X-1a pictures are anti-aliased at 600 ppi, so a fading edge's steps fall on
    # slightly different pixels.
    for ink in inks.split():
        strong = ink.point(lambda value: 255 if value > 48 else 0).filter(ImageFilter.MinFilter(3))
        assert strong.histogram()[255] <= ink.width * ink.height / 10_000, strong.getbbox()
