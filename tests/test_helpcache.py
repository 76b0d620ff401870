"""`deckgen --help` from the help cache (`generator.helpcache`) is typer's own help: the same
bytes and exit code as the typer app prints, on the first run (typer, recorded) and on later
ones (kept), and never a kept text from other conditions (width, environment, code)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from generator import cli, fastcli, helpcache
from tests.conftest import ROOT


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("DECKGEN_DEBUG", raising=False)
    monkeypatch.chdir(ROOT)
    return tmp_path / "cache" / "deckgen"


def run(main, capsys) -> tuple:
    capsys.readouterr()
    code = main(["--help"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def typer_calls(monkeypatch):
    """Every run of the typer app from here on."""
    calls = []
    typer_main = cli.main

    def counted(argv=None):
        calls.append(argv)
        return typer_main(argv)

    monkeypatch.setattr(cli, "main", counted)
    return calls


def test_the_kept_help_is_typers_help(cache_home, capsys, typer_calls):
    typer_help = run(cli.main, capsys)
    assert typer_help[0] == 0 and typer_help[1].startswith("Usage: deckgen [OPTIONS] COMMAND [ARGS]...")
    assert run(fastcli.main, capsys) == typer_help  # a miss: typer prints it, recorded
    assert (cache_home / "help").is_file()
    runs = len(typer_calls)
    assert run(fastcli.main, capsys) == typer_help  # a hit
    assert len(typer_calls) == runs, "the kept help should not need typer"


@pytest.mark.parametrize("change", ["COLUMNS", "another variable", "deckgen's code", "a library file"])
def test_anything_the_help_may_depend_on_is_a_miss(change, cache_home, capsys, monkeypatch, typer_calls, tmp_path):
    library = tmp_path / "library.py"
    library.write_text("# a module typer imports\n", encoding="utf-8")
    if change == "a library file":
        monkeypatch.setattr(helpcache, "_library_files", lambda: [[str(library), *helpcache._facts(str(library))]])
    run(fastcli.main, capsys)
    if change == "COLUMNS":
        monkeypatch.setenv("COLUMNS", "60")
    elif change == "another variable":
        monkeypatch.setenv("DECKGEN_HELP_TEST", "1")
    elif change == "deckgen's code":
        monkeypatch.setattr(helpcache, "code_stamp", lambda: "another deckgen")
    else:
        library.write_text("# a module typer imports, upgraded\n", encoding="utf-8")
    runs = len(typer_calls)
    quick = run(fastcli.main, capsys)
    assert quick == run(cli.main, capsys)
    assert len(typer_calls) == runs + 2, "a changed condition must run typer again"
    if change == "COLUMNS":
        assert max(len(line) for line in quick[1].splitlines()) <= 60


def test_the_environment_that_changes_with_every_cd_is_not_a_miss(cache_home, capsys, monkeypatch, typer_calls):
    run(fastcli.main, capsys)
    monkeypatch.setenv("PWD", "/somewhere/else")
    monkeypatch.setenv("OLDPWD", str(ROOT))
    runs = len(typer_calls)
    run(fastcli.main, capsys)
    assert len(typer_calls) == runs


@pytest.mark.parametrize("damage", ["truncated", "garbage", "another user's"])
def test_a_damaged_or_foreign_entry_is_a_miss(damage, cache_home, capsys, typer_calls):
    typer_help = run(fastcli.main, capsys)
    entry = cache_home / "help"
    if damage == "truncated":
        entry.write_bytes(entry.read_bytes()[:-10])
    elif damage == "garbage":
        entry.write_bytes(helpcache.MAGIC + b"\0" * 200)
    else:
        entry.chmod(0o666)
    runs = len(typer_calls)
    assert run(fastcli.main, capsys) == typer_help
    assert len(typer_calls) == runs + 1


def test_help_written_past_the_recorder_is_not_kept(cache_home, capsys, monkeypatch):
    """Typer writing bytes to stdout's buffer (click does, on a stream it finds misconfigured)
    is not in the record, so nothing is kept."""
    def through_the_buffer(argv=None):
        sys.stdout.buffer  # noqa: B018 - the access is what the recorder notices
        print("Usage: deckgen")
        return 0

    monkeypatch.setattr(cli, "main", through_the_buffer)
    fastcli.main(["--help"])
    assert not (cache_home / "help").exists()


def test_the_deckgen_command_prints_typers_help_without_typer(tmp_path):
    """Whole processes, as a user runs it: typer's help, then the same bytes without typer."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("DECKGEN_DEBUG", None)
    probe = "import sys; from generator.fastcli import main; code = main(['--help']); print('typer' in sys.modules)"
    typer_help = subprocess.run([sys.executable, "-c", "from generator.cli import main; main(['--help'])"],
                                cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    first, second = (subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True,
                                    text=True, timeout=120) for _ in range(2))
    assert first.stdout == typer_help.stdout + "True\n" and second.stdout == typer_help.stdout + "False\n"
    assert first.stderr == second.stderr == typer_help.stderr == ""
