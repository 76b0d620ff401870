"""A stock drawn from after each trick (`[rules.deal] leftover = "stock"`), as in German Whist:
Whist from examples/rules changed in its TOML alone into the two-player game. Thirteen cards
each, the rest a stock whose top card is turned for trump; after each trick the winner draws the
top card (the turned one first), then the other player; play goes on until the hands are empty.
Logs list the stock top card first, and the referee checks the turned card and every draw."""

from __future__ import annotations

import json
import random

import pytest

from generator.deck.loader import load_deck
from generator.games.base import IllegalAction, game_for
from generator.games.trick.actions import PLAY, ChooseSeat, Deal, TurnUp

from tests.conftest import ROOT

WHIST = (ROOT / "examples" / "rules" / "whist.toml").read_text(encoding="utf-8")


def german_whist(tmp_path, turned: str = "top", players: str = "{ min = 2, max = 2 }"):
    text = (WHIST.replace("players = { min = 4, max = 4 }", f"players = {players}")
            .replace('teams = "partners"\n', "").replace('by = "team"\n', "")
            .replace('hand = "cards // players"', f'hand = 13\nleftover = "stock"\nturned_in_stock = "{turned}"')
            .replace('kind = "dealer-card"', 'kind = "turn-up"')
            .replace('round = "max(0, tricks - 6)"', 'round = "tricks"')
            .replace('target = "target_score"\nmax_rounds = "max_hands"', "rounds = 1"))
    path = tmp_path / "german-whist.toml"
    path.write_text(text, encoding="utf-8")
    return path


def dealt(path, seed: int = 1):
    game = game_for(load_deck(path))
    state = game.new_state(2)
    state.apply(ChooseSeat(0))
    rng = random.Random(seed)
    state.apply(state.sample_chance(rng))  # the deal
    state.apply(state.sample_chance(rng))  # the turned card
    return game, state, rng


def test_the_winner_draws_the_turned_card_then_the_other_player_draws(tmp_path):
    game, state, rng = dealt(german_whist(tmp_path))
    stock = list(state.info.stock)
    assert len(stock) == 26 and all(len(hand) == 13 for hand in state.hands)
    assert state.info.turned == stock[0] and state.trump == game.table.suit[stock[0]]  # the top card is trump
    assert state.phase == PLAY and state.current_player() == 1
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    winner = state.leader
    assert stock[0] in state.hands[winner] and stock[1] in state.hands[1 - winner]
    assert state.info.stock == stock[2:] and all(len(hand) == 13 for hand in state.hands)
    assert state.view_counters()["Stock"] == "24"
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert sum(state.history[-1]["won"]) == 26  # every card of the pack was played


def test_a_turned_card_at_the_bottom_is_drawn_last(tmp_path):
    _, state, rng = dealt(german_whist(tmp_path, turned="bottom"))
    turned = state.info.turned
    assert turned == state.info.stock[-1]
    while len(state.info.stock) > 2:
        state.apply(rng.choice(state.legal_actions()))
    assert turned in state.info.stock
    for _ in range(2):
        state.apply(rng.choice(state.legal_actions()))
    assert not state.info.stock and turned in state.hands[1 - state.leader]  # the last card, to the trick's loser


def test_players_must_follow_with_the_cards_they_drew(tmp_path):
    game, state, rng = dealt(german_whist(tmp_path))
    suit_of = game.table.suit
    for _ in range(10):  # five tricks, each followed by two draws
        state.apply(rng.choice(state.legal_actions()))
    drawn = [state.hands[seat][-1] for seat in range(2)]  # each hand's last card is its last draw
    leader = state.current_player()
    card = next((c for c in state.hands[leader] if suit_of[c] == suit_of[drawn[1 - leader]]), state.hands[leader][0])
    state.apply(card)
    follower = state.hands[1 - leader]
    follow = [c for c in follower if suit_of[c] == suit_of[card]]
    assert sorted(state.legal_actions()) == sorted(follow or follower)


def test_simulated_logs_list_the_stock_and_the_referee_checks_it(run_cli, tmp_path):
    path = german_whist(tmp_path)
    logs = tmp_path / "logs"
    assert run_cli("simulate", path, "--games", "2", "--seed", "3", "--bot", "heuristic",
                   "--save-logs", logs).exit_code == 0
    log = logs / "game-00001.toml"
    report = json.loads(run_cli("referee", path, log, "--json").stdout)
    assert report["status"] == "legal" and report["finished"]
    text = log.read_text(encoding="utf-8")
    stock_line = next(line for line in text.splitlines() if line.startswith("stock = "))
    stock = json.loads(stock_line.removeprefix("stock = "))
    turned_line = next(line for line in text.splitlines() if line.startswith("turned = "))
    assert turned_line == f'turned = "{stock[0]}"'

    wrong = tmp_path / "wrong-turn.toml"
    wrong.write_text(text.replace(turned_line, f'turned = "{stock[1]}"'), encoding="utf-8")
    result = run_cli("referee", path, wrong)
    assert result.exit_code == 1 and "the card turned for trump is the top card of the stock" in result.stdout
    assert "whist.setup.trump" in result.stdout

    swapped = tmp_path / "swapped.toml"
    order = stock[:]
    order[2], order[3] = order[3], order[2]  # the two cards drawn after trick 2 change hands
    swapped.write_text(text.replace(stock_line, "stock = " + json.dumps(order)), encoding="utf-8")
    assert run_cli("referee", path, swapped).exit_code == 1  # a card played that the drawer does not hold

    missing = tmp_path / "missing.toml"
    missing.write_text(text.replace(stock_line + "\n", ""), encoding="utf-8")
    result = run_cli("referee", path, missing)
    assert result.exit_code != 0 and "list stock too, top card first" in result.stdout + result.stderr

    checked = json.loads(run_cli("engines", "check", path, "--games", "2", "--json").stdout)
    assert checked["failures"] == [], checked


def test_a_turned_card_that_is_not_the_stock_top_is_refused(tmp_path):
    game, state, _ = dealt(german_whist(tmp_path))
    fresh = game.new_state(2)
    fresh.apply(ChooseSeat(0))
    fresh.apply(Deal((tuple(state.hands[0]), tuple(state.hands[1])), tuple(state.info.stock)))
    with pytest.raises(IllegalAction) as caught:
        fresh.apply(TurnUp(state.info.stock[5]))
    assert caught.value.rule == "whist.setup.trump" and "the top card of the stock" in str(caught.value)
    fresh.apply(TurnUp(state.info.stock[0]))
    assert fresh.phase == PLAY


def test_a_stock_that_cannot_be_shared_out_is_an_error_at_its_line(run_cli, tmp_path):
    path = german_whist(tmp_path, players="{ min = 2, max = 3 }")
    result = run_cli("validate", path)
    line = path.read_text(encoding="utf-8").splitlines().index('leftover = "stock"') + 1
    assert result.exit_code == 1
    assert (f"german-whist.toml:{line}: error: rules.deal.leftover: round 1 with 3 players leaves a stock of 13 "
            "card(s), which does not share out one card each after every trick") in result.stdout, result.stdout


def test_a_dealer_who_sits_out_draws_nothing_from_the_stock(tmp_path):
    path = german_whist(tmp_path, players="{ min = 3, max = 3 }")
    text = path.read_text(encoding="utf-8").replace("hand = 13", 'hand = 10\ndealer_sits_out = true', 1)
    path.write_text(text, encoding="utf-8")
    game = game_for(load_deck(path))
    state = game.new_state(3)
    state.apply(ChooseSeat(0))
    rng = random.Random(2)
    state.apply(state.sample_chance(rng))
    state.apply(state.sample_chance(rng))
    assert state.hands[0] == [] and len(state.info.stock) == 32  # 52 - 2 x 10
    while not state.is_terminal() and len(state.history) < 1:
        state.apply(rng.choice(state.legal_actions()))
        assert state.hands[0] == [] or len(state.history) == 1
    assert sum(state.history[0]["won"]) == 26 and state.history[0]["won"][0] == 0
