"""The playingcards.io / virtualtabletop.io export, read back as virtualtabletop's importer
(ArnoldSmith86/virtualtabletop server/pcioimport.mjs) reads a playingcards.io room zip."""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from collections import Counter
from pathlib import Path

from PIL import Image

from generator.deck.loader import load_deck
from tests.conftest import DECKS
from tests.export_support import export, write_deck

DESIGNER = Path(__file__).resolve().parents[2] / "examples" / "designer" / "cauldron-club.toml"
MAX_ASSET_BYTES = 2 * 1024 * 1024  # the importer skips user assets of this size or more


def read_room(out: Path, deck_id: str) -> tuple[list[dict], dict[str, bytes]]:
    """(widgets.json, the images by the `package://` name widgets use), checked as the importer takes them."""
    with zipfile.ZipFile(out / deck_id / "vtt" / f"{deck_id}.pcio.zip") as archive:
        names = archive.namelist()
        widgets = json.loads(archive.read("widgets.json").decode("utf-8"))
        assets = {f"package://{name}": archive.read(name) for name in names if name.startswith("userassets/")}
    assert set(names) == {"widgets.json", *(name.removeprefix("package://") for name in assets)}
    for name, data in assets.items():
        assert len(data) < MAX_ASSET_BYTES
        assert re.fullmatch(r"package://userassets/[a-z0-9-]+-([0-9a-f]{8})\.jpg", name)[1] == \
            hashlib.sha256(data).hexdigest()[:8]
    return widgets, assets


def faces_and_backs(widgets: list[dict], assets: dict[str, bytes]) -> list[tuple[str, bytes, bytes, dict]]:
    """Each card widget as the importer builds it: (name, face image, back image, the widget)."""
    by_id = {widget["id"]: widget for widget in widgets}
    assert len(by_id) == len(widgets)  # ids unique
    cards = []
    for widget in widgets:
        if widget["type"] != "card":
            continue
        deck = by_id[widget["deck"]]
        assert deck["type"] == "cardDeck" and by_id[widget["parent"]]["type"] == "cardPile"
        assert by_id[deck["parent"]]["type"] == "cardPile"
        card_type = deck["cardTypes"][widget["cardType"]]
        [face_object] = deck["faceTemplate"]["objects"]
        [back_object] = deck["backTemplate"]["objects"]
        assert face_object["valueType"] == "dynamic" and face_object["value"] == "image"
        cards.append((card_type["label"], assets[card_type["image"]], assets[back_object["value"]], widget))
    return cards


def test_quidditch_v2_is_laid_out_as_its_rules_set_it_up(tmp_path):
    assert export("vtt", DECKS / "quidditch-v2.toml", "-o", tmp_path) == 0
    deck = load_deck(DECKS / "quidditch-v2.toml")
    widgets, assets = read_room(tmp_path, deck.id)
    cards = faces_and_backs(widgets, assets)
    assert Counter(name for name, *_ in cards) == Counter(card.name for card in deck.copies())
    face_up = {name: widget["parent"] for name, _, _, widget in cards if widget["faceup"]}
    assert face_up == {"Quaffle": "centre", "Golden Snitch": "discard"}
    assert {widget["label"] for widget in widgets if widget["type"] == "cardPile"} == {"Draw", "Centre", "Discard"}
    faces_by_name: dict[str, set[bytes]] = {}
    for name, face, back, _ in cards:
        faces_by_name.setdefault(name, set()).add(face)
        with Image.open(io.BytesIO(face)) as image, Image.open(io.BytesIO(back)) as back_image:
            assert image.format == back_image.format == "JPEG" and image.size == back_image.size
    assert all(len(images) == 1 for images in faces_by_name.values())
    assert len({next(iter(images)) for images in faces_by_name.values()}) == len(faces_by_name)


def test_each_back_has_its_pile_and_deck(tmp_path):
    assert export("vtt", DESIGNER, "-o", tmp_path) == 0
    deck = load_deck(DESIGNER)
    widgets, assets = read_room(tmp_path, deck.id)
    kind_of = {card.name: card.kind for card in deck.cards}
    backs: dict[str, set[bytes]] = {}
    for name, _face, back, _ in faces_and_backs(widgets, assets):
        backs.setdefault(kind_of[name], set()).add(back)
    assert all(len(images) == 1 for images in backs.values()) and backs["ingredient"] != backs["recipe"]
    for kind, images in backs.items():
        red, green, _blue = Image.open(io.BytesIO(next(iter(images)))).convert("RGB").getpixel((10, 10))
        assert (green > red) == (kind == "ingredient")
    assert [w["label"] for w in widgets if w["type"] == "cardPile"] == ["Ingredient", "Recipe"]


def test_names_with_every_awkward_character_stay_whole(tmp_path):
    name = 'Tab\tQuote" <b>%[x];, ünï ✓'
    write_deck(tmp_path, "hostile", [{"name": name, "code": "H1", "kind": "thing"}])
    assert export("vtt", tmp_path / "hostile.toml", "-o", tmp_path / "out") == 0
    widgets, assets = read_room(tmp_path / "out", "hostile")
    [(label, *_)] = faces_and_backs(widgets, assets)
    assert label == name


def test_the_same_deck_gives_the_same_bytes(tmp_path):
    for run in ("a", "b"):
        assert export("vtt", DECKS / "wizard.toml", "-o", tmp_path / run) == 0
    first, second = ((tmp_path / run / "wizard" / "vtt" / "wizard.pcio.zip").read_bytes() for run in ("a", "b"))
    assert first == second
