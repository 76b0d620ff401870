"""A parallel build hands out the longest decks first, by what their last build cost; the
figures it keeps are a hint only: missing, corrupt or foreign, they change the order, never
what is built."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import generator.build.run
from generator.build import order as buildorder
from generator.build.run import DeckResult, build_all

from tests.conftest import DECKS

NAMES = ("muggle-quidditch", "quidditch-v2", "wizard-hearts", "wizard")  # the folder's order


@pytest.fixture
def decks(tmp_path, monkeypatch) -> Path:
    """The four shipped decks, with a cache folder of their own and the two quickest steps."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "decks"
    folder.mkdir()
    for name in NAMES:
        shutil.copy(DECKS / f"{name}.toml", folder)
    monkeypatch.setattr(generator.build.run, "STEPS", generator.build.run.STEPS[:2])
    return folder


@pytest.fixture
def handed_out(monkeypatch) -> list[list[str]]:
    """The deck names in the order each parallel build gives them to its pool."""
    orders: list[list[str]] = []
    pool = generator.build.run._build_in_pool

    def recording(tasks, *args):
        orders.append([path.stem for path, _lang in tasks])
        return pool(tasks, *args)

    monkeypatch.setattr(generator.build.run, "_build_in_pool", recording)
    return orders


def _pretend_costs(decks: Path, seconds: dict[str, float]) -> None:
    buildorder.remember(((decks / f"{name}.toml", None),
                         DeckResult(name, seconds={"validate": {"cpu": cpu, "wall": cpu}}))
                        for name, cpu in seconds.items())


def test_a_first_build_keeps_the_folders_order_and_remembers_every_decks_cost(decks, tmp_path, handed_out):
    results = build_all(decks, tmp_path / "out", jobs=2)
    assert [result.deck_id for result in results] == list(NAMES) and all(result.ok for result in results)
    assert handed_out == [list(NAMES)]
    costs = buildorder.read_costs()
    for name in NAMES:
        steps = costs[f"{(decks / f'{name}.toml').resolve()}\0"]
        assert set(steps) == {"summary", "validate"} and steps["validate"] > 0


def test_the_next_build_hands_out_the_longest_decks_first_and_reports_in_the_folders_order(decks, tmp_path,
                                                                                          handed_out):
    _pretend_costs(decks, {"muggle-quidditch": 1.0, "quidditch-v2": 3.0, "wizard-hearts": 2.0, "wizard": 4.0})
    results = build_all(decks, tmp_path / "out", jobs=2)
    assert handed_out == [["wizard", "quidditch-v2", "wizard-hearts", "muggle-quidditch"]]
    assert [result.deck_id for result in results] == list(NAMES) and all(result.ok for result in results)
    # What the build measured replaces what was pretended.
    assert buildorder.read_costs()[f"{(decks / 'wizard.toml').resolve()}\0"]["validate"] != 4.0


def test_a_deck_with_no_figures_goes_first_in_the_folders_order(decks, tmp_path, handed_out):
    _pretend_costs(decks, {"quidditch-v2": 1.0, "wizard": 2.0})
    build_all(decks, tmp_path / "out", jobs=2)
    assert handed_out == [["muggle-quidditch", "wizard-hearts", "wizard", "quidditch-v2"]]


def test_equal_costs_keep_the_folders_order():
    tasks = [(Path(f"/decks/{name}.toml"), None) for name in "abc"]
    costs = {buildorder._key(task): {"print": 1.0} for task in tasks}
    assert buildorder.longest_first(tasks, costs) == tasks


def test_one_deck_at_a_time_still_remembers_its_cost(decks, tmp_path, handed_out):
    build_all(decks, tmp_path / "out", jobs=1)
    assert handed_out == []  # no pool
    assert len(buildorder.read_costs()) == len(NAMES)


def _costs_file(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "deckgen" / "build-costs"


@pytest.mark.parametrize("damage", ["garbage", "torn", "foreign"])
def test_a_damaged_or_foreign_costs_file_is_ignored_and_replaced(decks, tmp_path, handed_out, damage):
    _pretend_costs(decks, {"muggle-quidditch": 1.0, "quidditch-v2": 3.0, "wizard-hearts": 2.0, "wizard": 4.0})
    place = _costs_file(tmp_path)
    if damage == "garbage":
        place.write_bytes(b"not a costs file at all")
    elif damage == "torn":
        place.write_bytes(place.read_bytes()[:-3])
    else:  # writable by others: never trusted, whoever wrote it
        os.chmod(place, 0o666)
    results = build_all(decks, tmp_path / "out", jobs=2)
    assert all(result.ok for result in results)
    assert handed_out == [list(NAMES)]  # no figures: the folder's order
    assert len(buildorder.read_costs()) == len(NAMES)  # written afresh, the user's own again
    assert place.stat().st_mode & 0o077 == 0
