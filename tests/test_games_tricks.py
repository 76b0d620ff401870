"""The trick-taking core: random-play invariants over many seeded games of Wizard and
Wizard Hearts (cards conserved at every step, tricks add up, hand scores add up to the
points in play), and the quick-ruling question parser."""

from __future__ import annotations

import random

import pytest

from generator.errors import DeckgenError
from generator.games.base import CHANCE, TERMINAL, game_for
from generator.games.tricks import TrickState, deal_hands, parse_trick_question, pass_target, words
from generator.games.wizard_hearts import PASSING
from generator.loader import load_deck

from .conftest import DECKS

WIZARD = load_deck(DECKS / "wizard.toml")
HEARTS = load_deck(DECKS / "wizard-hearts.toml")


def wizard_cards_in_play(state) -> int:
    return sum(map(len, state.hands)) + len(state.trick) + state.trick_number * state.num_players


def test_wizard_random_games_conserve_cards_and_tricks():
    game = game_for(WIZARD)
    games = 0
    for seed in range(240):
        n = 3 + seed % 4
        rng = random.Random(seed)
        state = game.new_state(n)
        while state.current_player() != TERMINAL:
            player = state.current_player()
            action = state.sample_chance(rng) if player == CHANCE else rng.choice(state.legal_actions())
            round_before = len(state.history)
            state.apply(action)
            if state.phase == TrickState.PLAY:
                assert wizard_cards_in_play(state) == (state.round + 1) * n
                assert sum(state.won) == state.trick_number
            if len(state.history) > round_before:
                entry = state.history[-1]
                assert sum(entry["won"]) == len(state.history)  # round r has r tricks
                for bid, won, points in zip(entry["bids"], entry["won"], entry["points"]):
                    assert points == (20 + 10 * won if bid == won else -10 * abs(bid - won))
        games += 1
    assert games == 240


@pytest.mark.parametrize("cauldron", ["set-aside", "first-trick"])
def test_wizard_hearts_random_games_conserve_cards_and_points(cauldron):
    game = game_for(HEARTS, {"cauldron": cauldron})
    for seed in range(300):
        n = 3 + seed % 5
        rng = random.Random(seed)
        state = game.new_state(n)
        while state.current_player() != TERMINAL:
            player = state.current_player()
            action = state.sample_chance(rng) if player == CHANCE else rng.choice(state.legal_actions())
            hands_before = len(state.history)
            state.apply(action)
            given = cauldron == "first-trick" and state.trick_number > 0
            if state.phase == PASSING:
                held = sum(map(len, state.hands)) + sum(map(len, state.passed))
                assert held + len(state.cauldron) == 98
            elif state.phase == TrickState.PLAY:
                in_play = sum(map(len, state.hands)) + len(state.trick) + sum(state.captured)
                assert in_play + (0 if given else len(state.cauldron)) == 98
            if len(state.history) > hands_before:
                points = state.points
                scored = sum(points) - (0 if cauldron == "first-trick" else sum(points[c] for c in state.cauldron))
                assert sum(state.history[-1]["points"]) == scored
                assert sum(state.history[-1]["tricks"]) == game.hand_size(n)
        assert max(state.totals) >= 25 or state.outcome().reason == "turn-cap"


def test_deal_is_one_card_at_a_time_from_the_dealers_left():
    assert deal_hands([10, 11, 12, 13, 14, 15], 3, 2, first_seat=1) == [[12, 15], [10, 13], [11, 14]]


@pytest.mark.parametrize("seat, direction, n, target", [
    (0, "left", 4, 1), (0, "right", 4, 3), (1, "across", 4, 3), (2, "across", 6, 5), (3, "hold", 5, None),
])
def test_pass_target(seat, direction, n, target):
    assert pass_target(seat, direction, n) == target


def test_words_split_on_commas_colons_and_spaces():
    assert words("trump hearts, led by North: 7H, JE") == ["trump", "hearts", "led", "by", "North", "7H", "JE"]


def test_trick_question_forms():
    table = game_for(WIZARD).table
    asked = parse_trick_question(["trick", "--trump", "hearts", "--lead", "North", "7H", "JE", "QS", "WZ"],
                                 table, ("trump",))
    assert asked.settings == {"trump": "hearts"} and asked.lead == "North"
    assert [asked.player(i) for i in range(4)] == ["North", "East", "South", "West"]
    named = parse_trick_question(["Ann 7H, Bo JE, Cy QS"], table, ("trump",))
    assert [asked_name for asked_name, _ in named.cards] == ["Ann", "Bo", "Cy"]
    assert parse_trick_question(["no trump: 7H 8H"], table, ("trump",)).settings == {"trump": "none"}
    with pytest.raises(DeckgenError, match="not a card"):
        parse_trick_question(["7H ZZ"], table, ("trump",))
    with pytest.raises(DeckgenError, match="has 4"):
        parse_trick_question(["WZ WZ WZ WZ WZ"], table, ("trump",))


def test_quick_rulings():
    wizard = game_for(WIZARD)
    answer = wizard.quick_ruling(["trump hearts, led by North: 7H, JE, QS, WZ"])
    assert answer["winner"] == {"position": 4, "player": "West", "card": "WZ"} and "wizard.trick.winner" in answer["rules"]
    assert wizard.quick_ruling(["JE WZ 7H"])["rulings"] == ["wizard.ruling.jester-then-wizard"]
    assert wizard.quick_ruling(["bid 1 round 3 after 1 0 1 leading"])["allowed"] is False
    assert wizard.quick_ruling(["bid 1 round 3 after 1 0 1"])["allowed"] is True
    hearts = game_for(HEARTS)
    answer = hearts.quick_ruling(["shun fire: 9I QI WF 2L"])
    assert answer["winner"]["card"] == "QI" and answer["points"] == 13 - 1
