"""The printed rulebook's type and colours: its fonts, paragraph styles, rules and boxes."""

from __future__ import annotations

import html

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT
from reportlab.lib.fonts import addMapping
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    TableStyle,
)

from ..faces.fonts import covers, family_key, font
from .book import Book
from .hyphenation import hyphenator

INK = colors.HexColor("#1b1b1b")
MUTED = colors.HexColor("#6b6b6b")
RULE_ID = colors.HexColor("#7d7d7d")
PAPER_TINT = colors.HexColor("#f4f1ea")
LINK = "#1f4e8c"
NUMBER_WIDTH = 22  # points kept at the right of a contents line for its page number
DOT_SIZE = 8  # the contents' dot leaders

SERIF, SERIF_BOLD, SERIF_ITALIC, SERIF_BOLDITALIC = "serif", "serif-bold", "serif-italic", "serif-bolditalic"
SANS, SANS_BOLD, SANS_ITALIC = "sans", "sans-bold", "sans-italic"


def body_face(deck) -> str:
    """The face key the deck's own words are set in: the first of the deck's `[[fonts]]`, so the
    rulebook reads like the cards; DejaVu Serif for a deck without fonts of its own."""
    return family_key(deck, deck.fonts[0].family) if getattr(deck, "fonts", ()) else SERIF


def register_fonts(deck=None) -> None:
    """<b> and <i> in paragraphs pick the bold and italic of the serif, the sans and the deck's face."""
    families = [(SERIF, SERIF_BOLD, SERIF_ITALIC, SERIF_BOLDITALIC), (SANS, SANS_BOLD, SANS_ITALIC, "sans-bolditalic")]
    own = body_face(deck) if deck is not None else SERIF
    if own != SERIF:
        families.append((own, f"{own}-bold", f"{own}-italic", f"{own}-bolditalic"))
    for regular, bold, italic, bold_italic in families:
        base = font(regular)
        addMapping(base, 0, 0, base)
        addMapping(base, 1, 0, font(bold))
        addMapping(base, 0, 1, font(italic))
        addMapping(base, 1, 1, font(bold_italic))


def fallback(text: str, face: str = SERIF) -> str:
    """Wrap characters `face` lacks (☽, ❄ ...) in the sans face, which has them.

    `text` is already escaped paragraph XML; entities and tags contain only ASCII,
    which every text face covers, so they pass through untouched.
    """
    out, run = [], []
    for char in text:
        if char.isascii() or covers(face, char):
            if run:
                out.append(f'<font name="{font(SANS)}">{"".join(run)}</font>')
                run = []
            out.append(char)
        else:
            run.append(char)
    if run:
        out.append(f'<font name="{font(SANS)}">{"".join(run)}</font>')
    return "".join(out)


# A heading keeps at least this much of what follows it in its own column: two lines of text.
KEEP_WITH_HEADING = 2 * 10.6


def grid_columns(count: int, choices: tuple[int, ...] = (4, 5, 3)) -> int:
    """Columns for a gallery of `count` cards that leave the fewest empty places in its last row
    (13 cards: 5 + 4 + 4, not 4 + 4 + 4 + 1 with the Ace alone); ties go to the earlier choice."""
    return min(choices, key=lambda columns: (-count % columns, choices.index(columns)))


def balanced_rows(count: int, columns: int) -> list[int]:
    """Cards per row for `count` cards in rows of at most `columns`, the fewest rows, their
    lengths differing by at most one, longer rows first (13 in fives: 5, 4, 4)."""
    rows = -(-count // columns)
    return [count // rows + (1 if index < count % rows else 0) for index in range(rows)]


def escape(text: str) -> str:
    return fallback(html.escape(text, quote=False))


class Styles:
    def __init__(self, book: Book, tight: bool = False):
        """`tight`: small text and the gaps between boxes set closer, to pull a nearly empty last
        page of the two-column part up onto the page before it."""
        deck = book.deck
        self.tight = tight
        self.box_gap = 3 if tight else 5
        theme = colors.HexColor(book.theme)
        self.theme = theme
        self.accent = colors.HexColor(deck.back.accent)
        self.face = body_face(deck)  # the deck's own font, when it has one
        serif, sans = font(self.face), font(SANS)
        # Justified narrow columns need hyphenation to avoid loose lines (pyphen, the deck's language).
        self.body = ParagraphStyle("body", fontName=serif, bulletFontName=sans, fontSize=9.4, leading=13, textColor=INK,
                                   alignment=TA_JUSTIFY, spaceAfter=4.5,
                                   hyphenationLang=hyphenator(deck.language),
                                   embeddedHyphenation=1, uriWasteReduce=0.3)
        self.bullet = ParagraphStyle("bullet", parent=self.body, leftIndent=11, bulletIndent=2,
                                     spaceAfter=2.5, alignment=TA_LEFT)
        self.small = ParagraphStyle("small", parent=self.body, fontSize=8.2, leading=10.1 if tight else 10.6,
                                    spaceAfter=1.5 if tight else 2.5,
                                    alignment=TA_LEFT)
        self.caption = ParagraphStyle("caption", fontName=sans, fontSize=6.4, leading=7.6,
                                      alignment=TA_CENTER, textColor=INK)
        self.figure_facts = ParagraphStyle("figure-facts", fontName=sans, fontSize=7.2, leading=9.2,
                                           alignment=TA_CENTER, textColor=MUTED, spaceBefore=1, spaceAfter=1)
        self.figure_caption = ParagraphStyle("figure-caption", fontName=font(italic_of(self.face)), fontSize=8.4,
                                             leading=10.8, alignment=TA_CENTER, textColor=INK, spaceAfter=2,
                                             hyphenationLang=self.body.hyphenationLang, embeddedHyphenation=1)
        self.chapter = ParagraphStyle("chapter", fontName=font(SANS_BOLD), fontSize=15, leading=19,
                                      textColor=theme, spaceBefore=14, spaceAfter=7, keepWithNext=1)
        # No keepWithNext: it would carry a rule's whole first paragraph to the next column and
        # strand a chapter heading above it; the conditional break before each heading keeps
        # it with two lines of its text instead.
        self.rule = ParagraphStyle("rule", fontName=font(SANS_BOLD), fontSize=10, leading=13,
                                   textColor=INK, spaceBefore=7, spaceAfter=2.5)
        self.card_name = ParagraphStyle("card-name", fontName=font(SANS_BOLD), fontSize=10, leading=12.5,
                                        textColor=theme, spaceAfter=1.5)
        self.meta = ParagraphStyle("meta", fontName=sans, fontSize=7.2, leading=9.5, textColor=MUTED,
                                   spaceAfter=3)
        self.label = ParagraphStyle("label", fontName=font(SANS_BOLD), fontSize=7, leading=9,
                                    textColor=theme, spaceAfter=2)
        self.cell = ParagraphStyle("cell", parent=self.small, spaceAfter=0)
        self.cell_head = ParagraphStyle("cell-head", fontName=font(SANS_BOLD), fontSize=7.6, leading=9.5,
                                        textColor=colors.white)
        self.toc_title = ParagraphStyle("toc-title", parent=self.chapter, fontSize=22, leading=27,
                                        spaceBefore=0, spaceAfter=14)
        self.toc_levels = [
            ParagraphStyle("toc0", fontName=font(SANS_BOLD), fontSize=10.5, leading=14, spaceBefore=7,
                           textColor=theme, leftIndent=0, firstLineIndent=0),
            ParagraphStyle("toc1", fontName=serif, fontSize=9.2, leading=12.4, leftIndent=18,
                           firstLineIndent=0, textColor=INK),
        ]
        self.quick_title = ParagraphStyle("quick-title", parent=self.chapter, fontSize=20, leading=24,
                                          spaceBefore=0, spaceAfter=10)
        self.quick_head = ParagraphStyle("quick-head", fontName=font(SANS_BOLD), fontSize=12.5, leading=16,
                                         textColor=colors.white)
        self.quick_body = ParagraphStyle("quick-body", parent=self.body, fontSize=11.5, leading=15.5,
                                         alignment=TA_LEFT, spaceAfter=3)
        self.quick_bullet = ParagraphStyle("quick-bullet", parent=self.quick_body, leftIndent=13,
                                           bulletIndent=2, spaceAfter=3.5)




def italic_of(face: str) -> str:
    return SERIF_ITALIC if face == SERIF else f"{face}-italic"


class Rule(Flowable):
    """A short coloured line under a chapter heading."""

    def __init__(self, color):
        super().__init__()
        self.color = color

    def wrap(self, available_width, available_height):
        self.width = available_width
        return available_width, 6

    def draw(self):
        self.canv.setStrokeColor(self.color)
        self.canv.setLineWidth(1.4)
        self.canv.line(0, 5, min(self.width, 28 * mm), 5)


def box_style(background, bar) -> TableStyle:
    return TableStyle([
        ("BACKGROUND", (0, 0), (-1, -1), background),
        ("LINEBEFORE", (0, 0), (0, -1), 2.2, bar),
        ("LEFTPADDING", (0, 0), (-1, -1), 8),
        ("RIGHTPADDING", (0, 0), (-1, -1), 7),
        ("TOPPADDING", (0, 0), (-1, -1), 6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
    ])


