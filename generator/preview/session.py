"""One deck under preview: its last good drawings, what changed on each save, and who to tell.

`PreviewSession.reload()` is called on every save. It loads the deck; if the deck is broken it
keeps the last good pictures and publishes the error as the CLI prints it. Otherwise it hashes
every card's drawing inputs, redraws only the cards whose hash is new, publishes the new card
list (the page swaps the images whose hash changed), then checks the deck the way `deckgen
validate` does without the playtest and publishes the problems and each card's lint badges.
Images are kept for the current hashes only, so memory stays flat however long the session runs.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..core.errors import DeckgenError, InvalidDeck, Problem, UnreadableInput
from ..core.localweb import Listeners
from ..deck.loader import check_deck
from ..faces.art import art_problems
from ..faces.images import card_pngs
from ..deck.sizes import card_size_mm
from ..faces.raster import BackOf, card_key, own_backs
from ..validate import validate_deck
from .hashing import card_hashes

if TYPE_CHECKING:
    from ..deck.model import Deck

PRINT_DPI = 300  # the zoom shows a card at the build's print resolution
ZOOMS_KEPT = 8  # print-resolution images kept for the zoom
DRAWN_TOGETHER = 4  # pictures drawn per batch: the first reach the page while the rest are drawn
DRAWING_WAIT_SECONDS = 60.0  # how long a request waits for its picture to be drawn

# Lint badges: (badge, what in a problem's message or field marks it), first match wins.
# A new lint check gets its badge by adding a row.
BADGES: tuple[tuple[str, re.Pattern], ...] = (
    ("glyph", re.compile(r"characters the card font cannot draw")),
    ("overflow", re.compile(r"does not fit its box|wider than the box")),
    ("low-res art", re.compile(r"resolution|dpi", re.IGNORECASE)),
    ("contrast", re.compile(r"contrast", re.IGNORECASE)),
    ("art", re.compile(r"art file|\.art$")),
)
_CARD_IN_MESSAGE = re.compile(r"^card '(?:[^']|\\')*' \((?P<code>[^)\s]+)\)|^card \"[^\"]*\" \((?P<code2>[^)\s]+)\)")


@dataclass
class CardView:
    """What the page shows for one distinct face or the back."""

    key: str  # "face:<id>" or "back"
    side: str  # "face" or "back"
    id: str
    name: str
    code: str
    count: int
    hash: str
    badges: list[str] = field(default_factory=list)
    back_hash: str = ""  # the picture of this card's back: its own back layout's, else the deck's back


class PreviewSession:
    """The preview state of one deck file, safe to use from the server's and the watcher's threads."""

    def __init__(self, deck_path: Path, output_dir: Path, dpi: int = 100, bleed_mm: float = 3.0,
                 simulate: int = 0, links: Sequence[tuple[str, str]] = ()):
        self.deck_path = Path(deck_path)
        self.links = [{"title": title, "url": url} for title, url in links]  # tabs beside the cards (Play)
        self.output_dir = Path(output_dir)
        self.dpi, self.bleed_mm = dpi, bleed_mm
        self.simulate = simulate  # games per setting in each check's playtest; 0: none
        self.checks = ""  # what the last check covered, for the page
        self.deck: "Deck | None" = None
        self.cards: list[CardView] = []
        self.problems: list[dict] | None = None  # None until the first check has run
        self.error: list[str] = []  # the broken save's problems, as the CLI prints them
        self.version = 0
        self._images: dict[str, bytes] = {}  # hash -> PNG at self.dpi
        self._zooms: OrderedDict[str, bytes] = OrderedDict()  # hash -> PNG at PRINT_DPI
        self._lock = threading.RLock()
        self._drawn = threading.Condition(self._lock)  # signalled as pictures are drawn
        self._pending: set[str] = set()  # hashes of published pictures still being drawn
        self._reloading = threading.Lock()  # one reload at a time
        self.listeners = Listeners()  # the open pages
        self._art: set[Path] = set()  # the art and other files the latest readable save reads

    # -- watching ------------------------------------------------------------------------------

    @property
    def folder(self) -> Path:
        return self.deck_path.resolve().parent

    def watched_files(self) -> set[Path]:
        """The files whose save redraws cards: the deck file, every art file it names and the
        files it reads (shared layouts, fonts, icons, spreadsheets)."""
        return {self.deck_path.resolve()} | self._art

    def reload(self, check: bool = True) -> dict:
        """Load the deck anew and publish what changed; return the published update."""
        with self._reloading:
            try:
                deck, problems = check_deck(self.deck_path)
                if deck is not None:  # watch the art it names, even art that is not there yet
                    self._art = {card.art.resolve() for card in deck.cards if card.art is not None}
                    self._art |= {path.resolve() for path in deck.inputs}
                errors = [p for p in problems if p.severity == "error"]
                if errors or deck is None:
                    raise InvalidDeck(errors)
                # Art that cannot be read cannot be drawn: like the build, refuse it, listing each.
                unreadable = art_problems(deck)
                if unreadable:
                    raise InvalidDeck(unreadable)
                update = self._redraw(deck)
            except DeckgenError as error:
                return self._publish_error(error)
            except Exception as error:  # noqa: BLE001 - a drawing failure must not end the watch
                # On the page and as one line in the terminal (the watch prints each update), no
                # traceback: the designer can act on the message, not on deckgen's insides.
                return self._publish_error(DeckgenError(
                    f"cannot draw the cards of {self.deck_path}: {type(error).__name__}: {error}"))
        if check:
            self.check()
        return update

    def _publish_error(self, error: DeckgenError) -> dict:
        with self._lock:
            self.error = _cli_lines(error)
            self.version += 1
            update = {"type": "error", **self.state()}
            self._publish(update)
            return update

    def _redraw(self, deck: "Deck") -> dict:
        """Publish the new cards at once, then draw the missing pictures a few at a time: the
        page asks for them straight away, and each request is answered as soon as its picture
        is drawn (`image` waits for it), so drawing and loading overlap."""
        own = own_backs(deck, card_size_mm(deck))
        hashes = card_hashes(deck, own)
        cards_by_key: dict = {card_key(card): card for card in deck.cards}
        cards_by_key.update({card_key(BackOf(card)): BackOf(card) for card in own})
        with self._lock:
            missing = [key for key, digest in hashes.items() if digest not in self._images]
            before = (self.cards, self.deck)
            badges = {card.key: card.badges for card in self.cards}
            old = {card.key: card.hash for card in self.cards}
            self.cards = [CardView(key, "face", card.id, card.name, card.code, card.count, hashes[key],
                                   badges.get(key, []), hashes.get(card_key(BackOf(card)), hashes["back"]))
                          for key, card in cards_by_key.items() if not isinstance(card, BackOf)]
            self.cards.append(CardView("back", "back", "back", deck.back.title or "Card back", "", 1,
                                       hashes["back"], badges.get("back", []), hashes["back"]))
            self.deck = deck
            self.error = []
            self.version += 1
            self._pending = {hashes[key] for key in missing}
            changed = [key for key, digest in hashes.items() if old.get(key) not in (None, digest)]
            update = {"type": "cards", "version": self.version, "changed": changed, **self.state()}
            self._publish(update)
        try:
            for start in range(0, len(missing), DRAWN_TOGETHER):
                chunk = missing[start:start + DRAWN_TOGETHER]
                drawn = card_pngs(deck, [cards_by_key.get(key) for key in chunk], self.dpi, self.bleed_mm)
                with self._lock:
                    for key, png in zip(chunk, drawn):
                        self._images[hashes[key]] = png
                        self._pending.discard(hashes[key])
                    self._drawn.notify_all()
        except Exception:
            with self._lock:  # back to the last good pictures; the caller shows the error
                self.cards, self.deck = before
                self._pending = set()
                self._drawn.notify_all()
            raise
        with self._lock:
            current = set(hashes.values())
            for stale in [digest for digest in self._images if digest not in current]:
                del self._images[stale]
        return update

    def check(self) -> dict | None:
        """Check the current deck as `deckgen validate --simulate N` does (N = `simulate`, 0 by
        default: no playtest); publish problems and badges.

        Runs without holding the lock, so pictures are served while the deck is checked."""
        deck = self.deck
        if deck is None:
            return None
        try:
            report = validate_deck(self.deck_path, simulate=self.simulate, workers=1)
        except Exception as error:  # noqa: BLE001 - a failed check must not end the watch's checks
            with self._lock:
                self.problems = [{"text": f"deckgen: error: the check failed: {type(error).__name__}: {error}",
                                  "severity": "error", "card": None, "badge": None}]
                self.version += 1
                update = {"type": "problems", "version": self.version, **self.state()}
                self._publish(update)
                return update
        with self._lock:
            if report.deck is None or report.deck != self.deck:
                return None  # the file changed again meanwhile: the next check covers it
            by_code = {card.code: card_key(card) for card in self.deck.cards}
            problems, badges = [], {}
            for problem in report.sorted_problems():
                target = _target_card(problem, by_code)
                badge = _badge(problem)
                if target and badge and badge not in badges.setdefault(target, []):
                    badges[target].append(badge)
                problems.append({"text": str(problem), "severity": problem.severity, "card": target,
                                 "badge": badge})
            for card in self.cards:
                card.badges = badges.get(card.key, [])
            self.problems = problems
            played = sum(run.tally.games for run in report.playtest.runs) if report.playtest else 0
            self.checks = (f"format, composition, texts and art; playtest of {played} games" if played
                           else f"format, composition, texts and art ({report.note or 'no playtest'})")
            self.version += 1
            update = {"type": "problems", "version": self.version, **self.state()}
            self._publish(update)
            return update

    # -- what the server reads -----------------------------------------------------------------

    def state(self) -> dict:
        with self._lock:
            deck = self.deck
            geometry = None
            if deck is not None:
                geometry = {"trim_mm": [deck.card_size.width_mm, deck.card_size.height_mm],
                            "bleed_mm": self.bleed_mm, "dpi": self.dpi, "print_dpi": PRINT_DPI}
            return {"deck": {"id": deck.id, "name": deck.name, "file": str(self.deck_path)} if deck else None,
                    "geometry": geometry, "cards": [asdict(card) for card in self.cards],
                    "problems": self.problems, "checks": self.checks, "error": self.error,
                    "version": self.version, "links": self.links}

    def image(self, digest: str, dpi: int) -> bytes | None:
        """A current card's PNG by content hash, at the preview dpi or (the zoom) print dpi."""
        with self._lock:
            if dpi == self.dpi:
                self._drawn.wait_for(lambda: digest not in self._pending, timeout=DRAWING_WAIT_SECONDS)
                return self._images.get(digest)
            if dpi != PRINT_DPI or self.deck is None:
                return None
            if digest in self._zooms:
                self._zooms.move_to_end(digest)
                return self._zooms[digest]
            deck = self.deck
            key = next((card.key for card in self.cards if card.hash == digest), None)
            own_back = next((card.id for card in self.cards if card.side == "face" and card.back_hash == digest
                             and card.back_hash != card.hash), None)
        if key is None and own_back is None:
            return None
        if key is None:  # a card's own back, as the backs view shows it
            card = BackOf(next(card for card in deck.cards if card.id == own_back))
        else:
            card = next((card for card in deck.cards if card_key(card) == key), None)
        png = card_pngs(deck, [card], PRINT_DPI, self.bleed_mm)[0]  # drawn without the lock held
        with self._lock:
            self._zooms[digest] = png
            while len(self._zooms) > ZOOMS_KEPT:
                self._zooms.popitem(last=False)
        return png

    def _publish(self, update: dict) -> None:
        self.listeners.publish(json.dumps(update, ensure_ascii=False))


def _cli_lines(error: DeckgenError) -> list[str]:
    """The lines `deckgen` prints for this error (see `generator.cli.app.main`)."""
    if isinstance(error, InvalidDeck):
        return [str(problem) for problem in error.problems] + [f"{len(error.problems)} problem(s) found"]
    if isinstance(error, UnreadableInput):
        return [str(error.problem)]
    return [f"deckgen: error: {error}"]


def _target_card(problem: Problem, by_code: dict[str, str]) -> str | None:
    match = _CARD_IN_MESSAGE.match(problem.message)
    if match:
        return by_code.get(match.group("code") or match.group("code2"))
    if problem.message.startswith("the card back") or problem.field.startswith("back."):
        return "back"
    return None


def _badge(problem: Problem) -> str | None:
    text = f"{problem.message} {problem.field}"
    return next((badge for badge, pattern in BADGES if pattern.search(text)), None)
