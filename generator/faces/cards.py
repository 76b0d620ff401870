"""Card faces and backs, drawn on any reportlab canvas from the card's chosen layout.

`draw_face` / `draw_back` are the public entry points (print sheets, single-card
PDFs, images, the rulebook and previews all call them). Which layout draws a card is
data, chosen by `generator.deck.layouts.choose`; `layouts.place` lays it out on the card
and `elements` draws each element.

Coordinates: (x, y) is the lower-left corner of the trimmed card, width/height its
trim size in points; the background extends `bleed_pt` beyond the trim on every side.
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

from ..deck.layouts.choose import choose_back, choose_face
from ..deck.layouts.place import Placed, place
from ..deck.layouts.values import CardValues, layout_paths
from .bilingual import card_values
from .elements import draw_placed, face_of, index_box, text_box, turned_box
from .text import TextBox, plain

if TYPE_CHECKING:
    from ..deck.model import Card, Deck


# Public API -----------------------------------------------------------------------------

def draw_face(canvas, deck: "Deck", card: "Card", x: float, y: float, width_pt: float,
              height_pt: float, bleed_pt: float = 0.0) -> None:
    """Draw a card's face with its lower-left trim corner at (x, y)."""
    _draw(canvas, deck, choose_face(deck, card), card, x, y, width_pt, height_pt, bleed_pt)


def draw_back(canvas, deck: "Deck", x: float, y: float, width_pt: float, height_pt: float,
              bleed_pt: float = 0.0, card: "Card | None" = None) -> None:
    """Draw a card's back (card None: the deck's default back) with its lower-left trim corner at (x, y)."""
    _draw(canvas, deck, choose_back(deck, card), card, x, y, width_pt, height_pt, bleed_pt)


def face_text_boxes(deck: "Deck", card: "Card", width_pt: float, height_pt: float,
                    on_card: bool = False) -> list[TextBox]:
    """Every text box on a card's face, as the face draws it (for checking). A turned element's
    box is in its own turned frame, unless `on_card`: then it is the rectangle it covers on the
    card (for checks against the card's edges)."""
    layout = choose_face(deck, card)
    return _text_boxes(deck, place(deck, layout, card, width_pt, height_pt, 0.0, card_values(deck, card, layout)),
                       on_card)


def back_text_boxes(deck: "Deck", width_pt: float, height_pt: float, card: "Card | None" = None,
                    on_card: bool = False) -> list[TextBox]:
    return _text_boxes(deck, place(deck, choose_back(deck, card), card, width_pt, height_pt), on_card)


def back_identity(deck: "Deck", card: "Card | None", width_pt: float, height_pt: float) -> tuple:
    """What a card's back drawing depends on: equal for cards whose backs look the same
    (the back layout and the card values it names; a back naming only deck values is one
    drawing for every card)."""
    layout = choose_back(deck, card)
    paths = tuple(p for p in layout_paths(layout) if p.split(".")[0] not in ("deck", "back"))
    if not paths or card is None:
        return (layout.name,)
    values = CardValues(deck, card)
    return (layout.name,) + tuple(repr(values.lookup(path)) for path in paths)


def design_name(deck: "Deck", card: "Card") -> str:
    """The name of the layout that draws this card's face."""
    return choose_face(deck, card).name


# Drawing ---------------------------------------------------------------------------------

def _draw(canvas, deck, layout, card, x, y, width, height, bleed) -> None:
    canvas.saveState()
    canvas.translate(x, y)
    clip = canvas.beginPath()
    clip.rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed)
    canvas.clipPath(clip, stroke=0, fill=0)
    values = card_values(deck, card, layout)
    for placed in place(deck, layout, card, width, height, bleed, values):
        draw_placed(canvas, deck, placed)
    canvas.restoreState()


def _on_card(box: TextBox, item: Placed, turn: float) -> TextBox:
    """The rectangle a box laid out in a turned frame covers on the card: draw_placed turns the
    frame clockwise by `turn` about the element's centre."""
    cx, cy = item.box.x + item.box.width / 2, item.box.y + item.box.height / 2
    angle = math.radians(turn)
    corners = [(u * math.cos(angle) + v * math.sin(angle), -u * math.sin(angle) + v * math.cos(angle))
               for u in (box.x, box.x + box.width) for v in (box.y, box.y + box.height)]
    xs, ys = [cx + x for x, _ in corners], [cy + y for _, y in corners]
    return dataclasses.replace(box, x=min(xs), y=min(ys), width=max(xs) - min(xs), height=max(ys) - min(ys))


def _text_boxes(deck: "Deck", placed: list[Placed], on_card: bool = False) -> list[TextBox]:
    boxes = []
    for item in placed:
        inner, turn = turned_box(item)
        if item.type in ("text", "index"):
            box = (text_box if item.type == "text" else index_box)(deck, item, inner)
            boxes.append(_on_card(box, item, turn) if on_card and turn else box)
        glyph = item.get("glyph") if item.type in ("index", "pips", "icon") else None
        if glyph:
            # Check-only box: glyphs are drawn scaled to their box; only their characters matter.
            face = face_of(deck, item.get("family") or "sans", item.get("weight") or "regular")
            boxes.append(TextBox(plain(f"{item.name} symbol", str(glyph), face, 12, 12), 0, 0, 1e6, 1e6))
    return boxes
