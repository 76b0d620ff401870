"""Exports through the command line: awkward card names, the build step, where files go."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from .conftest import ROOT
from .export_support import file_url_path, read_carddata, read_dek, tree, write_deck

# Names every exporter must carry through unchanged, escaped where the format needs it.
FAITHFUL_NAMES = [
    "Slash/Back\\slash ../../escape",
    "[Bracket] (paren) {brace}",
    "Quote \"double\" 'single'",
    "<&> Ampersand &amp; <b>",
    "Two  spaces",
]

# Names LackeyCCG cannot hold (tab-separated, Windows-1252): refused there, kept by TTS.
REFUSED_BY_LACKEY = {
    "tab": ("Tab\there", "holds a tab"),
    "newline": ("Line\nbreak", "holds a line break"),
    "cyrillic": ("Дракон", "U+0414 CYRILLIC CAPITAL LETTER DE"),
    "cjk": ("魔法", "U+9B54"),
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
    listed = read_dek(plugin / "decks" / "odd.dek")
    assert [name for name, _, _ in listed] == [n for i, n in enumerate(FAITHFUL_NAMES) for _ in range(i + 1)]
    assert b"&lt;&amp;&gt; Ampersand &amp;amp; &lt;b&gt;" in (plugin / "decks" / "odd.dek").read_bytes()

    assert run_cli("export", "tts", deck, "-o", out).exit_code == 0
    saved = json.loads((out / "odd" / "tts" / "odd.json").read_text("utf-8"))
    nicknames = [card["Nickname"] for card in saved["ObjectStates"][0]["ContainedObjects"]]
    assert nicknames == [n for i, n in enumerate(FAITHFUL_NAMES) for _ in range(i + 1)]


def test_files_stay_inside_the_output_folder(run_cli, tmp_path):
    deck = odd_deck(tmp_path / "decks")
    before = set(tmp_path.rglob("*"))
    for exporter in ("lackey", "tts"):
        assert run_cli("export", exporter, deck, "-o", tmp_path / "out").exit_code == 0
    created = set(tmp_path.rglob("*")) - before
    assert created and all(path.is_relative_to(tmp_path / "out" / "odd") or path in
                           {tmp_path / "out", tmp_path / "out" / "odd"} for path in created)
    assert not [path for path in created if path.name.startswith(".")]  # no temporary files left


@pytest.mark.parametrize("case", sorted(REFUSED_BY_LACKEY))
def test_names_lackey_cannot_hold_are_refused_and_kept_elsewhere(run_cli, tmp_path, case):
    name, reason = REFUSED_BY_LACKEY[case]
    deck = write_deck(tmp_path, "bad", [{"name": name, "code": "BAD", "kind": "thing"}])
    refused = run_cli("export", "lackey", deck, "-o", tmp_path / "out")
    assert refused.exit_code == 1
    assert f"card {name!r} (code BAD)" in refused.stderr and reason in refused.stderr
    assert "Traceback" not in refused.stderr and refused.stderr.startswith("deckgen: error:")
    assert not (tmp_path / "out" / "bad" / "lackey").exists()

    kept = run_cli("export", "tts", deck, "-o", tmp_path / "out")
    assert kept.exit_code == 0, kept.stderr
    saved = json.loads((tmp_path / "out" / "bad" / "tts" / "bad.json").read_text("utf-8"))
    assert saved["ObjectStates"][0]["ContainedObjects"][0]["Nickname"] == name


def test_a_failed_export_keeps_the_previous_one(run_cli, tmp_path):
    deck = write_deck(tmp_path, "keep", [{"name": "Lantern", "code": "LA", "kind": "thing"}])
    assert run_cli("export", "lackey", deck, "-o", tmp_path / "out").exit_code == 0
    before = tree(tmp_path / "out")
    deck.write_text(deck.read_text("utf-8").replace("Lantern", "Фонарь"), encoding="utf-8")
    assert run_cli("export", "lackey", deck, "-o", tmp_path / "out").exit_code == 1
    assert tree(tmp_path / "out") == before


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
    assert (wizard / "lackey" / "wizard" / "decks" / "wizard.dek").is_file()
    saved = json.loads((wizard / "tts" / "wizard.json").read_text("utf-8"))
    for entry in saved["ObjectStates"][0]["CustomDeck"].values():
        assert file_url_path(entry["FaceURL"]).is_file() and file_url_path(entry["BackURL"]).is_file()
        assert file_url_path(entry["FaceURL"]).is_relative_to(wizard.resolve())
    info = ET.fromstring((wizard / "lackey" / "wizard" / "plugininfo.txt").read_bytes())
    assert info.findtext("pluginname") == "wizard"
    second = run_cli("build", "--decks-dir", decks, "--output", out, "--json")
    assert "exports" in json.loads(second.stdout)[0]["reused"]
