"""What the referee says, by class of mistake: an altered log must cite the rule that decides
it, name the player who erred and list the options of the decision actually pending; a log
that stops in the middle of a decision is incomplete, naming who owes what."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from generator.games.logs import dump_log, parse_log
from generator.games.referee import referee
from generator.deck.loader import load_deck

ROOT = Path(__file__).resolve().parents[2]
DECKS = {name: load_deck(ROOT / "decks" / f"{name}.toml")
         for name in ("wizard", "wizard-hearts", "muggle-quidditch", "quidditch-v2")}
SECTIONS = {"wizard": ("rounds",), "wizard-hearts": ("rounds",), "muggle-quidditch": ("houses", "deal", "turns"),
            "quidditch-v2": ("setup", "turns")}


def example(name: str) -> dict:
    return tomllib.loads((ROOT / "examples" / name).read_text())


def judge(deck: str, data: dict):
    body_keys = SECTIONS[deck]
    header = {k: v for k, v in data.items() if k not in body_keys}
    body = {k: v for k, v in data.items() if k in body_keys}
    return referee(parse_log(dump_log(header, body), DECKS[deck], body_keys))


def violation(deck: str, data: dict):
    report = judge(deck, data)
    assert report.violation is not None, report.text()
    return report.violation


def incomplete(deck: str, data: dict) -> dict:
    report = judge(deck, data)
    assert report.violation is None, report.text()
    assert report.status == "incomplete" and not report.finished and report.pending
    return report.pending


# -- Wizard Hearts -------------------------------------------------------------------------------

def hearts_first_hand() -> dict:
    """The five-player example cut to its first hand (dealer Cleo: Dev passes first, Cleo last)."""
    data = example("wizard-hearts-5p.toml")
    data["rounds"] = data["rounds"][:1]
    return data


def hearts_passes_only() -> dict:
    data = hearts_first_hand()
    del data["rounds"][0]["tricks"]
    return data


def test_hearts_first_trick_led_by_the_wrong_player_cites_the_first_lead_rule():
    data = hearts_first_hand()
    first = data["rounds"][0]["tricks"][0]
    data["rounds"][0]["tricks"][0] = {"lead": "Ann", "cards": first}
    found = violation("wizard-hearts", data)
    assert found.rule == "wh.play.first-lead"
    assert found.where["player"] == "Ann" and found.legal == ["lead = 'Ben'"]


@pytest.mark.parametrize("with_tricks", [True, False])
def test_hearts_wrong_pass_count_is_the_passers(with_tricks):
    data = hearts_first_hand() if with_tricks else hearts_passes_only()
    data["rounds"][0]["passes"]["Eli"].pop()
    found = violation("wizard-hearts", data)
    assert found.rule == "wh.setup.passing" and found.where["player"] == "Eli"
    assert "Eli passes 2 cards" in found.message and found.legal == ["3 cards from Eli's hand"]


def test_hearts_dealer_passing_too_many_leaks_no_internal_number():
    data = hearts_passes_only()
    data["rounds"][0]["passes"]["Cleo"].append("9S")
    found = violation("wizard-hearts", data)
    assert found.rule == "wh.setup.passing" and found.where["player"] == "Cleo"
    assert found.message == "Cleo passes 4 cards; every player passes 3 on a passing hand"


def test_hearts_short_last_pass_is_incomplete_naming_who_owes_what():
    data = hearts_passes_only()
    data["rounds"][0]["passes"]["Cleo"].pop()
    pending = incomplete("wizard-hearts", data)
    assert pending["player"] == "Cleo" and pending["rule"]["id"] == "wh.setup.passing"
    assert pending["owes"].startswith("Cleo to pass 1 more card to Dev")
    assert "pass 9S" in pending["legal"] and "pass QM" not in pending["legal"]


def test_hearts_missing_passes_at_the_end_are_owed_by_the_next_passer():
    data = hearts_passes_only()
    for name in ("Ann", "Ben", "Cleo"):
        del data["rounds"][0]["passes"][name]
    pending = incomplete("wizard-hearts", data)
    assert pending["player"] == "Ann" and pending["owes"].startswith("Ann to pass 3 more cards")


def test_hearts_log_ending_after_the_passes_owes_the_first_lead():
    pending = incomplete("wizard-hearts", hearts_passes_only())
    assert pending["player"] == "Ben" and pending["rule"]["id"] == "wh.play.first-lead"
    assert pending["legal"] == ["2L"]


def test_hearts_passing_on_a_hold_hand_lists_no_cards():
    data = example("wizard-hearts-5p.toml")
    data["rounds"] = data["rounds"][:3]
    data["rounds"][2]["passes"] = {"Ann": ["2S", "3S", "4S"]}
    found = violation("wizard-hearts", data)
    assert found.rule == "wh.setup.passing" and found.legal == ["no passes on this hand"]


def test_hearts_hand_size_error_names_the_player():
    data = hearts_first_hand()
    data["rounds"][0]["cauldron"].append(data["rounds"][0]["hands"]["Dev"].pop())
    found = violation("wizard-hearts", data)
    assert found.rule == "wh.setup.deal" and found.where["player"] == "Dev"
    assert found.message.startswith("Dev is dealt 18 cards")


def test_hearts_card_not_held_cites_the_own_cards_rule():
    data = hearts_first_hand()
    data["rounds"][0]["tricks"][0][1] = "3S"  # in the Cauldron
    found = violation("wizard-hearts", data)
    assert found.rule == "wh.play.own-cards" and found.where["player"] == "Cleo"
    assert "3S" not in found.legal and found.legal


# -- Wizard --------------------------------------------------------------------------------------

def wizard_rounds(count: int) -> dict:
    data = example("wizard-4p.toml")
    data["rounds"] = data["rounds"][:count]
    return data


def test_wizard_no_trump_after_a_turned_wizard_is_a_rule_cited_rejection():
    data = wizard_rounds(5)  # round 5: South deals and turns a Wizard
    data["rounds"][4]["trump"] = "none"
    found = violation("wizard", data)
    assert found.rule == "wizard.setup.trump" and found.ruling == "wizard.ruling.wizard-trump"
    assert found.where["player"] == "South" and found.legal == ["Spades", "Hearts", "Diamonds", "Clubs"]


def test_wizard_trump_claim_against_the_turned_card_lists_the_right_trump_not_bids():
    data = wizard_rounds(1)
    data["rounds"][0]["trump"] = "hearts"  # 9C was turned
    found = violation("wizard", data)
    assert found.rule == "wizard.setup.trump" and found.legal == ['trump = "clubs"']


def test_wizard_card_turned_in_the_final_round_lists_no_bids():
    data = example("wizard-4p.toml")
    data["rounds"][-1]["turned"] = "2C"
    found = violation("wizard", data)
    assert found.rule == "wizard.setup.trump" and found.legal == ['turned = "none" (or leave it out)']


def test_wizard_follow_after_a_jester_lead_says_which_card_set_the_suit():
    data = wizard_rounds(3)
    data["rounds"][2]["tricks"][0][3] = "KC"  # North holds QH: Hearts was set by South's 4H
    found = violation("wizard", data)
    assert found.rule == "wizard.play.follow" and found.where["player"] == "North"
    assert "a Jester was led and 4H set Hearts as the suit to follow" in found.message
    assert " was led and they hold" not in found.message and found.legal == ["QH", "WZ"]


def test_wizard_hand_size_error_names_the_player():
    data = wizard_rounds(2)
    data["rounds"][1]["hands"]["East"].pop()
    found = violation("wizard", data)
    assert found.rule == "wizard.setup.deal" and found.where["player"] == "East"
    assert found.message.startswith("East is dealt 1 card:")


def test_wizard_card_not_held_cites_the_own_cards_rule():
    data = wizard_rounds(1)
    hands = data["rounds"][0]["hands"]
    leader = "West"  # South deals round 1
    data["rounds"][0]["tricks"][0][0] = next(code for code in ("AS", "KS", "QS") if code not in str(hands))
    found = violation("wizard", data)
    assert found.rule == "wizard.play.own-cards" and found.where["player"] == leader
    assert found.legal == hands[leader]


# -- Quidditch v2 --------------------------------------------------------------------------------

GOAL_TURN = 6  # Draco scores on Harriet, Harriet answers with Saved!, Draco with Pass


def qv2_short() -> dict:
    data = example("quidditch-v2-short.toml")
    assert data["turns"][GOAL_TURN]["actions"][4:] == ["Draco: score Harriet", "Harriet: play SAVED",
                                                       "Draco: play PASS"]
    return data


def test_qv2_skipped_response_names_who_owes_it_and_its_rule():
    data = qv2_short()
    del data["turns"][GOAL_TURN]["actions"][5]
    found = violation("quidditch-v2", data)
    assert found.rule == "qv2.response.saved" and found.where["player"] == "Harriet"
    assert found.message.startswith("Harriet owes an answer to a goal before Draco acts")
    assert set(found.legal) == {"play SAVED", "decline"}


def test_qv2_turn_moving_on_past_a_response_names_who_owes_it():
    data = qv2_short()
    data["turns"][GOAL_TURN]["actions"] = data["turns"][GOAL_TURN]["actions"][:5]
    found = violation("quidditch-v2", data)
    assert found.rule == "qv2.response.saved" and found.where["player"] == "Harriet"
    assert "Harriet still owes an answer to a goal in Draco's turn" in found.message
    assert "still Draco's turn" not in found.message


def test_qv2_log_ending_before_a_response_is_incomplete():
    data = qv2_short()
    data["turns"] = data["turns"][:GOAL_TURN + 1]
    data["turns"][GOAL_TURN]["actions"] = data["turns"][GOAL_TURN]["actions"][:5]
    pending = incomplete("quidditch-v2", data)
    assert pending["player"] == "Harriet" and pending["rule"]["id"] == "qv2.response.saved"
    assert pending["owes"] == "Harriet: an answer to a goal in Draco's turn"
    assert set(pending["legal"]) == {"play SAVED", "decline"}


def test_qv2_unasked_response_in_a_seedless_log_is_a_rule_violation_not_malformed():
    data = qv2_short()
    data["turns"][3]["actions"].insert(0, "Harriet: play SAVED")  # before her draw: nothing was scored
    report = judge("quidditch-v2", data)
    assert report.violation is not None, report.text()
    assert report.violation.rule == "qv2.response.saved" and report.violation.where["player"] == "Harriet"
    assert "nothing is waiting for that answer" in report.violation.message


def test_qv2_response_owed_by_the_other_player_is_named_over_the_intruder():
    data = qv2_short()
    data["turns"][1]["actions"].insert(1, "Harriet: play SAVED")  # Draco's Blagging window is open
    found = violation("quidditch-v2", data)
    assert found.rule == "qv2.response.blagging" and found.where["player"] == "Draco"
    assert found.message.startswith("Draco owes a chance to play Blagging before Harriet acts")


# -- Muggle Quidditch ----------------------------------------------------------------------------

def mq_game(seed: int, bots: str, variant: str | None = None) -> dict:
    from generator.games.base import game_for
    from generator.games.simulate import game_log_text, play_game

    deck = DECKS["muggle-quidditch"]
    game = game_for(deck, deck.variant(variant).params if variant else None)
    _, actions = play_game(game, 2, seed, [bots, bots], keep_actions=True)
    data = tomllib.loads(game_log_text(game, ["Ann", "Ben"], actions))
    if variant:
        data["variant"] = variant
        data.pop("params", None)
    return data


def test_mq_turn_after_the_end_is_labelled_with_its_own_number():
    data = example("muggle-quidditch.toml")
    played = len(data["turns"])
    data["turns"].append(copy.deepcopy(data["turns"][-2]))
    found = violation("muggle-quidditch", data)
    assert found.rule == "mq.end.capture" and found.field == f"turns[{played}]"
    assert found.where["turn"] == played + 1 and f"in turn {played}, but the log goes on" in found.message


def test_mq_rebuilt_pile_missing_a_joker_names_it():
    data = mq_game(0, "heuristic")
    index = next(i for i, turn in enumerate(data["turns"]) if "JK" in turn.get("shuffle", ()))
    data["turns"][index]["shuffle"].remove("JK")
    found = violation("muggle-quidditch", data)
    assert found.rule == "mq.deck.reshuffle" and found.field == f"turns[{index}].shuffle"
    assert "leaves out JK" in found.message and "Joker" in found.message
    assert found.legal and "JK" in found.legal[0]


def test_mq_log_stopping_before_the_bludger_discard_is_incomplete():
    data = mq_game(0, "heuristic")
    data["turns"] = data["turns"][:15]
    owner = data["turns"][14]["player"]
    del data["turns"][14]["discard"]
    pending = incomplete("muggle-quidditch", data)
    assert pending["player"] == owner and pending["rule"]["id"] == "mq.bludger.team"
    assert pending["owes"] == f"{owner}'s discard after the team Beater's Bludger in turn 15"
    assert pending["legal"] and all(option.startswith("discard ") for option in pending["legal"])


def test_mq_level_match_is_a_draw_not_two_winners():
    data = mq_game(0, "random", "short-match")
    report = judge("muggle-quidditch", data)
    assert report.violation is None and report.finished and report.scores[0] == report.scores[1]
    assert report.draw and report.as_dict()["result"] == "draw"
    assert not any(row["winner"] for row in report.standings)
    assert "a draw, nobody wins" in report.text() and "winner" not in report.text().split("a draw")[1]


# -- questions at the table (deckgen rule) -------------------------------------------------------

@pytest.mark.parametrize("question, allowed, rules, legal", [
    ("play 7H hand 7H 9S JE trick 2S", False, ["wizard.play.follow"], ["9S", "JE"]),
    ("play JE hand 7H 9S JE trick 2S", True, ["wizard.play.follow"], ["9S", "JE"]),
    ("play 7H hand 7H 9S JE trick JE 2S", False, ["wizard.play.follow", "wizard.play.jester-lead"], ["9S", "JE"]),
    ("play 7H hand 7H 9S trick WZ 2S", True, ["wizard.play.wizard-lead"], ["9S", "7H"]),
    ("play 7H hand 7H 9C trick 2S trump clubs", True, ["wizard.play.follow"], ["7H", "9C"]),
    ("play 9C hand 7H 9C", True, ["wizard.play.lead"], ["7H", "9C"]),
])
def test_wizard_may_i_play_this(run_cli, question, allowed, rules, legal):
    result = run_cli("rule", "wizard", question, "--json")
    import json
    answer = json.loads(result.stdout)
    assert answer["allowed"] is allowed and answer["rules"] == rules and answer["legal"] == legal
    assert result.exit_code == (0 if allowed else 1)


@pytest.mark.parametrize("question, allowed, rules, legal", [
    ("play 9S hand 2L 9S first", False, ["wh.play.first-lead"], ["2L"]),
    ("play QS hand QS 3F trick 2M first shun sun", False, ["wh.play.first-trick", "wh.play.follow"], ["3F"]),
    ("play QS hand QS 3F trick 2M shun sun", True, ["wh.play.follow"], ["QS", "3F"]),
    ("play 3F hand 4M 3F trick 2M", False, ["wh.play.follow"], ["4M"]),
    ("play 5S hand 5S 6S trick 2M first shun sun", True, ["wh.play.follow"], ["5S", "6S"]),  # only Shun left
])
def test_wizard_hearts_may_i_play_this(run_cli, question, allowed, rules, legal):
    import json
    answer = json.loads(run_cli("rule", "wizard-hearts", question, "--json").stdout)
    assert answer["allowed"] is allowed and answer["rules"] == rules and answer["legal"] == legal


def test_wizard_hearts_clean_first_trick_needs_the_shun_suit(run_cli):
    result = run_cli("rule", "wizard-hearts", "play QS hand QS 3F trick 2M first")
    assert result.exit_code == 2 and "shun SUIT" in result.stderr


@pytest.mark.parametrize("scores, allowed, leading", [
    ("20 40 10 60", False, True),   # strictly ahead: may not make the bids even
    ("20 60 10 60", True, False),   # tied for the lead: no lead
    ("20 70 10 60", True, False),   # behind
])
def test_wizard_bid_question_reads_the_score_sheet(run_cli, scores, allowed, leading):
    import json
    result = run_cli("rule", "wizard", f"bid 1 round 3 after 1 0 1 scores {scores}", "--json")
    answer = json.loads(result.stdout)
    assert answer["allowed"] is allowed and answer["leading"] is leading and answer["players"] == 4
    assert result.exit_code == (0 if allowed else 1)
    if not allowed:
        assert answer["legal_bids"] == [0, 2, 3] and "wizard.bidding.restriction" in answer["rules"]


def test_wizard_bid_question_no_longer_trusts_a_leading_flag(run_cli):
    result = run_cli("rule", "wizard", "bid 1 round 3 after 1 0 1 leading")
    assert result.exit_code == 2 and "scores S S" in result.stderr


# -- disputes recorded in logs -------------------------------------------------------------------

@pytest.mark.parametrize("draw, named, dealer", [
    ({"North": "7H", "East": "2C", "South": "WZ", "West": "AS"}, True, "South"),
    ({"North": "7H", "East": "2C", "South": "WZ", "West": "AS"}, False, "South"),
    ([{"North": "WZ", "East": "JE", "South": "WZ", "West": "AS"}, {"North": "3C", "South": "9D"}], True, "South"),
])
def test_wizard_first_dealer_draw_is_recorded_and_checked(draw, named, dealer):
    data = wizard_rounds(2)
    data["rounds"][0]["dealer_draw"] = draw
    if not named:
        del data["rounds"][0]["dealer"]
    report = judge("wizard", data)
    assert report.violation is None, report.text()
    assert report.summary["rounds"][0]["dealer"] == ["North", "East", "South", "West"].index(dealer)


@pytest.mark.parametrize("draw, message, legal", [
    ({"North": "7H", "East": "2C", "South": "9H", "West": "AS"}, "South is named as dealer, but West drew",
     ["dealer = 'West'"]),
    ({"North": "WZ", "East": "JE", "South": "WZ", "West": "AS"}, "North and South tie for the highest card",
     ["another draw between North and South"]),
    ([{"North": "KH", "East": "JE", "South": "KS", "West": "2S"}, {"North": "3C"}], "the draw for the first dealer is "
     "between the players tied in the draw before: North, South", ["one card each for North, South"]),
    ([{"North": "KH", "East": "JE", "South": "AS", "West": "2S"}, {"North": "3C", "South": "4C"}],
     "South drew the highest card alone, so nobody draws again", ["dealer = 'South'"]),
    ({"North": "7H", "East": "2C", "South": "AS"}, "between every player", ["one card each for North, East, South, West"]),
])
def test_wizard_first_dealer_draw_disputes(draw, message, legal):
    data = wizard_rounds(1)
    data["rounds"][0]["dealer_draw"] = draw
    found = violation("wizard", data)
    assert found.rule == "wizard.setup.first-dealer" and message in found.message and found.legal == legal


def test_wizard_hearts_shun_reveal_is_recorded_and_checked():
    data = hearts_first_hand()  # the Shun suit is Sun
    data["rounds"][0]["shun_reveal"] = ["5L", "WL", "3S"]
    assert judge("wizard-hearts", data).violation is None
    del data["rounds"][0]["shun"]
    assert judge("wizard-hearts", data).violation is None


@pytest.mark.parametrize("reveal, message, legal", [
    (["5L", "9L"], "the reveal ends on 9L, a Luck card", ["another card turned after it"]),
    (["3S", "5L"], "3S already names the Shun suit (Sun)", ["shun_reveal = ['3S']"]),
    (["5L", "3M"], "the log says the Shun suit is Sun, but the reveal shows Moon", ['shun = "moon"']),
])
def test_wizard_hearts_shun_reveal_disputes(reveal, message, legal):
    data = hearts_first_hand()
    data["rounds"][0]["shun_reveal"] = reveal
    found = violation("wizard-hearts", data)
    assert found.rule == "wh.setup.shun" and message in found.message and found.legal == legal


@pytest.mark.parametrize("question, allowed, rules, legal", [
    ("play 7H hand 7H 5S", False, ["mq.goal.chaser"], ["discard 7H"]),
    ("play 7H hand 7H 5S team QH", True, ["mq.turn.actions"], ["goal 7H 5S"]),
    ("play 7H hand 7H 6S team QH", False, ["mq.goal.pair"], ["discard 7H"]),
    ("play JK hand JK 5S team QH", False, ["mq.snitch.spot"], ["discard JK"]),
    ("play JK hand JK team AH", True, ["mq.turn.actions"], ["spot JK"]),
    ("play JH hand JH team QH rival-team KS", True, ["mq.turn.actions"], ["team JH", "bludger JH KS"]),
])
def test_muggle_quidditch_may_i_play_this(run_cli, question, allowed, rules, legal):
    import json
    result = run_cli("rule", "muggle-quidditch", question, "--json")
    answer = json.loads(result.stdout)
    assert answer["allowed"] is allowed and answer["rules"] == rules and answer["legal"] == legal
    assert result.exit_code == (0 if allowed else 1)


@pytest.mark.parametrize("question, allowed, rules, legal", [
    ("play SAVED hand SAVED NERVES", False, ["qv2.response.general"], ["play NERVES P2"]),
    ("play NERVES P2 hand NERVES SAVED", True, ["qv2.turn.plays"], ["play NERVES P2"]),
])
def test_quidditch_v2_may_i_play_this(run_cli, question, allowed, rules, legal):
    import json
    result = run_cli("rule", "quidditch-v2", question, "--json")
    answer = json.loads(result.stdout)
    assert answer["allowed"] is allowed and answer["rules"] == rules and answer["legal"] == legal
    assert result.exit_code == (0 if allowed else 1)
    text = run_cli("rule", "quidditch-v2", question).stdout
    assert f"[{rules[0]}]" in text
