"""Image files cards use (art, layout images, icons): which file an element shows, its size,
and whether deckgen can read it. PNG and JPEG through Pillow, SVG through svglib."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .layouts.place import Placed

SVG_SUFFIXES = (".svg",)


def unreadable(path: Path) -> str:
    if not path.is_file():
        return "does not exist"
    try:
        image_size(path)
    except (OSError, ValueError):
        return "is not an image deckgen can read"
    return ""


def is_svg(path: Path) -> bool:
    return path.suffix.lower() in SVG_SUFFIXES


@lru_cache(maxsize=256)
def image_size(path: Path) -> tuple[float, float]:
    """Pixels of a raster image; an SVG's own size in points."""
    if is_svg(path):
        drawing = svg_drawing(path)
        return float(drawing.width), float(drawing.height)
    from PIL import Image

    with Image.open(path) as image:
        return image.size


@lru_cache(maxsize=64)
def svg_drawing(path: Path):
    from svglib.svglib import svg2rlg

    drawing = svg2rlg(str(path))
    if drawing is None or not drawing.width or not drawing.height:
        raise ValueError(f"{path} is not an SVG drawing svglib can read")
    return drawing


def image_path(placed: "Placed") -> Path | None:
    """The file an image element shows, or None when the card has none (no art)."""
    source = placed.get("src")
    if not source:
        return None
    path = Path(str(source))
    if not path.is_absolute() and placed.element.source is not None:
        path = placed.element.source.parent / path
    return path
