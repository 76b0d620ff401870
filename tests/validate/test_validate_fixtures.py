"""Checks of the checker: every deliberately broken deck in tests/fixtures/ is caught, with the
right message at the right line, through `deckgen validate`; the real decks pass."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import DECK_PATHS, ROOT

FIXTURES = ROOT / "tests" / "fixtures"


def line_of(path: Path, *patterns: str) -> int:
    """1-based line of the last pattern, each pattern searched after the line the previous one matched."""
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    for pattern in patterns:
        index = next(i for i in range(index, len(lines)) if re.search(pattern, lines[i]))
    return index + 1


# fixture, words the error must contain, (pattern, after) locating the line it must point at
BROKEN = [
    ("wizard-59-cards", ["the deck has 59 cards", "not whole for 3, 4, 5 and 6 players", "59/4 = 14.75"],
     (r"^\[\[cards\]\]",)),
    ("duplicate-code", ["duplicate card code 'WZ'"], (r"^\[\[cards\]\]", r'^id = "jester"', r'^code = "WZ"')),
    ("missing-card-reference", ["names a 'Joker' card", "the deck has no card, kind or type called 'Joker'"],
     (r"^text = .*Joker card",)),
    ("overflowing-text", ["card 'Wizard' (WZ)", "does not fit its box", "63×88 mm"],
     (r"^\[\[cards\]\]", r'^id = "wizard"', r"^text = ")),
    ("snitch-never-in-play", ["turn cap ends the game after 6 turns", "Golden Snitch",
                              "can never enter play"], (r"^turn_cap = 3",)),
    ("endless-variant", ["variant no-points", "nobody reaches 25", "cannot end"], (r"^\[\[variants\]\]", r"^params = ")),
]


@pytest.mark.parametrize("name, words, place", BROKEN, ids=[b[0] for b in BROKEN])
def test_each_broken_deck_is_caught_at_its_line(run_cli, name, words, place):
    path = FIXTURES / f"{name}.toml"
    result = run_cli("validate", path, "--simulate", "0")
    assert result.exit_code == 1, result.stdout
    errors = [line for line in result.stdout.splitlines() if ": error: " in line]
    matching = [line for line in errors if all(word in line for word in words)]
    assert matching, f"no error with {words} in:\n{result.stdout}"
    assert matching[0].startswith(f"{path}:{line_of(path, *place)}: error: ")
    assert "Traceback" not in result.stdout + result.stderr


def test_broken_decks_are_errors_in_json_too(run_cli):
    for name, words, _ in BROKEN:
        result = run_cli("validate", FIXTURES / f"{name}.toml", "--simulate", "0", "--json")
        deck = json.loads(result.stdout)["decks"][0]
        assert deck["errors"] >= 1 and result.exit_code == 1
        assert any(p["severity"] == "error" and all(w in p["message"] for w in words) and p["hint"]
                   for p in deck["problems"]), name


def test_differing_copies_warn_and_fail_only_when_strict(run_cli):
    path = FIXTURES / "differing-copies.toml"
    result = run_cli("validate", path, "--simulate", "0")
    assert result.exit_code == 0
    warning = next(line for line in result.stdout.splitlines() if ": warning: " in line)
    assert "'Jester' entry (JE) only in punctuation" in warning
    assert "'Loses the trick unless the trick…' against 'Loses the trick, unless the trick…'" in warning
    assert warning.startswith(f"{path}:{line_of(path, r'^id = .jester-reprint', r'^text = ')}:")
    assert "count = 4" in result.stdout  # the fix names the merged count
    assert run_cli("validate", path, "--simulate", "0", "--strict").exit_code == 1


def test_one_bad_deck_does_not_hide_the_others(run_cli):
    result = run_cli("validate", FIXTURES / "duplicate-code.toml", "wizard", "--simulate", "0")
    assert result.exit_code == 1
    assert "duplicate-code.toml: 1 error(s)" in result.stdout and "\nwizard: ok" in result.stdout


def test_unreadable_input_exits_2(run_cli, tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("[deck\nid = 1\n")
    result = run_cli("validate", broken, "wizard", "--simulate", "0")
    assert result.exit_code == 2 and "not valid TOML" in result.stdout


@pytest.mark.parametrize("path", DECK_PATHS, ids=[p.stem for p in DECK_PATHS])
def test_real_decks_pass(run_cli, path):
    """The shipped decks have no errors; with a short playtest every game ends and nothing fails."""
    result = run_cli("validate", path.stem, "--simulate", "2", "--workers", "1", "--json")
    deck = json.loads(result.stdout)["decks"][0]
    assert result.exit_code == 0, [p["message"] for p in deck["problems"]]
    assert deck["errors"] == 0
    runs = deck["playtest"]["runs"]
    assert runs and all(run["completed"] == run["games"] == 2 and not run["failures"] for run in runs)
