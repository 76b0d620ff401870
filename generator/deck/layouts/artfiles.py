"""Image files cards use (art, layout images, icons): which file an element shows, its size,
and whether deckgen can read it. PNG and JPEG through Pillow, SVG through svglib.

Every cache here is keyed by the file's modification time and size too, so a picture saved
anew (the live preview, a rebuild) is read anew.
"""

from __future__ import annotations

import os
import warnings
from functools import lru_cache
from pathlib import Path

from ...core.files import KINDS, input_problem, open_input
from .svgfiles import MAX_ART_PIXELS, read_svg

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a no-op build reads a limit here)
if TYPE_CHECKING:
    from .place import Placed

SVG_SUFFIXES = (".svg",)
MAX_ART_BYTES = KINDS["image"].limit


def unreadable(path: Path, within: Path | None = None) -> str:
    """Why an image file cannot be drawn ("" when it can): missing, outside `within` (the
    deck's folder), not a regular file (a FIFO would block the reader), too large, or not an
    image that decodes completely (an SVG's references pass the same checks, inside the
    SVG's own folder)."""
    reason = input_problem(path, "image", within=within)
    if reason:
        return reason
    info = os.stat(path)
    return _decode_problem(path, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=256)
def _decode_problem(path: Path, _mtime: int, _size: int) -> str:
    """Decode the whole image once (a truncated file fails only there)."""
    from PIL import Image  # Pillow only for a deck with raster art (about 10 ms to import)

    if is_svg(path):
        try:
            _, refused = _svg_of(path, _mtime, _size)
        except Exception as error:  # noqa: BLE001 - svglib and lxml raise many kinds on a broken file
            return f"is not an SVG drawing deckgen can read ({error})"
        return f"draws {refused[0]}" if refused else ""

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with open_input(path, "image") as handle, Image.open(handle) as image:
                width, height = image.size
                if width * height > MAX_ART_PIXELS:
                    return f"is {width:,}×{height:,} pixels; the limit is {MAX_ART_PIXELS:,} pixels"
                image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return f"is an image of more than {MAX_ART_PIXELS:,} pixels"
    except Exception as error:  # noqa: BLE001 - Pillow raises many kinds on a broken file
        return f"is not an image deckgen can read ({error})"
    return ""


def is_svg(path: Path) -> bool:
    return path.suffix.lower() in SVG_SUFFIXES


def image_size(path: Path) -> tuple[float, float]:
    """Pixels of a raster image; an SVG's own size in points."""
    info = os.stat(path)
    return _image_size_of(path, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=256)
def _image_size_of(path: Path, mtime_ns: int, size: int) -> tuple[float, float]:
    from PIL import Image

    if is_svg(path):
        drawing = svg_drawing(path)
        return float(drawing.width), float(drawing.height)

    with open_input(path, "image") as handle, Image.open(handle) as image:
        return image.size


def svg_drawing(path: Path, font_map=None):
    """The SVG's drawing, its text in the fonts `font_map` picks (see `svgfiles.read_svg`); one
    drawing is kept per file and map, and is shared: draw it, never change it."""
    info = os.stat(path)
    return _svg_of(path, info.st_mtime_ns, info.st_size, font_map)[0]


@lru_cache(maxsize=64)
def _svg_of(path: Path, _mtime: int, _size: int, font_map=None):
    """The SVG's drawing and the references it was refused."""
    drawing, refused = read_svg(path, font_map)
    if drawing is None or not drawing.width or not drawing.height:
        raise ValueError(f"{path} is not an SVG drawing svglib can read")
    return drawing, refused


def image_path(placed: "Placed", key: str = "src") -> Path | None:
    """The file an image element shows (`key` = "mask": the file whose alpha masks it), or None
    when the card has none (no art, no mask)."""
    source = placed.get(key)
    if not source:
        return None
    path = Path(str(source))
    if not path.is_absolute() and placed.element.source is not None:
        path = placed.element.source.parent / path
    return path


