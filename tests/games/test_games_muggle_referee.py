"""Muggle Quidditch logs through the command line: the shipped examples, altered logs that
must be caught with the right rule id, malformed logs, quick rulings and simulations."""

from __future__ import annotations

import json
import random

import pytest

from generator.games.base import CHANCE, TERMINAL, game_for
from generator.games.bots import make_bot
from generator.games.simulate import game_log_text, game_seed, play_game
from generator.deck.loader import load_deck

from tests.conftest import DECKS, ROOT

EXAMPLE = ROOT / "examples" / "muggle-quidditch.toml"
ILLEGAL = ROOT / "examples" / "muggle-quidditch-illegal.toml"
DECK = load_deck(DECKS / "muggle-quidditch.toml")


def altered(tmp_path, old: str, new: str, source=EXAMPLE):
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the example no longer holds {old!r} exactly once"
    path = tmp_path / "altered.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def violation(run_cli, path) -> dict:
    result = run_cli("referee", "muggle-quidditch", path, "--json")
    assert result.exit_code == 1, result.stdout + result.stderr
    data = json.loads(result.stdout)
    assert data["status"] == "violation"
    return data["violation"]


# --- the shipped examples -----------------------------------------------------------------------

def test_the_example_is_a_legal_finished_match(run_cli):
    result = run_cli("referee", "muggle-quidditch", EXAMPLE)
    assert result.exit_code == 0, result.stdout
    assert "legal, game finished" in result.stdout
    assert "Match: 93 turns played, the Snitch caught" in result.stdout
    data = json.loads(run_cli("referee", "muggle-quidditch", EXAMPLE, "--json").stdout)
    assert data["status"] == "legal" and data["finished"]
    assert data["scores"] == [220, 80] and data["standings"][0] == {
        "place": 1, "player": "P1", "score": 220, "winner": True}


def test_the_example_is_game_81_of_a_seeded_heuristic_run():
    """A golden log: the engine and the heuristic player still play this game move for move."""
    game = game_for(DECK)
    _, actions = play_game(game, 2, game_seed(2026, 80), ["heuristic", "heuristic"], keep_actions=True, index=80)
    comment = "deckgen simulate muggle-quidditch --players 2 --seed 2026: game 81, bots heuristic,heuristic"
    assert game_log_text(game, ["P1", "P2"], actions, [comment]) == EXAMPLE.read_text(encoding="utf-8")


def test_the_illegal_example_names_the_rule_the_ruling_and_the_legal_moves(run_cli):
    result = run_cli("referee", "muggle-quidditch", ILLEGAL)
    assert result.exit_code == 1
    assert "muggle-quidditch-illegal.toml:42: VIOLATION in turn 5, player P1 (turns[4].action)" in result.stdout
    assert "[mq.turn.discard-pile]" in result.stdout and "Ruling [mq.ruling.draw]" in result.stdout
    found = violation(run_cli, ILLEGAL)
    assert found["rule"]["id"] == "mq.turn.discard-pile" and found["ruling"]["id"] == "mq.ruling.draw"
    assert found["where"] == {"turn": 5, "player": "P1"} and found["line"] == 42
    assert "bludger JD JC" in found["legal"] and not any("JH" in move and "discard" not in move
                                                          for move in found["legal"])


def test_the_documented_match_is_legal_and_reports_as_shown(run_cli, tmp_path):
    """docs/game-logs.md shows a complete match and its report: both must stay true."""
    docs = (ROOT / "docs" / "game-logs.md").read_text(encoding="utf-8")
    section = docs.partition("## Muggle Quidditch")[2]
    log_text = section.partition("```toml\n")[2].partition("```")[0]
    shown = section.partition("$ deckgen referee muggle-quidditch match.toml\n")[2].partition("```")[0]
    path = tmp_path / "match.toml"
    path.write_text(log_text, encoding="utf-8")
    result = run_cli("referee", "muggle-quidditch", path)
    assert result.exit_code == 0
    assert result.stdout.replace(str(path), "match.toml") == shown
    game = game_for(DECK)
    _, actions = play_game(game, 2, game_seed(7, 228), ["heuristic", "heuristic"], keep_actions=True)
    assert game_log_text(game, ["Ann", "Ben"], actions) == log_text


# --- altered logs ---------------------------------------------------------------------------------

TURN_47 = 'turn = 47\nplayer = "P1"\ndraw = ["KD"]\naction = "discard KD"'
TURN_21 = 'turn = 21\nplayer = "P1"\ntake = "JD"\ndraw = ["6H"]\naction = "team JC"'
TURN_13 = 'action = "bludger JH QH"\nlose = "JC"'


@pytest.mark.parametrize("old, new, rule, field", [
    # a goal past the rival's Keeper with a card of the rival's house suit
    (TURN_21, TURN_21.replace("team JC", "goal 6H 6C"), "mq.goal.keeper", "turns[20].action"),
    # a claimed draw that is not what the draw pile gave
    ('turn = 21\nplayer = "P1"\ntake = "JD"\ndraw = ["6H"]', 'turn = 21\nplayer = "P1"\ntake = "JD"\ndraw = ["6D"]',
     "mq.turn.draw", "turns[20].draw"),
    # taking a card that is not the top of the discard pile
    ('turn = 21\nplayer = "P1"\ntake = "JD"', 'turn = 21\nplayer = "P1"\ntake = "JS"', "mq.turn.discard-pile",
     "turns[20].take"),
    # the wrong player
    ('turn = 21\nplayer = "P1"', 'turn = 21\nplayer = "P2"', "mq.turn.order", "turns[20].player"),
    # the Bludger's victim loses a card that is neither the target nor its Beater
    (TURN_13, TURN_13.replace('lose = "JC"', 'lose = "KC"'), "mq.bludger.defence", "turns[12].lose"),
    # the victim's choice left out although the log goes on
    (TURN_13, 'action = "bludger JH QH"', "mq.bludger.defence", "turns[12].lose"),
    # the forced discard after a team Bludger left out, the log going on
    ('action = "bludger JD KS"\ndiscard = "QD"', 'action = "bludger JD KS"', "mq.bludger.team", "turns[26].discard"),
    # a discard where no team Bludger asked for one
    (TURN_47, TURN_47 + '\ndiscard = "2C"', "mq.bludger.team", "turns[46].discard"),
    # a rebuilt draw pile that holds the wrong cards
    ('shuffle = ["QD", "JK", "JH", "KS", "AD", "8D", "JC", "JD", "JK"]',
     'shuffle = ["QD", "JK", "JH", "KS", "AD", "8D", "JC", "JD", "KH"]',
     "mq.deck.reshuffle", "turns[36].shuffle"),
    # a dive that did not turn these cards
    ('dive = ["JS", "JC", "AD"]', 'dive = ["JS", "AD", "JC"]', "mq.dive.draws", "turns[92].dive"),
    # a rebuild during a dive in a turn without a dive
    (TURN_47, TURN_47 + '\ndive_shuffle = ["2C"]', "mq.dive.short", "turns[46].dive_shuffle"),
    # a pass with cards in hand
    (TURN_21, TURN_21.replace("team JC", "pass"), "mq.turn.actions", "turns[20].action"),
    # the same house twice
    ('P2 = "clubs"', 'P2 = "hearts"', "mq.setup.houses", "houses.P2"),
])
def test_an_altered_log_is_caught_with_the_right_rule(run_cli, tmp_path, old, new, rule, field):
    found = violation(run_cli, altered(tmp_path, old, new))
    assert found["rule"]["id"] == rule and found["field"] == field
    assert found["rule"]["text"] and isinstance(found["legal"], list)


def test_turns_after_the_capture_are_a_violation(run_cli, tmp_path):
    text = EXAMPLE.read_text(encoding="utf-8") + '\n[[turns]]\nturn = 94\nplayer = "P1"\naction = "discard 2H"\n'
    path = tmp_path / "longer.toml"
    path.write_text(text, encoding="utf-8")
    found = violation(run_cli, path)
    assert found["rule"]["id"] == "mq.end.capture" and found["field"] == "turns[93]" and found["where"]["turn"] == 94


def test_a_log_may_stop_mid_match(run_cli, tmp_path):
    text = EXAMPLE.read_text(encoding="utf-8").partition("[[turns]]\nturn = 14\n")[0]
    path = tmp_path / "short.toml"
    path.write_text(text, encoding="utf-8")
    result = run_cli("referee", "muggle-quidditch", path)
    assert result.exit_code == 0 and "INCOMPLETE" in result.stdout
    assert "Still owed: P2's draw step in turn 14" in result.stdout and "[mq.turn.draw]" in result.stdout
    assert "Match: 13 turns played, in progress" in result.stdout


def test_chance_left_out_is_drawn_from_the_seed(run_cli, tmp_path):
    """A log with `seed` and no deal or shuffles replays by drawing them in order from the seed."""
    game = game_for(DECK)
    seed = 99
    chance = random.Random(seed)
    bots = [make_bot(game, "heuristic", random.Random(seat)) for seat in (0, 1)]
    state = game.new_state(2)
    actions = []
    while (player := state.current_player()) != TERMINAL:
        action = state.sample_chance(chance) if player == CHANCE else bots[player].choose(state)
        actions.append(action)
        state.apply(action)
    text = game_log_text(game, ["Ann", "Ben"], actions)
    lines = [line for line in text.splitlines() if not line.startswith(("deal =", "shuffle =", "dive_shuffle ="))]
    path = tmp_path / "seeded.toml"
    path.write_text(f"seed = {seed}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("referee", "muggle-quidditch", path, "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["finished"] and data["scores"] == list(state.outcome().scores)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("referee", "muggle-quidditch", path)
    assert result.exit_code == 2 and "no seed" in result.stderr


# --- malformed logs -------------------------------------------------------------------------------

@pytest.mark.parametrize("old, new, message", [
    (TURN_21, TURN_21.replace("team JC", "team JX"), "unknown card 'JX'"),
    (TURN_21, TURN_21.replace("team JC", "score 6H 6C"), "unknown action 'score'"),
    (TURN_21, TURN_21.replace('action = "team JC"', ""), "missing action"),
    ('P2 = "clubs"', 'P2 = "Durmstrang"', "unknown house 'Durmstrang'"),
    ('P2 = "clubs"', 'P3 = "clubs"', "unknown player 'P3'"),
    (TURN_21, TURN_21 + '\nwand = "holly"', "unknown key 'wand'"),
    ('dive = ["JS", "JC", "AD"]\ndive_shuffle = ["AD"]', 'dive = ["JS"]',
     "not written and the log has no seed"),
])
def test_a_malformed_log_exits_2_naming_the_line_and_field(run_cli, tmp_path, old, new, message):
    path = altered(tmp_path, old, new)
    result = run_cli("referee", "muggle-quidditch", path)
    assert result.exit_code == 2
    assert message in result.stderr and "altered.toml:" in result.stderr
    data = json.loads(run_cli("referee", "muggle-quidditch", path, "--json").stdout)
    assert data["status"] == "malformed" and data["error"]["line"]


# --- quick rulings ----------------------------------------------------------------------------------

def test_may_this_pair_score_against_this_keeper(run_cli):
    no = run_cli("rule", "muggle-quidditch", "goal", "7H", "5S", "keeper", "KD", "house", "hearts", "rival",
                 "diamonds")
    assert no.exit_code == 1 and no.stdout.startswith("No: 7H + 5S may not score against the Keeper KD.")
    assert "[mq.goal.keeper]" in no.stdout and "Ruling [mq.ruling.keeper]" in no.stdout
    yes = run_cli("rule", "muggle-quidditch", "goal 7H 5H --keeper KD --house Gryffindor --rival Slytherin")
    assert yes.exit_code == 0 and yes.stdout.startswith("Yes: 7H + 5H may score against the Keeper KD")
    loose = run_cli("rule", "muggle-quidditch", "goal", "7H", "5S", "keeper", "KD", "house", "hearts", "rival",
                    "diamonds", "--variant", "loose-keeper", "--json")
    data = json.loads(loose.stdout)
    assert loose.exit_code == 0 and data["allowed"] is True and "mq.variants.loose-keeper" in data["rules"]


def test_a_pair_that_does_not_make_twelve(run_cli):
    data = json.loads(run_cli("rule", "muggle-quidditch", "goal AH JD", "--json").stdout)
    assert data["allowed"] is False and data["rules"][0] == "mq.goal.pair" and data["rulings"] == [
        "mq.ruling.goal-cards"]


def test_how_many_cards_a_seeker_dives_with(run_cli):
    result = run_cli("rule", "muggle-quidditch", "dive", "AH", "house", "hearts", "rival", "diamonds")
    assert result.exit_code == 0 and result.stdout.startswith("AH dives for Gryffindor with 7 cards.")
    assert "[mq.dive.draws]" in result.stdout


@pytest.mark.parametrize("question, message", [
    ("goal 7H 5S keeper KD", "depends on both houses"),
    ("goal 7H", "a goal is two cards"),
    ("dive KH house hearts rival diamonds", "one Seeker"),
    ("trick 7H 5S", "ask `goal"),
    ("goal 7H 5S keeper 9D house hearts rival diamonds", "not a Keeper"),
])
def test_an_unclear_question_says_how_to_ask(run_cli, question, message):
    result = run_cli("rule", "muggle-quidditch", question)
    assert result.exit_code == 2 and message in result.stderr


# --- simulations ------------------------------------------------------------------------------------

def test_simulate_defaults_to_two_players_and_repeats(run_cli):
    first = run_cli("simulate", "muggle-quidditch", "--games", "30", "--seed", "4", "--json")
    assert first.exit_code == 0, first.stderr
    data = json.loads(first.stdout)
    assert data["players"] == 2 and data["games"] == 30 and len(data["seats"]) == 2
    assert run_cli("simulate", "muggle-quidditch", "--games", "30", "--seed", "4", "--json").stdout == first.stdout


def test_simulate_reports_games_stopped_by_the_turn_cap(run_cli):
    result = run_cli("simulate", "muggle-quidditch", "--games", "20", "--seed", "1", "--variant", "short-match")
    assert result.exit_code == 0
    assert "stopped by the length cap" in result.stdout.splitlines()[1]


def test_saved_simulation_logs_replay_as_legal(run_cli, tmp_path):
    result = run_cli("simulate", "muggle-quidditch", "--games", "12", "--seed", "8", "--bot", "heuristic,random",
                     "--save-logs", tmp_path)
    assert result.exit_code == 0
    logs = sorted(tmp_path.glob("game-*.toml"))
    assert len(logs) == 12
    for log in logs:
        assert run_cli("referee", "muggle-quidditch", log).exit_code == 0, log.name
