"""`deckgen play` in real Chromium: people in separate browser contexts (each on their own link)
and bots play whole games of the shipped decks; every answer a page got is that seat's view and
no more; a reloaded page carries on; a wrong card is refused with the referee's rule; each
finished log replays through `deckgen referee` to the scores the table showed."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from generator.play.app import parse_seats, start_table
from tests.browser import external_requests
from tests.conftest import DECKS, ROOT
from tests.play.checks import check_answers, plain, referee_scores
from tests.play.people import Person, play_until, seat_people

SCREENSHOTS = Path(os.environ.get("DECKGEN_SCREENSHOTS", "/tmp/deckgen-play-shots"))
BOT_DELAY = 0.01  # bots at test speed; people wait for them all the same


@pytest.fixture
def table_for(tmp_path):
    """Start a table for a copy of a shipped deck; stopped after the test."""
    running = []

    def start(deck_id: str, seats: str, seed: int, **options):
        folder = tmp_path / "deck"
        folder.mkdir(exist_ok=True)
        deck = folder / f"{deck_id}.toml"
        shutil.copy(DECKS / f"{deck_id}.toml", deck)
        table = start_table(deck, logs_dir=tmp_path / "logs", bot_delay=BOT_DELAY, seed=seed,
                            seats=parse_seats(seats), dpi=60, **options)
        running.append(table)
        return table

    yield start
    for table in running:
        table.stop()


def screenshot(chromium, url: str, name: str) -> None:
    """The page of `url` at desktop and phone width, saved for a person to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1280, 900), (400, 860)):
        context = chromium.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector(".live.on")
            page.wait_for_function("() => [...document.images].every(img => img.complete)")
            # nothing may be wider than the screen: the page scrolls down, never sideways
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"), full_page=True)
        finally:
            context.close()


def leave(people: list[Person], played, least: int, number: int = 1) -> None:
    """Every answer each person's page got about game `number` was their seat's view and no more
    (at least `least` answers each), the pages raised no script error; then they leave."""
    for person in people:
        assert check_answers(person.answers, played, number) > least
        assert person.errors == []
        person.close()


def final_scores(person: Person) -> list[int]:
    person.page.wait_for_function("() => window.deckgenTable.state.game.over")
    game = person.game()
    assert game["over"] and game["outcome"]
    return game["outcome"]["scores"]


def test_a_whole_wizard_game_two_people_and_a_bot(chromium, table_for):
    table = table_for("wizard", "person,person,heuristic", seed=11)
    ann, ben = seat_people(chromium, table, [1, 2])
    session = table.session
    played = session.table

    # Round 5, someone's turn in the middle of a trick: a card that does not follow suit is refused.
    def must_follow() -> bool:
        game = ann.game()
        cards = {code for move in game["moves"] for code in move["cards"]}
        return played.state.round >= 4 and ann.my_turn() and bool(cards) and bool(set(game["view"]["hand"]) - cards)

    play_until([ann, ben], must_follow)
    game = ann.game()
    wrong = sorted(set(game["view"]["hand"]) - {code for move in game["moves"] for code in move["cards"]})[0]
    ann.page.click(f'.hand button.card[data-code="{wrong}"]')
    ann.page.wait_for_selector("#refusal:not([hidden])")
    refusal = ann.page.inner_text("#refusal")
    assert "wizard.play.follow" in refusal and wrong in refusal and "Legal here:" in refusal
    assert ann.game()["step"] == game["step"] and wrong in ann.game()["view"]["hand"]
    assert ann.hand_in_page() == Counter(game["view"]["hand"])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 400):  # Ann's own page, the refusal on it
        ann.page.set_viewport_size({"width": width, "height": 900})
        assert ann.page.evaluate("() => document.documentElement.scrollWidth") <= width
        ann.page.screenshot(path=str(SCREENSHOTS / f"wizard-refusal-{width}.png"), full_page=True)

    # Ben reloads his page in the middle of a round and carries on with the same hand.
    play_until([ann, ben], lambda: played.state.round >= 6 and played.state.trick_number >= 2)
    before = ben.game()["view"]["hand"]
    ben.page.reload()
    ben.page.wait_for_selector(".live.on")
    assert ben.game()["view"]["hand"] == before and ben.hand_in_page() == Counter(before)

    moves = play_until([ann, ben], lambda: played.over, seconds=600)
    assert moves > 150
    scores = final_scores(ann)
    assert final_scores(ben) == scores
    assert ann.page.locator("#over").is_visible() and "Game over" in ann.page.inner_text("#over")
    screenshot(chromium, table.owner_url, "wizard-over")

    report = referee_scores(session.deck_path, played.log_path)
    assert report["status"] == "legal" and report["finished"] and report["scores"] == scores
    assert {answer["you"]["seat"] for answer in ben.answers} == {1}
    assert external_requests(ann.requests + ben.requests) == []
    assert all("/t/" in url for url in ann.requests + ben.requests)
    leave([ann, ben], played, least=200)


def test_muggle_quidditch_to_the_snitch(chromium, table_for):
    table = table_for("muggle-quidditch", "person,person", seed=3)
    alice, bob = seat_people(chromium, table, [4, 5])
    played = table.session.table
    screenshot_taken = False

    def done() -> bool:
        nonlocal screenshot_taken
        if not screenshot_taken and played.state.turn >= 12:
            screenshot(chromium, table.owner_url, "muggle-quidditch")
            screenshot_taken = True
        return played.over

    play_until([alice, bob], done, seconds=600)
    assert played.state.caught_by is not None, "the match ended by the turn cap, not the Snitch"
    scores = final_scores(bob)
    report = referee_scores(table.session.deck_path, played.log_path)
    assert report["status"] == "legal" and report["scores"] == scores
    leave([alice, bob], played, least=30)


def test_a_wizard_hearts_hand_with_passing(chromium, table_for):
    table = table_for("wizard-hearts", "person,person,heuristic,heuristic", seed=8)
    cleo, dan = seat_people(chromium, table, [6, 7])
    played = table.session.table
    play_until([cleo, dan], lambda: cleo.my_turn())
    game = cleo.game()
    assert game["owes"].startswith("P1 to pass 3 more cards to P2")
    held = list(game["view"]["hand"])
    passed = [cleo.play(), cleo.play()]
    assert [text.split()[1] for text in passed] == [card["code"] for area in cleo.game()["view"]["areas"]
                                                   if area["kind"] == "pass" for card in area["cards"]]
    screenshot(chromium, table.owner_url, "wizard-hearts-passing")
    passed.append(cleo.play())
    sent = [text.split()[1] for text in passed]
    assert all(code not in cleo.hand_in_page() for code in sent)
    # Dan, to whom Cleo passes, sees nothing of the cards until the passes are exchanged.
    assert not set(sent) & set(dan.table_in_page()) and not set(sent) & set(dan.hand_in_page())
    play_until([cleo, dan], lambda: played.state.phase == played.state.PLAY)
    size = played.game.hand_size(4)
    dan.page.wait_for_function("size => window.deckgenTable.state.game.view.hand.length === size", arg=size)
    cleo.page.wait_for_function("size => window.deckgenTable.state.game.view.hand.length === size", arg=size)
    assert set(sent) <= set(dan.game()["view"]["hand"])
    assert not set(sent) & set(cleo.game()["view"]["hand"])
    assert set(held) - set(sent) <= set(cleo.game()["view"]["hand"])

    play_until([cleo, dan], lambda: played.state.round >= 1 or played.over)
    cleo.page.wait_for_function("() => document.getElementById('sheet').textContent.includes('Hand 1: dealer')")
    sheet = cleo.page.inner_text("#sheet")
    assert "Hand 1: dealer" in sheet and "passing left" in sheet
    hand_points = played.state.history[0]["points"]
    assert sum(hand_points) != 0 or played.state.history[0]["totals"] == hand_points
    log = played.log_path.read_text()
    assert 'passes.P1 = [' in log and log.count("[[rounds]]") >= 1
    report = referee_scores(table.session.deck_path, played.log_path)
    assert report["status"] in ("legal", "incomplete") and report["rounds"][0]["columns"]["points"] == hand_points
    leave([cleo, dan], played, least=20)


def test_the_owner_seats_the_players_on_the_page(chromium, tmp_path):
    table = start_table(DECKS / "wizard.toml", logs_dir=tmp_path / "logs", bot_delay=BOT_DELAY, seed=1, dpi=60,
                        watch=False)
    try:
        owner = Person(chromium.new_context(), table, 0, seed=1).open(table.owner_url)
        page = owner.page
        assert page.locator("#setup").is_visible() and "Waiting for the owner" in page.inner_text("#status")
        page.select_option("#player-count", "4")
        rows = page.locator(".seat-row")
        assert rows.count() == 4
        for index, (name, kind) in enumerate((("Ann", "person"), ("Ben", "person"), ("Bot", "random"),
                                              ("Max", "heuristic"))):
            rows.nth(index).locator("input").fill(name)
            rows.nth(index).locator("select").select_option(kind)
        page.click("#deal")
        page.wait_for_selector(".links li")
        assert page.inner_text(".links li").startswith("Ben: http://127.0.0.1:")
        assert [entry.name for entry in table.session.plan] == ["Ann", "Ben", "Bot", "Max"]
        ben = Person(chromium.new_context(), table, 1, seed=2).open(page.get_attribute(".links li a", "href"))
        assert ben.state()["you"]["name"] == "Ben" and "owner" not in ben.state()
        play_until([owner, ben], lambda: table.session.table.state.round >= 1)
        leave([owner, ben], table.session.table, least=3)
    finally:
        table.stop()


def test_hot_seat_hides_each_hand_until_the_device_is_handed_over(chromium, table_for):
    table = table_for("wizard", "person,person,heuristic", seed=5, hot_seat=True)
    assert table.seat_urls() == {}
    device = Person(chromium.new_context(), table, 0, seed=3).open(table.owner_url)
    page = device.page
    played = table.session.table
    handed = 0
    while played.state.round < 2:
        page.wait_for_function("() => !document.getElementById('cover').hidden"
                               " || (window.deckgenTable.state.game && window.deckgenTable.state.game.your_turn)")
        game = device.game()
        if game["pass_to"]:
            name = game["pass_to"]["name"]
            assert page.inner_text("#cover h2") == f"Pass the device to {name}"
            assert game["view"]["hand"] == [] and device.hand_in_page() == {} and game["moves"] == []
            if handed == 1:
                screenshot(chromium, table.owner_url, "hot-seat-cover")
            page.click("#hand-over")
            page.wait_for_function("name => window.deckgenTable.state.you.name === name", arg=name)
            handed += 1
            continue
        seat = device.state()["you"]["seat"]
        assert game["view"] == plain(played.state.view(seat))
        device.seat = seat
        device.play()
    assert handed >= 4
    leave([device], played, least=10)


def test_new_rules_are_offered_for_the_next_game(chromium, table_for):
    table = table_for("wizard", "person,heuristic,heuristic", seed=9, watch=True)
    owner = Person(chromium.new_context(), table, 0, seed=8).open(table.owner_url)
    play_until([owner], lambda: table.session.table.state.round >= 1)
    deck = table.session.deck_path
    deck.write_text(deck.read_text().replace('bid_restriction = "every-round"', 'bid_restriction = "never-even"')
                    .replace('name = "Wizard"', 'name = "Wizard, house rules"', 1))
    owner.page.wait_for_selector("#new-rules")
    screenshot(chromium, table.owner_url, "new-rules")
    first = table.session.table
    owner.page.click("#deal-new-rules")
    owner.page.wait_for_function("() => window.deckgenTable.state.game.number === 2")
    assert owner.page.inner_text("#title").startswith("Wizard, house rules")
    assert table.session.table.game.params["bid_restriction"] == "never-even"
    assert first.game.params["bid_restriction"] == "every-round"
    assert referee_scores(deck, first.log_path)["status"] == "incomplete"
    owner.close()


def test_a_designers_own_game_is_played_and_a_rule_change_takes_the_next_game(chromium, run_cli, tmp_path):
    """`deckgen new --kind trick`, played; then its [rules] changed in the TOML alone (Suns made
    trump, two points a trick) and the next game played to the end under them, and refereed."""
    assert run_cli("new", str(tmp_path / "mine"), "--kind", "trick").exit_code == 0
    deck = tmp_path / "mine" / "mine.toml"
    table = start_table(deck, logs_dir=tmp_path / "logs", bot_delay=BOT_DELAY, seed=4, dpi=60,
                        seats=parse_seats("person,heuristic,heuristic"))
    try:
        eve, = seat_people(chromium, table, [3])
        first = table.session.table
        play_until([eve], lambda: first.state.round >= 1)
        assert first.game.rules.trump.kind == "none"
        text = deck.read_text()
        changed = text.replace('kind = "none"', 'kind = "fixed"\nsuit = "suns"\nrule = "mine.play.winner"', 1) \
            .replace('round = "tricks"', 'round = "tricks * 2"', 1)
        assert changed != text
        deck.write_text(changed)
        eve.page.wait_for_selector("#new-rules")
        eve.page.click("#deal-new-rules")
        eve.page.wait_for_function("() => window.deckgenTable.state.game.number === 2")
        second = table.session.table
        play_until([eve], lambda: eve.my_turn())
        assert second.game.rules.trump.kind == "fixed" and eve.game()["view"]["counters"]["Trump"] == "Suns"
        play_until([eve], lambda: second.over, seconds=600)
        scores = final_scores(eve)
        assert all(score % 2 == 0 for score in scores) and sum(scores) == 2 * 13 * 3  # 13 tricks a deal, 3 deals
        report = referee_scores(deck, second.log_path)
        assert report["status"] == "legal" and report["finished"] and report["scores"] == scores
        # the HTML replay steps through the game the table wrote, to the same standings
        replay = tmp_path / "replay.html"
        assert run_cli("referee", deck, second.log_path, "--html", "--output", replay).exit_code == 0
        page = eve.page.context.new_page()
        page.goto(replay.as_uri())
        page.keyboard.press("End")
        assert page.is_visible("#result") and page.is_hidden("#violation")
        standings = page.locator("#r-list li").all_inner_texts()
        assert sorted(int(re.search(r"-?\d+", line.split(":")[-1]).group()) for line in standings) == sorted(scores)
        page.close()
        leave([eve], second, least=20, number=2)
    finally:
        table.stop()


def test_a_whole_quidditch_v2_game_with_a_person_and_two_bots(chromium, table_for):
    table = table_for("quidditch-v2", "person,heuristic,heuristic", seed=2)
    ida, = seat_people(chromium, table, [9])
    played = table.session.table
    play_until([ida], lambda: played.state.turn_slots >= 7)
    screenshot(chromium, table.owner_url, "quidditch-v2")
    shown = ida.page.locator("#areas [data-code]").first
    code = shown.get_attribute("data-code")
    shown.click()  # a card on the table, larger, to read its text
    assert ida.page.locator("#zoom").is_visible()
    assert ida.page.get_attribute("#zoom-body [data-code]", "data-code") == code
    ida.page.wait_for_function("() => document.querySelector('#zoom img').complete")
    assert ida.page.eval_on_selector("#zoom img", "img => img.naturalWidth") > 100
    ida.page.click("#zoom-close")
    play_until([ida], lambda: played.over, seconds=600)
    scores = final_scores(ida)
    report = referee_scores(table.session.deck_path, played.log_path)
    assert report["status"] == "legal" and report["scores"] == scores
    leave([ida], played, least=20)


def test_deckgen_watch_has_a_play_tab(chromium, tmp_path):
    deck = tmp_path / "wizard.toml"
    shutil.copy(DECKS / "wizard.toml", deck)
    process = subprocess.Popen([sys.executable, "-m", "generator", "watch", str(deck), "--port", "0", "--dpi", "30",
                                "--output", str(tmp_path / "out")], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    context = chromium.new_context()
    try:
        play_url = process.stdout.readline().split(": ", 1)[1].strip()
        preview_url = re.search(r"at (http://\S+) \(Ctrl-C stops\)", process.stdout.readline()).group(1)
        page = context.new_page()
        page.goto(preview_url)
        assert page.inner_text(".tabs").split() == ["Cards", "Play"]
        with context.expect_page() as opened:
            page.click("#tab-play")
        table = opened.value
        table.wait_for_selector(".live.on")
        assert table.url == play_url and table.locator("#setup").is_visible()
        table.click("#deal")  # the suggested seats: you and heuristic bots
        table.wait_for_function("() => window.deckgenTable.state.game && window.deckgenTable.state.game.your_turn")
        assert table.locator(".hand button.card").count() == 1
    finally:
        context.close()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
    assert process.returncode == 0 and "Traceback" not in err
    assert list((tmp_path / "out" / "play").glob("game-*.toml"))


def test_an_open_choice_stays_open_through_an_update_that_is_not_a_move(chromium, table_for):
    """A card with several moves opens a choice; an update of the same step (the owner's editor
    saving the deck unchanged) leaves it open, and the next move closes it."""
    table = table_for("muggle-quidditch", "person,person", seed=3)
    people = seat_people(chromium, table, [4, 5])
    played = table.session.table

    def mover() -> tuple[Person, str] | None:
        """Whose turn it is and a card of their hand that several of their moves use."""
        for person in people:
            if person.my_turn():
                game = person.game()
                uses = Counter(code for move in game["moves"] for code in set(move["cards"]))
                several = [code for code in game["view"]["hand"] if uses[code] >= 2]
                return (person, several[0]) if several else None
        return None

    play_until(people, lambda: mover() is not None or played.over, seconds=120)
    assert not played.over, "no card with several moves came up"
    person, code = mover()
    page = person.page
    page.click(f'.hand button.card[data-code="{code}"]')
    assert page.locator("#choice").is_visible()
    offered = page.eval_on_selector_all("#choice button", "buttons => buttons.map(b => b.dataset.moveText)")
    version = person.state()["version"]
    table.session.reload()  # the deck file saved as it was: a new version, the same step
    page.wait_for_function("version => window.deckgenTable.state.version > version", arg=version)
    assert page.locator("#choice").is_visible()
    assert page.eval_on_selector_all("#choice button", "buttons => buttons.map(b => b.dataset.moveText)") == offered
    person.page.click(f'#choice button[data-move-text="{offered[0]}"]')
    page.wait_for_function("() => document.getElementById('choice').hidden")
    for somebody in people:
        assert somebody.errors == []
        somebody.close()
