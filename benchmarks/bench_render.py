"""Rendering speed: the Wizard print PDF, 300-dpi card images, file size and peak memory.

Run: python benchmarks/bench_render.py [--repeats N]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.loader import load_deck  # noqa: E402
from generator.render import images, sheets  # noqa: E402


def timed(function, repeats: int) -> tuple[float, float, object]:
    """Median wall-clock and CPU seconds (all threads) of `repeats` calls, and the last result.

    CPU time is printed too because wall-clock time grows with whatever else the machine runs.
    """
    walls, cpus, result = [], [], None
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        result = function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    deck = load_deck(ROOT / "decks" / "wizard.toml")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        start = time.perf_counter()
        sheets.write_sheets(deck, out)  # first run: loads fonts and modules
        cold = time.perf_counter() - start
        pdf_time, pdf_cpu, pdf_path = timed(lambda: sheets.write_sheets(deck, out), args.repeats)
        size = Path(pdf_path).stat().st_size
        image_repeats = max(1, args.repeats // 3)
        image_time, image_cpu, written = timed(lambda: images.write_images(deck, out, dpi=300, bleed_mm=3), image_repeats)
    print(f"deck: {deck.name}, {deck.total} cards ({len(deck.cards)} distinct)")
    print(f"print PDF (A4, duplex, 3 mm bleed): median {pdf_time * 1000:.0f} ms over {args.repeats} runs "
          f"(CPU {pdf_cpu * 1000:.0f} ms; first run {cold * 1000:.0f} ms), {size / 1024:.0f} KiB")
    print(f"300-dpi PNGs with 3 mm bleed: {len(written)} images in {image_time:.2f} s (median of {image_repeats}), "
          f"{len(written) / image_time:.1f} cards/s (CPU {image_cpu:.2f} s)")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"peak memory (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
