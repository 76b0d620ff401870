"""Build speed: what a build shares between its steps, and that sharing never changes what is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from generator.build.run import STEPS
from generator.export import write_all
from generator.export.faces import clear_cache
from generator.deck.loader import load_deck
from generator.faces import images, raster
from generator.faces.images import render_cards
from generator.faces.check import text_problems

from tests.faces.test_render_cli import MINI_DECK, mini  # noqa: F401 (mini is a fixture)


def test_build_json_gives_each_built_step_its_seconds(run_cli, mini, tmp_path):
    out = tmp_path / "out"
    arguments = ("build", "--decks-dir", mini.parent, "--output", out, "--json", "--jobs", "1")
    [first] = json.loads(run_cli(*arguments).stdout)
    assert first["built"] == [name for name, _ in STEPS]
    assert list(first["seconds"]) == first["built"]
    assert all(times["cpu"] >= 0 and times["wall"] >= 0 for times in first["seconds"].values())
    assert sum(times["wall"] for times in first["seconds"].values()) > 0
    [second] = json.loads(run_cli(*arguments).stdout)
    assert second["built"] == [] and second["seconds"] == {}


def test_images_and_exports_draw_the_faces_once(mini, tmp_path, monkeypatch):
    deck = load_deck(mini)
    clear_cache()
    drawn = []
    draw = raster.draw_pages
    monkeypatch.setattr(raster, "draw_pages", lambda *args: drawn.append(args) or draw(*args))
    images.build_images(deck, tmp_path)
    write_all(deck, tmp_path)
    assert len(drawn) == 1
    assert any((tmp_path / "tts").glob("mini-sheet-1-*.jpg")) and (tmp_path / "images" / "back.png").is_file()


def test_a_face_has_the_same_pixels_whatever_was_drawn_before(mini):
    deck = load_deck(mini)
    cards = [*deck.cards, None]
    raster.forget_pages()
    fresh = [image.tobytes() for image in render_cards(deck, cards, dpi=60)]
    raster.forget_pages()
    list(render_cards(deck, [None], dpi=300, bleed_mm=3))  # an images step: these pages are kept
    after_images = [image.tobytes() for image in render_cards(deck, cards, dpi=60)]
    list(render_cards(deck, [None], dpi=60, bleed_mm=12))  # a wide bleed: pages drawn wider
    after_wide_bleed = [image.tobytes() for image in render_cards(deck, cards, dpi=60)]
    assert fresh == after_images == after_wide_bleed


def test_png_files_hold_exactly_the_rendered_pixels(mini, tmp_path):
    deck = load_deck(mini)
    written = images.write_images(deck, tmp_path, dpi=50, bleed_mm=2)
    rendered = render_cards(deck, [*deck.cards, None], dpi=50, bleed_mm=2)
    for path, image in zip(written, rendered, strict=True):
        with Image.open(path) as png:
            assert png.mode == "RGB" and png.tobytes() == image.tobytes(), path.name


def test_remembered_text_checks_follow_the_deck(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text(MINI_DECK, encoding="utf-8")
    assert text_problems(load_deck(path)) == []
    path.write_text(MINI_DECK.replace("Add 3 to your dominance.", "Add three. " * 300), encoding="utf-8")
    overflowing = load_deck(path)
    assert [problem.field for problem in text_problems(overflowing)] == ["card SP.text"]
    assert text_problems(overflowing) == text_problems(overflowing)
    path.write_text(MINI_DECK, encoding="utf-8")
    assert text_problems(load_deck(path)) == []


def test_a_build_rasterises_each_export_face_once(mini, tmp_path, monkeypatch):
    deck = load_deck(mini)
    clear_cache()
    asked = []
    rasterise = raster.rasterise
    monkeypatch.setattr(raster, "rasterise", lambda faces, cards, *args, **kwargs:
                        rasterise(faces, asked.extend(cards) or cards, *args, **kwargs))
    monkeypatch.setattr(images, "rasterise", raster.rasterise)
    write_all(deck, tmp_path)
    faces = [card for card in asked if not isinstance(card, raster.BackOf)]
    # Every face once for the sheets (and the JPEGs of Lackey, Foundry, the vtt room and CGS; the
    # Tabletop Playground package uses the TTS sheets), the back once more for the thumbnail.
    assert sorted(map(str, faces)) == sorted(map(str, [*deck.cards, None, None]))
    assert (tmp_path / "lackey").is_dir() and any((tmp_path / "tts").glob("mini-sheet-1-*.jpg"))
    assert (tmp_path / "foundry" / "mini.json").is_file() and (tmp_path / "vtt" / "mini.pcio.zip").is_file()
    assert (tmp_path / "cgs" / "mini" / "cgs.json").is_file() and (tmp_path / "ttp" / "mini" / "Manifest.json").is_file()
    assert {p.name for p in (tmp_path / "ttp" / "mini" / "Textures" / "mini").glob("*sheet*")} == \
        {p.name for p in (tmp_path / "tts").glob("*sheet*")}


def test_rulebook_pictures_come_from_the_images_steps_pages(mini, tmp_path, monkeypatch):
    from generator.rulebook import write_rulebooks

    deck = load_deck(mini)
    clear_cache()
    images.build_images(deck, tmp_path)
    drawn = []
    draw = raster.draw_pages
    monkeypatch.setattr(raster, "draw_pages", lambda *args: drawn.append(args) or draw(*args))
    written = write_rulebooks(deck, tmp_path, ("md",))
    assert drawn == []
    pictures = [path for path in written if path.suffix == ".png"]
    with Image.open(pictures[0]) as picture:
        assert picture.width == round(deck.card_size.width_mm / 25.4 * 110) and picture.mode == "P"


def test_every_embedded_web_font_face_loads_in_chromium(mini, tmp_path, page):
    from generator.rulebook import write_rulebooks

    [html] = write_rulebooks(load_deck(mini), tmp_path, ("html",))
    assert html.read_text(encoding="utf-8").count("data:font/woff;base64,") == 8
    page.goto(html.as_uri())
    statuses = page.evaluate("async () => Promise.all([...document.fonts].map("
                             "face => face.load().then(f => f.status, () => 'error')))")
    assert statuses == ["loaded"] * 8
