"""What every table test checks once a game is played: each answer a seat's page got was the
engine's view for that seat at that moment and showed no card hidden in another hand, and the
game's log, replayed by `deckgen referee`, gives the scores the table gave."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.conftest import ROOT


def plain(data):
    return json.loads(json.dumps(data))


def copies_by_code(deck) -> Counter:
    counts: Counter = Counter()
    for card in deck.cards:
        counts[card.code] += card.count
    return counts


def shown_cards(game: dict) -> list[str]:
    """Every card code an answer shows as a card (not history: the moves told and the score sheet)."""
    view = game["view"]
    codes = list(view["hand"]) + [card["code"] for area in view["areas"] for card in area["cards"]]
    codes += [code for move in game["moves"] for code in move["cards"]]
    if game["last_trick"]:
        codes += [card["code"] for card in game["last_trick"]["cards"]]
    return codes


def check_answers(answers: list[dict], table, number: int) -> int:
    """Check every answer about game `number` (played on `table`, with no move taken back);
    return how many were checked."""
    game = table.game
    unique = {code for code, count in copies_by_code(game.deck).items() if count == 1}
    about = sorted((a for a in answers if a.get("game") and a["game"]["number"] == number),
                   key=lambda a: int(a["game"]["step"].split(".")[0]))
    state = game.new_state(len(table.seats))
    state.player_names = table.names
    applied = 0
    for answer in about:
        step = int(answer["game"]["step"].split(".")[0])
        while applied < step:
            state.apply(table.actions[applied])
            applied += 1
        seat = answer["you"]["seat"]
        assert answer["game"]["view"] == plain(state.view(seat)), f"step {step}: not seat {seat}'s view"
        hidden = {code for other in range(len(table.seats)) if other != seat
                  for code in state.view(other)["hand"] if code in unique}
        leaked = hidden & set(shown_cards(answer["game"]))
        assert not leaked, f"step {step}: seat {seat} was shown {sorted(leaked)}, held by another seat"
        assert answer["game"]["moves"] == [] or answer["game"]["to_act"] == seat
    return len(about)


def referee_scores(deck: Path | str, log: Path) -> dict:
    """`deckgen referee DECK LOG --json`, run as a user runs it."""
    done = subprocess.run([sys.executable, "-m", "generator", "referee", str(deck), str(log), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)
