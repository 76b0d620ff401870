"""The deck's icons (`{icon:NAME}`) inline in rulebook text, as tall as the text around them.

PDF: reportlab paragraphs place pictures only through `<img>`, so the paragraph gets an
`<img>` of the right size whose source is a one-pixel placeholder naming the icon and its
colour; the rulebook's canvas (`draw_placeholder`) draws the icon there with the card
renderer, so SVG icons stay vectors and one-colour icons take the colour of the text, as on
the cards. HTML: the icon file itself (one-colour icons painted in the text's colour) as a
data URI.
"""

from __future__ import annotations

import base64
import io
from contextlib import contextmanager
from typing import Iterator
from urllib.parse import quote, unquote

from PIL import Image
from reportlab import rl_config

from ..core.files import open_input, read_input
from ..deck.model import Deck, Icon
from ..faces import art, icons, paint

ICON_EM = 0.9  # an inline icon's height, in ems (as on the cards)
ICON_DROP = 0.12  # how far it reaches below the baseline, in ems
_PLACEHOLDER = "data:image/png;deckgen-icon={name}~{color};base64,"
_PREFIX = "data:image/png;deckgen-icon="
_ONE_PIXEL = base64.b64encode(bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")).decode("ascii")


def pdf_img(deck: Deck, icon: Icon, size: float, color: str) -> str:
    """Paragraph XML for the icon at a text size of `size` points, in `color` when one-colour."""
    height = ICON_EM * size
    width = height * icons.aspect(deck, icon.name)
    source = _PLACEHOLDER.format(name=quote(icon.name, safe=""), color=quote(color, safe="")) + _ONE_PIXEL
    return f'<img src="{source}" width="{width:.2f}" height="{height:.2f}" valign="{-ICON_DROP * size:.2f}"/>'


@contextmanager
def placeholders_readable() -> Iterator[None]:
    """While typesetting, reportlab may read `data:` pictures (the placeholders) and nothing
    else: no file, no network. Its settings are put back afterwards."""
    saved = rl_config.trustedHosts, rl_config.trustedSchemes
    rl_config.trustedHosts, rl_config.trustedSchemes = ["localhost"], ["data"]
    try:
        yield
    finally:
        rl_config.trustedHosts, rl_config.trustedSchemes = saved


def draw_placeholder(canvas, deck: Deck, image, x: float, y: float, width: float, height: float) -> bool:
    """Draw the icon an `<img>` placeholder stands for; False when `image` is not one."""
    source = getattr(image, "fileName", None)
    if not isinstance(source, str) or not source.startswith(_PREFIX):
        return False
    name, color = source[len(_PREFIX):].split(";", 1)[0].split("~", 1)
    icons.draw(canvas, deck, unquote(name), x, y, width, height, unquote(color))
    return True


def data_uri(icon: Icon, color: str) -> str:
    """The icon's file as a data URI for HTML; a one-colour raster icon painted in `color`."""
    if art.is_svg(icon.path):
        return "data:image/svg+xml;base64," + base64.b64encode(read_input(icon.path, "image")).decode("ascii")
    with open_input(icon.path, "image") as handle, Image.open(handle) as opened:
        image = opened.convert("RGBA")
    if icon.tint:
        red, green, blue = (round(c * 255) for c in paint.rgb(color))
        painted = Image.new("RGBA", image.size, (red, green, blue, 255))
        painted.putalpha(image.getchannel("A"))
        image = painted
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
