"""Soft shadows and glows in print: the gallery's soft.toml card (one soft drop shadow, two soft
glows, one soft text shadow) as PDF/X-4, which keeps their see-through copies, and as PDF/X-1a,
which flattens each into one picture; the same card with the blurs at 0 (hard edges, opaque) for
scale. Time and file size of `one_per_page`; runs alternate so all see the same machine load.

Run: python benchmarks/bench_soft_effects.py [--repeats N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.deck.loader import load_deck  # noqa: E402
from generator.printing import sheets  # noqa: E402
from generator.printing.pdfx import ColorOptions  # noqa: E402

SOFT = ROOT / "docs" / "layouts" / "soft.toml"
BLURS = ('glow_blur = "2.5mm"', 'shadow_blur = "3mm"', "glow_blur = 6", "shadow_blur = 4")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    text = SOFT.read_text()
    for blur in BLURS:
        text = text.replace(blur, blur.split(" = ")[0] + " = 0")
    with tempfile.TemporaryDirectory() as folder:
        hard_file = Path(folder) / "soft.toml"
        hard_file.write_text(text)
        decks = {"soft": load_deck(SOFT), "hard": load_deck(hard_file)}
    variants = {f"{name} {pdfx}": (deck, ColorOptions("cmyk", pdfx)) for name, deck in decks.items()
                for pdfx in ("x4", "x1a")}
    for deck, color in variants.values():
        sheets.one_per_page(deck, color=color)  # first runs: fonts, modules, the ICC transform
    times: dict[str, list[float]] = {name: [] for name in variants}
    sizes: dict[str, int] = {}
    for _ in range(args.repeats):
        for name, (deck, color) in variants.items():
            start = time.perf_counter()
            sizes[name] = len(sheets.one_per_page(deck, color=color))
            times[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"{SOFT.name}: 1 card, 4 soft effects; CMYK one per page, median of {args.repeats} interleaved runs")
    for name, median in medians.items():
        print(f"{name:8}: {median * 1000:.0f} ms, {sizes[name] / 1024:.0f} KiB, {median / medians['hard x4']:.1f}× hard x4")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
