"""Card Game Simulator export: a custom game folder, as CGS keeps one in its games directory.

Written under `<out>/cgs/<deck>/` (the layout of FinolDigital.Cgs.Json's README):

    cgs.json                     the game definition (FinolDigital.Cgs.Json schema/cgs.json)
    AllCards.json                every distinct card: id, name, set, its properties, `backs`
    AllSets.json                 the one set, the deck
    CardBack.jpg                 the deck's back
    backs/<back id>.jpg          each back of its own that cards have (a kind's back)
    sets/<SET>/<card id>.jpg     each card's face
    decks/<deck>.txt             the deck in CGS's txt format: `<count> [<card id>] <name>`

The definition's keys and values follow the published schema (`tests/export/test_export_cgs.py`
validates it with `jsonschema` against schema/cgs.json where the schema is at hand, and compares
it field by field with the Century of Trust game in finol-digital/Card-Game-Simulator
docs/games). Cards that keep a back of their own name it in `backs`, whose ids
`cardBackFaceImageUrls` lists. With a base URL, every file is also named by its URL
(`autoUpdateUrl`, `allCardsUrl`, `cardImageUrl`, ...) so CGS can install and update the game from
`<base>/cgs.json`; without, `autoUpdate` is -1 and the folder is copied into CGS's games folder.

CGS reads a deck file line by line, so a card name with a line break is refused (naming the card);
everything else goes in as it is, and the JSON is written with `json.dumps`.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from urllib.parse import quote

from ..deck.markup import to_plain
from ..deck.model import Card, Deck
from ..deck.publish import check_base_url
from ..faces.raster import BackOf, own_backs
from .common import ExportError, write_export_folder
from .faces import faces_for, jpeg_bytes

IMAGE_TYPE = "jpg"
SET_CODE = "DECK"
# The properties every card carries, as (name, display name); `text` is shown first.
PROPERTIES = (("text", "Text"), ("type", "Type"), ("kind", "Kind"), ("suit", "Suit"), ("rank", "Rank"),
              ("corner", "Corner"), ("flavor", "Flavour"))


def card_id(card: Card) -> str:
    """The card's id in CGS, also its image's file name: letters, digits, '-' and '_' of its code."""
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else f"x{ord(c):x}" for c in card.code)


def _back_id(data: bytes) -> str:
    return f"back-{hashlib.sha256(data).hexdigest()[:8]}"


def _properties(deck: Deck, card: Card) -> dict[str, str]:
    suits = {suit.id: suit.name for suit in deck.suits}
    kinds = {kind.id: kind.name for kind in deck.kinds}
    values = {"text": to_plain(card.text, deck), "type": card.type_line, "kind": kinds.get(card.kind, card.kind),
              "suit": suits.get(card.suit or "", ""), "rank": card.rank or "", "corner": card.corner,
              "flavor": card.flavor.strip()}
    return {name: values[name] for name, _ in PROPERTIES}


def deck_text(deck: Deck, ids: dict[str, str]) -> str:
    """The deck file: a heading, then `<count> [<id>] <name>` for each distinct card."""
    lines = [f"### {deck.name}"]
    for card in deck.cards:
        if "\n" in card.name or "\r" in card.name:
            raise ExportError(f"{deck.source or deck.id}: card {card.name.splitlines()[0]!r}... ({card.code}): "
                              "its name has a line break; Card Game Simulator's deck files take one card a line")
        lines.append(f"{card.count} [{ids[card.id]}] {card.name}")
    if "\n" in deck.name or "\r" in deck.name:
        raise ExportError(f"{deck.source or deck.id}: the deck name has a line break; Card Game Simulator "
                          "shows it as one line")
    return "\n".join(lines) + "\n"


def game_files(deck: Deck, base_url: str | None = None) -> dict[str, bytes]:
    """The game folder's files by path inside it."""
    base = check_base_url(base_url) if base_url is not None else None

    def url(path: str) -> str:
        return f"{base}/{quote(path)}"

    faces = faces_for(deck)
    ids = {card.id: card_id(card) for card in deck.cards}
    clashes = [card for card in deck.cards if list(ids.values()).count(ids[card.id]) > 1]
    if clashes:
        raise ExportError(f"{deck.source or deck.id}: cards {', '.join(repr(c.code) for c in clashes)} get the same "
                          "Card Game Simulator id; give them codes that differ in letters or digits")
    files: dict[str, bytes] = {}
    for card in deck.cards:
        files[f"sets/{SET_CODE}/{ids[card.id]}.{IMAGE_TYPE}"] = faces.jpeg(card)
    files[f"CardBack.{IMAGE_TYPE}"] = faces.jpeg(None)
    backs: dict[str, str] = {}
    own = own_backs(deck, (deck.card_size.width_mm, deck.card_size.height_mm))
    for card, image in zip(own, faces.images([BackOf(card) for card in own])):
        data = jpeg_bytes(image)
        backs[card.id] = _back_id(data)
        files[f"backs/{backs[card.id]}.{IMAGE_TYPE}"] = data
    all_cards = []
    for card in deck.cards:
        entry = {"id": ids[card.id], "name": card.name, "set": SET_CODE, **_properties(deck, card)}
        if card.id in backs:
            entry["backs"] = [backs[card.id]]
        all_cards.append(entry)
    deck_file = f"decks/{deck.id}.txt"
    files[deck_file] = deck_text(deck, ids).encode("utf-8")
    files["AllCards.json"] = _json(all_cards)
    files["AllSets.json"] = _json([{"code": SET_CODE, "name": deck.name}])
    files["cgs.json"] = _json(game_definition(deck, sorted(set(backs.values())), url if base else None, deck_file))
    return files


def game_definition(deck: Deck, back_ids: list[str], url, deck_file: str) -> dict:
    """cgs.json; `url(path)` gives a file's hosted address, or is None for a folder copied by hand."""
    names = [card.name for card in deck.cards]
    definition: dict = {
        "name": deck.name,
        "copyright": deck.designer,
        "cardSize": {"x": round(deck.card_size.width_mm / 25.4, 3), "y": round(deck.card_size.height_mm / 25.4, 3)},
        "cardImageFileType": IMAGE_TYPE, "cardBackImageFileType": IMAGE_TYPE,
        "cardIdIdentifier": "id", "cardNameIdentifier": "name", "cardSetIdentifier": "set",
        "cardNameIsUnique": len(set(names)) == len(names), "deckFileTxtId": "id", "deckFileType": "txt",
        "cardPrimaryProperty": "text",
        "cardProperties": [{"name": name, "display": display, "type": "string"} for name, display in PROPERTIES],
        "setCodeDefault": SET_CODE, "setNameDefault": deck.name,
    }
    if url is None:
        definition["autoUpdate"] = -1
        return definition
    definition.update({
        "autoUpdate": 1, "autoUpdateUrl": url("cgs.json"),
        "allCardsUrl": url("AllCards.json"), "allSetsUrl": url("AllSets.json"),
        "cardBackImageUrl": url(f"CardBack.{IMAGE_TYPE}"),
        "cardImageUrl": url("sets") + "/{cardSet}/{cardId}.{cardImageFileType}",
        "deckUrls": [{"name": deck.name, "url": url(deck_file)}],
    })
    if back_ids:
        definition["cardBackFaceImageUrls"] = [{"id": back, "url": url(f"backs/{back}.{IMAGE_TYPE}")}
                                               for back in back_ids]
    return definition


def _json(value) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def export_cgs(deck: Deck, out_dir: Path, base_url: str | None = None) -> list[Path]:
    """Write the game folder to `out_dir/cgs/<deck>/`, replacing an earlier one; return the paths written."""
    return write_export_folder(out_dir / "cgs" / deck.id, game_files(deck, base_url))
