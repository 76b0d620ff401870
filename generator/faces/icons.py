"""A deck's own icons (`[icons]`: PNG, JPEG or SVG files), drawn in layout boxes and inline in text.

An icon is full colour as drawn, or one-colour (`{ file = "...", tint = true }`): then its
shape is painted in the colour of the text or element, so one file serves every suit.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image
from reportlab.lib.utils import ImageReader

from ..core.files import open_input
from . import art, paint, svgfonts

if TYPE_CHECKING:
    from ..deck.model import Deck


def find(deck: "Deck", name: str):
    for icon in getattr(deck, "icons", ()):
        if icon.name == name:
            return icon
    return None


def aspect(deck: "Deck", name: str) -> float:
    """Width over height of an icon (1 when unknown)."""
    icon = find(deck, name)
    if icon is None or art.unreadable(icon.path):
        return 1.0
    width, height = art.image_size(icon.path)
    return width / height if height else 1.0


def draw(canvas, deck: "Deck", name: str, x: float, y: float, w: float, h: float, color: str | None) -> None:
    """The deck's icon `name` fitted (contained) in the box; tinted with `color` when it is one-colour."""
    icon = find(deck, name)
    if icon is not None:
        draw_icon(canvas, icon, x, y, w, h, color, svgfonts.for_deck(deck))


def draw_icon(canvas, icon, x: float, y: float, w: float, h: float, color: str | None,
              svg_fonts: "svgfonts.SvgFonts") -> None:
    """An icon fitted (contained) in the box; an SVG icon's text in the fonts `svg_fonts` picks."""
    if art.unreadable(icon.path):
        return
    if icon.tint and color and not art.is_svg(icon.path):
        image_w, image_h = art.image_size(icon.path)
        drawn_w, drawn_h = art.fitted(image_w, image_h, w, h, "contain")
        canvas.drawImage(ImageReader(_tinted(icon.path, color)), x + (w - drawn_w) / 2, y + (h - drawn_h) / 2,
                         drawn_w, drawn_h, mask="auto")
        return
    art.draw_image(canvas, icon.path, x, y, w, h, fit="contain", svg_fonts=svg_fonts)


@lru_cache(maxsize=64)
def _tinted(path: Path, color: str):
    with open_input(path, "image") as handle, Image.open(handle) as opened:
        alpha = opened.convert("RGBA").getchannel("A")
    red, green, blue = (round(c * 255) for c in paint.rgb(color))
    image = Image.new("RGBA", alpha.size, (red, green, blue, 255))
    image.putalpha(alpha)
    return image
