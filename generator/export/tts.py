"""Tabletop Simulator export: deck sheet images and a saved object that loads as one deck per back.

Written under `<out>/tts/` (format: /work/shared/research/export-formats.md §4):

    <deck>.json              saved object: a DeckCustom per back, holding one Card per physical card
    <deck>-sheet-<n>-<hash>.jpg  faces of the distinct cards, at most 10 x 7 cells, under 4096 px
    <deck>-back-<hash>.jpg       the card back
    <deck>-back-<n>-<hash>.jpg   further backs, when kinds or cards have backs of their own

<hash> is the first 8 hex digits of the image's SHA-256: TTS caches an image by its URL
(and Steam Cloud keeps an uploaded file under its name), so a sheet that changes gets a new
name and a new URL, and one that does not keeps both.

    <deck>.png               the thumbnail TTS's Saved Objects browser shows next to the JSON

A sheet holds at most 69 faces, all with the same back (cards with backs of their own get
sheets of their own): its last cell holds that back, the image TTS shows for hidden cards,
and `BackIsHidden` is set too, so either reading shows the back. A deck
with more distinct cards spans several sheets, with consecutive CustomDeck keys from a base
derived from the deck id (two decks on one table never share a key, or they would swap
faces); a card's id is key * 100 + its cell on the sheet (row-major, from 0). Copies share
an id.

Cards the rules set out before play are separate objects beside the deck, face up: the
Quaffle in the centre, the Snitch as the discard pile (`setup.table_setup`).

Without a base URL the images are this computer's files, written the way TTS itself saves a
local image: ``file:///`` and the path as it is, not percent-encoded (compared with a save in
TTS's own shape, Qazzquimby/prototypical-tactics-game tests/integration_test.py:
``"FaceURL": "file:///D:\\Users\\...\\TestHero deck.jpg"``), and the deck's description says so.

The JSON is built as data and written with `json.dumps`, which escapes every string;
there is no template to forget a filter in.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from PIL import Image

from ..deck.markup import to_plain
from ..deck.model import Card, Deck
from ..deck.publish import check_base_url
from ..deck.sizes import pt
from ..faces.cards import back_identity
from ..faces.raster import BackOf, own_backs
from .common import ExportError, kept_for, write_export_folder
from .faces import SHEET_COLUMNS, SHEET_ROWS, faces_for, jpeg_bytes
from .setup import table_setup

MAX_FACES_PER_SHEET = SHEET_COLUMNS * SHEET_ROWS - 1  # 69
UNUSED_CELL = "#ffffff"
# CustomDeck keys: a base from the deck id, in steps of 100 keys (sheets) per deck, kept so
# that every CardID (key * 100 + cell) fits the 32-bit integer TTS stores it in.
KEY_SLOTS = 200_000
SHEETS_PER_DECK = 100
THUMBNAIL_SIZE = 256
LOCAL_IMAGES_NOTE = ("The card images are files on the computer that exported this deck; other players "
                     "see blank cards. Export with --base-url (or [publish] base_url) and host the images "
                     "there to share it.")


@dataclass(frozen=True)
class Sheet:
    key: int  # the CustomDeck key, consecutive from first_key(deck)
    cards: tuple[Card, ...]  # faces in cell order
    columns: int
    rows: int
    back: int = 0  # which back its cards share: 0 the deck's, n the n-th back of their own

    @property
    def hidden_cell(self) -> int:
        return self.columns * self.rows - 1

    def card_id(self, card: Card) -> int:
        return self.key * 100 + self.cards.index(card)

    def stem(self, deck: Deck) -> str:
        return f"{deck.id}-sheet-{self.number}"

    @property
    def number(self) -> int:
        return self.key % SHEETS_PER_DECK + 1


def first_key(deck: Deck) -> int:
    """The deck's first CustomDeck key: the same on every export, different for other decks
    (a collision needs two ids among 200 000 slots)."""
    slot = int.from_bytes(hashlib.sha256(deck.id.encode()).digest()[:8], "big") % KEY_SLOTS
    return (slot + 1) * SHEETS_PER_DECK


def plan_sheets(deck: Deck) -> list[Sheet]:
    """Distinct cards in deck order, 69 to a sheet; each sheet as narrow a grid as holds its
    faces plus the hidden cell, at most 10 wide and 7 high."""
    if len(deck.cards) > MAX_FACES_PER_SHEET * SHEETS_PER_DECK:
        raise ExportError(f"{deck.source or deck.id}: {len(deck.cards)} distinct cards need more than "
                          f"{SHEETS_PER_DECK} Tabletop Simulator sheets")
    base = first_key(deck)
    sheets = []
    for back, group in back_groups(deck):
        for start in range(0, len(group), MAX_FACES_PER_SHEET):
            cards = group[start:start + MAX_FACES_PER_SHEET]
            cells = len(cards) + 1
            columns = min(SHEET_COLUMNS, cells)
            sheets.append(Sheet(base + len(sheets), tuple(cards), columns, math.ceil(cells / columns), back))
    return sheets


def back_groups(deck: Deck) -> list[tuple[int, list[Card]]]:
    """The distinct cards grouped by the back they show: (0, cards with the deck's back),
    then (1, ...), (2, ...) for each back of their own, in deck order."""
    own = {card.id for card in own_backs(deck, (deck.card_size.width_mm, deck.card_size.height_mm))}
    groups: dict[object, list[Card]] = {None: []}
    for card in deck.cards:
        groups.setdefault(_back_key(deck, card) if card.id in own else None, []).append(card)
    numbered = [(number, cards) for number, cards in enumerate(groups.values()) if cards]
    return numbered or [(0, [])]


def _back_key(deck: Deck, card: Card) -> tuple:

    return back_identity(deck, card, pt(deck.card_size.width_mm), pt(deck.card_size.height_mm))


def back_request(sheet: Sheet):
    """What to draw in a sheet's hidden cell: the deck's back (None) or its cards' own back."""
    return None if sheet.back == 0 else BackOf(sheet.cards[0])


def sheet_image(deck: Deck, sheet: Sheet) -> "Image.Image":
    faces = faces_for(deck)
    width, height = faces.size
    image = Image.new("RGB", (sheet.columns * width, sheet.rows * height), UNUSED_CELL)
    cells = [*range(len(sheet.cards)), sheet.hidden_cell]
    for cell, face in zip(cells, faces.images([*sheet.cards, back_request(sheet)])):
        row, column = divmod(cell, sheet.columns)
        image.paste(face, (column * width, row * height))
    return image


def sheet_jpeg(deck: Deck, sheet: Sheet) -> bytes:
    """The sheet as a JPEG, made once per deck: the Tabletop Playground package uses the same
    sheets as its textures, so a build rasterises each face once for both."""
    return kept_for(deck, ("tts-sheet", sheet.key), lambda: jpeg_bytes(sheet_image(deck, sheet)))


def card_description(deck: Deck, card: Card) -> str:
    """What TTS shows under a card's name: type line and corner value, text, flavour."""
    head = card.type_line + (f" · {card.corner}" if card.corner else "")
    parts = [head, to_plain(card.text, deck), card.flavor.strip()]
    return "\n\n".join(part for part in parts if part)


def _guid(deck: Deck, index: int) -> str:
    """Six hex digits, like TTS's own GUIDs, the same on every export of the deck."""
    return hashlib.sha256(f"{deck.id}\0{index}".encode()).hexdigest()[:6]


def _transform(x: float = 0.0, face_up: bool = False, z: float = 0.0) -> dict:
    # On the table at TTS's standard card scale; face down is rotZ 180.
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": 180.0, "rotZ": 0.0 if face_up else 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


# Where set-out cards lie: to the right of the deck, a card's width and a gap apart.
CENTRE_X, DISCARD_X = 3.0, 6.0
# A deck per back: the first where the single deck would be, the others in a row towards the players.
DECK_STEP_Z = -4.0


def saved_object(deck: Deck, sheets: list[Sheet], face_urls: dict[int, str], back_urls: dict[int, str],
                 local: bool = False) -> dict:
    """The saved-object JSON: one face-down pile per back (the deck's own back first), each
    holding its physical cards in deck order, except those the rules set out, which lie beside
    them face up. Each sheet's BackURL is the back its cards share (`back_urls` by `Sheet.back`)."""
    custom = {
        sheet.key: {"FaceURL": face_urls[sheet.key], "BackURL": back_urls[sheet.back], "NumWidth": sheet.columns,
                    "NumHeight": sheet.rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
        for sheet in sheets
    }
    placed = {card.id: (sheet.key, sheet.card_id(card)) for sheet in sheets for card in sheet.cards}
    setup = table_setup(deck)
    set_out = {id(card): x for cards, x in ((setup.centre, CENTRE_X), (setup.discard, DISCARD_X)) for card in cards}

    def card_object(index: int, card: Card, transform: dict) -> dict:
        key, card_id = placed[card.id]
        return {"GUID": _guid(deck, index), "Name": "Card", "Transform": transform,
                "Nickname": card.name, "Description": card_description(deck, card),
                "CardID": card_id, "SidewaysCard": False, "Hands": True,
                "CustomDeck": {str(key): custom[key]}}

    by_back: dict[int, list[tuple[Card, dict]]] = {}
    beside = []
    back_of = {sheet.key: sheet.back for sheet in sheets}
    for index, card in enumerate(deck.copies(), start=1):
        if id(card) in set_out:
            beside.append(card_object(index, card, _transform(set_out.pop(id(card)), face_up=True)))
        else:
            by_back.setdefault(back_of[placed[card.id][0]], []).append((card, card_object(index, card, _transform())))
    description = to_plain(deck.description, deck)
    if local:
        description = f"{description}\n\n{LOCAL_IMAGES_NOTE}"
    piles = [pile_object(deck, number, by_back[back], custom, description, len(by_back) > 1)
             for number, back in enumerate(sorted(by_back))]
    return {"SaveName": "", "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": [*piles, *beside]}


def pile_object(deck: Deck, number: int, pile: list[tuple[Card, dict]], custom: dict[int, dict],
                description: str, several: bool) -> dict:
    """The face-down DeckCustom of the cards that share one back. With several backs each is
    named after its kinds, so players can set each out where the rules say."""
    transform = _transform(z=DECK_STEP_Z * number)
    cards = [card_object for _, card_object in pile]
    kinds = [kind.name for kind in deck.kinds if any(card.kind == kind.id for card, _ in pile)]
    keys = sorted({key for card in cards for key in map(int, card["CustomDeck"])})
    return {
        "GUID": _guid(deck, -number) if number else _guid(deck, 0), "Name": "DeckCustom", "Transform": transform,
        "Nickname": f"{deck.name}: {', '.join(kinds)}" if several and kinds else deck.name,
        "Description": description,
        "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
        "SidewaysCard": False, "HideWhenFaceDown": True, "Hands": False,
        "DeckIDs": [card["CardID"] for card in cards],
        "CustomDeck": {str(key): custom[key] for key in keys},
        "ContainedObjects": cards,
    }


def hashed_name(stem: str, data: bytes) -> str:
    """``<stem>-<hash>.jpg``: the name changes exactly when the image's bytes do."""
    return f"{stem}-{hashlib.sha256(data).hexdigest()[:8]}.jpg"


def local_url(path: Path) -> str:
    """A local image as TTS saves one: file:/// and the absolute path unencoded."""
    return "file:///" + str(path.resolve()).lstrip("/")


def thumbnail(deck: Deck) -> bytes:
    """A square PNG of the card back, for the Saved Objects browser."""
    back = faces_for(deck).images([None])
    [image] = list(back)
    image = image.convert("RGB")
    image.thumbnail((THUMBNAIL_SIZE, THUMBNAIL_SIZE))
    square = Image.new("RGB", (THUMBNAIL_SIZE, THUMBNAIL_SIZE), UNUSED_CELL)
    square.paste(image, ((THUMBNAIL_SIZE - image.width) // 2, (THUMBNAIL_SIZE - image.height) // 2))
    buffer = io.BytesIO()
    square.save(buffer, "PNG", optimize=False)
    return buffer.getvalue()


def export_tts(deck: Deck, out_dir: Path, base_url: str | None = None,
               published_dir: Path | None = None) -> list[Path]:
    """Write the sheets, the back and the saved object to `out_dir/tts/`, replacing any earlier
    export; return the paths written.

    Image URLs are `base_url/<file>` when given (host the files there to share the deck),
    else file:/// URLs of the written files, or of where they will be once `published_dir`
    (the final output folder, when `out_dir` is a build's staging folder) receives them.
    """
    base = check_base_url(base_url) if base_url is not None else None
    final = (published_dir or out_dir) / "tts"

    def url(name: str) -> str:
        return f"{base}/{quote(name)}" if base else local_url(final / name)

    sheets = plan_sheets(deck)
    files: dict[str, bytes] = {}
    sheet_names: dict[int, str] = {}
    for sheet in sheets:
        data = sheet_jpeg(deck, sheet)
        sheet_names[sheet.key] = hashed_name(sheet.stem(deck), data)
        files[sheet_names[sheet.key]] = data
    back_names: dict[int, str] = {}
    for sheet in sheets:
        if sheet.back in back_names:
            continue
        request = back_request(sheet)
        data = faces_for(deck).jpeg(None) if request is None else jpeg_bytes(next(faces_for(deck).images([request])))
        name = hashed_name(f"{deck.id}-back" if sheet.back == 0 else f"{deck.id}-back-{sheet.back}", data)
        back_names[sheet.back] = name
        files[name] = data
    document = saved_object(deck, sheets, {key: url(name) for key, name in sheet_names.items()},
                            {back: url(name) for back, name in back_names.items()}, local=base is None)
    files[f"{deck.id}.png"] = thumbnail(deck)
    files[f"{deck.id}.json"] = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    return write_export_folder(out_dir / "tts", files)
