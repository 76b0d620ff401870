"""Simulated playtests: games per second per deck on one core and on every core, and memory.

Run: python benchmarks/bench_validate.py [--games N] [--repeats R] [--decks wizard,...]
For each deck, plays N games per allowed player count with the deck's own rules (heuristic
bots, as `deckgen validate` does) through `generator.validate.playtest.playtest`, R times
with one worker and R times with os.cpu_count() workers, and prints the median games per
second of each, the scaling ratio (all cores / one core), the spread, and games per CPU
second on one core (what the engine costs, whatever else the machine runs). Then the memory:
peak RSS of this process and of the worker processes, and the Python heap peak of an
in-process run at N and at 4N games (tracemalloc), which should not grow with N because
games are folded into counters as they finish.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.loader import deck_paths, load_deck  # noqa: E402
from generator.validate.playtest import playtest  # noqa: E402


def cpu_seconds() -> float:
    """CPU time of this process and of the worker processes it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def rate(deck, games: int, workers: int) -> tuple[float, float]:
    """Games per wall-clock second and per CPU second for one playtest of the deck's own rules
    at every player count."""
    sweep = [f"players={deck.min_players}..{deck.max_players}"]
    start, cpu = time.perf_counter(), cpu_seconds()
    result = playtest(deck, games, seed=11, workers=workers, sweeps=sweep)
    elapsed, used = time.perf_counter() - start, cpu_seconds() - cpu
    played = sum(run.tally.played for run in result.runs)
    return played / elapsed, played / used


def heap_peak(deck, games: int) -> float:
    """Peak Python heap (MiB) of an in-process playtest of `games` games per player count."""
    tracemalloc.start()
    playtest(deck, games, seed=11, workers=1, sweeps=[f"players={deck.min_players}..{deck.max_players}"])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40, help="games per player count (default 40)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--decks", default="", help="comma-separated deck ids (default: every deck)")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    wanted = [d for d in args.decks.split(",") if d]
    decks = [load_deck(path) for path in deck_paths(ROOT / "decks") if not wanted or path.stem in wanted]

    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"{args.games} games per player count, median of {args.repeats} repeats, {cores} cores, "
          f"load average {load} (other work on the machine lowers the scaling)")
    print(f"{'deck':<18} {'players':>7} {'1 core g/s':>11} {'spread':>13} {f'{cores} cores g/s':>12} "
          f"{'spread':>13} {'scaling':>8} {'g/CPU-s':>8}")
    for deck in decks:
        one = [rate(deck, args.games, 1) for _ in range(args.repeats)]
        every = [rate(deck, args.games, cores) for _ in range(args.repeats)]
        walls, alls = [wall for wall, _ in one], [wall for wall, _ in every]
        per_cpu = statistics.median(cpu for _, cpu in one)
        print(f"{deck.id:<18} {f'{deck.min_players}-{deck.max_players}':>7} {statistics.median(walls):>11.1f} "
              f"{f'{min(walls):.1f}-{max(walls):.1f}':>13} {statistics.median(alls):>12.1f} "
              f"{f'{min(alls):.1f}-{max(alls):.1f}':>13} "
              f"{statistics.median(alls) / statistics.median(walls):>7.2f}x {per_cpu:>8.1f}")

    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"\npeak RSS: this process {own:.0f} MiB, largest worker {workers:.0f} MiB")
    small, large = max(4, args.games // 4), max(16, args.games)
    for deck in decks:
        print(f"python heap peak, {deck.id}: {heap_peak(deck, small):.2f} MiB at {small} games per player count, "
              f"{heap_peak(deck, large):.2f} MiB at {large}")


if __name__ == "__main__":
    main()
