"""How long pasting a deck's MUSH export takes on TinyMUX with its default command quota.

TinyMUX lets a player's burst of `command_quota_max` commands (100) through, then one more
each second. This pastes the export of a deck line by line as a MUD client does (all lines
sent at once), on a server started with the template's defaults, and times until the
export's last line has answered. Runs with plain Python: python benchmarks/mush_paste.py [DECK...]
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
from generator.loader import load_deck  # noqa: E402
from tests.mushserver import MushServer  # noqa: E402

DEFAULT_QUOTA = {}  # nothing replaced: TinyMUX's built-in quota (100 commands, then 1 per second)


def paste_seconds(server: MushServer, path: Path) -> tuple[float, int]:
    lines = [line for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]
    with server.client() as wizard:
        start = time.perf_counter()
        for line in lines:
            wizard.send_line(line)
        output = wizard.sync()
        elapsed = time.perf_counter() - start
    assert "Loaded the" in output and "FAILED" not in output, output[-500:]
    return elapsed, len(lines)


def main(deck_ids: list[str]) -> None:
    with tempfile.TemporaryDirectory() as out:
        for deck_id in deck_ids:
            deck = load_deck(deck_id, ROOT / "decks")
            [path] = export_mush(deck, Path(out) / deck.id)
            runs = []
            with MushServer(settings=DEFAULT_QUOTA) as server:
                for _run in range(3):  # a fresh connection each time: the quota is per player
                    seconds, lines = paste_seconds(server, path)
                    runs.append(seconds)
                    time.sleep(2)  # let the wizard's quota refill a little, as between real pastes
            print(f"{deck_id}: {deck.total} cards, {lines} pasted lines, median {statistics.median(runs):.2f} s"
                  f" (runs: {', '.join(f'{r:.2f}' for r in runs)})")
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak memory {peak_kb / 1024:.0f} MB")


if __name__ == "__main__":
    main(sys.argv[1:] or ["wizard", "quidditch-v2"])
