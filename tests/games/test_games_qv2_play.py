"""Quidditch v2 under random and heuristic play: invariants over many seeded games, the
declared bounds, text round trips of every action taken, and the simulate command."""

from __future__ import annotations

import random

import pytest

from generator.games.base import CHANCE, TERMINAL, game_for
from generator.games.bots import RandomBot
from generator.games.simulate import play_game
from generator.deck.loader import load_deck

DECK = load_deck("decks/quidditch-v2.toml")
GAME = game_for(DECK)
GAMES_PER_PLAYER_COUNT = 200
FULLY_CHECKED = 10  # games per player count checked after every single action


def check_position(state, game) -> None:
    assert state.zone_counts() == game.counts, "every card is somewhere, once"
    assert min(state.dom) >= 0, "dominance never below 0"
    assert state.quaffle is None or 0 <= state.quaffle < state.num_players, "the Quaffle is always in play"
    assert "quaffle" not in {t.card for t in state.table}


@pytest.mark.parametrize("players", range(2, 7))
def test_random_games_keep_every_invariant_and_end(players):
    low, high = GAME.score_bounds(players)
    limit = GAME.max_actions(players)
    reasons = set()
    for index in range(GAMES_PER_PLAYER_COUNT):
        rng = random.Random(players * 100_000 + index)
        bot = RandomBot(random.Random(index))
        state = GAME.new_state(players)
        actions = 0
        while state.current_player() != TERMINAL:
            legal = state.legal_actions()
            assert legal, "a non-terminal state always has a legal action"
            if state.current_player() == CHANCE:
                if index < 3:
                    assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-9
                action = state.sample_chance(rng)
            else:
                action = bot.choose(state)
            if index < FULLY_CHECKED:
                assert state.parse_action(state.format_action(action)) == action
            state.apply(action)
            actions += 1
            assert actions <= limit
            if index < FULLY_CHECKED:
                check_position(state, GAME)
        check_position(state, GAME)
        outcome = state.outcome()
        reasons.add(outcome.reason)
        assert outcome.reason in ("finished", "turn-cap")
        assert all(low <= score <= high for score in outcome.scores)
        assert outcome.winners == tuple(s for s, v in enumerate(outcome.scores) if v == max(outcome.scores))
        if outcome.reason == "finished":
            assert state.caught_by is not None and outcome.scores[state.caught_by] >= 150
    assert "finished" in reasons


def test_a_small_turn_cap_stops_every_game_and_says_so():
    game = game_for(DECK, {"turn_cap": 5})
    reasons = []
    for index in range(100):
        record, _ = play_game(game, 3, index, ["random"] * 3)
        reasons.append(record.reason)
    assert set(reasons) <= {"finished", "turn-cap"} and reasons.count("turn-cap") > 50


@pytest.mark.parametrize("variant", ["returned-seekers", "early-snitch"])
def test_variants_play_to_the_end(variant):
    game = game_for(DECK, DECK.variant(variant).params)
    for index in range(50):
        state = game.new_state(2 + index % 3)
        rng = random.Random(index)
        while not state.is_terminal():
            state.apply(state.sample_chance(rng) if state.current_player() == CHANCE
                        else rng.choice(state.legal_actions()))
        check_position(state, game)


def test_early_snitch_variant_shuffles_the_snitch_in():
    game = game_for(DECK, {"snitch_start": "draw"})
    state = game.new_state(2)
    assert state.discard == [] and state.draw["golden-snitch"] == 1


def test_heuristic_bot_beats_random_and_plays_legally():
    wins = 0
    for index in range(60):
        bots = ["heuristic", "random"] if index % 2 == 0 else ["random", "heuristic"]
        record, _ = play_game(GAME, 2, 1000 + index, bots)
        heuristic_seat = bots.index("heuristic")
        wins += heuristic_seat in record.winners
    assert wins >= 40  # about 80% in longer runs


def test_same_seed_same_game():
    first = play_game(GAME, 3, 77, ["heuristic", "random", "random"], keep_actions=True)
    second = play_game(GAME, 3, 77, ["heuristic", "random", "random"], keep_actions=True)
    assert first == second


def test_clone_is_independent():
    state = GAME.new_state(2)
    rng = random.Random(5)
    for _ in range(60):
        state.apply(state.sample_chance(rng) if state.current_player() == CHANCE
                    else rng.choice(state.legal_actions()))
    copy = state.clone()
    before = (state.summary(), state.zone_counts(), list(state.stack))
    while not copy.is_terminal():
        copy.apply(copy.sample_chance(rng) if copy.current_player() == CHANCE
                   else rng.choice(copy.legal_actions()))
    assert (state.summary(), state.zone_counts(), list(state.stack)) == before


def test_simulate_command(run_cli):
    result = run_cli("simulate", "quidditch-v2", "--games", "30", "--players", "3", "--seed", "2")
    assert result.exit_code == 0, result.stderr
    assert "30 games, 3 players" in result.stdout
    again = run_cli("simulate", "quidditch-v2", "--games", "30", "--players", "3", "--seed", "2")
    assert again.stdout == result.stdout
