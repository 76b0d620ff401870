"""The dealer sitting a round out (`[rules.deal] dealer_sits_out`): Oh Hell from examples/rules
changed in its TOML alone so that with six or more at the table the dealer sits each hand out.
The dealer is dealt nothing, does not bid, is passed over in every trick and scores nothing that
hand; the deal (and the sitting out) moves on; logs that deal or bid for the dealer are refused."""

from __future__ import annotations

import json
import re
import random

import pytest

from generator.deck.loader import load_deck
from generator.games.base import IllegalAction, game_for
from generator.games.trick.actions import BID, BIDDING, PLAY, ChooseSeat, Deal, TurnUp

from tests.conftest import ROOT

OH_HELL = (ROOT / "examples" / "rules" / "oh-hell.toml").read_text(encoding="utf-8")
SITS_OUT = 'first_dealer = "any"\ndealer_sits_out = "players >= 6"'


@pytest.fixture
def deck_file(tmp_path):
    assert 'first_dealer = "any"' in OH_HELL
    path = tmp_path / "oh-hell.toml"
    path.write_text(OH_HELL.replace('first_dealer = "any"', SITS_OUT, 1), encoding="utf-8")
    return path


def test_the_dealer_sits_out_with_six_players_and_plays_with_five(deck_file):
    game = game_for(load_deck(deck_file))
    assert game.playing(6, 1) == 5 and game.playing(5, 1) == 5
    state = game.new_state(6)
    state.apply(ChooseSeat(2))
    rng = random.Random(4)
    state.apply(state.sample_chance(rng))
    assert state.hands[2] == [] and all(len(hand) == 1 for seat, hand in enumerate(state.hands) if seat != 2)
    state.apply(state.sample_chance(rng))  # the turned card
    assert state.phase == BIDDING
    bidders = []
    while state.phase == BIDDING:
        bidders.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert bidders == [3, 4, 5, 0, 1] and state.bids[2] is None  # from the dealer's left, passing the dealer
    players = []
    while state.phase == PLAY:
        players.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert players == [3, 4, 5, 0, 1]  # one trick of five cards
    entry = state.history[-1]
    assert entry["points"][2] == 0 and sum(entry["won"]) == 1
    assert state.dealer == 3  # the deal moves on: seat 3 deals and sits out the next hand
    state.apply(state.sample_chance(rng))
    assert state.hands[3] == [] and len(state.hands[2]) == 2


def test_with_five_players_nobody_sits_out(deck_file):
    game = game_for(load_deck(deck_file))
    state = game.new_state(5)
    state.apply(ChooseSeat(0))
    state.apply(state.sample_chance(random.Random(1)))
    assert all(len(hand) == 1 for hand in state.hands)


def test_a_deal_to_the_dealer_who_sits_out_is_refused(deck_file):
    game = game_for(load_deck(deck_file))
    table = game.table
    state = game.new_state(6)
    state.apply(ChooseSeat(0))
    hands = tuple((table.index(code),) for code in ("2S", "3S", "4S", "5S", "6S", "7S"))
    with pytest.raises(IllegalAction) as caught:
        state.apply(Deal(hands))
    assert caught.value.rule == "oh-hell.setup.deal" and "sits this hand out, so is dealt no cards" in str(caught.value)
    state.apply(Deal(((),) + hands[1:]))
    state.apply(TurnUp(table.index("9H")))
    assert state.current_player() == 1 and state.phase == BIDDING
    for bid in (0, 0, 0, 0):
        state.apply(BID + bid)
    with pytest.raises(IllegalAction) as caught:  # the hook binds the last of the five bidders
        state.apply(BID + 1)
    assert caught.value.rule == "oh-hell.bidding.hook"


def test_logs_of_six_players_referee_and_a_bid_by_the_sitter_is_refused(run_cli, deck_file, tmp_path):
    logs = tmp_path / "logs"
    assert run_cli("simulate", deck_file, "--games", "2", "--players", "6", "--seed", "2", "--bot", "heuristic",
                   "--save-logs", logs).exit_code == 0
    log = logs / "game-00001.toml"
    report = json.loads(run_cli("referee", deck_file, log, "--json").stdout)
    assert report["status"] == "legal" and report["finished"]
    text = log.read_text(encoding="utf-8")
    dealer = text.split('dealer = "', 1)[1].split('"', 1)[0]
    bids_line = next(line for line in text.splitlines() if line.startswith("bids = "))
    wrong = tmp_path / "sitter-bids.toml"
    wrong.write_text(text.replace(bids_line, bids_line.replace("bids = { ", f"bids = {{ {dealer} = 0, ")), encoding="utf-8")
    result = run_cli("referee", deck_file, wrong)
    assert result.exit_code != 0 and f"{dealer} sits this hand out and does not bid" in result.stdout + result.stderr
    checked = json.loads(run_cli("engines", "check", deck_file, "--games", "2", "--json").stdout)
    assert checked["failures"] == [], checked


@pytest.mark.parametrize("deck, old, new, message", [
    ("whist", 'hand = "cards // players"', 'hand = "cards // players"\ndealer_sits_out = true',
     "rules.deal.dealer_sits_out: the dealer may not sit out here: partners would lose a player (rules.teams)"),
    ("oh-hell", 'first_dealer = "any"', 'first_dealer = "any"\ndealer_sits_out = "players >= 3 and rounds"',
     "rules.deal.dealer_sits_out: unknown name 'rounds'"),
    ("oh-hell", 'first_dealer = "any"', 'first_dealer = "any"\ndealer_sits_out = "players + 1"',
     "rules.deal.dealer_sits_out: the expression gives a number"),
])
def test_a_dealer_who_cannot_sit_out_is_an_error_at_its_line(run_cli, tmp_path, deck, old, new, message):
    text = (ROOT / "examples" / "rules" / f"{deck}.toml").read_text(encoding="utf-8")
    changed = text.replace(old, new, 1)
    path = tmp_path / f"{deck}.toml"
    path.write_text(changed, encoding="utf-8")
    result = run_cli("validate", path)
    line = changed.splitlines().index(new.splitlines()[-1]) + 1
    assert result.exit_code == 1
    assert f"{deck}.toml:{line}: error: {message}" in result.stdout, result.stdout


def test_deckgen_rule_counts_the_bidders_without_the_dealer_who_sits_out(deck_file):
    game = game_for(load_deck(deck_file))
    fifth = game.quick_ruling(["bid", "1", "round", "1", "after", "0", "0", "0", "0", "players", "6"])
    assert not fifth["allowed"]  # the fifth bidder is the last of six at the table: the hook binds
    fourth = game.quick_ruling(["bid", "1", "round", "1", "after", "0", "0", "0", "players", "6"])
    assert fourth["allowed"]


def test_the_replay_page_shows_every_trick_of_five_taken(run_cli, deck_file, tmp_path):
    logs = tmp_path / "logs"
    assert run_cli("simulate", deck_file, "--games", "1", "--players", "6", "--seed", "9",
                   "--save-logs", logs).exit_code == 0
    page = tmp_path / "replay.html"
    assert run_cli("referee", deck_file, logs / "game-00001.toml", "--html", "--output", page).exit_code == 0
    game = game_for(load_deck(deck_file))
    tricks = sum(game.hand(6, number) for number in range(1, game.num_rounds(6) + 1))
    assert len(re.findall(r"wins trick \d+ with", page.read_text(encoding="utf-8"))) == tricks
