"""Render every example layout in this folder to the PNG next to it, for docs/layouts.md.

Run: python docs/layouts/gallery.py   (from the repository root or anywhere)
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from generator.deck.loader import load_deck  # noqa: E402
from generator.faces.images import card_image  # noqa: E402


def render(folder: Path = HERE, out: Path = HERE, dpi: int = 150) -> list[Path]:
    written = []
    for source in sorted(folder.glob("*.toml")):
        deck = load_deck(source)
        image = card_image(deck, deck.cards[0], dpi=dpi, bleed_mm=3)
        path = out / f"{source.stem}.png"
        image.save(path, optimize=True)
        written.append(path)
    return written


if __name__ == "__main__":
    for path in render():
        print(path)
