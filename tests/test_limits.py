"""Work lists are streamed, not built: a million-game playtest holds only a few chunks at once."""

from __future__ import annotations

import itertools

import pytest

from generator.loader import load_deck
from generator.validate import playtest as playtest_module
from generator.validate.playtest import _execute, settings_for, tasks

from .conftest import DECKS

WIZARD = load_deck(DECKS / "wizard.toml")


@pytest.mark.parametrize("workers", [1, 2])
def test_the_playtest_takes_its_tasks_as_it_plays_them(workers):
    settings, counts = settings_for(WIZARD)
    made = itertools.count()

    def counted():
        for task in tasks(WIZARD, settings[:1], counts[:1], 1_000_000, 1, "random", 1):
            next(made)
            yield task

    first = next(tasks(WIZARD, settings[:1], counts[:1], 1, 1, "random", 1))
    played = _execute(counted(), 1_000_000, [first], workers)
    for _ in itertools.islice(played, 3):
        pass
    played.close()
    assert next(made) <= 3 + workers * 4 + 1  # the games played and the window in flight, not a million


def test_the_playtest_refuses_more_games_than_its_limit(run_cli):
    result = run_cli("validate", "wizard", "--simulate", str(playtest_module.MAX_GAMES + 1))
    assert result.exit_code == 2
    assert f"at most {playtest_module.MAX_GAMES:,} games" in result.stderr
