"""Work lists are streamed, not built: a million-game playtest holds only a few chunks at once."""

from __future__ import annotations

import itertools

import pytest

from generator.deck.loader import load_deck
from generator.validate import playtest as playtest_module
from generator.validate.cluster import InProcess, ProcessPool
from generator.validate.chunks import play_chunk
from generator.validate.jobs import ChunkSizer, DeckData
from generator.validate.playtest import _Plan, settings_for, tasks

from tests.conftest import DECKS

WIZARD = load_deck(DECKS / "wizard.toml")


@pytest.mark.parametrize("workers", [1, 2])
def test_the_playtest_takes_its_tasks_as_it_plays_them(workers):
    settings, counts = settings_for(WIZARD)
    plan = _Plan(0, settings[0], counts[0], "random", 1)
    made = itertools.count()

    def counted():
        for task in tasks(DeckData.of(WIZARD), plan, 0, 1_000_000, ChunkSizer(workers, fixed=1), metrics=False):
            next(made)
            yield task

    backend = ProcessPool(workers) if workers > 1 else InProcess()
    try:
        played = backend.map(play_chunk, counted())
        for _ in itertools.islice(played, 3):
            pass
        played.close()
    finally:
        backend.close()
    assert next(made) <= 3 + workers * 4 + 1  # the games played and the window in flight, not a million


def test_the_playtest_refuses_more_games_than_its_limit(run_cli):
    result = run_cli("validate", "wizard", "--simulate", str(playtest_module.MAX_GAMES + 1))
    assert result.exit_code == 2
    assert f"at most {playtest_module.MAX_GAMES:,} games" in result.stderr
