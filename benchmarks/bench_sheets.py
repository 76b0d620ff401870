"""Cards from a 1,000-row spreadsheet, and diffing two 1,000-card decks.

Run: python benchmarks/bench_sheets.py [--repeats N] [--rows N]
Loads one deck whose 1,000 cards come from an XLSX sheet, the same cards from a CSV file,
and the same cards as [[cards]] tables in the TOML file (the peer: the loader without any
spreadsheet), interleaving the three; then diffs two 1,000-card decks that differ in 10 % of
their cards (the peer: loading one of them). Prints medians, ratios to the peer and the
peak memory each operation allocates (tracemalloc), then this process's peak RSS.
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.diff.compare import diff_decks  # noqa: E402
from generator.export.cards import export_cards  # noqa: E402
from generator.deck.loader import check_deck, load_deck  # noqa: E402

HEAD = '''[deck]
id = "bench"
name = "Bench"
players = {{ min = 2, max = 6 }}

[[kinds]]
id = "action"
name = "Action"
[[kinds]]
id = "thing"
name = "Thing"
{body}
'''


def card_toml(n: int, changed: bool = False) -> str:
    text = f"Gain {n % 7 + 1} dominance, then draw a card if you hold fewer than {n % 5 + 2}."
    if changed:
        text += " Discard one."
    return (f'[[cards]]\nid = "card-{n}"\nname = "Card {n}"\ncode = "C{n}"\nkind = "{"action" if n % 3 else "thing"}"\n'
            f'count = {n % 3 + 1}\ncorner = "+{n % 7 + 1}"\ntext = "{text}"\nflavor = "Flavour line {n}."\n'
            f'props = {{ dominance = {n % 7 + 1}, tags = [1, {n % 4}] }}\n')


def median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1e3


def peak_kb(function) -> float:
    tracemalloc.start()
    function()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rows", type=int, default=1000)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        toml_deck = folder / "bench.toml"
        toml_deck.write_text(HEAD.format(body="\n".join(card_toml(n) for n in range(args.rows))), encoding="utf-8")
        changed = folder / "changed.toml"
        changed.write_text(HEAD.format(body="\n".join(card_toml(n, changed=n % 10 == 0) for n in range(args.rows))),
                           encoding="utf-8")
        loaded = load_deck(toml_deck)
        for fmt in ("xlsx", "csv"):
            sheet = export_cards(loaded, folder / "out", fmt)
            sheet.rename(folder / f"cards.{fmt}")
            (folder / f"from-{fmt}.toml").write_text(
                HEAD.format(body=f'[[card_sources]]\nfile = "cards.{fmt}"\n'), encoding="utf-8")
        cases = {"xlsx": folder / "from-xlsx.toml", "csv": folder / "from-csv.toml", "toml (peer)": toml_deck}
        for path in cases.values():
            deck, problems = check_deck(path)
            assert deck is not None and not [p for p in problems if p.severity == "error"], problems
            assert dataclasses.replace(deck, source=None, inputs=()).cards == loaded.cards
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.repeats):  # interleaved, so drift hits every case alike
            for name, path in cases.items():
                start = time.perf_counter()
                check_deck(path)
                times[name].append(time.perf_counter() - start)
        peer = median_ms(times["toml (peer)"])
        print(f"load a deck of {args.rows} cards ({loaded.total} copies), {args.repeats} runs interleaved")
        print(f"{'source':<14} {'median ms':>10} {'vs toml':>8} {'peak alloc KB':>14}")
        for name, path in cases.items():
            print(f"{name:<14} {median_ms(times[name]):>10.1f} {median_ms(times[name]) / peer:>7.2f}x "
                  f"{peak_kb(lambda: check_deck(path)):>14.0f}")

        old, new = load_deck(toml_deck), load_deck(changed)
        result = diff_decks(old, new)
        assert sum(c.section == "cards" for c in result.changes) == -(-args.rows // 10)
        diff_times, load_times = [], []
        for _ in range(args.repeats):
            start = time.perf_counter()
            diff_decks(old, new)
            diff_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            load_deck(changed)
            load_times.append(time.perf_counter() - start)
        print(f"\ndiff two decks of {args.rows} cards ({len(result.changes)} changes), {args.repeats} runs")
        print(f"{'operation':<22} {'median ms':>10} {'peak alloc KB':>14}")
        print(f"{'diff_decks':<22} {median_ms(diff_times):>10.1f} {peak_kb(lambda: diff_decks(old, new)):>14.0f}")
        print(f"{'load one (peer)':<22} {median_ms(load_times):>10.1f} {peak_kb(lambda: load_deck(changed)):>14.0f}")
        print(f"diff / load: {median_ms(diff_times) / median_ms(load_times):.2f}x")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory (this process, RSS): {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
