"""Muggle Quidditch under random and heuristic play: invariants checked at every step of
thousands of seeded games (after OpenSpiel's random simulation tests).

- every card is somewhere, exactly once (hands, piles, tables, score piles, the dive);
- a player to act always has a legal action, every chosen one applies, and a finished
  game has none;
- no game is longer than the engine declares, and every game ends: with the Snitch
  caught or at the turn cap, which the outcome reports;
- final scores stay within the declared bounds and add up from the score piles.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from generator.games.base import CHANCE, TERMINAL, game_for
from generator.games.bots import make_bot
from generator.games.simulate import run
from generator.deck.loader import load_deck

from tests.conftest import DECKS

DECK = load_deck(DECKS / "muggle-quidditch.toml")
EVERY_CARD = sorted(card.code for card in DECK.copies())


def play_checked(game, seed: int, bots=("random", "random")):
    """Play one game, checking the invariants after every action; return the final state."""
    rng = random.Random(seed)
    players = [None if kind == "random" else make_bot(game, kind, random.Random(seed * 2 + seat))
               for seat, kind in enumerate(bots)]
    state = game.new_state(2)
    limit = game.max_actions(2)
    actions = 0
    while (player := state.current_player()) != TERMINAL:
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            assert legal, f"seed {seed}: no legal action for seat {player} in phase {state.phase}"
            bot = players[player]
            action = rng.choice(legal) if bot is None else bot.choose(state)
            assert action in legal
        state.apply(action)
        actions += 1
        assert actions <= limit, f"seed {seed}: longer than the declared {limit} actions"
        if state.turn:
            check_position(state, seed)
    assert state.legal_actions() == []
    return state, actions


def check_position(state, seed: int) -> None:
    assert sorted(state.all_cards()) == EVERY_CARD, f"seed {seed}, turn {state.turn}: cards not conserved"
    kind_of = state.game.kind_of
    for seat in (0, 1):
        assert len(state.hands[seat]) <= 7
        assert all(kind_of[card] == position for position, card in state.teams[seat].items())
    assert len(state.snitch) <= (2 if state.dive else 1)


def check_outcome(state, seed: int) -> None:
    game = state.game
    outcome = state.outcome()
    low, high = game.score_bounds(2)
    assert all(low <= score <= high for score in outcome.scores)
    for seat in (0, 1):
        goal_cards = [card for card in state.score_piles[seat] if card != "JK"]
        assert len(goal_cards) == 2 * state.goals[seat]
        assert sum(game.value_of[card] for card in goal_cards) == 12 * state.goals[seat]
    best = max(outcome.scores)
    assert outcome.winners == tuple(seat for seat in (0, 1) if outcome.scores[seat] == best)
    if outcome.reason == "finished":
        assert state.caught_by is not None and state.score_piles[state.caught_by].count("JK") == 2
    else:
        assert outcome.reason.startswith("turn-cap") and str(game.params["max_turns"]) in outcome.reason
        assert state.caught_by is None and state.turn == game.params["max_turns"]


def test_a_thousand_short_random_games_keep_every_invariant():
    game = game_for(DECK, {"max_turns": 60})
    reasons = Counter()
    for seed in range(1000):
        state, _ = play_checked(game, seed)
        check_outcome(state, seed)
        reasons[state.outcome().reason.split(":")[0]] += 1
    # Both endings occur within 60 turns, so both kinds of outcome were checked.
    assert reasons["finished"] > 30 and reasons["turn-cap"] > 30


@pytest.mark.parametrize("bots", [("random", "random"), ("heuristic", "random"), ("heuristic", "heuristic")])
def test_full_length_games_end_and_keep_every_invariant(bots):
    game = game_for(DECK)
    for seed in range(100):
        state, _ = play_checked(game, seed, bots)
        check_outcome(state, seed)


def test_rebuilds_happen_in_draws_and_dives():
    """The invariants above cover reshuffles only if random play meets them: check it does."""
    game = game_for(DECK)
    seen = Counter()
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_state(2)
        while (player := state.current_player()) != TERMINAL:
            if player == CHANCE:
                seen[state.shuffle_for] += 1
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
    assert seen["deal"] == 60 and seen["drawing"] > 60 and seen["diving"] >= 1


def test_the_heuristic_player_beats_the_random_one():
    game = game_for(DECK)
    stats = run(game, 2, 150, 5, ["heuristic", "random"]).as_dict()
    assert stats["seats"][0]["win_rate"] > 0.65
    stats = run(game, 2, 150, 5, ["random", "heuristic"]).as_dict()
    assert stats["seats"][1]["win_rate"] > 0.65


def test_a_seeded_simulation_repeats_exactly():
    game = game_for(DECK)
    first = run(game, 2, 40, 11, ["random", "heuristic"]).as_dict()
    second = run(game, 2, 40, 11, ["random", "heuristic"]).as_dict()
    assert first == second and first["games"] == 40
