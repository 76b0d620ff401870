"""No input can make a command wait for ever (issue 31): a FIFO in each place a file is read,
on every path (build, watch, images, print, exports, rulebook, diff, validate; decks,
overlays, spreadsheets, layouts files, fonts, icons, art, an SVG's image, ICC profiles,
templates, remembered printers, checkpoints). Each command ends within the deadline, with no
traceback, naming the FIFO and saying it is one (where the command refuses it), or leaving it
aside (diff compares the file as unreadable)."""

from __future__ import annotations

import os
import shutil
import urllib.request
from pathlib import Path

import pytest

from generator.preview.app import start_preview
from tests.badinput import TINY, deadline
from tests.conftest import DECKS

ART = 'count = 2\nart = "art.png"'
SECONDS = 60


def _deck(tmp_path: Path, text: str = TINY) -> Path:
    folder = tmp_path / "decks"
    folder.mkdir(exist_ok=True)
    path = folder / "tiny.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def _art_fifo(tmp_path: Path) -> Path:
    deck = _deck(tmp_path, TINY.replace("count = 2", ART))
    _fifo(deck.parent / "art.png")
    return deck


def _overlay(tmp_path):
    deck = _deck(tmp_path)
    _fifo(deck.parent / "translations" / "tiny.fr.toml")
    return ["validate", deck, "--lang", "fr"], "tiny.fr.toml"


def _sheet(tmp_path):
    deck = _deck(tmp_path, TINY + '\n[[card_sources]]\nfile = "cards.csv"\n')
    _fifo(deck.parent / "cards.csv")
    return ["validate", deck], "cards.csv"


def _font(tmp_path):
    deck = _deck(tmp_path, TINY + '\n[[fonts]]\nfamily = "Body"\nregular = "body.ttf"\n')
    _fifo(deck.parent / "body.ttf")
    return ["validate", deck], "body.ttf"


def _icon(tmp_path):
    deck = _deck(tmp_path, TINY.replace("[[suits]]", '[icons]\ndrop = "drop.png"\n\n[[suits]]'))
    _fifo(deck.parent / "drop.png")
    return ["validate", deck], "drop.png"


def _layouts_file(tmp_path):
    deck = _deck(tmp_path, TINY.replace('players = { min = 2, max = 4 }',
                                        'players = { min = 2, max = 4 }\nlayouts = ["shared.toml"]'))
    _fifo(deck.parent / "shared.toml")
    return ["validate", deck], "shared.toml"


def _svg_image(tmp_path):
    deck = _deck(tmp_path, TINY.replace("count = 2", 'count = 2\nart = "art.svg"'))
    (deck.parent / "art.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/'
                                         'xlink" width="60" height="80"><image xlink:href="pic.png" width="60" '
                                         'height="80"/></svg>', encoding="utf-8")
    _fifo(deck.parent / "pic.png")
    return ["validate", deck], "pic.png"


def _art(command: list[str]):
    def setup(tmp_path):
        deck = _art_fifo(tmp_path)
        argv = [word if word != "DECK" else deck for word in command]
        return [*argv, "--output", tmp_path / "out"], "art.png"

    return setup


def _build_deck_file(tmp_path):
    _deck(tmp_path, TINY.replace('id = "tiny"', 'id = "other"'))
    _fifo(tmp_path / "decks" / "fifo.toml")
    return ["build", "--decks-dir", tmp_path / "decks", "--output", tmp_path / "out"], "fifo.toml"


def _build_art(tmp_path):
    _art_fifo(tmp_path)
    return ["build", "--decks-dir", tmp_path / "decks", "--output", tmp_path / "out"], "art.png"


def _icc(tmp_path):
    deck = _deck(tmp_path)
    return (["print", deck, "--color", "cmyk", "--icc-profile", _fifo(tmp_path / "shop.icc"), "--output",
             tmp_path / "out"], "shop.icc")


def _template(tmp_path):
    deck = _deck(tmp_path)
    (tmp_path / "theme").mkdir()
    (tmp_path / "theme" / "rulebook.html.j2").write_text('{% include "part.html" %}', encoding="utf-8")
    _fifo(tmp_path / "theme" / "part.html")
    return (["rulebook", deck, "--format", "html", "--template", tmp_path / "theme", "--output", tmp_path / "out"],
            "part.html")


def _printers(tmp_path, config_home):
    deck = _deck(tmp_path)
    _fifo(config_home / "deckgen" / "printers.toml")
    return ["print", deck, "--printer", "home", "--output", tmp_path / "out"], "printers.toml"


CASES = {
    "overlay": _overlay, "spreadsheet": _sheet, "font": _font, "icon": _icon, "layouts-file": _layouts_file,
    "svg-image": _svg_image, "build-deck-file": _build_deck_file, "build-art": _build_art,
    "images-art": _art(["images", "DECK"]), "print-art": _art(["print", "DECK"]),
    "rulebook-art": _art(["rulebook", "DECK", "--format", "pdf"]),
    "export-lackey-art": _art(["export", "lackey", "DECK"]), "export-tts-art": _art(["export", "tts", "DECK"]),
    "icc-profile": _icc, "template": _template,
}


@pytest.mark.parametrize("setup", CASES.values(), ids=CASES.keys())
def test_a_fifo_is_refused_not_waited_on(run_cli, tmp_path, setup):
    argv, name = setup(tmp_path)
    with deadline(SECONDS):
        result = run_cli(*argv)
    seen = result.stdout + result.stderr
    assert "Traceback" not in seen and "internal error" not in seen, seen
    assert name in seen and "FIFO" in seen, seen
    assert result.exit_code != 0, seen


def test_remembered_printers_in_a_fifo(run_cli, tmp_path, config_home):
    argv, name = _printers(tmp_path, config_home)
    with deadline(SECONDS):
        result = run_cli(*argv)
    assert result.exit_code == 2 and name in result.stderr and "FIFO" in result.stderr, result.stderr


def test_diff_with_art_in_a_fifo_ends(run_cli, tmp_path):
    before = _deck(tmp_path)
    (tmp_path / "after").mkdir()
    after = _art_fifo(tmp_path / "after")
    with deadline(SECONDS):
        result = run_cli("diff", before, after)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.exit_code in (0, 1, 2)


def test_a_checkpoint_chunk_in_a_fifo(run_cli, tmp_path):
    chunks = tmp_path / "chunks"
    deck = tmp_path / "wizard.toml"
    shutil.copy(DECKS / "wizard.toml", deck)
    first = run_cli("validate", deck, "--simulate", "40", "--workers", "1", "--checkpoint", chunks)
    assert first.exit_code in (0, 1), first.stderr
    chunk = sorted(chunks.rglob("chunk-*.json"))[0]
    chunk.unlink()
    os.mkfifo(chunk)
    with deadline(SECONDS):
        result = run_cli("validate", deck, "--simulate", "40", "--workers", "1", "--checkpoint", chunks, "--resume")
    assert result.exit_code != 0 and chunk.name in result.stderr and "FIFO" in result.stderr, result.stderr


def test_watch_shows_art_in_a_fifo_and_serves_no_fifo(tmp_path):
    deck = _art_fifo(tmp_path)
    with deadline(SECONDS):
        preview = start_preview(deck, output_dir=tmp_path / "out")
        try:
            assert any("art.png" in line and "FIFO" in line for line in preview.session.error), preview.session.error
            with pytest.raises(urllib.error.HTTPError) as answer:
                urllib.request.urlopen(preview.url + "deck/art.png", timeout=10)
            assert answer.value.code == 404 and b"FIFO" in answer.value.read()
        finally:
            preview.stop()
