"""A folder shared between decks (fonts, art, spreadsheets) is refused until the user allows it
on the command line: `deckgen --allow-folder DIR COMMAND ...` (or DECKGEN_ALLOW_FOLDERS)."""

from __future__ import annotations

import pytest

from generator.core.files import ALLOW_ENV, input_problem
from tests.deck.test_sources import deck_with


@pytest.fixture
def shared_deck(tmp_path, monkeypatch):
    monkeypatch.delenv(ALLOW_ENV, raising=False)  # and undo what the command sets
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "cards.csv").write_text("name,code,kind\nAnvil,AN,thing\nBell,BE,action\n", encoding="utf-8")
    (tmp_path / "deck").mkdir()
    return deck_with(tmp_path / "deck", 'file = "../shared/cards.csv"'), shared


def test_a_shared_folder_is_refused_until_allowed(shared_deck, run_cli):
    deck, shared = shared_deck
    refused = run_cli("show", deck)
    assert refused.exit_code == 1
    assert "card_sources[0].file: spreadsheet '../shared/cards.csv' lies outside the folder" in refused.stderr
    assert "--allow-folder" in refused.stderr and "Traceback" not in refused.stderr

    allowed = run_cli("--allow-folder", shared, "show", deck)
    assert allowed.exit_code == 0, allowed.stderr
    assert "Anvil" in allowed.stdout and "Bell" in allowed.stdout


def test_the_permission_lasts_one_command_line_and_the_cache_keeps_to_it(shared_deck, run_cli, monkeypatch):
    deck, shared = shared_deck
    assert run_cli("--allow-folder", shared, "show", deck).exit_code == 0
    monkeypatch.delenv(ALLOW_ENV)  # the next command line, without the option
    again = run_cli("show", deck)
    assert again.exit_code == 1 and "lies outside the folder" in again.stderr


def test_the_environment_allows_a_folder_too(shared_deck, run_cli, monkeypatch):
    deck, shared = shared_deck
    monkeypatch.setenv(ALLOW_ENV, str(shared))
    assert run_cli("show", deck).exit_code == 0
    assert input_problem(shared / "cards.csv", "spreadsheet", within=deck.parent) == ""
    assert input_problem(deck.parent.parent / "elsewhere.csv", "spreadsheet", within=deck.parent).startswith(
        "lies outside the folder")


def test_an_allowed_folder_must_exist(shared_deck, run_cli, tmp_path):
    deck, _ = shared_deck
    result = run_cli("--allow-folder", tmp_path / "missing", "show", deck)
    assert result.exit_code == 2
    assert "--allow-folder" in result.stderr and "does not exist" in result.stderr
    assert "Traceback" not in result.stderr
