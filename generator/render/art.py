"""Card art: image files a card names, checked before printing and placed to cover a box."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import Problem

if TYPE_CHECKING:
    from ..model import Deck


def art_problems(deck: "Deck") -> list[Problem]:
    """Every card whose art file is missing or is not an image Pillow can read."""
    problems = []
    for card in deck.cards:
        if card.art is None:
            continue
        reason = _unreadable(card.art)
        if reason:
            problems.append(Problem(
                f"card {card.name!r} ({card.code}): art file {card.art} {reason}",
                field=f"card {card.code}.art", file=deck.source,
                hint="art paths are relative to the deck file's folder; use a PNG or JPEG",
            ))
    return problems


def _unreadable(path: Path) -> str:
    if not path.is_file():
        return "does not exist"
    try:
        _image_size(path)
    except OSError:
        return "is not an image deckgen can read"
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
