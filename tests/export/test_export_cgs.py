"""The Card Game Simulator export, read back as CGS reads a game folder, and checked against
the published game definition schema and a real game."""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from generator.deck.loader import load_deck
from tests.conftest import DECKS
from tests.export_support import export, write_deck

DESIGNER = Path(__file__).resolve().parents[2] / "examples" / "designer" / "cauldron-club.toml"
BASE = "https://games.example.org/cauldron"
# The published schema (finol-digital/FinolDigital.Cgs.Json schema/cgs.json, MIT), read from a
# snapshot of that repository where one is on this machine: the project does not carry a copy.
SCHEMA_REPO = Path("/work/.mirror/finol-digital+FinolDigital.Cgs.Json/repo")
# Keys of a real game definition (finol-digital/Card-Game-Simulator docs/games/CenturyOfTrust/
# CenturyOfTrust.json) that a hosted deckgen game writes too, and each card's keys in its AllCards.json.
REAL_GAME_KEYS = {"name", "allCardsUrl", "allSetsUrl", "autoUpdateUrl", "cardBackImageUrl", "cardImageUrl",
                  "cardPrimaryProperty", "cardProperties", "deckUrls"}
REAL_CARD_KEYS = {"id", "name", "set"}


def game(out: Path, deck_id: str) -> Path:
    return out / deck_id / "cgs" / deck_id


def read(folder: Path, name: str):
    return json.loads((folder / name).read_text("utf-8"))


def published_schema() -> dict | None:
    if not SCHEMA_REPO.exists():
        return None
    text = subprocess.run(["git", "--git-dir", str(SCHEMA_REPO), "show", "HEAD:schema/cgs.json"],
                          capture_output=True, text=True, check=True).stdout
    return json.loads(text)


def test_every_card_has_its_face_and_back(tmp_path):
    assert export("cgs", DESIGNER, "-o", tmp_path, "--base-url", BASE) == 0
    deck = load_deck(DESIGNER)
    folder = game(tmp_path, deck.id)
    definition, cards, sets = read(folder, "cgs.json"), read(folder, "AllCards.json"), read(folder, "AllSets.json")
    assert REAL_GAME_KEYS <= set(definition) and definition["name"] == deck.name
    assert definition["autoUpdateUrl"] == f"{BASE}/cgs.json"
    assert sets == [{"code": "DECK", "name": deck.name}]
    backs = {entry["id"]: entry["url"] for entry in definition["cardBackFaceImageUrls"]}
    colour_of_back = {}
    for card, entry in zip(deck.cards, cards):
        assert REAL_CARD_KEYS <= set(entry) and entry["name"] == card.name and entry["set"] == "DECK"
        assert {p["name"] for p in definition["cardProperties"]} <= set(entry)
        url = definition["cardImageUrl"].format(cardSet=entry["set"], cardId=entry["id"], cardImageFileType="jpg")
        face = folder / url.removeprefix(BASE + "/")
        with Image.open(face) as image:
            assert image.format == "JPEG" and image.height > image.width
        [back] = entry["backs"]  # both kinds of the example keep a back of their own
        back_file = folder / backs[back].removeprefix(BASE + "/")
        assert back_file.is_file()
        colour_of_back[card.kind] = Image.open(back_file).convert("RGB").getpixel((10, 10))
    red, green, _ = colour_of_back["ingredient"]
    assert green > red and colour_of_back["ingredient"] != colour_of_back["recipe"]
    lines = (folder / f"decks/{deck.id}.txt").read_text("utf-8").splitlines()
    counts = Counter()
    for line in lines[1:]:
        count, card_id, name = line.split(" ", 2)
        counts[name] += int(count)
        assert card_id.strip("[]") in {entry["id"] for entry in cards}
    assert counts == Counter(card.name for card in deck.copies())


def test_the_definition_validates_against_the_published_schema(tmp_path):
    schema = published_schema()
    if schema is None:
        pytest.skip(f"no snapshot of finol-digital/FinolDigital.Cgs.Json at {SCHEMA_REPO}")
    import jsonschema

    for deck_path, base in ((DECKS / "wizard.toml", None), (DESIGNER, BASE)):
        arguments = ["cgs", deck_path, "-o", tmp_path] + (["--base-url", base] if base else [])
        assert export(*arguments) == 0
        definition = read(game(tmp_path, load_deck(deck_path).id), "cgs.json")
        jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker()).validate(definition)
    broken = dict(definition, cardSize={"x": "wide"})
    with pytest.raises(jsonschema.ValidationError):  # the schema is strict enough to catch a wrong field
        jsonschema.Draft4Validator(schema).validate(broken)


def test_a_local_folder_is_never_updated_from_the_net(tmp_path):
    assert export("cgs", DECKS / "wizard.toml", "-o", tmp_path) == 0
    definition = read(game(tmp_path, "wizard"), "cgs.json")
    assert definition["autoUpdate"] == -1 and not any(key.endswith("Url") for key in definition)


def test_a_name_with_a_line_break_is_refused_naming_the_card(tmp_path, capsys):
    write_deck(tmp_path, "hostile", [{"name": "Two\nLines", "code": "H1", "kind": "thing"}])
    assert export("cgs", tmp_path / "hostile.toml", "-o", tmp_path / "out") == 1
    err = capsys.readouterr().err
    assert "'Two'" in err and "H1" in err and "line break" in err and "Traceback" not in err
    assert not (tmp_path / "out" / "hostile" / "cgs").exists()
