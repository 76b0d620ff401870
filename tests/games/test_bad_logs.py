"""The bad-input corpus, game logs: every way a log written at the table goes wrong, through
`deckgen referee`. Each case asserts the exit code, no traceback, no hang, and a message
naming the log and the line or field."""

from __future__ import annotations

import os

import pytest

from tests.badinput import Case, check_result, deadline

GOOD = '''deck = "wizard"
players = ["Ann", "Bo", "Cy"]

[[rounds]]
dealer = "Bo"
hands.Ann = ["KC"]
hands.Bo = ["3H"]
hands.Cy = ["3D"]
turned = "8H"
bids = { Cy = 1, Ann = 0, Bo = 0 }
tricks = [
  ["3D", "KC", "3H"],
]
'''


def _log(text: str | bytes, needles: tuple[str, ...]):
    def setup(tmp_path):
        path = tmp_path / "game.toml"
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return ["referee", "wizard", path], ("game.toml",) + needles

    return setup


def _edit(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


# (name, log text, exit codes, words the message must hold besides the file name)
LOGS = [
    # the hang and the crash of the issue: strings the line finder used to misread
    ("escaped-quote-multiline", _edit('deck = "wizard"', 'deck = "wizard"\nx = ["""q\\"""}"""]'), (2,), ("x",)),
    ("escaped-quote-multiline-later", _edit('turned = "8H"', 'turned = "8H"\nnote = """a\\"""b"""\nbids2 = 1'),
     (2,), ("rounds[0]",)),
    ("quotes-after-triple", _edit('deck = "wizard"', 'deck = "wizard"\nx = ["""a"""""]'), (2,), ("x",)),
    ("literal-multiline", _edit('deck = "wizard"', "deck = \"wizard\"\nx = ['''a\\''']"), (2,), ("x",)),
    ("bracket-in-quoted-header", _edit("[[rounds]]", '["a]b"]\nc = 1\n\n[[rounds]]'), (2,), ("a]b",)),
    ("hash-in-string", _edit('turned = "8H"', 'turned = "8H # not a comment"'), (2,), ("rounds[0].turned",)),
    ("brace-in-string", _edit('bids = { Cy = 1', 'bids = { "C}y" = 1'), (2,), ("rounds[0].bids",)),
    ("escaped-backslash-end", _edit('deck = "wizard"', 'deck = "wizard"\nx = "a\\\\"\ny = ["b"]'), (2,), ("x",)),
    # header
    ("players-missing", _edit('players = ["Ann", "Bo", "Cy"]\n', ""), (2,), ("players",)),
    ("players-empty", _edit('players = ["Ann", "Bo", "Cy"]', "players = []"), (2,), ("players",)),
    ("players-number", _edit('players = ["Ann", "Bo", "Cy"]', "players = 3"), (2,), ("players",)),
    ("player-twice", _edit('players = ["Ann", "Bo", "Cy"]', 'players = ["Ann", "ann", "Cy"]'), (2,), ("players[1]",)),
    ("player-blank", _edit('players = ["Ann", "Bo", "Cy"]', 'players = ["Ann", " ", "Cy"]'), (2,), ("players[1]",)),
    ("player-not-text", _edit('players = ["Ann", "Bo", "Cy"]', 'players = ["Ann", 2, "Cy"]'), (2,), ("players[1]",)),
    ("other-deck", _edit('deck = "wizard"', 'deck = "wizard-hearts"'), (2,), ("deck",)),
    ("seed-text", _edit('deck = "wizard"', 'deck = "wizard"\nseed = "seven"'), (2,), ("seed",)),
    ("variant-unknown", _edit('deck = "wizard"', 'deck = "wizard"\nvariant = "chaos"'), (2,), ("variant",)),
    ("variant-number", _edit('deck = "wizard"', 'deck = "wizard"\nvariant = 4'), (2,), ("variant",)),
    ("unknown-key", _edit('deck = "wizard"', 'deck = "wizard"\nweather = "rain"'), (2,), ("weather",)),
    ("params-wrong-type", _edit("[[rounds]]", "[params]\nbidding = 3\n\n[[rounds]]"), (2,), ("params", "bidding")),
    ("params-unknown", _edit("[[rounds]]", "[params]\ncolour = 3\n\n[[rounds]]"), (2,), ("params", "colour")),
    ("params-bad-value", _edit("[[rounds]]", '[params]\nbidding = "shouted"\n\n[[rounds]]'), (2,),
     ("params", "bidding")),
    ("params-not-table", _edit('deck = "wizard"', 'deck = "wizard"\nparams = 3'), (2,), ("params",)),
    # the engine's tables
    ("rounds-missing", GOOD.split("[[rounds]]")[0], (1, 2), ("rounds",)),
    ("rounds-table", _edit("[[rounds]]", "[rounds]"), (2,), ("rounds",)),
    ("dealer-unknown", _edit('dealer = "Bo"', 'dealer = "Zed"'), (1, 2), ("rounds[0].dealer",)),
    ("dealer-number", _edit('dealer = "Bo"', "dealer = 2"), (2,), ("rounds[0].dealer",)),
    ("hand-unknown-card", _edit('hands.Ann = ["KC"]', 'hands.Ann = ["ZZ"]'), (1, 2), ("rounds[0].hands.Ann",)),
    ("hand-not-list", _edit('hands.Ann = ["KC"]', 'hands.Ann = "KC"'), (2,), ("rounds[0].hands.Ann",)),
    ("hand-card-number", _edit('hands.Ann = ["KC"]', "hands.Ann = [13]"), (2,), ("rounds[0].hands.Ann",)),
    ("turned-unknown", _edit('turned = "8H"', 'turned = "8X"'), (1, 2), ("rounds[0].turned",)),
    ("bid-text", _edit("Cy = 1,", 'Cy = "one",'), (2,), ("rounds[0].bids",)),
    ("bid-negative", _edit("Cy = 1,", "Cy = -1,"), (1, 2), ("rounds[0].bids",)),
    ("bid-huge", _edit("Cy = 1,", "Cy = 100000000000000000000,"), (1, 2), ("rounds[0].bids",)),
    ("bid-unknown-player", _edit("Cy = 1,", "Zed = 1,"), (1, 2), ("rounds[0].bids",)),
    ("trick-unknown-card", _edit('["3D", "KC", "3H"]', '["3D", "XX", "3H"]'), (1, 2), ("rounds[0].tricks[0]",)),
    ("trick-not-held", _edit('["3D", "KC", "3H"]', '["3D", "AS", "3H"]'), (1, 2), ("rounds[0].tricks[0]",)),
    ("trick-number", _edit('["3D", "KC", "3H"]', "[1, 2, 3]"), (2,), ("rounds[0].tricks[0]",)),
    ("trick-nested", _edit('["3D", "KC", "3H"]', '[["3D"], "KC", "3H"]'), (2,), ("rounds[0].tricks[0]",)),
    ("round-unknown-key", _edit('turned = "8H"', 'turned = "8H"\nmood = "sunny"'), (2,), ("rounds[0].mood",)),
    # the file itself
    ("not-toml", _edit('dealer = "Bo"', 'dealer = "Bo'), (2,), (":5",)),
    ("not-utf8", GOOD.encode("utf-8").replace(b"Ann", b"\xffnn", 1), (2,), ("not UTF-8", ":2")),
    ("empty", "", (2,), ("players",)),
    ("deep-nesting", _edit('deck = "wizard"', 'deck = "wizard"\nx = ' + "[" * 3000 + "]" * 3000), (2,), ("TOML",)),
    ("too-large", "# padding padding padding\n" * 700_000 + GOOD, (2,), ("limit",)),
]

CASES = [Case(f"log-{name}", _log(text, needles), codes) for name, text, codes, needles in LOGS]


def _special(kind: str):
    def setup(tmp_path):
        path = tmp_path / "game.toml"
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "folder":
            path.mkdir()
        return ["referee", "wizard", path], ("game.toml", "not a regular file" if kind != "missing" else "does not exist")

    return setup


CASES += [Case(f"log-file-{kind}", _special(kind), (2,)) for kind in ("fifo", "folder", "missing")]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_bad_log(run_cli, tmp_path, case):
    argv, needles = case.setup(tmp_path)
    with deadline(30):
        result = run_cli(*argv)
    check_result(result, case.codes, needles)


def test_the_good_log_is_good(run_cli, tmp_path):
    """The corpus's base log referees cleanly, so each case's error is the one it introduced."""
    path = tmp_path / "game.toml"
    path.write_text(GOOD, encoding="utf-8")
    result = run_cli("referee", "wizard", path)
    assert result.exit_code in (0, 1), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
