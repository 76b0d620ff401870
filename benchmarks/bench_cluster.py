"""Games per second on a local Dask cluster with one and with two workers, and each worker's
peak memory, against the same games played in this process.

Run: python benchmarks/bench_cluster.py [--games N] [--repeats R] [--chunk C]
Needs the cluster extra (pip install 'deckgen[cluster]'). Plays N full Wizard games (4
players, random bots, every metric) through `generator.validate.cluster.run_chunks` with the
same pure `play_chunk` the validator uses: in process, then on `local:1` and `local:2`
clusters, R rounds interleaved (in process, 1, 2, in process, 2, 1, ...). Cluster start-up is
timed apart. Prints median games/s of each, the 2-worker / 1-worker ratio, start-up time, and
the peak RSS of every worker process (read on the workers after the run). Checks that every
backend merged to the same aggregate bytes.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.validate.cluster import DaskCluster, InProcess, run_chunks  # noqa: E402
from generator.validate.chunks import Task, play_chunk  # noqa: E402
from generator.validate.playtest import run_seed  # noqa: E402

DECK = ROOT / "decks" / "wizard.toml"
PLAYERS = 4


def worker_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def play(backend, games: int, chunk: int) -> tuple[float, str]:
    tasks = (Task(str(DECK), 0, {}, PLAYERS, run_seed(1, PLAYERS), start, min(start + chunk, games), "random")
             for start in range(0, games, chunk))
    started = time.perf_counter()
    total = None
    for _, tally in run_chunks(play_chunk, tasks, backend):
        if total is None:
            total = tally
        else:
            total.merge(tally)
    return time.perf_counter() - started, json.dumps(total.state(), sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=50)
    args = parser.parse_args()
    play(InProcess(), 4, 2)  # build the engine in this process outside the timings
    seconds: dict[str, list[float]] = {"in process": [], "local:1": [], "local:2": []}
    startup: dict[str, list[float]] = {"local:1": [], "local:2": []}
    peaks: dict[str, list[float]] = {"local:1": [], "local:2": []}
    results = set()
    for repeat in range(args.repeats):
        order = ("in process", "local:1", "local:2") if repeat % 2 == 0 else ("in process", "local:2", "local:1")
        for name in order:
            if name == "in process":
                wall, aggregate = play(InProcess(), args.games, args.chunk)
            else:
                started = time.perf_counter()
                cluster = DaskCluster(name)
                startup[name].append(time.perf_counter() - started)
                try:
                    wall, aggregate = play(cluster, args.games, args.chunk)
                    peaks[name] += list(cluster.client.run(worker_peak_mb).values())
                finally:
                    cluster.close()
            seconds[name].append(wall)
            results.add(aggregate)
    print(f"{args.games} Wizard games, {PLAYERS} players, random bots, every metric, chunks of {args.chunk}, "
          f"{args.repeats} interleaved rounds")
    for name, walls in seconds.items():
        median = statistics.median(walls)
        line = f"  {name:<10}: {args.games / median:7.1f} games/s (median of {len(walls)}: {median:.1f} s)"
        if name in startup:
            line += (f", cluster start {statistics.median(startup[name]):.1f} s, worker peak RSS "
                     f"{', '.join(f'{mb:.0f}' for mb in peaks[name])} MB")
        print(line)
    print(f"  2 workers / 1 worker: {statistics.median(seconds['local:1']) / statistics.median(seconds['local:2']):.2f}x; "
          f"this process's peak RSS {worker_peak_mb():.0f} MB")
    print(f"  aggregates identical across backends: {len(results) == 1}")


if __name__ == "__main__":
    main()
