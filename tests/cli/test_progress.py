"""Progress on long work: shown to a person at a terminal, never in pipes or JSON."""

from __future__ import annotations

import shutil
import sys

import pytest

import generator.build.run
from generator.build.run import build_all
from generator.core.progress import progress_bar, wanted

from tests.conftest import DECKS


def test_progress_is_off_when_stderr_is_not_a_terminal(run_cli, tmp_path):
    assert not wanted()
    with progress_bar() as advance:
        assert advance is None
    result = run_cli("simulate", "wizard", "--games", "25", "--players", "3", "--seed", "1")
    assert result.exit_code == 0
    assert "━" not in result.stderr and "\x1b[" not in result.stderr


def test_progress_is_off_for_json_even_on_a_terminal(monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert wanted()
    assert not wanted(as_json=True)
    with progress_bar(as_json=True) as advance:
        assert advance is None


def test_a_terminal_gets_a_bar_that_follows_the_work(monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with progress_bar() as advance:
        assert callable(advance)
        advance("wizard: print", 2, 6)
        advance("wizard: images", 3, 6)


@pytest.mark.parametrize("jobs", [1, 2])
def test_build_reports_each_decks_steps_from_every_process(tmp_path, monkeypatch, jobs):
    decks = tmp_path / "decks"
    decks.mkdir()
    for name in ("wizard", "wizard-hearts"):
        shutil.copy(DECKS / f"{name}.toml", decks)
    # Two quick steps; worker processes are forked, so they see the same list.
    monkeypatch.setattr(generator.build.run, "STEPS", generator.build.run.STEPS[:2])
    heard: list[tuple[str, int, int]] = []
    results = build_all(decks, tmp_path / "out", jobs=jobs, advance=lambda *message: heard.append(message))
    assert all(result.ok for result in results)
    for deck in ("wizard", "wizard-hearts"):
        assert (f"{deck}: summary", 0, 2) in heard
        assert (f"{deck}: validate", 1, 2) in heard
        assert (f"{deck}: done", 2, 2) in heard
