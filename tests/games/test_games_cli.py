"""The game commands as a user runs them: `deckgen referee` (exit 0 legal, 1 violation,
2 malformed, with --json), `deckgen rule` and `deckgen simulate`."""

from __future__ import annotations

import importlib.util
import json

import pytest

from generator.core.plugins import registrations

from tests.conftest import ROOT

EXAMPLES = ROOT / "examples"


@pytest.mark.parametrize("deck, log", [("wizard", "wizard-4p.toml"), ("wizard-hearts", "wizard-hearts-5p.toml")])
def test_referee_legal_log(run_cli, deck, log):
    result = run_cli("referee", deck, EXAMPLES / log)
    assert result.exit_code == 0, result.stderr
    assert "legal, game finished" in result.stdout and "Final standings" in result.stdout
    assert "winner" in result.stdout
    as_json = json.loads(run_cli("referee", deck, EXAMPLES / log, "--json").stdout)
    assert as_json["status"] == "legal" and as_json["finished"] and as_json["violation"] is None
    assert len(as_json["standings"]) == len(as_json["players"])
    assert as_json["rounds"] and all("columns" in r for r in as_json["rounds"])


def test_referee_violation(run_cli):
    result = run_cli("referee", "wizard", EXAMPLES / "wizard-illegal.toml")
    assert result.exit_code == 1
    assert "VIOLATION in round 4, trick 1, player North" in result.stdout
    assert "[wizard.play.follow]" in result.stdout and "If you hold a card of the suit" in result.stdout
    assert "Legal here:" in result.stdout
    data = json.loads(run_cli("referee", "wizard", EXAMPLES / "wizard-illegal.toml", "--json").stdout)
    violation = data["violation"]
    assert data["status"] == "violation"
    assert violation["rule"]["id"] == "wizard.play.follow" and violation["rule"]["text"]
    assert violation["where"] == {"round": 4, "trick": 1, "player": "North"}
    assert violation["field"] == "rounds[3].tricks[0][2]" and violation["line"] > 0
    assert violation["legal"]


def write(tmp_path, text: str):
    path = tmp_path / "log.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("text, line, field, message", [
    ('players = ["A", "B", "C"\n', 1, None, "not valid TOML"),
    ('deck = "wizard"\n', None, "players", "missing"),
    ('players = ["A", "B", "C"]\ncolour = "red"\n[[rounds]]\n', 2, "colour", "unknown key"),
    ('players = ["A", "B", "C"]\n[[rounds]]\ndealer = "Zed"\n', 3, "rounds[0].dealer", "unknown player"),
    ('players = ["A", "B", "C"]\n[[rounds]]\ndealer = "A"\nhands.A = ["7H"]\nhands.B = ["QX"]\nhands.C = ["2C"]\n',
     5, "rounds[0].hands.B[0]", "no card 'QX'"),
    ('players = ["A", "B", "C"]\n[[rounds]]\ndealer = "A"\nhands.A = ["7H"]\nhands.B = ["8H"]\n', 4,
     "rounds[0].hands", "no hand for C"),
    ('players = ["A", "B"]\n[[rounds]]\n', 1, "players", "for 3-6 players"),
    ('deck = "wizard-hearts"\nplayers = ["A", "B", "C"]\n', 1, "deck", "is for deck 'wizard-hearts'"),
    ('players = ["A", "B", "C"]\nvariant = "backwards"\n[[rounds]]\n', 2, "variant", "unknown variant"),
    ('players = ["A", "B", "C"]\n[[rounds]]\ndealer = "A"\n', 2, "rounds[0].hands", "has no seed"),
])
def test_referee_malformed_log(run_cli, tmp_path, text, line, field, message):
    path = write(tmp_path, text)
    result = run_cli("referee", "wizard", path)
    assert result.exit_code == 2
    assert message in result.stderr and str(path) in result.stderr
    data = json.loads(run_cli("referee", "wizard", path, "--json").stdout)
    assert data["status"] == "malformed"
    assert data["error"]["line"] == line and (field is None or data["error"]["field"] == field)


def test_referee_partial_log_and_seeded_deal(run_cli, tmp_path):
    path = write(tmp_path, 'players = ["A", "B", "C"]\nseed = 4\n[[rounds]]\ndealer = "B"\n')
    result = run_cli("referee", "wizard", path, "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["status"] == "incomplete" and not data["finished"]
    # B deals round 1, so C bids first: the log stops owing C's bid
    pending = data["pending"]
    assert pending["player"] == "C" and pending["rule"]["id"] == "wizard.bidding.order"
    assert pending["legal"] == ["bid 0", "bid 1"]
    text = run_cli("referee", "wizard", path).stdout
    assert "INCOMPLETE" in text and "Still owed: C's bid for round 1" in text


def test_rule_trick_and_bid(run_cli):
    result = run_cli("rule", "wizard", "trump hearts, led by North: 7H, JE, QS, WZ")
    assert result.exit_code == 0 and result.stdout.startswith("West wins with Wizard")
    assert "[wizard.trick.winner]" in result.stdout
    options = run_cli("rule", "wizard", "trick", "--trump", "spades", "--lead", "North", "7H", "JE", "QS", "9H")
    assert options.stdout.startswith("South wins with Queen of Spades")
    refused = run_cli("rule", "wizard", "bid", "1", "round", "3", "after", "1", "0", "1", "scores", "20", "40", "10", "60",
                      "--json")
    assert refused.exit_code == 1 and json.loads(refused.stdout)["legal_bids"] == [0, 2, 3]
    variant = run_cli("rule", "wizard", "bid 0 round 3 after 2 1", "--variant", "never-even")
    assert variant.exit_code == 1 and "[wizard.variants.bidding]" in variant.stdout
    hearts = run_cli("rule", "wizard-hearts", "shun fire: 9I QI WF 2L")
    assert hearts.exit_code == 0 and "Queen of Ice" in hearts.stdout and "+12 points" in hearts.stdout
    bad = run_cli("rule", "wizard", "trick 7H XX")
    assert bad.exit_code == 2 and "not a card" in bad.stderr


def test_simulate_is_reproducible_and_saves_replayable_logs(run_cli, tmp_path):
    args = ("simulate", "wizard-hearts", "--games", "6", "--players", "4", "--seed", "9", "--json")
    first = json.loads(run_cli(*args).stdout)
    second = json.loads(run_cli(*args).stdout)
    assert first == second and first["games"] == 6
    assert abs(sum(seat["win_rate"] for seat in first["seats"]) - 1) < 1e-3
    logs = tmp_path / "logs"
    text = run_cli("simulate", "wizard", "--games", "3", "--players", "5", "--seed", "2", "--bot", "heuristic",
                   "--save-logs", logs)
    assert text.exit_code == 0 and "win rate" in text.stdout
    saved = sorted(logs.glob("*.toml"))
    assert len(saved) == 3
    for path in saved:
        assert run_cli("referee", "wizard", path).exit_code == 0


def test_simulate_games_are_independent_of_the_run_length(run_cli):
    """Game i depends only on (seed, i): the first games of a long run equal a short run."""
    from generator.games.base import game_for
    from generator.games.simulate import play_games
    from generator.deck.loader import load_deck

    game = game_for(load_deck(ROOT / "decks" / "wizard.toml"))
    short = list(play_games(game, 3, 2, 5, ["random"] * 3))
    long = list(play_games(game, 3, 4, 5, ["random"] * 3))
    assert short == long[:2]


def test_simulate_rejects_bad_options(run_cli):
    assert run_cli("simulate", "wizard", "--players", "2").exit_code == 2
    result = run_cli("simulate", "wizard", "--bot", "random,heuristic", "--players", "4")
    assert result.exit_code == 2 and "one per seat" in result.stderr


def test_logs_in_the_docs_are_legal(run_cli, tmp_path):
    """Every complete log shown in docs/game-logs.md replays as legal under its deck."""
    import re

    from generator.deck.loader import load_deck

    text = (ROOT / "docs" / "game-logs.md").read_text()
    checked = 0
    for index, block in enumerate(re.findall(r"```toml\n(.*?)```", text, re.S)):
        match = re.search(r'^deck = "([^"]+)"', block, re.M)
        if not match or "[[" not in block:
            continue
        deck = load_deck(ROOT / "decks" / f"{match.group(1)}.toml")
        module = registrations(deck.engine)[0].target.split(":")[0]
        if importlib.util.find_spec(module) is None:
            continue
        path = tmp_path / f"doc-{index}.toml"
        path.write_text(block)
        result = run_cli("referee", deck.id, path)
        assert result.exit_code == 0, (block[:200], result.stdout[-500:], result.stderr)
        checked += 1
    assert checked >= 2
