"""Helpers of the bad-input corpus: a case is a bad input a user can give (a deck, art, a log,
a template, an option, an output folder), the command they run on it, the exit code they
must get and the words the message must contain (the file, and the line or the field).

Every case runs in-process through the `deckgen` entry point (`run_cli`), under an alarm, so a
hang fails the case instead of the suite.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

from .conftest import ROOT

TINY = """\
[deck]
id = "tiny"
name = "Tiny"
players = { min = 2, max = 4 }

[[suits]]
id = "hearts"
name = "Hearts"
symbol = "♥"
code = "H"
color = "#c8102e"

[[ranks]]
id = "ace"
name = "Ace"
code = "A"

[[kinds]]
id = "number"
name = "Number"

[[card_sets]]
kind = "number"

[[cards]]
name = "Joker"
code = "JK"
kind = "number"
count = 2
"""

# Seconds a case may take before it counts as a hang.
CASE_SECONDS = 60


class Hang(Exception):
    """A case ran past CASE_SECONDS."""


@contextmanager
def deadline(seconds: int = CASE_SECONDS) -> Iterator[None]:
    def stop(_signum, _frame):
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Case:
    """`setup(tmp_path)` writes the inputs and returns the command's arguments and the words
    its message must hold."""

    id: str
    setup: Callable[[Path], tuple[Sequence[str], Sequence[str]]]
    codes: tuple[int, ...]


def deck_text(deck: str) -> str:
    return (ROOT / "decks" / f"{deck}.toml").read_text(encoding="utf-8")


def altered(text: str, old: str, new: str, count: int = 1) -> str:
    assert old in text, old
    return text.replace(old, new, count)


def write_deck(tmp_path: Path, text: str | bytes, name: str = "deck.toml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def check_result(result, codes: Sequence[int], needles: Sequence[str]) -> None:
    """The promise to a user: the right exit code, no traceback, and a message naming the
    file and the line or field."""
    seen = result.stdout + result.stderr
    assert "Traceback" not in seen, seen[-2000:]
    assert result.exit_code in codes, f"exit {result.exit_code}, wanted {codes}:\n{seen[-2000:]}"
    for needle in needles:
        assert needle in seen, f"{needle!r} not in:\n{seen[-2000:]}"
