"""A designer's own trick-taking game, through the CLI only: `deckgen new --kind trick` writes a
deck whose [rules] already referee and playtest; changed in its TOML alone (a new special card,
another scoring), the referee, the quick rulings, the simulator and the playtest follow."""

from __future__ import annotations

import json

DRAGON = '''
[[kinds]]
id = "dragon"
name = "Dragon"
description = "Beats every card, and may be played at any time."

[[cards]]
id = "dragon"
name = "Dragon"
code = "DR"
kind = "dragon"
text = "Play it at any time. It takes the trick."
'''


def make_deck(run_cli, tmp_path):
    folder = tmp_path / "dragons"
    assert run_cli("new", folder, "--kind", "trick").exit_code == 0
    return folder, folder / "dragons.toml"


def test_the_starter_deck_referees_and_playtests(run_cli, tmp_path):
    folder, _ = make_deck(run_cli, tmp_path)
    logs = tmp_path / "logs"
    simulated = run_cli("simulate", folder, "--games", "2", "--players", "4", "--seed", "3", "--save-logs", logs)
    assert simulated.exit_code == 0, simulated.stderr
    report = json.loads(run_cli("referee", folder, logs / "game-00001.toml", "--json").stdout)
    assert report["status"] == "legal" and report["finished"] and len(report["rounds"]) == 4  # everyone deals once
    assert all(r["columns"]["points"] == r["columns"]["tricks"] for r in report["rounds"])  # a point a trick
    answer = run_cli("rule", folder, "lead North: 7S 9S 2M 10M")
    assert answer.exit_code == 0 and "East wins with 9 of Suns" in answer.stdout
    checked = run_cli("validate", folder, "--simulate", "6", "--json")
    playtest = json.loads(checked.stdout)["decks"][0]["playtest"]
    assert checked.exit_code == 0 and all(run["completed"] == 6 for run in playtest["runs"])


def test_a_new_special_card_and_another_scoring_in_toml_alone(run_cli, tmp_path):
    folder, deck_file = make_deck(run_cli, tmp_path)
    text = deck_file.read_text(encoding="utf-8")
    text = text.replace("[rules.cards]\n", '[rules.cards]\nalways_wins = { cards = "card:dragon" }\nany_time = "card:dragon"\n')
    text = text.replace('round = "tricks"  ', 'round = "3 * tricks"')
    text = text.replace("[[card_sets]]\n", DRAGON.lstrip() + "\n[[card_sets]]\n")
    deck_file.write_text(text, encoding="utf-8")

    trick = json.loads(run_cli("rule", folder, "lead North: 10S DR 9S 2S", "--json").stdout)
    assert trick["winner"] == {"position": 2, "player": "East", "card": "DR"}
    follow = run_cli("rule", folder, "play DR hand DR 3S 4M trick 5S", "--json")
    assert follow.exit_code == 0 and json.loads(follow.stdout)["legal"] == ["3S", "DR"]  # any time, even following
    refused = run_cli("rule", folder, "play 4M hand DR 3S 4M trick 5S", "--json")
    assert refused.exit_code == 1 and json.loads(refused.stdout)["rules"] == ["dragons.play.follow"]

    logs = tmp_path / "logs"
    assert run_cli("simulate", folder, "--games", "3", "--players", "3", "--seed", "5", "--bot", "heuristic",
                   "--save-logs", logs).exit_code == 0
    for log in sorted(logs.glob("*.toml")):
        report = json.loads(run_cli("referee", folder, log, "--json").stdout)
        assert report["status"] == "legal" and report["finished"]
        assert all(r["columns"]["points"] == [3 * t for t in r["columns"]["tricks"]] for r in report["rounds"])
    checked = run_cli("validate", folder, "--simulate", "6", "--json")
    deck = json.loads(checked.stdout)["decks"][0]
    assert checked.exit_code == 0, deck["problems"]
    assert all(run["completed"] == 6 for run in deck["playtest"]["runs"])
    rows = deck["playtest"]["runs"][0]["metrics"]["cards"]["rows"]
    dragon = next(row for row in rows if row["code"] == "DR")
    assert dragon["deals"] > 0  # the playtest follows the new card through the deals


def test_a_broken_rule_in_the_toml_is_an_error_at_its_line(run_cli, tmp_path):
    folder, deck_file = make_deck(run_cli, tmp_path)
    text = deck_file.read_text(encoding="utf-8").replace('round = "tricks"', 'round = "trick * 2"')
    deck_file.write_text(text, encoding="utf-8")
    line = next(number for number, row in enumerate(text.splitlines(), 1) if row.startswith('round = "trick * 2"'))
    result = run_cli("validate", folder)
    assert result.exit_code == 1
    assert f"dragons.toml:{line}: error: rules.scoring.round: unknown name 'trick'" in result.stdout
    assert run_cli("simulate", folder).exit_code in (1, 2) and "Traceback" not in run_cli("simulate", folder).stderr


def test_the_changed_game_keeps_every_promise_prints_a_rulebook_and_replays(run_cli, tmp_path):
    """The designer's changed game through the rest of the tools: the conformance suite any
    engine runs, the rulebook with a figure of play the referee checks, the HTML replay; and a
    sentence of theirs that states another hand size than the rules deal is a warning at its line."""
    folder, deck_file = make_deck(run_cli, tmp_path)
    text = deck_file.read_text(encoding="utf-8")
    text = text.replace("[rules.cards]\n", '[rules.cards]\nalways_wins = { cards = "card:dragon" }\n')
    text = text.replace("[[card_sets]]\n", DRAGON.lstrip() + "\n[[card_sets]]\n")
    text = text.replace("The card you play must be in your hand.",
                        "The card you play must be in your hand. With four players each player gets 12 cards."
                        "\\n\\n{trick: 10S DR 9S 2S | winner 2 | caption The Dragon takes even a Ten.}")
    deck_file.write_text(text, encoding="utf-8")

    checked = json.loads(run_cli("engines", "check", folder, "--games", "2", "--json").stdout)
    assert checked["engine"] == "rules" and checked["failures"] == [] and "questions" in checked["checks"]

    book = run_cli("rulebook", folder, "--format", "html", "--output", tmp_path / "out")
    assert book.exit_code == 0, book.stderr
    page = (tmp_path / "out" / "dragons" / "dragons-rules.html").read_text(encoding="utf-8")
    assert "The Dragon takes even a Ten." in page

    found = json.loads(run_cli("validate", folder, "--simulate", "0", "--json").stdout)["decks"][0]["problems"]
    line = next(number for number, row in enumerate(text.splitlines(), 1) if "each player gets 12 cards" in row)
    stated = [p for p in found if p["message"].startswith("it says")]
    assert [(p["line"], p["severity"]) for p in stated] == [(line, "warning")]
    assert "a hand holds 12 card(s)" in stated[0]["message"] and "10 with 4 players" in stated[0]["message"]
    assert not [p for p in found if p["severity"] == "error"], found  # the figure agrees with the referee

    logs = tmp_path / "logs"
    assert run_cli("simulate", folder, "--games", "1", "--players", "4", "--seed", "2", "--save-logs", logs).exit_code == 0
    replay = tmp_path / "replay.html"
    shown = run_cli("referee", folder, logs / "game-00001.toml", "--html", "--output", replay)
    assert shown.exit_code == 0, shown.stderr
    assert replay.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
