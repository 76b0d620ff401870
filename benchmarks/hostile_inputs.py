"""Hostile input on deckgen's newer surface (issues 31 and 38), replayed: each case is a file
or option an attacker or a careless user can give, run as its own `deckgen` process (as a user
runs it) under a time limit, with its peak memory taken from the kernel (wait4's ru_maxrss).

Every case says what must happen: `refuse` (a clear error: non-zero exit, no traceback, the
file or option named) or `accept` (exit 0). An outcome is one of: clean (as it must be),
traceback (exit 70, "internal error" or a Python traceback), hang (past the time limit),
accepted-bad (exit 0 where a refusal was due), refused-good (an error where none was due).
Then a bounded run of the layout fuzzer (tests/faces/test_layout_fuzz.py's strategy): layouts of
ordinary and hostile values loaded, checked and drawn in this process; any exception but
deckgen's own is a crash.

`--checkout DIR` runs another checkout's deckgen on the same cases (e.g. `git worktree add --detach
/tmp/before main`): before and after. Each case may use at most `--memory-mb` of address space.

Run: python benchmarks/hostile_inputs.py [--timeout S] [--fuzz N] [--only WORD] [--checkout DIR]
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.badinput import TINY  # noqa: E402 (after the path is set)

ART = 'count = 2\nart = "art.png"'


@dataclass(frozen=True)
class Case:
    """`setup(folder)` writes the inputs and returns the command's arguments (after `deckgen`)."""

    name: str
    setup: Callable[[Path], list]
    expect: str = "refuse"  # or "accept"
    env: dict | None = None


def deck(folder: Path, text: str = TINY, name: str = "tiny.toml") -> Path:
    (folder / "decks").mkdir(exist_ok=True)
    path = folder / "decks" / name
    path.write_text(text, encoding="utf-8")
    return path


def fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def with_layout(field: str, kind: str = "shape", props: str = "") -> Callable[[Path], Path]:
    text = TINY.replace('players = { min = 2, max = 4 }', 'players = { min = 2, max = 4 }\nlayout = "bad"')
    text = text.replace("count = 2\n", f"count = 2\n{props}\n")
    words = 'text = "{name}: words to fit"\n' if kind == "text" else ""  # a text with something to lay out
    text += f'\n[layouts.bad]\n[[layouts.bad.elements]]\nname = "it"\ntype = "{kind}"\n{words}{field}\n'
    return lambda folder: deck(folder, text)


def art_deck(folder: Path, make: Callable[[Path], object]) -> Path:
    path = deck(folder, TINY.replace("count = 2", ART))
    make(path.parent / "art.png")
    return path


def xlsx_deck(folder: Path, write: Callable[[Path], None]) -> Path:
    path = deck(folder, TINY[:TINY.index("[[card_sets]]")] + '[[card_sources]]\nfile = "cards.xlsx"\n')
    write(path.parent / "cards.xlsx")
    return path


def csv_fifo(folder: Path) -> list:
    path = deck(folder, TINY + '\n[[card_sources]]\nfile = "c.csv"\n')
    fifo(path.parent / "c.csv")
    return ["validate", path]


def far_cell(path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["name", "code", "kind"])
    book.active.append(["A", "A", "number"])
    book.active["XFD1048576"] = "x"
    book.save(path)


def zip_bomb(path: Path) -> None:
    """A few hundred kilobytes that unpack to 512 MB of XML."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as member:
            for _ in range(512):
                member.write(b" " * (1 << 20))


def svg_art(href: str, target: Callable[[Path], object] | None = None) -> Callable[[Path], list]:
    def setup(folder: Path) -> list:
        path = deck(folder, TINY.replace("count = 2", 'count = 2\nart = "art.svg"'))
        (path.parent / "art.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="60" height="80">'
            f'<image xlink:href="{href}" width="60" height="80"/></svg>', encoding="utf-8")
        if target:
            target(path.parent)
        return ["validate", path]

    return setup


def overlay(make: Callable[[Path], object]) -> Callable[[Path], list]:
    def setup(folder: Path) -> list:
        path = deck(folder)
        make(path.parent / "translations" / "tiny.fr.toml")
        return ["validate", path, "--lang", "fr"]

    return setup


def link(target: str) -> Callable[[Path], object]:
    def make(path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(target)

    return make


def sparse(size: int) -> Callable[[Path], object]:
    def make(path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as handle:
            handle.truncate(size)

    return make


def layouts_file(make: Callable[[Path], object]) -> Callable[[Path], list]:
    def setup(folder: Path) -> list:
        path = deck(folder, TINY.replace('players = { min = 2, max = 4 }',
                                         'players = { min = 2, max = 4 }\nlayouts = ["shared.toml"]'))
        make(path.parent / "shared.toml")
        return ["validate", path]

    return setup


def font(make: Callable[[Path], object]) -> Callable[[Path], list]:
    def setup(folder: Path) -> list:
        path = deck(folder, TINY + '\n[[fonts]]\nfamily = "Body"\nregular = "body.ttf"\n')
        make(path.parent / "body.ttf")
        return ["validate", path]

    return setup


def icon(file_name: str, make: Callable[[Path], object] | None = None) -> Callable[[Path], list]:
    def setup(folder: Path) -> list:
        path = deck(folder, TINY.replace("[[suits]]", f'[icons]\ndrop = "{file_name}"\n\n[[suits]]'))
        if make:
            make(path.parent / file_name)
        return ["validate", path]

    return setup


def icc(make: Callable[[Path], object]) -> Callable[[Path], list]:
    def setup(folder: Path) -> list:
        profile = folder / "shop.icc"
        make(profile)
        return ["print", deck(folder), "--color", "cmyk", "--icc-profile", profile, "--output", folder / "out"]

    return setup


def truncated_profile(path: Path) -> None:
    system = next(p for p in (Path("/usr/share/color/icc/ghostscript/default_cmyk.icc"),
                              Path("/usr/share/ghostscript/iccprofiles/default_cmyk.icc")) if p.exists())
    path.write_bytes(system.read_bytes()[:1000])


def command(*words) -> Callable[[Path], list]:
    return lambda folder: [*(word(folder) if callable(word) else word for word in words)]


def committed_link(folder: Path) -> list:
    path = deck(folder)
    (path.parent / "art.png").symlink_to("/etc/passwd")
    environment = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                   "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"}
    for words in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "x"]):
        subprocess.run(["git", "-C", str(path.parent), *words], check=True, capture_output=True, env=environment)
    return ["diff", path, "--rev", "HEAD"]


def hand_log(folder: Path) -> list:
    text = (ROOT / "examples" / "muggle-quidditch.toml").read_text(encoding="utf-8")
    start = text.index("\n[")
    log = folder / "game.toml"
    log.write_text(text[:start] + "\n[params]\nhand_size = 1000\ndraw_to = 1000\n" + text[start:], encoding="utf-8")
    return ["referee", "muggle-quidditch", log]


def checkpoint(change: Callable[[Path], None]) -> Callable[[Path], list]:
    def setup(folder: Path) -> list:
        chunks = folder / "chunks"
        options = ["validate", "wizard", "--simulate", "10", "--workers", "1", "--checkpoint", str(chunks)]
        subprocess.run([sys.executable, "-m", "generator", *options], cwd=ROOT, capture_output=True, timeout=300)
        change(sorted(chunks.rglob("chunk-*.json"))[0])
        return [*options, "--resume"]

    return setup


def template_fifo(folder: Path) -> list:
    (folder / "theme").mkdir()
    (folder / "theme" / "rulebook.html.j2").write_text('{% include "part.html" %}', encoding="utf-8")
    fifo(folder / "theme" / "part.html")
    return ["rulebook", deck(folder), "--format", "html", "--template", folder / "theme", "--output", folder / "o"]


def printers_fifo(folder: Path) -> list:
    fifo(folder / "cfg" / "deckgen" / "printers.toml")
    return ["print", deck(folder), "--printer", "home", "--output", folder / "o"]


def build_deck_fifo(folder: Path) -> list:
    deck(folder)
    fifo(folder / "decks" / "fifo.toml")
    return ["build", "--decks-dir", folder / "decks", "--output", folder / "o"]


LAUGHS = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
          + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(8))
          + ']><svg xmlns="http://www.w3.org/2000/svg" width="60" height="80"><text>&i;</text></svg>')


def billion_laughs(folder: Path) -> list:
    path = deck(folder, TINY.replace("count = 2", 'count = 2\nart = "art.svg"'))
    (path.parent / "art.svg").write_text(LAUGHS, encoding="utf-8")
    return ["images", path, "--output", folder / "o", "--dpi", "30"]


def fifo_in_place(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


CASES = [
    # Hangs: a FIFO where a file is read, and text sizes that never end fitting.
    Case("overlay-fifo", overlay(fifo)),
    Case("layouts-file-fifo", layouts_file(fifo)),
    Case("icc-fifo", icc(fifo)),
    Case("svg-image-fifo", svg_art("pic.png", lambda f: fifo(f / "pic.png"))),
    Case("checkpoint-fifo", checkpoint(fifo_in_place)),
    Case("build-art-fifo", lambda f: (art_deck(f, fifo), ["build", "--decks-dir", f / "decks", "--output", f / "o"])[1]),
    Case("images-art-fifo", lambda f: ["images", art_deck(f, fifo), "--output", f / "o"]),
    Case("print-art-fifo", lambda f: ["print", art_deck(f, fifo), "--output", f / "o"]),
    Case("rulebook-art-fifo", lambda f: ["rulebook", art_deck(f, fifo), "--output", f / "o"]),
    Case("export-lackey-art-fifo", lambda f: ["export", "lackey", art_deck(f, fifo), "--output", f / "o"]),
    Case("export-tts-art-fifo", lambda f: ["export", "tts", art_deck(f, fifo), "--output", f / "o"]),
    Case("font-fifo", font(fifo)),
    Case("icon-fifo", icon("drop.png", fifo)),
    Case("spreadsheet-fifo", csv_fifo),
    Case("template-fifo", template_fifo),
    Case("printers-fifo", printers_fifo),
    Case("build-deck-file-fifo", build_deck_fifo),
    Case("text-size-1e30-validate", command("validate", with_layout("size = [1e30, 9]", "text"))),
    Case("text-size-1e30-images", command("images", with_layout("size = [1e30, 9]", "text"), "--output",
                                          lambda f: f / "o")),
    # Memory: devices and bombs.
    Case("layouts-file-dev-zero-link", layouts_file(link("/dev/zero"))),
    Case("overlay-dev-zero-link", overlay(link("/dev/zero"))),
    Case("xlsx-far-cell", lambda f: ["validate", xlsx_deck(f, far_cell)]),
    Case("xlsx-zip-bomb", lambda f: ["validate", xlsx_deck(f, zip_bomb)]),
    Case("font-40mb", font(sparse(40 << 20))),
    Case("svg-billion-laughs", billion_laughs, "accept"),  # entities are not expanded: a blank drawing
    Case("layouts-file-5mb", layouts_file(sparse(5 << 20))),
    Case("overlay-5mb", overlay(sparse(5 << 20))),
    # What validate passed and print crashed on.
    *[Case(f"layout-{name}", command("validate", with_layout(field, kind)))
      for name, field, kind in [("dash-0-0", 'stroke = "#000000"\ndash = [0, 0]', "shape"),
                                ("nan-points", 'shape = "polygon"\npoints = [[0, 0], [100, 0], [50, nan]]', "shape"),
                                ("opacity-2", "opacity = 2", "shape"), ("fill-red", 'fill = "red"', "shape"),
                                ("negative-size", "size = -9", "text"), ("step-0", "step = 0", "pattern"),
                                ("stroke-width-inf", 'stroke = "#000000"\nstroke_width = inf', "shape"),
                                ("huge-width", 'width = "9999999999999999999mm"', "shape"),
                                ("mix-nan", 'fill = "mix(#000000, #ffffff, nan)"', "shape"),
                                ("corner-not-pair", 'shape = "polygon"\npoints = [[1], [2], [3]]', "shape"),
                                ("size-nan-in-list", "size = [9, nan]", "text")]],
    Case("layout-variable-colour", command("validate", with_layout('fill = "{props.word}"', "shape",
                                                                   'props = { word = "abc" }'))),
    Case("layout-variable-length", command("validate", with_layout('x = "{props.big}"', "shape",
                                                                   'props = { big = 1e30 }'))),
    Case("layout-in-range", command("images", with_layout('fill = "#112233"\nopacity = 0.5', "shape"), "--output",
                                    lambda f: f / "o", "--dpi", "30"), "accept"),
    # Files outside the deck's folder.
    Case("svg-image-outside", svg_art("../../outside.png", lambda f: (f.parent.parent / "outside.png").write_bytes(
        b"\x89PNG\r\n\x1a\n"))),
    Case("svg-image-absolute", svg_art("/etc/hostname")),
    Case("icon-outside", icon("../outside.png", lambda p: p.write_bytes(b"x"))),
    Case("layout-image-outside", command("validate", with_layout('src = "/etc/hostname"', "image"))),
    Case("overlay-link-outside", overlay(link("/etc/hostname"))),
    # Options and files that used to crash.
    Case("diff-rev-absolute-link", committed_link),
    Case("icc-truncated", icc(truncated_profile)),
    Case("cluster-garbage", command("validate", "wizard", "--simulate", "10", "--cluster", "garbage://x")),
    Case("checkpoint-wrong-shape", checkpoint(lambda p: p.write_text('{"task": 1}', encoding="utf-8"))),
    Case("back-offset-nan", command("print", "wizard", "--duplex", "long-edge", "--back-offset", "nan,0", "--output",
                                    lambda f: f / "o")),
    Case("log-hand-size-1000", hand_log),
    Case("broken-markup-warns", lambda f: ["validate", deck(f, TINY.replace("count = 2\n", 'count = 2\ntext = "**x"\n'))],
         "accept"),
]


def run(case: Case, timeout: float, checkout: Path, memory_mb: int) -> tuple[str, float, int, str]:
    """(outcome, seconds, peak resident kB, the last line it printed), running `checkout`'s deckgen
    with at most `memory_mb` of address space (a runaway case then fails instead of swapping)."""
    with tempfile.TemporaryDirectory(prefix="deckgen-hostile-") as scratch:
        folder = Path(scratch)
        argv = [str(word) for word in case.setup(folder)]
        environment = {**os.environ, "XDG_CACHE_HOME": str(folder / "cache"), "XDG_CONFIG_HOME": str(folder / "cfg"),
                       "PYTHONPATH": str(checkout)}

        def limited() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))

        started = time.monotonic()
        process = subprocess.Popen([sys.executable, "-m", "generator", *argv], cwd=checkout, env=environment,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                                   preexec_fn=limited)
        output = io.BytesIO()
        os.set_blocking(process.stdout.fileno(), False)
        while True:
            piece = process.stdout.read()
            if piece:
                output.write(piece)
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - started > timeout:
                os.killpg(process.pid, signal.SIGKILL)
                _, status, usage = os.wait4(process.pid, 0)
                return "hang", time.monotonic() - started, usage.ru_maxrss, ""
            time.sleep(0.02)
        output.write(process.stdout.read() or b"")
        process.returncode = os.waitstatus_to_exitcode(status)
        text = output.getvalue().decode(errors="replace")
        seconds = time.monotonic() - started
    last = text.strip().splitlines()[-1] if text.strip() else ""
    if process.returncode == 70 or "Traceback" in text or "internal error" in text or "MemoryError" in text \
            or process.returncode < 0:
        return "traceback", seconds, usage.ru_maxrss, last
    if case.expect == "refuse":
        return ("clean" if process.returncode != 0 else "accepted-bad"), seconds, usage.ru_maxrss, last
    return ("clean" if process.returncode == 0 else "refused-good"), seconds, usage.ru_maxrss, last


def fuzz(examples: int) -> dict:
    """The layout fuzzer's outcomes over `examples` layouts, and its crashes by place."""
    from hypothesis import HealthCheck, given, settings

    from generator.core.errors import DeckgenError
    from tests.badinput import Hang
    from tests.faces import test_layout_fuzz as layouts

    outcomes: dict = {"drawn": 0, "refused": 0, "crash": 0, "hang": 0}
    crashes: dict = {}

    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(layout=layouts.layouts())
    def one(layout):
        with tempfile.TemporaryDirectory() as scratch:
            path = Path(scratch) / "fuzz.toml"
            path.write_text(layouts._deck_text(layout), encoding="utf-8")
            try:
                with layouts.deadline(20):
                    outcome = layouts._load_and_draw(path)
            except DeckgenError:
                outcome = "refused"
            except Hang:
                outcome = "hang"
            except Exception as error:  # noqa: BLE001 - what the fuzzer counts
                outcome = "crash"
                key = f"{type(error).__name__}: {str(error)[:70]}"
                crashes[key] = crashes.get(key, 0) + 1
            outcomes[outcome] += 1

    started = time.monotonic()
    one()
    return {"examples": examples, "seconds": round(time.monotonic() - started, 1), **outcomes, "crashes": crashes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds before a case counts as a hang")
    parser.add_argument("--fuzz", type=int, default=1000, help="layouts for the fuzzer (0: none)")
    parser.add_argument("--only", default="", help="run the cases whose name holds this word")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the deckgen checkout to run (default: this one)")
    parser.add_argument("--memory-mb", type=int, default=2048, help="address space each case may use")
    options = parser.parse_args()
    tally: dict[str, int] = {}
    worst = (0, "")
    for case in [c for c in CASES if options.only in c.name]:
        outcome, seconds, peak_kb, last = run(case, options.timeout, options.checkout.resolve(), options.memory_mb)
        tally[outcome] = tally.get(outcome, 0) + 1
        worst = max(worst, (peak_kb, case.name))
        print(f"{case.name:32} {outcome:13} {seconds:6.1f} s {peak_kb / 1024:7.0f} MB  {last[:110]}", flush=True)
    print(f"\n{sum(tally.values())} cases: " + ", ".join(f"{count} {name}" for name, count in sorted(tally.items())))
    print(f"peak memory of the worst case: {worst[0] / 1024:.0f} MB ({worst[1]})")
    if options.fuzz:
        print(f"layout fuzzer: {fuzz(options.fuzz)}")


if __name__ == "__main__":
    main()
