"""`deckgen build` speed: at --jobs 1 and on every core, a first build (empty output and cache
folders, as on a designer's first run), a cold build (empty output folder, the cache folder
warm: parsed decks, fonts, hyphenation patterns and templates kept by earlier runs), a rebuild
after one deck's edit (the others up to date: a designer's usual build) and a no-op rebuild
(nothing changed); each step's CPU time per deck; the peak memory of the process tree.

Beside the parallel build's ratio it prints the most that ratio could be in the same rounds:
--jobs 1's wall time over the shortest --jobs N could take with its measured CPU time, were
every core busy from the moment the build's serial start (the interpreter, the command line,
the imports and fonts the workers share, measured as a process of its own) ends.

Every build runs as its own `deckgen build --json` process, as a designer's does. CPU time (all
processes and threads) is printed beside wall-clock time: on a shared machine the wall
clock grows with whatever else runs, CPU time much less.

The no-op rebuild is then timed again, many times, interleaved with its peers: `deckgen --help`
as it is served (the help kept from an earlier run: the issue's yardstick), `python -c pass`
(the floor of any Python command), and the typer app's own --help and no-op rebuild (every
command's cost before the quick entry point). `--against CHECKOUT` (e.g. `git worktree add
--detach /tmp/base main`) adds that checkout's rebuild after the edit, no-op rebuild and --help
to the same rounds, run with it first on PYTHONPATH, on outputs and a cache folder of its own:
before and after under the same load. The cache folders are the benchmark's own, never the user's.

Run: python benchmarks/bench_build.py [--repeats N] [--quick-repeats N] [--jobs J] [--decks-dir DIR]
                                      [--edited DECK] [--against CHECKOUT]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from wholeprocess import deckgen_command, interleaved, run, table, user_environment  # noqa: E402


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
    """One `deckgen build` process: wall and CPU seconds, its --json report, and with
    `sample_memory` the peak memory of its process tree. Sampling /proc every 10 ms costs
    more than a second of CPU a build, competing with the workers for the cores, so timed
    builds do not sample: the memory figures come from builds of their own."""

    def __init__(self, output: Path, decks_dir: Path, jobs: int, env: dict[str, str], sample_memory: bool = False):
        command = deckgen_command() + ["build", "--output", str(output),
                                       "--decks-dir", str(decks_dir), "--json", "--jobs", str(jobs)]
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.01):
                peak[0] = max(peak[0], _tree_pss_kib(process.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        if sample_memory:
            sampler.start()
        stdout, stderr = process.stdout.read(), process.stderr.read()
        # wait4 reports the build process plus every worker it waited for.
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        self.wall = time.perf_counter() - start
        done.set()
        if sample_memory:
            sampler.join()
        if process.returncode != 0:
            raise SystemExit(f"build failed ({process.returncode}):\n{stderr.decode()}")
        self.cpu = usage.ru_utime + usage.ru_stime
        self.largest_process_mib = usage.ru_maxrss / 1024
        self.tree_peak_mib = peak[0] / 1024
        self.decks = json.loads(stdout)


def _median(values) -> float:
    return statistics.median(values) if values else 0.0


def _nothing_rebuilt(build: Run) -> Run:
    rebuilt = {deck["deck"]: deck["built"] for deck in build.decks if deck["built"]}
    if rebuilt:
        raise SystemExit(f"the no-op rebuild redid work: {rebuilt}")
    return build


# The typer app itself (generator.cli.app.main), what every command ran through before the quick
# entry point; -P: the installed deckgen, as the script runs it.
TYPER_MAIN = [sys.executable, "-P", "-c", "import sys; from generator.cli.app import main; sys.argv[0] = 'deckgen'; main()"]
# What a parallel build does before its first worker starts: the typer app, the build module,
# and the libraries and fonts it loads once for every worker.
SERIAL_START = [sys.executable, "-P", "-c", "import generator.cli.app, generator.build.run as build; build._preload()"]


def _edit(deck: Path, round_: int) -> None:
    """A change that rebuilds every step of the deck and nothing of the others: a comment."""
    with deck.open("a", encoding="utf-8") as handle:
        handle.write(f"# edited for round {round_}\n")


def _only_rebuilt(build: Run, deck_id: str) -> Run:
    rebuilt = [deck["deck"] for deck in build.decks if deck["built"]]
    if rebuilt != [deck_id]:
        raise SystemExit(f"after editing {deck_id}, the build rebuilt {rebuilt}")
    return build


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds of builds to take the medians of")
    parser.add_argument("--quick-repeats", type=int, default=15,
                        help="interleaved rounds of the no-op rebuild and its peers (each a fraction of a second)")
    parser.add_argument("--jobs", type=int, default=0,
                        help="decks built at once by the parallel builds (0: one per core)")
    parser.add_argument("--decks-dir", type=Path, default=ROOT / "decks")
    parser.add_argument("--edited", default="wizard",
                        help="the deck (file name without .toml) edited before the one-deck rebuilds")
    parser.add_argument("--against", type=Path,
                        help="a checkout of older deckgen: its rebuild after the edit, no-op rebuild and --help too, "
                             "in the same rounds")
    args = parser.parse_args()
    jobs = args.jobs or os.cpu_count() or 1
    decks_dir = args.decks_dir.resolve()
    against = args.against.resolve() if args.against else None
    if against is not None and not (against / "generator" / "build.py").is_file():
        raise SystemExit(f"--against {args.against}: not a deckgen checkout")
    first: dict[int, list[Run]] = {1: [], jobs: []}  # output and cache folders empty: a designer's first run
    cold: dict[int, list[Run]] = {1: [], jobs: []}  # the output folder empty, the cache folder warm
    warm: dict[int, list[Run]] = {1: [], jobs: []}
    edited: dict[int, list[Run]] = {1: [], jobs: []}  # one deck changed, the others up to date
    edited_before: dict[int, list[Run]] = {1: [], jobs: []}  # the same, by the --against checkout
    serial_start: list[float] = []
    loads: list[float] = []
    if not (decks_dir / f"{args.edited}.toml").is_file():
        raise SystemExit(f"--edited {args.edited}: no {args.edited}.toml in {decks_dir}")
    with tempfile.TemporaryDirectory(prefix="bench-build-") as scratch:
        def environment(cache: str, extra: dict[str, str] | None = None) -> dict[str, str]:
            return {**user_environment(), "XDG_CACHE_HOME": str(Path(scratch) / cache), **(extra or {})}

        # Unmeasured: the cache folder as every run but a designer's first finds it (decks, parsed
        # fonts, hyphenation patterns, compiled templates, deck ids, the help).
        Run(Path(scratch) / "warm-up", decks_dir, jobs, environment("cache"))
        run(deckgen_command() + ["--help"], env=environment("cache"))
        decks_copy = Path(scratch) / "decks"  # edited here, never in the decks folder itself
        shutil.copytree(decks_dir, decks_copy)
        edited_id = json.loads(subprocess.run(deckgen_command() + ["show", str(decks_copy / f"{args.edited}.toml"),
                                                                   "--json"], env=environment("cache"),
                                              capture_output=True, check=True).stdout)["id"]
        # The older checkout on outputs and a cache folder of its own (its code's stamps are others).
        before = environment("cache-before", {"PYTHONPATH": str(against)}) if against is not None else None
        for count in cold:
            Run(Path(scratch) / f"edited-{count}", decks_copy, count, environment("cache"))
            if before is not None:
                Run(Path(scratch) / f"edited-before-{count}", decks_copy, count, before)
        for round_ in range(args.repeats):  # each round, per --jobs: a first build, a cold build, a no-op rebuild
            for count in cold:
                loads.append(os.getloadavg()[0])
                first[count].append(Run(Path(scratch) / f"first-{round_}-{count}", decks_dir, count,
                                        environment(f"empty-{round_}-{count}")))
                output = Path(scratch) / f"output-{count}"
                shutil.rmtree(output, ignore_errors=True)
                cold[count].append(Run(output, decks_dir, count, environment("cache")))
                warm[count].append(_nothing_rebuilt(Run(output, decks_dir, count, environment("cache"))))
            _edit(decks_copy / f"{args.edited}.toml", round_)
            for count in cold:
                edited[count].append(_only_rebuilt(Run(Path(scratch) / f"edited-{count}", decks_copy, count,
                                                       environment("cache")), edited_id))
                if before is not None:
                    edited_before[count].append(_only_rebuilt(Run(Path(scratch) / f"edited-before-{count}",
                                                                  decks_copy, count, before), edited_id))
            serial_start.append(run(SERIAL_START, env=environment("cache")).cpu)
        memory = {count: Run(Path(scratch) / f"memory-{count}", decks_dir, count, environment("cache"),
                             sample_memory=True) for count in cold}  # cold builds, not timed
        build = ["build", "--output", str(Path(scratch) / "output-1"), "--decks-dir", str(decks_dir), "--json",
                 "--jobs", "1"]
        cache = environment("cache")
        quick = {
            "no-op rebuild (--jobs 1)": deckgen_command() + build,
            "no-op rebuild, typer app": TYPER_MAIN + build,
            "deckgen --help (as served)": deckgen_command() + ["--help"],
            "deckgen --help, typer app": TYPER_MAIN + ["--help"],
            "python -c pass": [sys.executable, "-c", "pass"],
        }
        commands = {name: (lambda argv=argv: run(argv, env=cache)) for name, argv in quick.items()}
        if before is not None:
            Run(Path(scratch) / "output-before", decks_dir, jobs, before)
            old_build = [*build[:2], str(Path(scratch) / "output-before"), *build[3:]]
            commands["  before: no-op rebuild (--jobs 1)"] = lambda: run(deckgen_command() + old_build, env=before)
            commands["  before: deckgen --help"] = lambda: run(deckgen_command() + ["--help"], env=before)
        quick_loads = [os.getloadavg()[0]]
        series = interleaved(commands, args.quick_repeats)
        quick_loads.append(os.getloadavg()[0])

    runs = cold[1]
    steps = list(dict.fromkeys(step for run_ in runs for deck in run_.decks for step in deck["seconds"]))
    decks = [deck["deck"] for deck in runs[0].decks]
    print(f"deckgen build of {len(decks)} decks, {args.repeats} interleaved rounds (for --jobs 1 and --jobs {jobs}: "
          f"a first build, a cold build, a no-op rebuild), each a fresh process, {os.cpu_count()} cores; "
          "CPU of all its processes")
    for count in cold:
        print(f"--jobs {count}:")
        for name, each in (("first build (empty output and cache folders)", first[count]),
                           ("cold build (empty output folder, warm cache)", cold[count]),
                           (f"{args.edited} edited, the rest up to date", edited[count]),
                           (f"  before: {args.edited} edited", edited_before[count]),
                           ("no-op rebuild (nothing changed)", warm[count])):
            if not each:  # a "before" row without --against
                continue
            print(f"  {name:<46} wall {_median([r.wall for r in each]):6.3f} s "
                  f"(spread {min(r.wall for r in each):.3f}-{max(r.wall for r in each):.3f}), "
                  f"CPU {_median([r.cpu for r in each]):6.3f} s")
    if jobs != 1:
        start = _median(serial_start)
        for name, each in (("first", first), ("cold", cold)):
            one, many = _median([r.wall for r in each[1]]), _median([r.wall for r in each[jobs]])
            # The shortest wall time --jobs N's CPU allows: its serial start, then every core busy.
            shortest = start + (_median([r.cpu for r in each[jobs]]) - start) / jobs
            print(f"--jobs {jobs} is {one / many:.2f}x faster in wall time than --jobs 1 ({name} build; goal >= 1.8x "
                  f"on an idle machine); at most {one / shortest:.2f}x with its CPU time and a serial start of "
                  f"{start:.3f} s CPU")
        ratio = _median([r.wall for r in edited[1]]) / _median([r.wall for r in edited[jobs]])
        print(f"--jobs {jobs} is {ratio:.2f}x faster in wall time than --jobs 1 after {args.edited}'s edit (one deck "
              "to build: its validation and rulebook run in helper processes beside its drawing)")
        if against is not None:
            ratio = _median([r.wall for r in edited_before[jobs]]) / _median([r.wall for r in edited[jobs]])
            print(f"after {args.edited}'s edit, --jobs {jobs} is {ratio:.2f}x faster in wall time than before")
    print(f"\nthe no-op rebuild and its peers, {args.quick_repeats} interleaved rounds, medians (load "
          f"{quick_loads[0]:.2f} before them, {quick_loads[1]:.2f} after):")
    print(table(series))
    noop = series["no-op rebuild (--jobs 1)"]
    peers = ["deckgen --help (as served)", "python -c pass", "deckgen --help, typer app", "no-op rebuild, typer app"]
    for peer in peers + (["  before: no-op rebuild (--jobs 1)"] if against else []):
        other = series[peer]
        goal = " (the issue's goal: <= 1.5x)" if peer == peers[0] else ""
        print(f"no-op rebuild / {peer.strip()}: wall {noop.wall / other.wall:.2f}x, "
              f"CPU {noop.cpu / other.cpu:.2f}x{goal}")
    print(f"peak memory of a cold build (a build of its own, not timed): process tree {memory[1].tree_peak_mib:.0f} MiB "
          f"(--jobs 1; {memory[jobs].tree_peak_mib:.0f} MiB at --jobs {jobs}; PSS summed, sampled every 10 ms), "
          f"largest single process {max(r.largest_process_mib for r in runs):.0f} MiB (ru_maxrss of the timed builds)")
    print("\nmedian CPU seconds per step, --jobs 1 cold build (wall in the step's process in brackets):")
    width = max(len(deck) for deck in decks + ["total"])
    print(f"{'deck':<{width}}" + "".join(f"{step:>16}" for step in steps) + f"{'sum':>10}")
    totals = {step: 0.0 for step in steps}
    for name in decks:
        row, deck_sum = f"{name:<{width}}", 0.0
        for step in steps:
            entries = [deck["seconds"][step] for run_ in runs for deck in run_.decks
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
