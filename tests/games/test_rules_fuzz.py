"""Property-based fuzzing of the rules language (hypothesis): a field of a deck's [rules] table
given a random value, or a random expression, is either refused at load with a problem naming
the field, or read into rules whose games play to their end: never another exception, a hang,
or a game that runs past its declared length."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.core.errors import DeckgenError
from generator.deck.loader import check_deck
from generator.games.base import game_for
from generator.games.simulate import play_game

from tests.badinput import deadline
from tests.conftest import ROOT
from tests.test_fuzz import _ANY_VALUE, _toml

DECK_FILES = [ROOT / "decks" / "wizard.toml", ROOT / "decks" / "wizard-hearts.toml",
              *sorted((ROOT / "examples" / "rules").glob("*.toml"))]
TEXTS = {path.name: path.read_text(encoding="utf-8") for path in DECK_FILES}

WORDS = ["tricks", "bid", "hand", "round", "players", "cards", "points", "score", "last", "ahead", "bids_before",
         "0", "1", "13", "-2", "+", "-", "*", "//", "%", "==", "<", ">=", "and", "or", "not", "(", ")", ",",
         "if(", "min(", "max(", "abs(", "caught('suit:hearts')", "sum_all(", "count_all(", "true", "'x'", "nope"]
EXPRESSION = st.lists(st.sampled_from(WORDS), min_size=1, max_size=9).map(" ".join)


def rules_lines(text: str) -> list[int]:
    """Indices of `key = value` lines inside the [rules] tables of a deck file."""
    lines, found, inside = text.split("\n"), [], False
    for index, line in enumerate(lines):
        if line.startswith("["):
            inside = line.startswith(("[rules", "[[rules"))
        elif inside and re.match(r"^[a-z_]+ = ", line):
            found.append(index)
    return found


def try_deck(tmp_path_factory, name: str, text: str) -> None:
    path = tmp_path_factory.mktemp("rules-fuzz") / name
    path.write_text(text, encoding="utf-8")
    with deadline(60):
        try:
            deck, problems = check_deck(path)
        except DeckgenError:
            return  # unreadable: a clear error is the right outcome
        if deck is None or any(problem.severity == "error" for problem in problems):
            assert all(problem.field for problem in problems if problem.severity == "error"), problems
            return
        game = game_for(deck)
        play_game(game, game.min_players, seed=3, bots=["random"] * game.min_players)


FUZZ = settings(max_examples=150, deadline=60000, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                          HealthCheck.too_slow])


@FUZZ
@given(name=st.sampled_from(sorted(TEXTS)), data=st.data())
def test_a_random_value_in_a_rules_field_is_refused_or_played(tmp_path_factory, name, data):
    text = TEXTS[name]
    lines = text.split("\n")
    index = data.draw(st.sampled_from(rules_lines(text)))
    value = _toml(data.draw(_ANY_VALUE))
    if value is None:
        return
    key = lines[index].split(" = ")[0]
    lines[index] = f"{key} = {value}"
    try_deck(tmp_path_factory, name, "\n".join(lines))


@FUZZ
@given(name=st.sampled_from(sorted(TEXTS)), data=st.data())
def test_a_random_expression_in_a_rules_field_is_refused_or_played(tmp_path_factory, name, data):
    text = TEXTS[name]
    lines = text.split("\n")
    index = data.draw(st.sampled_from(rules_lines(text)))
    expression = data.draw(EXPRESSION)
    key = lines[index].split(" = ")[0]
    lines[index] = f'{key} = "{expression}"'
    try_deck(tmp_path_factory, name, "\n".join(lines))
