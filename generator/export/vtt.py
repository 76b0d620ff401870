"""playingcards.io / virtualtabletop.io export: a room file with the deck laid out for play.

Written under `<out>/vtt/`:

    <deck>.pcio.zip   `widgets.json` and the card images under `userassets/`

The zip is playingcards.io's room export, which virtualtabletop.io (open source) also loads:
its importer (ArnoldSmith86/virtualtabletop server/pcioimport.mjs) reads `widgets.json`, a
list of widgets, and the files under `userassets/`, which widgets name as
`package://userassets/<file>` (files of 2 MiB or more are not taken). Widgets written:

* a `cardPile` per back (`label`, `hasShuffleButton`), holding a `cardDeck` whose
  `backTemplate` shows that back and whose `faceTemplate` shows each card type's `image`;
  `cardTypes` by card code (`label` the card's name, `image` its face);
* a `card` per physical copy (`deck`, `cardType`, `parent` the pile), face down;
* the cards the rules set out before play (`setup.table_setup`), face up (`faceup`) on piles
  of their own: the Centre and the Discard pile.

One pile and deck per back keeps the kinds' own backs. Image names carry a content hash, as
the TTS sheets' do. The JSON is written with `json.dumps`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..deck.model import Card, Deck
from ..faces.raster import BackOf, own_backs
from .common import ExportError, write_export_folder
from .faces import faces_for, jpeg_bytes
from .lackey import zip_bytes
from .setup import table_setup

# playingcards.io's card size in its units (its importer's defaults).
CARD_WIDTH, CARD_HEIGHT = 103, 160
PILE_WIDTH, PILE_HEIGHT = 111, 168
PILE_STEP = 160  # piles side by side, left to right
ASSETS = "userassets"
MAX_ASSET_BYTES = 2 * 1024 * 1024  # the importer skips files of this size or more


def _asset(files: dict[str, bytes], stem: str, data: bytes, owner: str) -> str:
    if len(data) >= MAX_ASSET_BYTES:
        raise ExportError(f"{owner}: its image is {len(data)} bytes; playingcards.io and virtualtabletop.io take "
                          f"images under {MAX_ASSET_BYTES} bytes")
    name = f"{ASSETS}/{stem}-{hashlib.sha256(data).hexdigest()[:8]}.jpg"
    files[name] = data
    return f"package://{name}"


def _image_template(value: str, dynamic: bool) -> dict:
    image = {"type": "image", "x": 0, "y": 0, "w": CARD_WIDTH, "h": CARD_HEIGHT, "value": value}
    return {"includeBorder": False, "objects": [{**image, "valueType": "dynamic" if dynamic else "static"}]}


def room_widgets(deck: Deck, files: dict[str, bytes]) -> list[dict]:
    """The widgets of the room, adding the images they name to `files`."""
    faces = faces_for(deck)
    face_of = {card.id: _asset(files, f"face-{index}", faces.jpeg(card), f"card {card.name!r} ({card.code})")
               for index, card in enumerate(deck.cards, start=1)}
    deck_back = _asset(files, "back", faces.jpeg(None), f"deck {deck.id!r}")
    own = own_backs(deck, (deck.card_size.width_mm, deck.card_size.height_mm))
    back_of = {card.id: _asset(files, "back", jpeg_bytes(image), f"card {card.name!r} ({card.code})")
               for card, image in zip(own, faces.images([BackOf(card) for card in own]))}
    setup = table_setup(deck)
    set_out = {id(card): "discard" if any(card is other for other in setup.discard) else "centre"
               for card in setup.set_aside}
    groups: dict[str, list[tuple[int, Card]]] = {}
    for number, card in enumerate(deck.copies(), start=1):
        groups.setdefault(back_of.get(card.id, deck_back), []).append((number, card))
    widgets: list[dict] = []
    cards: list[dict] = []
    for index, (back, members) in enumerate(groups.items()):
        pile_id, deck_id = f"pile{index + 1}", f"deck{index + 1}"
        kinds = [kind.name for kind in deck.kinds if any(card.kind == kind.id for _, card in members)]
        x = 50 + index * PILE_STEP
        label = ", ".join(kinds) if len(groups) > 1 else "Draw"
        widgets.append({"id": pile_id, "type": "cardPile", "x": x, "y": 100, "width": PILE_WIDTH,
                        "height": PILE_HEIGHT, "label": label, "hasShuffleButton": True})
        types = {card.code: {"label": card.name, "image": face_of[card.id]} for _, card in members}
        widgets.append({"id": deck_id, "type": "cardDeck", "parent": pile_id, "x": x, "y": 100,
                        "cardWidth": CARD_WIDTH, "cardHeight": CARD_HEIGHT, "cardTypes": types,
                        "faceTemplate": _image_template("image", dynamic=True),
                        "backTemplate": _image_template(back, dynamic=False)})
        for number, card in members:
            where = set_out.pop(id(card), None)
            cards.append({"id": f"card{number}", "type": "card", "deck": deck_id, "cardType": card.code,
                          "parent": where or pile_id, "x": x, "y": 100, "faceup": where is not None})
    for column, (pile_id, label) in enumerate((("centre", "Centre"), ("discard", "Discard"))):
        if any(card["parent"] == pile_id for card in cards):
            x = 50 + (len(groups) + column) * PILE_STEP
            widgets.append({"id": pile_id, "type": "cardPile", "x": x, "y": 100, "width": PILE_WIDTH,
                            "height": PILE_HEIGHT, "label": label, "hasShuffleButton": False})
            for card in cards:
                if card["parent"] == pile_id:
                    card["x"] = x
    return widgets + cards


def export_vtt(deck: Deck, out_dir: Path) -> list[Path]:
    """Write `<deck>.pcio.zip` to `out_dir/vtt/`; return the path written."""
    files: dict[str, bytes] = {}
    widgets = room_widgets(deck, files)
    files["widgets.json"] = (json.dumps(widgets, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    return write_export_folder(out_dir / "vtt", {f"{deck.id}.pcio.zip": zip_bytes(files)})
