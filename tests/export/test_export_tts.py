"""The Tabletop Simulator export, read back: the saved object's ids against the sheets' grids."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from generator.deck.loader import load_deck
from generator.deck.markup import to_plain

from tests.conftest import DECK_PATHS
from tests.export_support import deck_ids, export, file_url_path, real_exports, write_deck  # noqa: F401 (fixture)


def saved_objects(folder: Path, deck_id: str) -> list[dict]:
    return json.loads((folder / deck_id / "tts" / f"{deck_id}.json").read_text("utf-8"))["ObjectStates"]


def saved_deck(folder: Path, deck_id: str) -> dict:
    deck_object, *_set_out = saved_objects(folder, deck_id)
    assert deck_object["Name"] == "DeckCustom"
    return deck_object


def check_against_sheets(deck_object: dict, expected_cards: list[tuple[str, str]]) -> None:
    """Ids, names and texts against the deck; every id against the grid of the sheet it names."""
    cards = deck_object["ContainedObjects"]
    assert [(c["Nickname"], c["Description"]) for c in cards] == expected_cards
    assert deck_object["DeckIDs"] == [c["CardID"] for c in cards]
    custom = deck_object["CustomDeck"]
    first = min(map(int, custom))
    assert sorted(custom, key=int) == [str(key) for key in range(first, first + len(custom))]
    assert first % 100 == 0 and max(map(int, custom)) * 100 + 99 < 2**31  # CardIDs fit an int32
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
    set_out = {c["Nickname"] for c in saved_objects(real_exports, deck.id)[1:]}
    expected = []
    for card in deck.copies():
        if card.name in set_out:
            set_out.remove(card.name)  # one copy lies beside the deck
            continue
        description = deck_object["ContainedObjects"][len(expected)]["Description"]
        assert card.type_line in description and to_plain(card.text, deck) in description
        expected.append((card.name, description))
    check_against_sheets(deck_object, expected)
    objects = saved_objects(real_exports, deck.id)
    distinct_ids = {c["CardID"] for c in deck_object["ContainedObjects"]} | {c["CardID"] for c in objects[1:]}
    assert len(distinct_ids) == len(deck.cards)


def test_a_deck_of_more_than_69_faces_spans_sheets(tmp_path):
    cards = [{"name": f"Card {n}", "code": f"C{n}", "kind": "thing", "count": 1 + n % 2} for n in range(75)]
    write_deck(tmp_path, "big", cards)
    assert export("tts", tmp_path / "big.toml", "-o", tmp_path / "out") == 0
    deck_object = saved_deck(tmp_path / "out", "big")
    custom = deck_object["CustomDeck"]
    first, second = sorted(custom, key=int)
    assert int(second) == int(first) + 1
    assert (custom[first]["NumWidth"], custom[first]["NumHeight"]) == (10, 7)
    assert (custom[second]["NumWidth"], custom[second]["NumHeight"]) == (7, 1)
    ids = sorted(set(deck_object["DeckIDs"]))
    base = int(first) * 100
    assert ids == list(range(base, base + 69)) + list(range(base + 100, base + 106))
    assert len(deck_object["DeckIDs"]) == sum(1 + n % 2 for n in range(75))
    expected = [(f"Card {n}", "Thing") for n in range(75) for _ in range(1 + n % 2)]
    check_against_sheets(deck_object, expected)


def test_base_url_names_the_hosted_sheets(tmp_path):
    base = "https://cdn.example.org/decks/wizard-tts/"
    assert export("tts", DECK_PATHS[0], "-o", tmp_path, "--base-url", base) == 0
    deck = load_deck(DECK_PATHS[0])
    deck_object = saved_deck(tmp_path, deck.id)
    assert "local" not in deck_object["Description"]
    folder = tmp_path / deck.id / "tts"
    for number, (key, entry) in enumerate(sorted(deck_object["CustomDeck"].items()), start=1):
        assert hosted_file(entry["FaceURL"], base, folder, f"{deck.id}-sheet-{number}")
        assert hosted_file(entry["BackURL"], base, folder, f"{deck.id}-back")


def hosted_file(url: str, base: str, folder, stem: str) -> bool:
    """The URL is base + <stem>-<hash>.jpg, that file was written, and <hash> is its content's."""
    match = re.fullmatch(re.escape(base + stem) + r"-([0-9a-f]{8})\.jpg", url)
    assert match, url
    data = (folder / url[len(base):]).read_bytes()
    return hashlib.sha256(data).hexdigest()[:8] == match[1]


def test_a_changed_sheet_gets_a_new_url_and_an_unchanged_one_keeps_its_own(tmp_path):
    """TTS caches images by URL: only the sheet whose card changed may change its address."""
    cards = [{"name": f"Card {n}", "code": f"C{n}", "kind": "thing"} for n in range(75)]
    write_deck(tmp_path, "cached", cards)
    base = "https://cdn.example.org/cached/"
    assert export("tts", tmp_path / "cached.toml", "-o", tmp_path / "one", "--base-url", base) == 0
    cards[70] = {"name": "Card 70, reworded", "code": "C70", "kind": "thing"}  # on the second sheet
    write_deck(tmp_path, "cached", cards)
    assert export("tts", tmp_path / "cached.toml", "-o", tmp_path / "two", "--base-url", base) == 0
    before, after = (sorted(saved_deck(tmp_path / run, "cached")["CustomDeck"].items()) for run in ("one", "two"))
    assert [entry["FaceURL"] for _, entry in before][0] == [entry["FaceURL"] for _, entry in after][0]
    assert [entry["FaceURL"] for _, entry in before][1] != [entry["FaceURL"] for _, entry in after][1]
    assert before[0][1]["BackURL"] == after[0][1]["BackURL"]


def test_a_base_url_that_is_not_http_is_refused(tmp_path, capsys):
    assert export("tts", DECK_PATHS[0], "-o", tmp_path, "--base-url", "javascript:alert(1)") == 2
    assert "--base-url" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_quidditch_v2_sets_out_the_quaffle_and_the_snitch(real_exports):
    """Rules qv2.setup: the Quaffle face up in the centre and the Snitch as the discard pile,
    each a Card object of its own beside the face-down deck, with the deck's CustomDeck entry."""
    deck_object, *beside = saved_objects(real_exports, "quidditch-v2")
    assert [(o["Name"], o["Nickname"], o["Transform"]["rotZ"]) for o in beside] == [
        ("Card", "Quaffle", 0.0), ("Card", "Golden Snitch", 0.0)]
    assert deck_object["Transform"]["rotZ"] == 180.0 and len(deck_object["DeckIDs"]) == 54
    for card in beside:
        [(key, entry)] = card["CustomDeck"].items()
        assert deck_object["CustomDeck"][key] == entry and card["CardID"] // 100 == int(key)
    assert beside[0]["Transform"]["posX"] != beside[1]["Transform"]["posX"] != deck_object["Transform"]["posX"]
    assert len(saved_objects(real_exports, "wizard")) == 1


def test_each_deck_has_its_own_custom_deck_keys(real_exports):
    keys = {deck_id: set(saved_deck(real_exports, deck_id)["CustomDeck"]) for deck_id in deck_ids()}
    seen: set[str] = set()
    for deck_keys in keys.values():
        assert not deck_keys & seen
        seen |= deck_keys


def test_local_images_are_written_as_tts_saves_them(real_exports):
    deck_object = saved_deck(real_exports, "wizard")
    assert "files on the computer that exported this deck" in deck_object["Description"]
    entry = next(iter(deck_object["CustomDeck"].values()))
    # file:/// and the plain path, as in TTS's own saves (no %20 for a space).
    [sheet] = (real_exports / "wizard" / "tts").glob("wizard-sheet-1-*.jpg")
    assert entry["FaceURL"] == "file:///" + str(sheet.resolve()).lstrip("/")


def test_local_paths_with_spaces_are_not_percent_encoded(tmp_path):
    write_deck(tmp_path, "spaced", [{"name": "A", "code": "A", "kind": "thing"}])
    out = tmp_path / "my decks"
    assert export("tts", tmp_path / "spaced.toml", "-o", out) == 0
    entry = next(iter(saved_deck(out, "spaced")["CustomDeck"].values()))
    assert "/my decks/spaced/tts/spaced-sheet-1-" in entry["FaceURL"] and "%20" not in entry["FaceURL"]
    assert file_url_path(entry["FaceURL"]).is_file()


def test_a_thumbnail_png_lies_next_to_the_saved_object(real_exports):
    for deck_id in deck_ids():
        with Image.open(real_exports / deck_id / "tts" / f"{deck_id}.png") as thumbnail:
            assert thumbnail.format == "PNG" and thumbnail.size == (256, 256)
