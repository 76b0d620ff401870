"""Lint and composition on altered copies of the real decks: each alteration is a mistake a
designer makes, and `deckgen validate` must name it."""

from __future__ import annotations

import json
import shutil

from PIL import Image

from tests.conftest import DECKS


def altered(tmp_path, deck: str, *edits: tuple[str, str], name: str = "") -> str:
    """A copy of a real deck with (old, new) text replacements, each of which must apply."""
    text = (DECKS / f"{deck}.toml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / f"{name or deck}.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def problems(run_cli, path: str, *options: str) -> list[dict]:
    result = run_cli("validate", path, "--simulate", "0", "--json", *options)
    return json.loads(result.stdout)["decks"][0]["problems"]


def card_entry(deck: str, card_id: str) -> str:
    """The [[cards]] table of one card in a real deck, up to the next table."""
    text = (DECKS / f"{deck}.toml").read_text(encoding="utf-8")
    start = text.index(f'[[cards]]\nid = "{card_id}"')
    return text[start:text.index("\n[", start + 1) + 1]


def test_plain_mention_of_a_card_the_deck_lacks(run_cli, tmp_path):
    """Strayed Off The Pitch says a Pass card cannot answer it: with Pass gone, that is an error."""
    entry = card_entry("quidditch-v2", "pass")
    path = altered(tmp_path, "quidditch-v2", (entry, ""))
    found = [p for p in problems(run_cli, path) if "names a 'Pass' card" in p["message"]]
    assert found and found[0]["severity"] == "error" and found[0]["field"].endswith(".text")
    assert "{card:NAME}" in found[0]["hint"]


def test_mentions_of_defined_terms_and_real_cards_are_not_flagged(run_cli):
    for deck in ("quidditch-v2", "wizard-hearts", "muggle-quidditch", "wizard"):
        assert not [p for p in problems(run_cli, deck) if "names a" in p["message"]], deck


def test_type_line_contradicted_by_the_text(run_cli, tmp_path):
    entry = card_entry("quidditch-v2", "firebolt")
    path = altered(tmp_path, "quidditch-v2", (entry, entry.replace('type_line = "Thing - Broomstick"',
                                                                   'type_line = "Thing"')))
    found = [p for p in problems(run_cli, path) if "Firebolt" in p["message"]]
    assert len(found) == 1 and found[0]["severity"] == "warning"
    assert "says it is a Broomstick" in found[0]["message"] and found[0]["field"].endswith(".type_line")
    assert 'type_line = "Thing - Broomstick"' in found[0]["hint"]


def test_copies_with_different_words_are_an_error(run_cli, tmp_path):
    entry = card_entry("quidditch-v2", "weaving")
    copy = (entry.replace('id = "weaving"', 'id = "weaving-2"').replace("count = 4", "count = 1")
            .replace('code = "', 'code = "X', 1).replace("Gain 1 dominance", "Gain 2 dominance"))
    assert copy != entry.replace('id = "weaving"', 'id = "weaving-2"')
    path = altered(tmp_path, "quidditch-v2", (entry, entry + copy))
    found = [p for p in problems(run_cli, path) if "differs from the other 'Weaving' entry" in p["message"]]
    assert found and found[0]["severity"] == "error" and "'Gain 1 dominance.' against 'Gain 2 dominance.'" in found[0]["message"]


def test_missing_art_file(run_cli, tmp_path):
    entry = card_entry("quidditch-v2", "quaffle")
    path = altered(tmp_path, "quidditch-v2", (entry, entry.replace('kind = "thing"', 'kind = "thing"\nart = "art/quaffle.png"')))
    found = [p for p in problems(run_cli, path) if "art file" in p["message"]]
    assert found and "quaffle.png' does not exist" in found[0]["message"]
    (tmp_path / "art").mkdir()
    shutil.copy(DECKS.parent / "generator" / "fonts" / "LICENSE-DejaVu.txt", tmp_path / "art" / "quaffle.png")
    found = [p for p in problems(run_cli, path) if "art file" in p["message"]]
    assert found and "is not an image deckgen can read" in found[0]["message"]  # print would fail on it
    Image.new("RGB", (40, 60), "gold").save(tmp_path / "art" / "quaffle.png")
    assert not [p for p in problems(run_cli, path) if "art file" in p["message"]]


def test_a_card_the_engine_has_no_rules_for(run_cli, tmp_path):
    path = altered(tmp_path, "quidditch-v2", ('id = "golden-snitch"', 'id = "snitch"'))
    messages = [p["message"] for p in problems(run_cli, path)]
    assert any("has id 'snitch', which the quidditch-v2 engine has no rules for" in m for m in messages)
    assert any("lacks: golden-snitch" in m for m in messages)
    assert any("no card with id 'golden-snitch'" in m and "only way the game ends" in m for m in messages)


def test_player_range_beyond_the_engine(run_cli, tmp_path):
    path = altered(tmp_path, "wizard", ("players = { min = 3, max = 6 }", "players = { min = 3, max = 8 }"))
    found = [p for p in problems(run_cli, path) if p["field"] == "deck.players"]
    assert found and "the wizard engine plays 3-6" in found[0]["message"]
    assert "max = 6" in found[0]["hint"]


def test_muggle_deck_without_its_second_joker(run_cli, tmp_path):
    path = altered(tmp_path, "muggle-quidditch", ('count = 2\ncorner = "★"', 'count = 1\ncorner = "★"'))
    messages = [p["message"] for p in problems(run_cli, path) if p["severity"] == "error"]
    assert any("with one Joker the dive for the Snitch can never start" in m for m in messages)


def test_wizard_hearts_pass_larger_than_a_hand(run_cli, tmp_path):
    path = altered(tmp_path, "wizard-hearts", ("pass_count = 3", "pass_count = 14"))
    messages = [p["message"] for p in problems(run_cli, path) if p["severity"] == "error"]
    assert any("with 7 players each hand holds 14 card(s), too few to pass 14" in m for m in messages)
    assert not any("with 6 players" in m for m in messages)


def test_composition_figures_follow_the_deck(run_cli, tmp_path):
    result = run_cli("validate", "wizard-hearts", "--simulate", "0", "--json")
    figures = json.loads(result.stdout)["decks"][0]["composition"]["per_players"]
    for players, row in figures.items():
        assert row["hand"] * int(players) + row["Cauldron"] == 98 and row["Cauldron"] < int(players)
