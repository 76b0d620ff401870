"""Games per second and core-seconds per game on each backend, for random and for search
players: this process, a local Dask cluster of one worker and one of two.

Run: python benchmarks/bench_cluster.py [--random-games N] [--search-games M] [--search-bot ismcts-20]
                                        [--repeats R]
Needs the cluster extra (pip install 'deckgen[cluster]'). Two workloads, each a playtest's own
chunks (`play_chunk`, every metric) sized as the playtest sizes them (`jobs.ChunkSizer`): N
4-player Wizard games with random bots, and M 2-player Quidditch v2 games with a search player
in every seat. Each runs in process, on `local:1` and on `local:2`, R rounds interleaved (the
order of the backends alternates). Cluster start-up is timed apart. Prints per backend the
median games/s, the core-seconds a game took on the workers (the chunks' own timings), the
2-worker / 1-worker ratio, the load average around the run (the machine is shared: other jobs'
load lowers the ratio), and whether every backend merged to the same aggregate bytes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.deck.loader import load_deck  # noqa: E402
from generator.validate.cluster import DaskCluster, InProcess, run_chunks  # noqa: E402
from generator.validate.chunks import Task, play_chunk  # noqa: E402
from generator.validate.jobs import ChunkSizer, DeckData  # noqa: E402
from generator.validate.playtest import run_seed  # noqa: E402

WORKLOADS = {"random": ("wizard", 4), "search": ("quidditch-v2", 2)}
BACKENDS = ("in process", "local:1", "local:2")


def play(backend, deck: DeckData, players: int, bot: str, games: int) -> tuple[float, float, str]:
    """Wall seconds, worker core-seconds and the merged aggregate of `games` games."""
    sizer = ChunkSizer(backend.workers)

    def tasks():
        first = 0
        while first < games:
            last = first + sizer.size(bot, games - first)
            yield Task(deck, 0, {}, players, run_seed(1, players), first, last, bot)
            first = last

    started, busy, total = time.perf_counter(), 0.0, None
    for task, tally in run_chunks(play_chunk, tasks(), backend):
        sizer.observe(bot, task.stop - task.start, tally.seconds)
        busy += tally.seconds
        if total is None:
            total = tally
        else:
            total.merge(tally)
    return time.perf_counter() - started, busy, json.dumps(total.state(), sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=2000)
    parser.add_argument("--search-games", type=int, default=24)
    parser.add_argument("--search-bot", default="ismcts-20")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    work = {"random": ("random", args.random_games), "search": (args.search_bot, args.search_games)}
    decks = {name: (DeckData.of(load_deck(ROOT / "decks" / f"{deck}.toml")), players)
             for name, (deck, players) in WORKLOADS.items()}
    loads = [os.getloadavg()]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in loads[0])} on {os.cpu_count()} cores")
    for name, (bot, games) in work.items():
        deck, players = decks[name]
        play(InProcess(), deck, players, bot, 1)  # build the engine in this process outside the timings
        walls: dict[str, list[float]] = {backend: [] for backend in BACKENDS}
        cores: dict[str, list[float]] = {backend: [] for backend in BACKENDS}
        startups: dict[str, list[float]] = {backend: [] for backend in BACKENDS[1:]}
        aggregates = set()
        for repeat in range(args.repeats):
            for backend_name in BACKENDS if repeat % 2 == 0 else (BACKENDS[0], *reversed(BACKENDS[1:])):
                if backend_name == "in process":
                    wall, busy, aggregate = play(InProcess(), deck, players, bot, games)
                else:
                    started = time.perf_counter()
                    cluster = DaskCluster(backend_name)
                    startups[backend_name].append(time.perf_counter() - started)
                    try:
                        wall, busy, aggregate = play(cluster, deck, players, bot, games)
                    finally:
                        cluster.close()
                walls[backend_name].append(wall)
                cores[backend_name].append(busy)
                aggregates.add(aggregate)
        print(f"{name}: {games} games of {WORKLOADS[name][0]}, {players} players, bot {bot}, every metric, "
              f"{args.repeats} interleaved rounds")
        for backend_name in BACKENDS:
            wall = statistics.median(walls[backend_name])
            line = (f"  {backend_name:<10}: {games / wall:8.2f} games/s, "
                    f"{statistics.median(cores[backend_name]) / games * 1000:8.1f} core-ms a game on the workers")
            if backend_name in startups:
                line += f", cluster start {statistics.median(startups[backend_name]):.1f} s"
            print(line)
        ratio = statistics.median(walls["local:1"]) / statistics.median(walls["local:2"])
        print(f"  2 workers / 1 worker: {ratio:.2f}x; aggregates identical across backends: {len(aggregates) == 1}")
        loads.append(os.getloadavg())
        print(f"  load average now: {' '.join(f'{x:.2f}' for x in loads[-1])}")


if __name__ == "__main__":
    main()
