"""Playing cards: corner indices, pip layouts, aces, double-ended court figures, suited figures."""

from __future__ import annotations

from . import figures, paint
from . import text as text_layout
from .design import INK, Design, figure_of, fill_and_draw, rotated
from .text import TextBox

COURT_LETTERS = ("J", "Q", "K")
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


class PlayingCard(Design):
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
        self.figure = figure_of(deck, card)
        label = self.index_label.upper()
        self.letter = label if label in COURT_LETTERS else None

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
        spec = text_layout.TextSpec("text", tuple(blocks), *self.sizes(7.5, 5.0), align="center",
                                    valign="middle")
        return TextBox(spec, (self.w - width) / 2, 0.04 * self.h, width, height)

    def _emblem_box(self) -> TextBox | None:
        """The rank's name, for a rank drawn as an emblem (no pips, court letter or figure)."""
        if self.figure or self.letter or self.pips:
            return None
        x, y, w, h = self._frame()
        spec = text_layout.plain("rank name", self.rank.name.upper(), "serif-bold", *self.sizes(11, 6),
                                 align="center", valign="middle", max_lines=2)
        return TextBox(spec, x + 0.08 * w, y + 0.06 * h, 0.84 * w, 0.16 * h)

    def boxes(self):
        return [box for box in (self._index_box(), self._symbol_box(), self._text_box(), self._emblem_box())
                if box]

    def draw(self, canvas, bleed):
        self.background(canvas, bleed)
        text_box = self._text_box()

        def corner():
            self._draw_index(canvas)
            if text_box:
                fill_and_draw(canvas, text_box, INK)

        corner()
        rotated(canvas, self.w, self.h, corner)
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
        fill_and_draw(canvas, box, self.color)
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
        inset = 0.125 if self.card.text else 0.1  # leave room for the caption strips
        y0, y1 = inset * self.h, (1 - inset) * self.h
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
        paint.set_stroke(canvas, figures.GOLD)
        canvas.setLineWidth(1.0 * self.k)
        canvas.line(x, y + h / 2, x + w, y + h / 2)
        paint.set_stroke(canvas, self.color)
        canvas.setLineWidth(0.9 * self.k)
        canvas.rect(x, y, w, h, stroke=1, fill=0)

    def _draw_figure(self, canvas):
        x, y, w, h = self._frame()
        sky = paint.darken(self.color, 0.55) if paint.luminance(self.color) > 0.1 else "#1d2149"
        if self.figure == "wizard":
            figures.wizard_scene(canvas, x, y, w, h, sky, self.color, figures.GOLD, self.suit.symbol,
                                 paint.lighten(self.color, 0.6))
        else:
            second, accent = figures.contrasts(self.color)
            figures.jester_scene(canvas, x, y, w, h, self.color, second, accent, self.suit.symbol, self.color)
        paint.set_stroke(canvas, self.color)
        canvas.setLineWidth(0.9 * self.k)
        canvas.rect(x, y, w, h, stroke=1, fill=0)

    def _draw_emblem(self, canvas):
        # A rank with no pips, court letter or figure: one large pip over the rank's name.
        x, y, w, h = self._frame()
        paint.set_stroke(canvas, self.color)
        canvas.setLineWidth(0.9 * self.k)
        canvas.rect(x, y, w, h, stroke=1, fill=0)
        paint.symbol(canvas, self.suit.symbol, self.w / 2, y + 0.58 * h, 0.3 * h, self.color)
        fill_and_draw(canvas, self._emblem_box(), self.color)
