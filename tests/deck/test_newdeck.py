"""`deckgen new`: a deck folder that validates, builds and previews straight away."""

from __future__ import annotations

import json

import pytest

from generator.deck.new import KINDS
from generator.preview.app import start_preview
from tests.browser import external_requests


@pytest.mark.parametrize("kind", KINDS)
def test_new_deck_validates_and_builds_at_once(run_cli, tmp_path, kind):
    folder = tmp_path / f"my-{kind}"
    created = run_cli("new", folder, "--kind", kind)
    assert created.exit_code == 0, created.stderr
    deck_file = folder / f"my-{kind}.toml"
    lines = deck_file.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "#:schema ./deck.schema.json"
    assert sum(line.lstrip().startswith("#") for line in lines) >= 8, "the deck file explains itself"
    assert json.loads((folder / "deck.schema.json").read_text())["required"] == ["deck", "kinds"]
    assert (folder / "art").is_dir()

    checked = run_cli("validate", folder, "--strict")
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    built = run_cli("build", "--decks-dir", folder, "--output", tmp_path / "out")
    assert built.exit_code == 0, built.stderr
    images = sorted((tmp_path / "out" / f"my-{kind}" / "images").glob("*.png"))
    assert len(images) >= 2 and (tmp_path / "out" / f"my-{kind}" / f"my-{kind}-print-a4.pdf").is_file()


def test_picture_deck_ships_its_placeholder_art(run_cli, tmp_path):
    from PIL import Image

    run_cli("new", tmp_path / "pics", "--kind", "picture")
    art = sorted((tmp_path / "pics" / "art").glob("*.png"))
    assert len(art) == 4
    with Image.open(art[0]) as image:
        assert image.size == (800, 600)


def test_new_never_overwrites(run_cli, tmp_path):
    folder = tmp_path / "taken"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n")
    result = run_cli("new", folder)
    assert result.exit_code == 2
    assert "already exists and is not empty" in result.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]


def test_new_names_the_kinds_it_knows(run_cli, tmp_path):
    result = run_cli("new", tmp_path / "x", "--kind", "chess")
    assert result.exit_code == 2
    assert "trick, dvorak, picture, blank" in result.stderr
    assert not (tmp_path / "x").exists()


def test_watch_previews_a_new_deck_straight_away(run_cli, tmp_path, page):
    folder = tmp_path / "fresh"
    assert run_cli("new", folder, "--kind", "dvorak").exit_code == 0
    preview = start_preview(folder, output_dir=tmp_path / "out", dpi=50)
    try:
        assert preview.session.error == []
        page.goto(preview.url)
        page.wait_for_function("[...document.querySelectorAll('.tile img')].length === 5 && "
                               "[...document.querySelectorAll('.tile img')].every(i => i.complete && i.naturalWidth)")
        assert page.locator(".tile figcaption .name").first.inner_text() == "Lantern"
        page.wait_for_selector("#problems-summary:has-text('no problems found')")
        assert external_requests(page.deckgen_requests) == []
    finally:
        preview.stop()
