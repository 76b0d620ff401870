"""Picture cards: a figure (Wizard, Jester, Joker) with its name, corner value and rules text."""

from __future__ import annotations

from . import figures, paint
from . import text as text_layout
from .art import draw_art
from .design import FIGURES, INK, Design, fill_and_draw, figure_of, rotated, rules_and_flavor
from .text import TextBox

class PictureCard(Design):
    name = "picture"

    def __init__(self, deck, card, width, height):
        super().__init__(deck, card, width, height)
        self.figure = figure_of(deck, card)
        self.color = deck.kind(card.kind).color or FIGURES[self.figure]
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
            spec = text_layout.TextSpec("corner", blocks, *self.sizes(9, 6), align="center")
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
        spec = text_layout.plain("name", self.card.name.upper(), "serif-bold", *self.sizes(10.5, 6),
                                 align="center", valign="middle", max_lines=1)
        return TextBox(spec, x + 0.04 * w, y, w * 0.92, band)

    def _text_box(self) -> TextBox | None:
        if not self.has_text:
            return None
        x0 = 0.2 * self.w
        return rules_and_flavor(self.deck, self.card, 0.6 * self.w, 0.29 * self.h, x0, 0.085 * self.h,
                                 *self.sizes(7.5, 4.75), align="center")

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
            second, accent = figures.contrasts(self.color)
            figures.jester_scene(canvas, x, art_y, w, h - name_box.height, self.color, second, accent)
        canvas.restoreState()
        paint.fill_rect(canvas, x, y, w, name_box.height, self.color)
        fill_and_draw(canvas, name_box, paint.ink_on(self.color))
        paint.set_stroke(canvas, self.color)
        canvas.setLineWidth(0.9 * self.k)
        canvas.rect(x, y, w, h, stroke=1, fill=0)
        index_box = self._index_box()
        for upside_down in (False, True):
            draw_index = lambda: fill_and_draw(canvas, index_box, self.color)  # noqa: E731
            if upside_down:
                rotated(canvas, self.w, self.h, draw_index)
            else:
                draw_index()
        text_box = self._text_box()
        if text_box:
            fill_and_draw(canvas, text_box, INK, rule_color=self.color)
