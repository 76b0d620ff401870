"""A whole table: session, server and deck watcher started together, stopped together.

`start_table` is the library entry point (tests use it); `serve` is what `deckgen play` runs:
it starts one, prints the owner's link (and each other person's), and waits for Ctrl-C.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from ..core.errors import OptionError
from ..core.localweb import LOOPBACK, serve_until_interrupted
from ..core.watching import FileWatcher
from ..deck.files import resolve_deck_path
from ..deck.loader import DECKS_DIR
from .server import PlayServer
from .session import PlaySession
from .table import SeatPlan, TableError, default_plan


@dataclass
class RunningTable:
    session: PlaySession
    server: PlayServer
    watcher: FileWatcher | None
    thread: threading.Thread

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def owner_url(self) -> str:
        return f"{self.server.url}t/{self.session.owner}/"

    def seat_urls(self) -> dict[int, str]:
        """The link of each person's seat but the owner's."""
        return {seat: f"{self.server.url}t/{token}/" for seat, token in self.session.links.items()}

    def stop(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
        self.session.stop()
        self.server.stop()
        self.thread.join(timeout=5)


def parse_seats(text: str | None, players: int | None = None) -> list[SeatPlan] | None:
    """`--seats person,person,heuristic` as kinds by seat, or `--players N` alone: the first seat a
    person, the rest heuristic bots; None when neither is given (the owner seats the players)."""
    if text:
        kinds = [kind.strip() for kind in text.split(",")]
        if players is not None and players != len(kinds):
            raise OptionError(f"--seats names {len(kinds)} seats but --players says {players}")
        return [SeatPlan(f"P{seat + 1}", kind) for seat, kind in enumerate(kinds)]
    return default_plan(players) if players is not None else None


def named(plan: list[SeatPlan], names: str | None) -> list[SeatPlan]:
    """The plan with `--names Ann,Ben,Cleo` given to its seats in order."""
    if not names:
        return plan
    given = [name.strip() for name in names.split(",")]
    if len(given) != len(plan):
        raise OptionError(f"--names gives {len(given)} names for {len(plan)} seats; give one per seat")
    return [SeatPlan(name, entry.kind) for name, entry in zip(given, plan)]


def start_table(deck: str | Path, decks_dir: Path = DECKS_DIR, logs_dir: Path | None = None,
                output_dir: Path = Path("output"), host: str = "127.0.0.1", port: int = 0, bot_delay: float = 1.0,
                dpi: int = 100, seed: int | None = None, variants: Sequence[str] = (),
                seats: list[SeatPlan] | None = None, hot_seat: bool = False, watch: bool = True) -> RunningTable:
    """Load the deck, seat the players (if a plan is given: else the owner seats them on the
    page) and serve the table; a save to the deck file offers its rules for the next game."""
    path = resolve_deck_path(deck, decks_dir)
    session = PlaySession(path, logs_dir or Path(output_dir) / "play", bot_delay, dpi, seed, tuple(variants))
    if seats is not None:
        try:
            session.seat(seats, hot_seat)
        except TableError as error:
            raise OptionError(str(error)) from None
    session.start()
    try:
        server = PlayServer(session, host, port)
    except OSError as error:
        session.stop()
        raise OptionError(f"cannot serve on {host}:{port}: {error.strerror or error}; "
                          "give another --port (0 picks a free one)") from None
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2},
                              name="deckgen-play", daemon=True)
    thread.start()
    watcher = None
    if watch:
        watcher = FileWatcher(session.watched_files, session.reload, name="deckgen-play-watch").start()
        watcher.ready.wait(timeout=5)
    return RunningTable(session, server, watcher, thread)


def serve(deck: str | Path, decks_dir: Path, logs_dir: Path | None, output_dir: Path, host: str, port: int,
          bot_delay: float, dpi: int, seed: int | None, variants: Sequence[str], seats: str | None,
          names: str | None, players: int | None, hot_seat: bool, open_browser: bool,
          say: Callable[[str], None]) -> None:
    """Run a table until Ctrl-C, printing its links."""
    plan = parse_seats(seats, players)
    if plan is None and names:
        raise OptionError("--names needs --seats or --players (or seat the players on the page)")
    if host not in LOOPBACK:
        say(f"warning: --host {host} lets every computer on the network reach this table; only the links "
            "below open it, so give each seat's link to that player alone")
    table = start_table(deck, decks_dir, logs_dir, output_dir, host, port, bot_delay, dpi, seed, variants,
                        named(plan, names) if plan else None, hot_seat)
    session = table.session
    say(f"table for {session.deck.name} ({session.deck_path}); games are saved in {session.logs_dir}/")
    say(f"your link (seats the players, deals, takes back moves): {table.owner_url}")
    for seat, url in sorted(table.seat_urls().items()):
        say(f"  {session.plan[seat].name}'s link: {url}")
    say("Ctrl-C stops")
    serve_until_interrupted(table.owner_url, open_browser, table.stop, say)
