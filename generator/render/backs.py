"""The card back: the deck's colours and pattern, a double frame and a medallion with the title."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import paint
from . import text as text_layout
from .design import Scaled, fill_and_draw
from .text import TextBox

if TYPE_CHECKING:
    from ..model import Deck


class Back(Scaled):
    def __init__(self, deck: "Deck", width: float, height: float):
        super().__init__(width, height)
        self.deck, self.back = deck, deck.back

    def _medallion(self):
        w, h = 0.72 * self.w, min(0.34 * self.h, 0.6 * self.w)
        return (self.w - w) / 2, (self.h - h) / 2, w, h

    def _title_box(self) -> TextBox:
        x, y, w, h = self._medallion()
        has_subtitle = bool(self.back.subtitle)
        spec = text_layout.plain("title", self.back.title, "serif-bold", *self.sizes(24, 9),
                                 align="center", valign="middle", max_lines=2)
        box_h = h * (0.42 if has_subtitle else 0.62)
        box_y = y + h * (0.42 if has_subtitle else 0.19)
        return TextBox(spec, x + 0.16 * w, box_y, 0.68 * w, box_h)

    def _subtitle_box(self) -> TextBox | None:
        if not self.back.subtitle:
            return None
        x, y, w, h = self._medallion()
        spec = text_layout.plain("subtitle", self.back.subtitle, "sans", *self.sizes(7.5, 5),
                                 align="center", valign="middle", max_lines=2)
        return TextBox(spec, x + 0.12 * w, y + h * 0.17, 0.76 * w, h * 0.22)

    def boxes(self):
        found = [self._title_box()]
        subtitle = self._subtitle_box()
        if subtitle:
            found.append(subtitle)
        return found

    def draw(self, canvas, bleed):
        color, accent = self.back.color, self.back.accent
        paint.fill_rect(canvas, -bleed, -bleed, self.w + 2 * bleed, self.h + 2 * bleed, color)
        paint.pattern(canvas, self.back.pattern, -bleed, -bleed, self.w + 2 * bleed, self.h + 2 * bleed,
                 paint.mix(color, accent, 0.3), 11 * self.k)
        inset = 9 * self.k
        paint.round_rect(canvas, inset, inset, self.w - 2 * inset, self.h - 2 * inset, 5 * self.k,
                         stroke=accent, line_width=1.4 * self.k)
        inner = inset + 2.6 * self.k
        paint.round_rect(canvas, inner, inner, self.w - 2 * inner, self.h - 2 * inner, 3.5 * self.k,
                         stroke=accent, line_width=0.5 * self.k)
        x, y, w, h = self._medallion()
        paint.set_fill(canvas, color)
        paint.set_stroke(canvas, accent)
        canvas.setLineWidth(1.4 * self.k)
        canvas.ellipse(x, y, x + w, y + h, stroke=1, fill=1)
        gap = 3 * self.k
        canvas.setLineWidth(0.5 * self.k)
        canvas.ellipse(x + gap, y + gap, x + w - gap, y + h - gap, stroke=1, fill=0)
        paint.star(canvas, self.w / 2, y + h * 0.88, 4 * self.k, accent)
        paint.star(canvas, self.w / 2, y + h * 0.12, 4 * self.k, accent)
        fill_and_draw(canvas, self._title_box(), accent)
        subtitle = self._subtitle_box()
        if subtitle:
            fill_and_draw(canvas, subtitle, paint.lighten(accent, 0.45))
