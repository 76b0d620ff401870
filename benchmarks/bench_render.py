"""`deckgen print` and `deckgen images` against their floors, whole process, as a user waits.

Run: python benchmarks/bench_render.py [--deck wizard] [--rounds 5]
Each command a fresh process, interleaved round by round after one unmeasured round:

- `deckgen print DECK` (A4 sheets, 3 mm bleed, duplex) against `floor_print.py`, a minimal
  reportlab script drawing the same deck's cards (pictures included) with the same fonts;
- `deckgen images DECK` (300-dpi PNGs, 3 mm bleed) against `floor_images.py --deck`, the same
  minimal reportlab drawing of a page per card, then pypdfium2 and zlib-ng rasterising and
  compressing those pages; `floor_images.py --pdf` only rasterises the very PDF of card pages
  deckgen draws (shown for reference: deckgen has to draw its pages, so that floor leaves out
  work deckgen cannot skip);
- both deckgen commands once more with an empty cache folder: deckgen keeps loaded decks and
  parsed fonts in $XDG_CACHE_HOME/deckgen, which the runs above find filled by the unmeasured
  round, as a user's machine has it after the first run; these runs are that first run.

Prints median wall and CPU seconds (user + system, all threads), the spread of the wall
times, the largest process's peak memory (ru_maxrss), the ratio of each command to its
floor, output sizes, the drawn content of both print PDFs, and the machine's load while
measuring. Goal: print and images <= 1.5x their floors.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wholeprocess import ROOT, deckgen_command, interleaved, load_line, run, table, user_environment  # noqa: E402

HERE = Path(__file__).resolve().parent


def face_pages_pdf(deck_id: str, path: Path) -> tuple[int, tuple[float, float]]:
    """Write the PDF `deckgen images` rasterises (a page per face and back, 4 mm drawn bleed)."""
    sys.path.insert(0, str(ROOT))
    from generator.deck.loader import load_deck
    from generator.faces.raster import drawn_bleed_mm, face_pages
    from generator.deck.sizes import card_size_mm

    deck = load_deck(ROOT / "decks" / f"{deck_id}.toml")
    trim = card_size_mm(deck)
    faces = face_pages(deck, trim, 3.0, 300)
    path.write_bytes(faces.pdf)
    assert faces.bleed_mm == drawn_bleed_mm(3.0, 300)
    return len(faces.pages), trim


def content_bytes(pdf: Path) -> int:
    """Bytes of drawing in a PDF's form XObjects (each distinct card face or back), inflated."""
    data = pdf.read_bytes()
    total = 0
    for match in re.finditer(rb"<<((?:(?!>>\s*stream).)*?/Subtype /Form.*?)>>\s*stream\r?\n", data, re.S):
        length = int(re.search(rb"/Length (\d+)", match.group(1)).group(1))
        stream = data[match.end():match.end() + length]
        total += len(zlib.decompress(stream) if b"FlateDecode" in match.group(1) else stream)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deck", default="wizard")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    deckgen = deckgen_command()
    deck_file = ROOT / "decks" / f"{args.deck}.toml"
    with tempfile.TemporaryDirectory(prefix="bench-render-") as scratch:
        scratch = Path(scratch)
        pages_pdf = scratch / "faces.pdf"
        pages, trim = face_pages_pdf(args.deck, pages_pdf)
        out, images_out = scratch / "out", scratch / "images"
        floor_out, raster_out = scratch / "floor", scratch / "raster"
        warm_env = {**user_environment(), "XDG_CACHE_HOME": str(scratch / "cache")}
        cold_cache = scratch / "cold-cache"
        cold_env = {**user_environment(), "XDG_CACHE_HOME": str(cold_cache)}
        print_argv = deckgen + ["print", args.deck, "-o", str(out)]
        images_argv = deckgen + ["images", args.deck, "-o", str(images_out)]
        trim_option = ["--trim", f"{trim[0]:g}x{trim[1]:g}"]
        commands = {
            f"deckgen print {args.deck}": lambda: run(print_argv, env=warm_env),
            "floor: reportlab script": [sys.executable, str(HERE / "floor_print.py"), str(deck_file),
                                        str(scratch / "floor.pdf")],
            f"deckgen images {args.deck}": lambda: run(images_argv, env=warm_env),
            "floor: reportlab, pdfium, zlib-ng": [sys.executable, str(HERE / "floor_images.py"), "--deck",
                                                  str(deck_file), str(floor_out), *trim_option],
            "  rasterising deckgen's pages only": [sys.executable, str(HERE / "floor_images.py"), "--pdf",
                                                  str(pages_pdf), str(raster_out), *trim_option],
            f"deckgen print {args.deck}, empty cache": lambda: run(print_argv, env=cold_env),
            f"deckgen images {args.deck}, empty cache": lambda: run(images_argv, env=cold_env),
        }
        names = list(commands)
        folders = {names[0]: out, names[2]: images_out, names[3]: floor_out, names[4]: raster_out,
                   names[5]: out, names[6]: images_out}

        def clean(name: str) -> None:  # every run writes into an empty folder, as a first run does
            if name in folders:
                shutil.rmtree(folders[name], ignore_errors=True)
            if "empty cache" in name:
                shutil.rmtree(cold_cache, ignore_errors=True)

        series = interleaved(commands, args.rounds, before_each=clean)
        print(f"{args.rounds} interleaved rounds after one unmeasured, each command a fresh process; "
              f"deckgen = {' '.join(deckgen)}")
        print(table(series, {names[0]: names[1], names[2]: names[3], names[5]: names[1], names[6]: names[3]}))
        print(f"deckgen images / rasterising its pages only (the floor before drawing was counted): "
              f"{series[names[2]].cpu / series[names[4]].cpu:.2f}x CPU")
        sheets = next((out / args.deck).glob("*-print-*.pdf"))
        pngs = sorted((images_out / args.deck / "images").rglob("*.png"))
        floor_pngs = sorted(floor_out.glob("*.png"))
        print(f"outputs: print PDF {sheets.stat().st_size / 1024:.0f} KiB, {content_bytes(sheets) / 1024:.0f} KiB "
              f"of drawing (floor {(scratch / 'floor.pdf').stat().st_size / 1024:.0f} KiB, "
              f"{content_bytes(scratch / 'floor.pdf') / 1024:.0f} KiB); {len(pngs)} PNGs, "
              f"{sum(p.stat().st_size for p in pngs) / 2**20:.1f} MiB (floor: {len(floor_pngs)} pages, "
              f"{sum(p.stat().st_size for p in floor_pngs) / 2**20:.1f} MiB; deckgen's {pages}-page PDF)")
    print(load_line())


if __name__ == "__main__":
    main()
