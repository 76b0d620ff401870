"""Bad input across every export: card names, card texts and deck names holding the characters
that matter in some format (tabs, quotes, %, [, ], ;, commas, line breaks, text outside
Latin-1, very long names). Each export either carries the text through whole (read back from
the file as the table reads it) or refuses it with exit 1 and a message naming the card or
deck, no traceback, and the output folder exactly as it was before."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

import pytest

from tests.export_support import HOSTILE, hostile_deck, read_carddata, tree

# The deck is named after the card, so deck names are tried too; a long deck name is refused by
# every export that draws the card back (the name no longer fits it), so the long card name is
# tried in a deck of a plain name, where it is the card that must be named.
DECK_NAMES = {case: f"Deck {text}" for case, text in HOSTILE.items()} | {"long": "Hostile"}
FORMATS = ("lackey", "tts", "foundry", "vtt", "ttp", "cgs", "cards", "mush")
# The formats that must carry a case through whole: JSON holds any string, so the JSON exports
# never refuse quotes, %, brackets or separators.
JSON_FORMATS = ("tts", "foundry", "vtt", "ttp", "cgs")
MUST_KEEP = {(fmt, case) for fmt in JSON_FORMATS for case in ("quotes", "percent", "brackets", "separators")}
MUST_KEEP |= {("cards", case) for case in HOSTILE}  # a spreadsheet cell holds any text
MUST_KEEP |= {("lackey", case) for case in ("quotes", "percent", "brackets", "separators")}
# MUSHcode escapes every character of a name but a too long one (read back from TinyMUX in
# test_export_cli.py::test_bad_input_cases_read_back_whole_from_a_real_mush_server).
MUST_KEEP |= {("mush", case) for case in HOSTILE if case != "long"}
# ...and the limits each format states: Lackey's files are tab-separated lines, CGS's deck file
# is one card a line; a card name too long to fit its face is refused by every export that draws
# the faces, and by the MUSH table, which lists hands on one line.
MUST_REFUSE = {("lackey", "tab"), ("lackey", "newline"), ("cgs", "newline")}
MUST_REFUSE |= {(fmt, "long") for fmt in FORMATS if fmt != "cards"}


def names_read_back(fmt: str, out: Path) -> tuple[set[str], str | None]:
    """(the card names the export holds, its deck name where it keeps one), read as the table reads them."""
    root = out / "hostile"
    if fmt == "lackey":
        _, rows = read_carddata(root / "lackey" / "hostile" / "sets" / "carddata.txt")
        return {row[0] for row in rows}, None
    if fmt == "tts":
        piles = json.loads((root / "tts" / "hostile.json").read_text("utf-8"))["ObjectStates"]
        return {card["Nickname"] for card in piles[0]["ContainedObjects"]}, piles[0]["Nickname"]
    if fmt == "foundry":
        document = json.loads((root / "foundry" / "hostile.json").read_text("utf-8"))
        return {card["name"] for card in document["cards"]}, document["name"]
    if fmt == "vtt":
        with zipfile.ZipFile(root / "vtt" / "hostile.pcio.zip") as archive:
            widgets = json.loads(archive.read("widgets.json"))
        return {t["label"] for w in widgets if w["type"] == "cardDeck" for t in w["cardTypes"].values()}, None
    if fmt == "ttp":
        package = root / "ttp" / "hostile"
        [template] = [json.loads(p.read_text("utf-8")) for p in (package / "Templates").rglob("*.json")]
        return set(template["CardNames"].values()), json.loads((package / "Manifest.json").read_text("utf-8"))["Name"]
    if fmt == "cgs":
        game = root / "cgs" / "hostile"
        cards = json.loads((game / "AllCards.json").read_text("utf-8"))
        assert all(card["text"].startswith("It says ") for card in cards)
        return {card["name"] for card in cards}, json.loads((game / "cgs.json").read_text("utf-8"))["name"]
    if fmt == "cards":
        rows = list(csv.DictReader(io.StringIO((root / "hostile-cards.csv").read_text("utf-8-sig"))))
        return {row["name"] for row in rows}, None
    assert fmt == "mush"
    return set(), None  # read back by a running TinyMUX in test_export_cli.py


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_text_is_kept_whole_or_refused_leaving_the_folder_as_it_was(run_cli, tmp_path, fmt, case):
    text = HOSTILE[case]
    out = tmp_path / "out"
    plain = hostile_deck(tmp_path / "plain", "Plain Card")  # the same deck id: the same output folder
    assert run_cli("export", fmt, plain, "-o", out).exit_code == 0
    before = tree(out)
    result = run_cli("export", fmt, hostile_deck(tmp_path / "source", text, deck_name=DECK_NAMES[case]), "-o", out)
    assert "Traceback" not in result.stderr
    if result.exit_code == 0:
        assert (fmt, case) not in MUST_REFUSE, f"{fmt} should refuse {case}"
        names, deck_name = names_read_back(fmt, out)
        if fmt != "mush":
            assert names == {text}
        assert deck_name in (None, DECK_NAMES[case])
        return
    assert (fmt, case) not in MUST_KEEP, result.stderr
    assert result.exit_code == 1, result.stderr
    said = result.stderr
    assert "H1" in said or "card back" in said or "deck name" in said, said  # names the card, or the deck's name
    assert "hostile.toml" in said  # and the file
    assert tree(out) == before  # nothing half-written, the earlier export untouched


def test_mush_spells_text_outside_latin_1_for_a_latin_1_server(run_cli, tmp_path):
    deck = hostile_deck(tmp_path, HOSTILE["not-latin-1"])
    result = run_cli("export", "mush", deck, "-o", tmp_path / "out", "--charset", "latin1")
    assert result.exit_code == 0, result.stderr
    code = (tmp_path / "out" / "hostile" / "hostile.mush").read_bytes()
    code.decode("latin-1")  # every byte a Latin-1 character
    assert "Дракон".encode("utf-8") not in code
