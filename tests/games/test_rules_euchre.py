"""Euchre (examples/rules/euchre.toml) and the parts of the rules language it needs, one scenario
per rule: the deal in packets (3-2 then 2-3, from a seeded shuffle), the bowers (cards above the
trumps that change suit with trump: `[rules.trump] top` and `suit:opposite-trump`), no trump named
by the highest bidder (`may_name_none`), the makers' scoring (`maker`, `contract`), the dealer who
may not pass ("stick the dealer", a bidding `forbid`); and the deal moving right
(`[rules.deal] rotation`), shown on Whist. Each bad field is an error at its line."""

from __future__ import annotations

import json
import random

import pytest

from generator.deck.loader import load_deck
from generator.games.base import game_for
from generator.games.trick.actions import BID, CHOOSE_TRUMP, NO_TRUMP, PLAY, TRUMP, ChooseSeat, Deal
from generator.games.trick.scoring import round_points
from generator.games.tricks import shuffled

from tests.conftest import ROOT
from tests.trick_helpers import refused

EUCHRE_FILE = ROOT / "examples" / "rules" / "euchre.toml"
EUCHRE = load_deck(EUCHRE_FILE)
HEARTS, DIAMONDS = 1, 2  # suit indices in the deck file


def cards(game, text: str) -> list[int]:
    return [game.table.index(code) for code in text.split()]


def dealt(hands: list[str], dealer: int = 3):
    """A Euchre hand right after the deal (seat 0 is the dealer's left with dealer 3)."""
    game = game_for(EUCHRE)
    state = game.new_state(4)
    state.apply(ChooseSeat(dealer))
    state.apply(Deal(tuple(tuple(cards(game, hand)) for hand in hands)))
    return game, state


def bid_and_name(state, bids: tuple[int, ...], trump: int) -> None:
    for bid in bids:
        state.apply(BID + bid)
    assert state.phase == CHOOSE_TRUMP
    state.apply(trump)


HANDS = ["JH JD AH 9S 10S", "KH QH 9H 10H AS", "JS JC AC KC QC", "9D 10D QD KD AD"]


def test_the_deal_gives_packets_of_three_and_two_then_two_and_three_from_the_shuffle():
    game = game_for(EUCHRE)
    for seed in range(20):
        state = game.new_state(4)
        state.apply(ChooseSeat(seed % 4))
        deal = state.sample_chance(random.Random(seed))
        order = shuffled(game.table.physical, random.Random(seed))
        left = (seed % 4 + 1) % 4  # the first seat dealt to
        expected = {0: order[0:3] + order[10:12], 1: order[3:5] + order[12:15], 2: order[5:8] + order[15:17],
                    3: order[8:10] + order[17:20]}
        for position, hand in expected.items():
            assert list(deal.hands[(left + position) % 4]) == hand
        assert list(deal.aside) == order[20:]  # the kitty
        again = game.new_state(4)
        again.apply(ChooseSeat(seed % 4))
        assert again.sample_chance(random.Random(seed)) == deal  # deterministic


def test_the_bowers_rank_above_the_ace_and_the_left_bower_is_a_trump():
    game = game_for(EUCHRE)
    assert game.quick_ruling(["trump hearts: AH JD KH QH"])["winner"]["card"] == "JD"
    assert game.quick_ruling(["trump hearts: JD 9H JH AH"])["winner"]["card"] == "JH"
    assert game.quick_ruling(["trump hearts: AD JD"])["winner"]["card"] == "JD"  # it trumps a diamond lead
    assert game.quick_ruling(["trump spades: JD AD"])["winner"]["card"] == "AD"  # an ordinary Jack otherwise
    assert game.quick_ruling(["no trump: JH AH JD"])["winner"]["card"] == "AH"  # no bowers at no trump
    answer = game.quick_ruling(["play", "9D", "hand", "9D", "JD", "trick", "AH", "trump", "hearts"])
    assert not answer["allowed"] and answer["legal"] == ["JD"]  # the left bower follows hearts
    answer = game.quick_ruling(["play", "JD", "hand", "9D", "JD", "trick", "AD", "trump", "hearts"])
    assert not answer["allowed"] and answer["legal"] == ["9D"]  # and does not follow diamonds


def test_in_play_the_left_bower_follows_trump_and_wins():
    game, state = dealt(HANDS)
    bid_and_name(state, (3, 0, 0, 0), TRUMP + HEARTS)
    assert state.phase == PLAY and state.trump == HEARTS and state.current_player() == 0
    state.apply(cards(game, "AH")[0])
    refusal = refused(EUCHRE, state, cards(game, "AS")[0])  # seat 1 holds hearts
    assert refusal.rule == "euchre.play.follow"
    for code in ("9H", "QC"):  # seat 2 has no heart: anything
        state.apply(cards(game, code)[0])
    assert state.legal_actions() == cards(game, "9D 10D QD KD AD")  # seat 3: no heart, no bower
    state.apply(cards(game, "9D")[0])
    assert state.won == [1, 0, 0, 0]
    state.apply(cards(game, "JD")[0])  # the left bower leads: a trump lead
    assert set(state.legal_actions()) == set(cards(game, "KH QH 10H"))


def test_the_highest_bidder_may_name_no_trump_and_the_makers_score_by_their_contract():
    game, state = dealt(HANDS)
    for bid in (0, 4, 0, 0):
        state.apply(BID + bid)
    assert state.current_player() == 1 and NO_TRUMP in state.legal_actions()
    assert game.format_action(state, NO_TRUMP) == "trump none"
    assert game.parse_action(state, "no trump") == NO_TRUMP
    state.apply(NO_TRUMP)
    assert state.trump < 0 and state.phase == PLAY
    while state.phase == PLAY:
        state.apply(state.legal_actions()[0])
    entry = state.history[-1]
    makers = entry["won"][1] + entry["won"][3]
    expected = 2 if makers == 5 else 1 if makers >= 4 else 0
    defenders = 0 if makers >= 4 else 2
    assert entry["points"] == [defenders, expected, defenders, expected], entry


@pytest.mark.parametrize("taken, makers, defenders", [(3, 1, 0), (5, 2, 0), (2, 0, 2)])
def test_the_makers_score_their_bid_or_are_euchred(taken, makers, defenders):
    game, state = dealt(HANDS)
    bid_and_name(state, (3, 0, 0, 0), TRUMP + HEARTS)  # seat 0 (with seat 2) makes hearts, bid 3
    state.won = [taken, 5 - taken, 0, 0]
    assert round_points(state) == [makers, defenders, makers, defenders]


def test_the_dealer_may_not_pass_when_everyone_else_did():
    _, state = dealt(HANDS)
    for bid in (0, 0, 0):
        state.apply(BID + bid)
    refusal = refused(EUCHRE, state, BID + 0)
    assert refusal.rule == "euchre.bidding.dealer" and "may not pass" in str(refusal)
    assert state.legal_actions() == [BID + 3, BID + 4, BID + 5]
    assert refused(EUCHRE, state, BID + 2).rule == "euchre.bidding.bids"


def test_euchre_referees_its_own_logs_and_keeps_every_promise(run_cli, tmp_path):
    logs = tmp_path / "logs"
    assert run_cli("simulate", EUCHRE_FILE, "--games", "3", "--seed", "5", "--bot", "heuristic",
                   "--save-logs", logs).exit_code == 0
    first = (logs / "game-00001.toml").read_text(encoding="utf-8")
    again = tmp_path / "again"
    assert run_cli("simulate", EUCHRE_FILE, "--games", "3", "--seed", "5", "--bot", "heuristic",
                   "--save-logs", again).exit_code == 0
    assert (again / "game-00001.toml").read_text(encoding="utf-8") == first  # same seed, same bytes
    report = json.loads(run_cli("referee", EUCHRE_FILE, logs / "game-00001.toml", "--json").stdout)
    assert report["status"] == "legal" and report["finished"]
    checked = json.loads(run_cli("engines", "check", EUCHRE_FILE, "--games", "2", "--json").stdout)
    assert checked["failures"] == [], checked
    validated = run_cli("validate", EUCHRE_FILE, "--max-games", "4")
    assert validated.exit_code == 0, validated.stdout


def test_a_log_may_name_no_trump_only_where_the_rules_allow_it(run_cli, tmp_path):
    logs = tmp_path / "logs"
    assert run_cli("simulate", EUCHRE_FILE, "--games", "1", "--seed", "2", "--save-logs", logs).exit_code == 0
    text = (logs / "game-00001.toml").read_text(encoding="utf-8")
    start = text.index("trump = ")
    end = text.index("\n", start)
    named = tmp_path / "none.toml"
    named.write_text(text[:start] + 'trump = "none"\n', encoding="utf-8")  # the log stops at the named trump
    result = json.loads(run_cli("referee", EUCHRE_FILE, named, "--json").stdout)
    assert result["status"] == "incomplete" and "trump none" in result["rounds"][0]["title"]  # accepted: play is owed

    strict = tmp_path / "strict.toml"
    strict.write_text(EUCHRE_FILE.read_text(encoding="utf-8").replace("may_name_none = true\n", ""), encoding="utf-8")
    refused_log = run_cli("referee", strict, named)
    assert refused_log.exit_code == 1 and "no trump\" is not a choice" in refused_log.stdout


def test_the_deal_moves_right_where_the_rules_say_so(run_cli, tmp_path):
    text = (ROOT / "examples" / "rules" / "whist.toml").read_text(encoding="utf-8")
    path = tmp_path / "whist-right.toml"
    path.write_text(text.replace('[rules.deal]\n', '[rules.deal]\nrotation = "right"\n', 1), encoding="utf-8")
    game = game_for(load_deck(path), {"target_score": 100})  # no early end
    state = game.new_state(4)
    state.apply(ChooseSeat(1))
    rng = random.Random(3)
    dealers = []
    while len(state.history) < 3:
        before = len(state.history)
        state.apply(state.sample_chance(rng) if state.current_player() < 0 else rng.choice(state.legal_actions()))
        if len(state.history) > before:
            dealers.append(state.history[-1]["dealer"])
    assert dealers == [1, 0, 3]
    logs = tmp_path / "logs"
    assert run_cli("simulate", path, "--games", "1", "--seed", "4", "--save-logs", logs).exit_code == 0
    log = (logs / "game-00001.toml").read_text(encoding="utf-8")
    assert json.loads(run_cli("referee", path, logs / "game-00001.toml", "--json").stdout)["status"] == "legal"
    # the same log read by the rules whose deal moves left: round 2's dealer is refused, citing the rule
    left = run_cli("referee", ROOT / "examples" / "rules" / "whist.toml", logs / "game-00001.toml")
    assert left.exit_code == 1 and "the deal passes to" in left.stdout and "whist.setup.deal" in left.stdout, log[:400]


BAD = [
    ("packets = [[3, 2], [2, 3]]", "packets = [[3, 2], [3, 3]]",
     "rules.deal.packets: with 4 players the packets give the 1st seat from the dealer's left 6 card(s), but round 1 "
     "deals 5 each"),
    ("packets = [[3, 2], [2, 3]]", "packets = [[3, 0]]", "rules.deal.packets: lap 1: [3, 0] is not a packet size"),
    ('kind = "highest-bidder"', 'kind = "none"', "rules.trump.top: cards above the other trumps need a trump suit"),
]


@pytest.mark.parametrize("old, new, message", BAD)
def test_bad_fields_are_errors_at_their_line(run_cli, tmp_path, old, new, message):
    text = EUCHRE_FILE.read_text(encoding="utf-8")
    assert old in text
    changed = text.replace(old, new, 1)
    path = tmp_path / "euchre.toml"
    path.write_text(changed, encoding="utf-8")
    result = run_cli("validate", path)
    assert result.exit_code == 1
    line = changed.splitlines().index(new) + 1 if "top" not in message else \
        changed.splitlines().index('top = ["rank:jack suit:trump", "rank:jack suit:opposite-trump"]') + 1
    assert f"euchre.toml:{line}: error: {message}" in result.stdout, result.stdout


def test_a_pair_read_for_a_suit_without_one_is_an_error(run_cli, tmp_path):
    text = EUCHRE_FILE.read_text(encoding="utf-8").replace('opposite = "clubs"\n', "", 1) \
        .replace('opposite = "spades"\n', "", 1)
    path = tmp_path / "euchre.toml"
    path.write_text(text, encoding="utf-8")
    result = run_cli("validate", path)
    assert result.exit_code == 1
    assert "rules.trump.top[1]: it reads the suit paired with trump, but Spades, Clubs can be trump and has no pair" \
        in result.stdout, result.stdout


def test_no_trump_needs_someone_who_names_trump(run_cli, tmp_path):
    text = (ROOT / "examples" / "rules" / "whist.toml").read_text(encoding="utf-8")
    changed = text.replace('kind = "dealer-card"\n', 'kind = "dealer-card"\nmay_name_none = true\n', 1)
    path = tmp_path / "whist.toml"
    path.write_text(changed, encoding="utf-8")
    result = run_cli("validate", path)
    line = changed.splitlines().index("may_name_none = true") + 1
    assert result.exit_code == 1
    assert f"whist.toml:{line}: error: rules.trump.may_name_none: nobody names trump in this game" in result.stdout
