"""The compiled random playouts (generator.games.fastpath over the C extension
generator.games._playout) play exactly the games the Python engines play from the same
seeds: the same decisions in the same order, the same scores, winners and lengths, over
thousands of seeds, every player count and every variant. Without the extension the
simulator plays in Python and gets the same records."""

from __future__ import annotations

import os
import random

import pytest

from generator.games import fastpath
from generator.games.base import CHANCE, TERMINAL, game_for
from generator.games.bots import RandomBot
from generator.games.simulate import derive_seed, play_game
from generator.deck.loader import load_deck

from tests.conftest import DECKS

if not fastpath.available():
    if os.environ.get("CI"):  # CI installs with a compiler: the extension must be there
        raise AssertionError(fastpath.why_unavailable())
    pytest.skip(fastpath.why_unavailable(), allow_module_level=True)

SEEDS = 2000  # games per engine, spread over player counts and variants


# Parameters beyond the decks' own variants, so every branch of the playouts is played.
EXTRA_PARAMS = {"wizard": [{"tie_break": "sum-of-bids"}, {"bid_restriction": "never-even"}],
                "wizard-hearts": [{"max_hands": 2}, {"pass_count": 0}, {"target_score": 60, "pass_count": 5}]}


def every_game(deck_name: str):
    deck = load_deck(DECKS / f"{deck_name}.toml")
    params = [variant.params for variant in deck.variants] + EXTRA_PARAMS.get(deck_name, [])
    return deck, [game_for(deck)] + [game_for(deck, extra) for extra in params]


def python_game(game, players: int, seed: int, rounds: int | None = None):
    """A random game in the Python engine: its decisions, outcome, actions and decisions."""
    state = game.new_state(players)
    if rounds is not None:
        state.rounds_total = rounds
    chance = random.Random(derive_seed(seed, "chance"))
    bots = [RandomBot(random.Random(derive_seed(seed, "seat", seat))) for seat in range(players)]
    decisions, actions = [], 0
    while (player := state.current_player()) != TERMINAL:
        if player == CHANCE:
            action = state.sample_chance(chance)
        else:
            action = bots[player].choose(state)
            decisions.append(action)
        state.apply(action)
        actions += 1
    return decisions, state.outcome(), actions


def compiled_game(game, players: int, seed: int, rounds: int | None = None):
    trace: list[int] = []
    played = fastpath.playout(game, players, random.Random(derive_seed(seed, "chance")),
                              [random.Random(derive_seed(seed, "seat", seat)) for seat in range(players)],
                              rounds=rounds, trace=trace)
    return trace, played


@pytest.mark.parametrize("deck_name", ["wizard", "wizard-hearts"])
def test_compiled_games_are_the_python_games(deck_name):
    deck, games = every_game(deck_name)
    counts = range(deck.min_players, deck.max_players + 1)
    for seed in range(SEEDS):
        game, players = games[seed % len(games)], counts[seed // len(games) % len(counts)]
        decisions, outcome, actions = python_game(game, players, seed)
        trace, played = compiled_game(game, players, seed)
        assert trace == decisions, (game.params, players, seed)
        assert (played.scores, played.winners, played.reason) == (outcome.scores, outcome.winners, outcome.reason)
        assert (played.actions, played.decisions) == (actions, len(decisions))


def test_wizard_games_cut_short_are_the_python_games():
    """The benchmark's matched Wizard: rounds 1..12 only, four players."""
    _, (game, *_) = every_game("wizard")
    for seed in range(200):
        decisions, outcome, actions = python_game(game, 4, seed, rounds=12)
        trace, played = compiled_game(game, 4, seed, rounds=12)
        assert trace == decisions and played.scores == outcome.scores and played.actions == actions
        assert played.rounds == 12


@pytest.mark.parametrize("deck_name", ["wizard", "wizard-hearts"])
def test_simulator_records_are_the_same_with_or_without_the_extension(deck_name, monkeypatch):
    deck, (game, *_) = every_game(deck_name)
    players = deck.min_players + 1
    compiled = [play_game(game, players, seed, ["random"] * players)[0] for seed in range(50)]
    kept = [play_game(game, players, seed, ["random"] * players, keep_actions=True)[0] for seed in range(50)]
    monkeypatch.setattr(fastpath, "_playout", None)
    assert not fastpath.available()
    python = [play_game(game, players, seed, ["random"] * players)[0] for seed in range(50)]
    assert compiled == python == kept


def test_games_it_cannot_play_exactly_go_to_python():
    _, (game, *_) = every_game("wizard")

    class Recorded(random.Random):
        pass

    assert fastpath.playout(game, 4, Recorded(1), [random.Random(s) for s in range(4)]) is None
    quidditch = game_for(load_deck(DECKS / "quidditch-v2.toml"))
    assert fastpath.playout(quidditch, 2, random.Random(1), [random.Random(2), random.Random(3)]) is None

    class HouseRules(type(game)):  # an engine of one's own may change any rule
        pass

    assert fastpath.playout(HouseRules(game.deck), 4, random.Random(1), [random.Random(s) for s in range(4)]) is None
