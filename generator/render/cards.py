"""Card faces and the card back, drawn on any reportlab canvas.

`draw_face` / `draw_back` are the public entry points (print sheets, single-card
PDFs, images and the rulebook all call them). The design is chosen by what a
card has, never by the deck's name:

- a suit and a rank: a playing card (corner indices; pips for number ranks, one
  large pip for an ace, a double-ended figure for J/Q/K, a picture for a rank
  that names a known figure such as a suited Wizard);
- a kind with a known figure (wizard, jester, joker) and no suit/rank: a picture card;
- anything else: a text card (title, corner value, art box, type line, rules and flavour).

Coordinates: (x, y) is the lower-left corner of the trimmed card, width/height its
trim size in points; the background extends `bleed_pt` beyond the trim on every side.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import figures, paint
from . import text as text_layout
from .art import draw_art
from .text import TextBox

if TYPE_CHECKING:
    from ..model import Card, Deck

INK = "#1b1b1b"
PAPER = "#ffffff"
COURT_LETTERS = {"J": "J", "Q": "Q", "K": "K"}
FIGURES = ("wizard", "jester", "joker")
# Frame colours for kinds that name no colour, picked by a stable hash of the kind id.
KIND_PALETTE = ("#2f5d8a", "#8a3b2f", "#3b7a48", "#6a4c93", "#a86b16", "#2f7f7f", "#8a2f62")

# Pip positions for number cards: (column, row) with column 0..1 across and row 0..1 down
# the pip area; pips in the lower half are drawn upside down, as on real cards.
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.0), (0.5, 1.0)),
    3: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    4: ((0, 0), (1, 0), (0, 1), (1, 1)),
    5: ((0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)),
    6: ((0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    7: ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    8: ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)),
    9: ((0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)),
    10: ((0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6),
         (0, 1), (1, 1)),
}


# Public API -----------------------------------------------------------------------------

def draw_face(canvas, deck: "Deck", card: "Card", x: float, y: float, width_pt: float,
              height_pt: float, bleed_pt: float = 0.0) -> None:
    """Draw a card's face with its lower-left trim corner at (x, y)."""
    _framed(canvas, x, y, width_pt, height_pt, bleed_pt,
            lambda: _design_for(deck, card, width_pt, height_pt).draw(canvas, bleed_pt))


def draw_back(canvas, deck: "Deck", x: float, y: float, width_pt: float, height_pt: float,
              bleed_pt: float = 0.0) -> None:
    """Draw the deck's card back (the same for every card) with its lower-left trim corner at (x, y)."""
    _framed(canvas, x, y, width_pt, height_pt, bleed_pt,
            lambda: _Back(deck, width_pt, height_pt).draw(canvas, bleed_pt))


def face_text_boxes(deck: "Deck", card: "Card", width_pt: float, height_pt: float) -> list[TextBox]:
    """Every text box on a card's face, as the face draws it (for checking)."""
    return _design_for(deck, card, width_pt, height_pt).boxes()


def back_text_boxes(deck: "Deck", width_pt: float, height_pt: float) -> list[TextBox]:
    return _Back(deck, width_pt, height_pt).boxes()


def design_name(deck: "Deck", card: "Card") -> str:
    """Which design draws this card: 'playing', 'picture' or 'text'."""
    return _design_class(deck, card).name


# Shared machinery ---------------------------------------------------------------------------

def _framed(canvas, x, y, width, height, bleed, draw) -> None:
    canvas.saveState()
    canvas.translate(x, y)
    clip = canvas.beginPath()
    clip.rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed)
    canvas.clipPath(clip, stroke=0, fill=0)
    draw()
    canvas.restoreState()


def _figure_of(deck: "Deck", card: "Card") -> str | None:
    """A known figure named by the card's kind or rank (id or kind), else None."""
    names = [card.kind]
    if card.rank:
        rank = deck.rank(card.rank)
        names += [rank.id, rank.kind or ""]
    for name in names:
        if name in FIGURES:
            return name
    return None


def _design_class(deck: "Deck", card: "Card"):
    if card.suit and card.rank:
        return _PlayingCard
    if _figure_of(deck, card):
        return _PictureCard
    return _TextCard


def _design_for(deck, card, width, height):
    return _design_class(deck, card)(deck, card, width, height)


def _fill_and_draw(canvas, box: TextBox, color: str, rule_color: str | None = None) -> None:
    if box.spec.empty:
        return
    fitted = text_layout.fit(box.spec, box.width, box.height)
    if fitted is None:  # reported by text_problems; printing refuses such decks before drawing
        return
    text_layout.draw(canvas, box.spec, fitted, box.x, box.y, box.width, box.height, color, rule_color)


def _rotated(canvas, width, height, draw) -> None:
    """Draw something upside down (turned about the card's centre)."""
    canvas.saveState()
    canvas.translate(width, height)
    canvas.rotate(180)
    draw()
    canvas.restoreState()


def kind_color(deck: "Deck", kind_id: str) -> str:
    try:
        color = deck.kind(kind_id).color
    except KeyError:
        color = ""
    return color or KIND_PALETTE[paint.stable_index(kind_id, len(KIND_PALETTE))]


def _rules_and_flavor(deck, card, box_w, box_h, x, y, max_size, min_size, family="serif",
                      align="left") -> TextBox:
    blocks = text_layout.rich_blocks(deck, card.text, family)
    if card.flavor:
        flavor = text_layout.rich_blocks(deck, card.flavor, family, scale=0.92, italic=True)
        if flavor and blocks:
            flavor[0] = text_layout.Block(flavor[0].words, flavor[0].bullet, flavor[0].scale, rule_above=True)
        blocks += flavor
    spec = text_layout.TextSpec("text", tuple(blocks), max_size, min_size, align=align, valign="middle")
    return TextBox(spec, x, y, box_w, box_h)


class _Design:
    name = ""

    def __init__(self, deck: "Deck", card: "Card", width: float, height: float):
        self.deck, self.card, self.w, self.h = deck, card, width, height
        # Scale relative to a 63 mm wide poker card, limited by height for wide cards.
        self.k = min(width / 178.58, height / 249.45)

    def boxes(self) -> list[TextBox]:
        raise NotImplementedError

    def draw(self, canvas, bleed: float) -> None:
        raise NotImplementedError

    def background(self, canvas, bleed: float, color: str = PAPER) -> None:
        paint.fill_rect(canvas, -bleed, -bleed, self.w + 2 * bleed, self.h + 2 * bleed, color)


# Playing cards ----------------------------------------------------------------------------

class _PlayingCard(_Design):
    name = "playing"

    def __init__(self, deck, card, width, height):
        super().__init__(deck, card, width, height)
        self.suit = deck.suit(card.suit)
        self.rank = deck.rank(card.rank)
        self.color = self.suit.color
        self.index_label = self.rank.index or self.rank.code
        k = self.k
        self.index_cx = 0.115 * width
        self.index_top = height - 10.5 * k
        self.index_size = 19 * k
        self.index_w = 0.16 * width
        self.symbol_h = 10.5 * k
        self.figure = _figure_of(deck, card)
        self.letter = COURT_LETTERS.get(self.index_label.upper()) if self.rank.kind == "court" or \
            self.index_label.upper() in COURT_LETTERS else None

    @property
    def pips(self) -> int | None:
        label = self.index_label.upper()
        if label == "A" or self.rank.id == "ace":
            return 1
        if label.isdigit() and int(label) in PIP_LAYOUTS:
            return int(label)
        return None

    def _index_box(self) -> TextBox:
        spec = text_layout.plain("rank index", self.index_label, "serif-bold", self.index_size,
                                 self.index_size * 0.55, align="center", max_lines=1)
        height = self.index_size * text_layout.LEADING
        return TextBox(spec, self.index_cx - self.index_w / 2, self.index_top - height, self.index_w, height)

    def _symbol_box(self) -> TextBox:
        # Check-only box: the symbol is drawn by paint.symbol, scaled to fit; only its glyphs matter.
        spec = text_layout.plain("suit symbol", self.suit.symbol, "sans", 12, 12)
        return TextBox(spec, 0, 0, 1e6, 1e6)

    def _text_box(self) -> TextBox | None:
        if not self.card.text:
            return None
        width, height = 0.56 * self.w, 0.075 * self.h
        blocks = text_layout.rich_blocks(self.deck, self.card.text, "sans")
        spec = text_layout.TextSpec("text", tuple(blocks), 7.5 * self.k, 5.0 * self.k, align="center",
                                    valign="middle")
        return TextBox(spec, (self.w - width) / 2, 0.035 * self.h, width, height)

    def boxes(self):
        found = [self._index_box(), self._symbol_box()]
        text_box = self._text_box()
        if text_box:
            found.append(text_box)
        return found

    def draw(self, canvas, bleed):
        self.background(canvas, bleed)
        text_box = self._text_box()
        for upside_down in (False, True):
            def corner():
                self._draw_index(canvas)
                if text_box:
                    _fill_and_draw(canvas, text_box, INK)
            if upside_down:
                _rotated(canvas, self.w, self.h, corner)
            else:
                corner()
        if self.figure:
            self._draw_figure(canvas)
        elif self.letter:
            self._draw_court(canvas)
        elif self.pips:
            self._draw_pips(canvas, self.pips)
        else:
            self._draw_emblem(canvas)

    def _draw_index(self, canvas):
        box = self._index_box()
        _fill_and_draw(canvas, box, self.color)
        paint.symbol(canvas, self.suit.symbol, self.index_cx, box.y - self.symbol_h * 0.7,
                     self.symbol_h, self.color)

    def _pip_area(self):
        # Columns and rows of pip centres; the area shrinks on short, wide cards.
        left, right = 0.3 * self.w, 0.7 * self.w
        top, bottom = 0.8 * self.h, 0.2 * self.h
        pip_h = min(0.095 * self.h, 0.15 * self.w)
        return left, right, top, bottom, pip_h

    def _draw_pips(self, canvas, count):
        left, right, top, bottom, pip_h = self._pip_area()
        if count == 1:
            size = min(0.3 * self.h, 0.52 * self.w)
            paint.symbol(canvas, self.suit.symbol, self.w / 2, self.h / 2, size, self.color)
            return
        for column, row in PIP_LAYOUTS[count]:
            cx = left + (right - left) * column
            cy = top - (top - bottom) * row
            paint.symbol(canvas, self.suit.symbol, cx, cy, pip_h, self.color, rotate=row > 0.5)

    def _frame(self):
        x0, x1 = 0.215 * self.w, 0.785 * self.w
        y0, y1 = 0.1 * self.h, 0.9 * self.h
        return x0, y0, x1 - x0, y1 - y0

    def _draw_court(self, canvas):
        x, y, w, h = self._frame()
        palette = figures.court_palette(self.color)
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(x, y, w, h)
        canvas.clipPath(clip, stroke=0, fill=0)
        paint.fill_rect(canvas, x, y, w, h, "#fbf6e9")
        for upside_down in (False, True):
            canvas.saveState()
            canvas.translate(x + w / 2, y + h / 2)
            if upside_down:
                canvas.rotate(180)
            figures.court_half(canvas, self.letter, w / 2, h / 2, palette, self.suit.symbol, self.color)
            canvas.restoreState()
        canvas.restoreState()
        canvas.setStrokeColor(figures.GOLD)
        canvas.setLineWidth(1.0 * self.k)
        canvas.line(x, y + h / 2, x + w, y + h / 2)
        canvas.setStrokeColor(self.color)
        canvas.setLineWidth(0.9 * self.k)
        canvas.rect(x, y, w, h, stroke=1, fill=0)

    def _draw_figure(self, canvas):
        x, y, w, h = self._frame()
        sky = paint.darken(self.color, 0.55) if paint.luminance(self.color) > 0.1 else "#1d2149"
        if self.figure == "wizard":
            figures.wizard_scene(canvas, x, y, w, h, sky, self.color, figures.GOLD, self.suit.symbol,
                                 paint.lighten(self.color, 0.6))
        else:
            figures.jester_scene(canvas, x, y, w, h, self.color, figures.court_palette(self.color).secondary,
                                 figures.GOLD, self.suit.symbol, self.color)
        canvas.setStrokeColor(self.color)
        canvas.setLineWidth(0.9 * self.k)
        canvas.rect(x, y, w, h, stroke=1, fill=0)

    def _draw_emblem(self, canvas):
        # A rank with no pips, court or figure: its name over one large pip.
        x, y, w, h = self._frame()
        canvas.setStrokeColor(self.color)
        canvas.setLineWidth(0.9 * self.k)
        canvas.rect(x, y, w, h, stroke=1, fill=0)
        paint.symbol(canvas, self.suit.symbol, self.w / 2, self.h / 2, 0.24 * self.h, self.color)


# Picture cards (Wizard, Jester, Joker) ------------------------------------------------------

class _PictureCard(_Design):
    name = "picture"

    def __init__(self, deck, card, width, height):
        super().__init__(deck, card, width, height)
        self.figure = _figure_of(deck, card)
        self.color = kind_color(deck, card.kind) if deck.kind(card.kind).color or self.figure != "joker" \
            else "#b3261e"
        self.has_text = bool(card.text or card.flavor)
        k = self.k
        self.index_cx = 0.115 * width
        self.index_size = 17 * k

    def _corner_label(self) -> str:
        return self.card.corner or self.card.code

    def _index_box(self) -> TextBox:
        label = self._corner_label()
        if self.figure == "joker" and not self.card.corner:
            # Jokers spell their name down the corner, one letter a line.
            blocks = tuple(text_layout.Block(tuple(text_layout.words_of(letter, "sans-bold"))) for letter in "JOKER")
            spec = text_layout.TextSpec("corner", blocks, 9 * self.k, 6 * self.k, align="center")
            height = 0.34 * self.h
            return TextBox(spec, self.index_cx - 0.08 * self.w, self.h - 8 * self.k - height, 0.16 * self.w, height)
        spec = text_layout.plain("corner", label, "serif-bold", self.index_size, self.index_size * 0.5,
                                 align="center", max_lines=1)
        height = self.index_size * text_layout.LEADING
        return TextBox(spec, self.index_cx - 0.08 * self.w, self.h - 10 * self.k - height, 0.16 * self.w, height)

    def _panel(self):
        x0, x1 = 0.215 * self.w, 0.785 * self.w
        bottom = 0.4 * self.h if self.has_text else 0.1 * self.h
        return x0, bottom, x1 - x0, 0.9 * self.h - bottom

    def _name_box(self) -> TextBox:
        x, y, w, h = self._panel()
        band = 0.075 * self.h
        spec = text_layout.plain("name", self.card.name.upper(), "serif-bold", 10.5 * self.k, 6 * self.k,
                                 align="center", valign="middle", max_lines=1)
        return TextBox(spec, x + 0.04 * w, y, w * 0.92, band)

    def _text_box(self) -> TextBox | None:
        if not self.has_text:
            return None
        x0 = 0.2 * self.w
        return _rules_and_flavor(self.deck, self.card, 0.6 * self.w, 0.29 * self.h, x0, 0.085 * self.h,
                                 7.5 * self.k, 4.75 * self.k, align="center")

    def boxes(self):
        found = [self._index_box(), self._name_box()]
        text_box = self._text_box()
        if text_box:
            found.append(text_box)
        return found

    def draw(self, canvas, bleed):
        self.background(canvas, bleed)
        x, y, w, h = self._panel()
        name_box = self._name_box()
        art_y = y + name_box.height
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(x, art_y, w, h - name_box.height)
        canvas.clipPath(clip, stroke=0, fill=0)
        if self.card.art:
            draw_art(canvas, self.card.art, x, art_y, w, h - name_box.height)
        elif self.figure == "wizard":
            figures.wizard_scene(canvas, x, art_y, w, h - name_box.height, self.color,
                                 paint.mix(self.color, "#6a3fb5", 0.5), figures.GOLD)
        else:
            second = "#2c56a0" if self.figure == "jester" else "#e0b13a"
            figures.jester_scene(canvas, x, art_y, w, h - name_box.height, self.color, second,
                                 figures.GOLD if self.figure == "jester" else "#c2362f")
        canvas.restoreState()
        paint.fill_rect(canvas, x, y, w, name_box.height, self.color)
        _fill_and_draw(canvas, name_box, paint.ink_on(self.color))
        canvas.setStrokeColor(self.color)
        canvas.setLineWidth(0.9 * self.k)
        canvas.rect(x, y, w, h, stroke=1, fill=0)
        index_box = self._index_box()
        for upside_down in (False, True):
            draw_index = lambda: _fill_and_draw(canvas, index_box, self.color)  # noqa: E731
            if upside_down:
                _rotated(canvas, self.w, self.h, draw_index)
            else:
                draw_index()
        text_box = self._text_box()
        if text_box:
            _fill_and_draw(canvas, text_box, INK, rule_color=self.color)


# Text cards (Dvorak and any card without suit and rank) -------------------------------------

class _TextCard(_Design):
    name = "text"

    def __init__(self, deck, card, width, height):
        super().__init__(deck, card, width, height)
        self.color = kind_color(deck, card.kind)
        k = self.k
        self.margin = 8.5 * k  # coloured frame, inside it the white panel
        self.pad = 5.0 * k
        self.panel = (self.margin, self.margin, width - 2 * self.margin, height - 2 * self.margin)
        px, py, pw, ph = self.panel
        self.title_h = 0.085 * height
        self.type_h = 0.058 * height
        self.art_h = (0.36 if card.art else 0.17) * height
        self.title_y = py + ph - self.title_h
        self.art_y = self.title_y - self.art_h
        self.type_y = self.art_y - self.type_h
        self.footer_h = 0.03 * height

    def _corner_text(self) -> str:
        if self.card.corner:
            return self.card.corner
        if self.card.suit:
            return self.deck.suit(self.card.suit).symbol
        return ""

    def _corner_box(self) -> TextBox | None:
        corner = self._corner_text()
        if not corner:
            return None
        px, py, pw, ph = self.panel
        width = 0.3 * pw
        spec = text_layout.plain("corner", corner, "sans-bold", 10 * self.k, 6 * self.k,
                                 align="center", valign="middle", max_lines=1)
        return TextBox(spec, px + pw - width - 0.6 * self.pad, self.title_y + 0.12 * self.title_h,
                       width, 0.76 * self.title_h)

    def _corner_pill(self, box: TextBox) -> tuple[float, float, float, float]:
        fitted = text_layout.fit(box.spec, box.width, box.height)
        text_w = fitted.lines[0].width if fitted and fitted.lines else box.width
        pill_w = min(box.width, max(box.height, text_w + 1.2 * self.pad))
        return box.x + box.width - pill_w, box.y, pill_w, box.height

    def _title_box(self) -> TextBox:
        px, py, pw, ph = self.panel
        corner = self._corner_box()
        right = (self._corner_pill(corner)[0] - 0.5 * self.pad) if corner else px + pw - self.pad
        spec = text_layout.plain("name", self.card.name, "serif-bold", 11 * self.k, 6.5 * self.k,
                                 valign="middle", max_lines=2)
        return TextBox(spec, px + self.pad, self.title_y, right - px - self.pad, self.title_h)

    def _type_box(self) -> TextBox:
        px, py, pw, ph = self.panel
        spec = text_layout.plain("type_line", self.card.type_line, "sans-bold", 7.5 * self.k, 5 * self.k,
                                 valign="middle", max_lines=1)
        return TextBox(spec, px + self.pad, self.type_y, pw - 2 * self.pad, self.type_h)

    def _text_box(self) -> TextBox:
        px, py, pw, ph = self.panel
        top = self.type_y - 0.6 * self.pad
        bottom = py + self.footer_h + 0.3 * self.pad
        return _rules_and_flavor(self.deck, self.card, pw - 2 * self.pad, top - bottom, px + self.pad, bottom,
                                 9 * self.k, 5.25 * self.k)

    def _footer_box(self) -> TextBox:
        px, py, pw, ph = self.panel
        spec = text_layout.plain("code", f"{self.deck.name} · {self.card.code}", "sans", 5 * self.k,
                                 3.5 * self.k, align="center", valign="middle", max_lines=1)
        return TextBox(spec, px + self.pad, py + 0.2 * self.pad, pw - 2 * self.pad, self.footer_h)

    def boxes(self):
        found = [self._title_box(), self._type_box(), self._text_box(), self._footer_box()]
        corner = self._corner_box()
        if corner:
            found.append(corner)
        return found

    def draw(self, canvas, bleed):
        self.background(canvas, bleed, self.color)
        px, py, pw, ph = self.panel
        radius = 4 * self.k
        tint = paint.lighten(self.color, 0.86)
        paint.round_rect(canvas, px, py, pw, ph, radius, fill=PAPER)
        # Title bar.
        canvas.saveState()
        clip = canvas.beginPath()
        clip.roundRect(px, py, pw, ph, radius)
        canvas.clipPath(clip, stroke=0, fill=0)
        paint.fill_rect(canvas, px, self.title_y, pw, self.title_h, tint)
        # Art box, or a decorative band in the kind's colours.
        if self.card.art:
            draw_art(canvas, self.card.art, px, self.art_y, pw, self.art_h)
        else:
            self._band(canvas, px, self.art_y, pw, self.art_h)
        paint.fill_rect(canvas, px, self.type_y, pw, self.type_h, paint.lighten(self.color, 0.2))
        canvas.restoreState()
        canvas.setStrokeColor(paint.darken(self.color, 0.25))
        canvas.setLineWidth(0.6 * self.k)
        for line_y in (self.title_y, self.art_y, self.type_y):
            canvas.line(px, line_y, px + pw, line_y)
        _fill_and_draw(canvas, self._title_box(), INK)
        corner = self._corner_box()
        if corner:
            pill = self._corner_pill(corner)
            paint.round_rect(canvas, *pill, pill[3] / 2, fill=self.color)
            pill_box = TextBox(corner.spec, pill[0], pill[1], pill[2], pill[3])
            _fill_and_draw(canvas, pill_box, paint.ink_on(self.color))
        _fill_and_draw(canvas, self._type_box(), paint.ink_on(paint.lighten(self.color, 0.2)))
        _fill_and_draw(canvas, self._text_box(), INK, rule_color=self.color)
        _fill_and_draw(canvas, self._footer_box(), paint.mix(INK, PAPER, 0.45))

    def _band(self, canvas, x, y, w, h):
        paint.fill_rect(canvas, x, y, w, h, paint.lighten(self.color, 0.72))
        _pattern(canvas, self.deck.back.pattern, x, y, w, h, paint.lighten(self.color, 0.55), 9 * self.k)
        medallion_w, medallion_h = 0.5 * w, 0.62 * h
        cx, cy = x + w / 2, y + h / 2
        canvas.setFillColor(PAPER)
        canvas.setStrokeColor(self.color)
        canvas.setLineWidth(0.8 * self.k)
        canvas.ellipse(cx - medallion_w / 2, cy - medallion_h / 2, cx + medallion_w / 2, cy + medallion_h / 2,
                       stroke=1, fill=1)
        initial = re.sub(r"[^A-Za-z0-9]", "", self.deck.kind(self.card.kind).name)[:1].upper() or "?"
        paint.symbol(canvas, initial, cx, cy, medallion_h * 0.45, self.color, face="serif-bold")


# Backs ------------------------------------------------------------------------------------

def _pattern(canvas, pattern: str, x, y, w, h, color: str, step: float) -> None:
    """Fill a box with a repeating pattern centred on the box, symmetric under a half turn."""
    cx, cy = x + w / 2, y + h / 2
    reach = int(max(w, h) / step) + 2
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x, y, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setStrokeColor(color)
    canvas.setFillColor(color)
    canvas.setLineWidth(step * 0.09)
    if pattern == "stripes":
        canvas.setLineWidth(step * 0.32)
        for index in range(-2 * reach, 2 * reach + 1):
            offset = index * step
            canvas.line(cx + offset - h, cy - h, cx + offset + h, cy + h)
    elif pattern == "dots":
        for row in range(-reach, reach + 1):
            for column in range(-reach, reach + 1):
                shift = step / 2 if row % 2 else 0.0
                canvas.circle(cx + column * step + shift, cy + row * step * 0.87, step * 0.17, stroke=0, fill=1)
    elif pattern == "waves":
        for row in range(-reach, reach + 1):
            base = cy + row * step * 0.7
            path = canvas.beginPath()
            path.moveTo(cx - reach * step, base)
            for column in range(-reach, reach):
                start = cx + column * step
                path.curveTo(start + step * 0.25, base + step * 0.3, start + step * 0.25, base + step * 0.3,
                             start + step * 0.5, base)
                path.curveTo(start + step * 0.75, base - step * 0.3, start + step * 0.75, base - step * 0.3,
                             start + step, base)
            canvas.drawPath(path, stroke=1, fill=0)
    else:  # diamonds: a lattice of diagonal lines, with a dot in every diamond
        for index in range(-2 * reach, 2 * reach + 1):
            offset = index * step
            canvas.line(cx + offset - h, cy - h * 1.4, cx + offset + h, cy + h * 1.4)
            canvas.line(cx + offset + h, cy - h * 1.4, cx + offset - h, cy + h * 1.4)
    canvas.restoreState()


class _Back:
    def __init__(self, deck: "Deck", width: float, height: float):
        self.deck, self.w, self.h = deck, width, height
        self.back = deck.back
        self.k = min(width / 178.58, height / 249.45)

    def _medallion(self):
        w, h = 0.72 * self.w, min(0.34 * self.h, 0.6 * self.w)
        return (self.w - w) / 2, (self.h - h) / 2, w, h

    def _title_box(self) -> TextBox:
        x, y, w, h = self._medallion()
        has_subtitle = bool(self.back.subtitle)
        spec = text_layout.plain("title", self.back.title, "serif-bold", 24 * self.k, 9 * self.k,
                                 align="center", valign="middle", max_lines=2)
        box_h = h * (0.42 if has_subtitle else 0.62)
        box_y = y + h * (0.42 if has_subtitle else 0.19)
        return TextBox(spec, x + 0.16 * w, box_y, 0.68 * w, box_h)

    def _subtitle_box(self) -> TextBox | None:
        if not self.back.subtitle:
            return None
        x, y, w, h = self._medallion()
        spec = text_layout.plain("subtitle", self.back.subtitle, "sans", 7.5 * self.k, 5 * self.k,
                                 align="center", valign="middle", max_lines=2)
        return TextBox(spec, x + 0.2 * w, y + h * 0.17, 0.6 * w, h * 0.22)

    def boxes(self):
        found = [self._title_box()]
        subtitle = self._subtitle_box()
        if subtitle:
            found.append(subtitle)
        return found

    def draw(self, canvas, bleed):
        color, accent = self.back.color, self.back.accent
        paint.fill_rect(canvas, -bleed, -bleed, self.w + 2 * bleed, self.h + 2 * bleed, color)
        _pattern(canvas, self.back.pattern, -bleed, -bleed, self.w + 2 * bleed, self.h + 2 * bleed,
                 paint.mix(color, accent, 0.3), 11 * self.k)
        inset = 9 * self.k
        paint.round_rect(canvas, inset, inset, self.w - 2 * inset, self.h - 2 * inset, 5 * self.k,
                         stroke=accent, line_width=1.4 * self.k)
        inner = inset + 2.6 * self.k
        paint.round_rect(canvas, inner, inner, self.w - 2 * inner, self.h - 2 * inner, 3.5 * self.k,
                         stroke=accent, line_width=0.5 * self.k)
        x, y, w, h = self._medallion()
        canvas.setFillColor(color)
        canvas.setStrokeColor(accent)
        canvas.setLineWidth(1.4 * self.k)
        canvas.ellipse(x, y, x + w, y + h, stroke=1, fill=1)
        gap = 3 * self.k
        canvas.setLineWidth(0.5 * self.k)
        canvas.ellipse(x + gap, y + gap, x + w - gap, y + h - gap, stroke=1, fill=0)
        paint.star(canvas, self.w / 2, y + h * 0.88, 4 * self.k, accent)
        paint.star(canvas, self.w / 2, y + h * 0.12, 4 * self.k, accent)
        _fill_and_draw(canvas, self._title_box(), accent)
        subtitle = self._subtitle_box()
        if subtitle:
            _fill_and_draw(canvas, subtitle, paint.lighten(accent, 0.45))
