"""The trick-taking core: random-play invariants over thousands of seeded games of Wizard
and Wizard Hearts (every game ends within its declared length, cards are conserved, tricks
and hand scores add up, scores stay in the declared bounds, saved logs replay to the same
result), and the quick-ruling question parser.

Every game gets the cheap checks; the per-action checks run on every STEP_EVERY-th game and
the log round trip (write, parse, referee) on every REPLAY_EVERY-th, so the file stays fast."""

from __future__ import annotations

import pickle
import random

import pytest

from generator.core.errors import DeckgenError
from generator.games.base import CHANCE, TERMINAL, game_for
from generator.games.logs import parse_log
from generator.games.referee import referee
from generator.games.simulate import game_log_text
from generator.games.tricks import PLAY, deal_hands, parse_trick_question, pass_target, sample_cards, words
from generator.games.trick.actions import PASSING
from generator.deck.loader import load_deck

from tests.conftest import DECKS

WIZARD = load_deck(DECKS / "wizard.toml")
HEARTS = load_deck(DECKS / "wizard-hearts.toml")
GAMES = 1000  # per engine, over its player counts and the deck's variants (about 2 ms a game: ~2 s a test)
STEP_EVERY = 50  # these games are also checked after every action
REPLAY_EVERY = 100  # these games are also written as a log and refereed back


def play_random(game, num_players: int, seed: int, record: bool = False, after_action=None, before_chance=None):
    """One seeded game with uniformly random moves: the final state, the number of actions
    and (if `record`) the actions. Fails a game that runs past its declared length."""
    rng = random.Random(seed)
    draw = rng.random
    state = game.new_state(num_players)
    actions = [] if record else None
    limit = game.max_actions(num_players)
    for count in range(limit + 1):
        player = state.current_player()
        if player == TERMINAL:
            return state, count, actions
        if player == CHANCE:
            if before_chance is not None:
                before_chance(state)
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            action = legal[int(draw() * len(legal))]
        state.apply(action)
        if actions is not None:
            actions.append(action)
        if after_action is not None:
            after_action(state)
    pytest.fail(f"{game.id} ({num_players} players, seed {seed}) runs past its declared {limit} actions")


def games_to_play(deck):
    """(index, game, players) for GAMES games cycling through every variant and player count."""
    games = [game_for(deck)] + [game_for(deck, variant.params) for variant in deck.variants]
    counts = range(deck.min_players, deck.max_players + 1)
    for index in range(GAMES):
        yield index, games[index % len(games)], counts[index // len(games) % len(counts)]


def check_outcome(game, state, num_players: int) -> None:
    outcome = state.outcome()
    assert outcome is not None and len(outcome.scores) == num_players
    low, high = game.score_bounds(num_players)
    assert all(low <= score <= high for score in outcome.scores), (outcome.scores, low, high)
    best = (min if game.lower_score_wins else max)(outcome.scores)
    assert outcome.winners and all(outcome.scores[seat] == best for seat in outcome.winners)


def check_replay(deck, game, num_players: int, state, count: int, actions) -> None:
    players = [f"P{seat + 1}" for seat in range(num_players)]
    report = referee(parse_log(game_log_text(game, players, actions), deck, game.log_sections))
    assert report.violation is None, report.violation
    assert report.finished and report.actions == count and report.scores == list(state.outcome().scores)


def check_split_by_suit(state) -> None:
    """Wizard's and Wizard Hearts' per-seat lists of each suit, kept as cards move, match the hands."""
    suit_of = state.table.suit
    for hand, by_suit in zip(state.hands, state.by_suit):
        assert by_suit == [[card for card in hand if suit_of[card] == suit] for suit in range(len(by_suit) - 1)] + [
            [card for card in hand if suit_of[card] < 0]]


def wizard_step(state) -> None:
    if state.phase == PLAY:
        n = state.num_players
        assert sum(map(len, state.hands)) + len(state.trick) + state.trick_number * n == (state.round + 1) * n
        assert sum(state.won) == state.trick_number
        check_split_by_suit(state)
        assert state.repeats == [len(hand) - len(set(hand)) for hand in state.hands]


def check_wizard_rounds(game, state, num_players: int) -> None:
    """Every round was dealt, bid, played out and scored by the rules (from the round records)."""
    assert len(state.history) == state.rounds_total == game.table.total // num_players
    assert not any(state.hands) and not state.trick
    totals = [0] * num_players
    for number, entry in enumerate(state.history, start=1):
        assert sum(entry["won"]) == number  # round r deals r cards each: r tricks, every card played
        assert all(0 <= bid <= number for bid in entry["bids"])
        for bid, won, points in zip(entry["bids"], entry["won"], entry["points"]):
            assert points == (20 + 10 * won if bid == won else -10 * abs(bid - won))
        totals = [total + points for total, points in zip(totals, entry["points"])]
        assert entry["totals"] == totals
        turned = entry["turned"]
        if number == state.rounds_total:
            assert turned is None and entry["trump"] == -1  # every card dealt: no trump
        elif turned in game.dealer_chooses:  # a Wizard
            assert 0 <= entry["trump"] < game.num_suits  # the dealer named one
        else:
            assert entry["trump"] == (-1 if turned in game.no_trump else game.table.suit[turned])
    assert state.totals == totals


def test_wizard_random_games_keep_the_invariants():
    for index, game, n in games_to_play(WIZARD):
        state, count, actions = play_random(game, n, index, record=index % REPLAY_EVERY == 0,
                                            after_action=wizard_step if index % STEP_EVERY == 0 else None)
        check_outcome(game, state, n)
        check_wizard_rounds(game, state, n)
        if actions is not None:
            check_replay(WIZARD, game, n, state, count, actions)


def hearts_step(state) -> None:
    given = state.game.leftover_to_first_trick and state.trick_number > 0
    cauldron = state.info.aside
    if state.phase == PASSING:
        held = sum(map(len, state.hands)) + sum(map(len, state.info.passed))
        assert held + len(cauldron) == state.table.total
    elif state.phase == PLAY:
        in_play = sum(map(len, state.hands)) + len(state.trick) + sum(map(len, state.caught))
        assert in_play + (0 if given else len(cauldron)) == state.table.total
        check_split_by_suit(state)


def check_hearts_hand(state) -> None:
    """The hand just finished (the state still holds its Shun suit and Cauldron) scored every
    card in play, and every card went to a trick or to the Cauldron."""
    game, entry = state.game, state.history[-1]
    points, cauldron = state.tables.points, state.info.aside
    in_tricks = sum(points) - (0 if game.leftover_to_first_trick else sum(points[c] for c in cauldron))
    assert sum(entry["points"]) == in_tricks
    assert sum(entry["tricks"]) == game.hand_size(state.num_players)
    set_aside = 0 if game.leftover_to_first_trick else len(cauldron)
    assert sum(map(len, state.caught)) + set_aside == state.table.total


def hearts_before_chance(state) -> None:
    if state.chance == "shun" and state.history:  # a hand has just ended
        check_hearts_hand(state)


def test_wizard_hearts_random_games_keep_the_invariants():
    for index, game, n in games_to_play(HEARTS):
        state, count, actions = play_random(game, n, index, record=index % REPLAY_EVERY == 0,
                                            after_action=hearts_step if index % STEP_EVERY == 0 else None,
                                            before_chance=hearts_before_chance)
        check_outcome(game, state, n)
        check_hearts_hand(state)
        totals = [0] * n
        for entry in state.history:
            totals = [total + points for total, points in zip(totals, entry["points"])]
            assert entry["totals"] == totals
        if state.outcome().reason == "finished":
            assert max(totals) >= game.params["target_score"]
        else:
            assert len(state.history) == game.params["max_hands"]
        if actions is not None:
            check_replay(HEARTS, game, n, state, count, actions)


@pytest.mark.parametrize("deck", [WIZARD, HEARTS], ids=["wizard", "wizard-hearts"])
def test_a_state_in_play_pickles_and_plays_on_alike(deck):
    """Games and states pickle (for process pools), lazily built card tables included."""
    game = game_for(deck)
    state, _, actions = play_random(game, 4, 5, record=True)
    halfway = game.new_state(4)
    for action in actions[: len(actions) // 2]:
        halfway.apply(action)
    copy = pickle.loads(pickle.dumps(halfway))
    for action in actions[len(actions) // 2:]:
        assert copy.legal_actions() == halfway.legal_actions()
        halfway.apply(action)
        copy.apply(action)
    assert copy.summary() == halfway.summary() == state.summary()


def test_sample_cards_draws_as_the_standard_library_does():
    """Seeded Wizard deals are what `random.sample` dealt, draw for draw, and leave the
    generator in the same state."""
    population = game_for(WIZARD).table.physical
    for seed in range(200):
        for size in (0, 1, 3, 5, 6, 12, 30, 59, 60):
            ours, library = random.Random(seed), random.Random(seed)
            assert sample_cards(population, size, ours) == library.sample(population, size)
            assert ours.random() == library.random()


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
    assert wizard.quick_ruling(["bid 1 round 3 after 1 0 1 scores 20 40 10 60"])["allowed"] is False
    assert wizard.quick_ruling(["bid 1 round 3 after 1 0 1"])["allowed"] is True
    hearts = game_for(HEARTS)
    answer = hearts.quick_ruling(["shun fire: 9I QI WF 2L"])
    assert answer["winner"]["card"] == "QI" and answer["points"] == 13 - 1
