"""The live preview's backs view in a real Chromium: each card shows its own kind's back, at
desktop and phone widths, and the zoom of a back is that back at print resolution."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from generator.preview.app import start_preview
from tests.designer.tidepool import BACK_COLOURS, make

ALL_LOADED = ("document.querySelectorAll('.tile img').length > 0 && "
              "[...document.querySelectorAll('.tile img')].every(img => img.complete && img.naturalWidth > 0)")
SHOTS = Path("/tmp/deckgen-designer-shots")


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)])
def test_backs_view_shows_each_kinds_back(tmp_path, page, width, height):
    deck = make(tmp_path / "tidepool")
    running = start_preview(deck, output_dir=tmp_path / "out", dpi=40)
    try:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(running.url)
        page.wait_for_function(ALL_LOADED)
        page.check("input[name=side][value=back]")
        page.wait_for_function(ALL_LOADED)
        cards = {card["key"]: card for card in running.session.state()["cards"]}
        kinds = {"face:co": "shell", "face:sa": "fish", "face:gr": "fish", "face:ht": "tide"}
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"backs-{width}.png"), full_page=True)
        for key, kind in kinds.items():
            loaded = page.eval_on_selector(f'[data-key="{key}"] img', "img => img.dataset.loaded || ''")
            assert loaded == cards[key]["back_hash"] != cards["back"]["hash"]
            shot = Image.open(io.BytesIO(page.locator(f'[data-key="{key}"] img').screenshot())).convert("RGB")
            middle = shot.getpixel((shot.width // 2, shot.height // 2))
            assert all(abs(a - b) <= 6 for a, b in zip(middle, _rgb(BACK_COLOURS[kind]))), (key, middle)
        back_zoom = running.session.image(cards["face:co"]["back_hash"], 300)
        assert back_zoom is not None
        zoom = Image.open(io.BytesIO(back_zoom)).convert("RGB")
        assert zoom.getpixel((zoom.width // 2, zoom.height // 2)) == _rgb(BACK_COLOURS["shell"])
    finally:
        running.stop()
