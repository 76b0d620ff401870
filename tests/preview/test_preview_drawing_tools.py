"""The live preview in Chromium draws gradients, masks and soft shadows and glows as `deckgen
images` does, and a saved mask file redraws the card that uses it."""

from __future__ import annotations

import io
import shutil
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from PIL import Image, ImageDraw

from generator.deck.loader import load_deck
from generator.faces.images import card_pngs
from generator.preview.app import start_preview

ROOT = Path(__file__).resolve().parents[2]
DPI = 60
LOADED = ("document.querySelectorAll('.tile img').length > 0 && "
          "[...document.querySelectorAll('.tile img')].every(img => img.complete && img.naturalWidth > 0)")


def _shown(page, key: str) -> bytes:
    src = page.eval_on_selector(f'[data-key="{key}"] img', "img => img.src")
    return urllib.request.urlopen(src).read()


@contextmanager
def _previewing(page, tmp_path: Path, deck_name: str):
    """The preview of a copy of the gallery deck `deck_name`, loaded in the page: its file."""
    folder = tmp_path / "gallery"
    shutil.copytree(ROOT / "docs" / "layouts", folder)
    deck_file = folder / deck_name
    running = start_preview(deck_file, output_dir=tmp_path / "out", dpi=DPI)
    try:
        page.goto(running.url)
        page.wait_for_function(LOADED)
        yield deck_file
    finally:
        running.stop()


def test_preview_shows_masks_and_redraws_when_the_mask_is_saved(page, tmp_path):
    with _previewing(page, tmp_path, "masks.toml") as deck_file:
        folder = deck_file.parent
        deck = load_deck(deck_file)
        assert _shown(page, "face:mf") == card_pngs(deck, [deck.card("MF")], DPI)[0]
        before = page.eval_on_selector('[data-key="face:mf"] img', "img => img.dataset.loaded")

        # A new mask: a disc instead of the star. The star's tips outside the disc disappear.
        disc = Image.new("RGBA", (400, 400), (0, 0, 0, 0))
        ImageDraw.Draw(disc).ellipse((100, 100, 300, 300), fill=(0, 0, 0, 255))
        disc.save(folder / "art" / "star-mask.png")
        page.wait_for_function(f"""document.querySelector('[data-key="face:mf"] img').dataset.loaded
                                   && document.querySelector('[data-key="face:mf"] img').dataset.loaded
                                      !== '{before}'""", timeout=20000)
        deck = load_deck(deck_file)
        shown = _shown(page, "face:mf")
        assert shown == card_pngs(deck, [deck.card("MF")], DPI)[0]
        picture = Image.open(io.BytesIO(shown)).convert("RGB")
        # the top tip of the star (inside the box, outside the disc) is paper now
        tip = picture.getpixel((round(picture.width * 0.28), round(picture.height * 0.56)))
        assert min(tip) > 200, tip


def test_preview_shows_soft_shadows_and_glows_as_images_do(page, tmp_path):
    with _previewing(page, tmp_path, "soft.toml") as deck_file:
        deck = load_deck(deck_file)
        shown = _shown(page, "face:sc")
        assert shown == card_pngs(deck, [deck.card("SC")], DPI)[0]
        # and the soft edges are there: the same card with hard edges is another picture
        deck_file.write_text(deck_file.read_text().replace('glow_blur = "2.5mm"', "glow_blur = 0"))
        hard = load_deck(deck_file)
        assert shown != card_pngs(hard, [hard.card("SC")], DPI)[0]
