"""Peak memory of a long random sweep: is it flat in the number of games?

Run: python benchmarks/bench_sweep_memory.py [--games 1000,10000,100000] [--deck wizard] [--players 4]
                                            [--repeats 3] [--no-metrics]
Each size is one playtest (`generator.validate.playtest`, what `deckgen validate DECK --simulate N
--bot random` plays) of N games between random players, in this process (one worker), every
game-research metric collected unless --no-metrics. Every run is a fresh Python process, so its
peak RSS (getrusage's ru_maxrss) is that run's alone; the sizes are interleaved, small to large
then large to small, repeat by repeat, so each sees the same machine load. Prints, per size, the
median over the repeats of the peak RSS, the RSS once the deck and engine are loaded (before the
first game), the growth between them, the wall time and games/s, and the ratio of the largest
size's peak to the smallest's (flat: about 1.0). The machine is shared: the load average is
printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def one_run(deck_id: str, players: int, games: int, metrics: bool) -> dict:
    """Play the sweep here and measure it (the child process's side)."""
    from generator.deck.loader import load_deck
    from generator.validate.playtest import playtest

    deck = load_deck(ROOT / "decks" / f"{deck_id}.toml")
    sweep = [f"players={players}"]  # the deck's rules at one player count (a sweep plays no variants)
    playtest(deck, games=2, workers=1, bot="random", sweeps=sweep, skill=False, metrics=metrics)
    loaded = peak_rss_mb()  # imports, the deck, the engine and one tiny run: the floor
    started = time.perf_counter()
    result = playtest(deck, games=games, workers=1, bot="random", sweeps=sweep, skill=False, metrics=metrics)
    seconds = time.perf_counter() - started
    played = sum(run.tally.games for run in result.runs)
    return {"games": played, "seconds": seconds, "loaded_mb": loaded, "peak_mb": peak_rss_mb()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1000,10000,100000")
    parser.add_argument("--deck", default="wizard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-metrics", action="store_true")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)  # one run, in a fresh process
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(one_run(args.deck, args.players, args.child, not args.no_metrics)))
        return
    sizes = [int(size) for size in args.games.split(",")]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    runs: dict[int, list[dict]] = {size: [] for size in sizes}
    for repeat in range(args.repeats):
        for size in sizes if repeat % 2 == 0 else reversed(sizes):
            command = [sys.executable, __file__, "--child", str(size), "--deck", args.deck,
                       "--players", str(args.players)] + (["--no-metrics"] if args.no_metrics else [])
            output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            runs[size].append(json.loads(output))
            print(f"  repeat {repeat + 1}, {size:>7} games: {runs[size][-1]}", flush=True)
    what = "counters only" if args.no_metrics else "every metric"
    print(f"{args.deck}, {args.players} players, random players, {what}, one process; medians of {args.repeats}")
    print(f"{'games':>8} {'peak RSS MB':>12} {'loaded MB':>10} {'growth MB':>10} {'seconds':>9} {'games/s':>9}")
    peaks = {}
    for size in sizes:
        peak = statistics.median(run["peak_mb"] for run in runs[size])
        loaded = statistics.median(run["loaded_mb"] for run in runs[size])
        seconds = statistics.median(run["seconds"] for run in runs[size])
        peaks[size] = peak
        print(f"{size:>8} {peak:>12.1f} {loaded:>10.1f} {peak - loaded:>10.1f} {seconds:>9.1f} {size / seconds:>9.0f}")
    print(f"peak RSS, {sizes[-1]:,} games / {sizes[0]:,} games: {peaks[sizes[-1]] / peaks[sizes[0]]:.3f}x")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
