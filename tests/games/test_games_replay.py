"""`deckgen referee DECK LOG --html`: one self-contained page to step through a refereed game,
checked in a real headless Chromium: step with the keys and the buttons, reach the violation,
read the rule and the legal options it shows."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from generator.games.logs import dump_log

from tests.browser import external_requests

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def write_page(run_cli, tmp_path: Path, deck: str, log: Path, expect: int) -> Path:
    page_path = tmp_path / "replay.html"
    result = run_cli("referee", deck, log, "--html", "--output", page_path)
    assert result.exit_code == expect, result.stdout + result.stderr
    assert f"step-through page written to {page_path}" in result.stdout
    return page_path


def counter(page) -> str:
    return page.inner_text("#counter")


def test_step_to_the_violation_and_read_its_rule(run_cli, tmp_path, page):
    path = write_page(run_cli, tmp_path, "wizard", EXAMPLES / "wizard-illegal.toml", expect=1)
    page.goto(path.as_uri())
    assert external_requests(page.deckgen_requests) == [] and len(page.deckgen_requests) == 1
    assert counter(page) == "Step 0 of 52" and page.is_disabled("#back")
    assert page.is_hidden("#violation")
    page.keyboard.press("ArrowRight")
    assert counter(page) == "Step 1 of 52"
    assert page.inner_text("#action").startswith("chance: first dealer: ")
    page.click("#forward")
    page.click("#forward")
    page.click("#forward")
    assert counter(page) == "Step 4 of 52" and page.inner_text("#action") == "West: bid 0"
    assert "allowed by Rule 4.1 Order and range [wizard.bidding.order]" in page.inner_text("#action-rule")
    page.keyboard.press("End")
    assert counter(page) == "Step 52 of 52" and page.is_visible("#violation")
    assert page.inner_text("#v-message") == "North plays JH, but Clubs was led and they hold Clubs: they must follow suit"
    assert page.inner_text("#v-rule") == "Rule 5.2 Following suit [wizard.play.follow]"
    assert page.inner_text("#v-text").startswith("If you hold a card of the suit that was led")
    assert page.locator("#v-legal .chip").all_inner_texts() == ["7C", "KC"]
    assert page.locator("#steps li.current").inner_text().endswith("✗ North: JH")
    # the table as the violation found it: North still holds the card refused
    assert "JH" in page.locator("#hands tr").nth(0).inner_text()
    assert page.locator("#areas .chip").all_inner_texts() == ["South: 3C", "West: JE"]
    page.keyboard.press("ArrowLeft")
    assert page.is_hidden("#violation") and page.inner_text("#action") == "West: JE"
    page.click("#first")
    assert counter(page) == "Step 0 of 52"
    page.keyboard.press("v")
    assert page.is_visible("#violation")
    page.click("#steps li:nth-child(3)")
    assert counter(page) == "Step 2 of 52" and page.inner_text("#action").startswith("chance: deal")


def test_an_incomplete_log_shows_who_owes_what(run_cli, tmp_path, page):
    data = tomllib.loads((EXAMPLES / "quidditch-v2-short.toml").read_text())
    data["turns"] = data["turns"][:7]
    data["turns"][6]["actions"] = data["turns"][6]["actions"][:5]  # Draco scores; Harriet's answer is owed
    header = {key: value for key, value in data.items() if key not in ("setup", "turns")}
    log = tmp_path / "short.toml"
    log.write_text(dump_log(header, {"setup": data["setup"], "turns": data["turns"]}), encoding="utf-8")
    path = write_page(run_cli, tmp_path, "quidditch-v2", log, expect=0)
    page.goto(path.as_uri())
    assert page.inner_text("#status") == "legal so far, incomplete"
    assert page.is_hidden("#pending")
    page.keyboard.press("End")
    assert page.is_visible("#pending")
    assert page.inner_text("#p-owes") == "Still owed: Harriet: an answer to a goal in Draco's turn"
    assert "[qv2.response.saved]" in page.inner_text("#p-rule")
    assert set(page.locator("#p-legal .chip").all_inner_texts()) == {"play SAVED", "decline"}


def test_a_finished_game_fits_a_phone_screen(run_cli, tmp_path, chromium):
    path = write_page(run_cli, tmp_path, "muggle-quidditch", EXAMPLES / "muggle-quidditch.toml", expect=0)
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        phone = context.new_page()
        phone.goto(path.as_uri())
        assert phone.inner_text("#status") == "legal, game finished"
        assert phone.is_hidden("#result")
        phone.keyboard.press("End")
        assert phone.locator("#r-list li").all_inner_texts() == ["P1: 220 (winner)", "P2: 80"]
        assert phone.locator("#hands tr").count() == 2
        assert "Top discard" in phone.inner_text("#counters")
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        context.close()


def test_html_goes_to_the_output_folder_by_default(run_cli, tmp_path):
    result = run_cli("referee", "wizard", EXAMPLES / "wizard-4p.toml", "--html", "--decks-dir", ROOT / "decks",
                     cwd=tmp_path)
    assert result.exit_code == 0
    page = tmp_path / "output" / "wizard" / "replays" / "wizard-4p.html"
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "<script src" not in text and "<link" not in text


def test_output_without_html_is_a_usage_error(run_cli, tmp_path):
    result = run_cli("referee", "wizard", EXAMPLES / "wizard-4p.toml", "--output", tmp_path / "x.html")
    assert result.exit_code == 2 and "--html" in result.stderr
    assert not (tmp_path / "x.html").exists()


def test_log_text_cannot_break_out_of_the_page(run_cli, tmp_path, page):
    """Names from a log reach the page as data: a player called </script><b>N stays text."""
    name = "</script><b>N"
    log = tmp_path / "names.toml"
    log.write_text(dump_log({"deck": "wizard", "players": [name, "E", "S"], "seed": 4},
                            {"rounds": [{"dealer": "S"}]}), encoding="utf-8")
    path = write_page(run_cli, tmp_path, "wizard", log, expect=0)
    page.goto(path.as_uri())
    assert name in page.inner_text("#players")
    assert page.locator("header b").count() == 0 and page.locator("#hands td").first.inner_text() == name
    page.keyboard.press("End")
    assert page.inner_text("#p-owes") == f"Still owed: {name}'s bid for round 1"


def counters(page) -> dict[str, str]:
    names = page.locator("#counters dt").all_inner_texts()
    return dict(zip(names, page.locator("#counters dd").all_inner_texts()))


def go_to(page, text: str) -> None:
    page.locator("#steps li", has_text=text).first.click()  # the first time it happens


@pytest.mark.parametrize("width", [1280, 400])
def test_each_trick_shows_its_winner_and_each_round_keeps_its_counters(run_cli, tmp_path, chromium, width):
    """Round 2 of the Wizard example: East trumps trick 1 with 2S, North's Wizard takes trick 2 and
    ends the round. The finished trick stays on the table with its winner, and until round 3 is
    dealt the counters are round 2's (its trump, bids and tricks), never round 3 with old trump."""
    path = write_page(run_cli, tmp_path, "wizard", EXAMPLES / "wizard-4p.toml", expect=0)
    context = chromium.new_context(viewport={"width": width, "height": 900})
    shots = Path(os.environ.get("DECKGEN_SCREENSHOTS", tmp_path))
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        go_to(page, "East wins trick 1 with 2S")
        assert page.inner_text("#action") == "West: 9C" and page.is_visible("#action-note")
        assert page.inner_text("#action-note") == "East wins trick 1 with 2S"
        first_area = page.locator("#areas tr").first
        assert first_area.locator("th").inner_text() == "Round 2, trick 1: won by East (2S)"
        assert first_area.locator(".chip").all_inner_texts() == ["North: 8H", "East: 2S", "South: 3D", "West: 9C"]
        assert counters(page) == {"Round": "2", "Dealer": "West", "Tricks won": "0 / 1 / 0 / 0", "Turned": "QS",
                                  "Trump": "Spades", "Bids": "1 / 1 / 1 / 0"}
        page.keyboard.press("ArrowRight")  # East leads trick 2: the taken trick is gone, no note
        assert page.is_hidden("#action-note") and page.locator("#areas th").all_inner_texts() == ["Trick 2"]
        go_to(page, "North wins trick 2 with WZ")
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"replay-trick-won-{width}.png"), full_page=True)
        assert page.locator("#areas th").first.inner_text() == "Round 2, trick 2: won by North (WZ)"
        assert counters(page) == {"Round": "2 (over)", "Dealer": "West", "Next dealer": "North",
                                  "Tricks won": "1 / 1 / 0 / 0", "Turned": "QS", "Trump": "Spades",
                                  "Bids": "1 / 1 / 1 / 0"}
        page.keyboard.press("ArrowRight")  # round 3 dealt: nothing of round 2 stays in its counters
        assert page.inner_text("#action").startswith("chance: deal")
        page.screenshot(path=str(shots / f"replay-next-deal-{width}.png"), full_page=True)
        assert counters(page) == {"Round": "3", "Dealer": "North", "Tricks won": "0 / 0 / 0 / 0", "Turned": "-",
                                  "Trump": "-", "Bids": "-"}
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        context.close()


def test_a_wizard_hearts_hand_keeps_its_shun_suit_and_direction_to_its_end(run_cli, tmp_path, page):
    path = write_page(run_cli, tmp_path, "wizard-hearts", EXAMPLES / "wizard-hearts-5p.toml", expect=0)
    page.goto(path.as_uri())
    go_to(page, "Eli wins trick 19 with WF")
    assert page.locator("#areas th").first.inner_text() == "Round 1, trick 19: won by Eli (WF)"
    assert counters(page) == {"Round": "1 (over)", "Dealer": "Cleo", "Next dealer": "Dev",
                              "Tricks won": "1 / 3 / 3 / 1 / 11", "Shun suit": "Sun", "Passing": "left",
                              "Cards passed": "3 / 3 / 3 / 3 / 3", "Hand points": "-2 / 7 / -2 / -2 / 11"}
    page.keyboard.press("ArrowRight")  # hand 2's Shun suit is revealed; nothing is dealt yet
    assert page.inner_text("#action") == "chance: shun Moon"
    assert counters(page) == {"Round": "2", "Dealer": "Dev", "Tricks won": "0 / 0 / 0 / 0 / 0", "Shun suit": "Moon",
                              "Passing": "right", "Cards passed": "-", "Hand points": "-"}
