"""A PDF canvas for cards: deterministic, fonts embedded, each distinct drawing stored once.

Every distinct face and every distinct back become one PDF form XObject the first
time they are placed; further copies only reference it (`/FormN Do`), so a card with
count 4, or a back shared by many cards, costs its drawing once.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from reportlab import rl_config
from reportlab.pdfbase.pdfdoc import xObjectName
from reportlab.pdfgen.canvas import Canvas

from . import fonts, pdfforms  # noqa: F401 - pdfforms: each card form gets its graphics states and shadings
from .cards import back_identity, draw_back, draw_face

if TYPE_CHECKING:
    from ..deck.model import Card, Deck


class CardDocument:
    """A canvas plus the forms of one deck's faces and back at one trim size and bleed."""

    def __init__(self, deck: "Deck", card_width: float, card_height: float, bleed: float,
                 page_size: tuple[float, float], title: str = "", canvas_class: type = Canvas):
        self.deck = deck
        self.card_width, self.card_height, self.bleed = card_width, card_height, bleed
        self.buffer = io.BytesIO()
        # canvas_class: faces.inksaver.InkSaverCanvas draws the same cards with less ink
        self.canvas = canvas_class(self.buffer, pagesize=page_size, invariant=1, pageCompression=1,
                             initialFontName=fonts.font("sans"))
        self.canvas.setTitle(title or deck.name)
        self.canvas.setAuthor(deck.designer or "deckgen")
        self.canvas.setCreator("deckgen")
        self.canvas.setProducer("deckgen")
        self.forms: dict[object, str] = {}
        self.back_keys: dict[str | None, tuple] = {}

    def back_key(self, card: "Card | None") -> tuple:
        """Cards whose backs draw the same share one form."""
        card_id = None if card is None else card.id
        key = self.back_keys.get(card_id)
        if key is None:
            key = self.back_keys[card_id] = ("back",) + back_identity(self.deck, card, self.card_width,
                                                                      self.card_height)
        return key

    def form(self, card: "Card | None", back: bool = False) -> str:
        """The form holding this card's face or back (card None: the deck's default back), drawn on first use."""
        back = back or card is None
        key = self.back_key(card) if back else f"face:{card.id}"
        name = self.forms.get(key)
        if name is None:
            name = f"Card{len(self.forms)}"
            self.forms[key] = name
            canvas, bleed = self.canvas, self.bleed
            canvas.beginForm(name, -bleed, -bleed, self.card_width + bleed, self.card_height + bleed)
            if back:
                draw_back(canvas, self.deck, 0, 0, self.card_width, self.card_height, bleed, card)
            else:
                draw_face(canvas, self.deck, card, 0, 0, self.card_width, self.card_height, bleed)
            canvas.endForm()
        return name

    def place(self, card: "Card | None", x: float, y: float,
              clip: tuple[float, float, float, float] | None = None, back: bool = False) -> None:
        """Put a card's face (back=True: its back; card None: the deck's default back) with its
        trim's lower-left corner at (x, y), optionally clipped."""
        name = self.form(card, back)
        canvas = self.canvas
        canvas.saveState()
        if clip is not None:
            path = canvas.beginPath()
            path.rect(*clip)
            canvas.clipPath(path, stroke=0, fill=0)
        canvas.translate(x, y)
        canvas.doForm(name)
        canvas.restoreState()

    def labels(self) -> dict[str, str]:
        """Each form's resource name and what it draws, for messages about the finished PDF."""
        names = {card.id: card.name for card in self.deck.cards}
        back_owner: dict[tuple, str | None] = {}
        for card_id, key in self.back_keys.items():  # the default back (card None) names itself first
            if card_id is None or key not in back_owner:
                back_owner[key] = card_id

        def label(key) -> str:
            if isinstance(key, str):
                return f"card {names[key[5:]]!r}"
            owner = back_owner.get(key)
            return "the card back" if owner is None else f"the back of card {names[owner]!r}"

        return {f"/{xObjectName(form)}": label(key) for key, form in self.forms.items()}

    def finish(self) -> bytes:
        # Binary (not ASCII85) streams: a fifth smaller, and reportlab's pure-Python ASCII85
        # encoder is the slowest step of saving. The setting is read while saving only.
        previous = rl_config.useA85
        rl_config.useA85 = 0
        try:
            self.canvas.save()
        finally:
            rl_config.useA85 = previous
        return self.buffer.getvalue()

