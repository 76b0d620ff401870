"""`deckgen new`: a deck folder to start from, which validates, builds and previews at once.

The folder holds `<id>.toml` (commented, its first line pointing editors at the schema beside
it), `deck.schema.json` and an `art/` folder. Deck files come from `templates/new/`, one per
kind of game; the picture deck's placeholder images are drawn here.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import jinja2
from PIL import Image, ImageDraw

from ..core.errors import OptionError
from ..core.output import write_bytes, write_text
from ..core.resources import TEMPLATES as SHIPPED_TEMPLATES
from .cardids import slug
from .schema import DECK_SCHEMA

TEMPLATES = SHIPPED_TEMPLATES / "new"
KINDS = ("trick", "dvorak", "picture", "blank")
ART_DIR = "art"
SCHEMA_FILE = "deck.schema.json"

_SETTINGS = {
    "trick": {"players": (3, 5), "pattern": "diamonds", "back_color": "#23255e", "subtitle": "40 cards",
              "description": "A trick-taking game: follow suit, take tricks."},
    "dvorak": {"players": (2, 5), "pattern": "stripes", "back_color": "#5a2a27", "subtitle": "Things and Actions",
               "description": "Things stay on the table; Actions happen once."},
    "picture": {"players": (2, 6), "pattern": "dots", "back_color": "#1f3b4d", "subtitle": "Picture cards",
                "description": "Cards with pictures on them."},
    "blank": {"players": (2, 4), "pattern": "waves", "back_color": "#2f4f4f", "subtitle": "",
              "description": "A new card game."},
}
# Placeholder pictures: (name, code, colour); each becomes art/<name in lower case, dashed>.png
# (the card's id, and so its images/<id>.png, comes from its code).
_PICTURES = (("The Cartographer", "CARTO", (54, 92, 130)), ("The Beekeeper", "BEES", (190, 140, 30)),
             ("The Lamplighter", "LAMP", (150, 60, 40)), ("The Ferryman", "FERRY", (40, 110, 90)))


def _toml_string(value: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(value, ensure_ascii=False)


def new_deck(folder: Path, kind: str = "trick") -> list[Path]:
    """Write a new deck folder; return the files written. Refuses a folder that has files in it."""
    if kind not in KINDS:
        raise OptionError(f"--kind {kind!r} is unknown; choose one of {', '.join(KINDS)}")
    deck_id = slug(folder.name)
    if not deck_id:
        raise OptionError(f"cannot make a deck id from {folder.name!r}: give a name with letters or digits")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise OptionError(f"{folder} already exists and is not empty; give a new folder name "
                          "(deckgen new never overwrites files)")
    name = " ".join(word.capitalize() for word in deck_id.split("-"))
    pictures = [{"name": title, "code": code, "file": f"{slug(title)}.png",
                 "text": f"Replace art/{slug(title)}.png with a picture of {title.lower()}."}
                for title, code, _ in _PICTURES]
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), trim_blocks=True,
                                     lstrip_blocks=True, keep_trailing_newline=True, autoescape=False)
    environment.filters["toml"] = _toml_string
    text = environment.get_template(f"{kind}.toml.j2").render(
        id=deck_id, name=name, folder=str(folder), engine=None, pictures=pictures, **_SETTINGS[kind])

    written = [write_text(folder / f"{deck_id}.toml", re.sub(r"\n{3,}", "\n\n", text)),
               write_text(folder / SCHEMA_FILE, json.dumps(DECK_SCHEMA, indent=2, ensure_ascii=False) + "\n")]
    art = folder / ART_DIR
    art.mkdir(parents=True, exist_ok=True)
    if kind == "picture":
        written += [write_bytes(art / picture["file"], _placeholder(colour))
                    for picture, (_, _, colour) in zip(pictures, _PICTURES)]
    else:
        written.append(write_text(art / "README.txt", "Card pictures go here: name one in a card's art field, "
                                                      "e.g. art = \"art/dragon.png\".\n"))
    return written


def _placeholder(colour: tuple[int, int, int]) -> bytes:
    """A plain placeholder picture: a colour field with a lighter disc and horizon, 800x600 px
    (over 300 ppi in the picture card's art box, so a new deck prints without warnings)."""

    image = Image.new("RGB", (800, 600), colour)
    draw = ImageDraw.Draw(image)
    light = tuple(min(255, c + 70) for c in colour)
    dark = tuple(max(0, c - 40) for c in colour)
    draw.rectangle((0, 400, 800, 600), fill=dark)
    draw.ellipse((293, 120, 507, 333), fill=light)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False)
    return buffer.getvalue()
