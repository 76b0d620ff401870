"""Loading and validating each deck, and how fast `deckgen --help` starts.

Run: python benchmarks/bench_load.py [--repeats N]
Prints the median and spread per deck (goal: well under 100 ms), the peak memory of this
process, and the start-up time of `deckgen --help` next to a bare `python -c pass` as the
peer baseline (both measured in the same run, so the ratio is what to compare).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.deck.loader import check_deck, deck_paths  # noqa: E402


def timed(function, repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()

    print(f"{'deck':<20} {'median ms':>10} {'min ms':>8} {'max ms':>8}")
    for path in deck_paths(ROOT / "decks"):
        times = timed(lambda: check_deck(path), args.repeats)
        print(f"{path.stem:<20} {statistics.median(times) * 1e3:>10.2f} {min(times) * 1e3:>8.2f} "
              f"{max(times) * 1e3:>8.2f}")

    startup = timed(lambda: subprocess.run([sys.executable, "-m", "generator", "--help"], cwd=ROOT,
                                           capture_output=True, check=True), 5)
    baseline = timed(lambda: subprocess.run([sys.executable, "-c", "pass"], capture_output=True, check=True), 5)
    print(f"\n`deckgen --help` start-up: median {statistics.median(startup) * 1e3:.0f} ms; "
          f"bare python: {statistics.median(baseline) * 1e3:.0f} ms; "
          f"ratio {statistics.median(startup) / statistics.median(baseline):.1f}x")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (this process): {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
