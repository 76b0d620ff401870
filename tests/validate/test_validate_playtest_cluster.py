"""Chunks of games on a real Dask cluster (two local workers, started by `--cluster local:2` or
joined at its tcp:// address) give byte-identical aggregates to the in-process run; finished
chunks are checkpointed, and `--resume` plays only the missing ones."""

from __future__ import annotations

import json
import sys

import pytest

from generator.deck.loader import load_deck
from generator.validate.playtest import playtest

from tests.conftest import DECKS

ARGS = ("validate", "wizard-hearts", "--simulate", "10", "--sweep", "players=3..4", "--seed", "7", "--json")


def _states(result) -> str:
    """Every aggregate of a playtest, as the bytes the checkpoints hold."""
    return json.dumps([[run.bot, run.players, run.tally.state()] for run in result.runs + result.skill],
                      sort_keys=True)


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed")
    import logging

    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                       silence_logs=logging.ERROR)
    try:
        yield cluster
    finally:
        cluster.close()


def test_a_local_cluster_gives_the_in_process_bytes(run_cli):
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    in_process = run_cli(*ARGS, "--workers", "1")
    on_cluster = run_cli(*ARGS, "--cluster", "local:2")
    assert on_cluster.exit_code == in_process.exit_code and on_cluster.stdout == in_process.stdout
    assert json.loads(on_cluster.stdout)["decks"][0]["playtest"]["runs"][1]["metrics"]["games"] == 10


def test_joining_a_running_cluster_by_address_gives_the_same_aggregates(dask_cluster):
    deck = load_deck(DECKS / "quidditch-v2.toml")
    assert dask_cluster.scheduler_address.startswith("tcp://")
    with dask_cluster.get_client() as client:
        assert len(client.scheduler_info()["workers"]) == 2
    options = dict(games=8, seed=3, sweeps=["players=2..3"])
    joined = playtest(deck, cluster=dask_cluster.scheduler_address, **options)
    local = playtest(deck, workers=1, **options)
    assert _states(joined) == _states(local)
    assert sum(run.tally.metrics.games for run in joined.runs + joined.skill) == 8 * 2 * 2


def test_checkpoints_let_a_stopped_run_resume(tmp_path):
    deck = load_deck(DECKS / "muggle-quidditch.toml")
    options = dict(games=120, seed=5, sweeps=["players=2"], skill=False, workers=1)
    whole = playtest(deck, **options)
    first = playtest(deck, checkpoint=tmp_path, **options)
    chunks = sorted(tmp_path.glob("chunk-*.json"))
    assert len(chunks) == 3 and first.reused_chunks == 0 and _states(first) == _states(whole)
    chunks[1].unlink()  # as if the run was killed before this chunk finished
    chunks[2].write_text("{ torn", encoding="utf-8")  # ... or while it was being written
    resumed = playtest(deck, checkpoint=tmp_path, resume=True, **options)
    assert resumed.reused_chunks == 1 and _states(resumed) == _states(whole)
    assert len(list(tmp_path.glob("chunk-*.json"))) == 3
    # Another seed is other work: nothing is reused.
    assert playtest(deck, checkpoint=tmp_path, resume=True, **{**options, "seed": 6}).reused_chunks == 0


def test_resume_through_the_cli(run_cli, tmp_path):
    args = ("validate", "muggle-quidditch", "--simulate", "60", "--sweep", "players=2", "--no-skill", "--workers", "1",
            "--checkpoint", str(tmp_path), "--json")
    first = run_cli(*args)
    assert len(list((tmp_path / "muggle-quidditch").glob("chunk-*.json"))) == 2
    assert run_cli(*args, "--resume").stdout == first.stdout
    assert run_cli("validate", "muggle-quidditch", "--resume").exit_code == 2
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    refused = run_cli("validate", "muggle-quidditch", "--simulate", "2", "--checkpoint", str(blocker))
    assert refused.exit_code == 2 and "is a file, not a folder" in refused.stderr
    assert blocker.read_text(encoding="utf-8") == "not a folder"


def test_cluster_options_are_checked_and_a_missing_extra_is_explained(run_cli, monkeypatch):
    bad = run_cli("validate", "wizard", "--cluster", "local:none")
    assert bad.exit_code == 2 and "write local:N" in bad.stderr
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were not installed
    missing = run_cli("validate", "wizard", "--simulate", "1", "--cluster", "local:2")
    assert missing.exit_code == 2 and "pip install 'deckgen[cluster]'" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_an_unreachable_scheduler_is_a_clear_error(run_cli):
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    result = run_cli("validate", "wizard", "--simulate", "1", "--cluster", "tcp://127.0.0.1:9")
    assert result.exit_code == 2 and "cannot reach the Dask scheduler" in result.stderr
