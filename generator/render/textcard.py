"""Text cards (Dvorak decks and any card without suit and rank): title, corner value, art box,
type line, rules and flavour text, each in its own region."""

from __future__ import annotations

import re

from . import paint
from . import text as text_layout
from .art import draw_art
from .design import INK, PAPER, Design, fill_and_draw, kind_color, rules_and_flavor
from .text import TextBox

class TextCard(Design):
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
        spec = text_layout.plain("corner", corner, "sans-bold", *self.sizes(10, 6),
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
        spec = text_layout.plain("name", self.card.name, "serif-bold", *self.sizes(11, 6.5),
                                 valign="middle", max_lines=2)
        return TextBox(spec, px + self.pad, self.title_y, right - px - self.pad, self.title_h)

    def _type_box(self) -> TextBox:
        px, py, pw, ph = self.panel
        spec = text_layout.plain("type_line", self.card.type_line, "sans-bold", *self.sizes(7.5, 5),
                                 valign="middle", max_lines=1)
        return TextBox(spec, px + self.pad, self.type_y, pw - 2 * self.pad, self.type_h)

    def _text_box(self) -> TextBox:
        px, py, pw, ph = self.panel
        top = self.type_y - 0.6 * self.pad
        bottom = py + self.footer_h + 0.3 * self.pad
        return rules_and_flavor(self.deck, self.card, pw - 2 * self.pad, top - bottom, px + self.pad, bottom,
                                 *self.sizes(9, 5.25))

    def _footer_box(self) -> TextBox:
        px, py, pw, ph = self.panel
        spec = text_layout.plain("code", f"{self.deck.name} · {self.card.code}", "sans", *self.sizes(5, 3.5),
                                 align="center", valign="middle", max_lines=1)
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
        paint.set_stroke(canvas, paint.darken(self.color, 0.25))
        canvas.setLineWidth(0.6 * self.k)
        for line_y in (self.title_y, self.art_y, self.type_y):
            canvas.line(px, line_y, px + pw, line_y)
        fill_and_draw(canvas, self._title_box(), INK)
        corner = self._corner_box()
        if corner:
            pill = self._corner_pill(corner)
            paint.round_rect(canvas, *pill, pill[3] / 2, fill=self.color)
            pill_box = TextBox(corner.spec, pill[0], pill[1], pill[2], pill[3])
            fill_and_draw(canvas, pill_box, paint.ink_on(self.color))
        fill_and_draw(canvas, self._type_box(), paint.ink_on(paint.lighten(self.color, 0.2)))
        fill_and_draw(canvas, self._text_box(), INK, rule_color=self.color)
        fill_and_draw(canvas, self._footer_box(), paint.mix(INK, PAPER, 0.45))

    def _band(self, canvas, x, y, w, h):
        """The art box of a card without art: the back's pattern in the kind's tints and a crest."""
        paint.fill_rect(canvas, x, y, w, h, paint.lighten(self.color, 0.72))
        paint.pattern(canvas, self.deck.back.pattern, x, y, w, h, paint.lighten(self.color, 0.55), 9 * self.k)
        cx, cy = x + w / 2, y + h / 2
        crest_h = 0.8 * h
        crest_w = crest_h * 0.8
        top, bottom = cy + crest_h / 2, cy - crest_h / 2
        left, right = cx - crest_w / 2, cx + crest_w / 2
        for grow, fill in ((1.5 * self.k, self.color), (0.0, PAPER)):
            path = canvas.beginPath()
            path.moveTo(left - grow, top + grow)
            path.lineTo(right + grow, top + grow)
            path.lineTo(right + grow, cy + 0.05 * crest_h)
            path.curveTo(right + grow, bottom + 0.25 * crest_h, cx + 0.2 * crest_w, bottom + 0.05 * crest_h,
                         cx, bottom - grow)
            path.curveTo(cx - 0.2 * crest_w, bottom + 0.05 * crest_h, left - grow, bottom + 0.25 * crest_h,
                         left - grow, cy + 0.05 * crest_h)
            path.close()
            paint.set_fill(canvas, fill)
            canvas.drawPath(path, stroke=0, fill=1)
        initial = re.sub(r"[^A-Za-z0-9]", "", self.deck.kind(self.card.kind).name)[:1].upper() or "?"
        paint.symbol(canvas, initial, cx, cy + 0.06 * crest_h, crest_h * 0.42, self.color, face="serif-bold")
