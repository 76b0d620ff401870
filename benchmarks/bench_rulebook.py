"""`deckgen rulebook` as a user waits for it: one whole process per deck and format.

Run: python benchmarks/bench_rulebook.py [--rounds 3] [--decks wizard,...]
For each deck, `deckgen rulebook DECK` (PDF, HTML and Markdown with card pictures, what
`deckgen build` writes) and each format on its own (`--format pdf|html|md`: each typesets
the PDF, since the HTML and Markdown card pictures are cut out of it), every run a fresh
process into an empty folder, interleaved round by round with `deckgen --help` (the fixed
cost of starting deckgen at all) after one unmeasured round. Nothing is warm in a process,
but deckgen's cache folder ($XDG_CACHE_HOME/deckgen: the checked deck, parsed fonts,
hyphenation patterns, compiled templates) is the one the unmeasured round filled, as on a
user's machine after a first run; `rulebook DECK, empty cache` is that first run, with the
folder emptied before each run. Prints median wall and CPU seconds, the spread, the largest
process's peak memory, each command's ratio to `deckgen --help`, the page count and output
sizes, and the machine's load.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wholeprocess import ROOT, deckgen_command, interleaved, load_line, run, table, user_environment  # noqa: E402

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
        kept = {**user_environment(), "XDG_CACHE_HOME": str(out / "cache")}
        empty_cache = out / "empty-cache"
        empty = {**user_environment(), "XDG_CACHE_HOME": str(empty_cache)}

        def command(argv: list[str], env: dict):
            return lambda: run(argv, env=env)

        commands = {"deckgen --help": command(deckgen + ["--help"], kept)}
        folders: dict[str, Path] = {}
        for deck in decks:
            for fmt in ("all",) + FORMATS:
                name = f"rulebook {deck}" + ("" if fmt == "all" else f" --format {fmt}")
                folders[name] = out / f"{deck}-{fmt}"
                commands[name] = command(deckgen + ["rulebook", deck, "--format", fmt, "-o", str(folders[name])], kept)
            name = f"rulebook {deck}, empty cache"
            folders[name] = out / f"{deck}-empty"
            commands[name] = command(deckgen + ["rulebook", deck, "-o", str(folders[name])], empty)

        def clean(name: str) -> None:
            if name in folders:
                shutil.rmtree(folders[name], ignore_errors=True)
            if name.endswith("empty cache"):
                shutil.rmtree(empty_cache, ignore_errors=True)

        series = interleaved(commands, args.rounds, before_each=clean)
        print(f"{args.rounds} interleaved rounds after one unmeasured, each command a fresh process "
              f"(nothing warm but deckgen's cache folder, see above); deckgen = {' '.join(deckgen)}")
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
