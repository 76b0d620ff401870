"""Wizard: one scenario per rule and ruling of decks/wizard.toml, written from the rules,
plus a violation per rule caught in an altered log with the right rule id."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from generator.core.errors import DeckgenError
from generator.games.base import TERMINAL, IllegalAction, game_for
from generator.games.logs import dump_log, parse_log
from generator.games.referee import referee
from generator.games.tricks import ChooseSeat, Deal
from generator.games.trick.actions import BID, TRUMP, TurnUp
from generator.deck.loader import load_deck

from tests.trick_helpers import refused

ROOT = Path(__file__).resolve().parents[2]
DECK = load_deck(ROOT / "decks" / "wizard.toml")
EXAMPLE = ROOT / "examples" / "wizard-4p.toml"


def game(**params):
    return game_for(DECK, params)


def card(code: str) -> int:
    return game().table.index(code)


def cards(text: str) -> list[int]:
    return [card(code) for code in text.split()]


def start(hands: list[str], turned: str | None, n: int | None = None, round_index: int = 0, dealer: int = 0,
          totals: list[int] | None = None, **params):
    """A state at the start of a round with the given hands (space-separated codes) and turned card."""
    n = n or len(hands)
    state = game(**params).new_state(n)
    state.apply(ChooseSeat(dealer))
    state.round = round_index  # jump to a later round: the rules of a round do not depend on the earlier ones
    if totals:
        state.totals = list(totals)
    state.apply(Deal(tuple(tuple(cards(hand)) for hand in hands)))
    if turned is not None:
        state.apply(TurnUp(card(turned)))
    return state


def bid_all(state, bids: list[int]) -> None:
    for bid in bids:
        state.apply(BID + bid)


def play(state, codes: str) -> None:
    for code in codes.split():
        state.apply(card(code))


def illegal(state, action) -> IllegalAction:
    return refused(DECK, state, action)


def forbidden_bid(restriction: str, tricks: int, earlier_total: int, last: bool, strictly_ahead: bool,
                  final_round: bool) -> tuple[int | None, str]:
    """The one bid the deck's [rules] forbid this bidder (or None), and the rule saying so."""
    env = {"hand": tricks, "round": tricks, "players": 4, "bids_before": earlier_total, "bidders_before": 3,
           "last": last, "ahead": strictly_ahead, "final_round": final_round, "score": 0}
    forbidden = game(bid_restriction=restriction).bidding.allowed(env)[1]
    bid = next(iter(forbidden), None)
    return bid, forbidden[bid].rule if bid is not None else ""


# -- wizard.trick.winner and the leads -----------------------------------------------------------

def trick_winner_position(turned: str, codes: str) -> int:
    """Play one trick of a first round (one card each, dealer seat 0) and return the winning card's position."""
    played = codes.split()
    n = len(played)
    state = start(played[-1:] + played[:-1], turned=turned, n=n)  # seat 1 leads, the dealer plays last
    bid_all(state, [0] * n)
    play(state, codes)
    seat = state.history[-1]["won"].index(1)
    return (seat - 1) % n


@pytest.mark.parametrize("turned, codes, position", [
    ("2C", "7H JE QS WZ", 3),       # the first Wizard wins over everything
    ("2C", "WZ AC WZ JE", 0),       # the first of two Wizards
    ("2H", "7S 3H AS KS", 1),       # a trump beats the suit led
    ("2H", "7S 3H 9H AS", 2),       # the highest trump
    ("JE", "7S 3H AS KS", 2),       # no trump: highest of the suit led; other suits never win
    ("2C", "JE JE JE", 0),          # only Jesters: the first Jester
    ("2C", "JE 5D JE 9D", 3),       # a Jester lead: the first suit card sets the suit
    ("3C", "JE 5D 2C", 2),          # ... and a trump still beats it
    ("2C", "JE WZ AC 3C", 1),       # a Jester then a Wizard: the Wizard wins
])
def test_trick_winner(turned, codes, position):
    assert trick_winner_position(turned, codes) == position


def test_wizard_lead_frees_everyone_from_following():
    state = start(["2C 3C", "WZ 4C", "5C 2S"], "JE", round_index=1)  # dealer 0, seat 1 leads
    bid_all(state, [0, 0, 0])
    state.apply(card("WZ"))
    assert card("2S") in state.legal_actions()  # may throw off although holding Clubs
    play(state, "2S 3C")
    assert state.leader == 1


def test_jester_lead_then_wizard_sets_no_suit():
    state = start(["2C 3C", "JE 4C", "WZ 2S", "5C 6H"], "2D", round_index=1, n=4)
    bid_all(state, [0, 0, 0, 0])
    play(state, "JE WZ")
    assert card("6H") in state.legal_actions()  # holds Clubs, but no suit was set (wizard.ruling.jester-then-wizard)


def test_jester_lead_next_card_sets_the_suit():
    state = start(["2C 3C", "JE 4C", "9H 2S", "5C 6H"], "2D", round_index=1, n=4)
    bid_all(state, [0, 0, 0, 0])
    play(state, "JE 9H")
    assert state.legal_actions() == [card("6H")]
    assert illegal(state, card("5C")).rule == "wizard.play.follow"


def test_follow_suit_with_wizard_and_jester_always_allowed():
    state = start(["5H JE WZ", "2H 3C 4C", "6H 7D 8D"], "2S", round_index=2)
    bid_all(state, [0, 0, 0])
    play(state, "2H")  # seat 1 leads Hearts
    assert state.legal_actions() == [card("6H")]
    error = illegal(state, card("7D"))
    assert error.rule == "wizard.play.follow" and error.legal == ("6H",)
    play(state, "6H")
    assert set(state.legal_actions()) == {card("5H"), card("JE"), card("WZ")}


def test_void_player_may_play_anything_and_need_not_trump():
    state = start(["2C 3C", "5H 6D", "2S 3D"], "4S", round_index=1)
    bid_all(state, [0, 0, 0])
    play(state, "5H")
    assert set(state.legal_actions()) == {card("2S"), card("3D")}  # wizard.ruling.no-overtrump


def test_first_lead_is_dealers_left_and_winner_leads_next():
    state = start(["2C 3C", "5C 6C", "AC 9C"], "JE", round_index=1, dealer=0)
    bid_all(state, [0, 0, 0])
    assert state.current_player() == 1
    play(state, "5C AC 2C")
    assert state.current_player() == 2


def test_card_not_in_hand():
    state = start(["2C", "5C", "AC"], "JE")
    bid_all(state, [0, 0, 0])
    error = illegal(state, card("KH"))
    assert error.rule == "wizard.play.own-cards" and error.where["player"] == 1 and error.legal == ("5C",)


# -- wizard.setup.trump ----------------------------------------------------------------------

def test_turned_suit_card_sets_trump_and_a_jester_none():
    assert start(["2C", "5C", "AC"], "7H").trump == [s.id for s in DECK.suits].index("hearts")
    assert start(["2C", "5C", "AC"], "JE").trump == -1


def test_turned_wizard_lets_the_dealer_choose_a_suit_after_seeing_the_hand():
    state = start(["2C", "5C", "AC"], "WZ", dealer=2)
    assert state.current_player() == 2 and state.hands[2]
    assert state.legal_actions() == [TRUMP + s for s in range(4)]  # four suits, no "no trump"
    error = illegal(state, TRUMP + 4)
    assert error.rule == "wizard.setup.trump" and error.ruling == "wizard.ruling.wizard-trump"
    state.apply(TRUMP + 1)
    assert state.trump == 1 and state.current_player() == 0  # bidding starts at the dealer's left


def test_final_round_turns_no_card():
    n = 4
    rounds = game().num_rounds(n)
    table = game().table
    hands = [" ".join(table.code[c] for c in table.physical[seat::n]) for seat in range(n)]
    state = start(hands, None, round_index=rounds - 1)
    assert state.current_player() == 1 and state.trump == -1  # straight to bidding


def test_turned_card_must_still_be_in_the_deck():
    state = game().new_state(3)
    state.apply(ChooseSeat(0))
    state.apply(Deal(((card("WZ"),), (card("WZ"),), (card("WZ"),))))
    state.apply(TurnUp(card("WZ")))  # the fourth Wizard is still in the deck
    state = game().new_state(3)
    state.apply(ChooseSeat(0))
    state.apply(Deal(((card("7H"),), (card("8H"),), (card("9H"),))))
    assert illegal(state, TurnUp(card("7H"))).rule == "wizard.components.deck"


# -- wizard.setup.rounds / deal ----------------------------------------------------------------

@pytest.mark.parametrize("players, rounds", [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_number_of_rounds(players, rounds):
    assert game().num_rounds(players) == rounds


def test_deal_sizes_and_copies_are_checked():
    state = game().new_state(3)
    state.apply(ChooseSeat(0))
    assert illegal(state, Deal(((1, 2), (3,), (4,)))).rule == "wizard.setup.deal"
    five = game().new_state(5)
    five.apply(ChooseSeat(0))
    assert illegal(five, Deal(tuple((card("WZ"),) for _ in range(5)))).rule == "wizard.components.deck"


def test_deal_passes_left_each_round():
    state = start(["2C", "5C", "AC"], "JE", dealer=1)
    bid_all(state, [0, 0, 0])
    play(state, "AC 2C 5C")  # seat 2 leads
    assert state.dealer == 2 and state.round == 1


@pytest.mark.parametrize("players", [2, 7])
def test_players_range(players):
    with pytest.raises(DeckgenError):
        game().new_state(players)


# -- bidding -----------------------------------------------------------------------------------

def test_bid_range():
    state = start(["2C 3C", "5C 6C", "AC 9C"], "JE", round_index=1)
    assert state.legal_actions() == [BID, BID + 1, BID + 2]
    assert illegal(state, BID + 3).rule == "wizard.bidding.order"


@pytest.mark.parametrize("restriction, tricks, earlier, last, ahead, final, expected", [
    ("every-round", 3, [1, 0], True, True, False, 2),      # the leader may not make the bids even
    ("every-round", 3, [1, 0], True, False, False, None),  # not strictly ahead
    ("every-round", 3, [1, 0], False, True, False, None),  # not the last bidder
    ("every-round", 3, [2, 1], True, True, False, None),   # the even-making bid is zero: always allowed
    ("every-round", 3, [3, 2], True, True, False, None),   # the even-making bid is impossible: nothing forbidden
    ("none", 3, [1, 0], True, True, False, None),
    ("final-round", 3, [1, 0], True, True, False, None),   # not the final round
    ("final-round", 3, [1, 0], True, True, True, 2),
    ("never-even", 3, [1, 0], True, False, False, 2),      # binds whoever bids last
    ("never-even", 3, [2, 1], True, False, False, 0),      # even a zero
])
def test_forbidden_bid(restriction, tricks, earlier, last, ahead, final, expected):
    assert forbidden_bid(restriction, tricks, sum(earlier), last, ahead, final)[0] == expected


def test_leader_restriction_in_play():
    state = start(["2C 3C", "5C 6C", "AC 9C"], "JE", round_index=1, totals=[50, 10, 20])  # dealer 0 is ahead
    bid_all(state, [1, 0])
    error = illegal(state, BID + 1)
    assert error.rule == "wizard.bidding.restriction" and error.ruling == "wizard.ruling.leader"
    assert error.legal == ("0", "2")
    state.apply(BID + 2)


def test_tied_leader_is_not_restricted():
    state = start(["2C 3C", "5C 6C", "AC 9C"], "JE", round_index=1, totals=[50, 50, 20])
    bid_all(state, [1, 0, 1])


def test_never_even_variant_cites_the_variant_rule():
    state = start(["2C 3C", "5C 6C", "AC 9C"], "JE", round_index=1, bid_restriction="never-even")
    bid_all(state, [1, 0])
    assert illegal(state, BID + 1).rule == "wizard.variants.bidding"


@pytest.mark.parametrize("style", ["hidden", "delayed"])
def test_hidden_and_delayed_bids_have_no_restriction(style):
    state = start(["2C 3C", "5C 6C", "AC 9C"], "JE", round_index=1, totals=[50, 10, 20], bidding=style)
    bid_all(state, [1, 0, 1])


# -- scoring and the end -----------------------------------------------------------------------

def test_round_scoring():
    state = start(["2C 3C", "5C 6C", "AC 9C"], "JE", round_index=1)
    bid_all(state, [0, 2, 1])  # seat 1 bids 0, seat 2 bids 2, seat 0 bids 1
    play(state, "5C AC 2C")   # seat 2 wins
    play(state, "9C 3C 6C")   # seat 2 wins again
    entry = state.history[-1]
    assert entry["won"] == [0, 0, 2]
    assert entry["points"] == [-10, 20, 40]  # missed by one; a made zero; 20 + 2 x 10
    assert state.totals == [-10, 20, 40]


def test_highest_total_wins_and_ties_share():
    state = game().new_state(3)
    state.totals, state.phase = [40, 70, 70], TERMINAL
    state.history = [{"bids": [1, 1, 3]}]
    assert state.outcome().winners == (1, 2)


def test_sum_of_bids_tie_break():
    state = game(tie_break="sum-of-bids").new_state(3)
    state.totals, state.phase = [40, 70, 70], TERMINAL
    state.history = [{"bids": [1, 1, 3]}, {"bids": [0, 2, 1]}]
    assert state.outcome().winners == (2,)


# -- violations in logs ------------------------------------------------------------------------

def load_example() -> dict:
    return tomllib.loads(EXAMPLE.read_text())


def rule_broken(data: dict) -> str | None:
    header = {k: v for k, v in data.items() if k != "rounds"}
    text = dump_log(header, {"rounds": data["rounds"]})
    report = referee(parse_log(text, DECK, ("rounds",)))
    return report.violation.rule if report.violation else None


def test_example_is_legal():
    assert rule_broken(load_example()) is None


def first_bidder(data: dict, index: int) -> str:
    players = data["players"]
    dealer = players.index(data["rounds"][index]["dealer"])
    return players[(dealer + 1) % len(players)]


@pytest.mark.parametrize("change, rule", [
    (lambda d: d["rounds"][1].update(dealer=d["rounds"][0]["dealer"]), "wizard.setup.deal"),
    (lambda d: d["rounds"][2]["hands"][d["players"][0]].append("2C"), "wizard.setup.deal"),
    (lambda d: [h.__setitem__(slice(None), ["WZ"] * len(h)) for h in d["rounds"][2]["hands"].values()],
     "wizard.components.deck"),
    (lambda d: d["rounds"][0]["bids"].update({first_bidder(d, 0): 5}), "wizard.bidding.order"),
    (lambda d: d["rounds"].append(dict(d["rounds"][-1])), "wizard.setup.rounds"),
    (lambda d: d["rounds"][-1].update(turned="2C"), "wizard.setup.trump"),
    (lambda d: d["rounds"][1]["tricks"].__setitem__(0, {"lead": d["rounds"][1]["dealer"],
                                                        "cards": d["rounds"][1]["tricks"][0]}), "wizard.play.lead"),
    (lambda d: d["rounds"][0]["tricks"][0].__setitem__(0, "KH" if "KH" not in str(d["rounds"][0]["hands"]) else "KS"),
     "wizard.play.own-cards"),
])
def test_altered_example_is_caught(change, rule):
    data = load_example()
    change(data)
    assert rule_broken(data) == rule


def test_wrong_trump_claim_is_caught():
    data = load_example()
    for entry in data["rounds"]:
        turned = entry.get("turned", "")
        if turned and turned not in ("WZ", "JE"):
            suit = DECK.find_card(turned).suit
            entry["trump"] = next(s.id for s in DECK.suits if s.id != suit)
            break
    assert rule_broken(data) == "wizard.setup.trump"


def test_illegal_example_breaks_follow_suit():
    report = referee(parse_log((ROOT / "examples" / "wizard-illegal.toml").read_text(), DECK, ("rounds",)))
    assert report.violation.rule == "wizard.play.follow"


LEADER_LOG = """
players = ["A", "B", "C"]

[[rounds]]
dealer = "C"
hands.A = ["AS"]
hands.B = ["2C"]
hands.C = ["3D"]
turned = "JE"
bids = { A = 1, B = 0, C = 0 }
tricks = [["AS", "2C", "3D"]]

[[rounds]]
hands.A = ["KS", "QS"]
hands.B = ["2H", "3H"]
hands.C = ["4H", "5H"]
turned = "JE"
bids = { B = 1, C = 0, A = %d }
"""


@pytest.mark.parametrize("bid, rule", [(1, "wizard.bidding.restriction"), (2, None), (0, None)])
def test_leader_restriction_in_a_log(bid, rule):
    # After round 1, A leads alone (30 to 20 and 20) and deals round 2, so bids last.
    report = referee(parse_log(LEADER_LOG % bid, DECK, ("rounds",)))
    assert (report.violation.rule if report.violation else None) == rule
    if rule:
        assert report.violation.where == {"round": 2, "player": "A"}
        assert report.violation.legal == ["0", "2"]


def test_never_even_variant_in_a_log():
    # Under never-even the last bidder of round 1 (C, the dealer) may not make the bids total 1.
    report = referee(parse_log('variant = "never-even"\n' + LEADER_LOG % 2, DECK, ("rounds",)))
    assert report.violation is not None and report.violation.rule == "wizard.variants.bidding"
    assert report.violation.where == {"round": 1, "player": "C"}
