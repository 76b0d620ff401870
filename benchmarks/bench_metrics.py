"""The cost of the game-research metrics: full Wizard games (4 players, random bots) with every
metric collected against the same games with the validator's counters only.

Run: python benchmarks/bench_metrics.py [--games N] [--chunk C]
The same games (same seeds) are played both ways in one process, interleaved chunk by chunk
(counters, metrics, metrics, counters, ...) so both modes see the same machine load. Prints
the total time of each mode, the ratio, the median ratio of matched chunks (the target is
at most 2x), CPU time per game, and memory: peak RSS, the Python heap peak of a metrics run
at N/10 and at N games (tracemalloc; flat, since games fold into counters), and the size of
the merged aggregate's JSON at both points.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.deck.loader import load_deck  # noqa: E402
from generator.validate.chunks import Task, play_chunk  # noqa: E402
from generator.validate.jobs import DeckData  # noqa: E402
from generator.validate.playtest import run_seed  # noqa: E402

DECK = ROOT / "decks" / "wizard.toml"
PLAYERS = 4


def chunk(start: int, stop: int, metrics: bool) -> tuple[float, float, object]:
    task = Task(DeckData.of(load_deck(DECK)), 0, {}, PLAYERS, run_seed(1, PLAYERS), start, stop, "random", metrics)
    wall, cpu = time.perf_counter(), time.process_time()
    tally = play_chunk(task)
    return time.perf_counter() - wall, time.process_time() - cpu, tally


def heap_peak(games: int) -> tuple[int, int]:
    """Python heap peak (bytes) of playing `games` games with metrics in chunks of 100, merging as
    they finish, and the merged aggregate's JSON size."""
    tracemalloc.start()
    total = None
    for start in range(0, games, 100):
        _, _, tally = chunk(start, min(start + 100, games), True)
        if total is None:
            total = tally
        else:
            total.merge(tally)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, len(json.dumps(total.state()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--chunk", type=int, default=250)
    args = parser.parse_args()
    chunk(0, 2, True)  # build the engine once, outside the timings
    times = {False: [], True: []}
    cpu = {False: 0.0, True: 0.0}
    for number, start in enumerate(range(0, args.games, args.chunk)):
        stop = min(start + args.chunk, args.games)
        for metrics in ((False, True) if number % 2 == 0 else (True, False)):
            wall, used, _ = chunk(start, stop, metrics)
            times[metrics].append(wall)
            cpu[metrics] += used
    plain, full = sum(times[False]), sum(times[True])
    ratios = [b / a for a, b in zip(times[False], times[True])]
    print(f"{args.games} Wizard games, {PLAYERS} players, random bots, chunks of {args.chunk}, interleaved")
    print(f"  counters only : {plain:8.1f} s wall  {cpu[False]:8.1f} s CPU  {args.games / plain:7.1f} games/s  "
          f"{cpu[False] / args.games * 1000:6.2f} ms CPU/game")
    print(f"  every metric  : {full:8.1f} s wall  {cpu[True]:8.1f} s CPU  {args.games / full:7.1f} games/s  "
          f"{cpu[True] / args.games * 1000:6.2f} ms CPU/game")
    print(f"  ratio (metrics / counters): total wall {full / plain:.2f}x, CPU {cpu[True] / cpu[False]:.2f}x, "
          f"median of matched chunks {statistics.median(ratios):.2f}x (min {min(ratios):.2f}, max {max(ratios):.2f})")
    print(f"  peak RSS of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    small = max(100, args.games // 10)
    for games in (small, args.games):
        peak, size = heap_peak(games)
        print(f"  metrics run of {games:>6} games: Python heap peak {peak / 2**20:6.2f} MB, "
              f"aggregate {size / 1024:7.1f} KB of JSON")


if __name__ == "__main__":
    main()
