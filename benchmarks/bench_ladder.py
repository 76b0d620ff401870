"""The ladder of players for every shipped engine: the full win-rate matrix from random to search
at two budgets, with 95% intervals over deal sets, and how long it took.

Run: python benchmarks/bench_ladder.py [--levels random,heuristic,pimc-4,ismcts-16,ismcts-64]
                                       [--deals D] [--engines wizard,...] [--workers W] [--steps]
Each engine plays at its table in TABLES (player counts that keep a game short); each cell is
one level in each seat in turn against another level in the rest, over D deal sets
(generator.validate.ladder). `--steps` plays only each level against the one below: a cell
whose other seats are all search players costs that many times more, so a full matrix at five
or six players is hours on two cores. Prints each matrix, the steps up the ladder with their intervals,
games stopped by the length cap, the wall time, and the load average (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.deck.loader import load_deck  # noqa: E402
from generator.validate.ladder import ladder, parse_levels  # noqa: E402

TABLES = {"wizard": 6, "wizard-hearts": 3, "muggle-quidditch": 2, "quidditch-v2": 2}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="random,heuristic,pimc-4,ismcts-16,ismcts-64")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--engines", default=",".join(TABLES))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", action="store_true", help="only each level against the one below")
    args = parser.parse_args()
    levels = parse_levels(args.levels)
    for deck_id in args.engines.split(","):
        load = os.getloadavg()
        started = time.perf_counter()
        result = ladder(load_deck(ROOT / "decks" / f"{deck_id}.toml"), levels, TABLES[deck_id], deals=args.deals,
                        seed=args.seed, workers=args.workers, full=not args.steps)
        wall = time.perf_counter() - started
        print(f"{deck_id}: {result.text()}")
        print(f"  {wall / 60:.1f} min on {args.workers} workers; load average before "
              f"{' '.join(f'{x:.2f}' for x in load)}, after {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
              f"on {os.cpu_count()} cores\n", flush=True)


if __name__ == "__main__":
    main()
