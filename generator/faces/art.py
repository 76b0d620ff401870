"""Card art and layout images: PNG, JPEG or SVG files, checked before printing and placed in a box.

Raster images are drawn by file name, so reportlab stores each file once per PDF however
often it is used; SVG files are drawn as vectors (svglib), their text in the deck's fonts
(`svgfonts`). An image element that reaches the bleed edge with
`bleed = "mirror" | "extend" | "color"` treats the file as trim-sized art and makes the bleed
for it: the part of the box outside the trim is filled by mirroring or stretching the image's
edge, or with a colour.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageOps
from reportlab.graphics import renderPDF
from reportlab.lib.utils import ImageReader

from ..core.errors import Problem, UnreadableInput
from ..core.files import open_input
from . import masks
from ..deck.layouts.artfiles import (MAX_ART_BYTES, MAX_ART_PIXELS, image_path, image_size, is_svg, svg_drawing,
                                     unreadable)

if TYPE_CHECKING:
    from ..deck.model import Deck
    from .svgfonts import SvgFonts

__all__ = ["MAX_ART_BYTES", "MAX_ART_PIXELS", "art_problems", "draw_image", "draw_masked", "fitted", "image_path", "image_size",
           "is_svg", "unreadable"]


def art_problems(deck: "Deck") -> list[Problem]:
    """Every card whose art file is missing or is not an image deckgen can read."""
    problems = []
    for card in deck.cards:
        if card.art is None:
            continue
        reason = unreadable(card.art, deck.folder)
        if reason:
            problems.append(Problem(
                f"card {card.name!r} ({card.code}): art file {card.art} {reason}",
                field=f"card {card.code}.art", file=deck.source,
                hint="art paths are relative to the deck file's folder; use a PNG, JPEG or SVG",
            ))
    return problems


def fitted(image_w: float, image_h: float, w: float, h: float, fit: str) -> tuple[float, float]:
    if fit == "stretch":
        return w, h
    scale = (max if fit == "cover" else min)(w / image_w, h / image_h)
    return image_w * scale, image_h * scale


def _checked(path: Path, within: Path | None) -> None:
    reason = unreadable(path, within)
    if reason:
        raise UnreadableInput(Problem(f"image {reason}", file=path,
                                      hint="image paths are relative to the file that names them; use PNG, JPEG or SVG"))


def draw_masked(canvas, path: Path, box: tuple[float, float, float, float], fit: str, mask: Path | None,
                tint: str, within: Path | None = None) -> None:
    """A raster image fitted in `box`, masked by `mask`'s alpha (stretched over the box) and/or
    multiplied by `tint` (`masks`)."""
    for file in (path, mask):
        if file is not None:
            _checked(file, within)
    x, y, w, h = box
    image_w, image_h = image_size(path)
    drawn_w, drawn_h = fitted(image_w, image_h, w, h, fit)
    masks.draw(canvas, path, (x + (w - drawn_w) / 2, y + (h - drawn_h) / 2, drawn_w, drawn_h), box, mask, tint)


def draw_image(canvas, path: Path, x: float, y: float, w: float, h: float, fit: str = "cover",
               bleed: str = "", bleed_color: str = "#ffffff", trim: tuple[float, float] | None = None,
               frame_bleed: float = 0.0, within: Path | None = None, *, svg_fonts: "SvgFonts") -> None:
    """Place an image in a box (cover: crop what sticks out; contain: all of it, centred; stretch).
    The file is checked again first (regular, inside `within`, an image that decodes): it may
    have changed since the deck was checked, and reportlab reads a raster image by its name.
    An SVG's text is drawn in the fonts `svg_fonts` picks from the deck's (`svgfonts`)."""
    _checked(path, within)
    if bleed and trim and not is_svg(path):
        inner = (max(x, 0.0), max(y, 0.0), min(x + w, trim[0]), min(y + h, trim[1]))
        if inner[0] > x + 1e-6 or inner[1] > y + 1e-6 or inner[2] < x + w - 1e-6 or inner[3] < y + h - 1e-6:
            _draw_with_bleed(canvas, path, (x, y, w, h), inner, bleed, bleed_color)
            return
    image_w, image_h = image_size(path)
    drawn_w, drawn_h = fitted(image_w, image_h, w, h, fit)
    left, bottom = x + (w - drawn_w) / 2, y + (h - drawn_h) / 2
    if is_svg(path):
        drawing = svg_drawing(path, svg_fonts)
        canvas.saveState()
        canvas.translate(left, bottom)
        canvas.scale(drawn_w / image_w, drawn_h / image_h)
        renderPDF.draw(drawing, canvas, 0, 0)
        canvas.restoreState()
        return
    canvas.drawImage(str(path), left, bottom, drawn_w, drawn_h, mask="auto")


def _draw_with_bleed(canvas, path, box, inner, mode, bleed_color) -> None:
    x, y, w, h = box
    padded = _padded(path, path.stat().st_mtime_ns, tuple(round(v, 3) for v in box), tuple(round(v, 3) for v in inner), mode, bleed_color)
    canvas.drawImage(ImageReader(padded), x, y, w, h)


@lru_cache(maxsize=32)
def _padded(path: Path, _mtime: int, box, inner, mode: str, bleed_color: str):
    """The art cropped to cover the trim part of the box, with bleed made around it (keyed by
    the file's time, so art saved anew is padded anew)."""
    x, y, w, h = box
    left, bottom, right, top = inner
    inner_w, inner_h = right - left, top - bottom
    with open_input(path, "image") as handle, Image.open(handle) as opened:
        image = opened.convert("RGB")
    scale = max(inner_w / image.width, inner_h / image.height)
    crop_w, crop_h = inner_w / scale, inner_h / scale
    cx, cy = image.width / 2, image.height / 2
    image = image.crop((round(cx - crop_w / 2), round(cy - crop_h / 2), round(cx + crop_w / 2), round(cy + crop_h / 2)))
    per_pt = image.width / inner_w
    pad = [round((left - x) * per_pt), round((y + h - top) * per_pt), round((x + w - right) * per_pt),
           round((bottom - y) * per_pt)]  # left, top, right, bottom in pixels
    if mode == "color":
        return ImageOps.expand(image, border=tuple(pad), fill=bleed_color)
    out = Image.new("RGB", (image.width + pad[0] + pad[2], image.height + pad[1] + pad[3]))
    out.paste(image, (pad[0], pad[1]))
    if mode == "mirror":
        flip_x, flip_y = ImageOps.mirror(image), ImageOps.flip(image)
        both = ImageOps.flip(flip_x)
        tiles = ((-1, 0, flip_x), (1, 0, flip_x), (0, -1, flip_y), (0, 1, flip_y),
                 (-1, -1, both), (1, -1, both), (-1, 1, both), (1, 1, both))
        for tx, ty, tile in tiles:
            out.paste(tile, (pad[0] + tx * image.width, pad[1] + ty * image.height))
        return out
    # extend: stretch the outermost row/column of pixels outwards
    edges = (
        (image.crop((0, 0, 1, image.height)).resize((max(pad[0], 1), image.height)), (0, pad[1]), pad[0]),
        (image.crop((image.width - 1, 0, image.width, image.height)).resize((max(pad[2], 1), image.height)),
         (pad[0] + image.width, pad[1]), pad[2]),
    )
    for strip, where, size in edges:
        if size:
            out.paste(strip, where)
    wide = out.crop((0, pad[1], out.width, pad[1] + 1)).resize((out.width, max(pad[1], 1)))
    if pad[1]:
        out.paste(wide, (0, 0))
    low = out.crop((0, pad[1] + image.height - 1, out.width, pad[1] + image.height)).resize((out.width, max(pad[3], 1)))
    if pad[3]:
        out.paste(low, (0, pad[1] + image.height))
    return out
