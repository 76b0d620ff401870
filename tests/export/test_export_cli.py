"""Exports through the command line: awkward card names, the build step, where files go."""

from __future__ import annotations

import json
from dataclasses import replace
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from generator.export.faces import clear_cache
from generator.export.mush import SLASH_LOOKALIKE, dvorak_card
from generator.export.mush_table import card_label
from generator.deck.loader import load_deck
from generator.deck.markup import to_plain

from tests.conftest import DECK_PATHS, ROOT
from tests.export_support import (BASE_URL, HOSTILE, file_url_path, hostile_deck, read_carddata, read_dek, tree,
                                  write_deck)
from tests.mushserver import MushClient, MushServer, tinymux_installed

needs_tinymux = pytest.mark.skipif(not tinymux_installed(), reason="TinyMUX is not installed (.ci/install-tinymux.sh)")

# Names every exporter must carry through unchanged, escaped where the format needs it.
FAITHFUL_NAMES = [
    "Slash/Back\\slash ../../escape",
    "[Bracket] (paren) {brace}",
    "Quote \"double\" 'single'",
    "<&> Ampersand &amp; <b>",
    "Two  spaces",
]

# Names LackeyCCG cannot hold (tab-separated, Windows-1252): refused there, with the reason;
# MUSH keeps them all; TTS keeps those the card font can draw and refuses the others.
REFUSED_BY_LACKEY = {
    "tab": ("Tab\there", "holds a tab", True),
    "newline": ("Line\nbreak", "holds a line break", True),
    "cyrillic": ("Дракон", "U+0414 CYRILLIC CAPITAL LETTER DE", True),
    "cjk": ("魔法", "U+9B54", False),
}


def odd_deck(folder: Path) -> Path:
    cards = [{"name": name, "code": f"N{index}", "kind": "thing", "count": index + 1,
              "text": f"Mentions {{card:N{(index + 1) % len(FAITHFUL_NAMES)}}} and [add(1,2)] 100% <i>."}
             for index, name in enumerate(FAITHFUL_NAMES)]
    return write_deck(folder, "odd", cards)


def test_awkward_names_come_out_faithfully_escaped(run_cli, tmp_path):
    deck = odd_deck(tmp_path / "decks")
    out = tmp_path / "out"
    assert run_cli("export", "lackey", deck, "-o", out).exit_code == 0
    plugin = out / "odd" / "lackey" / "odd"
    _, rows = read_carddata(plugin / "sets" / "carddata.txt")
    assert [row[0] for row in rows] == FAITHFUL_NAMES
    assert rows[0][5].startswith("Mentions [Bracket] (paren) {brace} and [add(1,2)] 100% <i>.")
    listed = read_dek(plugin / "decks" / "odd (one player loads it).dek")
    assert [name for name, _, _ in listed] == [n for i, n in enumerate(FAITHFUL_NAMES) for _ in range(i + 1)]
    assert b"&lt;&amp;&gt; Ampersand &amp;amp; &lt;b&gt;" in (plugin / "decks" / "odd (one player loads it).dek").read_bytes()

    assert run_cli("export", "tts", deck, "-o", out).exit_code == 0
    saved = json.loads((out / "odd" / "tts" / "odd.json").read_text("utf-8"))
    nicknames = [card["Nickname"] for card in saved["ObjectStates"][0]["ContainedObjects"]]
    assert nicknames == [n for i, n in enumerate(FAITHFUL_NAMES) for _ in range(i + 1)]


# A stand-in for the Dvorak MUSH Engine: stores each loadcard's three fields as it gets them.
DVORAK_ENGINE = [
    "@create Dvorak Engine",
    "@set Dvorak Engine=!NO_COMMAND",
    "&CMD.CLEARDECK Dvorak Engine=$cleardeck:&COUNT me=0",
    "&CMD.LOADCARD Dvorak Engine=$loadcard */*/*:&COUNT me=[add(v(COUNT),1)];"
    "&TITLE.[v(COUNT)] me=%0;&TYPE.[v(COUNT)] me=%1;&TEXT.[v(COUNT)] me=%2",
    "drop Dvorak Engine",
]


@pytest.fixture(scope="module")
def mush():
    """A wizard logged in to a fresh TinyMUX server with a Dvorak Engine in the room."""
    with MushServer() as server, server.client() as wizard:
        wizard.send_lines(DVORAK_ENGINE)
        yield wizard


def paste(wizard: MushClient, path: Path) -> None:
    """Send a MUSHcode file the way a user pastes it: every line at once, then wait for the server."""
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.strip():
            wizard.send_line(line)
    wizard.sync()


def read_back(wizard: MushClient, expressions: list[str]) -> list[str]:
    """The value of each expression, asked for all at once, each after a numbered marker line."""
    for index, expression in enumerate(expressions):
        wizard.send_line(f"think DECKGEN-READ-{index}")
        wizard.send_line(f"think {expression}")
    values: list[list[str]] = []
    for line in wizard.sync().split("\n"):
        if line == f"DECKGEN-READ-{len(values)}":
            values.append([])
        else:
            values[-1].append(line)
    assert len(values) == len(expressions)
    return ["\n".join(lines) for lines in values]


def mush_round_trip(run_cli, wizard: MushClient, deck_path: Path, out: Path) -> None:
    """Load both MUSH styles of a deck into the server; every copy of every card must read back."""
    deck = load_deck(deck_path)
    copies = list(deck.copies())
    assert run_cli("export", "mush", deck_path, "-o", out).exit_code == 0  # softcode: the default
    paste(wizard, out / deck.id / f"{deck.id}.mush")
    [thing] = read_back(wizard, ["lastcreate(me,t)"])
    assert re.fullmatch(r"#\d+", thing), thing
    fields = ("NAME", "LABEL", "TEXT", "FLAVOR")
    values = read_back(wizard, [f"get({thing}/COUNT)"] + [
        f"get({thing}/CARD.{number}.{field})" for number in range(1, len(copies) + 1) for field in fields])
    assert values[0] == str(len(copies))
    expected = [(card.name, card_label(card), to_plain(card.text, deck), card.flavor) for card in copies]
    assert [tuple(values[i:i + 4]) for i in range(1, len(values), 4)] == expected

    assert run_cli("export", "mush", deck_path, "-o", out, "--style", "dvorak").exit_code == 0
    paste(wizard, out / deck.id / f"{deck.id}.mush")
    [engine] = read_back(wizard, ["num(Dvorak Engine)"])
    values = read_back(wizard, [f"get({engine}/COUNT)"] + [
        f"get({engine}/{field}.{number})" for number in range(1, len(copies) + 1) for field in ("TITLE", "TEXT")])
    assert values[0] == str(len(copies))
    for number, card in enumerate(copies):
        title, text = values[1 + 2 * number:3 + 2 * number]
        plain = dvorak_card(replace(card, text=to_plain(card.text, deck)))
        assert (title, text) == (plain.title, plain.text)


@needs_tinymux
@pytest.mark.parametrize("deck_path", DECK_PATHS, ids=[p.stem for p in DECK_PATHS])
def test_each_deck_s_mushcode_loads_into_a_real_server(run_cli, tmp_path, mush, deck_path):
    mush_round_trip(run_cli, mush, deck_path, tmp_path)


@needs_tinymux
def test_awkward_names_survive_a_real_mush_server(run_cli, tmp_path, mush):
    mush_round_trip(run_cli, mush, odd_deck(tmp_path / "decks"), tmp_path / "out")


def test_files_stay_inside_the_output_folder(run_cli, tmp_path):
    deck = odd_deck(tmp_path / "decks")
    before = set(tmp_path.rglob("*"))
    for exporter in ("lackey", "tts", "mush"):
        assert run_cli("export", exporter, deck, "-o", tmp_path / "out").exit_code == 0
    created = set(tmp_path.rglob("*")) - before
    assert created and all(path.is_relative_to(tmp_path / "out" / "odd") or path in
                           {tmp_path / "out", tmp_path / "out" / "odd"} for path in created)
    assert not [path for path in created if path.name.startswith(".")]  # no temporary files left


@pytest.mark.parametrize("case", sorted(REFUSED_BY_LACKEY))
def test_names_lackey_cannot_hold_are_refused_there(run_cli, tmp_path, case):
    name, reason, drawable = REFUSED_BY_LACKEY[case]
    deck = write_deck(tmp_path, f"bad-{case}", [{"name": name, "code": "BAD", "kind": "thing"}])
    refused = run_cli("export", "lackey", deck, "-o", tmp_path / "out")
    assert refused.exit_code == 1
    assert f"card {name!r} (code BAD)" in refused.stderr and reason in refused.stderr
    assert "Traceback" not in refused.stderr and refused.stderr.startswith("deckgen: error:")
    assert not (tmp_path / "out" / f"bad-{case}" / "lackey").exists()

    tts = run_cli("export", "tts", deck, "-o", tmp_path / "out")
    assert "Traceback" not in tts.stderr
    if drawable:
        assert tts.exit_code == 0, tts.stderr
        saved = json.loads((tmp_path / "out" / f"bad-{case}" / "tts" / f"bad-{case}.json").read_text("utf-8"))
        assert saved["ObjectStates"][0]["ContainedObjects"][0]["Nickname"] == name
    else:
        assert tts.exit_code == 1 and f"card {name!r}" in tts.stderr and "cannot draw" in tts.stderr


@needs_tinymux
@pytest.mark.parametrize("case", sorted(REFUSED_BY_LACKEY))
def test_names_lackey_cannot_hold_survive_a_real_mush_server(run_cli, tmp_path, mush, case):
    name = REFUSED_BY_LACKEY[case][0]
    deck = write_deck(tmp_path, f"mush-{case}", [{"name": name, "code": "BAD", "kind": "thing", "count": 2}])
    mush_round_trip(run_cli, mush, deck, tmp_path / "out")


@needs_tinymux
@pytest.mark.parametrize("case", sorted(set(HOSTILE) - {"long"}))
def test_bad_input_cases_read_back_whole_from_a_real_mush_server(run_cli, tmp_path, mush, case):
    """The MUSH part of tests/export/test_export_bad_input.py: each card name and text that the
    MUSH export keeps, pasted into TinyMUX and read back from the deck object, both styles."""
    mush_round_trip(run_cli, mush, hostile_deck(tmp_path / "decks", HOSTILE[case]), tmp_path / "out")


def test_same_deck_gives_the_same_bytes(run_cli, tmp_path):
    trees = []
    for _ in range(2):
        clear_cache()  # render the faces afresh each time
        for exporter, *options in (("lackey", "--base-url", BASE_URL), ("tts",), ("mush",)):
            assert run_cli("export", exporter, DECK_PATHS[0], "-o", tmp_path / "out", *options).exit_code == 0
        trees.append(tree(tmp_path / "out"))
    assert trees[0] == trees[1]


def test_a_failed_export_keeps_the_previous_one(run_cli, tmp_path):
    deck = write_deck(tmp_path, "keep", [{"name": "Lantern", "code": "LA", "kind": "thing"}])
    assert run_cli("export", "lackey", deck, "-o", tmp_path / "out").exit_code == 0
    before = tree(tmp_path / "out")
    deck.write_text(deck.read_text("utf-8").replace("Lantern", "Фонарь"), encoding="utf-8")
    assert run_cli("export", "lackey", deck, "-o", tmp_path / "out").exit_code == 1
    assert tree(tmp_path / "out") == before


def test_missing_art_is_reported_not_drawn(run_cli, tmp_path):
    deck = write_deck(tmp_path, "artless", [{"name": "Ghost", "code": "GH", "kind": "thing", "art": "ghost.png"}])
    for exporter in ("lackey", "tts"):
        result = run_cli("export", exporter, deck, "-o", tmp_path / "out")
        assert result.exit_code == 1 and "ghost.png does not exist" in result.stderr
        assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_unknown_layout_and_encoding_are_option_errors(run_cli, tmp_path):
    deck = write_deck(tmp_path, "opts", [{"name": "Lantern", "code": "LA", "kind": "thing"}])
    for option in (("--layout", "wide"), ("--encoding", "latin-9")):
        result = run_cli("export", "lackey", deck, "-o", tmp_path / "out", *option)
        assert result.exit_code == 2 and option[0] in result.stderr and "Traceback" not in result.stderr


def test_build_writes_every_export_and_reuses_it(run_cli, tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copy(ROOT / "decks" / "wizard.toml", decks / "wizard.toml")
    out = tmp_path / "out"
    first = run_cli("build", "--decks-dir", decks, "--output", out)
    assert first.exit_code == 0, first.stderr
    wizard = out / "wizard"
    assert (wizard / "lackey" / "wizard.zip").is_file()
    assert (wizard / "lackey" / "wizard" / "decks" / "wizard (one player loads it).dek").is_file()
    saved = json.loads((wizard / "tts" / "wizard.json").read_text("utf-8"))
    for entry in saved["ObjectStates"][0]["CustomDeck"].values():
        assert file_url_path(entry["FaceURL"]).is_file() and file_url_path(entry["BackURL"]).is_file()
        assert file_url_path(entry["FaceURL"]).is_relative_to(wizard.resolve())
    info = ET.fromstring((wizard / "lackey" / "wizard" / "plugininfo.txt").read_bytes())
    assert info.findtext("pluginname") == "wizard"
    foundry = json.loads((wizard / "foundry" / "wizard.json").read_text("utf-8"))
    assert len(foundry["cards"]) == 60 and foundry["img"].startswith("cards/wizard/")
    assert (wizard / "vtt" / "wizard.pcio.zip").is_file()
    assert (wizard / "ttp" / "wizard" / "Manifest.json").is_file()
    assert json.loads((wizard / "cgs" / "wizard" / "cgs.json").read_text("utf-8"))["autoUpdate"] == -1
    second = run_cli("build", "--decks-dir", decks, "--output", out, "--json")
    assert "exports" in json.loads(second.stdout)[0]["reused"]


def test_build_base_url_publishes_lackey_and_tts_for_other_players(run_cli, tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copy(ROOT / "decks" / "wizard.toml", decks / "wizard.toml")
    out = tmp_path / "out"
    base = "https://decks.example.org/out"
    built = run_cli("build", "--decks-dir", decks, "--output", out, "--base-url", base + "/")
    assert built.exit_code == 0, built.stderr
    wizard = out / "wizard"
    saved = json.loads((wizard / "tts" / "wizard.json").read_text("utf-8"))
    [entry] = saved["ObjectStates"][0]["CustomDeck"].values()
    assert re.fullmatch(re.escape(f"{base}/wizard/tts/wizard-sheet-1-") + r"[0-9a-f]{8}\.jpg", entry["FaceURL"])
    assert re.fullmatch(re.escape(f"{base}/wizard/tts/wizard-back-") + r"[0-9a-f]{8}\.jpg", entry["BackURL"])
    assert "files on the computer" not in saved["ObjectStates"][0]["Description"]
    updatelist = (wizard / "lackey" / "wizard" / "updatelist.txt").read_text("cp1252").splitlines()
    assert f"plugins/wizard/plugininfo.txt\t{base}/wizard/lackey/wizard/plugininfo.txt\t" in "\n".join(updatelist)
    foundry = json.loads((wizard / "foundry" / "wizard.json").read_text("utf-8"))
    assert foundry["img"].startswith(f"{base}/wizard/foundry/wizard-back-")
    cgs = json.loads((wizard / "cgs" / "wizard" / "cgs.json").read_text("utf-8"))
    assert cgs["autoUpdateUrl"] == f"{base}/wizard/cgs/wizard/cgs.json"
    # Another address is another build of the exports, not a reuse.
    again = run_cli("build", "--decks-dir", decks, "--output", out, "--json")
    assert "exports" in json.loads(again.stdout)[0]["built"]
    assert not (wizard / "lackey" / "wizard" / "updatelist.txt").exists()
    assert run_cli("build", "--decks-dir", decks, "--output", out, "--base-url", "ftp://x").exit_code == 2


def test_a_deck_names_its_own_base_url(run_cli, tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    text = (ROOT / "decks" / "wizard.toml").read_text("utf-8")
    (decks / "wizard.toml").write_text(text + '\n[publish]\nbase_url = "https://cdn.example.net/games"\n', "utf-8")
    out = tmp_path / "out"
    assert run_cli("build", "--decks-dir", decks, "--output", out).exit_code == 0
    saved = json.loads((out / "wizard" / "tts" / "wizard.json").read_text("utf-8"))
    [entry] = saved["ObjectStates"][0]["CustomDeck"].values()
    assert entry["FaceURL"].startswith("https://cdn.example.net/games/wizard/tts/wizard-sheet-1-")
    (decks / "wizard.toml").write_text(text + '\n[publish]\nbase_url = "javascript:x"\n', "utf-8")
    failed = run_cli("build", "--decks-dir", decks, "--output", out)
    assert failed.exit_code == 1 and "publish.base_url" in failed.stderr and "Traceback" not in failed.stderr
    checked = run_cli("validate", decks / "wizard.toml")
    assert checked.exit_code == 1 and "publish.base_url" in checked.stdout + checked.stderr
