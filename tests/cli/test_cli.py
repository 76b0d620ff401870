"""The command line as a user meets it: list, show, schema, build, help and documentation."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys

import pytest
import typer

from generator.cli.app import COMMAND_MODULES, OWN_COMMANDS, app, register_commands
from tests.conftest import ROOT


def test_list_shows_every_deck(run_cli):
    result = run_cli("list")
    assert result.exit_code == 0
    assert re.search(r"^wizard\s+Wizard\s+3-6\s+60$", result.stdout, re.M)


def test_show_json_has_cards_and_total(run_cli):
    result = run_cli("show", "wizard", "--json")
    data = json.loads(result.stdout)
    assert data["total"] == 60 == sum(card["count"] for card in data["cards"])
    wizard = next(card for card in data["cards"] if card["code"] == "WZ")
    assert wizard == wizard | {"id": "wizard", "name": "Wizard", "count": 4}
    assert {card["code"] for card in data["cards"]} >= {"7H", "10S", "QD", "AC", "JE"}


def test_show_accepts_a_path(run_cli):
    result = run_cli("show", ROOT / "decks" / "wizard.toml")
    assert result.exit_code == 0
    assert "By suit:" in result.stdout and "♥ Hearts" in result.stdout and "total" in result.stdout


def test_schema_matches_the_published_file(run_cli):
    result = run_cli("schema")
    assert json.loads(result.stdout) == json.loads((ROOT / "docs" / "deck.schema.json").read_text())


def test_build_writes_summaries_and_reuses_them(run_cli, tmp_path):
    first = run_cli("build", "--output", tmp_path)
    assert first.exit_code == 0, first.stderr
    summary = json.loads((tmp_path / "wizard" / "summary.json").read_text())
    assert summary["total"] == 60
    second = run_cli("build", "--output", tmp_path, "--json")
    assert all(not deck["built"] and deck["ok"] for deck in json.loads(second.stdout))


def test_failed_build_keeps_previous_outputs(run_cli, tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    deck_file = decks / "wizard.toml"
    deck_file.write_text((ROOT / "decks" / "wizard.toml").read_text())
    out = tmp_path / "out"
    assert run_cli("build", "--decks-dir", decks, "--output", out).exit_code == 0
    before = (out / "wizard" / "summary.json").read_bytes()
    deck_file.write_text(deck_file.read_text().replace('code = "WZ"', 'code = "JE"'))
    failed = run_cli("build", "--decks-dir", decks, "--output", out)
    assert failed.exit_code == 1
    assert "duplicate card code 'JE'" in failed.stderr
    assert (out / "wizard" / "summary.json").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["wizard"]


def _commands(group, prefix: str = ""):
    for name, command in sorted(group.commands.items()):
        if hasattr(command, "commands"):  # a command group
            yield from _commands(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


def test_every_command_is_documented_in_readme_and_help():
    readme = (ROOT / "README.md").read_text()
    register_commands([])  # a command line naming no command registers them all
    group = typer.main.get_command(app)
    for name, command in _commands(group):
        assert f"deckgen {name}" in readme, f"README.md does not document `deckgen {name}`"
        assert command.help, f"`deckgen {name}` has no help text"


def test_bad_option_value_is_a_usage_error(run_cli):
    result = run_cli("print", "wizard", "--bleed", "abc")
    assert result.exit_code == 2
    assert "--bleed" in result.stderr and "Traceback" not in result.stderr


def test_help_lists_commands(run_cli):
    result = run_cli("--help")
    assert result.exit_code == 0
    for name in ("list", "show", "validate", "schema", "build"):
        assert name in result.stdout


def _field_names(schema: dict):
    for key, value in schema.get("properties", {}).items():
        yield key
        yield from _field_names(value)
        yield from _field_names(value.get("items", {}))
    for option in schema.get("oneOf", []):
        yield from _field_names(option)


def test_deck_format_doc_mentions_every_field():
    from generator.deck.schema import DECK_SCHEMA

    doc = (ROOT / "docs" / "deck-format.md").read_text()
    missing = sorted({name for name in _field_names(DECK_SCHEMA) if f"`{name}`" not in doc
                      and f"{name} =" not in doc and f"[{name}]" not in doc and f"[[{name}]]" not in doc})
    assert missing == []


def test_rebuild_removes_outputs_of_removed_cards(run_cli, tmp_path):
    from tests.deck.test_loader import MINIMAL

    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "tiny.toml").write_text(MINIMAL)
    out = tmp_path / "out"
    assert run_cli("build", "--decks-dir", decks, "--output", out, "--jobs", "1").exit_code == 0
    assert (out / "tiny" / "images" / "jk.png").exists()  # the Joker, its id from its code JK
    (decks / "tiny.toml").write_text(MINIMAL.split("[[cards]]")[0])
    assert run_cli("build", "--decks-dir", decks, "--output", out, "--jobs", "1").exit_code == 0
    assert not (out / "tiny" / "images" / "jk.png").exists()
    assert (out / "tiny" / "images" / "ace-hearts.png").exists()


def test_version_prints_the_package_version(run_cli):
    from generator import __version__

    result = run_cli("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"deckgen {__version__}"


def _break_deck_listing(monkeypatch):
    import generator.deck.files

    def broken(*_args, **_kwargs):
        raise RuntimeError("forced\nfailure")

    monkeypatch.setattr(generator.deck.files, "deck_paths", broken)


def test_an_internal_error_is_one_line_and_exit_70(run_cli, monkeypatch):
    from generator import __version__

    monkeypatch.delenv("DECKGEN_DEBUG", raising=False)
    _break_deck_listing(monkeypatch)
    result = run_cli("list")
    assert result.exit_code == 70
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "internal error: RuntimeError: forced failure" in lines[0]
    assert f"deckgen {__version__}" in lines[0] and "--debug" in lines[0] and "DECKGEN_DEBUG=1" in lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("how", ["flag first", "flag after the command", "environment"])
def test_debug_shows_the_traceback(run_cli, monkeypatch, how):
    monkeypatch.delenv("DECKGEN_DEBUG", raising=False)
    _break_deck_listing(monkeypatch)
    if how == "environment":
        monkeypatch.setenv("DECKGEN_DEBUG", "1")
        args = ["list"]
    else:
        args = ["--debug", "list"] if how == "flag first" else ["list", "--debug"]
    result = run_cli(*args)
    assert result.exit_code == 70
    assert "Traceback (most recent call last)" in result.stderr
    assert "RuntimeError: forced" in result.stderr


def test_user_errors_keep_their_exit_codes(run_cli, tmp_path):
    deck = tmp_path / "bad.toml"
    deck.write_text("[deck\n", encoding="utf-8")
    result = run_cli("show", str(deck))
    assert result.exit_code == 2
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert "bad.toml:1" in result.stderr


@pytest.mark.parametrize("module", sorted(COMMAND_MODULES))
def test_each_command_module_adds_the_commands_it_declares(module):
    """`deckgen CMD` registers only CMD's module, found by the names COMMAND_MODULES declares."""
    alone = typer.Typer()
    importlib.import_module(module).register(alone)
    names = {command.name or command.callback.__name__ for command in alone.registered_commands}
    names |= {group.name for group in alone.registered_groups}
    assert names == set(COMMAND_MODULES[module])
    assert not names & set(OWN_COMMANDS)


def test_a_command_line_loads_only_its_own_command_module():
    probe = ("import sys; from generator.cli.app import main; main(['rule', 'wizard', 'lead', '5H']); "
             "print(sorted(m for m in sys.modules if m.startswith('generator.cli.commands.')), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    loaded = done.stderr.strip().splitlines()[-1]
    assert "generator.cli.commands.games" in loaded
    assert "generator.cli.commands.render" not in loaded and "generator.cli.commands.validate" not in loaded
