"""A playtest's work as data any worker can run: the deck travels in the task, engines are built
once per worker process, and chunks are sized by the time they are measured to take.

A task carries everything its figures depend on: the deck (`DeckData`: the loaded deck's
bytes, cards read from spreadsheets included, with a digest of the deck's files and the
deckgen version that made it), the engine parameters, the players and their budgets, the
seeds and the range of games. So a worker on another machine needs no shared folder, only
the same deckgen version (a worker with another version reports it instead of playing).

Chunks: the first few of each kind of run are one game each, timed on the worker; after that
a chunk is sized to take about `CHUNK_SECONDS`, never so large that a worker gets fewer than
`IN_FLIGHT_PER_WORKER` of what is left. Figures are sums over games whose seeds do not depend
on the chunking, so any sizes give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import pickle
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Hashable, Mapping

from .. import __version__
from ..core.errors import DeckgenError
from ..deck.model import Deck
from ..games.base import Game, game_for

if TYPE_CHECKING:
    from pathlib import Path

CHUNK_SECONDS = 20.0  # a chunk's target time on a worker: within 10-60 s, long enough to dwarf shipping it
IN_FLIGHT_PER_WORKER = 4  # chunks queued per worker: enough to keep it busy, few enough to stay streamed


@dataclass(frozen=True)
class DeckData:
    """A deck as tasks carry it."""

    digest: str  # of the deck file and every file it read, and the deckgen version: names the deck in checkpoints
    data: bytes = field(repr=False, compare=False)  # the loaded `Deck`, pickled
    version: str = __version__

    @classmethod
    def of(cls, deck: Deck) -> "DeckData":
        if deck.source is None:
            raise DeckgenError(f"deck {deck.id!r} has no file, so a playtest cannot name its work")
        digest = hashlib.sha256(__version__.encode())
        for path in (deck.source, *deck.inputs):
            digest.update(str(path.name).encode() + b"\0" + _file_bytes(path))
        return cls(digest.hexdigest(), pickle.dumps(deck, protocol=pickle.HIGHEST_PROTOCOL))

    def check_version(self) -> None:
        if self.version != __version__:
            raise DeckgenError(f"this worker runs deckgen {__version__}, but the job was made with deckgen "
                               f"{self.version}: install the same version on every machine of the cluster")

    def load(self) -> Deck:
        self.check_version()
        return pickle.loads(self.data)


def _file_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise DeckgenError(f"{path}: cannot read it to name the playtest's work: {error}") from None


_DECKS: dict[str, Deck] = {}
_GAMES: dict[tuple[str, str], Game] = {}


def engine_for(deck: DeckData, params: Mapping[str, Any]) -> Game:
    """The engine for a deck and parameters, built once per worker process; the deck is
    unpickled once per digest, for all its settings (engines only read it)."""
    deck.check_version()
    key = (deck.digest, json.dumps(params, sort_keys=True, default=str))
    if key not in _GAMES:
        if deck.digest not in _DECKS:
            _DECKS[deck.digest] = deck.load()
        _GAMES[key] = game_for(_DECKS[deck.digest], params)
    return _GAMES[key]


def plain(task: Any) -> dict:
    """A task as plain data for naming it (a checkpoint's file): the deck by its digest."""
    data = {name: getattr(task, name) for name in task.__dataclass_fields__}
    data["deck"] = task.deck.digest
    return data


class ChunkSizer:
    """Chunk sizes by measured time, per kind of run (`key`); fixed when `fixed` is given (a
    checkpointed run must find its chunks again)."""

    def __init__(self, workers: int, fixed: int | None = None):
        self.workers = workers
        self.fixed = fixed
        self.seconds: dict[Hashable, float] = {}
        self.games: dict[Hashable, int] = {}

    def size(self, key: Hashable, left: int) -> int:
        """Games for the next chunk of this kind, with `left` games of it still to hand out."""
        if self.fixed is not None:
            return min(self.fixed, left)
        games = self.games.get(key)
        if not games:
            return 1  # a first chunk is timed, then the rest are sized from it
        per_game = max(self.seconds[key] / games, 1e-6)
        timed = max(1, int(CHUNK_SECONDS / per_game))
        shared = max(1, -(-left // (self.workers * IN_FLIGHT_PER_WORKER)))
        return min(timed, shared, left)

    def observe(self, key: Hashable, games: int, seconds: float) -> None:
        self.games[key] = self.games.get(key, 0) + games
        self.seconds[key] = self.seconds.get(key, 0.0) + seconds
