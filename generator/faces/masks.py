"""Images masked by another image's alpha, or tinted: made in Pillow, placed as an opaque picture.

A mask (a PNG whose alpha says what shows) is stretched over the element's box; a tint
multiplies every pixel by a colour. The result is placed with a colour-key mask (the
pixels to hide are set to one colour the PDF is told not to paint, PDF 1.3's /Mask array),
not a soft mask: PDF/X-1a allows no transparency but does allow this, so a masked picture
prints as drawn in every output. Its edge is therefore hard, at the art's own resolution;
the art's own alpha counts as part of the mask.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageChops
from reportlab.lib.utils import ImageReader

from ..core.files import open_input
from ..deck.layouts.colours import rgb

KEY = (255, 0, 255)  # the colour a masked pixel takes; pixels of the art that have it are nudged off it
NUDGED = (255, 0, 254)
SHOWN_FROM = 128  # alpha from which a pixel shows


def draw(canvas, path: Path, drawn: tuple[float, float, float, float], box: tuple[float, float, float, float],
         mask: Path | None, tint: str) -> None:
    """Draw the image at `drawn` (left, bottom, width, height), its mask stretched over `box`."""
    prepared, keyed = _prepared(path, path.stat().st_mtime_ns, mask, mask.stat().st_mtime_ns if mask else 0, tint,
                             tuple(round(v, 3) for v in drawn), tuple(round(v, 3) for v in box))
    left, bottom, width, height = drawn
    if keyed and getattr(canvas, "ink_saving", False):
        # the ink saver greys every picture, which would unmake the key colour: hand it the mask as alpha
        hidden = ImageChops.multiply(*(band.point(lambda v, k=k: 255 if v == k else 0)
                                       for band, k in zip(prepared.split()[:2], KEY[:2])))
        prepared = prepared.convert("RGBA")
        prepared.putalpha(ImageChops.invert(ImageChops.multiply(hidden, prepared.getchannel("B").point(
            lambda v: 255 if v == KEY[2] else 0))))
        keyed = False
    key = [value for channel in KEY for value in (channel, channel)] if keyed else None
    canvas.drawImage(ImageReader(prepared), left, bottom, width, height, mask=key)


def _read(path: Path) -> Image.Image:
    with open_input(path, "image") as handle, Image.open(handle) as opened:
        opened.load()
        return opened.convert("RGBA")


@lru_cache(maxsize=32)
def _prepared(path: Path, _mtime: int, mask: Path | None, _mask_mtime: int, tint: str, drawn, box):
    """The picture as RGB with the hidden pixels set to KEY, and whether any are hidden
    (keyed by the files' times, so art or a mask saved anew is made anew)."""
    art = _read(path)
    colours, alpha = art.convert("RGB"), art.getchannel("A")
    if tint:
        colours = ImageChops.multiply(colours, Image.new("RGB", colours.size, tuple(round(c * 255) for c in rgb(tint))))
    if mask is not None:
        alpha = ImageChops.multiply(alpha, _mask_over(mask, colours.size, drawn, box))
    hidden = alpha.point(lambda value: 255 if value < SHOWN_FROM else 0)
    if hidden.getbbox() is None:
        return colours, False
    red, green, blue = colours.split()
    is_key = ImageChops.multiply(ImageChops.multiply(red.point(lambda v: 255 if v == KEY[0] else 0),
                                                     green.point(lambda v: 255 if v == KEY[1] else 0)),
                                 blue.point(lambda v: 255 if v == KEY[2] else 0))
    colours.paste(NUDGED, mask=is_key)
    colours.paste(KEY, mask=hidden)
    return colours, True


def _mask_over(mask: Path, size: tuple[int, int], drawn, box) -> Image.Image:
    """The mask's alpha stretched over the box, in the pixels of the picture drawn at `drawn`
    (outside the box: hidden)."""
    left, bottom, width, height = drawn
    x, y, box_w, box_h = box
    per_x, per_y = size[0] / width, size[1] / height
    stretched = _read(mask).getchannel("A").resize((max(1, round(box_w * per_x)), max(1, round(box_h * per_y))),
                                                   Image.Resampling.BILINEAR)
    out = Image.new("L", size, 0)
    out.paste(stretched, (round((x - left) * per_x), round((bottom + height - (y + box_h)) * per_y)))
    return out
