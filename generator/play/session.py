"""One table served to its seats: the deck (and the newer version a save brings), the seating
plan, the game in progress, which link belongs to which seat and what it may see, bots and
chance moving at a human pace, and who to tell when anything changes.

Links: the owner's (printed by `deckgen play`: it seats the players, deals, takes back moves,
and plays the first person's seat, or every person's seat in hot-seat mode) and one per other
person. Each is an unguessable token (`secrets.token_urlsafe`); a request without one of them
gets nothing. What a link sees is built from `GameState.view(seat)` and `Game.action_view`,
the engine's own account of that seat's knowledge, never from the whole state.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import re
import secrets
import threading
from hmac import compare_digest
from pathlib import Path

from ..core.errors import DeckgenError, InvalidDeck
from ..core.files import read_input
from ..core.localweb import Listeners
from ..deck.loader import check_deck, load_deck
from ..games.base import CHANCE, Game, IllegalAction, game_for, variant_params
from ..games.bots import BOT_KINDS, make_bot
from ..games.referee import rule_citation
from .images import CardImages
from .table import PERSON, SeatPlan, Table, TableError

log = logging.getLogger(__name__)
TOKEN_BYTES = 18  # 144 random bits a link
NAME = re.compile(r"[\w'.-]{1,24}")  # one word: every engine's log can name the player
SEAT_LIKE = re.compile(r"[Pp]\d+")  # P1, P2...: how quidditch-v2 logs name seats


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def check_plan(game: Game, plan: list[SeatPlan]) -> None:
    """Refuse a seating plan the game or its log cannot take, saying what is allowed."""
    game.check_players(len(plan))
    seen: set[str] = set()
    for seat, entry in enumerate(plan):
        if not entry.person:
            try:  # any player program the engines make (a level the bots module or the engine knows)
                make_bot(game, entry.kind, random.Random(0))
            except DeckgenError:
                raise TableError(f"seat {seat + 1}: {entry.kind!r} is neither a person nor a bot; choose one of "
                                 f"{', '.join((PERSON, *BOT_KINDS))}") from None
        if not NAME.fullmatch(entry.name) or (SEAT_LIKE.fullmatch(entry.name) and entry.name.upper() != f"P{seat + 1}"):
            raise TableError(f"seat {seat + 1}: the name {entry.name!r} must be one word of up to 24 letters, digits, "
                             f"', . or -, and not another seat's P-number")
        if entry.name.casefold() in seen:
            raise TableError(f"seat {seat + 1}: {entry.name!r} sits at the table already; give each seat its own name")
        seen.add(entry.name.casefold())


class PlaySession:
    """The table of one deck file, safe to use from the server's, the runner's and the watcher's threads."""

    def __init__(self, deck_path: Path, logs_dir: Path, bot_delay: float = 1.0, dpi: int = 100,
                 seed: int | None = None, variants: tuple[str, ...] = ()):
        self.deck_path = Path(deck_path)
        self.logs_dir = Path(logs_dir)
        self.bot_delay = bot_delay
        self.seed = seed if seed is not None else secrets.randbits(63)
        self.variants = tuple(variants)
        deck = load_deck(self.deck_path)
        game = self._make_game(deck)  # a deck without an engine cannot be played: say so at once
        self.players = (game.min_players, game.max_players)
        self.decks = {1: deck}  # deck versions in use: the game's and the newest good save
        self.newest = self.game_version = 1
        self.reload_error: list[str] = []
        self.images = CardImages(dpi)
        self.images.add(1, deck)
        self.owner = new_token()
        self.plan: list[SeatPlan] = []
        self.links: dict[int, str] = {}  # person seat -> its link's token (not the owner's seat)
        self.hot_seat = False
        self.viewer: int | None = None  # hot seat: the person the device was last handed to
        self.table: Table | None = None
        self.games = 0
        self.version = 0
        self.failure = ""  # why the runner stopped, if it did
        self.lock = threading.RLock()
        self._changed = threading.Condition(self.lock)
        self.listeners = Listeners()  # the open pages, told each new version
        self._stopping = False
        self._runner = threading.Thread(target=self._run, name="deckgen-play-runner", daemon=True)

    @property
    def deck(self):
        return self.decks[self.newest]

    def start(self) -> "PlaySession":
        self._runner.start()
        return self

    def stop(self) -> None:
        with self._changed:
            self._stopping = True
            self._changed.notify_all()
        self._runner.join(timeout=5)

    def _make_game(self, deck) -> Game:
        return game_for(deck, variant_params(deck, self.variants))

    # -- who holds a link ------------------------------------------------------------------------

    def role(self, token: str) -> tuple[bool, int | None] | None:
        """(owner?, seat) for a link's token; None for anything else."""
        if compare_digest(token.encode(), self.owner.encode()):
            return True, None
        for seat, link in self.links.items():
            if compare_digest(token.encode(), link.encode()):
                return False, seat
        return None

    def seat_of(self, owner: bool, seat: int | None) -> int | None:
        """The seat whose eyes a link looks through now (None: an onlooker's)."""
        if not owner:
            return seat
        if self.hot_seat:
            table = self.table
            to_act = table.person_to_act() if table else None
            return self.viewer if to_act is None or to_act == self.viewer else None
        return next((index for index, entry in enumerate(self.plan) if entry.person), None)

    # -- the owner's requests ----------------------------------------------------------------------

    def seat(self, plan: list[SeatPlan], hot_seat: bool) -> None:
        """Seat the players (a new link for each person but the owner's seat) and deal."""
        with self.lock:
            check_plan(self._make_game(self.deck), plan)
            self.plan, self.hot_seat = list(plan), hot_seat
            people = [seat for seat, entry in enumerate(plan) if entry.person]
            self.links = {} if hot_seat else {seat: new_token() for seat in people[1:]}
            self.deal()

    def deal(self) -> None:
        """A new game for the seated players, under the newest good version of the deck."""
        with self.lock:
            if not self.plan:
                raise TableError("seat the players first")
            deck = self.deck
            game = self._make_game(deck)
            check_plan(game, self.plan)
            self.games += 1
            self.game_version = self.newest
            self.decks = {self.newest: deck}
            self.images.keep_only({self.newest})
            seats = ", ".join(f"{entry.name} ({entry.kind})" for entry in self.plan)
            digest = hashlib.sha256(read_input(self.deck_path, "deck")).hexdigest()[:16]
            comments = [f"deckgen play {deck.id}: game {self.games} at the table; seats {seats}",
                        f"deck file {self.deck_path.name} (sha256 {digest}...)"]
            self.table = Table(game, self.plan, self._next_log(), self.seed + self.games, comments)
            self.viewer = None
            self._bump()

    def _next_log(self) -> Path:
        number = 1
        while (path := self.logs_dir / f"game-{number:03d}.toml").exists():
            number += 1
        return path

    def undo(self) -> dict:
        with self.lock:
            if self.table is None:
                raise TableError("no game to take a move back in")
            entry = self.table.undo()
            self._bump()
            return entry

    def hand_over(self, seat: int) -> None:
        """Hot seat: the device is now in the hands of `seat`, the person to act."""
        with self.lock:
            if not self.hot_seat or self.table is None or self.table.person_to_act() != seat:
                raise TableError("hand the device only to the person whose turn it is")
            self.viewer = seat
            self._bump()

    # -- moves -------------------------------------------------------------------------------------

    def act(self, owner: bool, seat: int | None, move: dict) -> None:
        """A person's move: `{"move": id, "step": step}` (one of the moves offered at that step)
        or `{"text": "..."}` (typed as a log writes it). Raises `TableError` or `IllegalAction`."""
        with self.lock:
            table = self.table
            if table is None or table.over:
                raise TableError("no game is in progress")
            acting = self.seat_of(owner, seat)
            to_act = table.to_act()
            if acting is None or to_act != acting:
                pending = table.state.pending()
                raise TableError(f"it is not your turn: the game waits for {pending.owes if pending else 'nobody'}")
            if "text" in move:
                if not isinstance(move["text"], str) or not move["text"].strip():
                    raise TableError("type a move, as a log writes it")
                action = table.parse(move["text"])
            else:
                if move.get("step") != self.step(table) or not isinstance(move.get("move"), int):
                    raise TableError("the table has moved on since; here it is as it is now")
                action = table.move(move["move"])
            table.apply(action)
            self._bump()

    @staticmethod
    def step(table: Table) -> str:
        return f"{len(table.actions)}.{len(table.undone)}"

    def refusal(self, error: IllegalAction) -> dict:
        """A refused move as the referee words it: the message, the rule (number, title, text),
        the ruling, and what was legal."""
        return {"message": error.message, "rule": rule_citation(self.table.game.deck, error.rule, error.ruling),
                "legal": list(error.legal)}

    # -- chance and bots, at a human pace ----------------------------------------------------------

    def _run(self) -> None:
        with self._changed:
            while not self._stopping:
                table = self.table
                if table is None or table.over or table.person_to_act() is not None or self.failure:
                    self._changed.wait()
                    continue
                version = self.version
                if table.to_act() != CHANCE and self.bot_delay > 0:
                    self._changed.wait(self.bot_delay)
                    if self._stopping or self.version != version or self.table is not table:
                        continue
                try:
                    table.play_automatic()
                except Exception as error:  # an engine or bot failure stops the table, said on every page
                    log.exception("the table stopped")
                    self.failure = f"the table stopped: {type(error).__name__}: {error}"
                self._bump()

    # -- saves to the deck ---------------------------------------------------------------------------

    def watched_files(self) -> set[Path]:
        deck = self.deck
        art = {card.art.resolve() for card in deck.cards if card.art is not None}
        return {self.deck_path.resolve(), *(path.resolve() for path in deck.inputs), *art}

    def reload(self) -> None:
        """After a save: a deck that loads becomes the next game's (the game in progress goes on
        under the old one); one that does not is reported to the owner as the CLI prints it."""
        deck, problems = check_deck(self.deck_path)
        errors = [problem for problem in problems if problem.severity == "error"]
        with self.lock:
            try:
                if errors or deck is None:
                    raise InvalidDeck(errors)
                game = self._make_game(deck)
            except DeckgenError as error:
                lines = [str(p) for p in error.problems] if isinstance(error, InvalidDeck) else [str(error)]
                self.reload_error = lines
                self._bump()
                return
            self.reload_error = []
            self.players = (game.min_players, game.max_players)
            if deck == self.deck:
                self._bump()
                return
            self.newest += 1
            self.decks = {version: old for version, old in self.decks.items() if version == self.game_version}
            self.decks[self.newest] = deck
            self.images.add(self.newest, deck)
            self.images.keep_only(set(self.decks))
            self._bump()

    # -- telling the pages ------------------------------------------------------------------------

    def _bump(self) -> None:
        """Something changed: wake the runner and tell every page the new version (each then asks
        for what its own link may see)."""
        self.version += 1
        self._changed.notify_all()
        self.listeners.publish(json.dumps({"version": self.version}))
