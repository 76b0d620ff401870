"""People at a `deckgen play` table in real Chromium: each a browser page on its own link,
choosing its moves as a seeded heuristic bot would (so games are played sensibly and end),
and making them the way a person does, by clicking a card of its hand or a move's button.

Every JSON answer the page gets from the server (the page itself, `state`, `act`) is kept, so a
test can check that none of them ever showed this seat more than the engine lets it see.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections import Counter

from generator.games.bots import make_bot

STATE_IN_PAGE = re.compile(r'<script type="application/json" id="initial-state">(.*?)</script>', re.S)
ANSWERS = re.compile(r"/t/[A-Za-z0-9_-]+/(state|act)?$")
STEP_CHANGED = "step => !window.deckgenTable.state.game || window.deckgenTable.state.game.step !== step"


class Person:
    """One person: a page on a link, and the bot that chooses for them."""

    def __init__(self, context, running, seat: int, seed: int):
        self.page = context.new_page()
        self.running = running
        self.seat = seat
        self.rng = random.Random(seed)
        self.bot = None
        self.bot_game = None
        self.answers: list[dict] = []  # every JSON the server sent this page
        self.errors: list[str] = []
        self.requests: list[str] = []  # every address the page asked for
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.route(ANSWERS, self._keep)

    def _keep(self, route) -> None:
        try:
            response = route.fetch()
            body = response.text()
        except Exception:  # playwright's Error: the page or its context is closing
            return
        if body.lstrip().startswith("<"):
            found = STATE_IN_PAGE.search(body)
            self.answers.append(json.loads(found.group(1)))
        else:
            answer = json.loads(body)
            self.answers.append(answer.get("state", answer) if "ok" in answer else answer)
        route.fulfill(response=response)

    def close(self) -> None:
        self.page.unroute_all(behavior="ignoreErrors")
        self.page.context.close()

    def open(self, url: str) -> "Person":
        self.page.goto(url)
        self.page.wait_for_selector(".live.on")
        return self

    def state(self) -> dict:
        return self.page.evaluate("() => window.deckgenTable.state")

    def game(self) -> dict | None:
        return self.state()["game"]

    def my_turn(self) -> bool:
        game = self.game()
        return bool(game and game["your_turn"] and not game["over"])

    def choose(self) -> str:
        """The move the seeded bot makes here, as the table writes it."""
        session = self.running.session
        with session.lock:
            table = session.table
            if self.bot_game is not table.game:  # a new game (new rules): a bot for it
                self.bot = make_bot(table.game, "heuristic", self.rng)
                self.bot_game = table.game
            action = self.bot.choose(table.state)
            return table.game.format_action(table.state, action)

    def play(self, text: str | None = None) -> str:
        """Make one move by clicking it (the bot's choice unless `text` is given); wait for the answer."""
        game = self.game()
        text = text or self.choose()
        move = next(move for move in game["moves"] if move["text"] == text)
        hand = game["view"]["hand"]
        held = [code for code in move["cards"] if code in hand]
        if held:
            self.page.click(f'.hand button.card[data-code="{held[0]}"]')
            if self.page.locator("#choice").is_visible():
                self.page.click(f'#choice button[data-move-text="{text}"]')
        else:
            self.page.click(f'#moves button[data-move-text="{text}"]')
        self.page.wait_for_function(STEP_CHANGED, arg=game["step"])
        return text

    def hand_in_page(self) -> Counter:
        return Counter(self.page.eval_on_selector_all(".hand [data-code]", "cards => cards.map(c => c.dataset.code)"))

    def table_in_page(self) -> list[str]:
        return self.page.eval_on_selector_all("#areas [data-code]", "cards => cards.map(c => c.dataset.code)")


def seat_people(chromium, running, seeds: list[int]) -> list["Person"]:
    """A person in a browser context of their own at each person's seat, in seat order: the first
    on the owner's link, the others on theirs; `seeds` seed their choices."""
    links = {seat: url for seat, url in running.seat_urls().items()}
    seats = [seat for seat, entry in enumerate(running.session.plan) if entry.person]
    return [Person(chromium.new_context(), running, seat, seed).open(links.get(seat, running.owner_url))
            for seat, seed in zip(seats, seeds)]


def play_until(people: list[Person], done, seconds: float = 300) -> int:
    """Let each person move whenever it is their turn (bots and chance move by themselves)
    until `done()`; return the number of moves the people made."""
    deadline = time.monotonic() + seconds
    made = 0
    while not done():
        assert time.monotonic() < deadline, "the game did not get there in time"
        moved = False
        for person in people:
            if person.my_turn():
                person.play()
                made += 1
                moved = True
        if not moved:
            time.sleep(0.02)
    return made
