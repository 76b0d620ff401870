"""The Tabletop Simulator export, read back: the saved object's ids against the sheets' grids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from generator.loader import load_deck
from generator.markup import to_plain

from .conftest import DECK_PATHS
from .export_support import deck_ids, export, file_url_path, real_exports, write_deck  # noqa: F401 (fixture)


def saved_deck(folder: Path, deck_id: str) -> dict:
    document = json.loads((folder / deck_id / "tts" / f"{deck_id}.json").read_text("utf-8"))
    [deck_object] = document["ObjectStates"]
    assert deck_object["Name"] == "DeckCustom"
    return deck_object


def check_against_sheets(deck_object: dict, expected_cards: list[tuple[str, str]]) -> None:
    """Ids, names and texts against the deck; every id against the grid of the sheet it names."""
    cards = deck_object["ContainedObjects"]
    assert [(c["Nickname"], c["Description"]) for c in cards] == expected_cards
    assert deck_object["DeckIDs"] == [c["CardID"] for c in cards]
    custom = deck_object["CustomDeck"]
    assert sorted(custom, key=int) == [str(key) for key in range(1, len(custom) + 1)]
    back_path = file_url_path(next(iter(custom.values()))["BackURL"])
    back = Image.open(back_path).convert("RGB")
    width, height = back.size
    for key, entry in custom.items():
        assert 1 <= entry["NumWidth"] <= 10 and 1 <= entry["NumHeight"] <= 7
        assert entry["BackIsHidden"] is True
        with Image.open(file_url_path(entry["FaceURL"])) as sheet:
            assert sheet.mode == "RGB" and max(sheet.size) <= 4096
            assert sheet.size == (entry["NumWidth"] * width, entry["NumHeight"] * height)
            hidden = entry["NumWidth"] * entry["NumHeight"] - 1
            row, column = divmod(hidden, entry["NumWidth"])
            cell = sheet.convert("RGB").crop((column * width, row * height, (column + 1) * width, (row + 1) * height))
            assert max(ImageStat.Stat(ImageChops.difference(cell, back)).mean) < 8  # the back, up to JPEG noise
    for card in cards:
        key, index = divmod(card["CardID"], 100)
        entry = custom[str(key)]
        assert card["CustomDeck"] == {str(key): entry}
        assert index < entry["NumWidth"] * entry["NumHeight"] - 1  # never the hidden cell


@pytest.mark.parametrize("deck_path", DECK_PATHS, ids=deck_ids())
def test_saved_object_matches_deck_and_sheets(real_exports, deck_path):
    deck = load_deck(deck_path)
    deck_object = saved_deck(real_exports, deck.id)
    assert deck_object["Nickname"] == deck.name
    expected = []
    for card in deck.copies():
        description = deck_object["ContainedObjects"][len(expected)]["Description"]
        assert card.type_line in description and to_plain(card.text, deck) in description
        expected.append((card.name, description))
    check_against_sheets(deck_object, expected)
    distinct_ids = {c["CardID"] for c in deck_object["ContainedObjects"]}
    assert len(distinct_ids) == len(deck.cards)


def test_a_deck_of_more_than_69_faces_spans_sheets(tmp_path):
    cards = [{"name": f"Card {n}", "code": f"C{n}", "kind": "thing", "count": 1 + n % 2} for n in range(75)]
    write_deck(tmp_path, "big", cards)
    assert export("tts", tmp_path / "big.toml", "-o", tmp_path / "out") == 0
    deck_object = saved_deck(tmp_path / "out", "big")
    custom = deck_object["CustomDeck"]
    assert (custom["1"]["NumWidth"], custom["1"]["NumHeight"]) == (10, 7)
    assert (custom["2"]["NumWidth"], custom["2"]["NumHeight"]) == (7, 1)
    ids = sorted(set(deck_object["DeckIDs"]))
    assert ids == list(range(100, 169)) + list(range(200, 206))
    assert len(deck_object["DeckIDs"]) == sum(1 + n % 2 for n in range(75))
    expected = [(f"Card {n}", "Thing") for n in range(75) for _ in range(1 + n % 2)]
    check_against_sheets(deck_object, expected)


def test_base_url_names_the_hosted_sheets(tmp_path):
    base = "https://cdn.example.org/decks/wizard-tts/"
    assert export("tts", DECK_PATHS[0], "-o", tmp_path, "--base-url", base) == 0
    deck = load_deck(DECK_PATHS[0])
    for key, entry in saved_deck(tmp_path, deck.id)["CustomDeck"].items():
        assert entry["FaceURL"] == f"{base}{deck.id}-sheet-{key}.jpg"
        assert entry["BackURL"] == f"{base}{deck.id}-back.jpg"
        assert (tmp_path / deck.id / "tts" / f"{deck.id}-sheet-{key}.jpg").is_file()


def test_a_base_url_that_is_not_http_is_refused(tmp_path, capsys):
    assert export("tts", DECK_PATHS[0], "-o", tmp_path, "--base-url", "javascript:alert(1)") == 2
    assert "--base-url" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())
