"""The example games of examples/rules/, each written only in the rules language: one scenario per
rule, set up from the rules text (random play alone misses rule bugs), and the checks every
engine gets (random games end within their declared length and score bounds, logs replay)."""

from __future__ import annotations

import random

import pytest

from generator.deck.loader import load_deck
from generator.games.base import CHANCE, TERMINAL, IllegalAction, game_for
from generator.games.logs import parse_log
from generator.games.referee import referee
from generator.games.simulate import game_log_text
from generator.games.trick.actions import BID, PASS, ChooseSeat, Deal, TurnUp
from generator.games.trick.scoring import round_points

from tests.conftest import ROOT

EXAMPLES = ROOT / "examples" / "rules"
DECKS = {name: load_deck(EXAMPLES / f"{name}.toml")
         for name in ("oh-hell", "hearts", "spades", "whist", "euchre", "german-whist", "corsairs")}


def game(name: str, **params):
    return game_for(DECKS[name], params or None)


def cards(name: str, text: str) -> list[int]:
    table = game(name).table
    return [table.index(code) for code in text.split()]


def dealt(name: str, hands: list[str], dealer: int = 0, round_index: int = 0, turned: str | None = None,
          **params):
    """A state right after dealing these hands (and turning `turned`) in round `round_index`."""
    state = game(name, **params).new_state(len(hands))
    state.apply(ChooseSeat(dealer))
    state.round = round_index
    state.apply(Deal(tuple(tuple(cards(name, hand)) for hand in hands)))
    if turned is not None:
        state.apply(TurnUp(cards(name, turned)[0]))
    return state


def play(name: str, state, codes: str) -> None:
    for card in cards(name, codes):
        state.apply(card)


def refusal(state, action) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        state.apply(action)
    return caught.value


def winner(name: str, question: str) -> str:
    return game(name).quick_ruling([question])["winner"]["card"]


def full_hands(name: str, players: int, seed: int) -> list[str]:
    table = game(name).table
    order = list(table.physical)
    random.Random(seed).shuffle(order)
    size = len(order) // players
    return [" ".join(table.code[c] for c in order[seat * size:(seat + 1) * size]) for seat in range(players)]


# -- Oh Hell --------------------------------------------------------------------------------------

def test_oh_hell_hands_grow_then_shrink():
    g = game("oh-hell")
    assert [g.hand(4, r) for r in range(1, 24)] == list(range(1, 13)) + list(range(11, 0, -1))
    assert g.num_rounds(4) == 23 and g.num_rounds(7) == 13


def test_oh_hell_turned_card_sets_trump_and_the_highest_trump_wins():
    state = dealt("oh-hell", ["2S", "5H", "KS"], turned="9H")
    assert state.trump == 1  # hearts
    assert winner("oh-hell", "trump hearts: KS AS 5H") == "5H"
    assert winner("oh-hell", "trump hearts: KS AS 5D") == "AS"


def test_oh_hell_dealer_hook_and_its_variant():
    state = dealt("oh-hell", ["2S 3S", "5H 6H", "KS QS"], round_index=1, turned="9C")
    state.apply(BID + 1)
    state.apply(BID + 0)
    assert state.legal_actions() == [BID + 0, BID + 2]  # 1 would make the bids add up to the 2 tricks
    error = refusal(state, BID + 1)
    assert error.rule == "oh-hell.bidding.hook" and error.legal == ("0", "2")
    free = dealt("oh-hell", ["2S 3S", "5H 6H", "KS QS"], round_index=1, turned="9C", hook=False)
    free.apply(BID + 1)
    free.apply(BID + 0)
    assert free.legal_actions() == [BID + 0, BID + 1, BID + 2]


def test_oh_hell_follow_suit_and_scoring():
    state = dealt("oh-hell", ["2S 3D", "5S 6H", "KS QD"], round_index=1, turned="9C")
    for bid in (1, 1, 1):
        state.apply(BID + bid)
    play("oh-hell", state, "5S")
    assert refusal(state, cards("oh-hell", "QD")[0]).rule == "oh-hell.play.follow"
    play("oh-hell", state, "KS 2S")  # seat 2 takes it and leads
    play("oh-hell", state, "QD 3D 6H")
    assert state.history[-1]["won"] == [0, 0, 2]
    assert state.history[-1]["points"] == [0, 0, 2]  # a point a trick; nobody made their bid of 1
    scored = game("oh-hell").new_state(3)
    scored.bids, scored.won = [1, 0, 2], [1, 1, 1]
    assert round_points(scored) == [11, 1, 1]  # 10 more for the exact bid


# -- Hearts ---------------------------------------------------------------------------------------

def test_hearts_passing_cycles_left_right_across_hold():
    g = game("hearts")
    assert [g.pass_direction(4, r) for r in range(5)] == ["left", "right", "across", "hold", "left"]


def test_hearts_two_of_clubs_leads():
    state = dealt("hearts", full_hands("hearts", 4, 1), round_index=3)  # a hold hand: straight to play
    holder = state.current_player()
    assert cards("hearts", "2C")[0] in state.hands[holder] and state.legal_actions() == cards("hearts", "2C")
    other = next(c for c in state.hands[holder] if c != cards("hearts", "2C")[0])
    assert refusal(state, other).rule == "hearts.play.first-lead"


def by_suit_hands(name: str, *swaps: str) -> list[str]:
    """Four hands of 13, seat k holding all of suit k (spades, hearts, diamonds, clubs); then each
    "A B" swap exchanges two cards between their holders."""
    table = game(name).table
    hands = [[c for c in range(len(table.code)) if table.suit[c] == suit] for suit in range(4)]
    for swap in swaps:
        a, b = cards(name, swap)
        holder_a, holder_b = next(h for h in hands if a in h), next(h for h in hands if b in h)
        holder_a[holder_a.index(a)], holder_b[holder_b.index(b)] = b, a
    return [" ".join(table.code[c] for c in hand) for hand in hands]


def ask(name: str, question: str) -> dict:
    return game(name).quick_ruling([question])


def test_hearts_void_on_the_first_trick_may_not_shed_points_unless_nothing_else():
    answer = ask("hearts", "play QS hand QS 9D 4H trick 2C first")
    assert not answer["allowed"] and answer["legal"] == ["9D"]
    assert answer["rules"] == ["hearts.play.first-trick", "hearts.play.follow"]
    assert ask("hearts", "play QS hand QS 4H 5H trick 2C first")["allowed"]  # nothing else to play
    assert ask("hearts", "play QS hand QS 9D 4H trick 2C")["allowed"]  # later tricks: any card when void


def test_hearts_may_not_be_led_until_broken_and_the_queen_breaks_them():
    # Seat 3 (hearts) also holds the Three of Clubs and the Four of Diamonds; seat 0 the Two of Hearts.
    hands = by_suit_hands("hearts", "3C 2H", "4D 3H")
    hands = [hands[3], hands[0], hands[2], hands[1]]  # seat 0 clubs, 1 spades, 2 diamonds, 3 hearts
    state = dealt("hearts", hands, dealer=3, round_index=3)  # a hold hand: seat 0 leads the Two of Clubs
    play("hearts", state, "2C 2S 2D 3C")  # seat 3 follows and takes the trick
    assert state.current_player() == 3 and state.legal_actions() == cards("hearts", "4D")
    error = refusal(state, cards("hearts", "5H")[0])
    assert error.rule == "hearts.play.broken" and "not been broken" in error.message
    play("hearts", state, "4D 2H QS AD")  # seat 1, out of diamonds, sheds the Queen: hearts are broken
    assert state.current_player() == 2 and cards("hearts", "3H")[0] in state.legal_actions()
    assert ask("hearts", "play 4H hand 4H 5H")["allowed"]  # only hearts: any may be led
    assert not ask("hearts", "play 4H hand 4H 5D")["allowed"] and ask("hearts", "play 4H hand 4H 5D broken")["allowed"]


def test_hearts_passes_go_to_the_left_on_the_first_hand():
    state = dealt("hearts", full_hands("hearts", 4, 2), dealer=3)
    passed = {}
    for _ in range(4):
        seat = state.current_player()
        passed[seat] = sorted(state.hands[seat])[:3]
        for card in passed[seat]:
            state.apply(PASS + card)
    for seat, given in passed.items():
        assert all(card in state.hands[(seat + 1) % 4] for card in given)


@pytest.mark.parametrize("caught, scores", [([26, 0, 0, 0], [0, 26, 26, 26]), ([13, 13, 0, 0], [13, 13, 0, 0]),
                                            ([0, 20, 6, 0], [0, 20, 6, 0])])
def test_hearts_points_and_shooting_the_moon(caught, scores):
    state = game("hearts").new_state(4)
    state.hand_points = caught
    assert round_points(state) == scores


def test_hearts_trick_points_in_a_quick_ruling():
    answer = game("hearts").quick_ruling(["lead North: 5S QS 3H KS"])
    assert answer["winner"]["card"] == "KS" and answer["points"] == 14


# -- Spades ---------------------------------------------------------------------------------------

def test_spades_trump_and_breaking():
    assert winner("spades", "KH AH 2S 3H") == "2S"
    answer = ask("spades", "play 3S hand 3S 9D")
    assert not answer["allowed"] and answer["rules"] == ["spades.play.broken"] and answer["legal"] == ["9D"]
    assert ask("spades", "play 3S hand 3S 9D broken")["allowed"]
    assert ask("spades", "play 3S hand 3S 5S")["allowed"]  # nothing but spades


def test_spades_a_spade_played_breaks_them():
    # seat 0 spades but the Two of Hearts; seat 1 hearts but the Two of Spades
    hands = by_suit_hands("spades", "2S 2H")
    state = dealt("spades", hands, dealer=3)
    for _ in range(4):
        state.apply(BID + 3)
    assert state.legal_actions() == cards("spades", "2H")  # seat 0 may not lead a spade yet
    play("spades", state, "2H 3H 2D 2C")  # seat 1 takes it with the Three of Hearts
    assert state.current_player() == 1 and cards("spades", "2S")[0] not in state.legal_actions()
    play("spades", state, "4H 3D 3C AS")  # seat 0, out of hearts, trumps last: spades are broken
    assert state.current_player() == 0 and cards("spades", "KS")[0] in state.legal_actions()


@pytest.mark.parametrize("bids, won, bags_before, expected, bags_after", [
    ([3, 2, 4, 1], [4, 3, 4, 2], [0] * 4, [71, 32, 71, 32], [1, 2, 1, 2]),     # both made: 70 + 1 bag, 30 + 2 bags
    ([3, 2, 4, 1], [2, 5, 2, 4], [0] * 4, [-70, 36, -70, 36], [0, 6, 0, 6]),   # 7 bid, 4 taken: set
    ([0, 2, 4, 1], [0, 5, 5, 3], [0] * 4, [141, 35, 141, 35], [1, 5, 1, 5]),   # nil made: +100, and 41
    ([0, 2, 4, 1], [1, 5, 4, 3], [0] * 4, [-60, 35, -60, 35], [0, 5, 0, 5]),   # nil failed: -100
    ([3, 2, 4, 1], [4, 3, 4, 2], [9, 0, 9, 0], [-29, 32, -29, 32], [0, 2, 0, 2]),  # the tenth bag: -100
])
def test_spades_contracts_nil_and_bags(bids, won, bags_before, expected, bags_after):
    state = game("spades").new_state(4)
    state.bids, state.won = bids, won
    state.info.carried["bags"] = list(bags_before)
    assert round_points(state) == expected
    assert state.info.carried["bags"] == bags_after


def test_spades_partners_share_a_score():
    g = game("spades")
    assert g.teams(4) == [(0, 2), (1, 3)]
    state = g.new_state(4)
    rng = random.Random(3)
    while state.current_player() != TERMINAL:
        state.apply(state.sample_chance(rng) if state.current_player() == CHANCE else rng.choice(state.legal_actions()))
    scores = state.outcome().scores
    assert scores[0] == scores[2] and scores[1] == scores[3]
    assert set(state.outcome().winners) in ({0, 2}, {1, 3}, {0, 1, 2, 3})


# -- Whist ----------------------------------------------------------------------------------------

def test_whist_the_dealers_last_card_shows_trump():
    hands = full_hands("whist", 4, 4)
    state = dealt("whist", hands, dealer=2)
    assert state.current_player() == CHANCE and state.chance == "turn"
    not_dealers = cards("whist", hands[0].split()[0])[0]
    assert refusal(state, TurnUp(not_dealers)).rule == "whist.setup.trump"
    turned = cards("whist", hands[2].split()[-1])[0]
    state.apply(TurnUp(turned))
    assert state.trump == state.table.suit[turned] and state.current_player() == 3


def test_whist_sides_score_tricks_over_six_and_five_wins():
    state = game("whist").new_state(4)
    state.won = [5, 3, 3, 2]  # partners 0 and 2: 8 tricks; 1 and 3: 5
    assert round_points(state) == [2, 0, 2, 0]
    assert game("whist").target == 5


# -- Corsairs -------------------------------------------------------------------------------------

@pytest.mark.parametrize("trick, wins", [
    ("9G 14G 2B FG", "2B"),        # the Jolly Roger is trump
    ("14B CO 13B CO", "CO"),       # a Corsair beats trumps; the first of two takes it
    ("FG 5Y 9Y 2Y", "9Y"),         # a Fog lead sets no suit: the next card does
    ("FG FG FG", "FG"),            # all Fog: the first Fog
])
def test_corsairs_who_takes_a_trick(trick, wins):
    answer = game("corsairs").quick_ruling([f"lead North: {trick}"])
    assert answer["winner"]["card"] == wins
    assert answer["winner"]["position"] == trick.split().index(wins) + 1


def test_corsairs_specials_may_be_played_at_any_time_and_a_corsair_lead_frees_everyone():
    state = dealt("corsairs", ["5G CO", "6G 7Y", "FG 8G"], dealer=2, round_index=1)
    for _ in range(3):
        state.apply(BID + 1)
    play("corsairs", state, "5G")
    assert set(state.legal_actions()) == set(cards("corsairs", "6G"))
    play("corsairs", state, "6G")
    assert set(state.legal_actions()) == set(cards("corsairs", "FG 8G"))  # Fog even though holding Kelp
    led = dealt("corsairs", ["CO 5G", "6G 7Y", "FG 8G"], dealer=2, round_index=1)
    for _ in range(3):
        led.apply(BID + 1)
    play("corsairs", led, "CO")
    assert set(led.legal_actions()) == set(cards("corsairs", "6G 7Y"))  # nobody has to follow a Corsair


def test_corsairs_scoring_with_the_fourteens_bonus():
    state = game("corsairs").new_state(3)
    state.hand_size, state.round = 3, 2
    state.bids, state.won = [2, 0, 1], [2, 0, 1]
    state.caught = [cards("corsairs", "14G 3G 2Y 14B 5P 6P"), [], cards("corsairs", "14Y 1G 2G")]
    state.tables = game("corsairs").round_tables[3, -1]
    assert round_points(state) == [40 + 10 + 20, 30, 20 + 10]
    state.won = [3, 1, 0]
    assert round_points(state) == [-10, -30, -10]


# -- every example ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(DECKS))
def test_random_games_keep_their_promises_and_replay(name):
    g = game(name)
    for players in range(g.min_players, g.max_players + 1):
        for seed in range(3):
            rng = random.Random(seed)
            state = g.new_state(players)
            actions = []
            low, high = g.score_bounds(players)
            while state.current_player() != TERMINAL:
                assert len(actions) < g.max_actions(players)
                seat = state.current_player()
                legal = state.legal_actions() if seat >= 0 else None
                assert legal is None or legal, "a player always has an action"
                action = state.sample_chance(rng) if seat == CHANCE else rng.choice(legal)
                actions.append(action)
                state.apply(action)
            outcome = state.outcome()
            assert all(low <= score <= high for score in outcome.scores), (outcome.scores, low, high)
            log = game_log_text(g, [f"P{s + 1}" for s in range(players)], actions)
            report = referee(parse_log(log, DECKS[name], g.log_sections))
            assert report.violation is None and report.finished and report.scores == list(outcome.scores)


@pytest.mark.parametrize("name", sorted(DECKS))
def test_each_example_gets_a_rulebook_and_a_playtest_report(run_cli, tmp_path, name):
    path = EXAMPLES / f"{name}.toml"
    book = run_cli("rulebook", path, "--output", tmp_path)
    assert book.exit_code == 0, book.stderr
    assert (tmp_path / name / f"{name}-rules.html").is_file() and (tmp_path / name / f"{name}-rules.pdf").is_file()
    checked = run_cli("validate", path, "--simulate", "4", "--strict", "--report", "--output", tmp_path)
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    page = (tmp_path / name / "validation.html").read_text(encoding="utf-8")
    assert "playtest" in page.lower() and "deck rules" in page
