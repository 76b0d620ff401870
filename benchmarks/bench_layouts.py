"""Layouts vs the Python designs they replaced: drawing the 60-card Wizard print sheets.

Run: python benchmarks/bench_layouts.py [--base PATH] [--rounds N] [--repeats N]

`--base` is a checkout of the code before layouts (e.g. `git worktree add /tmp/layouts-base
<commit before layouts>`); default /tmp/layouts-base. Each round runs one child process per
side, interleaved (base, layouts, base, layouts, ...), so both see the same machine load.
A child draws the sheets once to warm up (fonts, imports), then for each of `repeats` draws
loads the deck afresh (untimed: layouts are parsed there, once per deck) and times drawing its
sheets; it reports the median CPU and wall time of the draws and its peak memory. The ratio is layouts / base of the medians over rounds (below 1:
layouts are faster).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, resource, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from generator.deck.loader import load_deck
from generator.faces import sheets
deck = load_deck(sys.argv[1] + "/decks/wizard.toml")
pdf = sheets.print_sheets(deck)
walls, cpus = [], []
for _ in range(int(sys.argv[2])):
    deck = load_deck(sys.argv[1] + "/decks/wizard.toml")
    wall, cpu = time.perf_counter(), time.process_time()
    pdf = sheets.print_sheets(deck)
    walls.append(time.perf_counter() - wall)
    cpus.append(time.process_time() - cpu)
print(json.dumps({"wall": statistics.median(walls), "cpu": statistics.median(cpus), "bytes": len(pdf),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run(code_root: Path, repeats: int) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(code_root), str(repeats)], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", type=Path, default=Path("/tmp/layouts-base"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    if not (options.base / "generator").is_dir():
        sys.exit(f"no checkout at {options.base}; make one with: git worktree add {options.base} <commit>")
    results: dict[str, list[dict]] = {"base": [], "layouts": []}
    for _ in range(options.rounds):
        results["base"].append(run(options.base, options.repeats))
        results["layouts"].append(run(ROOT, options.repeats))
    print(f"Wizard print sheets (60 cards, A4, 3 mm bleed), {options.rounds} rounds x {options.repeats} draws")
    medians = {}
    for side, rounds in results.items():
        medians[side] = {key: statistics.median(r[key] for r in rounds) for key in ("wall", "cpu", "peak_mb", "bytes")}
        m = medians[side]
        print(f"  {side:8} wall {m['wall'] * 1000:7.1f} ms   cpu {m['cpu'] * 1000:7.1f} ms   "
              f"peak {m['peak_mb']:6.1f} MB   pdf {m['bytes'] / 1024:6.1f} KiB")
    print(f"  ratio layouts/base of the medians: wall {medians['layouts']['wall'] / medians['base']['wall']:.2f}   "
          f"cpu {medians['layouts']['cpu'] / medians['base']['cpu']:.2f}")
    paired = [new["cpu"] / old["cpu"] for old, new in zip(results["base"], results["layouts"])]
    print(f"  cpu ratio per round (paired): median {statistics.median(paired):.2f}, "
          f"range {min(paired):.2f}-{max(paired):.2f}")


if __name__ == "__main__":
    main()
