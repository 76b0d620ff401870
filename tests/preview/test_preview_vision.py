"""The preview's colour-vision toggle in a real Chromium: with a simulation chosen, each card's
picture on the page has the colours the validator's Machado 2009 model gives for it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from generator.preview.app import start_preview
from generator.validate.colourvision import MACHADO, simulate
from tests.designer.tidepool import BACK_COLOURS, make

ALL_LOADED = ("document.querySelectorAll('.tile img').length > 0 && "
              "[...document.querySelectorAll('.tile img')].every(img => img.complete && img.naturalWidth > 0)")


def _middle(page, key: str) -> tuple[int, int, int]:
    shot = Image.open(io.BytesIO(page.locator(f'[data-key="{key}"] img').screenshot())).convert("RGB")
    return shot.getpixel((shot.width // 2, shot.height // 2))


@pytest.mark.parametrize("vision", sorted(MACHADO))
def test_vision_toggle_shows_the_simulated_colours(tmp_path, page, vision):
    deck = make(tmp_path / "tidepool")
    running = start_preview(deck, output_dir=tmp_path / "out", dpi=40)
    try:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(running.url)
        page.wait_for_function(ALL_LOADED)
        page.check("input[name=side][value=back]")  # the kinds' backs are flat fills of their colours
        page.wait_for_function(ALL_LOADED)
        typical = _middle(page, "face:co")
        assert all(abs(a - b) <= 3 for a, b in zip(typical, bytes.fromhex(BACK_COLOURS["shell"][1:])))
        page.select_option("select[name=vision]", vision)
        for key, kind in (("face:co", "shell"), ("face:sa", "fish"), ("face:ht", "tide")):
            expected = [round(c * 255) for c in simulate(BACK_COLOURS[kind], vision)]
            seen = _middle(page, key)
            assert all(abs(a - b) <= 4 for a, b in zip(seen, expected)), (vision, kind, seen, expected)
        page.select_option("select[name=vision]", "typical")
        assert _middle(page, "face:co") == typical
    finally:
        running.stop()
