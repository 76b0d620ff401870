"""Each export of each deck as a user waits for it: Lackey, Tabletop Simulator, MUSH, Foundry,
the vtt room, Tabletop Playground, Card Game Simulator, and all of them together as `deckgen
build`'s exports step runs them; whole processes, cold.

Run: python benchmarks/bench_export.py [--rounds 3] [--deck ID]
Every run is a fresh process writing into an empty folder, interleaved round by round
after one unmeasured round:

- `deckgen export lackey|tts|mush|foundry|vtt|ttp|cgs DECK`, the commands as typed;
- "every export": a process that loads the deck and runs the build's exports step
  (`generator.export.write_all`: the faces are rasterised once and shared);
- "load only": the same process up to the export: Python, deckgen's export modules
  imported and the deck loaded, nothing exported. What an export costs beyond it is the
  export's own work.

Prints median wall and CPU seconds, spread, the largest process's peak memory (ru_maxrss),
each row's ratio to "load only", the output sizes, and the machine's load.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wholeprocess import ROOT, deckgen_command, interleaved, load_line, table  # noqa: E402


def child(deck_path: str, what: str, out: str) -> None:
    """In a fresh process: load the deck, then run the exports step (what = all) or nothing."""
    sys.path.insert(0, str(ROOT))
    from generator import export
    from generator.export import lackey, tts  # noqa: F401 - imported as the exports step imports them
    from generator.deck.loader import load_deck

    deck = load_deck(Path(deck_path))
    if what == "all":
        export.write_all(deck, Path(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deck", help="only this deck id")
    parser.add_argument("--child", nargs=3, metavar=("DECK_PATH", "WHAT", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    decks = [path for path in sorted((ROOT / "decks").glob("*.toml")) if args.deck in (None, path.stem)]
    deckgen = deckgen_command()
    with tempfile.TemporaryDirectory(prefix="bench-export-") as scratch:
        commands: dict[str, list[str]] = {}
        folders: dict[str, Path] = {}
        floors: dict[str, str] = {}
        for path in decks:
            deck = path.stem
            base = f"{deck}: load only"
            for what in ("load", "lackey", "tts", "mush", "foundry", "vtt", "ttp", "cgs", "all"):
                name = base if what == "load" else f"{deck}: " + ("every export" if what == "all" else f"export {what}")
                folders[name] = Path(scratch) / f"{deck}-{what}"
                if what in ("load", "all"):
                    commands[name] = [sys.executable, __file__, "--child", str(path), what, str(folders[name])]
                else:
                    commands[name] = deckgen + ["export", what, deck, "-o", str(folders[name])]
                if name != base:
                    floors[name] = base

        def clean(name: str) -> None:
            shutil.rmtree(folders[name], ignore_errors=True)

        series = interleaved(commands, args.rounds, before_each=clean)
        print(f"{args.rounds} interleaved rounds after one unmeasured, each run a fresh process (cold); "
              f"deckgen = {' '.join(deckgen)}")
        print(table(series, floors))
        print()
        for name, folder in folders.items():
            if name in floors:
                written = [p for p in folder.rglob("*") if p.is_file()]
                print(f"{name}: {len(written)} files, {sum(p.stat().st_size for p in written) / 1024:.0f} KiB")
    print(load_line())


if __name__ == "__main__":
    main()
