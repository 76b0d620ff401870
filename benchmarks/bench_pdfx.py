"""CMYK PDF/X against plain RGB: the same Wizard sheets drawn, then converted; time and peak memory.

The conversion (generator/printing/pdfx.py) runs after drawing, so its cost is the difference
between the two; runs alternate so both see the same machine load.

Run: python benchmarks/bench_pdfx.py [--repeats N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.deck.loader import load_deck  # noqa: E402
from generator.printing import sheets  # noqa: E402
from generator.printing.pdfx import ColorOptions  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    deck = load_deck(ROOT / "decks" / "wizard.toml")
    variants = {"rgb": sheets.SheetOptions(), "cmyk x1a": sheets.SheetOptions(color=ColorOptions("cmyk", "x1a"))}
    for options in variants.values():
        sheets.print_sheets(deck, options)  # first runs: fonts, modules, the ICC transform
    times: dict[str, list[float]] = {name: [] for name in variants}
    sizes: dict[str, int] = {}
    for _ in range(args.repeats):
        for name, options in variants.items():
            start = time.perf_counter()
            sizes[name] = len(sheets.print_sheets(deck, options))
            times[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"deck: {deck.name}, {deck.total} cards; A4 sheets, median of {args.repeats} interleaved runs")
    for name, median in medians.items():
        print(f"{name:9}: {median * 1000:.0f} ms, {sizes[name] / 1024:.0f} KiB, "
              f"{median / medians['rgb']:.2f}× rgb")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"peak memory (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
