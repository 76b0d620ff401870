"""Image files cards use (art, layout images, icons): which file an element shows, its size,
and whether deckgen can read it. PNG and JPEG through Pillow, SVG through svglib.

Every cache here is keyed by the file's modification time and size too, so a picture saved
anew (the live preview, a rebuild) is read anew.
"""

from __future__ import annotations

import stat
import warnings
from functools import lru_cache
from pathlib import Path


TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a no-op build reads a limit here)
if TYPE_CHECKING:
    from .place import Placed

SVG_SUFFIXES = (".svg",)
# Larger than any card art needs at 300 dpi, even a metre tall; past them an image is refused
# before it is decoded (a small "decompression bomb" file can unpack to gigabytes).
MAX_ART_BYTES = 64 * 1024 * 1024
MAX_ART_PIXELS = 64_000_000


def unreadable(path: Path) -> str:
    """Why an image file cannot be drawn ("" when it can): missing, not a regular file (a FIFO
    would block the reader), too large, or not an image that decodes completely."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return "does not exist"
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    if not stat.S_ISREG(info.st_mode):
        return "is not a regular file"
    if info.st_size > MAX_ART_BYTES:
        return f"is {info.st_size:,} bytes; the limit is {MAX_ART_BYTES:,}"
    return _decode_problem(path, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=256)
def _decode_problem(path: Path, _mtime: int, _size: int) -> str:
    """Decode the whole image once (a truncated file fails only there)."""
    from PIL import Image  # Pillow only for a deck with raster art (about 10 ms to import)

    if is_svg(path):
        try:
            _svg_drawing_of(path, _mtime, _size)
        except Exception as error:  # noqa: BLE001 - svglib and lxml raise many kinds on a broken file
            return f"is not an SVG drawing deckgen can read ({error})"
        return ""

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as image:
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
    info = path.stat()
    return _image_size_of(path, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=256)
def _image_size_of(path: Path, mtime_ns: int, size: int) -> tuple[float, float]:
    from PIL import Image

    if is_svg(path):
        drawing = _svg_drawing_of(path, mtime_ns, size)
        return float(drawing.width), float(drawing.height)

    with Image.open(path) as image:
        return image.size


def svg_drawing(path: Path):
    info = path.stat()
    return _svg_drawing_of(path, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=64)
def _svg_drawing_of(path: Path, _mtime: int, _size: int):
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
