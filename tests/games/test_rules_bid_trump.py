"""A trump the highest bidder names (`[rules.trump] kind = "highest-bidder"`): Oh Hell from
examples/rules with its turned card replaced by that rule, in TOML alone. The bids come first,
the player who bid the most (the first of equal bids) names a suit, then play starts; the
referee reads the named trump after the bids in a log, and the conformance suite passes."""

from __future__ import annotations

import json

import pytest

from generator.deck.loader import load_deck
from generator.games.base import game_for
from generator.games.trick.actions import BID, CHOOSE_TRUMP, PLAY, TRUMP, ChooseSeat, Deal

from tests.conftest import ROOT
from tests.trick_helpers import refused

OH_HELL = ROOT / "examples" / "rules" / "oh-hell.toml"
TURNED = 'kind = "turn-up"\nrule = "oh-hell.setup.trump"'
NAMED = 'kind = "highest-bidder"\nrule = "oh-hell.setup.trump"'


@pytest.fixture
def deck_file(tmp_path):
    text = OH_HELL.read_text(encoding="utf-8")
    assert TURNED in text
    path = tmp_path / "oh-hell-named.toml"
    path.write_text(text.replace(TURNED, NAMED), encoding="utf-8")
    return path


def start(deck_file, hands: list[str]):
    game = game_for(load_deck(deck_file))
    state = game.new_state(len(hands))
    state.apply(ChooseSeat(0))
    state.round = 1  # two cards each
    state.apply(Deal(tuple(tuple(game.table.index(code) for code in hand.split()) for hand in hands)))
    return game, state


def suit(game, suit_id: str) -> int:
    return [s.id for s in game.deck.suits].index(suit_id)


def test_the_highest_bidder_names_trump_after_the_bids_and_it_wins_tricks(deck_file):
    game, state = start(deck_file, ["2S 3D", "5S 6H", "KS QD"])
    assert state.phase != CHOOSE_TRUMP and state.trump < 0  # nothing is turned: trump waits for the bids
    for bid in (1, 2, 0):  # from the dealer's left: seats 1, 2, 0
        state.apply(BID + bid)
    assert state.phase == CHOOSE_TRUMP and state.current_player() == 2  # seat 2 bid the most
    assert state.legal_actions() == [TRUMP + s for s in range(len(game.deck.suits))]
    assert "the highest bidder, names the trump suit" in state.pending().owes
    refusal = refused(game.deck, state, BID + 1)
    assert refusal.rule == "oh-hell.setup.trump" and "the highest bidder must name one of the 4 suits" in str(refusal)
    state.apply(TRUMP + suit(game, "hearts"))
    assert state.phase == PLAY and state.trump == suit(game, "hearts") and state.current_player() == 1
    for code in ("5S", "KS", "2S"):
        state.apply(game.table.index(code))
    assert state.current_player() == 2  # the King takes it
    for code in ("QD", "3D", "6H"):  # seat 1 has no diamond: its heart is a trump
        state.apply(game.table.index(code))
    assert state.history[-1]["won"] == [0, 1, 1]


def test_of_equal_bids_the_first_made_names_trump(deck_file):
    _, state = start(deck_file, ["2S 3D", "5S 6H", "KS QD"])
    for bid in (1, 1, 1):  # seats 1, 2 and 0 (the dealer, last) all bid 1
        state.apply(BID + bid)
    assert state.current_player() == 1


def test_simulated_games_referee_and_keep_every_promise(run_cli, deck_file, tmp_path):
    logs = tmp_path / "logs"
    assert run_cli("simulate", deck_file, "--games", "3", "--players", "4", "--seed", "7", "--bot", "heuristic",
                   "--save-logs", logs).exit_code == 0
    log = logs / "game-00001.toml"
    report = json.loads(run_cli("referee", deck_file, log, "--json").stdout)
    assert report["status"] == "legal" and report["finished"]
    assert all(r.get("trump") for r in report["rounds"])  # every round's trump is named

    text = log.read_text(encoding="utf-8")
    first = text.index("trump = ")
    line_end = text.index("\n", first)
    no_trump = tmp_path / "no-trump.toml"
    no_trump.write_text(text[:first] + 'trump = "none"' + text[line_end:], encoding="utf-8")
    refused_log = run_cli("referee", deck_file, no_trump)
    assert refused_log.exit_code == 1 and "bid the most and must name one of the four suits" in refused_log.stdout
    missing = tmp_path / "missing.toml"
    missing.write_text(text[:first] + text[line_end + 1:], encoding="utf-8")
    shown = run_cli("referee", deck_file, missing)
    assert shown.exit_code != 0 and "bid the most, so their choice of trump is needed" in shown.stdout + shown.stderr

    checked = json.loads(run_cli("engines", "check", deck_file, "--games", "2", "--json").stdout)
    assert checked["failures"] == [], checked


def test_a_named_trump_without_bids_is_an_error_at_its_line(run_cli, tmp_path):
    text = (ROOT / "examples" / "rules" / "hearts.toml").read_text(encoding="utf-8")
    assert "[rules.trump]" not in text and "[rules.bidding]" not in text
    text = text.replace("[rules.play]\n", '[rules.trump]\nkind = "highest-bidder"\nrule = "hearts.play.winner"\n\n'
                        "[rules.play]\n", 1)
    path = tmp_path / "hearts.toml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index('kind = "highest-bidder"') + 1
    result = run_cli("validate", path)
    assert result.exit_code == 1
    assert f"hearts.toml:{line}: error: rules.trump.kind: a trump named by the highest bidder needs bids" in result.stdout
