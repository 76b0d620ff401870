"""Time and memory of each export of each deck: Lackey, Tabletop Simulator, MUSH, and all
three together as `deckgen build` runs them.

Run: python benchmarks/bench_export.py [--repeats N] [--deck ID]
Each (deck, export) pair runs in a fresh Python process, so its peak memory (ru_maxrss)
is its own. "cold" renders the card faces each time, as a single `deckgen export` does;
"warm" reuses the faces of the previous run, as the second export of a build does. The
"load" row is the baseline: importing deckgen and loading the deck, nothing exported.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

EXPORTS = ("load", "lackey", "tts", "mush", "all")


def _exporter(name: str):
    from generator import export
    from generator.export import lackey, tts

    return {
        "load": lambda deck, out: [],
        "lackey": lackey.export_lackey,
        "tts": tts.export_tts,
        "mush": export.export_mush,
        "all": export.write_all,
    }[name]


def measure(deck_path: str, name: str, repeats: int) -> dict:
    """In this process: median seconds cold and warm, bytes written, peak RSS."""
    from generator.export.faces import clear_cache
    from generator.loader import load_deck

    deck = load_deck(Path(deck_path))
    run = _exporter(name)
    cold, warm, size = [], [], 0
    with tempfile.TemporaryDirectory() as folder:
        for times, clear in ((cold, True), (warm, False)):
            for _ in range(repeats):
                if clear:
                    clear_cache()
                start = time.perf_counter()
                written = run(deck, Path(folder))
                times.append(time.perf_counter() - start)
                size = sum(path.stat().st_size for path in written)
    return {"cold": statistics.median(cold), "warm": statistics.median(warm), "bytes": size,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--deck", help="only this deck id")
    parser.add_argument("--child", nargs=2, metavar=("DECK_PATH", "EXPORT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child[0], args.child[1], args.repeats)))
        return

    from generator.loader import deck_paths

    paths = [p for p in deck_paths(ROOT / "decks") if args.deck in (None, p.stem)]
    print(f"median of {args.repeats} runs per export; peak memory of the process that ran it\n")
    print(f"{'deck':<18} {'export':<7} {'cold ms':>9} {'warm ms':>9} {'output KB':>10} {'peak MB':>8}")
    for path in paths:
        for name in EXPORTS:
            child = subprocess.run([sys.executable, __file__, "--repeats", str(args.repeats), "--child", str(path), name],
                                   capture_output=True, text=True, check=True, cwd=ROOT)
            result = json.loads(child.stdout)
            print(f"{path.stem:<18} {name:<7} {result['cold'] * 1e3:>9.0f} {result['warm'] * 1e3:>9.0f} "
                  f"{result['bytes'] / 1024:>10.0f} {result['peak_mb']:>8.0f}")


if __name__ == "__main__":
    main()
