"""Start-up cost of the quick commands, against bare Python, whole process.

Run: python benchmarks/bench_startup.py [--repeats 11] [--against CHECKOUT] [--warm-only]
Each command runs as a user types it (the `deckgen` script next to this Python, falling back
to `python -m generator`), interleaved with `python -c pass` round by round so all see the
same machine load. CPU time (user + system) of the child process is what is compared, with
wall time and peak memory beside it; medians over the repeats and each command's ratio to bare
Python, and whether each command's median wall time is within the 150 ms budget of issue 30
(--version, list, show, rule and referee of one log).

Every deck command is measured three times: warm (its decks already in the deck cache, as on
every run but a deck's first), edited (no deck in the cache, but the shipped layouts kept
there by an earlier run: a deck's first run after an edit) and cold (an empty cache folder
each run, as on a user's first run or the first after deckgen changed: load, check and write
it all). `--help` warm and cold alike (typer prints it). `build, nothing to do` is a
`deckgen build --jobs 1` of the shipped decks into an output folder the first (unmeasured)
run filled. Neither touches the user's own cache. A plain typer app with a no-op command is
measured beside them: the floor any typer command line pays.

The header says whether deckgen is an editable install (README's `pip install -e .`), where
every Python start in the venv, bare Python included, also runs setuptools' import hook, or
installed from a wheel, where bare Python imports nearly nothing: ratios are higher there.

`--against CHECKOUT` (a checkout of older deckgen, e.g. `git worktree add --detach /tmp/base
main`) runs every deckgen command a second time with that checkout first on PYTHONPATH, in
the same rounds, and prints its figures beside: before and after, under the same load.
Byte-code is written and used as on a user's machine (pip compiles it on install): the
children run without PYTHONDONTWRITEBYTECODE even when this shell sets it, and one unmeasured
run of each command warms the file cache, the byte-code and the warm deck cache first.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from wholeprocess import deckgen_command  # noqa: E402

# The floor of any typer command line: an app with one command that does nothing.
PLAIN_TYPER = ("import typer; app = typer.Typer(add_completion=False)\n"
               "@app.command()\ndef noop(): pass\n@app.command()\ndef other(): pass\napp()")
BUDGET_MS = 150  # issue 30: each quick command at most this, wall, on the 2-core machine
DECK_COMMANDS: dict[str, list[str]] = {
    "list": ["list"],
    "show wizard": ["show", "wizard"],
    "rule wizard trick": ["rule", "wizard", "trick", "--trump", "hearts",
                          "North", "JE", "East", "5C", "South", "KC", "West", "2H"],
    "referee wizard (one log)": ["referee", "wizard", "examples/wizard-4p.toml"],
}
NOOP_BUILD = "build, nothing to do"


def runs(against: Path | None, scratch: Path, warm_only: bool = False) -> dict[str, tuple[list[str], str, dict[str, str]]]:
    """name -> (argv, cache: "warm", "edited", "cold" or "" for none, environment to add)."""
    deckgen = deckgen_command()
    commands = {"--version": (["--version"], ""), "--help": (["--help"], "warm"), "--help [cold]": (["--help"], "cold")}
    for name, words in DECK_COMMANDS.items():
        commands[name] = (words, "warm")
        if not warm_only:
            commands[f"{name} [edited]"] = (words, "edited")
            commands[f"{name} [cold]"] = (words, "cold")
    # Every deck built by the unmeasured first run (its own output folder for the older code,
    # whose code stamp is another): the measured runs have nothing to do.
    commands[NOOP_BUILD] = (["build", "--output", "{output}", "--jobs", "1"], "warm")
    table: dict[str, tuple[list[str], str, dict[str, str]]] = {"python -c pass": ([sys.executable, "-c", "pass"], "", {})}
    # Against an older checkout both run as `python -m generator`: the installed script's entry
    # point names this checkout's module, which the older one may not have.
    module = [sys.executable, "-P", "-m", "generator"]  # -P: PYTHONPATH, not the working folder, decides
    for name, (words, cache) in commands.items():
        table[f"deckgen {name}"] = ((module if against else deckgen) + _output(words, scratch / "output"), cache,
                                    {"PYTHONPATH": str(ROOT)} if against else {})
        if against is not None:
            table[f"  before: deckgen {name}"] = (module + _output(words, scratch / "output-before"), cache,
                                                  {"PYTHONPATH": str(against)})
    table["plain typer: a no-op command"] = ([sys.executable, "-c", PLAIN_TYPER, "noop"], "", {})
    return table


def _output(words: list[str], folder: Path) -> list[str]:
    return [str(folder) if word == "{output}" else word for word in words]


def run_once(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, peak resident kB) of one whole child process."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {code}")
    if code == 1 and "referee" not in argv and "rule" not in argv:
        raise SystemExit(f"{' '.join(argv)} exited 1: a failing command measures nothing")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--against", type=Path, help="a checkout of older deckgen to compare with, interleaved")
    parser.add_argument("--warm-only", action="store_true", help="only the warm runs (the ones the budget is for)")
    args = parser.parse_args()
    against = args.against.resolve() if args.against else None
    if against is not None and not (against / "generator" / "__main__.py").is_file():
        raise SystemExit(f"--against {args.against}: not a deckgen checkout (no generator/__main__.py)")
    base_env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="deckgen-bench-") as scratch:
        table = runs(against, Path(scratch), args.warm_only)
        warm_env = {**base_env, "XDG_CACHE_HOME": str(Path(scratch) / "warm")}

        def env_for(cache: str, extra: dict[str, str]) -> dict[str, str]:
            # The older checkout keeps its own warm cache: entries name the code that wrote them.
            warm = {**warm_env, "XDG_CACHE_HOME": str(Path(scratch) / "warm-before")} if extra else warm_env
            if cache not in ("cold", "edited"):
                return {**warm, **extra}
            folder = Path(tempfile.mkdtemp(prefix=f"{cache}-", dir=scratch))
            shipped = Path(warm["XDG_CACHE_HOME"]) / "deckgen" / "shipped-layouts"
            if cache == "edited" and shipped.exists():  # older code keeps none: the same as cold
                (folder / "deckgen").mkdir()
                shutil.copy2(shipped, folder / "deckgen" / shipped.name)
            return {**base_env, **extra, "XDG_CACHE_HOME": str(folder)}

        for argv, cache, extra in table.values():  # file cache, byte-code and the warm caches, unmeasured
            run_once(argv, env_for(cache, extra))
        cpu: dict[str, list[float]] = {name: [] for name in table}
        wall: dict[str, list[float]] = {name: [] for name in table}
        memory: dict[str, list[int]] = {name: [] for name in table}
        for _ in range(args.repeats):
            for name, (argv, cache, extra) in table.items():
                env = env_for(cache, extra)
                seconds_cpu, seconds_wall, peak = run_once(argv, env)
                cpu[name].append(seconds_cpu)
                wall[name].append(seconds_wall)
                memory[name].append(peak)
                if cache in ("cold", "edited"):
                    shutil.rmtree(env["XDG_CACHE_HOME"])
    base_cpu = statistics.median(cpu["python -c pass"])
    base_wall = statistics.median(wall["python -c pass"])
    note = " (PYTHONDONTWRITEBYTECODE dropped for the children)" if "PYTHONDONTWRITEBYTECODE" in os.environ else ""
    editable = subprocess.run([sys.executable, "-c", "import sys; print(any('__editable__' in m for m in sys.modules))"],
                              env=base_env, capture_output=True, text=True).stdout.strip() == "True"
    note += ("; an editable install: bare Python here also runs its import hook (pathlib and more)" if editable
             else "; installed from a wheel")
    print(f"load average {os.getloadavg()[0]:.2f} (now; {os.getloadavg()[1]:.2f} over 5 minutes) on {os.cpu_count()} cores; {args.repeats} interleaved rounds; "
          f"deckgen = {' '.join(deckgen_command())}{note}")
    if against is not None:
        print(f"before = the same commands with {against} first on PYTHONPATH")
    print(f"{'command':<50} {'CPU ms':>7} {'ratio':>6} {'wall ms':>8} {'ratio':>6} {'peak MB':>8}  "
          f"wall <= {BUDGET_MS} ms")
    for name in table:
        median_cpu = statistics.median(cpu[name])
        median_wall = statistics.median(wall[name])
        print(f"{name:<50} {median_cpu * 1e3:>7.0f} {median_cpu / base_cpu:>5.2f}x "
              f"{median_wall * 1e3:>8.0f} {median_wall / base_wall:>5.2f}x {statistics.median(memory[name]) / 1024:>8.1f}"
              f"  {'yes' if median_wall * 1e3 <= BUDGET_MS else 'NO'}")
    if against is not None:
        print("after / before, CPU:", ", ".join(
            f"{name.removeprefix('deckgen ')} {statistics.median(cpu[name]) / statistics.median(cpu[f'  before: {name}']):.2f}"
            for name in table if f"  before: {name}" in table))


if __name__ == "__main__":
    main()
