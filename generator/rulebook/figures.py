"""Figures of play drawn in the printed rulebook: the cards in a row as the print renderer draws
them, the winning (or marked) card raised and outlined, a label under each card and a caption.

The HTML and Markdown rulebooks show the same drawing: `FigureDrawing` notes where on the
page it went (`figure_placements` on the document), and `pictures.Pictures` cuts it out of
the typeset PDF, as it does the card pictures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from ..deck import figures
from ..deck.figures import Figure
from ..deck.model import Card, Deck
from .pdf_cards import Placement
from ..core.typography import smarten

MAX_CARD_WIDTH = 17 * mm  # a poker card at about a quarter of its size: four fit in a column
MIN_CARD_WIDTH = 7 * mm
CARD_GAP = 2.2 * mm
GROUP_GAP = 6 * mm  # at least, between the sides of a goal or a manoeuvre: room for the word between
LABEL_SIZE = 6.6
LABEL_LEADING = 8.4
EDGE = 2.5  # points around the cards: room for the winner's outline and the cards' shadows
MUTED = colors.HexColor("#6b6b6b")


@dataclass(frozen=True, slots=True)
class Group:
    """Cards shown together: one side of a goal or a manoeuvre, or all of a trick. An empty
    group is drawn as an empty place with `empty` written in it."""

    cards: tuple[Card, ...]
    labels: tuple[str, ...]  # one under each card ("" for none)
    caption: str = ""  # under the whole group
    marked: frozenset[int] = frozenset()  # positions raised and outlined
    empty: str = ""


def groups(figure: Figure, deck: Deck) -> tuple[list[Group], str]:
    """The figure's groups, and the word between them ("against")."""
    cards = tuple(deck.card(word) for word in figure.cards)
    if figure.kind in ("trick", "hand"):
        names = figure.values("players")
        labels = [names[index] if names else str(index + 1) for index in range(len(cards))]
        if figure.kind == "hand" and not figure.has("mark"):
            labels = [""] * len(cards)
        winner = figures.winner(figure) if figure.kind == "trick" else None
        if winner is not None:
            labels[winner] = f"{labels[winner]} · {deck.phrase('wins')}"
        return [Group(cards, tuple(labels), marked=frozenset(figures.marked(figure)))], ""
    if figure.kind == "goal":
        scores, blocked = figure.has("scores"), figure.has("blocked")
        house, rival = figure.value("house"), figure.value("rival")
        attack = Group(cards, ("", ""), _house(deck, "scorer's house {suit}", house),
                       frozenset({0, 1}) if scores else frozenset())
        keeper = figure.value("keeper")
        keeper_card = () if keeper is None or keeper.casefold() == "none" else (deck.card(keeper),)
        defence = Group(keeper_card, (deck.phrase("Keeper"),) if keeper_card else (), _house(deck, "defender's house {suit}", rival),
                        frozenset({0}) if blocked and keeper_card else frozenset(), empty=deck.phrase("no Keeper"))
        return [attack, defence], deck.phrase("against")
    dominance = figure.values("dominance")
    holder = (figure.value("quaffle") or "").casefold()
    sides = []
    for seat in figures.SEATS[:len(dominance)]:
        shown = cards if seat == "p1" else tuple(deck.card(word) for word in figure.values(seat))
        caption = deck.phrase("{player} · dominance {points}", player=seat.upper(), points=dominance[int(seat[1:]) - 1])
        if holder == seat:
            quaffle = deck.find_card(figures.QUAFFLE)
            shown = (quaffle, *shown) if quaffle else shown
            caption += "" if quaffle else " · " + deck.phrase("Quaffle")
        sides.append(Group(shown, ("",) * len(shown), caption, empty=deck.phrase("nothing in play")))
    return sides, ""  # the players side by side, each labelled: no word between them


def _house(deck: Deck, phrase: str, word: str | None) -> str:
    suit = figures.find_suit(deck, word) if word else None
    return deck.phrase(phrase, suit=suit.symbol) if suit else ""


class FigureDrawing(Flowable):
    """The cards of one figure, scaled down to fit the width it is given."""

    def __init__(self, deck: Deck, figure: Figure, draw_card: Callable, theme, accent, font_name: str,
                 bold_font_name: str):
        super().__init__()
        self.deck, self.figure, self.draw_card = deck, figure, draw_card
        self.theme, self.accent = theme, accent
        self.font_name, self.bold_font_name = font_name, bold_font_name
        self.groups, self.joiner = groups(figure, deck)
        self.ratio = deck.card_size.height_mm / deck.card_size.width_mm
        self.card_width = MAX_CARD_WIDTH
        self.group_gap = max(GROUP_GAP, stringWidth(self.joiner, font_name, LABEL_SIZE) + 3 * mm
                             if self.joiner else 0)
        self.hAlign = "CENTER"

    def _group_widths(self, card_width: float) -> list[float]:
        """Each group's width: its cards side by side, or its caption if that is wider."""
        widths = []
        for group in self.groups:
            slots = max(1, len(group.cards))
            cards = slots * card_width + (slots - 1) * CARD_GAP
            widths.append(max(cards, _text_width(group.caption, self.font_name)))
        return widths

    def _layout_width(self, card_width: float) -> float:
        return sum(self._group_widths(card_width)) + (len(self.groups) - 1) * self.group_gap

    def wrap(self, available_width, available_height):
        room = available_width - 2 * EDGE
        self.card_width = MAX_CARD_WIDTH
        step = 0.25 * mm
        # Smaller cards, until the row fits or only its labels keep it wide.
        while (self.card_width > MIN_CARD_WIDTH and self._layout_width(self.card_width) > room
               and self._layout_width(self.card_width - step) < self._layout_width(self.card_width)):
            self.card_width -= step
        self.card_height = self.card_width * self.ratio
        self.lift = self.card_height * 0.1 if any(group.marked for group in self.groups) else 0
        self.card_labels = any(any(group.labels) for group in self.groups)
        label_lines = int(self.card_labels) + int(any(group.caption for group in self.groups))
        self.label_height = label_lines * LABEL_LEADING + (2 if label_lines else 0)
        # As wide as the cards and their labels, centred in the column: the HTML and Markdown
        # pictures are cut out of this box.
        self.width = min(available_width, self._layout_width(self.card_width) + 2 * EDGE)
        self.height = self.lift + self.card_height + self.label_height + EDGE
        return self.width, self.height

    def draw(self):
        canv = self.canv
        self._note_placement()
        x = (self.width - self._layout_width(self.card_width)) / 2
        base = self.label_height
        for index, (group, width) in enumerate(zip(self.groups, self._group_widths(self.card_width))):
            if index:
                if self.joiner:
                    self._label(canv, x + self.group_gap / 2, base + self.card_height / 2, self.joiner, MUTED)
                x += self.group_gap
            slots = max(1, len(group.cards))
            left = x + (width - slots * self.card_width - (slots - 1) * CARD_GAP) / 2
            if not group.cards:
                self._empty_place(canv, left, base, group.empty)
            for position, card in enumerate(group.cards):
                card_x = left + position * (self.card_width + CARD_GAP)
                raised = position in group.marked
                y = base + (self.lift if raised else 0)
                if raised:
                    self._outline(canv, card_x, y)
                self.draw_card(canv, card, card_x, y, self.card_width, self.card_height)
                label = group.labels[position] if position < len(group.labels) else ""
                if label:
                    self._label(canv, card_x + self.card_width / 2, base - LABEL_LEADING + 1.5, label,
                                self.theme if raised else MUTED, bold=raised)
            if group.caption:
                line = 1 + int(self.card_labels)
                self._label(canv, x + width / 2, base - line * LABEL_LEADING + 1.5, group.caption, MUTED)
            x += width

    def _note_placement(self) -> None:
        """Where the cards are on the page, for the HTML and Markdown pictures cut out of it."""
        canv = self.canv
        left, bottom = canv.absolutePosition(0, 0)
        right, top = canv.absolutePosition(self.width, self.height)
        placements = canv._doctemplate.figure_placements
        placements.setdefault(self.figure.key, Placement(canv.getPageNumber() - 1, (left, bottom, right, top)))

    def _outline(self, canv, x: float, y: float) -> None:
        pad = 1.3
        canv.saveState()
        canv.setStrokeColor(self.accent)
        canv.setLineWidth(1.6)
        canv.roundRect(x - pad, y - pad, self.card_width + 2 * pad, self.card_height + 2 * pad,
                       self.card_width * 0.07, stroke=1, fill=0)
        canv.restoreState()

    def _empty_place(self, canv, x: float, y: float, words: str) -> None:
        canv.saveState()
        canv.setStrokeColor(MUTED)
        canv.setDash(2, 2)
        canv.setLineWidth(0.6)
        canv.roundRect(x, y, self.card_width, self.card_height, self.card_width * 0.05, stroke=1, fill=0)
        canv.restoreState()
        for line, text in enumerate(_fit_words(words, self.font_name, LABEL_SIZE, self.card_width - 2)):
            self._label(canv, x + self.card_width / 2, y + self.card_height / 2 - line * LABEL_LEADING, text, MUTED)

    def _label(self, canv, x: float, y: float, text: str, color, bold: bool = False) -> None:
        canv.saveState()
        canv.setFillColor(color)
        canv.setFont(self.bold_font_name if bold else self.font_name, LABEL_SIZE)
        canv.drawCentredString(x, y, smarten(text))
        canv.restoreState()


def _text_width(text: str, font_name: str) -> float:
    return stringWidth(smarten(text), font_name, LABEL_SIZE)


def _fit_words(words: str, font_name: str, size: float, width: float) -> list[str]:
    """Words broken into lines no wider than `width`."""
    lines: list[str] = []
    for word in words.split():
        if lines and stringWidth(f"{lines[-1]} {word}", font_name, size) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines
