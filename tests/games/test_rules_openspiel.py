"""An outside oracle for the example games (when OpenSpiel is installed: the `bench` extra; skipped
otherwise): random OpenSpiel `oh_hell` and `hearts` hands replayed in examples/rules/oh-hell.toml
and examples/rules/hearts.toml, played by the rules engine from their [rules] alone, must offer the
same legal bids, passes and cards at every step and end with the same tricks and points.

OpenSpiel plays one hand per game: its dealer and deal (and Oh Hell's turned trump, Hearts' pass
direction) are put to our state as the chance actions of one round of ours."""

from __future__ import annotations

import random

import pytest

from generator.deck.loader import load_deck
from generator.games.base import game_for
from generator.games.trick.actions import BID, PASS, PASSING, PLAY, ChooseSeat, Deal, TurnUp

from tests.conftest import ROOT

pyspiel = pytest.importorskip("pyspiel")

GAMES = 1000  # random hands of each game
OH_HELL = game_for(load_deck(ROOT / "examples" / "rules" / "oh-hell.toml"))
HEARTS = game_for(load_deck(ROOT / "examples" / "rules" / "hearts.toml"))


def ours(game, text: str) -> int:
    """OpenSpiel writes a card as rank and suit (Hearts: "TC") or suit and rank (Oh Hell: "ST")."""
    rank, suit = (text[1], text[0]) if text[0] in "SHDC" and text[1] not in "SHDC" else (text[0], text[1])
    return game.table.index(("10" if rank == "T" else rank) + suit)


def test_oh_hell_hands_replay_identically():
    checked = 0
    for seed in range(GAMES):
        players = 3 + seed % 5
        tricks = 1 + seed // 5 % ((51 // players))
        spiel = pyspiel.load_game(f"oh_hell(players={players},num_tricks_fixed={tricks})").new_initial_state()
        rng = random.Random(seed)
        chance = []  # the fixed trick count, the dealer, each dealt card, the trump card
        while spiel.is_chance_node():
            outcome = rng.choice(spiel.chance_outcomes())[0]
            chance.append(spiel.action_to_string(outcome))
            spiel.apply_action(outcome)
        dealer = int(chance[-2 - players * tricks])
        dealt = [ours(OH_HELL, text) for text in chance[-1 - players * tricks:-1]]
        state = OH_HELL.new_state(players)
        state.apply(ChooseSeat(dealer))
        state.round = tricks - 1  # our hand of `tricks` cards each
        state.apply(Deal(tuple(tuple(dealt[seat::players]) for seat in range(players))))
        state.apply(TurnUp(ours(OH_HELL, chance[-1])))
        while not spiel.is_terminal():
            assert state.current_player() == spiel.current_player(), seed
            texts = {spiel.action_to_string(action): action for action in spiel.legal_actions()}
            if state.phase == PLAY:
                assert {ours(OH_HELL, text) for text in texts} == set(state.legal_actions()), seed
                choice = rng.choice(sorted(texts))
                state.apply(ours(OH_HELL, choice))
            else:
                assert {int(text) for text in texts} == {action - BID for action in state.legal_actions()}, seed
                choice = rng.choice(sorted(texts))
                state.apply(BID + int(choice))
            spiel.apply_action(texts[choice])
        entry = state.history[-1]
        assert [int(points) for points in spiel.returns()] == entry["points"], seed
        checked += 1
    assert checked == GAMES


PASS_ROUND = {0: 3, 1: 0, 2: 2, 3: 1}  # OpenSpiel's pass direction (none, left, across, right): our hand number


def test_hearts_hands_replay_identically():
    for seed in range(GAMES):
        spiel = pyspiel.load_game("hearts").new_initial_state()
        rng = random.Random(seed)
        direction = rng.randrange(4)
        spiel.apply_action(direction)
        dealt = []
        while spiel.is_chance_node():  # a card to each seat in turn, from seat 0
            outcome = rng.choice(spiel.legal_actions())
            dealt.append(ours(HEARTS, spiel.action_to_string(outcome)))
            spiel.apply_action(outcome)
        state = HEARTS.new_state(4)
        state.apply(ChooseSeat(3))  # so that seat 0 passes first, as in OpenSpiel
        state.round = PASS_ROUND[direction]
        state.apply(Deal(tuple(tuple(dealt[seat::4]) for seat in range(4))))
        while not spiel.is_terminal():
            assert state.current_player() == spiel.current_player(), seed
            texts = {spiel.action_to_string(action): action for action in spiel.legal_actions()}
            if state.phase == PASSING:
                assert {ours(HEARTS, text) for text in texts} == {a - PASS for a in state.legal_actions()}, seed
                choice = rng.choice(sorted(texts))
                state.apply(PASS + ours(HEARTS, choice))
            else:
                assert state.phase == PLAY
                assert {ours(HEARTS, text) for text in texts} == set(state.legal_actions()), seed
                choice = rng.choice(sorted(texts))
                state.apply(ours(HEARTS, choice))
            spiel.apply_action(texts[choice])
        # OpenSpiel returns 26 minus each player's points (the moon included)
        assert [26 - int(value) for value in spiel.returns()] == state.history[-1]["points"], seed

