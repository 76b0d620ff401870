"""Live preview speed, measured in a real Chromium: save -> new picture on the page.

- one card's text edited (Wizard, 60 cards; Quidditch v2, 56 cards): from the moment the file is
  written to the moment the browser has loaded the new picture (the page's image `load` event),
  median of --edits saves; the floor beside it is drawing that one card alone, in process;
- the whole deck's look changed (a kind colour): save -> every picture on the page swapped;
- one cell of a spreadsheet changed (a 60-card deck whose cards come from an XLSX sheet): the
  workbook is written as a spreadsheet program saves it (a temporary file renamed over the old
  one), save -> that card's new picture loaded, median of --edits saves (target 300 ms);
- the first page load of the 98-card Wizard Hearts: navigation -> every picture loaded, in a
  fresh browser context each time (nothing cached), and the server's start-up drawing;
- memory over --memory-edits saves with the page open: the server process's RSS every 50 saves
  (it should stay flat: pictures are kept for the current cards only) and its peak.

Run: python benchmarks/bench_watch.py [--edits 12] [--memory-edits 500] [--dpi 100]
Needs Debian's chromium (bash .ci/install-chromium.sh) and playwright (pip install -e '.[test]').
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.deck.loader import load_deck  # noqa: E402
from generator.preview.app import start_preview  # noqa: E402
from generator.faces.images import card_pngs  # noqa: E402

ALL_LOADED = ("[...document.querySelectorAll('.tile img')].length > 0 && "
              "[...document.querySelectorAll('.tile img')].every(img => img.complete && img.naturalWidth > 0)")
# (deck file, card key, the text line to edit, a kind colour line to change for the look test)
DECKS = {
    "wizard": ("wizard.toml", "face:wizard",
               'text = "Play at any time, even when you could follow suit. The first Wizard in a trick takes it."',
               'color = "#23255e"\n[[kinds]]'),
    "quidditch-v2": ("quidditch-v2.toml", "face:sweeping-play", 'text = "Gain 3 dominance."',
                     'color = "#2f5d8a"\n[[kinds]]'),
}


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def replace_line(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def swap_count(page) -> int:
    return page.evaluate("window.deckgenSwaps.length")


def swapped_at(page, key: str, old_hash: str, since: int, timeout_ms: int = 20000) -> float:
    """Epoch milliseconds at which the tile `key` finished loading a picture other than `old_hash`,
    among the page's picture loads from the `since`-th on."""
    handle = page.wait_for_function(
        """([key, old, since]) => window.deckgenSwaps.slice(since)
               .filter(s => s.key === key && s.hash !== old).map(s => s.at).pop()""",
        arg=[key, old_hash, since], timeout=timeout_ms, polling="raf")
    return handle.json_value()


def checked(preview, before, seconds: float = 10.0) -> None:
    """Wait for the deck check that follows a redraw, as a designer's next save comes seconds later."""
    deadline = time.monotonic() + seconds
    while preview.session.problems is before and time.monotonic() < deadline:
        time.sleep(0.01)


def shown(page, key: str) -> str:
    return page.eval_on_selector(f'[data-key="{key}"] img', "img => img.dataset.loaded || ''")


def open_page(browser, url: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(ALL_LOADED)
    page.wait_for_selector(".live.on")
    return context, page


def edit_latencies(browser, folder: Path, name: str, edits: int, dpi: int) -> dict:
    file_name, key, text_line, colour_line = DECKS[name]
    path = folder / file_name
    shutil.copy(ROOT / "decks" / file_name, path)
    preview = start_preview(path, output_dir=folder / "out", dpi=dpi)
    context, page = open_page(browser, preview.url)
    try:
        latencies = []
        current = text_line
        for index in range(edits):
            old, since, problems = shown(page, key), swap_count(page), preview.session.problems
            new_line = text_line[:-1] + f' Edit {index + 1}."'
            saved = time.time() * 1000
            replace_line(path, current, new_line)
            current = new_line
            latencies.append(swapped_at(page, key, old, since) - saved)
            checked(preview, problems)
        deck = load_deck(path)
        card = next(c for c in deck.cards if f"face:{c.id}" == key)
        floor = []
        for _ in range(5):
            start = time.perf_counter()
            card_pngs(deck, [card], dpi)
            floor.append((time.perf_counter() - start) * 1000)

        look = []
        colour = colour_line
        for index in range(max(3, edits // 3)):
            before, since, problems = {c.key: c.hash for c in preview.session.cards}, swap_count(page), \
                preview.session.problems
            new_colour = colour.replace(colour[10:16], f"{(index * 37) % 256:02x}5a{(index * 91) % 256:02x}", 1)
            saved = time.time() * 1000
            replace_line(path, colour, new_colour)
            colour = new_colour
            page.wait_for_function(
                """(before) => [...document.querySelectorAll('.tile')].every(tile => {
                       const img = tile.querySelector('img');
                       return img.dataset.loaded && img.dataset.loaded !== before[tile.dataset.key] && img.complete; })""",
                arg=before, timeout=60000, polling="raf")
            look.append(max(s["at"] for s in page.evaluate("window.deckgenSwaps")[since:]) - saved)
            checked(preview, problems)
        deck = load_deck(path)
        look_floor = []
        for _ in range(3):
            start = time.perf_counter()
            card_pngs(deck, [*deck.cards, None], dpi)
            look_floor.append((time.perf_counter() - start) * 1000)
        return {"deck": name, "cards": deck.total, "distinct": len(deck.cards), "edit": latencies,
                "floor": floor, "look": look, "look_floor": look_floor}
    finally:
        context.close()
        preview.stop()


SHEET_DECK = """
[deck]
id = "sheet-bench"
name = "Sheet Bench"
players = { min = 2, max = 4 }

[[kinds]]
id = "creature"
name = "Creature"
color = "#3b6e8f"

[[kinds]]
id = "spell"
name = "Spell"
color = "#8f3b5c"

[[card_sources]]
file = "cards.xlsx"
"""


def workbook_bytes(edit: int | None = None) -> bytes:
    """60 cards, a row each (name, code, kind, count, text, props.power); `edit` changes the
    text cell of card 25."""
    import io

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["name", "code", "kind", "count", "text", "props.power"])
    for index in range(1, 61):
        text = f"Deal {index % 7 + 1} damage to a creature of your choice."
        if index == 25 and edit is not None:
            text = f"Deal {edit} damage to every creature. Edit {edit}."
        sheet.append([f"Card {index}", f"C{index:02d}", "creature" if index % 2 else "spell", 1, text, index % 5])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def save_like_an_editor(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".~{path.name}")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def sheet_edit_latencies(browser, folder: Path, edits: int, dpi: int) -> dict:
    deck_folder = folder / "sheet-bench"
    deck_folder.mkdir()
    path = deck_folder / "sheet-bench.toml"
    path.write_text(SHEET_DECK, encoding="utf-8")
    sheet = deck_folder / "cards.xlsx"
    sheet.write_bytes(workbook_bytes())
    preview = start_preview(path, output_dir=folder / "out-sheet", dpi=dpi)
    context, page = open_page(browser, preview.url)
    key = "face:card-25"
    try:
        latencies, redrawn = [], []
        for index in range(edits):
            data = workbook_bytes(index + 1)
            old, since, problems = shown(page, key), swap_count(page), preview.session.problems
            before = {c.key: c.hash for c in preview.session.cards}
            saved = time.time() * 1000
            save_like_an_editor(sheet, data)
            latencies.append(swapped_at(page, key, old, since) - saved)
            redrawn.append(sum(1 for c in preview.session.cards if before.get(c.key) != c.hash))
            checked(preview, problems)
        return {"cards": preview.session.deck.total, "edit": latencies, "redrawn": redrawn}
    finally:
        context.close()
        preview.stop()


def first_loads(browser, folder: Path, repeats: int, dpi: int) -> dict:
    path = folder / "wizard-hearts.toml"
    shutil.copy(ROOT / "decks" / "wizard-hearts.toml", path)
    start = time.perf_counter()
    preview = start_preview(path, output_dir=folder / "out", dpi=dpi)
    startup = time.perf_counter() - start
    loads = []
    try:
        for _ in range(repeats):
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            start = time.perf_counter()
            page.goto(preview.url)
            page.wait_for_function(ALL_LOADED, polling="raf")
            loads.append(time.perf_counter() - start)
            context.close()
        return {"cards": preview.session.deck.total, "startup": startup, "loads": loads}
    finally:
        preview.stop()


def memory_trend(browser, folder: Path, edits: int, dpi: int) -> list[tuple[int, float]]:
    file_name, key, text_line, _ = DECKS["quidditch-v2"]
    path = folder / "memory.toml"
    shutil.copy(ROOT / "decks" / file_name, path)
    preview = start_preview(path, output_dir=folder / "out", dpi=dpi)
    context, page = open_page(browser, preview.url)
    samples = [(0, rss_mib())]
    try:
        current = text_line
        for index in range(edits):
            old, since, problems = shown(page, key), swap_count(page), preview.session.problems
            new_line = text_line[:-1] + f' Edit {index % 7}{index}."'
            replace_line(path, current, new_line)
            current = new_line
            swapped_at(page, key, old, since)
            checked(preview, problems)
            if (index + 1) % 50 == 0:
                samples.append((index + 1, rss_mib()))
        return samples
    finally:
        context.close()
        preview.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=12)
    parser.add_argument("--memory-edits", type=int, default=500)
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--dpi", type=int, default=100)
    parser.add_argument("--sheet-only", action="store_true", help="Only the spreadsheet edit.")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("DECKGEN_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        sys.exit("bench_watch: needs Debian's chromium (bash .ci/install-chromium.sh)")
    with tempfile.TemporaryDirectory() as temp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        folder = Path(temp)
        print(f"pictures at {args.dpi} dpi; times are save -> picture loaded in Chromium")
        for name in DECKS if not args.sheet_only else ():
            result = edit_latencies(browser, folder, name, args.edits, args.dpi)
            edit, floor, look, look_floor = (statistics.median(result[k])
                                             for k in ("edit", "floor", "look", "look_floor"))
            print(f"{name} ({result['cards']} cards, {result['distinct']} distinct): one card's text: median "
                  f"{edit:.0f} ms over {len(result['edit'])} saves (min {min(result['edit']):.0f}, max "
                  f"{max(result['edit']):.0f}; target 300); drawing that card alone {floor:.0f} ms, "
                  f"ratio {edit / floor:.1f}")
            print(f"{name}: a kind colour (every card redrawn): median {look:.0f} ms over {len(result['look'])} saves "
                  f"(target 2000); drawing every card alone {look_floor:.0f} ms, ratio {look / look_floor:.1f}")
        sheet = sheet_edit_latencies(browser, folder, args.edits, args.dpi)
        print(f"XLSX deck ({sheet['cards']} cards from cards.xlsx): one cell changed: median "
              f"{statistics.median(sheet['edit']):.0f} ms over {len(sheet['edit'])} saves (min {min(sheet['edit']):.0f}, "
              f"max {max(sheet['edit']):.0f}; target 300); cards redrawn per save: {sorted(set(sheet['redrawn']))}")
        if args.sheet_only:
            browser.close()
            return
        loads = first_loads(browser, folder, args.loads, args.dpi)
        print(f"wizard-hearts ({loads['cards']} cards): first page load median {statistics.median(loads['loads']) * 1000:.0f} ms "
              f"over {len(loads['loads'])} fresh contexts (target 3000); server start-up (load + draw every card) "
              f"{loads['startup'] * 1000:.0f} ms")
        if args.memory_edits:
            samples = memory_trend(browser, folder, args.memory_edits, args.dpi)
            trend = ", ".join(f"{n}: {mib:.0f}" for n, mib in samples)
            print(f"memory over {args.memory_edits} saves (server process RSS, MiB, after N saves): {trend}")
        browser.close()
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"peak memory (max RSS of this process: server, watcher and the benchmark): "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
