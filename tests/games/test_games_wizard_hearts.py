"""Wizard Hearts: one scenario per rule and ruling of decks/wizard-hearts.toml, written
from the rules, plus a violation per rule caught in an altered log with the right rule id."""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path

import pytest

from generator.games.base import TERMINAL, IllegalAction, game_for
from generator.games.logs import dump_log, parse_log
from generator.games.referee import referee
from generator.games.tricks import ChooseSeat, Deal
from generator.games.trick.actions import PASS, PASSING, RoundSuit as Shun
from generator.games.trick.tables import winner_position
from generator.deck.loader import load_deck

from tests.trick_helpers import refused

ROOT = Path(__file__).resolve().parents[2]
DECK = load_deck(ROOT / "decks" / "wizard-hearts.toml")
EXAMPLE = ROOT / "examples" / "wizard-hearts-5p.toml"
SUITS = [suit.id for suit in DECK.suits]  # sun moon fire ice potions spells luck
ALL_HOLD = {str(n): ["hold"] for n in range(3, 8)}


def game(**params):
    return game_for(DECK, params)


TABLE = game().table


def round_tables(shun: int):
    """The rules engine's card tables with this Shun suit (and no trump)."""
    return game().round_tables[-1, shun]


def opposite_queen(shun: int) -> int:
    names = round_tables(shun).restricted_names[0]  # the clean first trick names each card it bars
    return next(card for card, name in names.items() if name == "the Opposite Queen")


def trick_winner(cards: list[int], shun: int = 0) -> int:
    tables = round_tables(shun)
    return winner_position(tuple(tables.claims[tables.sets_led[cards[0]]][card] for card in cards), tables.last_wins)


def card(code: str) -> int:
    return TABLE.index(code)


def cards(text: str) -> list[int]:
    return [card(code) for code in text.split()]


def suit_hands(*swaps: str) -> list[list[int]]:
    """Seven hands, seat k holding all of suit k (Sun, Moon, Fire, Ice, Potions, Spells, Luck),
    then each "A B" swap exchanges two cards between their holders."""
    hands = [[c for c in range(len(TABLE.code)) if TABLE.suit[c] == suit] for suit in range(7)]
    for swap in swaps:
        a, b = cards(swap)
        holder_a = next(h for h in hands if a in h)
        holder_b = next(h for h in hands if b in h)
        holder_a[holder_a.index(a)], holder_b[holder_b.index(b)] = b, a
    return hands


def start(hands: list[list[int]], shun: str, aside: list[int] = (), dealer: int = 0, **params):
    params.setdefault("passing", ALL_HOLD)
    state = game(**params).new_state(len(hands))
    state.apply(ChooseSeat(dealer))
    state.apply(Shun(SUITS.index(shun)))
    state.apply(Deal(tuple(tuple(hand) for hand in hands), tuple(aside)))
    return state


def play(state, codes: str) -> None:
    for code in codes.split():
        state.apply(card(code))


def illegal(state, action) -> IllegalAction:
    return refused(DECK, state, action)


def codes(actions) -> set[str]:
    return {TABLE.code[a] for a in actions}


# -- the deck and the setup ----------------------------------------------------------------------

def test_deck_is_seven_suits_of_fourteen_with_a_wizard_between_ten_and_jack():
    assert DECK.total == 98 and len(DECK.suits) == 7
    order = [rank.id for rank in DECK.ranks]
    assert order.index("wizard") == order.index("10") + 1 == order.index("jack") - 1
    assert len({c.code for c in DECK.cards}) == 98


@pytest.mark.parametrize("shun, queen", [("sun", "QM"), ("moon", "QS"), ("fire", "QI"), ("ice", "QF"),
                                         ("potions", "QE"), ("spells", "QP")])
def test_opposite_queen(shun, queen):
    assert opposite_queen(SUITS.index(shun)) == card(queen)


def test_luck_is_never_the_shun_suit():
    state = game().new_state(4)
    state.apply(ChooseSeat(0))
    error = illegal(state, Shun(SUITS.index("luck")))
    assert error.rule == "wh.setup.shun"
    rng = random.Random(1)
    seen = {state.sample_chance(rng).suit for _ in range(600)}
    assert seen == {SUITS.index(s) for s in SUITS if s != "luck"}


@pytest.mark.parametrize("players, hand, cauldron", [(3, 32, 2), (4, 24, 2), (5, 19, 3), (6, 16, 2), (7, 14, 0)])
def test_hand_size_and_cauldron(players, hand, cauldron):
    state = game().new_state(players)
    state.apply(ChooseSeat(0))
    state.apply(Shun(0))
    deal = state.sample_chance(random.Random(players))
    assert [len(h) for h in deal.hands] == [hand] * players and len(deal.aside) == cauldron
    state.apply(deal)


def test_deal_must_use_every_card_once():
    state = game().new_state(7)
    state.apply(ChooseSeat(0))
    state.apply(Shun(0))
    hands = suit_hands()
    hands[0][0] = hands[1][0]  # a Moon card twice, a Sun card missing
    assert illegal(state, Deal(tuple(map(tuple, hands)))).rule == "wh.components.deck"
    short = suit_hands()
    assert illegal(state, Deal(tuple(tuple(h[:13]) for h in short))).rule == "wh.setup.deal"
    five = game().new_state(5)
    five.apply(ChooseSeat(0))
    five.apply(Shun(0))
    deal = five.sample_chance(random.Random(2))
    error = illegal(five, Deal(deal.hands, deal.aside[1:]))  # a card neither dealt nor set aside
    assert error.rule == "wh.setup.deal" and "neither dealt nor in the Cauldron" in error.message
    last = len(TABLE.code) - 1  # written as -1, which is no card
    hands = tuple(tuple(-1 if c == last else c for c in hand) for hand in deal.hands)
    aside = tuple(-1 if c == last else c for c in deal.aside)
    assert illegal(five, Deal(hands, aside)).rule == "wh.components.deck"
    five.apply(deal)


@pytest.mark.parametrize("players, directions", [
    (3, ["left", "right", "hold", "left"]), (4, ["left", "right", "across", "hold", "left"]),
    (5, ["left", "right", "hold"]), (6, ["left", "right", "across", "hold"]), (7, ["left", "right", "hold"]),
])
def test_passing_cycle(players, directions):
    assert [game().pass_direction(players, hand) for hand in range(len(directions))] == directions


@pytest.mark.parametrize("hand_number, offset", [(0, 1), (1, -1), (2, 2)])
def test_passing_moves_cards(hand_number, offset):
    n = 4
    state = game().new_state(n)
    state.apply(ChooseSeat(0))
    state.round = hand_number  # the direction depends only on the hand's number
    state.apply(Shun(0))
    state.apply(state.sample_chance(random.Random(hand_number)))
    assert state.current_player() == 1  # passing starts at the dealer's left; all pass "at once"
    given = {}
    for _ in range(n):
        seat = state.current_player()
        given[seat] = sorted(set(state.hands[seat]))[:3]
        for c in given[seat]:
            state.apply(PASS + c)
    for seat, passed in given.items():
        receiver = (seat + offset) % n
        assert all(c in state.hands[receiver] for c in passed)
        assert not any(c in state.hands[seat] for c in passed)
    assert [len(h) for h in state.hands] == [24] * n


def test_a_pass_may_be_any_card_held_down_to_the_last():
    n = 7  # hands of 14, and pass_count 14 passes every card: the last pass is from a hand of one
    state = game(pass_count=14).new_state(n)
    state.apply(ChooseSeat(0))
    state.apply(Shun(0))
    state.apply(state.sample_chance(random.Random(5)))
    while state.phase == PASSING:
        hand = state.hands[state.current_player()]
        legal = state.legal_actions()
        assert legal == [PASS + c for c in hand]
        state.apply(legal[-1])
    assert [len(h) for h in state.hands] == [14] * n


def test_hold_hand_skips_passing_and_bad_passes_are_refused():
    state = game().new_state(4)
    state.apply(ChooseSeat(0))
    state.round = 3
    state.apply(Shun(0))
    state.apply(state.sample_chance(random.Random(3)))
    assert state.phase != PASSING
    passing = game().new_state(4)
    passing.apply(ChooseSeat(0))
    passing.apply(Shun(0))
    passing.apply(passing.sample_chance(random.Random(3)))
    missing = next(c for c in range(98) if c not in passing.hands[1])
    error = illegal(passing, PASS + missing)
    assert error.rule == "wh.play.own-cards" and error.where["player"] == 1


# -- the first trick -----------------------------------------------------------------------------

def test_two_of_luck_leads():
    state = start(suit_hands(), "fire")
    assert state.current_player() == 6
    assert state.legal_actions() == [card("2L")]
    assert illegal(state, card("3L")).rule == "wh.play.first-lead"


def test_lowest_luck_card_leads_when_the_two_is_in_the_cauldron():
    rng = random.Random(5)
    order = list(range(98))
    rng.shuffle(order)
    aside = cards("2L 3L 9S")
    rest = [c for c in order if c not in aside]
    hands = [rest[seat::5] for seat in range(5)]
    state = start(hands, "sun", aside)
    holder = next(seat for seat, hand in enumerate(hands) if card("4L") in hand)
    assert state.current_player() == holder and state.legal_actions() == [card("4L")]


def test_first_trick_forbids_shun_cards_and_the_opposite_queen():
    # Shun suit Fire: the Opposite Queen is the Queen of Ice (seat 3); seat 0 also holds Fire's Wizard.
    state = start(suit_hands("WF 2S"), "fire")
    play(state, "2L")
    assert card("WF") not in state.legal_actions()  # the Shun Wizard counts as a Shun card
    error = illegal(state, card("WF"))
    assert error.rule == "wh.play.first-trick" and error.ruling == "wh.ruling.first-trick"
    play(state, "AS KM")
    assert codes(state.legal_actions()) == {"2S"}  # seat 2: thirteen Fire cards and one Sun, so the Sun card
    play(state, "2S")
    assert card("QI") not in state.legal_actions() and len(state.legal_actions()) == 13  # seat 3: Ice but not QI
    assert illegal(state, card("QI")).rule == "wh.play.first-trick"


def test_only_shun_cards_left_may_be_played_to_the_first_trick():
    # Seat 2 holds only Fire (the Shun suit) and the Opposite Queen: any of them is allowed.
    state = start(suit_hands("QI 2F"), "fire")
    play(state, "2L AS KM")
    assert card("QI") in state.legal_actions() and card("AF") in state.legal_actions()
    play(state, "QI")
    assert card("2F") not in state.legal_actions()  # seat 3 has Ice to play instead
    assert illegal(state, card("2F")).rule == "wh.play.first-trick"


def test_follow_suit():
    state = start(suit_hands("3L 2M"), "fire")  # seat 1 holds the Three of Luck
    play(state, "2L AS")
    assert state.legal_actions() == [card("3L")]
    error = illegal(state, card("KM"))
    assert error.rule == "wh.play.follow" and error.legal == ("3L",)


def test_trick_winner_rank_order():
    def winner(codes: str) -> int:
        return trick_winner(cards(codes))

    assert winner("10F WF 9F") == 1  # the Wizard beats the Ten
    assert winner("WF JF 2F") == 1   # the Jack beats the Wizard
    assert winner("2F AS AL KF") == 3  # other suits never win
    assert winner("5E 4E 3E") == 0


def test_winner_leads_the_next_trick_and_scores_what_it_caught():
    state = start(suit_hands("3L 2M"), "fire")
    # seat 6 leads 2L; seat 0 throws the Sun Wizard, seat 1 follows 3L, seat 2 (only Fire) the Fire Wizard
    play(state, "2L WS 3L WF 5I WP 7E")
    assert state.current_player() == 1
    assert state.hand_points[1] == -2 - 1 - 2  # two Wizards, and Fire's Wizard (+1 Shun, -2 Wizard)


# -- scoring -------------------------------------------------------------------------------------

def test_card_points():
    points = round_tables(SUITS.index("fire")).points
    assert points[card("QI")] == 13 and points[card("5F")] == 1 and points[card("WF")] == -1
    assert points[card("WS")] == -2 and points[card("2L")] == 0 and points[card("QF")] == 1
    assert sum(points) == 14 + 13 - 14


def play_out(state, seed: int = 0) -> None:
    rng = random.Random(seed)
    while state.current_player() >= 0 and state.round == 0:
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("rule, expected", [("set-aside", 13 - 14), ("first-trick", 13)])
def test_cauldron(rule, expected):
    rng = random.Random(2)
    order = [c for c in range(98) if c not in cards("QI 5F 2S")]
    rng.shuffle(order)
    hands = [order[seat::5] for seat in range(5)]
    state = start(hands, "fire", cards("QI 5F 2S"), cauldron=rule, target_score=1000)
    play_out(state)
    assert sum(state.history[0]["points"]) == expected  # Cauldron points count only in the variant


def test_shun_may_be_led_any_time_unless_it_must_be_broken():
    swaps = ("3L 2M", "4F 4M")  # seat 1 wins trick 1 with 3L and also holds the Four of Fire
    for broken, allowed in ((False, True), (True, False)):
        state = start(suit_hands(*swaps), "fire", shun_must_be_broken=broken)
        play(state, "2L AS 3L 4M 5I WP 7E")
        assert state.current_player() == 1
        assert (card("4F") in state.legal_actions()) is allowed
        if not allowed:
            assert illegal(state, card("4F")).rule == "wh.variants.broken"


def test_game_ends_at_the_target_and_lowest_wins():
    state = game().new_state(3)
    state.totals, state.phase = [25, 3, 3], TERMINAL
    assert state.outcome().winners == (1, 2)  # tied lowest share the win


def test_hand_cap_stops_a_game():
    state = game(max_hands=1, target_score=1000).new_state(4)
    rng = random.Random(0)
    while state.current_player() != TERMINAL:
        state.apply(state.sample_chance(rng) if state.current_player() < 0 else rng.choice(state.legal_actions()))
    assert state.outcome().reason == "turn-cap" and len(state.history) == 1


def test_game_continues_below_the_target():
    state = start(suit_hands(), "fire")
    play_out(state)
    assert max(state.totals) < 25 and state.current_player() == -1 and state.round == 1


# -- violations in logs --------------------------------------------------------------------------

def load_example() -> dict:
    return tomllib.loads(EXAMPLE.read_text())


def referee_data(data: dict):
    header = {k: v for k, v in data.items() if k != "rounds"}
    return referee(parse_log(dump_log(header, {"rounds": data["rounds"]}), DECK, ("rounds",)))


def rule_broken(data: dict) -> str | None:
    report = referee_data(data)
    return report.violation.rule if report.violation else None


def set_field(data: dict, field: str, value) -> None:
    parts = [int(i) if i else name for name, i in re.findall(r"([A-Za-z0-9_]+)|\[(\d+)\]", field)]
    target = data
    for part in parts[:-1]:
        target = target[part]
    target[parts[-1]] = value


def find_play(data: dict, wanted_rule: str):
    """The first card play in the example where a card in the player's hand breaks `wanted_rule`:
    (the field where it is written, that card's code)."""
    g = game()
    log = parse_log(EXAMPLE.read_text(), DECK, ("rounds",))
    state = g.new_state(len(log.players))
    for step in g.log_steps(log, state):
        if state.phase == state.PLAY and isinstance(step.action, int):
            options = state.options(state.turn)
            refused = [c for c in state.hands[state.turn] if c not in options.cards]
            if refused and options.rule == wanted_rule:
                return step.field, TABLE.code[refused[0]]
        state.apply(step.action)
    raise AssertionError(f"the example never gives a chance to break {wanted_rule}")


def test_example_is_legal():
    report = referee_data(load_example())
    assert report.violation is None and report.finished
    assert max(report.scores) >= 25


@pytest.mark.parametrize("rule", ["wh.play.follow", "wh.play.first-lead", "wh.play.first-trick"])
def test_altered_play_is_caught(rule):
    data = load_example()
    field, code = find_play(data, rule)
    set_field(data, field, code)
    report = referee_data(data)
    assert report.violation.rule == rule and report.violation.field == field


@pytest.mark.parametrize("change, rule", [
    (lambda d: d["rounds"][0].update(shun="luck"), "wh.setup.shun"),
    (lambda d: d["rounds"][1].update(dealer=d["rounds"][0]["dealer"]), "wh.setup.dealer"),
    (lambda d: d["rounds"][0]["hands"][d["players"][0]].pop(), "wh.setup.deal"),
    (lambda d: d["rounds"][0]["cauldron"].__setitem__(0, d["rounds"][0]["hands"][d["players"][0]][0]),
     "wh.components.deck"),
    (lambda d: d["rounds"][0]["passes"][d["players"][0]].pop(), "wh.setup.passing"),
    (lambda d: d["rounds"][2].update(passes={d["players"][0]: ["2S", "3S", "4S"]}), "wh.setup.passing"),
    (lambda d: d["rounds"].append(dict(d["rounds"][-1])), "wh.scoring.end"),
    (lambda d: d["rounds"][0]["tricks"].__setitem__(0, {"lead": d["players"][0] if d["rounds"][0]["tricks"][0][0] != "2L"
                                                        else d["rounds"][0]["dealer"],
                                                        "cards": d["rounds"][0]["tricks"][0]}), "wh.play.first-lead"),
])
def test_altered_setup_is_caught(change, rule):
    data = load_example()
    change(data)
    assert rule_broken(data) == rule


def test_variant_in_the_header_changes_the_rules():
    data = load_example()
    data["variant"] = "cauldron-to-winner"
    report = referee_data(data)
    assert report.violation is None
    assert report.scores != referee_data(load_example()).scores or not data["rounds"][0].get("cauldron")
