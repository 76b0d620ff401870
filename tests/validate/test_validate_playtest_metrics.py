"""The game-research metrics of a playtest: tension figures by hand, every rate with its
interval and game count through the CLI, card impact with Benjamini–Hochberg, skill from mixed
games, `--simulate auto` stopping at the precision asked for, and `--compare` with its test
and power."""

from __future__ import annotations

import json

import pytest

from generator.deck.loader import load_deck
from generator.validate import playtest as playtest_module
from generator.validate.compare import compare
from generator.validate.metrics import tension
from generator.validate.jobs import DeckData
from generator.validate.playtest import Playtest, Run, Setting, Tally, Task, play_chunk, run_seed
from generator.validate.stats import benjamini_hochberg, games_for_precision, two_proportion_power

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
    assert len(rates) > 60  # outcome, choice, every card's drawn / played / held / not held
    for path, figure in rates:
        assert figure["of"] >= figure["count"] >= 0, path
        assert 0 <= figure["low"] <= (figure["rate"] if figure["rate"] is not None else 0) <= figure["high"] <= 1, path
    cards = metrics["cards"]
    assert len(cards["rows"]) == len(load_deck(DECKS / "wizard.toml").cards) and cards["turn"] >= 2
    for row in cards["rows"]:
        assert row["drawn"]["of"] >= 1 and row["verdict"] in ("decides games", "never matters", "unclear", "untested")
    # Every dealt card is played in Wizard, so drawn and played agree: no Played Impact.
    assert all(row["played_impact"]["value"] == 0 for row in cards["rows"] if "played_impact" in row)
    skill = data["skill"][0]["metrics"]["skill"]
    assert skill["games"] == 30 and skill["low"] <= skill["order"] <= skill["high"]


def test_card_impact_finds_the_card_that_decides_games():
    """A planted card: the seat that held it early always won."""
    from generator.validate.figures import card_figures
    from generator.validate.metrics import Metrics, turn_bucket

    deck = load_deck(DECKS / "muggle-quidditch.toml")
    metrics = Metrics(2)
    metrics.tracks_cards = True
    decider, bystander = deck.cards[0].code, deck.cards[1].code
    length = turn_bucket(40)
    for game in range(10_000):  # enough seat-games to bound a null effect within ± 2 points
        holder = game % 2
        for seat in (0, 1):
            won = int(seat == holder)
            metrics.seat_games[length, won] += 1
            if seat == holder:
                metrics.drawn[decider, turn_bucket(3), length, won] += 1
            metrics.drawn[bystander, turn_bucket(3 if game % 4 < 2 else 30), length, won] += 1
            metrics.played[bystander, length, won] += 1
    rows = {row["code"]: row for row in card_figures(metrics, deck)["rows"]}
    assert rows[decider]["verdict"] == "decides games"
    assert rows[decider]["controlled"]["difference"] == 1.0 and rows[decider]["controlled"]["seat_games"] == 20_000
    assert rows[bystander]["verdict"] == "never matters"
    assert abs(rows[bystander]["controlled"]["difference"]) < 0.02


def test_benjamini_hochberg_controls_discoveries():
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.5]) == [True, False, False, False]  # 0.03 > 0.05 × 2/4, 0.04 > 0.05 × 3/4
    assert benjamini_hochberg([0.01, 0.02, 0.03, 0.04]) == [True, True, True, True]
    assert benjamini_hochberg([0.2, 0.9]) == [False, False]


def test_sample_sizes_match_the_research():
    # ≈7,200 games for ±1 point on a 25% seat, ≈28,800 for ±0.5 (designer-tools-and-metrics.md).
    assert 7_150 <= games_for_precision(0.25, 0.01) <= 7_250
    assert 28_700 <= games_for_precision(0.25, 0.005) <= 28_900
    # Telling 25% from 26% needs ≈29,400 games per arm for 80% power.
    assert 0.78 <= two_proportion_power(0.255, 0.01, 29_400, 29_400) <= 0.82


def test_aggregates_are_identical_for_any_chunking():
    deck = load_deck(DECKS / "quidditch-v2.toml")
    whole = play_chunk(Task(DeckData.of(deck), 0, {}, 3, run_seed(4, 3), 0, 6, "mixed"))
    parts = [play_chunk(Task(DeckData.of(deck), 0, {}, 3, run_seed(4, 3), start, stop, "mixed"))
             for start, stop in ((4, 6), (0, 1), (1, 4))]
    merged = parts[0]
    for part in parts[1:]:
        merged.merge(part)
    assert json.dumps(merged.state()) == json.dumps(whole.state())
    assert json.dumps(Tally.from_state(json.loads(json.dumps(whole.state()))).state()) == json.dumps(whole.state())
    assert whole.metrics.focus_games == 6 and whole.metrics.drawn and whole.metrics.played


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


def _run(players: int, wins: list[int], games: int, lengths: int = 50) -> Run:
    tally = Tally(players)
    for game in range(games):
        winner = next(seat for seat in range(players) if game < sum(wins[:seat + 1])) if game < sum(wins) else 0
        tally.add_game([0] * players, [winner], "finished", lengths + game % 3, 0, [])
    return Run(Setting("deck rules", {}), players, 1, tally)


def test_compare_finds_a_real_difference_and_says_its_power():
    deck = load_deck(DECKS / "muggle-quidditch.toml")
    old = Playtest(deck, 1, 2000, "random", runs=[_run(2, [1000, 1000], 2000)])
    new = Playtest(deck, 1, 2000, "random", runs=[_run(2, [1200, 800], 2000, lengths=60)])
    result = compare(old, new, precision=0.05)
    seat = result["rows"][0]["seats"][0]
    assert "two-proportion z-test" in result["test"] and "Holm" in result["test"]
    assert seat["difference"] == 0.1 and seat["low"] < 0.1 < seat["high"] and seat["differs"]
    assert 0.87 < seat["power"] < 0.9 and seat["detectable"] == pytest.approx(0.0443, abs=0.001)
    assert result["rows"][0]["length"]["difference"] == 10 and result["rows"][0]["length"]["p"] < 0.001
    same = compare(old, Playtest(deck, 1, 2000, "random", runs=[_run(2, [1010, 990], 2000)]), precision=0.01)
    assert not any(seat["differs"] for seat in same["rows"][0]["seats"])
    assert same["rows"][0]["seats"][0]["power"] < 0.2  # 2,000 games cannot see one point


def test_compare_two_decks_through_the_cli(run_cli, tmp_path):
    copy = tmp_path / "wizard-copy.toml"
    copy.write_text((DECKS / "wizard.toml").read_text(encoding="utf-8").replace('id = "wizard"', 'id = "wizard-copy"', 1),
                    encoding="utf-8")
    result = run_cli("validate", "wizard", str(copy), "--compare", "--simulate", "6", "--sweep", "players=3",
                     "--workers", "1", "--no-skill")
    assert "compare: two-proportion z-test per seat" in result.stdout
    assert "wizard vs wizard-copy, 3 players (6 and 6 games)" in result.stdout
    assert "no difference found" in result.stdout and "differs" not in result.stdout.split("compare:")[1]
    too_many = run_cli("validate", "wizard", "wizard", "wizard", "--compare")
    assert too_many.exit_code == 2 and "--compare takes one deck" in too_many.stderr
