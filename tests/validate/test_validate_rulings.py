"""Rule texts against their rulings (generator.validate.rulings): `deckgen validate` warns when
a ruling's decision and a rule it cites state a different number or moment for one thing,
and stays quiet on the shipped decks, whose rules and rulings agree."""

from __future__ import annotations

import pytest

from generator.validate.rulings import number_frames, sentences, trigger_clauses
from tests.conftest import DECKS
from tests.validate.test_validate_lint import altered, problems

NEW_RESHUFFLE = "The moment the last card leaves the draw pile, whether in a draw step or during the dive, rebuild it"
# Rule 10.1 as it read before issue 31: it rebuilt the pile when a card was needed, not when it emptied.
OLD_RESHUFFLE = "The moment a card has to be drawn and the draw pile is empty, rebuild it"


def conflicts(run_cli, path: str) -> list[dict]:
    return [p for p in problems(run_cli, path) if "state a different" in p["message"]]


@pytest.mark.parametrize("deck", ["wizard", "wizard-hearts", "muggle-quidditch", "quidditch-v2"])
def test_the_shipped_rules_agree_with_their_rulings(run_cli, deck):
    assert conflicts(run_cli, deck) == []


def test_a_rule_rebuilding_at_another_moment_than_its_ruling(run_cli, tmp_path):
    path = altered(tmp_path, "muggle-quidditch", (NEW_RESHUFFLE, OLD_RESHUFFLE))
    [found] = conflicts(run_cli, path)
    assert found["severity"] == "warning" and found["field"].startswith("rulings[") and found["line"]
    assert "mq.ruling.reshuffle and rule 10.1 (mq.deck.reshuffle) state a different moment" in found["message"]
    assert "the last card leaves the draw pile" in found["message"] and "has to be drawn" in found["message"]


def test_a_ruling_with_another_number_than_its_rule(run_cli, tmp_path):
    """The dive: the rule gives each Seeker 5 cards and a bonus; a ruling saying 4 contradicts it."""
    text = (DECKS / "muggle-quidditch.toml").read_text(encoding="utf-8")
    assert "Each Seeker draws 5 cards plus" in text
    path = altered(tmp_path, "muggle-quidditch", ('decision = "Rebuild it and go on;',
                                                  'decision = "Each Seeker draws 4 cards plus the bonus. Rebuild it and go on;'))
    found = conflicts(run_cli, path)
    assert [p for p in found if "state a different number" in p["message"]
            and "Each Seeker draws 4 cards plus the bonus" in p["message"] and "5 cards plus" in p["message"]]


def test_the_readings_see_frames_and_clauses():
    [sentence] = sentences("Each Seeker draws five cards plus a bonus.")
    assert list(number_frames(sentence)) == [(("seeker", "draws", "#", "cards", "plus"), 5)]
    [sentence] = sentences("As soon as the discard pile holds cards, rebuild.")
    assert [clause for clause, _ in trigger_clauses(sentence)] == ["as soon as the discard pile holds cards"]
