"""`deckgen build` speed: a cold build of every deck at --jobs 1 and on every core, each step's
CPU time per deck, a no-op rebuild (nothing changed) against `deckgen --help`, and the peak
memory of the whole process tree.

Every build runs as its own `deckgen build --json` process, so each cold
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
sys.path.insert(0, str(Path(__file__).resolve().parent))
from wholeprocess import Sample, deckgen_command, run, user_environment  # noqa: E402


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
        command = deckgen_command() + ["build", "--output", str(output),
                   "--decks-dir", str(decks_dir), "--json", "--jobs", str(jobs)]
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, env=user_environment(), stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
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


def _help_run() -> "Sample":
    return run(deckgen_command() + ["--help"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds to take the medians of")
    parser.add_argument("--jobs", type=int, default=0,
                        help="decks built at once by the parallel builds (0: one per core)")
    parser.add_argument("--decks-dir", type=Path, default=ROOT / "decks")
    args = parser.parse_args()
    jobs = args.jobs or os.cpu_count() or 1
    decks_dir = args.decks_dir.resolve()
    cold: dict[int, list[Run]] = {1: [], jobs: []}
    warm: dict[int, list[Run]] = {1: [], jobs: []}
    helps: list = []
    loads: list[float] = []
    for _ in range(args.repeats):  # each round: --help, then per --jobs a cold build and a no-op rebuild
        helps.append(_help_run())
        for count in cold:
            loads.append(os.getloadavg()[0])
            with tempfile.TemporaryDirectory(prefix="bench-build-") as folder:
                output = Path(folder) / "output"
                cold[count].append(Run(output, decks_dir, count))
                warm[count].append(Run(output, decks_dir, count))
                rebuilt = {deck["deck"]: deck["built"] for deck in warm[count][-1].decks if deck["built"]}
                if rebuilt:
                    raise SystemExit(f"the no-op rebuild redid work: {rebuilt}")

    runs = cold[1]
    steps = list(dict.fromkeys(step for run in runs for deck in run.decks for step in deck["seconds"]))
    decks = [deck["deck"] for deck in runs[0].decks]
    help_wall, help_cpu = _median([h.wall for h in helps]), _median([h.cpu for h in helps])
    print(f"deckgen build of {len(decks)} decks, {args.repeats} interleaved rounds (deckgen --help, then for "
          f"--jobs 1 and --jobs {jobs}: a cold build and a no-op rebuild), each a fresh process, {os.cpu_count()} cores")
    for count in cold:
        c, w = cold[count], warm[count]
        print(f"--jobs {count}: cold build median wall {_median([r.wall for r in c]):.2f} s "
              f"(spread {min(r.wall for r in c):.2f}-{max(r.wall for r in c):.2f}), "
              f"CPU {_median([r.cpu for r in c]):.2f} s (all processes); "
              f"no-op rebuild wall {_median([r.wall for r in w]):.3f} s, CPU {_median([r.cpu for r in w]):.3f} s")
    if jobs != 1:
        ratio = _median([r.wall for r in cold[1]]) / _median([r.wall for r in cold[jobs]])
        print(f"--jobs {jobs} is {ratio:.2f}x faster in wall time than --jobs 1 (goal >= 1.8x on an idle machine)")
    noop = _median([r.wall for r in warm[1]])
    print(f"no-op rebuild (--jobs 1) / deckgen --help: wall {noop:.3f} / {help_wall:.3f} s = {noop / help_wall:.2f}x, "
          f"CPU {_median([r.cpu for r in warm[1]]):.3f} / {help_cpu:.3f} s = "
          f"{_median([r.cpu for r in warm[1]]) / help_cpu:.2f}x (goal <= 1.5x)")
    print(f"peak memory: process tree {max(r.tree_peak_mib for r in runs):.0f} MiB (--jobs 1; "
          f"{max(r.tree_peak_mib for r in cold[jobs]):.0f} MiB at --jobs {jobs}; PSS summed, sampled every 10 ms), "
          f"largest single process {max(r.largest_process_mib for r in runs):.0f} MiB (ru_maxrss)")
    print("\nmedian CPU seconds per step, --jobs 1 (wall in the step's process in brackets):")
    width = max(len(deck) for deck in decks + ["total"])
    print(f"{'deck':<{width}}" + "".join(f"{step:>16}" for step in steps) + f"{'sum':>10}")
    totals = {step: 0.0 for step in steps}
    for name in decks:
        row, deck_sum = f"{name:<{width}}", 0.0
        for step in steps:
            entries = [deck["seconds"][step] for run in runs for deck in run.decks
                       if deck["deck"] == name and step in deck["seconds"]]
            cpu, wall = _median([e["cpu"] for e in entries]), _median([e["wall"] for e in entries])
            totals[step] += cpu
            deck_sum += cpu
            row += f"{cpu:>8.2f} ({wall:5.2f})"
        print(row + f"{deck_sum:>10.2f}")
    print(f"{'total':<{width}}" + "".join(f"{totals[step]:>8.2f}{'':8}" for step in steps)
          + f"{sum(totals.values()):>10.2f}")
    print(f"\nload average (1 min) before each build: {min(loads):.1f}-{max(loads):.1f}, now "
          f"{', '.join(f'{v:.1f}' for v in os.getloadavg())} (1/5/15 min) on {os.cpu_count()} cores; the machine is "
          "shared with other work, so wall times and the --jobs ratio include waiting for a core")


if __name__ == "__main__":
    main()
