"""Building each deck's rulebook: PDF, HTML and Markdown with card pictures, as `deckgen build` does.

Run: python benchmarks/bench_rulebook.py [--repeats N] [--decks-dir DIR]
Prints, per deck, the median wall-clock and CPU time of one complete build (all three formats,
card pictures included; goal: under 2 s), the median of each format on its own (each of them
typesets the PDF, since the HTML and Markdown pictures are cut out of it), the page count and
output sizes, and the peak memory of this process. The first build of each deck is a warm-up
(imports, font loading) and is not counted. CPU time is shown because wall time on a shared
machine includes waiting for a core.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.loader import deck_paths, load_deck  # noqa: E402
from generator.rulebook import FORMATS, rulebook_path, write_rulebooks  # noqa: E402


def timed(function, repeats: int) -> tuple[float, float]:
    """Median wall and CPU seconds of `function` over `repeats` runs."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        function()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--decks-dir", type=Path, default=ROOT / "decks")
    args = parser.parse_args()

    print(f"{'deck':<18} {'cards':>5} {'all: wall s':>11} {'cpu s':>6}   "
          + "  ".join(f"{fmt + ' wall s':>11}" for fmt in FORMATS) + f"  {'pages':>5}  sizes (pdf/html/md+png)")
    with tempfile.TemporaryDirectory() as scratch:
        for path in deck_paths(args.decks_dir):
            deck = load_deck(path)
            out = Path(scratch) / deck.id
            write_rulebooks(deck, out)  # warm-up
            every_wall, every_cpu = timed(lambda: write_rulebooks(deck, out), args.repeats)
            alone = [timed(lambda: write_rulebooks(deck, out, (fmt,)), args.repeats)[0] for fmt in FORMATS]
            written = write_rulebooks(deck, out)
            pages = _page_count(rulebook_path(deck, out, "pdf"))
            pictures = sum(p.stat().st_size for p in written if p.suffix == ".png")
            sizes = "/".join(f"{rulebook_path(deck, out, fmt).stat().st_size // 1024}K" for fmt in FORMATS)
            print(f"{deck.id:<18} {len(deck.cards):>5} {every_wall:>11.2f} {every_cpu:>6.2f}   "
                  + "  ".join(f"{seconds:>11.2f}" for seconds in alone)
                  + f"  {pages:>5}  {sizes}+{pictures // 1024}K")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory (this process): {peak_mb:.0f} MB; medians of {args.repeats} builds after one warm-up")


def _page_count(pdf: Path) -> int:
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


if __name__ == "__main__":
    main()
