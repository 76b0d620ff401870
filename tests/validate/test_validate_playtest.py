"""Playtests: dead ends are found and reported with a seed that reproduces them, figures do not
depend on the number of workers or on how games are chunked, sweeps find broken settings,
and the outputs (text, JSON, HTML, build step) carry them."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, strategies as st

from generator.core import plugins
from generator.core.errors import InvalidDeck
from generator.core.plugins import Registered
from generator.games.base import game_for
from generator.games.simulate import play_game
from generator.games.trick.game import RulesGame as WizardGame
from generator.games.trick.state import RulesState as WizardState
from generator.deck.loader import load_deck
from generator.validate import chunks, findings, jobs
from generator.validate.chunks import Task, play_chunk
from generator.validate.jobs import DeckData
from generator.validate.playtest import run_seed
from generator.validate.tally import Tally
from generator.validate import build_validation
from generator.validate.stats import Family, histogram_bins, wilson

from tests.conftest import DECKS, ROOT

FIXTURES = ROOT / "tests" / "fixtures"
FAIL_AFTER = 150  # player moves before the broken engines below break


class BrokenWizardState(WizardState):
    """A Wizard state that breaks the way `mode` says after FAIL_AFTER player moves."""

    __slots__ = ("mode", "moves")

    def __init__(self, game, num_players, mode):
        super().__init__(game, num_players)
        self.mode, self.moves = mode, 0

    def legal_actions(self):
        if self.mode == "stuck" and self.moves >= FAIL_AFTER:
            return ()
        return super().legal_actions()

    def apply(self, action):
        if self.current_player() >= 0:
            self.moves += 1
            if self.mode == "crash" and self.moves == FAIL_AFTER:
                raise ZeroDivisionError("the scorer divided by the empty pile")
        super().apply(action)


class BrokenWizard(WizardGame):
    """The Wizard engine with a planted defect (`mode`: "stuck" or "crash")."""

    mode = ""

    def new_state(self, num_players):
        self.check_players(num_players)
        return BrokenWizardState(self, num_players, self.mode)


class StuckWizard(BrokenWizard):
    mode = "stuck"


class CrashingWizard(BrokenWizard):
    mode = "crash"


@pytest.fixture
def engine(monkeypatch):
    """Point the rules engine id (Wizard's) at a broken engine for one test (one worker: no processes)."""

    def use(class_name: str) -> None:
        broken = Registered("rules", f"tests.validate.test_validate_playtest:{class_name}", "tests")
        monkeypatch.setattr(plugins, "_registry", lambda: {"rules": (broken,)})
        monkeypatch.setattr(jobs, "_GAMES", {})

    return use


def test_a_state_without_legal_actions_is_a_dead_end(run_cli, engine):
    engine("StuckWizard")
    result = run_cli("validate", "wizard", "--simulate", "2", "--workers", "1", "--bot", "random",
                     "--sweep", "players=4")
    assert result.exit_code == 1
    line = next(line for line in result.stdout.splitlines() if "dead end" in line)
    assert "deck rules, 4 players: dead end: a player had no legal action in 2 of 2 games" in line
    assert "is to act but has no legal action" in line and "game 1 seed " in line
    assert "replay: deckgen simulate wizard --players 4 --seed" in result.stdout


def test_an_engine_error_is_reported_with_a_seed_that_reproduces_it(run_cli, engine):
    engine("CrashingWizard")
    result = run_cli("validate", "wizard", "--simulate", "3", "--workers", "1", "--bot", "random",
                     "--sweep", "players=3", "--json")
    assert result.exit_code == 1
    run = json.loads(result.stdout)["decks"][0]["playtest"]["runs"][0]
    assert run["failures"] == {"engine error": 3} and run["completed"] == 0
    example = run["examples"][0]
    assert "ZeroDivisionError: the scorer divided by the empty pile" in example["message"]
    assert "test_validate_playtest.py:" in example["message"]  # where it broke
    # The seed alone replays the failure.
    game = game_for(load_deck(DECKS / "wizard.toml"))
    with pytest.raises(ZeroDivisionError):
        play_game(game, 3, example["seed"], ["random"] * 3)
    # ...and it is the seed `deckgen simulate` uses for that game of that run.
    from generator.games.simulate import game_seed
    assert example["seed"] == game_seed(run["run_seed"], example["game"] - 1)


def test_a_sweep_finds_the_setting_that_cannot_end(run_cli):
    result = run_cli("validate", "quidditch-v2", "--simulate", "3", "--workers", "1",
                     "--sweep", "players=2", "--sweep", "turn_cap=3,150")
    assert result.exit_code == 1
    errors = [line for line in result.stdout.splitlines() if ": error: " in line]
    assert any("turn_cap=3, 2 players: no game ended by the rules; all 3 stopped" in line for line in errors)
    assert any("turn_cap=3, 2 players: the Golden Snitch never entered play in 3 games" in line for line in errors)
    assert not any("turn_cap=150" in line for line in errors)


def test_a_sweep_reports_settings_the_engine_refuses(run_cli):
    result = run_cli("validate", "wizard", "--simulate", "1", "--workers", "1",
                     "--sweep", "bid_restriction=sometimes", "--sweep", "players=3", "--json")
    problems = json.loads(result.stdout)["decks"][0]["problems"]
    assert result.exit_code == 1
    assert any("bid_restriction=sometimes, 3 players: the engine refuses this setting" in p["message"]
               for p in problems)


def test_sweeping_players_beyond_the_deck(run_cli):
    result = run_cli("validate", "wizard", "--simulate", "1", "--workers", "1", "--sweep", "players=6..7", "--json")
    runs = json.loads(result.stdout)["decks"][0]["playtest"]["runs"]
    assert [(r["players"], r["completed"]) for r in runs] == [(6, 1), (7, 0)]
    assert runs[1]["failures"] == {"setting": 1} and "3-6 players" in runs[1]["examples"][0]["message"]


def test_bad_sweeps_and_bots_are_option_errors(run_cli):
    assert run_cli("validate", "wizard", "--sweep", "players").exit_code == 2
    assert run_cli("validate", "wizard", "--sweep", "players=three").exit_code == 2
    result = run_cli("validate", "wizard", "--bot", "clever")
    assert result.exit_code == 2 and "unknown bot 'clever'" in result.stderr


def test_same_figures_whatever_the_number_of_workers(run_cli):
    outputs = [run_cli("validate", "muggle-quidditch", "--simulate", "9", "--seed", "5", "--workers", workers,
                       "--json").stdout for workers in ("1", "2")]
    first, second = (json.loads(out)["decks"][0]["playtest"] for out in outputs)
    assert first == second and first["runs"][0]["completed"] == 9
    other_seed = run_cli("validate", "muggle-quidditch", "--simulate", "9", "--seed", "6", "--workers", "1", "--json")
    assert json.loads(other_seed.stdout)["decks"][0]["playtest"] != first


def test_chunks_merged_in_any_order_give_the_same_tally():
    deck = load_deck(DECKS / "quidditch-v2.toml")
    task = Task(DeckData.of(deck), 0, {}, 3, run_seed(2, 3), 0, 6, "heuristic")
    whole = play_chunk(task)
    parts = [play_chunk(Task(task.deck, 0, {}, 3, task.run_seed, start, start + 2, "heuristic"))
             for start in (0, 2, 4)]
    merged = parts[2]
    for part in (parts[0], parts[1]):
        merged.merge(part)
    assert merged.as_dict(deck) == whole.as_dict(deck)
    assert whole.games == 6 and sum(whole.card_plays.values()) > 0


def test_lead_changes_count_changes_of_the_sole_leader():
    deck = load_deck(DECKS / "wizard.toml")
    watcher = chunks.Watcher(game_for(deck), 3)
    for scores in ([0, 0, 0], [20, 0, 0], [20, 20, 0], [20, 30, 0], [50, 30, 0], [50, 30, 60]):
        watcher.see_scores(scores)
    assert watcher.changes == 3  # seat 1 -> 2 -> 1 -> 3; ties change nothing


@given(st.integers(min_value=1, max_value=500), st.data())
def test_wilson_interval_is_sound(trials, data):
    wins = data.draw(st.integers(min_value=0, max_value=trials))
    low, high = wilson(wins, trials)
    assert 0 <= low <= wins / trials <= high <= 1
    mirror_low, mirror_high = wilson(trials - wins, trials)
    assert Family((("tests", 1),)).z == pytest.approx(1.96, abs=0.001)
    assert Family((("tests", 40),)).z > Family((("tests", 4),)).z > 2.4
    assert mirror_low == pytest.approx(1 - high) and mirror_high == pytest.approx(1 - low)
    wider_low, wider_high = wilson(wins, trials, z=3)
    assert wider_low <= low and wider_high >= high


@given(st.dictionaries(st.integers(-500, 5000), st.integers(1, 50), min_size=1, max_size=60))
def test_histogram_bins_cover_every_value(counts):
    bins = histogram_bins(Counter(counts))
    assert len(bins) <= 20 and sum(n for _, _, n in bins) == sum(counts.values())
    assert bins[0][0] == min(counts) and bins[-1][1] > max(counts)


def test_seat_advantage_is_flagged_only_beyond_chance():
    deck = load_deck(DECKS / "muggle-quidditch.toml")
    locate = findings.Locator(deck)
    fair, skewed = Tally(2), Tally(2)
    for game in range(200):
        fair.add_game((10, 0), (game % 2,), "finished", 50, 0, [Counter(), Counter()])  # 50%
        skewed.add_game((10, 0), (0,) if game % 4 else (1,), "finished", 50, 0, [Counter(), Counter()])  # 75%
    z = Family((("seat win rates", 30),)).z
    assert not findings._seat_balance(locate, "deck.engine", "fair", fair, z)
    flagged = findings._seat_balance(locate, "deck.engine", "skewed", skewed, z)
    assert [p.message[:30] for p in flagged] == ["skewed: seat 1 wins 75.0% of 2", "skewed: seat 2 wins 25.0% of 2"]
    assert "more than a fair 50.0%" in flagged[0].message and "less than" in flagged[1].message


def test_html_report_has_the_problems_and_charts_and_is_stable(run_cli, tmp_path):
    args = ("validate", "quidditch-v2", "--simulate", "4", "--workers", "1", "--sweep", "players=2..3",
            "--report", "--output", str(tmp_path))
    run_cli(*args)
    page = (tmp_path / "quidditch-v2" / "validation.html").read_text(encoding="utf-8")
    # Per player count: seats, length, lead changes, drama, usage (4 games are too few for a card effect).
    assert page.count("<svg") == 10
    assert "Win rate by seat, deck rules, 3 players" in page and "Card usage" in page
    data = json.loads((tmp_path / "quidditch-v2" / "validation.json").read_text(encoding="utf-8"))
    assert data["playtest"]["games_per_run"] == 4
    run_cli(*args)
    assert (tmp_path / "quidditch-v2" / "validation.html").read_text(encoding="utf-8") == page


def test_build_step_writes_the_report_and_stops_on_errors(tmp_path):
    written = build_validation(load_deck(DECKS / "muggle-quidditch.toml"), tmp_path)
    assert sorted(p.name for p in written) == ["validation.html", "validation.json"]
    assert all(p.parent == tmp_path for p in written)
    assert json.loads(written[1].read_text())["playtest"]["runs"]
    with pytest.raises(InvalidDeck) as caught:
        build_validation(load_deck(FIXTURES / "missing-card-reference.toml"), tmp_path / "broken")
    assert "names a 'Joker' card" in str(caught.value)
    assert not (tmp_path / "broken").exists()


def test_cards_never_played_are_flagged_only_after_random_play():
    deck = load_deck(DECKS / "quidditch-v2.toml")
    locate = findings.Locator(deck)
    playable = [card for card in deck.cards if card.kind != "seeker" and card.id not in ("quaffle", "rain")]
    tally = Tally(2, tracks_cards=True)
    for game in range(25):
        tally.add_game((160, 20), (0,), "finished", 150, 1, [Counter({card.code: 1 for card in playable}), Counter()])
    random_play = findings._card_usage(deck, locate, "deck.engine", "x", tally, "random")
    assert [p.message for p in random_play] == ["x: never played in 25 games of random play: Rain"]
    assert not findings._card_usage(deck, locate, "deck.engine", "x", tally, "heuristic")
    assert findings.never_played(deck, tally) == ["Rain"]
    rows = {row["name"]: row for row in tally.card_rows(deck)}
    assert "Quaffle" not in rows and rows["Rain"]["plays"] == 0
    assert rows["Weaving"]["games_share"]["rate"] == 1.0 and rows["Weaving"]["games_share"]["of"] == 25
