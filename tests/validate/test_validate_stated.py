"""`deckgen validate` warns where a rules deck's prose states a number its [rules] data
contradicts (a hand's size, the target score, a card's points), at the line of the sentence;
the shipped rules decks and examples state none wrongly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import DECKS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "rules"
RULES_DECKS = [DECKS / "wizard.toml", DECKS / "wizard-hearts.toml", *sorted(EXAMPLES.glob("*.toml"))]


def stated(run_cli, path) -> list[dict]:
    result = run_cli("validate", path, "--simulate", "0", "--json")
    found = json.loads(result.stdout)["decks"][0]["problems"]
    return [p for p in found if p["message"].startswith("it says ")]


def hearts_with(tmp_path, *edits: tuple[str, str]) -> tuple[Path, str]:
    text = (EXAMPLES / "hearts.toml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "hearts.toml"
    path.write_text(text, encoding="utf-8")
    return path, text


def line_of(text: str, words: str) -> int:
    return next(number for number, row in enumerate(text.splitlines(), 1) if words in row)


@pytest.mark.parametrize("path", RULES_DECKS, ids=lambda path: path.stem)
def test_the_shipped_rules_decks_state_no_number_their_rules_contradict(run_cli, path):
    assert stated(run_cli, path) == []


def test_a_hand_size_a_target_and_card_points_the_rules_contradict(run_cli, tmp_path):
    path, text = hearts_with(tmp_path, ("52 cards out one at a time, 13 to each", "52 cards out one at a time, 12 to each"),
                             ("total reaches 100 points", "total reaches 50 points"),
                             ("the Queen of Spades 13.", "the Queen of Spades 10."),
                             ("costs you a point", "costs you two points"))
    found = {p["line"]: p for p in stated(run_cli, path)}
    deal = found[line_of(text, "12 to each player")]
    assert "a hand holds 12 card(s)" in deal["message"] and "the rules deal 13 with 4 players" in deal["message"]
    assert deal["severity"] == "warning" and deal["field"].endswith(".text") and deal["file"].endswith("hearts.toml")
    end = found[line_of(text, "reaches 50 points")]
    assert "played to 50" in end["message"] and "target score is 100" in end["message"]
    queen = found[line_of(text, "the Queen of Spades 10.")]
    assert "queen of spades is worth 10 point(s)" in queen["message"] and "worth 13" in queen["message"]
    heart = found[line_of(text, "costs you two points")]
    assert "heart is worth 2 point(s)" in heart["message"] and "worth 1" in heart["message"]
    assert len(found) == 4


def test_a_changed_rule_makes_the_unchanged_prose_wrong(run_cli, tmp_path):
    """The designer raises the target in [engine] and forgets the rulebook: the prose is flagged,
    and so is it when the data, not the text, gives the Queen another value."""
    path, text = hearts_with(tmp_path, ("target_score = 100", "target_score = 120"),
                             ('cards = "card:QS"\npoints = 13', 'cards = "card:QS"\npoints = 10'))
    messages = [p["message"] for p in stated(run_cli, path)]
    assert any("target score is 120" in m for m in messages), messages
    assert sum("queen of spades is worth 13" in m for m in messages) == 2, messages  # two sentences say 13


def test_a_game_of_fixed_rounds_has_no_target_to_state(run_cli, tmp_path):
    text = (EXAMPLES / "oh-hell.toml").read_text(encoding="utf-8")
    old = "The game ends after the last one-card hand."
    assert old in text
    path = tmp_path / "oh-hell.toml"
    path.write_text(text.replace(old, "The game ends when a total reaches 200 points."), encoding="utf-8")
    found = stated(run_cli, path)
    assert len(found) == 1 and "no target score" in found[0]["message"]
