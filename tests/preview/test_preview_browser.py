"""`deckgen watch` in a real Chromium: a save redraws just the edited card on the page, a broken
save shows the CLI's error over the last good pictures, and the page reads well on a phone."""

from __future__ import annotations

import shutil
import urllib.request
from pathlib import Path

import pytest

from generator.deck.loader import load_deck
from generator.preview.app import start_preview
from generator.faces.images import card_pngs
from tests.browser import external_requests

from tests.conftest import DECKS, ROOT

DPI = 60
ALL_LOADED = ("document.querySelectorAll('.tile img').length > 0 && "
              "[...document.querySelectorAll('.tile img')].every(img => img.complete && img.naturalWidth > 0)")
SCREENSHOTS = Path(__import__("os").environ.get("DECKGEN_SCREENSHOTS", "/tmp/deckgen-preview-shots"))


@pytest.fixture
def deck_file(tmp_path) -> Path:
    folder = tmp_path / "deck"
    folder.mkdir()
    path = folder / "quidditch-v2.toml"
    shutil.copy(DECKS / "quidditch-v2.toml", path)
    return path


@pytest.fixture
def preview(deck_file, tmp_path):
    running = start_preview(deck_file, output_dir=tmp_path / "out", dpi=DPI)
    try:
        yield running
    finally:
        running.stop()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def shown(page, key: str) -> str:
    """The content hash of the picture a tile shows, once loaded."""
    return page.eval_on_selector(f'[data-key="{key}"] img', "img => img.dataset.loaded || ''")


def open_page(page, preview) -> None:
    page.goto(preview.url)
    page.wait_for_function(ALL_LOADED)
    page.wait_for_selector(".live.on")


def image_requests(page) -> list[str]:
    return [url for url in page.deckgen_requests if "/img/" in url]


def test_saved_text_redraws_only_that_card(page, preview, deck_file):
    open_page(page, preview)
    tiles = page.locator(".tile").count()
    assert tiles == len(preview.session.cards)
    assert page.locator('[data-key="face:sweeping-play"] figcaption').inner_text().startswith("Sweeping Play\nSWEEP")
    old = shown(page, "face:sweeping-play")
    other = shown(page, "face:quaffle")
    requested_before = len(image_requests(page))

    edit(deck_file, 'text = "Gain 3 dominance."', 'text = "Gain 3 dominance, then shout it."')
    page.wait_for_function(f"""document.querySelector('[data-key="face:sweeping-play"] img').dataset.loaded
                               && document.querySelector('[data-key="face:sweeping-play"] img').dataset.loaded !== '{old}'""",
                           timeout=20000)
    new = shown(page, "face:sweeping-play")
    assert page.locator('[data-key="face:sweeping-play"]').evaluate("tile => tile.classList.contains('changed')")

    # The picture on the page is a fresh render of the saved deck, and shows the new words.
    deck = load_deck(deck_file)
    fresh = card_pngs(deck, [deck.card("SWEEP")], DPI)[0]
    src = page.eval_on_selector('[data-key="face:sweeping-play"] img', "img => img.src")
    assert urllib.request.urlopen(src).read() == fresh
    assert new in src and shown(page, "face:quaffle") == other

    # Only the changed card's picture was asked for again.
    page.wait_for_timeout(300)
    assert image_requests(page)[requested_before:] == [src]
    assert external_requests(page.deckgen_requests) == []


def test_broken_save_shows_the_error_and_keeps_the_pictures(page, preview, deck_file):
    open_page(page, preview)
    before = {key: shown(page, key) for key in ("face:quaffle", "face:sweeping-play")}
    assert page.locator("#error").is_hidden()

    edit(deck_file, 'code = "SWEEP"', 'code = "QUAFFLE"')
    page.wait_for_selector("#error:not([hidden])", timeout=20000)
    message = page.inner_text("#error-text")
    assert message.splitlines() == preview.session.error
    assert message.startswith(f"{deck_file}:") and ": error: " in message and "QUAFFLE" in message
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "error-desktop.png"))
    assert {key: shown(page, key) for key in before} == before
    assert page.locator(".tile").count() == len(preview.session.cards)

    edit(deck_file, 'code = "QUAFFLE"\nkind = "action"', 'code = "SWEEP"\nkind = "action"')
    page.wait_for_selector("#error", state="hidden", timeout=20000)
    assert {key: shown(page, key) for key in before} == before


def test_toggles_zoom_and_problem_links(page, tmp_path):
    deck_file = tmp_path / "overflowing.toml"
    shutil.copy(ROOT / "tests" / "fixtures" / "overflowing-text.toml", deck_file)
    running = start_preview(deck_file, output_dir=tmp_path / "out", dpi=DPI)
    try:
        open_page(page, running)
        page.wait_for_selector("#problems li")
        # The overflowing card wears a badge, and its problem links to it.
        badge = page.locator(".tile:has(.badge)").first
        assert "overflow" in badge.locator(".badge").all_inner_texts()
        link = page.locator("#problems li a").first
        target = link.get_attribute("href")
        assert target == "#" + badge.get_attribute("id")
        # The flash lasts 1.5 s, less than a round trip to a loaded machine may take: the tile
        # notes when it starts.
        page.locator(target).evaluate("tile => new MutationObserver(() => {"
                                      " if (tile.classList.contains('flash')) tile.dataset.flashed = 'yes'; })"
                                      ".observe(tile, {attributes: true, attributeFilter: ['class']})")
        link.click()
        page.wait_for_function("id => document.getElementById(id).dataset.flashed === 'yes'", arg=target[1:])

        card = page.locator(".tile .card").first
        trimmed = card.bounding_box()
        page.check("input[name=bleed]")
        with_bleed = card.bounding_box()
        geometry = running.session.state()["geometry"]
        (tw, th), b = geometry["trim_mm"], geometry["bleed_mm"]
        assert trimmed["height"] / trimmed["width"] == pytest.approx(th / tw, rel=0.02)
        assert with_bleed["height"] / with_bleed["width"] == pytest.approx((th + 2 * b) / (tw + 2 * b), rel=0.02)
        page.check("input[name=safe]")
        assert page.locator(".tile .safe").first.is_visible()
        page.check("input[name=rounded]")
        page.uncheck("input[name=bleed]")
        radius = card.evaluate("node => getComputedStyle(node).borderTopLeftRadius")
        assert radius not in ("0px", "")

        back = running.session.cards[-1]
        page.check("input[name=side][value=back]")
        page.wait_for_function(ALL_LOADED)
        first_face = running.session.cards[0].key
        assert shown(page, first_face) == back.hash
        page.check("input[name=side][value=face]")

        page.locator(".tile button.view").first.click()
        page.wait_for_function("document.querySelector('#zoom img') && document.querySelector('#zoom img').complete"
                               " && document.querySelector('#zoom img').naturalWidth > 0")
        natural = page.eval_on_selector("#zoom img", "img => img.naturalWidth")
        assert natural == round((tw + 2 * b) / 25.4 * 300)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "zoom-desktop.png"))
        page.click("#zoom-close")
        assert external_requests(page.deckgen_requests) == []
    finally:
        running.stop()


@pytest.mark.parametrize("width,height,name", [(1280, 900, "desktop"), (390, 844, "phone")])
def test_page_fits_desktop_and_phone(chromium, preview, width, height, name):
    context = chromium.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(preview.url)
        page.wait_for_function(ALL_LOADED)
        page.wait_for_selector("#problems-summary:has-text('problems found'), #problems li")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        tile = page.locator(".tile").first.bounding_box()
        assert 100 <= tile["width"] <= width / 2
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"cards-{name}.png"))
    finally:
        context.close()
