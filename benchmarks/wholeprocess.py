"""Shared by the benchmarks: time whole processes the way a user waits for them.

A command runs as its own process (start-up, imports and fonts count, nothing is warm
from an earlier run), its CPU time (user + system, every thread, and every worker it
waited for) comes from wait4, and its peak memory is the largest single process's
ru_maxrss. Runs of the commands being compared are interleaved round by round, so each
sees the same machine load; figures are medians, compared as ratios. Byte-code is cached as
on a user's machine (PYTHONDONTWRITEBYTECODE is dropped from the children's environment:
without it every run would compile deckgen's modules from source).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def deckgen_command() -> list[str]:
    """The `deckgen` script beside this Python (as a user types it), else `python -m generator`."""
    script = Path(sys.executable).with_name("deckgen")
    if script.exists():
        return [str(script)]
    found = shutil.which("deckgen")
    return [found] if found else [sys.executable, "-m", "generator"]


@dataclass
class Sample:
    wall: float
    cpu: float
    peak_mib: float


@dataclass
class Series:
    """Every run of one command."""

    samples: list[Sample] = field(default_factory=list)

    def median(self, attribute: str) -> float:
        return statistics.median(getattr(sample, attribute) for sample in self.samples)

    @property
    def wall(self) -> float:
        return self.median("wall")

    @property
    def cpu(self) -> float:
        return self.median("cpu")

    @property
    def peak_mib(self) -> float:
        return max(sample.peak_mib for sample in self.samples)

    def spread(self, attribute: str = "wall") -> str:
        values = [getattr(sample, attribute) for sample in self.samples]
        return f"{min(values):.2f}-{max(values):.2f}"


def user_environment() -> dict[str, str]:
    """This environment as a user's shell has it: byte-code files written and used."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def run(argv: list[str], cwd: Path = ROOT, env: dict | None = None) -> Sample:
    """One whole process: wall and CPU seconds, peak memory; exits if the command failed."""
    env = user_environment() if env is None else env
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, argv))} exited {process.returncode}:\n{stderr.decode(errors='replace')}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def interleaved(commands: dict[str, "list[str] | callable"], rounds: int, warm_up: bool = True,
                before_each=None) -> dict[str, Series]:
    """Run every command once per round, in turn, `rounds` times. A command is an argv, or a
    callable returning a Sample. `before_each(name)` runs before each run, unmeasured (to empty
    an output folder, say). One unmeasured round first fills the file cache and byte-code."""
    series = {name: Series() for name in commands}

    def once(name: str) -> Sample:
        if before_each:
            before_each(name)
        command = commands[name]
        return command() if callable(command) else run(command)

    if warm_up:
        for name in commands:
            once(name)
    for _ in range(rounds):
        for name in commands:
            series[name].samples.append(once(name))
    return series


def load_line() -> str:
    one, five, fifteen = os.getloadavg()
    return (f"machine load average {one:.2f} / {five:.2f} / {fifteen:.2f} (1/5/15 min) on {os.cpu_count()} cores; "
            "the machine is shared, so wall times include waiting for a core")


def table(series: dict[str, Series], floors: dict[str, str] | None = None) -> str:
    """One row per command: median wall and CPU, spread, peak memory, and (for a command with a
    floor or peer named in `floors`) the ratios to it."""
    floors = floors or {}
    width = max(len(name) for name in series)
    lines = [f"{'command':<{width}} {'wall s':>7} {'spread':>11} {'CPU s':>7} {'peak MiB':>9}  ratio to floor or peer (wall, CPU)"]
    for name, each in series.items():
        line = (f"{name:<{width}} {each.wall:>7.3f} {each.spread():>11} {each.cpu:>7.3f} {each.peak_mib:>9.0f}")
        floor = floors.get(name)
        if floor:
            base = series[floor]
            line += f"  {each.wall / base.wall:.2f}x, {each.cpu / base.cpu:.2f}x  (vs {floor})"
        lines.append(line)
    return "\n".join(lines)
