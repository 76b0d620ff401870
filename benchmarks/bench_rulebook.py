"""`deckgen rulebook` as a user waits for it: one whole process per deck and format, cold.

Run: python benchmarks/bench_rulebook.py [--rounds 3] [--decks wizard,...]
For each deck, `deckgen rulebook DECK` (PDF, HTML and Markdown with card pictures, what
`deckgen build` writes) and each format on its own (`--format pdf|html|md`: each typesets
the PDF, since the HTML and Markdown card pictures are cut out of it), every run a fresh
process into an empty folder, interleaved round by round with `deckgen --help` (the fixed
cost of starting deckgen at all) after one unmeasured round. Prints median wall and CPU
seconds, the spread, the largest process's peak memory, each command's ratio to
`deckgen --help`, the page count and output sizes, and the machine's load.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wholeprocess import ROOT, deckgen_command, interleaved, load_line, table  # noqa: E402

FORMATS = ("pdf", "html", "md")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--decks", default="", help="comma-separated deck ids (default: every deck)")
    args = parser.parse_args()
    wanted = [deck for deck in args.decks.split(",") if deck]
    decks = [path.stem for path in sorted((ROOT / "decks").glob("*.toml")) if not wanted or path.stem in wanted]
    deckgen = deckgen_command()
    with tempfile.TemporaryDirectory(prefix="bench-rulebook-") as scratch:
        out = Path(scratch)
        commands: dict[str, list[str]] = {"deckgen --help": deckgen + ["--help"]}
        folders: dict[str, Path] = {}
        for deck in decks:
            for fmt in ("all",) + FORMATS:
                name = f"rulebook {deck}" + ("" if fmt == "all" else f" --format {fmt}")
                folders[name] = out / f"{deck}-{fmt}"
                commands[name] = deckgen + ["rulebook", deck, "--format", fmt, "-o", str(folders[name])]

        def clean(name: str) -> None:
            if name in folders:
                shutil.rmtree(folders[name], ignore_errors=True)

        series = interleaved(commands, args.rounds, before_each=clean)
        print(f"{args.rounds} interleaved rounds after one unmeasured, each command a fresh process "
              f"(cold: imports, fonts and templates load every run); deckgen = {' '.join(deckgen)}")
        print(table(series, {name: "deckgen --help" for name in commands if name != "deckgen --help"}))
        print()
        for deck in decks:
            folder = folders[f"rulebook {deck}"] / deck
            sizes = ", ".join(f"{fmt} {(folder / f'{deck}-rules.{fmt}').stat().st_size / 1024:.0f} KiB"
                              for fmt in FORMATS)
            pictures = sum(path.stat().st_size for path in folder.rglob("*.png"))
            print(f"{deck}: {_pages(folder / f'{deck}-rules.pdf')} pages; {sizes}, card pictures "
                  f"{pictures / 1024:.0f} KiB")
    print(load_line())


def _pages(pdf: Path) -> int:
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


if __name__ == "__main__":
    main()
