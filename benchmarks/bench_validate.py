"""Simulated playtests as a user waits for them: `deckgen validate` on one core and on every
core, whole process, with the engines' cost per decision so decks can be compared.

Run: python benchmarks/bench_validate.py [--games 100] [--rounds 3] [--decks wizard,...]
For each deck, three commands, each a fresh process, interleaved round by round after one
unmeasured round:

- `deckgen validate DECK --simulate 0`: checks and report, no games (the fixed cost);
- `... --simulate N --workers 1 --sweep players=MIN..MAX`: N games per player count, one process;
- the same with `--workers` = every core.

Games per second mean little across decks (a Wizard game is 15 rounds of decisions, a
Muggle Quidditch game a few dozen turns), so each deck's cost is also given per player
decision (decisions counted in-process from the same games), and the scaling is a ratio
within one deck: whole-process (what a user sees, pool start-up included) and games only
(the no-games run subtracted). The pool's start-up is the whole-process difference at
`--simulate 1`. Then the memory: each run's peak RSS, and the Python heap peak of an
in-process playtest at N/4 and N games, which should not grow with N.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wholeprocess import ROOT, deckgen_command, interleaved, load_line  # noqa: E402

sys.path.insert(0, str(ROOT))
from generator.deck.loader import deck_paths, load_deck  # noqa: E402
from generator.validate.playtest import playtest  # noqa: E402


def decisions(deck, games: int) -> tuple[int, int, float]:
    """(games, player decisions, CPU seconds) of an in-process playtest, one worker."""
    sweep = [f"players={deck.min_players}..{deck.max_players}"]
    start = time.process_time()
    result = playtest(deck, games, seed=11, workers=1, sweeps=sweep)
    used = time.process_time() - start
    played = sum(run.tally.played for run in result.runs)
    made = sum(length * count for run in result.runs for length, count in run.tally.lengths.items())
    return played, made, used


def heap_peak(deck, games: int) -> float:
    tracemalloc.start()
    playtest(deck, games, seed=11, workers=1, sweeps=[f"players={deck.min_players}..{deck.max_players}"])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games per player count (default 100)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--decks", default="", help="comma-separated deck ids (default: every deck)")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    wanted = [d for d in args.decks.split(",") if d]
    decks = [load_deck(path) for path in deck_paths(ROOT / "decks") if not wanted or path.stem in wanted]
    deckgen = deckgen_command()
    print(f"{args.games} games per player count, {args.rounds} interleaved rounds after one unmeasured, "
          f"whole processes; {cores} cores")
    print(f"{'deck':<17} {'games':>5} {'µs/decision':>11} {'no games s':>10} {'1 core s':>9} {f'{cores} cores s':>9} "
          f"{'scaling':>8} {'games only':>10} {'pool start s':>12} {'peak MiB':>8}")
    with tempfile.TemporaryDirectory(prefix="bench-validate-") as scratch:
        for deck in decks:
            sweep = ["--sweep", f"players={deck.min_players}..{deck.max_players}"]
            base = deckgen + ["validate", deck.id, "-o", str(Path(scratch) / deck.id)]
            commands = {
                "none": base + ["--simulate", "0"],
                "one": base + ["--simulate", str(args.games), "--workers", "1"] + sweep,
                "every": base + ["--simulate", str(args.games), "--workers", str(cores)] + sweep,
                "tiny one": base + ["--simulate", "1", "--workers", "1"] + sweep,
                "tiny every": base + ["--simulate", "1", "--workers", str(cores)] + sweep,
            }
            series = interleaved(commands, args.rounds,
                                 before_each=lambda _name: shutil.rmtree(Path(scratch) / deck.id, ignore_errors=True))
            played, made, used = decisions(deck, args.games)
            none, one, every = series["none"].wall, series["one"].wall, series["every"].wall
            pool = series["tiny every"].wall - series["tiny one"].wall
            games_only = f"{(one - none) / (every - none):.2f}x" if every > none and one > none else "n/a"
            print(f"{deck.id:<17} {played:>5} {used / made * 1e6:>11.1f} {none:>10.2f} {one:>9.2f} {every:>9.2f} "
                  f"{one / every:>7.2f}x {games_only:>10} {pool:>12.2f} "
                  f"{max(s.peak_mib for s in series.values()):>8.0f}")
    print("µs/decision: CPU per player decision, in-process, one worker (comparable across decks); "
          "scaling: 1-core wall / all-cores wall; games only: the same less the no-games run")
    print(load_line())
    small, large = max(4, args.games // 4), args.games
    for deck in decks:
        print(f"python heap peak, {deck.id}: {heap_peak(deck, small):.2f} MiB at {small} games per player count, "
              f"{heap_peak(deck, large):.2f} MiB at {large}")


if __name__ == "__main__":
    main()
