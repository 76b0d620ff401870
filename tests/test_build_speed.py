"""Build speed: what a build shares between its steps, and that sharing never changes what is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from generator.build import STEPS
from generator.export import write_all
from generator.export.faces import clear_cache
from generator.loader import load_deck
from generator.render import images, raster
from generator.render.images import render_cards
from generator.render.check import text_problems

from .test_render_cli import MINI_DECK, mini  # noqa: F401 (mini is a fixture)


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
    assert (tmp_path / "tts" / "mini-sheet-1.jpg").is_file() and (tmp_path / "images" / "back.png").is_file()


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
