"""Playing at the MUSH game table in tests: a TinyMUX with player characters, loading a deck the
way its owner does, and `TableGame`, which plays a whole game there move by move.

`TableGame` keeps the game's engine beside the table: the engine's bot picks each move, the
player types it, the table's new journal entry must say that very move, and the engine
applies it (refusing an illegal one). At every chance event (a deal, a shuffle) it writes the
whole journal so far as a game log (`generator.export.mush_journal`) and replays it through the
referee, and takes the position from there: what the table dealt is what the engine plays on.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from generator.deck.model import Deck
from generator.export.mush_journal import journal_log
from generator.games.base import game_for
from generator.games.logs import dump_log, parse_log
from generator.games.referee import referee

from ..conftest import DECKS
from ..mushserver import MushClient, MushServer, tinymux_installed


def start_server() -> MushServer:
    if not tinymux_installed():
        if os.environ.get("CI"):
            pytest.fail("TinyMUX is not installed on CI: run .ci/install-tinymux.sh before pytest")
        pytest.skip("TinyMUX is not installed (sudo .ci/install-tinymux.sh); CI runs these tests")
    return MushServer()


def create_players(wizard: MushClient, names: list[str]) -> None:
    for name in names:
        wizard.command(f"@pcreate {name}={name.lower()}pw")
        wizard.command(f"@tel *{name}=here")  # new players start in Limbo, the wizard elsewhere


def connect(server: MushServer, wizard: MushClient, names: list[str]) -> dict[str, MushClient]:
    return {name: server.client(name=name, password=f"{name.lower()}pw", queue_watcher=wizard) for name in names}


def load(run_cli, wizard: MushClient, deck_id: str, out: Path) -> str:
    """Export a deck with the CLI and paste it as the wizard; return the new object's dbref."""
    assert run_cli("export", "mush", deck_id, "--decks-dir", DECKS, "-o", out).exit_code == 0
    output = wizard.send_file(out / deck_id / f"{deck_id}.mush")
    match = re.search(r"^Loaded the .* deck as (#\d+): (\d+) cards\. Type \+deckhelp\.$", output, re.MULTILINE)
    assert match and "FAILED" not in output, output
    return match[1]


def act(player: MushClient, line: str) -> str:
    """What the player sees in answer to `line`: messages other players caused before are read first."""
    player.sync()
    return player.command(line)


def get(wizard: MushClient, thing: str, attribute: str) -> str:
    return wizard.command(f"think <[get({thing}/{attribute})]>")[1:-1]


def zone(wizard: MushClient, thing: str, attribute: str) -> list[str]:
    return get(wizard, thing, attribute).split()


def journal_entries(wizard: MushClient, thing: str, start: int = 1) -> list[str]:
    """The table's journal entries from number `start` on, read by its owner."""
    count = int(get(wizard, thing, "LOGN") or 0)
    if count < start:
        return []
    shown = wizard.command(f"think [iter(lnum({start},{count}),##: [get({thing}/LOG.##)],%b,%r)]")
    return [line.split(": ", 1)[1] for line in shown.split("\n")]


class _LastState:
    """A referee recorder that keeps the position after the last action of the log."""

    game = None

    def __init__(self) -> None:
        self.state = None

    def before(self, state, action, field, line) -> None:
        self.state = state

    def after(self, state) -> None:
        self.state = state


class TableGame:
    """A game at a loaded table, its players connected in seat order (they sit and start it)."""

    def __init__(self, deck: Deck, wizard: MushClient, thing: str, players: dict[str, MushClient], seed: int,
                 bot: str = "random"):
        self.deck = deck
        self.game = game_for(deck)
        self.wizard = wizard
        self.thing = thing
        self.players = players
        self.names = list(players)
        self.bot = self.game.bot(bot, random.Random(seed))
        self.entries: list[str] = []
        self.added: list[str] = []
        self.moves = 0

    def sit_and_start(self) -> str:
        for client in self.players.values():
            assert act(client, "+sit").startswith("You sit down")
        started = act(self.players[self.names[0]], "+start")
        self.entries += journal_entries(self.wizard, self.thing, len(self.entries) + 1)
        return started

    def log_text(self) -> str:
        """The journal so far, written as a game log."""
        self.entries += journal_entries(self.wizard, self.thing, len(self.entries) + 1)
        log = journal_log(self.deck, self.entries)
        header = {key: log.pop(key) for key in ("deck", "players")}
        return dump_log(header, log)

    def position(self):
        """The referee's position after the table's journal so far; fails at the first illegal move."""
        recorder = _LastState()
        report = referee(parse_log(self.log_text(), self.deck, self.game.log_sections), recorder)
        assert report.legal, "\n".join(report.text().splitlines()[-12:]) + "\n" + "\n".join(self.entries[-8:])
        if recorder.state is None:
            recorder.state = self.game.new_state(len(self.names))
        return recorder.state

    def move(self, name: str, line: str, *expected: str) -> str:
        """`name` types `line`; the table must journal exactly the `expected` entries (when given).
        The entries it added are kept in `added`."""
        self.moves += 1
        shown = act(self.players[name], line)
        assert not shown.startswith(("You are not", "You have no", "Give ", "The game")), f"{name}> {line}: {shown}"
        self.added = journal_entries(self.wizard, self.thing, len(self.entries) + 1)
        self.entries += self.added
        if expected:
            assert [entry.casefold() for entry in self.added] == [entry.casefold() for entry in expected], \
                (line, self.added, expected, self.entries[-12:])
        return shown
