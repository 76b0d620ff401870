"""A playtest on a Dask cluster whose scheduler and workers are separate processes started as on
many machines (`dask scheduler`, `dask worker tcp://...`, each in a folder of its own): the tasks
carry the deck, so the workers play it after its file is gone, and a search-player sweep merges
to the bytes the same chunks give in this process. Chunk sizes follow the measured time."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.deck.loader import load_deck
from generator.validate.cluster import DaskCluster, InProcess, run_chunks
from generator.validate.jobs import CHUNK_SECONDS, IN_FLIGHT_PER_WORKER, ChunkSizer, DeckData
from generator.validate.playtest import Task, play_chunk, run_seed

from tests.conftest import DECKS

DASK = Path(sys.executable).parent / "dask"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def machines(tmp_path_factory):
    """A scheduler and two single-threaded workers, each its own process in its own folder."""
    distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed")
    root = tmp_path_factory.mktemp("machines")
    address = f"tcp://127.0.0.1:{_free_port()}"
    commands = [[str(DASK), "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                 "--no-dashboard"]]
    commands += [[str(DASK), "worker", address, "--nthreads", "1", "--no-dashboard", "--name", f"machine-{n}",
                  "--local-directory", str(root / f"machine-{n}")] for n in (1, 2)]
    processes = []
    try:
        for number, command in enumerate(commands):
            folder = root / f"process-{number}"
            folder.mkdir()
            log = (folder / "log.txt").open("w")
            processes.append(subprocess.Popen(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT))
            time.sleep(1.0 if number == 0 else 0)
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def _merged(results) -> str:
    total = None
    for _, tally in results:
        if total is None:
            total = tally
        else:
            total.merge(tally)
    return json.dumps(total.state(), sort_keys=True)


def test_workers_in_other_processes_play_a_search_sweep_from_the_task_alone(machines, tmp_path):
    own = tmp_path / "quidditch-v2.toml"
    shutil.copy(DECKS / "quidditch-v2.toml", own)
    job = DeckData.of(load_deck(own))
    own.rename(tmp_path / "gone.toml")  # no worker can read the deck file now
    tasks = [Task(job, 0, {}, 2, run_seed(3, 2), start, start + 2, "ismcts-4") for start in (0, 2, 4, 6)]
    cluster = DaskCluster(machines)
    try:
        assert cluster.workers == 2
        on_cluster = _merged(run_chunks(play_chunk, tasks, cluster))
        built = cluster.client.run(lambda: len(sys.modules["generator.validate.jobs"]._GAMES))
    finally:
        cluster.close()
    assert len(built) == 2 and all(built.values())  # both workers built the engine from the task, and played
    assert on_cluster == _merged(run_chunks(play_chunk, tasks, InProcess()))
    assert json.loads(on_cluster)["games"] == 8


def test_the_cli_joins_the_machines_and_gives_the_in_process_figures(machines, run_cli):
    args = ("validate", "quidditch-v2", "--simulate", "3", "--bot", "ismcts-3", "--no-skill", "--sweep", "players=2",
            "--seed", "5", "--json")
    joined = run_cli(*args, "--cluster", machines)
    alone = run_cli(*args, "--workers", "1")
    assert joined.exit_code == alone.exit_code and joined.stdout == alone.stdout
    assert json.loads(joined.stdout)["decks"][0]["playtest"]["runs"][0]["bot"] == "ismcts-3"


def test_a_job_from_another_deckgen_version_is_refused_by_name():
    job = DeckData.of(load_deck(DECKS / "wizard.toml"))
    stale = DeckData(job.digest, job.data, "0.0.1")
    tally = play_chunk(Task(stale, 0, {}, 3, run_seed(1, 3), 0, 2, "random"))
    assert tally.failures["setting"] == 2
    assert "job was made with deckgen 0.0.1" in tally.examples[0].message


def test_chunks_are_sized_by_their_measured_time():
    sizer = ChunkSizer(workers=2)
    assert sizer.size("run", 10_000) == 1  # nothing measured yet: one game, timed
    sizer.observe("run", 4, 2.0)  # half a second a game
    assert sizer.size("run", 10_000) == int(CHUNK_SECONDS / 0.5)
    assert sizer.size("run", 40) == -(-40 // (2 * IN_FLIGHT_PER_WORKER))  # a fair share of what is left
    assert sizer.size("other", 100) == 1 and ChunkSizer(2, fixed=50).size("run", 30) == 30
