"""The deck's tuck box: a print-and-play sheet sized from the cards, cut, folded and glued.

The box's inside is the card's trim size plus a clearance on each side, and its depth the deck's
thickness: the number of cards times the card stock's thickness (`[tuck_box] stock_mm`) plus
the clearance. The sheet is one piece, printed on the outside: back, side, front, side and a
glue flap in a row; a lid with a tuck tongue above the back and a bottom with its tongue below
the front; dust flaps on the sides; a thumb notch in the front's top edge. Cut lines are solid,
fold lines dashed, with ticks in the margin at each fold; the glue flap is hatched and labelled.
The outside carries the deck's back on the back panel, the name, a card face (the first with
art, else the first picture card) and the players on the front, and the name on the sides and lid; every printed piece has a bleed beyond its cut.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas

from ..core.errors import OptionError
from ..core.output import write_bytes
from ..core.typography import smarten
from ..deck.layouts.values import figure_of
from ..deck.sizes import PAPERS_MM, paper_mm, pt
from ..faces import fonts, paint
from ..faces.cards import draw_back, draw_face
from ..faces.check import require_printable

if TYPE_CHECKING:
    from ..deck.model import Card, Deck

MARGIN_MM = 8.0  # paper edge kept clear: office printers do not print the outer ~5 mm
BLEED_MM = 2.0
GLUE_MM = 10.0
MIN_DEPTH_MM = 8.0
CUT, FOLD = "cut", "fold"
GLUE_GREY = "#d9d9d9"
LINE_GREY = "#4d4d4d"


@dataclass(frozen=True)
class BoxSize:
    """The inside of the box in mm: width and height of the front, depth of the sides."""

    width: float
    height: float
    depth: float

    @property
    def tongue(self) -> float:
        """The tuck tongue that slides inside the front: most of the depth, at least 8 and at most 16 mm."""
        return max(8.0, min(16.0, 0.75 * self.depth))

    @property
    def sheet(self) -> tuple[float, float]:
        """The flat piece's width and height in mm."""
        return 2 * self.width + 2 * self.depth + GLUE_MM, self.height + 2 * (self.depth + self.tongue)


def box_size(deck: "Deck") -> BoxSize:
    spec, card = deck.tuck_box, deck.card_size
    thickness = deck.total * spec.stock_mm
    return BoxSize(round(card.width_mm + 2 * spec.clearance_mm, 2), round(card.height_mm + 2 * spec.clearance_mm, 2),
                   round(max(MIN_DEPTH_MM, thickness + 2 * spec.clearance_mm), 2))


@dataclass(frozen=True)
class Piece:
    """One panel or flap: its outline (mm, counter-clockwise) and which of its edges are folds."""

    name: str
    points: tuple[tuple[float, float], ...]
    folds: frozenset[int]  # edge i runs from points[i] to points[i + 1]


def pieces(size: BoxSize) -> list[Piece]:
    """The flat box with its lower-left corner at (0, 0)."""
    w, h, d, t = size.width, size.height, size.depth, size.tongue
    y0 = d + t  # the body's bottom edge
    x_side1, x_front, x_side2, x_glue = w, w + d, 2 * w + d, 2 * w + 2 * d
    dust = 0.8 * d

    def rect(name, x, y, width, height, folds):
        return Piece(name, ((x, y), (x + width, y), (x + width, y + height), (x, y + height)), frozenset(folds))

    notch = min(10.0, w / 6)
    front_top = [(x_front + w, y0 + h)] + [
        (x_front + w / 2 + notch * math.cos(a), y0 + h - notch * math.sin(a))
        for a in (math.pi * i / 16 for i in range(17))] + [(x_front, y0 + h)]
    front = Piece("front", ((x_front, y0), (x_front + w, y0), *front_top), frozenset({0, 1, len(front_top) + 1}))
    return [
        rect("back", 0, y0, w, h, {1, 2}),
        rect("side", x_side1, y0, d, h, {0, 1, 2, 3}),
        front,
        rect("side", x_side2, y0, d, h, {0, 1, 2, 3}),
        Piece("glue", ((x_glue, y0), (x_glue + GLUE_MM, y0 + 4), (x_glue + GLUE_MM, y0 + h - 4), (x_glue, y0 + h)),
              frozenset({3})),
        rect("lid", 0, y0 + h, w, d, {0, 2}),
        _tongue("lid tongue", 0, y0 + h + d, w, t, up=True),
        _dust(x_side1, y0 + h, d, dust, up=True), _dust(x_side2, y0 + h, d, dust, up=True),
        rect("bottom", x_front, t, w, d, {0, 2}),
        _tongue("bottom tongue", x_front, t, w, t, up=False),
        _dust(x_side1, y0, d, dust, up=False), _dust(x_side2, y0, d, dust, up=False),
    ]


def _tongue(name: str, x: float, y: float, width: float, length: float, up: bool) -> Piece:
    """A tuck tongue with rounded outer corners; its fold is the edge it hangs from."""
    radius = min(length * 0.8, width / 4)
    sign, base = (1, y) if up else (-1, y + length)
    outer = base + sign * length
    corner = [(x + width - radius + radius * math.cos(a), outer - sign * radius + sign * radius * math.sin(a))
              for a in (math.pi / 2 * i / 8 for i in range(9))]
    other = [(x + radius - radius * math.cos(a), outer - sign * radius + sign * radius * math.sin(a))
             for a in (math.pi / 2 * (8 - i) / 8 for i in range(9))]
    points = ((x, base), (x + width, base), *corner, *other)
    return Piece(name, points if up else tuple(reversed(points)), frozenset({0 if up else len(points) - 2}))


def _dust(x: float, y: float, width: float, length: float, up: bool) -> Piece:
    """A dust flap: narrowing away from its fold so it tucks in past the tongue."""
    inset = min(3.0, width / 4)
    outer = y + length if up else y - length
    points = ((x, y), (x + width, y), (x + width - inset, outer), (x + inset, outer))
    return Piece("dust flap", points if up else tuple(reversed(points)), frozenset({0 if up else 2}))


def tuck_box_pdf(deck: "Deck", paper: str = "a4") -> bytes:
    """The one-page tuck-box sheet for the deck on `paper` (portrait or landscape, whichever holds it)."""
    size = box_size(deck)
    require_printable(deck, deck.card_size.width_mm, deck.card_size.height_mm)
    sheet_w, sheet_h = size.sheet
    page = paper_mm(paper)
    for page_w, page_h in (page, page[::-1]):
        if sheet_w + 2 * (MARGIN_MM + BLEED_MM) <= page_w and sheet_h + 2 * (MARGIN_MM + BLEED_MM) <= page_h:
            break
    else:
        others = [name for name in PAPERS_MM if name != paper]
        raise OptionError(
            f"the tuck box for {deck.total} cards of {deck.card_size.width_mm:g}×{deck.card_size.height_mm:g} mm "
            f"({size.width:g}×{size.height:g}×{size.depth:g} mm inside) is a {sheet_w:.0f}×{sheet_h:.0f} mm piece: "
            f"it does not fit on {paper} paper with {MARGIN_MM:g} mm margins; try --paper {others[0]}, "
            "a smaller [tuck_box] stock_mm or clearance_mm, or a box per half of the deck")
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(pt(page_w), pt(page_h)), invariant=1, pageCompression=1,
                    initialFontName=fonts.font("sans"))
    canvas.setTitle(f"{deck.name}: tuck box")
    canvas.setCreator("deckgen")
    canvas.setProducer("deckgen")
    origin = ((page_w - sheet_w) / 2, (page_h - sheet_h) / 2 + 3)  # a little up: room for the caption
    _draw_box(canvas, deck, size, origin, (page_w, page_h))
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _draw_box(canvas, deck: "Deck", size: BoxSize, origin: tuple[float, float], page: tuple[float, float]) -> None:
    canvas.saveState()
    canvas.translate(pt(origin[0]), pt(origin[1]))
    parts = pieces(size)
    colour = deck.back.color
    for piece in parts:  # the ground, reaching BLEED_MM past every cut
        _path(canvas, piece, fill=GLUE_GREY if piece.name == "glue" else colour, bleed=piece.name != "glue")
    _art(canvas, deck, size)
    line = paint.ink_on(colour)  # cut and fold lines that show on the ground
    for piece in parts:
        if piece.name == "glue":
            _glue(canvas, piece)
        _edges(canvas, piece, LINE_GREY if piece.name == "glue" else line)
    canvas.restoreState()
    _fold_ticks(canvas, size, origin, page)
    _caption(canvas, deck, size, page)


def _path(canvas, piece: Piece, fill: str, bleed: bool) -> None:
    path = canvas.beginPath()
    path.moveTo(*(pt(v) for v in piece.points[0]))
    for point in piece.points[1:]:
        path.lineTo(*(pt(v) for v in point))
    path.close()
    paint.set_fill(canvas, fill)
    paint.set_stroke(canvas, fill)
    canvas.setLineWidth(pt(2 * BLEED_MM) if bleed else 0)
    canvas.setLineJoin(1)
    canvas.drawPath(path, stroke=1 if bleed else 0, fill=1)


def _edges(canvas, piece: Piece, colour: str) -> None:
    """Cut edges solid, folds dashed, in a colour that shows on the ground."""
    points = piece.points
    paint.set_stroke(canvas, colour)
    for index, start in enumerate(points):
        end = points[(index + 1) % len(points)]
        fold = index in piece.folds
        canvas.setLineWidth(0.6 if fold else 0.5)
        canvas.setDash([3, 2] if fold else [])
        canvas.line(pt(start[0]), pt(start[1]), pt(end[0]), pt(end[1]))
    canvas.setDash([])


def _glue(canvas, piece: Piece) -> None:
    xs, ys = [p[0] for p in piece.points], [p[1] for p in piece.points]
    canvas.saveState()
    paint.set_stroke(canvas, "#9a9a9a")
    canvas.setLineWidth(0.4)
    for y in range(int(min(ys)) + 4, int(max(ys)) - 4, 4):
        canvas.line(pt(min(xs) + 1), pt(y), pt(max(xs) - 1), pt(y + 3))
    paint.set_fill(canvas, "#333333")
    canvas.translate(pt((min(xs) + max(xs)) / 2), pt((min(ys) + max(ys)) / 2))
    canvas.rotate(90)
    canvas.setFont(fonts.font("sans-bold"), 7)
    canvas.drawCentredString(0, -2.5, "GLUE")
    canvas.restoreState()


def _art(canvas, deck: "Deck", size: BoxSize) -> None:
    w, h, d, t = size.width, size.height, size.depth, size.tongue
    y0 = d + t
    ink = paint.ink_on(deck.back.color)
    title = smarten(deck.tuck_box.title or deck.name)
    # The back panel: the deck's back, filling the panel.
    _clipped(canvas, 0, y0, w, h, lambda: draw_back(canvas, deck, 0, pt(y0), pt(w), pt(h)))
    # The front: title, a card, the players and time.
    x_front = w + d
    title_baseline = y0 + h - min(10.0, w / 6) - 9  # below the thumb notch
    _fitted(canvas, title, x_front + w / 2, title_baseline, w - 8, 16, "serif-bold", ink)
    card = cover_card(deck)
    ratio = deck.card_size.width_mm / deck.card_size.height_mm
    card_bottom, card_top = y0 + h * 0.17, title_baseline - 4
    card_h = min(card_top - card_bottom, (w - 16) / ratio)
    card_w = card_h * ratio
    card_x, card_y = x_front + (w - card_w) / 2, card_bottom + (card_top - card_bottom - card_h) / 2
    _clipped(canvas, card_x, card_y, card_w, card_h,
             lambda: draw_face(canvas, deck, card, pt(card_x), pt(card_y), pt(card_w), pt(card_h)))
    _fitted(canvas, smarten(deck.tuck_box.subtitle) or players_line(deck), x_front + w / 2, y0 + h * 0.1, w - 8, 8, "sans", ink)
    _fitted(canvas, f"{deck.total} cards", x_front + w / 2, y0 + h * 0.1 - 4.5, w - 8, 6.5, "sans", ink)
    # The sides and the lid: the name, turned to read up the side.
    for x_side in (w, 2 * w + d):
        canvas.saveState()
        canvas.translate(pt(x_side + d / 2), pt(y0 + h / 2))
        canvas.rotate(90)
        _fitted(canvas, title, 0, -min(d * 0.35, 12) / 2.8, h - 10, min(d * 0.45, 12), "serif-bold", ink)
        canvas.restoreState()
    _fitted(canvas, title, w / 2, y0 + h + d / 2 - 2.5, w - 8, min(d * 0.4, 9), "serif-bold", ink)


def cover_card(deck: "Deck") -> "Card":
    """The card on the front: the first with art, else the first picture card (a Wizard), else the first."""
    return next((card for card in deck.cards if card.art),
                next((card for card in deck.cards if figure_of(deck, card)), deck.cards[0]))


def players_line(deck: "Deck") -> str:
    players = (f"{deck.min_players} players" if deck.min_players == deck.max_players
               else f"{deck.min_players}–{deck.max_players} players")
    return f"{players} · {smarten(deck.play_time)}" if deck.play_time else players


def _clipped(canvas, x: float, y: float, width: float, height: float, draw) -> None:
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(pt(x), pt(y), pt(width), pt(height))
    canvas.clipPath(clip, stroke=0, fill=0)
    draw()
    canvas.restoreState()


def _fitted(canvas, text: str, cx: float, baseline: float, max_width: float, size: float, face: str,
            colour: str) -> None:
    """One line centred at cx (mm), shrunk to `max_width` mm."""
    width = fonts.width(face, text, size)
    if width > pt(max_width):
        size *= pt(max_width) / width
    paint.set_fill(canvas, colour)
    canvas.setFont(fonts.font(face), size)
    canvas.drawCentredString(pt(cx), pt(baseline), text)


def _fold_ticks(canvas, size: BoxSize, origin: tuple[float, float], page: tuple[float, float]) -> None:
    """Ticks in the margin at each vertical fold, to score along a ruler from the printed side."""
    w, d = size.width, size.depth
    paint.set_stroke(canvas, LINE_GREY)
    canvas.setLineWidth(0.5)
    bottom, top = origin[1] - BLEED_MM - 1, origin[1] + size.sheet[1] + BLEED_MM + 1
    for x in (w, w + d, 2 * w + d, 2 * w + 2 * d):
        px = pt(origin[0] + x)
        canvas.line(px, pt(bottom), px, pt(max(MARGIN_MM, bottom - 4)))
        canvas.line(px, pt(top), px, pt(min(page[1] - MARGIN_MM, top + 4)))


def _caption(canvas, deck: "Deck", size: BoxSize, page: tuple[float, float]) -> None:
    text = (f"{deck.name}: tuck box for {deck.total} cards, {size.width:g}×{size.height:g}×{size.depth:g} mm inside. "
            "Print at 100 %. Cut the solid lines, score and fold the dashed ones, glue the hatched flap "
            "behind the back panel's edge.")
    paint.set_fill(canvas, LINE_GREY)
    size_pt = 6.5
    width = fonts.width("sans", text, size_pt)
    if width > pt(page[0] - 2 * MARGIN_MM):
        size_pt *= pt(page[0] - 2 * MARGIN_MM) / width
    canvas.setFont(fonts.font("sans"), size_pt)
    canvas.drawCentredString(pt(page[0] / 2), pt(MARGIN_MM), text)


def write_tuck_box(deck: "Deck", out_dir: Path, paper: str = "a4") -> Path:
    return write_bytes(out_dir / f"{deck.id}-tuckbox-{paper}.pdf", tuck_box_pdf(deck, paper))
