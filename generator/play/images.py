"""The deck's own card pictures for the table, drawn by the build's drawing
(`generator.faces.images.card_pngs`), a few at a time on a thread of their own, kept per deck
version (a game under the old rules still shows the old cards after a save).

A picture is asked for by deck version and card index (or "back"); the first request for a
version starts its drawing (a table nobody looks at draws nothing), and each request waits
until its picture is drawn.
"""

from __future__ import annotations

import logging
import threading

from ..faces.images import card_pngs

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from ..deck.model import Deck

log = logging.getLogger(__name__)
DRAWN_TOGETHER = 6  # pictures per batch: the first reach the pages while the rest are drawn
DRAWING_WAIT_SECONDS = 60.0  # how long a request waits for its picture
BACK = "back"


class CardImages:
    """PNG pictures of each deck version's distinct cards and its back."""

    def __init__(self, dpi: int):
        self.dpi = dpi
        self._pictures: dict[int, dict[str, bytes]] = {}  # deck version -> key ("3", "back") -> PNG
        self._decks: dict[int, "Deck"] = {}
        self._failed: dict[int, str] = {}
        self._started: set[int] = set()
        self._lock = threading.Lock()
        self._drawn = threading.Condition(self._lock)

    def add(self, version: int, deck: "Deck") -> None:
        """A deck version whose pictures may be asked for."""
        with self._lock:
            if version not in self._decks:
                self._decks[version] = deck
                self._pictures[version] = {}

    def keep_only(self, versions: set[int]) -> None:
        """Forget the pictures of deck versions no game shows any more."""
        with self._lock:
            for version in [v for v in self._decks if v not in versions]:
                del self._decks[version]
                del self._pictures[version]

    def picture(self, version: int, key: str) -> bytes | None:
        """A card's picture (key: its index in the deck's cards, or "back"), waiting while it is drawn."""
        with self._lock:
            deck = self._decks.get(version)
            if deck is None or not (key == BACK or key.isdigit() and int(key) < len(deck.cards)):
                return None
            if version not in self._started:
                self._started.add(version)
                threading.Thread(target=self._draw, args=(version, deck), name="deckgen-play-cards",
                                 daemon=True).start()
            self._drawn.wait_for(lambda: key in self._pictures.get(version, {}) or version in self._failed
                                 or version not in self._decks, timeout=DRAWING_WAIT_SECONDS)
            return self._pictures.get(version, {}).get(key)

    def _draw(self, version: int, deck: "Deck") -> None:
        keys = [BACK, *map(str, range(len(deck.cards)))]
        try:
            for start in range(0, len(keys), DRAWN_TOGETHER):
                chunk = keys[start:start + DRAWN_TOGETHER]
                cards = [None if key == BACK else deck.cards[int(key)] for key in chunk]
                drawn = card_pngs(deck, cards, self.dpi, bleed_mm=0.0)
                with self._lock:
                    if version not in self._decks:
                        return
                    self._pictures[version].update(zip(chunk, drawn))
                    self._drawn.notify_all()
        except Exception as error:  # a drawing failure leaves the table playable with card names
            log.exception("drawing the cards of %s failed", deck.id)
            with self._lock:
                self._failed[version] = str(error)
                self._drawn.notify_all()
