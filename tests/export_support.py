"""What the export tests share: temporary decks, and readers for the files the exporters write."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from generator.cli.app import main
from generator.deck.loader import load_deck

from .conftest import DECK_PATHS

BASE_URL = "https://decks.example.org/lackey/plugin"


def toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid TOML basic string


def write_deck(folder: Path, deck_id: str, cards: list[dict], engine: str | None = None,
               kinds: tuple[tuple[str, str], ...] = (("thing", "Thing"), ("action", "Action")),
               extra: str = "") -> Path:
    """A deck file with the given [[cards]] (dicts of TOML values) and nothing else required."""
    lines = ["[deck]", f"id = {toml_string(deck_id)}", f"name = {toml_string(deck_id.title())}",
             "players = { min = 2, max = 4 }", 'designer = "Test Designer"']
    if engine:
        lines.append(f"engine = {toml_string(engine)}")
    for kind_id, kind_name in kinds:
        lines += ["[[kinds]]", f"id = {toml_string(kind_id)}", f"name = {toml_string(kind_name)}"]
    for card in cards:
        lines.append("[[cards]]")
        lines += [f"{key} = {value if isinstance(value, int) else toml_string(value)}" for key, value in card.items()]
    path = folder / f"{deck_id}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n" + extra, encoding="utf-8")
    return path


# Card names and texts holding the characters that matter in some export format.
HOSTILE = {
    "tab": "Tab\there",
    "quotes": "Quote \"double\" 'single'",
    "percent": "100% %s %r %0 %#",
    "brackets": "[Bracket] [add(1,2)] ]x[",
    "separators": "A;B,C; @destroy me",
    "newline": "Line\nbreak",
    "not-latin-1": "Дракон Ωμέγα",
    "long": "Long " * 60,
}
def hostile_deck(folder: Path, name: str, deck_name: str = "Hostile") -> Path:
    path = write_deck(folder, "hostile", [{"name": name, "code": "H1", "kind": "thing", "count": 2,
                                           "text": f"It says {name} here."}])
    text = path.read_text("utf-8").replace(f"name = {toml_string('Hostile')}", f"name = {toml_string(deck_name)}")
    path.write_text(text, "utf-8")
    return path


def export(*args) -> int:
    """Run `deckgen export ...` in-process; return the exit code."""
    return main(["export", *[str(a) for a in args]])


def read_carddata(path: Path, encoding: str = "cp1252") -> tuple[list[str], list[list[str]]]:
    text = path.read_bytes().decode(encoding)
    assert text.endswith("\n") and "\r" not in text
    rows = list(csv.reader(text.splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE))
    return rows[0], rows[1:]


def read_dek_zones(path: Path) -> dict[str, list[tuple[str, str, str]]]:
    """Superzone name -> (name, image id, set) of each of its <card>s, in order."""
    root = ET.fromstring(path.read_bytes())
    assert root.tag == "deck" and root[0].tag == "meta" and root.find("superzone") is not None
    return {zone.get("name"): [(card.find("name").text, card.find("name").get("id"), card.find("set").text)
                               for card in zone.findall("card")] for zone in root.findall("superzone")}


def read_dek(path: Path) -> list[tuple[str, str, str]]:
    """(name, image id, set) of every <card> in a .dek file, in order, all superzones together."""
    return [card for cards in read_dek_zones(path).values() for card in cards]


def published_checksum(data: bytes) -> int:
    """Lackey's updater checksum written as the published loop (SWTCG-LACKEY releaseManager.py,
    lackey-builder lackey.inc): one byte at a time, remainder after every byte."""
    def c_remainder(value: int) -> int:
        return -(abs(value) % 100_000_000) if value < 0 else value % 100_000_000

    total = 0
    for byte in data:
        if byte not in (10, 13):
            total = c_remainder(total + (byte - 256 if byte > 127 else byte))
    return c_remainder(total - 1)


def file_url_path(url: str) -> Path:
    """The file a Tabletop Simulator local URL names: file:/// and the path, not percent-encoded."""
    assert url.startswith("file:///"), url
    return Path("/" + url.removeprefix("file:///"))


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under folder: relative path -> bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


_real_exports: list[Path] = []  # one folder for the whole session, whichever module asks first


@pytest.fixture(scope="session")
def real_exports(tmp_path_factory) -> Path:
    """Every real deck exported to Lackey (with a base URL) and to TTS, one deck after the
    other so both exports share one render of its faces: <folder>/<deck>/lackey, tts.

    Each test module imports this fixture, and pytest keeps one instance per module that
    defines it, so the folder itself is kept here to render every deck only once."""
    if not _real_exports:
        out = tmp_path_factory.mktemp("exports")
        for path in DECK_PATHS:
            assert export("lackey", path, "--output", out, "--base-url", BASE_URL) == 0
            assert export("tts", path, "--output", out) == 0
        _real_exports.append(out)
    return _real_exports[0]


def deck_ids() -> list[str]:
    return [load_deck(path).id for path in DECK_PATHS]
