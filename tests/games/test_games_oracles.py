"""The rules engine against the engines it replaced: decks/wizard.toml and decks/wizard-hearts.toml,
played from their [rules], give the games the hand-written engines (kept as oracles in
tests/oracles/) gave for the same seeds: the same chance draws, the same legal actions in the
same order at every decision, the same scores and winners, over every player count and variant."""

from __future__ import annotations

import random

import pytest

from generator.deck.loader import load_deck
from generator.games.base import CHANCE, TERMINAL, game_for
from generator.games.trick.actions import PASS, PASSING

from tests.conftest import DECKS
from tests.oracles.wizard import WizardGame
from tests.oracles.wizard_hearts import PASS as ORACLE_PASS
from tests.oracles.wizard_hearts import WizardHeartsGame

GAMES = 240  # per deck, spread over player counts and parameter sets

# Parameters beyond the decks' variants, so every branch is played.
EXTRA = {"wizard": [{"tie_break": "sum-of-bids"}, {"bid_restriction": "never-even"},
                    {"bid_restriction": "final-round"}, {"bidding": "hidden"}],
         "wizard-hearts": [{"max_hands": 2}, {"pass_count": 0}, {"target_score": 60, "pass_count": 5},
                           {"cauldron": "first-trick", "shun_must_be_broken": True}]}
ORACLES = {"wizard": WizardGame, "wizard-hearts": WizardHeartsGame}


def chance_record(action) -> tuple:
    """A chance action as plain data: the oracle's Shun is our RoundSuit."""
    name = "RoundSuit" if type(action).__name__ == "Shun" else type(action).__name__
    return (name, *(getattr(action, slot) for slot in type(action).__slots__))


def ours_as_oracle(action: int, state) -> int:
    """Our pass actions are numbered from PASS, Wizard Hearts' from its own PASS."""
    return action - PASS + ORACLE_PASS if state.phase == PASSING and action >= PASS else action


def play_both(name: str, params: dict | None, players: int, seed: int) -> tuple:
    deck = load_deck(DECKS / f"{name}.toml")
    ours, oracle = game_for(deck, params).new_state(players), ORACLES[name](deck, params).new_state(players)
    chance = [random.Random(seed), random.Random(seed)]
    pick = [random.Random(-seed - 1), random.Random(-seed - 1)]
    steps = 0
    while True:
        seat = ours.current_player()
        assert seat == oracle.current_player(), (name, params, players, seed, steps)
        if seat == TERMINAL:
            return ours.outcome(), oracle.outcome(), steps
        if seat == CHANCE:
            mine, theirs = ours.sample_chance(chance[0]), oracle.sample_chance(chance[1])
            assert chance_record(mine) == chance_record(theirs), (name, params, players, seed, steps)
        else:
            legal, expected = ours.legal_actions(), oracle.legal_actions()
            assert [ours_as_oracle(a, ours) for a in legal] == list(expected), (name, params, players, seed, steps)
            index = int(pick[0].random() * len(legal))
            pick[1].random()
            mine, theirs = legal[index], expected[index]
        ours.apply(mine)
        oracle.apply(theirs)
        steps += 1


@pytest.mark.parametrize("name", ["wizard", "wizard-hearts"])
def test_the_rules_engine_plays_the_oracles_games(name):
    deck = load_deck(DECKS / f"{name}.toml")
    settings = [None] + [variant.params for variant in deck.variants] + EXTRA[name]
    counts = range(deck.min_players, deck.max_players + 1)
    for seed in range(GAMES):
        params, players = settings[seed % len(settings)], counts[seed // len(settings) % len(counts)]
        ours, oracle, steps = play_both(name, params, players, seed)
        assert (ours.scores, ours.winners, ours.reason) == (oracle.scores, oracle.winners, oracle.reason), \
            (params, players, seed)
        assert steps > players


