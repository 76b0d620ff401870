"""The game-research metrics of a playtest: tension figures by hand, every rate with its
interval and game count through the CLI, skill from mixed games, and `--simulate auto`
stopping at the precision asked for. Card effects: tests/validate/test_validate_cards.py;
`--compare`: tests/validate/test_validate_compare.py."""

from __future__ import annotations

import json

import pytest

from generator.deck.loader import load_deck
from generator.validate import playtest as playtest_module
from generator.validate.metrics import tension
from generator.validate.chunks import Task, play_chunk
from generator.validate.jobs import DeckData
from generator.validate.playtest import run_seed
from generator.validate.tally import Tally
from generator.validate.stats import games_for_precision

from tests.conftest import DECKS


def test_tension_figures_of_a_game_worked_by_hand():
    # Two seats; seat 2 trails, takes the lead at the third checkpoint and wins 10 to 4.
    series = [(0, 0), (4, 0), (4, 6), (4, 10)]
    figures = tension(series, winners=[1], lower_wins=False)
    # Leader sets: {1,2} -> {1} -> {2} -> {2}: two changes over three steps.
    assert figures["lead_change"] == pytest.approx(2 / 3)
    # Evaluations are scores over the game's range 0..10: the winner is 0, .4, 0, 0 behind the leader.
    assert figures["drama"] == pytest.approx(0.4 / 4)
    # Seat 1 never passes .4; seat 2 first does at the third checkpoint (.6 > .4): decided at 3 of 4.
    assert figures["decisiveness"] == pytest.approx(3 / 4)
    # Population variances: seat 1 [0, .4, .4, .4] -> .03; seat 2 [0, 0, .6, 1] -> .18.
    assert figures["stability"] == pytest.approx(0.03 + 0.18)
    assert (figures["score_difference_mean"], figures["score_difference_max"], figures["score_difference_end"]) == (
        pytest.approx((0 + 4 + 2 + 6) / 4), 6, 6)


def test_tension_where_the_lowest_score_wins():
    figures = tension([(0, 0), (5, 1), (5, 9)], winners=[0], lower_wins=True)
    assert figures["lead_change"] == pytest.approx(1.0)  # {1,2} -> {2} -> {1}
    assert figures["drama"] == pytest.approx((0 + 4 / 9 + 0) / 3)
    assert figures["score_difference_end"] == 4


def _playtest(run_cli, *args):
    result = run_cli("validate", *args, "--json")
    assert result.exit_code in (0, 1), result.stderr
    return json.loads(result.stdout)["decks"][0]["playtest"]


def _rates(node, path=""):
    """Every {count, of, rate, low, high} in a figures tree."""
    if isinstance(node, dict):
        if {"count", "of", "rate", "low", "high"} <= node.keys():
            yield path, node
        for key, value in node.items():
            yield from _rates(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _rates(value, f"{path}[{index}]")


def test_every_metric_of_random_wizard_games_carries_its_interval_and_games(run_cli):
    data = _playtest(run_cli, "wizard", "--simulate", "30", "--workers", "1", "--bot", "random",
                     "--sweep", "players=4")
    metrics = data["runs"][0]["metrics"]
    assert metrics["games"] == 30
    outcome = metrics["outcome"]
    assert outcome["completion"]["rate"] == 1.0 and outcome["timeouts"]["count"] == 0
    assert outcome["first_seat"]["fair"] == 0.25 and outcome["first_seat"]["of"] == 30
    assert 0 <= outcome["balance"]["low"] <= outcome["balance"]["value"] <= outcome["balance"]["high"] <= 1
    # Wizard with four players: 15 rounds, each a deal, a turn-up and bids and cards.
    assert metrics["duration"]["rounds"]["min"] == metrics["duration"]["rounds"]["max"] == 15
    assert metrics["duration"]["actions"]["mean"] > metrics["duration"]["turns"]["mean"] > 500
    assert 0 < metrics["choice"]["decision_moves"]["rate"] < 1 and metrics["choice"]["branching"]["max"] >= 15
    for name in ("lead_change", "drama", "decisiveness", "stability", "score_difference_mean"):
        figure = metrics["tension"][name]
        assert figure["games"] == 30 and figure["low"] <= figure["mean"] <= figure["high"], name
    assert sum(count for _, _, count in metrics["tension"]["drama"]["histogram"]) == 30
    rates = list(_rates(metrics))
    assert len(rates) == 5  # first seat, completion, drawishness, timeouts, decision moves
    for path, figure in rates:
        assert figure["of"] >= figure["count"] >= 0, path
        assert 0 <= figure["low"] <= (figure["rate"] if figure["rate"] is not None else 0) <= figure["high"] <= 1, path
    cards = metrics["cards"]
    assert len(cards["rows"]) == len(load_deck(DECKS / "wizard.toml").cards) and cards["per_round"]
    for row in cards["rows"]:  # every card is dealt to some seats and not others in every game
        effect = row["effect"]
        assert row["games"] == 30 and row["deals"] >= 30 and effect["low"] <= effect["value"] <= effect["high"]
        assert row["verdict"] in ("decides", "matters", "negligible", "unclear")
        # Every dealt card is played in a trick game: no held / played win rates, no Played Impact.
        assert not {"held", "played", "played_impact"} & row.keys()
    skill = data["skill"][0]["metrics"]["skill"]
    assert skill["games"] == 30 and skill["low"] <= skill["order"] <= skill["high"]
    assert skill["beats"]["games"] == 30 and 0 <= skill["beats"]["mean"] <= 1


def test_sample_sizes_match_the_research():
    # ≈7,200 games for ±1 point on a 25% seat, ≈28,800 for ±0.5 (designer-tools-and-metrics.md).
    assert 7_150 <= games_for_precision(0.25, 0.01) <= 7_250
    assert 28_700 <= games_for_precision(0.25, 0.005) <= 28_900


def test_aggregates_are_identical_for_any_chunking():
    deck = load_deck(DECKS / "quidditch-v2.toml")
    whole = play_chunk(Task(DeckData.of(deck), 0, {}, 3, run_seed(4, 3), 0, 6, "heuristic/random"))
    parts = [play_chunk(Task(DeckData.of(deck), 0, {}, 3, run_seed(4, 3), start, stop, "heuristic/random"))
             for start, stop in ((4, 6), (0, 1), (1, 4))]
    merged = parts[0]
    for part in parts[1:]:
        merged.merge(part)
    assert json.dumps(merged.state()) == json.dumps(whole.state())
    assert json.dumps(Tally.from_state(json.loads(json.dumps(whole.state()))).state()) == json.dumps(whole.state())
    assert whole.metrics.focus_games == 6 and whole.metrics.effects and whole.metrics.holding


def test_simulate_auto_plays_until_the_precision_and_ignores_the_workers(run_cli, monkeypatch):
    monkeypatch.setattr(playtest_module, "AUTO_FIRST", 40)
    monkeypatch.setattr(playtest_module, "AUTO_STEP", 40)
    args = ("muggle-quidditch", "--simulate", "auto", "--precision", "0.12", "--sweep", "players=2", "--no-skill",
            "--seed", "3")
    first = _playtest(run_cli, *args, "--workers", "1")
    run = first["runs"][0]
    assert first["precision"] == {"target": 0.12, "max_games": 100_000, "reached": [True]}
    assert run["games"] % 40 == 0 and run["games"] > 40  # 40 games leave ±15 points: it played on
    assert all(max(s["win_rate"] - s["low"], s["high"] - s["win_rate"]) <= 0.12 for s in run["seats"])
    assert _playtest(run_cli, *args, "--workers", "2") == first
    capped = _playtest(run_cli, "muggle-quidditch", "--simulate", "auto", "--precision", "0.01", "--max-games", "80",
                       "--sweep", "players=2", "--no-skill", "--workers", "1")
    assert capped["runs"][0]["games"] == 80 and capped["precision"]["reached"] == [False]


def test_simulate_rejects_what_is_not_a_count(run_cli):
    result = run_cli("validate", "wizard", "--simulate", "lots")
    assert result.exit_code == 2 and "give a number of games" in result.stderr
