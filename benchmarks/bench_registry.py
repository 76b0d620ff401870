"""The engine registry's cost to a process: the installed engines read through importlib.metadata
(as on the first run, or after a package was installed or removed) against the same list kept
in the cache folder (every other run), beside bare Python.

Run: python benchmarks/bench_registry.py [--rounds 21]
Each is its own process (`python -c`) that imports `generator.core.plugins` and asks for the
engine names; `kept` runs with a cache folder one unmeasured run filled, `read` with an empty
one each time. Interleaved round by round; medians of wall and CPU time, and each one's ratio
to bare Python and to the other. What a `deckgen` command saves is `read - kept`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wholeprocess import interleaved, load_line, run, table, user_environment  # noqa: E402

ASK = "from generator.core.plugins import engine_names; assert engine_names()"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench-registry-"))
    kept_cache, empty_cache = scratch / "kept", scratch / "empty"

    def process(cache: Path, code: str):
        env = {**user_environment(), "XDG_CACHE_HOME": str(cache)}
        return lambda: run([sys.executable, "-c", code], env=env)

    def read():
        shutil.rmtree(empty_cache, ignore_errors=True)
        return process(empty_cache, ASK)()

    try:
        series = interleaved({"bare python": process(kept_cache, "pass"), "kept": process(kept_cache, ASK),
                              "read": read}, args.rounds)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(load_line())
    print(f"{args.rounds} rounds; the engines registered: {ASK}")
    print(table(series, {"kept": "bare python", "read": "kept"}))
    saved = (series["read"].cpu - series["kept"].cpu) * 1000
    print(f"a run with the registry kept saves {saved:.0f} ms of CPU over reading it (median)")


if __name__ == "__main__":
    main()
