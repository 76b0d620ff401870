"""The bad-input corpus, beyond the deck file: art, engine parameters, options, output folders
and designers' templates. Each case asserts the exit code, no traceback, and a message naming
the file and the line or field (or the option)."""

from __future__ import annotations

import errno
import os
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from generator.rulebook import templated

from tests.badinput import TINY, Case, altered, check_result, deadline, deck_text, write_deck

# -- art ----------------------------------------------------------------------------------------------


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _bomb_png(side: int) -> bytes:
    """A valid 1-bit PNG of side×side pixels that compresses to a few kilobytes."""
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    rows = zlib.compress(b"\0" * ((side + 7) // 8 + 1) * side, 9)
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", rows) + _png_chunk(b"IEND", b"")


def _art(kind: str, command: tuple[str, ...]):
    def setup(tmp_path):
        art = tmp_path / "art.png"
        if kind == "missing":
            pass
        elif kind == "text":
            art.write_text("not a picture", encoding="utf-8")
        elif kind == "empty":
            art.write_bytes(b"")
        elif kind == "truncated":
            Image.new("RGB", (300, 300), "teal").save(art)
            art.write_bytes(art.read_bytes()[:400])
        elif kind == "bomb":
            art.write_bytes(_bomb_png(20_000))
        elif kind == "too-many-pixels":
            art.write_bytes(_bomb_png(9_000))
        elif kind == "fifo":
            os.mkfifo(art)
        elif kind == "folder":
            art.mkdir()
        elif kind == "symlink-loop":
            art.symlink_to(art)
        elif kind == "wrong-suffix":
            # A GIF named .png, large enough to print at 300 ppi: Pillow reads it, so this one must pass.
            Image.new("RGB", (900, 1200), "teal").save(art, "GIF")
        deck = write_deck(tmp_path, altered(TINY, "count = 2", 'count = 2\nart = "art.png"'))
        return [*command, deck, "--output", tmp_path / "out"], ("deck.toml", "art")

    return setup


ART_KINDS = ("missing", "text", "empty", "truncated", "bomb", "too-many-pixels", "fifo", "folder", "symlink-loop")
CASES = [Case(f"art-validate-{kind}", _art(kind, ("validate", "--simulate", "0")), (1,)) for kind in ART_KINDS]
CASES += [Case(f"art-print-{kind}", _art(kind, ("print",)), (1,)) for kind in ART_KINDS]
CASES += [Case(f"art-images-{kind}", _art(kind, ("images", "--dpi", "30")), (1,)) for kind in ART_KINDS[:4]]
CASES += [Case("art-gif-named-png", _art("wrong-suffix", ("validate", "--simulate", "0")), (0,))]


# -- engine parameters and card props of the wrong type ----------------------------------------------------

def _engine(deck: str, old: str, new: str, command: tuple[str, ...], needle: str):
    def setup(tmp_path):
        path = write_deck(tmp_path, altered(deck_text(deck), old, new), f"{deck}.toml")
        return [*command, path], (f"{deck}.toml", needle)

    return setup


ENGINE_EDITS = [
    ("wizard", 'bidding = "open"', "bidding = 3", "bidding"),
    ("wizard", 'bidding = "open"', "bidding = true", "bidding"),
    ("wizard", 'bidding = "open"', 'bidding = ["open"]', "bidding"),
    ("wizard", 'bidding = "open"', 'biding = "open"', "biding"),
    ("wizard", 'bidding = "open"', 'bidding = "shouted"', "bidding"),
    ("wizard-hearts", 'passing = { "3" = ["left", "right", "hold"],', 'passing = "King"\nx = { "3" = [],', "passing"),
    ("wizard-hearts", 'passing = { "3" = ["left", "right", "hold"],', 'passing = { "3" = 5 }\nx = { "3" = [],',
     "passing"),
    ("wizard-hearts", "pass_count = 3", 'pass_count = "3"', "pass_count"),
    ("wizard-hearts", "shun_must_be_broken = false", 'shun_must_be_broken = "yes"', "shun_must_be_broken"),
    ("muggle-quidditch", "max_turns = 400", 'max_turns = "many"', "max_turns"),
    ("muggle-quidditch", "houses = {", 'houses = "Gryffindor"\nx = {', "houses"),
    ("muggle-quidditch", "hand_size = 6", "hand_size = 2.5", "hand_size"),
    ("muggle-quidditch", 'keeper_rule = "strict"', 'keeper_rule = "lenient"', "keeper_rule"),
    ("quidditch-v2", "props = { dominance = 3 }", 'props = { dominance = "three" }', "dominance"),
    ("quidditch-v2", "save_on = [5, 6]", "save_on = [7]", "save_on"),
    ("quidditch-v2", 'role = "keeper"', "role = 3", "role"),
    ("quidditch-v2", "hand_size = 5", 'hand_size = "5"', "hand_size"),
]

for index, (deck, old, new, needle) in enumerate(ENGINE_EDITS):
    CASES.append(Case(f"engine-validate-{deck}-{needle}-{index}",
                      _engine(deck, old, new, ("validate", "--simulate", "1", "--workers", "1"), needle), (1,)))
for index, (deck, old, new, needle) in enumerate(ENGINE_EDITS[::2]):
    CASES.append(Case(f"engine-simulate-{deck}-{needle}-{index}",
                      _engine(deck, old, new, ("simulate", "--games", "1"), needle), (1, 2)))


# -- options -----------------------------------------------------------------------------------------------

def _options(*argv: str, needle: str = ""):
    def setup(tmp_path):
        args = [str(a).replace("{tmp}", str(tmp_path)) for a in argv]
        (tmp_path / "a-file").write_text("x", encoding="utf-8")
        return args + ["--output", tmp_path / "out"] if args[0] in ("images", "print") else args, (needle,)

    return setup


OPTIONS = [
    ("unknown-command", ("frobnicate",), "frobnicate"),
    ("simulate-negative", ("validate", "wizard", "--simulate", "-1"), "--simulate"),
    ("simulate-ten-million", ("validate", "wizard", "--simulate", "10000000"), "--simulate"),
    ("simulate-not-a-number", ("validate", "wizard", "--simulate", "many"), "--simulate"),
    ("dpi-zero", ("images", "wizard", "--dpi", "0"), "--dpi"),
    ("dpi-huge", ("images", "wizard", "--dpi", "100000"), "--dpi"),
    ("bleed-nan", ("print", "wizard", "--bleed", "nan"), "--bleed"),
    ("bleed-negative", ("print", "wizard", "--bleed", "-1"), "--bleed"),
    ("gap-inf", ("print", "wizard", "--gap", "inf"), "--gap"),
    ("paper-unknown", ("print", "wizard", "--paper", "foolscap"), "foolscap"),
    ("card-size-unknown", ("print", "wizard", "--card-size", "huge"), "huge"),
    ("images-profile", ("images", "wizard", "--profile", "nope"), "nope"),
    ("images-bleed-inf", ("images", "wizard", "--bleed", "inf"), "--bleed"),
    ("list-decks-dir-file", ("list", "--decks-dir", "{tmp}/a-file"), "a-file"),
    ("build-decks-dir-file", ("build", "--decks-dir", "{tmp}/a-file", "--output", "{tmp}/out"), "a-file"),
    ("show-unknown-deck", ("show", "no-such-deck"), "no-such-deck"),
    ("validate-workers-zero", ("validate", "wizard", "--workers", "0"), "--workers"),
    ("simulate-seed-text", ("simulate", "wizard", "--seed", "abc"), "--seed"),
    ("simulate-players", ("simulate", "wizard", "--players", "99"), "99"),
    ("simulate-games-huge", ("simulate", "wizard", "--games", "10000000000"), "--games"),
    ("lackey-encoding", ("export", "lackey", "wizard", "--encoding", "latin9", "--output", "{tmp}/out"), "latin9"),
    ("tts-base-url", ("export", "tts", "wizard", "--base-url", "ftp://host/x", "--output", "{tmp}/out"),
     "--base-url"),
    ("mush-style", ("export", "mush", "wizard", "--style", "fancy", "--output", "{tmp}/out"), "fancy"),
    ("validate-bot", ("validate", "wizard", "--bot", "genius", "--simulate", "1"), "genius"),
    ("validate-sweep", ("validate", "wizard", "--sweep", "junk", "--simulate", "1"), "junk"),
    ("referee-missing-log", ("referee", "wizard", "{tmp}/no-log.toml"), "no-log.toml"),
    ("referee-log-is-folder", ("referee", "wizard", "{tmp}"), "not a regular file"),
    ("rulebook-format", ("rulebook", "wizard", "--format", "docx"), "docx"),
]
CASES += [Case(f"option-{name}", _options(*argv, needle=needle), (1, 2)) for name, argv, needle in OPTIONS]


def _deck_id_shadowed(tmp_path):
    (tmp_path / "wizard").write_text("not a deck", encoding="utf-8")
    return ["show", "wizard", "--decks-dir", Path(__file__).resolve().parents[2] / "decks"], ()


def test_a_file_named_like_a_deck_id_does_not_shadow_it(run_cli, tmp_path):
    argv, _ = _deck_id_shadowed(tmp_path)
    result = run_cli(*argv, cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    assert "Wizard" in result.stdout


# -- output folders that cannot be written ----------------------------------------------------------

def _output_is_file(*command: str):
    def setup(tmp_path):
        out = tmp_path / "out"
        out.write_text("I am a file", encoding="utf-8")
        args = [str(a).replace("{out}", str(out)) for a in command]
        return args, (str(out),)

    return setup


OUTPUT_COMMANDS = {
    "build": ("build", "--output", "{out}", "--jobs", "1"),
    "images": ("images", "wizard", "--dpi", "30", "--output", "{out}"),
    "print": ("print", "wizard", "--output", "{out}"),
    "lackey": ("export", "lackey", "wizard", "--output", "{out}"),
    "tts": ("export", "tts", "wizard", "--output", "{out}"),
    "mush": ("export", "mush", "wizard", "--output", "{out}"),
    "rulebook": ("rulebook", "wizard", "--format", "md", "--output", "{out}"),
    "save-logs": ("simulate", "wizard", "--games", "1", "--save-logs", "{out}/logs"),
    "validate-report": ("validate", "wizard", "--simulate", "0", "--report", "--output", "{out}"),
    "tuckbox-tgc": ("tuckbox", "wizard", "--service", "tgc", "--output", "{out}"),
}
CASES += [Case(f"output-is-a-file-{name}", _output_is_file(*argv), (1, 2)) for name, argv in OUTPUT_COMMANDS.items()
          if name != "build"]


def _symlinked(command: tuple[str, ...], inner: str):
    def setup(tmp_path):
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        deck_folder = tmp_path / "out" / "wizard"
        if inner:
            deck_folder.mkdir(parents=True)
            (deck_folder / inner).symlink_to(elsewhere, target_is_directory=True)
        else:
            deck_folder.parent.mkdir()
            deck_folder.symlink_to(elsewhere, target_is_directory=True)
        return [*command, "--output", tmp_path / "out"], ("symbolic link",)

    return setup


for inner in ("images", ""):
    for name, command in (("images", ("images", "wizard", "--dpi", "30")), ("print", ("print", "wizard")),
                          ("rulebook", ("rulebook", "wizard", "--format", "md")),
                          ("mush", ("export", "mush", "wizard"))):
        CASES.append(Case(f"output-symlink-{inner or 'deck'}-{name}", _symlinked(command, inner), (1, 2)))


# -- designers' templates ----------------------------------------------------------------------------------

TEMPLATES = [
    ("not-utf8", b"\xff\xfe{{ deck.name }}", "not UTF-8"),
    ("divide-by-zero", b"{{ 1 / 0 }}", "ZeroDivisionError"),
    ("recursion", b"{% macro m(n) %}{{ m(n + 1) }}{% endmacro %}{{ m(0) }}", "recurse"),
    ("nested-loops", b"{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}",
     "still running"),
    ("huge-power", b"{{ 7 ** (10 ** 8) }}", "still running"),
    ("huge-number-printed", b"{{ 2 ** (10 ** 6) }}", "digits"),
    ("lipsum", b"{{ lipsum(n=2000000) }}", "lipsum"),
    ("huge-output", b"{% for a in range(100000) %}{{ 'x' * 1000 }}{% endfor %}", "MB"),
    ("syntax", b"{% for x in %}", "rulebook.md.j2:1"),
    ("undefined", b"{{ nothing_here }}", "undefined"),
    ("unknown-filter", b"{{ deck.name|shout }}", "shout"),
]


def _template(source: bytes):
    def setup(tmp_path):
        folder = tmp_path / "templates"
        folder.mkdir()
        (folder / "rulebook.md.j2").write_bytes(source)
        return (["rulebook", "wizard", "--format", "md", "--template", folder / "rulebook.md.j2",
                 "--output", tmp_path / "out"], ("rulebook.md.j2", "template error"))

    return setup


CASES += [Case(f"template-{name}", _template(source), (2,)) for name, source, _ in TEMPLATES]
TEMPLATE_WORDS = {f"template-{name}": word for name, _, word in TEMPLATES}


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_bad_command(run_cli, tmp_path, monkeypatch, case):
    monkeypatch.setattr(templated, "TEMPLATE_SECONDS", 3.0)
    argv, needles = case.setup(tmp_path)
    if case.id in TEMPLATE_WORDS:
        needles = (*needles, TEMPLATE_WORDS[case.id])
    with deadline():
        result = run_cli(*argv)
    check_result(result, case.codes, needles)
    if case.id.startswith("template-"):
        assert not (tmp_path / "out" / "wizard" / "wizard-rules.md").exists()


# -- the disk filling up ---------------------------------------------------------------------------------

FULL_DISK_COMMANDS = ["images", "print", "lackey", "mush", "rulebook", "save-logs", "build", "tuckbox-tgc"]
WRITE_FAILURES = {errno.ENOSPC: ("No space left on device", "the disk is full"),
                  errno.EROFS: ("Read-only file system", "read-only"),
                  errno.EACCES: ("Permission denied", "--output")}


@pytest.mark.parametrize("failure", sorted(WRITE_FAILURES), ids=errno.errorcode.get)
@pytest.mark.parametrize("name", FULL_DISK_COMMANDS)
def test_a_failing_disk_is_a_clear_error_and_leaves_no_temp_files(run_cli, tmp_path, monkeypatch, name, failure):
    argv = [str(a).replace("{out}", str(tmp_path / "out")) for a in OUTPUT_COMMANDS[name]]
    if name == "build":
        decks = tmp_path / "decks"
        decks.mkdir()
        (decks / "tiny.toml").write_text(TINY, encoding="utf-8")
        argv += ["--decks-dir", str(decks)]
    original = Path.write_bytes

    reason, hint = WRITE_FAILURES[failure]

    def failing(self, data):
        if self.name.endswith(".tmp"):
            raise OSError(failure, reason)
        return original(self, data)

    monkeypatch.setattr(Path, "write_bytes", failing)
    with deadline():
        result = run_cli(*argv)
    check_result(result, (1, 2), (reason, hint, str(tmp_path / "out")))
    leftovers = [p for p in (tmp_path / "out").rglob("*.tmp")] if (tmp_path / "out").exists() else []
    assert not leftovers
