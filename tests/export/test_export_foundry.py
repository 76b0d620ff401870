"""The Foundry VTT export, read back as Foundry's "Import Data" reads a Cards document."""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections import Counter
from pathlib import Path

from PIL import Image

from generator.deck.loader import load_deck
from tests.conftest import DECKS
from tests.export_support import export, write_deck

DESIGNER = Path(__file__).resolve().parents[2] / "examples" / "designer" / "cauldron-club.toml"
# The keys of a Cards document and of each card in one, as Foundry exports a deck
# (shradee/card-deck-initiative scripts/data.js, a standard 52-card deck).
DOCUMENT_KEYS = {"name", "type", "description", "img", "cards"}
CARD_KEYS = {"name", "faces", "width", "height", "rotation", "type", "value", "suit", "face", "drawn", "sort", "back"}
FACE_KEYS = {"name", "text", "img"}


def read_document(out: Path, deck_id: str) -> dict:
    return json.loads((out / deck_id / "foundry" / f"{deck_id}.json").read_text("utf-8"))


def image_file(out: Path, deck_id: str, img: str) -> Path:
    """The written file a local image path names (cards/<deck>/<file>), its hash checked."""
    assert img.startswith(f"cards/{deck_id}/"), img
    name = img.rsplit("/", 1)[1]
    file = out / deck_id / "foundry" / name
    digest = re.fullmatch(r".+-([0-9a-f]{8})\.jpg", name)[1]
    assert hashlib.sha256(file.read_bytes()).hexdigest()[:8] == digest
    return file


def test_every_card_of_a_shipped_deck_has_its_face_and_the_back(tmp_path):
    assert export("foundry", DECKS / "wizard.toml", "-o", tmp_path) == 0
    deck = load_deck(DECKS / "wizard.toml")
    document = read_document(tmp_path, "wizard")
    assert DOCUMENT_KEYS <= set(document) and document["type"] == "deck"
    cards = document["cards"]
    assert Counter(card["name"] for card in cards) == Counter(card.name for card in deck.copies())
    assert len(cards) == deck.total == 60
    faces = {}
    for card, entry in zip(deck.copies(), cards):
        assert set(entry) >= CARD_KEYS and entry["type"] == "base" and entry["face"] == 0
        [face] = entry["faces"]
        assert set(face) == FACE_KEYS and face["name"] == card.name
        faces.setdefault(card.id, set()).add(face["img"])
        assert entry["back"]["img"] == document["img"]
        with Image.open(image_file(tmp_path, "wizard", face["img"])) as image:
            assert image.format == "JPEG" and image.height > image.width
        if card.suit:
            assert entry["suit"] == deck.suit(card.suit).name and isinstance(entry["value"], int)
    assert all(len(paths) == 1 for paths in faces.values())  # copies share their face
    assert len({next(iter(paths)) for paths in faces.values()}) == len(deck.cards)  # distinct cards, distinct faces
    assert [entry["sort"] for entry in cards] == sorted(entry["sort"] for entry in cards)
    image_file(tmp_path, "wizard", document["img"])


def test_kinds_keep_their_own_backs(tmp_path):
    assert export("foundry", DESIGNER, "-o", tmp_path) == 0
    deck = load_deck(DESIGNER)
    document = read_document(tmp_path, deck.id)
    backs: dict[str, set[str]] = {}
    for card, entry in zip(deck.copies(), document["cards"]):
        backs.setdefault(card.kind, set()).add(entry["back"]["img"])
    assert all(len(paths) == 1 for paths in backs.values()) and backs["ingredient"] != backs["recipe"]
    for kind, paths in backs.items():
        with Image.open(image_file(tmp_path, deck.id, next(iter(paths)))) as image:
            red, green, _blue = image.convert("RGB").getpixel((10, 10))
        assert (green > red) == (kind == "ingredient")  # ingredients green, recipes red


def test_text_is_escaped_for_html_and_json(tmp_path):
    name = 'Tab\tQuote" <b>&amp; ;%[x]'
    write_deck(tmp_path, "hostile", [{"name": name, "code": "H1", "kind": "thing", "text": "a < b & \"c\""}])
    assert export("foundry", tmp_path / "hostile.toml", "-o", tmp_path / "out") == 0
    [entry] = read_document(tmp_path / "out", "hostile")["cards"]
    assert entry["name"] == name and entry["faces"][0]["name"] == name
    assert "<b>" not in entry["description"] and html.escape('a < b & "c"') in entry["description"]


def test_hosted_images_and_a_bad_base_url(tmp_path, capsys):
    base = "https://cdn.example.org/decks/wizard"
    assert export("foundry", DECKS / "wizard.toml", "-o", tmp_path, "--base-url", base) == 0
    document = read_document(tmp_path, "wizard")
    assert all(entry["faces"][0]["img"].startswith(base + "/wizard-") for entry in document["cards"])
    assert document["img"].startswith(base + "/wizard-back-")
    assert export("foundry", DECKS / "wizard.toml", "-o", tmp_path / "bad", "--base-url", "javascript:x") == 2
    assert "--base-url" in capsys.readouterr().err
