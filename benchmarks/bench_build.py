"""`deckgen build` speed: a cold build of every deck, each step's CPU time per deck, a warm
rebuild (nothing changed), and the peak memory of the whole process tree.

Every build runs as its own `python -m generator build --json` process, so each cold
build starts with nothing imported or cached, as a designer's does. CPU time (all
processes and threads) is printed beside wall-clock time: on a shared machine the wall
clock grows with whatever else runs, CPU time much less.

Run: python benchmarks/bench_build.py [--repeats N] [--jobs J] [--decks-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tree_pss_kib(root: int) -> int:
    """Memory of `root` and every process below it, summed (from /proc). PSS, not RSS: forked
    workers share their parent's pages, and RSS would count those once per process."""
    total, pending = 0, [root]
    while pending:
        pid = pending.pop()
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
            total += int(rollup.split("Pss:", 1)[1].split()[0])
            for task in Path(f"/proc/{pid}/task").iterdir():
                pending.extend(int(child) for child in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue  # the process ended while we looked
    return total


class Run:
    """One `deckgen build` process: wall and CPU seconds, peak memory, its --json report."""

    def __init__(self, output: Path, decks_dir: Path, jobs: int):
        command = [sys.executable, "-m", "generator", "build", "--output", str(output),
                   "--decks-dir", str(decks_dir), "--json", "--jobs", str(jobs)]
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.01):
                peak[0] = max(peak[0], _tree_pss_kib(process.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        stdout, stderr = process.stdout.read(), process.stderr.read()
        # wait4 reports the build process plus every worker it waited for.
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        self.wall = time.perf_counter() - start
        done.set()
        sampler.join()
        if process.returncode != 0:
            raise SystemExit(f"build failed ({process.returncode}):\n{stderr.decode()}")
        self.cpu = usage.ru_utime + usage.ru_stime
        self.largest_process_mib = usage.ru_maxrss / 1024
        self.tree_peak_mib = peak[0] / 1024
        self.decks = json.loads(stdout)


def _median(values) -> float:
    return statistics.median(values) if values else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3, help="cold builds (and warm rebuilds) to take the median of")
    parser.add_argument("--jobs", type=int, default=0, help="decks built at once (0: one per core)")
    parser.add_argument("--decks-dir", type=Path, default=ROOT / "decks")
    args = parser.parse_args()

    cold: list[Run] = []
    warm: list[Run] = []
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory(prefix="bench-build-") as folder:
            output = Path(folder) / "output"
            cold.append(Run(output, args.decks_dir.resolve(), args.jobs))
            warm.append(Run(output, args.decks_dir.resolve(), args.jobs))
            rebuilt = {deck["deck"]: deck["built"] for deck in warm[-1].decks if deck["built"]}
            if rebuilt:
                raise SystemExit(f"the warm rebuild redid work: {rebuilt}")

    steps = list(dict.fromkeys(step for run in cold for deck in run.decks for step in deck["seconds"]))
    decks = [deck["deck"] for deck in cold[0].decks]
    print(f"deckgen build of {len(decks)} decks, {args.repeats} cold builds + {args.repeats} warm rebuilds, "
          f"--jobs {args.jobs or 'one per core'} on {os.cpu_count()} cores")
    print(f"cold build:   median wall {_median([r.wall for r in cold]):.2f} s, "
          f"CPU {_median([r.cpu for r in cold]):.2f} s (all processes)")
    print(f"warm rebuild: median wall {_median([r.wall for r in warm]):.2f} s, "
          f"CPU {_median([r.cpu for r in warm]):.2f} s")
    print(f"peak memory:  process tree {max(r.tree_peak_mib for r in cold):.0f} MiB (PSS summed, sampled every 10 ms), "
          f"largest single process {max(r.largest_process_mib for r in cold):.0f} MiB (ru_maxrss)")
    print("\nmedian CPU seconds per step (wall in the step's process in brackets):")
    width = max(len(deck) for deck in decks + ["total"])
    print(f"{'deck':<{width}}" + "".join(f"{step:>16}" for step in steps) + f"{'sum':>10}")
    totals = {step: 0.0 for step in steps}
    for name in decks:
        row, deck_sum = f"{name:<{width}}", 0.0
        for step in steps:
            entries = [deck["seconds"][step] for run in cold for deck in run.decks
                       if deck["deck"] == name and step in deck["seconds"]]
            cpu, wall = _median([e["cpu"] for e in entries]), _median([e["wall"] for e in entries])
            totals[step] += cpu
            deck_sum += cpu
            row += f"{cpu:>8.2f} ({wall:5.2f})"
        print(row + f"{deck_sum:>10.2f}")
    print(f"{'total':<{width}}" + "".join(f"{totals[step]:>8.2f}{'':8}" for step in steps)
          + f"{sum(totals.values()):>10.2f}")
    print(f"\nload average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
