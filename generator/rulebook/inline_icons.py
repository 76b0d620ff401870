"""The deck's icons (`{icon:NAME}`) inline in rulebook text, as tall as the text around them.

PDF: reportlab paragraphs place pictures only through `<img>`, so the paragraph gets an
`<img>` of the right size whose source is a one-pixel placeholder naming the icon and its
colour; the rulebook's canvas (`draw_placeholder`) draws the icon there with the card
renderer, so SVG icons stay vectors and one-colour icons take the colour of the text, as on
the cards. HTML: the icon file itself (one-colour icons painted in the text's colour) as a
data URI. Markdown: the same file written beside the rulebook (`IconFiles`), only the icons
the text uses, and linked from an inline `<img>`.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import quote, unquote

from PIL import Image
from reportlab import rl_config

from ..core.files import open_input, read_input
from ..core.output import replaced_folder, write_bytes, writing
from ..deck.model import Deck, Icon
from ..faces import art, icons, paint

ICON_EM = 0.9  # an inline icon's height, in ems (as on the cards)
ICON_DROP = 0.12  # how far it reaches below the baseline, in ems
INK = "#1b1b1b"  # the rulebook's text colour, which one-colour icons are painted in
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


def icon_file(icon: Icon, color: str = INK) -> tuple[str, bytes]:
    """("svg" or "png", the bytes) of the icon as a web page shows it: an SVG as the designer
    drew it, a raster icon as PNG, painted in `color` when it is one-colour."""
    if art.is_svg(icon.path):
        return "svg", read_input(icon.path, "image")
    with open_input(icon.path, "image") as handle, Image.open(handle) as opened:
        image = opened.convert("RGBA")
    if icon.tint:
        red, green, blue = (round(c * 255) for c in paint.rgb(color))
        painted = Image.new("RGBA", image.size, (red, green, blue, 255))
        painted.putalpha(image.getchannel("A"))
        image = painted
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False)
    return "png", buffer.getvalue()


def data_uri(icon: Icon, color: str = INK) -> str:
    """The icon's file as a data URI for HTML."""
    kind, data = icon_file(icon, color)
    mime = "image/svg+xml" if kind == "svg" else "image/png"
    return f"data:{mime};base64," + base64.b64encode(data).decode("ascii")


# An icon name that is a file name as it is, on every file system.
_PLAIN_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,59}")


class IconFiles:
    """The icons a Markdown rulebook shows, as files in `folder` (relative to the rulebook).

    `src` gives an icon's path and notes it as used; `write` then puts exactly the used icons in
    the folder, replacing it whole, so icons the text no longer shows do not linger."""

    def __init__(self, deck: Deck, folder: Path):
        self.deck, self.folder = deck, folder
        self._used: dict[str, Icon] = {}

    def file_name(self, icon: Icon) -> str:
        """`drop.png`: the icon's own name when it is a plain lower-case word that no other icon's
        name folds to (file systems that ignore case); else a slug and a hash of the name."""
        kind = "svg" if art.is_svg(icon.path) else "png"
        folded = [other.name.casefold() for other in self.deck.icons]
        if _PLAIN_NAME.fullmatch(icon.name) and folded.count(icon.name.casefold()) == 1:
            return f"{icon.name}.{kind}"
        slug = re.sub(r"[^a-z0-9_-]+", "-", icon.name.casefold()).strip("-")[:40] or "icon"
        return f"{slug}-{hashlib.blake2b(icon.name.encode('utf-8'), digest_size=4).hexdigest()}.{kind}"

    def src(self, icon: Icon) -> str:
        self._used[icon.name] = icon
        return (self.folder / self.file_name(icon)).as_posix()

    def write(self, out_dir: Path) -> list[Path]:
        """The used icons under `out_dir`/`folder`, in a folder that holds nothing else; with none
        used, a folder an earlier build wrote is removed."""
        target = out_dir / self.folder
        if not self._used:
            if target.is_dir() and not target.is_symlink():
                with writing(target):
                    shutil.rmtree(target)
            return []
        names = sorted((self.file_name(icon), icon) for icon in self._used.values())
        with replaced_folder(target) as fresh:
            for name, icon in names:
                write_bytes(fresh / name, icon_file(icon)[1])
        return [target / name for name, _ in names]
