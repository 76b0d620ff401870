"""Checks every engine gets for free from its declarations (after OpenSpiel's random
simulation tests): random seeded games end within the declared length, scores stay in the
declared bounds, every decision node offers actions, illegal actions are refused with a
rule of the deck and leave the state alone, clones are independent, the same seed plays
the same game, and saved logs replay through the referee to the same result.

Parametrized over `generator.games.base.ENGINES` entries whose module exists and whose
deck is in decks/."""

from __future__ import annotations

import importlib.util
import random

import pytest

from generator.games.base import CHANCE, ENGINES, TERMINAL, IllegalAction, game_for
from generator.games.logs import parse_log
from generator.games.referee import referee
from generator.games.simulate import game_log_text, play_game
from generator.deck.loader import deck_paths, load_deck

from tests.conftest import DECKS


def _engine_decks():
    decks = {}
    for path in deck_paths(DECKS):
        deck = load_deck(path)
        if deck.engine and deck.engine not in decks:
            decks[deck.engine] = deck
    found = []
    for engine_id, target in ENGINES.items():
        module = target.split(":")[0]
        if engine_id in decks and importlib.util.find_spec(module) is not None:
            found.append(pytest.param(decks[engine_id], id=engine_id))
    return found


ENGINE_DECKS = _engine_decks()
GAMES_PER_COUNT = 6


def player_counts(game):
    return range(game.min_players, game.max_players + 1)


def random_game(game, num_players: int, seed: int, check_every: int = 7):
    """Play one random game, checking the engine's promises along the way; return the final state."""
    rng = random.Random(seed)
    state = game.new_state(num_players)
    seen_actions = []
    limit = game.max_actions(num_players)
    steps = 0
    while True:
        player = state.current_player()
        if player == TERMINAL:
            assert state.legal_actions() in ([], ()), "a finished game offers no actions"
            return state
        assert steps < limit, f"game longer than its declared {limit} actions"
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            assert 0 <= player < num_players
            legal = list(state.legal_actions())
            assert legal, "a decision node with no legal action"
            assert len(set(legal)) == len(legal), "legal actions repeat"
            if steps % check_every == 0:
                check_refusal(game, state, legal, seen_actions, rng)
            action = rng.choice(legal)
            seen_actions.append(action)
        state.apply(action)
        steps += 1


def check_refusal(game, state, legal, seen_actions, rng):
    """An action legal elsewhere but not here is refused with a rule of the deck; nothing changes."""
    candidates = [a for a in seen_actions[-40:] if a not in legal]
    if not candidates:
        return
    action = rng.choice(candidates)
    before = (state.current_player(), list(state.legal_actions()), state.summary())
    with pytest.raises(IllegalAction) as caught:
        state.apply(action)
    rule = caught.value.rule
    if rule.startswith("card:"):
        assert game.deck.find_card(rule[5:]) is not None
    else:
        game.deck.rule(rule)  # raises KeyError for a rule the deck does not have
    assert (state.current_player(), list(state.legal_actions()), state.summary()) == before


@pytest.mark.parametrize("deck", ENGINE_DECKS)
def test_random_games_keep_the_declared_promises(deck):
    game = game_for(deck)
    for num_players in player_counts(game):
        low, high = game.score_bounds(num_players)
        for seed in range(GAMES_PER_COUNT):
            state = random_game(game, num_players, seed * 100 + num_players)
            outcome = state.outcome()
            assert outcome is not None and len(outcome.scores) == num_players
            assert all(low <= score <= high for score in outcome.scores), (outcome.scores, low, high)
            assert outcome.winners and all(0 <= seat < num_players for seat in outcome.winners)
            best = (min if game.lower_score_wins else max)(outcome.scores)
            if outcome.reason == "finished":
                assert all(outcome.scores[seat] == best for seat in outcome.winners)
            summary = state.summary()
            assert list(summary.get("scores", outcome.scores)) == list(outcome.scores)
            for round_info in summary.get("rounds", ()):
                assert isinstance(round_info["title"], str)
                assert all(len(values) == num_players for values in round_info.get("columns", {}).values())


@pytest.mark.parametrize("deck", ENGINE_DECKS)
def test_every_variant_plays_to_the_end(deck):
    for variant in deck.variants:
        game = game_for(deck, variant.params)
        for num_players in (game.min_players, game.max_players):
            assert random_game(game, num_players, 7, check_every=5).outcome() is not None


@pytest.mark.parametrize("deck", ENGINE_DECKS)
def test_players_outside_the_range_are_refused(deck):
    game = game_for(deck)
    from generator.core.errors import DeckgenError

    for num_players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(DeckgenError):
            game.new_state(num_players)


@pytest.mark.parametrize("deck", ENGINE_DECKS)
def test_same_seed_same_game_and_clones_are_independent(deck):
    game = game_for(deck)
    n = game.min_players
    first, actions = play_game(game, n, 11, ["random"] * n, keep_actions=True)
    again, actions_again = play_game(game, n, 11, ["random"] * n, keep_actions=True)
    assert first == again and actions == actions_again
    state = game.new_state(n)
    rng = random.Random(3)
    for action in actions[: len(actions) // 2]:
        state.apply(action)
    copy = state.clone()
    before = state.summary()
    while not copy.is_terminal():
        player = copy.current_player()
        copy.apply(copy.sample_chance(rng) if player == CHANCE else rng.choice(list(copy.legal_actions())))
    assert state.summary() == before


@pytest.mark.parametrize("deck", ENGINE_DECKS)
def test_saved_logs_replay_to_the_same_result(deck):
    game = game_for(deck)
    for num_players in (game.min_players, game.max_players):
        players = [f"Player{seat + 1}" for seat in range(num_players)]
        for seed in range(3):
            record, actions = play_game(game, num_players, seed, ["heuristic"] * num_players, keep_actions=True)
            text = game_log_text(game, players, actions)
            report = referee(parse_log(text, deck, game.log_sections))
            assert report.violation is None, report.violation
            assert report.finished and report.scores == list(record.scores)
            assert {row["player"] for row in report.standings if row["winner"]} == {players[s] for s in record.winners}
            assert report.actions == record.actions
