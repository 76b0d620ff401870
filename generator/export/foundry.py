"""Foundry VTT export: a `Cards` document (a deck) to bring in with Foundry's "Import Data".

Written under `<out>/foundry/`:

    <deck>.json              the Cards document: type "deck", one Card per physical card
    <deck>-<code>-<hash>.jpg each distinct card's face
    <deck>-back-<hash>.jpg   the deck's back, and each back of its own that cards have (one file per image)

The document's shape is the one Foundry writes with "Export Data" for a Cards document
(compared with shradee/card-deck-initiative scripts/data.js, a standard deck as Foundry holds
it): `name`, `type`, `description` (HTML), `img` (the back shown for the stack), `cards`,
`width`, `height`, `rotation`, `displayCount`; each card `name`, `type` "base", `description`,
`suit`, `value`, `faces` (`name`, `text`, `img`), `face` 0, `back` (`name`, `text`, `img`),
`drawn`, `width`, `height`, `rotation`, `sort`. A card with a back of its own carries it in
its `back.img`, so kinds keep their backs.

Image names carry a content hash, as the TTS sheets' do: Foundry (and the browsers of its
players) cache images by path. Image paths are `<base>/<file>` with `--base-url`, else
`cards/<deck>/<file>`, a path in Foundry's user Data folder: copy the folder's images there.
Text goes into HTML escaped; the JSON is written with `json.dumps`.
"""

from __future__ import annotations

import hashlib
import html
import json
from pathlib import Path
from urllib.parse import quote

from ..deck.markup import to_plain
from ..deck.model import Card, Deck
from ..deck.publish import check_base_url
from ..faces.raster import BackOf, own_backs
from .common import write_export_folder
from .faces import faces_for, jpeg_bytes

# Foundry's grid units: a card two wide and three high, as its own decks are.
CARD_WIDTH, CARD_HEIGHT = 2, 3
# Foundry sorts cards by `sort`, in steps of 100 000 as its own decks do.
SORT_STEP = 100_000


def _hashed(stem: str, data: bytes) -> str:
    return f"{stem}-{hashlib.sha256(data).hexdigest()[:8]}.jpg"


def _file_stem(text: str) -> str:
    """A card code as part of a file name: letters, digits, '-' and '_' kept, others as their hex code."""
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else f"x{ord(c):x}" for c in text)


def _html(deck: Deck, card: Card) -> str:
    """The card's type line, text and flavour as HTML paragraphs, every character escaped."""
    head = card.type_line + (f" · {card.corner}" if card.corner else "")
    parts = [head, to_plain(card.text, deck), card.flavor.strip()]
    return "".join(f"<p>{html.escape(part).replace(chr(10), '<br>')}</p>" for part in parts if part)


def _value(deck: Deck, card: Card) -> int | None:
    """Foundry's number for a card: its rank's value, else the rank's place in the deck's order."""
    if not card.rank:
        return None
    rank = deck.rank(card.rank)
    return rank.value if rank.value is not None else rank.order + 1


def cards_document(deck: Deck, face_paths: dict[str, str], back_paths: dict[str, str], deck_back: str) -> dict:
    """The Cards document; `face_paths` and `back_paths` by card id (a back only for cards with one of their own)."""
    suits = {suit.id: suit.name for suit in deck.suits}
    cards = []
    for number, card in enumerate(deck.copies(), start=1):
        cards.append({
            "name": card.name, "type": "base", "description": _html(deck, card),
            "suit": suits.get(card.suit or "", ""), "value": _value(deck, card),
            "faces": [{"name": card.name, "text": "", "img": face_paths[card.id]}], "face": 0,
            "back": {"name": "", "text": "", "img": back_paths.get(card.id, deck_back)},
            "drawn": False, "width": CARD_WIDTH, "height": CARD_HEIGHT, "rotation": 0,
            "sort": number * SORT_STEP,
        })
    return {"name": deck.name, "type": "deck", "description": f"<p>{html.escape(to_plain(deck.description, deck))}</p>",
            "img": deck_back, "cards": cards, "width": CARD_WIDTH, "height": CARD_HEIGHT, "rotation": 0,
            "displayCount": True}


def export_foundry(deck: Deck, out_dir: Path, base_url: str | None = None) -> list[Path]:
    """Write the faces, backs and the Cards document to `out_dir/foundry/`; return the paths written."""
    base = check_base_url(base_url) if base_url is not None else None

    def path(name: str) -> str:
        return f"{base}/{quote(name)}" if base else f"cards/{deck.id}/{name}"

    faces = faces_for(deck)
    files: dict[str, bytes] = {}
    face_paths: dict[str, str] = {}
    for card in deck.cards:
        data = faces.jpeg(card)  # kept by a build, which rasterised it for the TTS sheets
        name = _hashed(f"{deck.id}-{_file_stem(card.code)}", data)
        files[name], face_paths[card.id] = data, path(name)
    back = faces.jpeg(None)
    back_name = _hashed(f"{deck.id}-back", back)
    files[back_name] = back
    back_paths: dict[str, str] = {}
    own = own_backs(deck, (deck.card_size.width_mm, deck.card_size.height_mm))
    for card, image in zip(own, faces.images([BackOf(card) for card in own])):
        data = jpeg_bytes(image)
        name = _hashed(f"{deck.id}-back", data)  # cards that share a back share its file
        files[name], back_paths[card.id] = data, path(name)
    document = cards_document(deck, face_paths, back_paths, path(back_name))
    files[f"{deck.id}.json"] = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    return write_export_folder(out_dir / "foundry", files)
