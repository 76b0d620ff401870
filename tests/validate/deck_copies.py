"""Copies of the shipped decks for the validator's tests: another id, fewer player counts or
variants, and a [playtest] table of targets."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import DECKS


def playtest_table(first_seat_win=None, median_length=None, timeouts_below=None, skill=()) -> str:
    """A [playtest] table; `skill` holds (player, beats, at_least) triples."""
    lines = ["", "[playtest]"]
    for name, value in (("first_seat_win", first_seat_win), ("median_length", median_length),
                        ("timeouts_below", timeouts_below)):
        if value is not None:
            lines.append(f"{name} = {list(value) if isinstance(value, tuple) else value}")
    for player, beats, at_least in skill:
        lines += ["", "[[playtest.skill]]", f'player = "{player}"', f'beats = "{beats}"', f"at_least = {at_least}"]
    return "\n".join(lines) + "\n"


def deck_copy(folder: Path, deck: str, new_id: str, extra: str = "", players: tuple[int, int] | None = None,
              variants: tuple[str, ...] | None = None) -> tuple[Path, int]:
    """`deck` written to folder/new_id.toml with `extra` appended, its player range narrowed and
    only the `variants` named kept; the path and the line count before `extra`."""
    text = (DECKS / f"{deck}.toml").read_text(encoding="utf-8").replace(f'id = "{deck}"', f'id = "{new_id}"', 1)
    if players is not None:
        text = re.sub(r"players = \{ min = \d+, max = \d+ \}", f"players = {{ min = {players[0]}, max = {players[1]} }}",
                      text, count=1)
    if variants is not None:  # a variant is its header and four lines: id, name, text, params
        text = re.sub(r'\[\[variants\]\]\nid = "([^"]+)"\n(?:.*\n){3}',
                      lambda match: match.group(0) if match.group(1) in variants else "", text)
    path = folder / f"{new_id}.toml"
    path.write_text(text + extra, encoding="utf-8")
    return path, len(text.splitlines())
