"""Gradients, outlines, shadows, glows, masks, tints, any rotation and icon rows: through the CLI,
rasterised and compared, in RGB images and in PDF/X-1a; and the gallery's PNGs against fresh ones."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pikepdf
import pypdfium2
import pytest
from PIL import Image, ImageChops, ImageStat

ROOT = Path(__file__).resolve().parents[2]
GALLERY = ROOT / "docs" / "layouts"
PAPER = (0xf5, 0xf1, 0xe6)
NEW = ("gradients", "effects", "soft", "masks", "rotation", "icons")


def deckgen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture()
def gallery(tmp_path: Path) -> Path:
    folder = tmp_path / "gallery"
    shutil.copytree(GALLERY, folder)
    return folder


def test_fresh_gallery_pngs_match_the_committed_ones(tmp_path):
    spec = importlib.util.spec_from_file_location("gallery", GALLERY / "gallery.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = {path.stem: path for path in module.render(out=tmp_path)}
    doc = (ROOT / "docs" / "layouts.md").read_text()
    for name in NEW:
        fresh, committed = Image.open(written[name]).convert("RGB"), Image.open(GALLERY / f"{name}.png").convert("RGB")
        assert fresh.size == committed.size
        difference = ImageStat.Stat(ImageChops.difference(fresh, committed)).mean
        assert max(difference) < 1.5, (name, difference)  # fonts' hinting may move a pixel, nothing more
        assert f"(layouts/{name}.png)" in doc


def test_gradients_and_icon_rows_in_card_images(gallery):
    for deck in ("gradients", "icons"):
        result = deckgen("images", f"{deck}.toml", "--decks-dir", ".", cwd=gallery)
        assert result.returncode == 0, result.stderr
    face = Image.open(gallery / "output/gallery-gradients/images/dt.png").convert("RGB")
    w, h = face.size
    centre, corner = face.getpixel((w // 2, int(h * 0.45))), face.getpixel((8, 8))
    assert centre[0] > 240 and centre[2] > 180 and corner[0] < 150  # radial: light centre, dark rim
    panel_top, panel_bottom = face.getpixel((int(w * 0.2), int(h * 0.6))), face.getpixel((int(w * 0.8), int(h * 0.9)))
    assert panel_top[2] > panel_bottom[2] + 40 or sum(panel_top) > sum(panel_bottom) + 100  # linear, 135deg
    row = Image.open(gallery / "output/gallery-icons/images/th.png").convert("RGB")
    band = row.crop((0, int(row.height * 0.24), row.width, int(row.height * 0.33)))
    inked = [x for x in range(band.width) if any(max(abs(a - b) for a, b in zip(band.getpixel((x, y)), PAPER)) > 60
                                                 for y in range(0, band.height, 2))]
    per_pt = row.width / ((63 + 6) / 25.4 * 72)
    icons = (inked[-1] - inked[0]) / (0.9 * 18 * per_pt)  # an inline icon is 0.9 em wide (a square icon)
    assert 3.6 < icons < 4.4, icons  # {icon:gem*props.cost} with cost = 4: four gems


def test_pdf_x1a_keeps_gradients_and_masks_in_cmyk(gallery):
    for deck in ("gradients", "masks"):
        result = deckgen("print", f"{deck}.toml", "--decks-dir", ".", "--one-per-page", "--color", "cmyk",
                         "--pdfx", "x1a", cwd=gallery)
        assert result.returncode == 0, result.stderr
    with pikepdf.open(gallery / "output/gallery-gradients/gallery-gradients-cards-cmyk.pdf") as pdf:
        shadings = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and "/ShadingType" in o]
        assert shadings and all(s.ColorSpace == "/DeviceCMYK" for s in shadings)
    path = gallery / "output/gallery-masks/gallery-masks-cards-cmyk.pdf"
    with pikepdf.open(path) as pdf:
        images = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert not any("/SMask" in image for image in images)
        assert any(image.get("/ImageMask") for image in images)  # the star mask, as a stencil
    page = pypdfium2.PdfDocument(str(path))[0].render(scale=2).to_pil().convert("RGB")
    # the star's box corner (outside the star) shows the paper; its centre the art
    star_corner = page.getpixel((int(page.width * 0.1), int(page.height * 0.52)))
    star_centre = page.getpixel((int(page.width * 0.28), int(page.height * 0.68)))
    assert min(star_corner) > 200 and min(star_centre) < 150


@pytest.mark.parametrize("field, value, says", [
    ("stroke", '"linear(#ff0000, #0000ff)"', "a gradient cannot be used for stroke"),
    ("fill", '"linear(#ff0000)"', "a gradient needs 2 to 16"),
    ("rotate", "400", "allowed: an angle from -360 to 360 degrees"),
    ("shadow_offset", "[1]", "is not [right, down]"),
    ("glow_blur", "-1", "-1 is out of range; allowed: 0 to 100 pt"),
    ("shadow_blur", '"2furlongs"', "'2furlongs' is not a length"),
    ("shadow_blur", "1e30", "out of range; allowed: 0 to 100 pt"),
])
def test_bad_drawing_values_name_file_line_and_field(gallery, field, value, says):
    deck = gallery / "effects.toml"
    original = deck.read_text()
    before = {"fill": 'fill = "#ffd23f"\n', "shadow_offset": "shadow_offset = [2.5, 2.5]\n"}.get(field, "")
    text = original.replace(before, "") if before else original
    text = text.replace('shape = "star"\n', f'shape = "star"\n{field} = {value}\n')
    deck.write_text(text)
    line = text.splitlines().index(f"{field} = {value}") + 1
    result = deckgen("validate", "effects.toml", "--decks-dir", ".", cwd=gallery)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    output = result.stdout + result.stderr
    assert f"effects.toml:{line}" in output and f".{field}" in output and says in output, output


def test_an_icon_row_count_that_is_not_a_number_is_an_error(gallery):
    deck = gallery / "icons.toml"
    deck.write_text(deck.read_text().replace("props = { cost = 4 }", 'props = { cost = "lots" }'))
    result = deckgen("validate", "icons.toml", "--decks-dir", ".", cwd=gallery)
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "'lots' is not a whole number from 0 to 50" in output, output


def test_contrast_reads_letters_against_their_glow_and_a_gradient_as_its_average(gallery):
    result = deckgen("validate", "effects.toml", "--decks-dir", ".", cwd=gallery)
    assert result.returncode == 0 and "contrast" not in result.stdout + result.stderr, result.stdout
    deck = gallery / "effects.toml"
    deck.write_text(deck.read_text().replace('glow = "#7cf2ff"\n', ""))
    said = deckgen("validate", "effects.toml", "--decks-dir", ".", cwd=gallery)
    # dark letters on the dark end of the gradient, with no glow around them
    assert "glowing of layout 'effects' is #1b1b1b on #1c2748" in said.stdout + said.stderr, said.stdout


def test_the_ink_saver_prints_gradients_flat_and_keeps_masks(gallery):
    for deck in ("gradients", "masks"):
        result = deckgen("print", f"{deck}.toml", "--decks-dir", ".", "--ink-saver", cwd=gallery)
        assert result.returncode == 0, result.stderr
    [gradients] = (gallery / "output/gallery-gradients").glob("*.pdf")
    with pikepdf.open(gradients) as pdf:
        assert not [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and "/ShadingType" in o]
    [masks] = (gallery / "output/gallery-masks").glob("*.pdf")
    page = pypdfium2.PdfDocument(str(masks))[0].render(scale=2).to_pil().convert("RGB")
    pixels = {page.getpixel((x, y)) for x in range(0, page.width, 7) for y in range(0, page.height, 7)}
    assert (255, 0, 255) not in pixels and not any(r > 200 and g < 80 and b > 200 for r, g, b in pixels)
