"""How long pasting a deck's MUSH export takes on TinyMUX with its default command quota.

TinyMUX lets a player's burst of `command_quota_max` commands (100) through, then one more
each second. This pastes the export of a deck line by line as a MUD client does (all lines
sent at once), on a server started with the template's defaults, and times until the
export's last line has answered. Runs with plain Python:

    python benchmarks/mush_paste.py [DECK...]          this checkout's export of each deck
    python benchmarks/mush_paste.py --file PATH...     any MUSH file (say, an older export)
"""

from __future__ import annotations

import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.export import export_mush  # noqa: E402
from generator.deck.loader import load_deck  # noqa: E402
from tests.mushserver import MushServer  # noqa: E402

DEFAULT_QUOTA = {}  # nothing replaced: TinyMUX's built-in quota (100 commands, then 1 per second)


def paste_seconds(server: MushServer, path: Path) -> tuple[float, int]:
    lines = [line for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]
    with server.client(timeout=600.0) as wizard:  # a throttled paste takes minutes
        start = time.perf_counter()
        for line in lines:
            wizard.send_line(line)
        output = wizard.sync()
        elapsed = time.perf_counter() - start
    assert "Loaded the" in output and "FAILED" not in output, output[-500:]
    return elapsed, len(lines)


def measure(label: str, path: Path, runs: int) -> None:
    times = []
    for _run in range(runs):
        with MushServer(settings=DEFAULT_QUOTA) as server:  # a fresh server: a full quota each run
            seconds, lines = paste_seconds(server, path)
        times.append(seconds)
    print(f"{label}: {lines} pasted lines, median {statistics.median(times):.2f} s"
          f" (runs: {', '.join(f'{t:.2f}' for t in times)})", flush=True)


def main(arguments: list[str]) -> None:
    if arguments[:1] == ["--file"]:
        for name in arguments[1:]:
            measure(name, Path(name), runs=1)  # an old export takes minutes a run
        return
    with tempfile.TemporaryDirectory() as out:
        for deck_id in arguments:
            deck = load_deck(deck_id, ROOT / "decks")
            [path] = export_mush(deck, Path(out) / deck.id)
            measure(f"{deck_id} ({deck.total} cards)", path, runs=3)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak memory {peak_kb / 1024:.0f} MB")


if __name__ == "__main__":
    main(sys.argv[1:] or ["wizard", "quidditch-v2"])
