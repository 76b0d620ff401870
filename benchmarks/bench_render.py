"""`deckgen print` and `deckgen images` against their floors, whole process, as a user waits.

Run: python benchmarks/bench_render.py [--deck wizard] [--rounds 5]
Four commands, each a fresh process (nothing warm from an earlier run, so every run is a
user's first), interleaved round by round after one unmeasured round:

- `deckgen print DECK` (A4 sheets, 3 mm bleed, duplex) against `floor_print.py`, a minimal
  reportlab script drawing the same deck's cards with the same fonts;
- `deckgen images DECK` (300-dpi PNGs, 3 mm bleed) against `floor_images.py`, pypdfium2 and
  zlib-ng rasterising and compressing the very PDF of card pages deckgen rasterises.

Prints median wall and CPU seconds (user + system, all threads), the spread of the wall
times, the largest process's peak memory (ru_maxrss), the ratio of each command to its
floor, output sizes, and the machine's load while measuring. Goal: print and images <= 1.5x
their floors.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wholeprocess import ROOT, deckgen_command, interleaved, load_line, table  # noqa: E402

HERE = Path(__file__).resolve().parent


def face_pages_pdf(deck_id: str, path: Path) -> tuple[int, tuple[float, float]]:
    """Write the PDF `deckgen images` rasterises (a page per face and back, 4 mm drawn bleed)."""
    sys.path.insert(0, str(ROOT))
    from generator.loader import load_deck
    from generator.render.raster import drawn_bleed_mm, face_pages
    from generator.render.sizes import card_size_mm

    deck = load_deck(ROOT / "decks" / f"{deck_id}.toml")
    trim = card_size_mm(deck)
    faces = face_pages(deck, trim, 3.0, 300)
    path.write_bytes(faces.pdf)
    assert faces.bleed_mm == drawn_bleed_mm(3.0, 300)
    return len(faces.pages), trim


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deck", default="wizard")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    deckgen = deckgen_command()
    with tempfile.TemporaryDirectory(prefix="bench-render-") as scratch:
        scratch = Path(scratch)
        pages_pdf = scratch / "faces.pdf"
        pages, trim = face_pages_pdf(args.deck, pages_pdf)
        out, images_out, floor_out = scratch / "out", scratch / "images", scratch / "floor"
        commands = {
            f"deckgen print {args.deck}": deckgen + ["print", args.deck, "-o", str(out)],
            "floor: reportlab script": [sys.executable, str(HERE / "floor_print.py"),
                                        str(ROOT / "decks" / f"{args.deck}.toml"), str(scratch / "floor.pdf")],
            f"deckgen images {args.deck}": deckgen + ["images", args.deck, "-o", str(images_out)],
            "floor: pdfium + zlib-ng": [sys.executable, str(HERE / "floor_images.py"), str(pages_pdf),
                                        str(floor_out), "--trim", f"{trim[0]:g}x{trim[1]:g}"],
        }

        def clean(name: str) -> None:  # every run writes into an empty folder, as a first run does
            folder = {names[0]: out, names[2]: images_out, names[3]: floor_out}.get(name)
            if folder:
                shutil.rmtree(folder, ignore_errors=True)

        names = list(commands)

        series = interleaved(commands, args.rounds, before_each=clean)
        print(f"{args.rounds} interleaved rounds after one unmeasured, each command a fresh process; "
              f"deckgen = {' '.join(deckgen)}")
        print(table(series, {names[0]: names[1], names[2]: names[3]}))
        sheets = next((out / args.deck).glob("*-print-*.pdf"))
        pngs = sorted((images_out / args.deck / "images").rglob("*.png"))
        floor_pngs = sorted(floor_out.glob("*.png"))
        print(f"outputs: print PDF {sheets.stat().st_size / 1024:.0f} KiB (floor "
              f"{(scratch / 'floor.pdf').stat().st_size / 1024:.0f} KiB); {len(pngs)} PNGs, "
              f"{sum(p.stat().st_size for p in pngs) / 2**20:.1f} MiB (floor: {len(floor_pngs)} pages of the "
              f"{pages}-page PDF, {sum(p.stat().st_size for p in floor_pngs) / 2**20:.1f} MiB)")
    print(load_line())


if __name__ == "__main__":
    main()
