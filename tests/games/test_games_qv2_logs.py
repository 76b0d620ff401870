"""Quidditch v2 game logs and the referee: the shipped examples, altered logs caught with
the rule they break, malformed logs (exit 2), logs that leave chance to a seed, and
logs written by the engine replaying to the same result."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path

import pytest

from generator.games.base import CHANCE, game_for
from generator.games.bots import RandomBot
from generator.games.logs import MalformedLog, dump_log, parse_log
from generator.games.referee import referee
from generator.deck.loader import load_deck

from tests.conftest import ROOT

DECK = load_deck(ROOT / "decks" / "quidditch-v2.toml")
GAME = game_for(DECK)
EXAMPLE = ROOT / "examples" / "quidditch-v2.toml"
ILLEGAL = ROOT / "examples" / "quidditch-v2-illegal.toml"


def load_example() -> dict:
    return tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))


def rule_on(data: dict):
    header = {key: data[key] for key in ("deck", "players", "seed", "params") if key in data}
    body = {key: data[key] for key in ("setup", "turns") if key in data}
    return referee(parse_log(dump_log(header, body), DECK, GAME.log_sections))


def find(data: dict, text: str) -> tuple[int, int]:
    """(turn index, action index) of the first action line equal to `text`."""
    for turn_index, turn in enumerate(data["turns"]):
        if text in turn["actions"]:
            return turn_index, turn["actions"].index(text)
    raise AssertionError(f"{text!r} not in the example")


def test_the_example_game_is_legal_and_finished(run_cli):
    result = run_cli("referee", "quidditch-v2", EXAMPLE)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "legal, game finished" in result.stdout
    report = json.loads(run_cli("referee", "quidditch-v2", EXAMPLE, "--json").stdout)
    assert report["status"] == "legal" and report["finished"]
    assert [row["player"] for row in report["standings"] if row["winner"]] == ["Draco"]
    assert report["scores"] == [0, 160]


def test_the_illegal_example_is_caught_with_rule_line_and_legal_moves(run_cli):
    result = run_cli("referee", "quidditch-v2", ILLEGAL)
    assert result.exit_code == 1
    assert "VIOLATION" in result.stdout and "[qv2.manoeuvre.score]" in result.stdout
    report = json.loads(run_cli("referee", "quidditch-v2", ILLEGAL, "--json").stdout)
    violation = report["violation"]
    assert violation["rule"]["id"] == "qv2.manoeuvre.score"
    assert violation["ruling"]["id"] == "qv2.ruling.thresholds"
    assert violation["field"] == "turns[4].actions[3]"
    assert ILLEGAL.read_text().splitlines()[violation["line"] - 1].strip().startswith("actions = [")
    assert "outfly Harriet" in violation["legal"] and violation["where"]["player"] == "Draco"


@pytest.mark.parametrize("change, rule", [
    # a card that is not in the draw pile
    (lambda d: d["turns"][0]["actions"].__setitem__(0, "draw NIPPY to Draco"), "qv2.turn.draw"),
    # the Snitch dealt before the first reshuffle
    (lambda d: d["setup"]["actions"].__setitem__(1, "draw SNITCH to Draco"), "qv2.setup.snitch"),
    # a second Action in one turn
    (lambda d: d["turns"][1]["actions"].insert(3, "Harriet: play TACBLUD Draco"), "qv2.turn.plays"),
    # a Seeker card played
    (lambda d: d["turns"][1]["actions"].insert(1, "Harriet: play OBSTRUCT"), "qv2.snitch.seekers"),
    # a die with seven faces
    (lambda d: d["turns"][5]["actions"].__setitem__(0, "roll 7"), "qv2.components.extras"),
    # Harriet acts in Draco's turn
    (lambda d: d["turns"][0]["actions"].insert(1, "Harriet: play WEAVE"), "qv2.turn.order"),
    # a turn given to the wrong player
    (lambda d: d["turns"][2].__setitem__("player", "Harriet"), "qv2.turn.order"),
    # Competitive Captain's two discards left out
    (lambda d: [d["turns"][5]["actions"].remove(a) for a in ("Harriet: discard RAIN", "Harriet: discard OBSTRUCT")],
     "card:competitive-captain"),
    # a whole decision left out: the next turn starts while Harriet still has to choose
    (lambda d: d["turns"][5]["actions"].remove("Harriet: decline"), "qv2.turn.order"),
    # Stunned By A Bludger aimed at a Thing that is not a Player card
    (lambda d: d["turns"][11]["actions"].__setitem__(1, "Harriet: play STUNNED Draco:SUPPORT"),
     "card:stunned-by-a-bludger"),
])
def test_altered_logs_are_caught_with_the_rule_they_break(change, rule):
    data = load_example()
    change(data)
    report = rule_on(data)
    assert report.violation is not None and report.exit_code == 1
    assert report.violation.rule == rule, report.violation.as_dict()
    assert report.violation.legal


def test_a_missed_response_window_is_a_violation():
    data = load_example()
    turn, index = find(data, "Harriet: decline")
    del data["turns"][turn]["actions"][index]
    report = rule_on(data)
    assert report.violation is not None


@pytest.mark.parametrize("change, message", [
    (lambda d: d["turns"][0]["actions"].__setitem__(1, "Draco: play TRICKY"), "no card 'TRICKY'"),
    (lambda d: d["turns"][0]["actions"].__setitem__(1, "play TRICK"), "say who decides"),
    (lambda d: d["turns"][0]["actions"].__setitem__(0, "Draco: draw OUTPROB to Draco"), "without a player's name"),
    (lambda d: d["turns"][0]["actions"].__setitem__(1, "Neville: play TRICK"), "unknown player 'Neville'"),
    (lambda d: d["turns"][0]["actions"].__setitem__(1, 7), "an action must be text"),
    (lambda d: d["turns"][0].__setitem__("moves", []), "unknown key 'moves'"),
    (lambda d: d["turns"][0]["actions"].__setitem__(1, "Draco: juggle TRICK"), "unknown action"),
])
def test_malformed_logs_name_the_field(change, message):
    data = load_example()
    change(data)
    with pytest.raises(MalformedLog) as caught:
        rule_on(data)
    assert message in str(caught.value), str(caught.value)


def test_multi_word_names_are_refused():
    data = load_example()
    data["players"] = ["Harriet Potter", "Draco"]
    with pytest.raises(MalformedLog) as caught:
        rule_on(data)
    assert "one-word names" in str(caught.value)


def test_malformed_log_exit_code_two(run_cli, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(EXAMPLE.read_text().replace('"Draco: play TRICK"', '"Draco: play TRICKY"', 1))
    result = run_cli("referee", "quidditch-v2", path)
    assert result.exit_code == 2 and "no card 'TRICKY'" in result.stderr


def test_a_log_may_leave_every_chance_event_to_its_seed():
    """Chance comes from `random.Random(seed)` in the order the game needs it; the log
    writes only the players' decisions."""
    state = GAME.new_state(3)
    state.player_names = ("Ann", "Ben", "Cat")
    chance = random.Random(11)
    bot = RandomBot(random.Random(4))
    turns: list[dict] = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(chance))
            continue
        if not turns or turns[-1]["turn"] != state.turn_slots:
            turns.append({"turn": state.turn_slots, "player": state.player_names[state.active], "actions": []})
        action = bot.choose(state)
        turns[-1]["actions"].append(f"{state.player_names[state.current_player()]}: {state.format_action(action)}")
        state.apply(action)
    data = {"deck": "quidditch-v2", "players": ["Ann", "Ben", "Cat"], "seed": 11,
            "turns": [{"player": t["player"], "actions": t["actions"]} for t in turns]}
    report = rule_on(data)
    assert report.legal and report.finished and report.scores == list(state.score)
    del data["seed"]
    with pytest.raises(MalformedLog) as caught:
        rule_on(data)
    assert "no seed" in str(caught.value)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_logs_written_by_the_engine_replay_to_the_same_result(players):
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][:players]
    for seed in range(4):
        state = GAME.new_state(players)
        rng = random.Random(seed)
        actions = []
        while not state.is_terminal():
            action = state.sample_chance(rng) if state.current_player() == CHANCE else rng.choice(state.legal_actions())
            actions.append(action)
            state.apply(action)
        body = GAME.log_body(names, actions)
        report = referee(parse_log(dump_log({"deck": "quidditch-v2", "players": names}, body), DECK, GAME.log_sections))
        assert report.legal and report.finished and report.scores == list(state.score)
        assert report.actions == len(actions)


def test_a_turn_cap_in_the_log_header_applies():
    data = load_example()
    data["params"] = {"turn_cap": 5}
    report = rule_on(data)
    assert report.violation is not None and report.violation.rule == "qv2.end.turn-cap"
    assert "after the end of the game" in report.violation.message
    assert report.summary["turns"] == 10


def test_the_example_is_fully_written_out():
    data = load_example()
    assert "seed" not in data
    lines = data["setup"]["actions"] + [line for turn in data["turns"] for line in turn["actions"]]
    assert lines[0] == "first Draco" and any(line.startswith("roll ") for line in lines)
    assert any(line.startswith("coin ") for line in lines)
    assert Path(EXAMPLE).read_text().startswith("# A complete game")


def test_the_short_example_is_legal_and_printed_in_full_in_the_docs(run_cli):
    short = ROOT / "examples" / "quidditch-v2-short.toml"
    result = run_cli("referee", "quidditch-v2", short)
    assert result.exit_code == 0 and "legal, game finished" in result.stdout
    docs = (ROOT / "docs" / "game-logs.md").read_text(encoding="utf-8")
    section = docs[docs.index("## Quidditch v2"):]
    block = section[section.index("```toml") + len("```toml"):]
    block = block[:block.index("```")]
    assert tomllib.loads(block) == tomllib.loads(short.read_text(encoding="utf-8"))


def test_quick_ruling_lists_the_manoeuvres_and_what_bars_the_others(run_cli):
    result = run_cli("rule", "quidditch-v2", "manoeuvres dominance 5 1 quaffle P1 P2 SUREHAND", "--json")
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["allowed"] == ["score P2", "bludger P2", "outfly P2", "search"]
    assert any("snatch" in reason and "[qv2.manoeuvre.snatch]" in reason for reason in answer["reasons"])
    close = json.loads(run_cli("rule", "quidditch-v2", "manoeuvres dominance 2 1 quaffle P2 P2 SUREHAND",
                               "--json").stdout)
    assert "snatch" not in close["allowed"] and any("card:sure-handed-chaser" in r for r in close["reasons"])
    text = run_cli("rule", "quidditch-v2", "manoeuvres", "dominance", "3", "0", "P1", "CRACK", "quaffle", "P1")
    assert "score P2" in text.stdout and "Rule 8.1 Performing a manoeuvre" in text.stdout


def test_quick_ruling_refuses_a_question_it_cannot_read(run_cli):
    result = run_cli("rule", "quidditch-v2", "trick", "7H", "JE")
    assert result.exit_code == 2 and "manoeuvres dominance" in result.stderr
    result = run_cli("rule", "quidditch-v2", "manoeuvres dominance 5")
    assert result.exit_code == 2 and "one dominance per player" in result.stderr
