"""Shared test helpers: run the CLI the way a user does, in-process, through the `deckgen`
entry point (`generator.cli.app`, which hands what it does not run itself to typer)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from generator.cli.app import main

# A real headless Chromium (fixtures `chromium` and `page`) for every page deckgen writes or serves.
pytest_plugins = ("tests.browser",)

ROOT = Path(__file__).resolve().parents[1]
DECKS = ROOT / "decks"
DECK_PATHS = sorted(DECKS.glob("*.toml"))


@dataclass
class CliResult:
    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture
def run_cli(capsys, monkeypatch):
    """Run `deckgen ARGS...` from the repository root and capture what a user would see."""

    def run(*args: str, cwd: Path = ROOT) -> CliResult:
        monkeypatch.chdir(cwd)
        capsys.readouterr()
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return CliResult(code, out, err)

    return run


@pytest.fixture(autouse=True)
def config_home(tmp_path_factory, monkeypatch) -> Path:
    """Every test gets its own empty config folder: remembered printers never touch the user's."""
    folder = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    return folder


@pytest.fixture(scope="session")
def _session_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def cache_home(_session_cache, monkeypatch) -> Path:
    """One deck cache for the whole run, as a user has one, never the user's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(_session_cache))
    return _session_cache
