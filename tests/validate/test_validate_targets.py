"""The deck's [playtest] targets: read with every mistake pointed at its line, checked by
`deckgen validate` with an interval at the report's level and a verdict (holds, misses, unclear),
skill gaps between players the engine does not have reported and left unevaluated."""

from __future__ import annotations

import json

import pytest

from generator.validate.stats import Family
from generator.validate.targets import HOLDS, MISSES, UNCLEAR, _band

from tests.validate.deck_copies import deck_copy, playtest_table

TARGETS = playtest_table((0.2, 0.8), (1, 5), 0.5, [("heuristic", "random", 0.6), ("grandmaster", "heuristic", 0.6)])


def test_targets_are_checked_with_intervals_and_verdicts(run_cli, tmp_path):
    path, base = deck_copy(tmp_path, "muggle-quidditch", "mq-targets", TARGETS)
    result = run_cli("validate", str(path), "--simulate", "60", "--workers", "1", "--no-skill", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)["decks"][0]
    checks = {check["target"]: check for check in data["playtest"]["targets"]}
    first = checks["playtest.first_seat_win"]
    assert first["verdict"] == HOLDS and 0.2 <= first["low"] <= first["value"] <= first["high"] <= 0.8
    assert first["games"] == 60 and first["players"] == 2
    length = checks["playtest.median_length"]
    assert length["verdict"] == MISSES and length["low"] > 5 and length["low"] <= length["value"] <= length["high"]
    assert checks["playtest.timeouts_below"]["verdict"] == HOLDS
    skill = checks["playtest.skill[0]"]
    assert skill["verdict"] == HOLDS and skill["low"] >= 0.6 and skill["games"] == 60
    assert checks["playtest.skill[1]"]["verdict"] == "not evaluated"
    assert "no player 'grandmaster'" in checks["playtest.skill[1]"]["note"]
    # The interval is at the report's level: one Bonferroni family with the seats' tests.
    family = data["playtest"]["family"]
    assert family["tests"]["targets"] == 4 and first["confidence"] == pytest.approx(1 - family["each"])
    warning = next(p for p in data["problems"] if p["field"] == "playtest.skill[1].player")
    assert warning["severity"] == "warning" and warning["line"] == base + 1 + TARGETS.splitlines().index(
        'player = "grandmaster"')
    text = run_cli("validate", str(path), "--simulate", "60", "--workers", "1", "--no-skill").stdout
    assert "a game takes a median 1–5 moves at 2 players: misses: median" in text
    assert "heuristic beats random at least 60% of the time at 2 players: holds" in text


def test_a_band_is_met_missed_or_unclear_by_its_whole_interval():
    family = Family((("targets", 1),))
    assert _band("x", "", 2, family, {"value": 0.5, "low": 0.45, "high": 0.55}, (0.4, 0.6))["verdict"] == HOLDS
    assert _band("x", "", 2, family, {"value": 0.7, "low": 0.65, "high": 0.75}, (0.4, 0.6))["verdict"] == MISSES
    assert _band("x", "", 2, family, {"value": 0.6, "low": 0.55, "high": 0.65}, (0.4, 0.6))["verdict"] == UNCLEAR


@pytest.mark.parametrize("extra, field, message", [
    ("[playtest]\nfirst_seat_win = [0.4, 0.3]\n", "playtest.first_seat_win", "runs backwards"),
    ("[playtest]\nmedian_length = [10]\n", "playtest.median_length", "has 1 value; write exactly 2"),
    ("[playtest]\nplayers = [2, 7]\n", "playtest.players", "7 players: outside the deck's 2 to 2 players"),
    ("[playtest]\ntimeouts_below = 0\n", "playtest.timeouts_below", "can never hold"),
    ("[playtest]\nfirst_seat_win = [0.2, 1.5]\n", "playtest.first_seat_win[1]", "must be at most 1"),
    ('[[playtest.skill]]\nplayer = "random"\nbeats = "random"\nat_least = 0.6\n', "playtest.skill[0].beats",
     "set against itself"),
    ('[[playtest.skill]]\nplayer = "heuristic"\nbeats = "random"\nat_least = 1\n', "playtest.skill[0].at_least",
     "can never be shown to hold or fail"),
    ('[[playtest.skill]]\nplayer = "Deep Blue"\nbeats = "random"\nat_least = 0.6\n', "playtest.skill[0].player",
     "does not match"),
    ("[playtest]\nfirst_seat = [0.2, 0.3]\n", "playtest.first_seat", "unknown field"),
])
def test_a_target_that_cannot_be_checked_is_an_error_at_its_line(run_cli, tmp_path, extra, field, message):
    path, lines = deck_copy(tmp_path, "muggle-quidditch", "mq-targets", "\n" + extra)
    result = run_cli("validate", str(path), "--simulate", "0")
    assert result.exit_code == 1 and "Traceback" not in result.stderr + result.stdout
    line = next(line for line in result.stdout.splitlines() if f": error: {field}:" in line)
    assert message in line
    number = int(line.split(":")[1])
    assert lines < number <= lines + 1 + extra.count("\n")  # in the [playtest] table just written
