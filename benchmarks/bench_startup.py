"""Start-up cost of the quick commands, against bare Python, whole process.

Run: python benchmarks/bench_startup.py [--repeats 11]
Each command runs as a user types it (the `deckgen` script next to this Python, falling back
to `python -m generator`), interleaved with `python -c pass` round by round so both see the
same machine load. CPU time (user + system) of the child process is what is compared, with
wall time beside it; medians over the repeats and each command's ratio to bare Python
(goal: <= 2.5x for list, show, rule and referee of one log).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def deckgen_command() -> list[str]:
    script = Path(sys.executable).with_name("deckgen")
    if script.exists():
        return [str(script)]
    found = shutil.which("deckgen")
    return [found] if found else [sys.executable, "-m", "generator"]


def commands() -> dict[str, list[str]]:
    deckgen = deckgen_command()
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "deckgen --version": deckgen + ["--version"],
        "deckgen --help": deckgen + ["--help"],
        "deckgen list": deckgen + ["list"],
        "deckgen show wizard": deckgen + ["show", "wizard"],
        "deckgen rule wizard trick": deckgen + ["rule", "wizard", "trick", "--trump", "hearts",
                                                "North", "JE", "East", "5C", "South", "KC", "West", "2H"],
        "deckgen referee wizard (one log)": deckgen + ["referee", "wizard", "examples/wizard-4p.toml"],
    }


def run_once(argv: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one whole child process."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {process.returncode}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=11)
    args = parser.parse_args()
    table = commands()
    cpu: dict[str, list[float]] = {name: [] for name in table}
    wall: dict[str, list[float]] = {name: [] for name in table}
    for name, argv in table.items():  # warm the file cache and byte-code once, unmeasured
        run_once(argv)
    for _ in range(args.repeats):
        for name, argv in table.items():
            seconds_cpu, seconds_wall = run_once(argv)
            cpu[name].append(seconds_cpu)
            wall[name].append(seconds_wall)
    base_cpu = statistics.median(cpu["python -c pass"])
    base_wall = statistics.median(wall["python -c pass"])
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.repeats} interleaved rounds; "
          f"deckgen = {' '.join(deckgen_command())}")
    print(f"{'command':<34} {'CPU ms':>8} {'ratio':>6} {'wall ms':>8} {'ratio':>6}")
    for name in table:
        median_cpu = statistics.median(cpu[name])
        median_wall = statistics.median(wall[name])
        print(f"{name:<34} {median_cpu * 1e3:>8.0f} {median_cpu / base_cpu:>5.1f}x "
              f"{median_wall * 1e3:>8.0f} {median_wall / base_wall:>5.1f}x")


if __name__ == "__main__":
    main()
