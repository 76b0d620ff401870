"""Card art: image files a card names, checked before printing and placed to cover a box."""

from __future__ import annotations

import stat
import warnings
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import Problem

if TYPE_CHECKING:
    from ..model import Deck


# Larger than any card art needs at 300 dpi, even a metre tall; past them an image is refused
# before it is decoded (a small "decompression bomb" file can unpack to gigabytes).
MAX_ART_BYTES = 64 * 1024 * 1024
MAX_ART_PIXELS = 64_000_000


def art_problems(deck: "Deck") -> list[Problem]:
    """Every card whose art file is missing or is not an image deckgen can draw."""
    problems = []
    for card in deck.cards:
        if card.art is None:
            continue
        reason = art_reason(card.art)
        if reason:
            problems.append(Problem(
                f"card {card.name!r} ({card.code}): art file {card.art} {reason}",
                field=f"card {card.code}.art", file=deck.source,
                hint="art paths are relative to the deck file's folder; use a PNG or JPEG",
            ))
    return problems


def art_reason(path: Path) -> str:
    """Why an art file cannot be drawn ("" when it can): missing, not a regular file (a FIFO
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
    """Decode the whole image once (a truncated file fails only there); keyed by the file's
    time and size, so an edited file is checked again."""
    from PIL import Image

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


def _image_size(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return _image_size_of(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _image_size_of(path: Path, mtime_ns: int, size: int) -> tuple[int, int]:
    """Cached by the file's time and size too: a picture saved anew (the live preview) is read anew."""
    from PIL import Image

    with Image.open(path) as image:
        return image.size


def draw_art(canvas, path: Path, x: float, y: float, width: float, height: float) -> None:
    """Scale the image to cover the box (cropping what sticks out), centred.

    Drawn by file name, so reportlab stores each file once per PDF however often it is used.
    """
    image_width, image_height = _image_size(path)
    scale = max(width / image_width, height / image_height)
    drawn_width, drawn_height = image_width * scale, image_height * scale
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x, y, width, height)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.drawImage(str(path), x + (width - drawn_width) / 2, y + (height - drawn_height) / 2,
                     drawn_width, drawn_height, mask="auto")
    canvas.restoreState()
