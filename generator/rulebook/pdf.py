"""The printed rulebook: A4 or Letter (or A5 for booklets), typeset with reportlab Platypus.

Cover, contents (page numbers filled in once every page is laid out), the deck's
numbered sections in two columns, the card reference, the rulings appendix,
and a one-page quick reference. Every heading is a PDF bookmark; every rule
id, card and ruling is a named destination (`/Names /Dests`), so
`wizard-rules.pdf#nameddest=wizard.trick.winner` opens at that rule.
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass, field
from functools import partial

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT
from reportlab.lib.fonts import addMapping
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (BaseDocTemplate, CondPageBreak, Flowable, Frame, KeepInFrame, KeepTogether,
                                NextPageTemplate, PageBreak, PageTemplate, Spacer, Table, TableStyle)
from reportlab.platypus.doctemplate import ActionFlowable
from reportlab.platypus.flowables import UseUpSpace

from ..core.errors import DeckgenError
from ..deck import markup
from ..deck.model import Card, Deck
from ..faces.fonts import covers, font
from .book import Appendix, Book, CardEntry, CardGroup, Chapter, Heading, RulingEntry
from .figures import FigureDrawing
from .hyphenation import hyphenation_language
from .paper import Geometry, geometry
from .paragraphs import Paragraph
from .pdf_cards import CardFan, CardPicture, CardStamps, Placement, figure_card
from .text import PdfWriter

INK = colors.HexColor("#1b1b1b")
MUTED = colors.HexColor("#6b6b6b")
RULE_ID = colors.HexColor("#7d7d7d")
PAPER_TINT = colors.HexColor("#f4f1ea")
LINK = "#1f4e8c"
NUMBER_WIDTH = 22  # points kept at the right of a contents line for its page number
DOT_SIZE = 8  # the contents' dot leaders

SERIF, SERIF_BOLD, SERIF_ITALIC, SERIF_BOLDITALIC = "serif", "serif-bold", "serif-italic", "serif-bolditalic"
SANS, SANS_BOLD, SANS_ITALIC = "sans", "sans-bold", "sans-italic"


def _register_fonts() -> None:
    for regular, bold, italic, bold_italic in ((SERIF, SERIF_BOLD, SERIF_ITALIC, SERIF_BOLDITALIC),
                                               (SANS, SANS_BOLD, SANS_ITALIC, "sans-bolditalic")):
        base = font(regular)
        addMapping(base, 0, 0, base)
        addMapping(base, 1, 0, font(bold))
        addMapping(base, 0, 1, font(italic))
        addMapping(base, 1, 1, font(bold_italic))


def _fallback(text: str) -> str:
    """Wrap characters the serif face lacks (☽, ❄ ...) in the sans face, which has them.

    `text` is already escaped paragraph XML; entities and tags contain only ASCII,
    which the serif face covers, so they pass through untouched.
    """
    out, run = [], []
    for char in text:
        if char.isascii() or covers(SERIF, char):
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


def _escape(text: str) -> str:
    return _fallback(html.escape(text, quote=False))


class _Styles:
    def __init__(self, book: Book):
        deck = book.deck
        theme = colors.HexColor(book.theme)
        self.theme = theme
        self.accent = colors.HexColor(deck.back.accent)
        serif, sans = font(SERIF), font(SANS)
        # Justified narrow columns need hyphenation to avoid loose lines (pyphen, the deck's language).
        self.body = ParagraphStyle("body", fontName=serif, bulletFontName=sans, fontSize=9.4, leading=13, textColor=INK,
                                   alignment=TA_JUSTIFY, spaceAfter=4.5,
                                   hyphenationLang=hyphenation_language(deck.language),
                                   embeddedHyphenation=1, uriWasteReduce=0.3)
        self.bullet = ParagraphStyle("bullet", parent=self.body, leftIndent=11, bulletIndent=2,
                                     spaceAfter=2.5, alignment=TA_LEFT)
        self.small = ParagraphStyle("small", parent=self.body, fontSize=8.2, leading=10.6, spaceAfter=2.5,
                                    alignment=TA_LEFT)
        self.caption = ParagraphStyle("caption", fontName=sans, fontSize=6.4, leading=7.6,
                                      alignment=TA_CENTER, textColor=INK)
        self.figure_facts = ParagraphStyle("figure-facts", fontName=sans, fontSize=7.2, leading=9.2,
                                           alignment=TA_CENTER, textColor=MUTED, spaceBefore=1, spaceAfter=1)
        self.figure_caption = ParagraphStyle("figure-caption", fontName=font(SERIF_ITALIC), fontSize=8.4,
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


class _HeadingParagraph(Paragraph):
    """A heading that becomes a contents entry, a bookmark and a running head as it is laid out."""

    def __init__(self, text: str, style: ParagraphStyle, heading: Heading, in_contents: bool = True,
                 outline_level: int | None = None):
        super().__init__(text, style)
        self.heading = heading
        self.in_contents = in_contents
        self.outline_level = heading.level - 1 if outline_level is None else outline_level


class _OutlineMark(Flowable):
    """An outline entry for something that is not a heading (a card, a ruling).

    It adds itself while drawn, because flowables inside tables never reach
    `afterFlowable`; the destination it points at is the `<a name>` next to it.
    """

    def __init__(self, title: str, anchor: str, level: int):
        super().__init__()
        self.title, self.anchor, self.level = title, anchor, level

    def wrap(self, available_width, available_height):
        return 0, 0

    def draw(self):
        self.canv.addOutlineEntry(self.title, self.anchor, level=self.level, closed=True)


@dataclass(frozen=True, slots=True)
class Typeset:
    """The finished PDF, where each card is shown largest and upright in it, and the anchors of
    headings whose text went on to another column or page (none, when typesetting went well)."""

    pdf: bytes
    placements: dict[str, Placement]
    stranded_headings: tuple[str, ...] = ()
    figure_placements: dict[str, Placement] = field(default_factory=dict)  # figure key -> its drawing


class _Cover(Flowable):
    """The whole cover page, laid out absolutely: colour band, title, fanned cards, facts, credits."""

    def __init__(self, book: Book, styles: _Styles, samples: tuple[Card, ...], geometry: Geometry):
        super().__init__()
        self.book, self.styles, self.samples, self.geometry = book, styles, samples, geometry

    def wrap(self, available_width, available_height):
        return self.geometry.page_width, self.geometry.page_height

    def draw(self):
        g = self.geometry
        canv, deck, styles = self.canv, self.book.deck, self.styles
        band_bottom = g.page_height * 0.45
        canv.setFillColor(styles.theme)
        canv.rect(0, band_bottom, g.page_width, g.page_height - band_bottom, stroke=0, fill=1)
        canv.setFillColor(styles.accent)
        canv.rect(0, band_bottom - 3, g.page_width, 3, stroke=0, fill=1)

        canv.setFillColor(styles.accent)
        canv.setFont(font(SANS_BOLD), 9)
        canv.drawCentredString(g.page_width / 2, g.page_height - 30 * mm,
                               _spaced(deck.phrase("Rules of play · edition {version}", version=deck.version)))
        title = ParagraphStyle("cover-title", fontName=font(SANS_BOLD), fontSize=46, leading=52,
                               alignment=TA_CENTER, textColor=colors.white)
        title_width = min(160 * mm, g.text_width)
        bottom = _draw_paragraph(canv, Paragraph(_escape(deck.name), title), g, g.page_height - 38 * mm, title_width)
        if deck.description:
            tagline = ParagraphStyle("cover-tagline", fontName=font(SERIF_ITALIC), fontSize=13, leading=18,
                                     alignment=TA_CENTER, textColor=colors.HexColor("#f3efe4"))
            writer = PdfWriter(deck, self.book.card_anchors.__getitem__, _fallback, "#f3efe4")
            _draw_paragraph(canv, Paragraph(writer.inline(deck.description), tagline), g, bottom - 6 * mm,
                            min(125 * mm, g.text_width))

        if self.samples:
            fan = CardFan(deck, self.samples, 50 * mm * g.scale, spread=12)
            fan.wrapOn(canv, g.page_width, g.page_height)
            fan.drawOn(canv, (g.page_width - fan.width) / 2, band_bottom - fan.height * 0.45)

        facts = [(deck.phrase("Players"), self.book.players), (deck.phrase("Playing time"), deck.play_time or "—"),
                 (deck.phrase("Cards"), str(deck.total)), (deck.phrase("Edition"), deck.version)]
        column = g.text_width / len(facts)
        y = 62 * mm * g.scale
        for index, (label, value) in enumerate(facts):
            x = g.margin + column * (index + 0.5)
            canv.setFillColor(MUTED)
            canv.setFont(font(SANS_BOLD), 7.5)
            canv.drawCentredString(x, y + 9 * mm, _spaced(label))
            canv.setFillColor(styles.theme)
            canv.setFont(font(SANS_BOLD), 15 if len(value) < 12 else 11)
            canv.drawCentredString(x, y, value)
        canv.setStrokeColor(styles.accent)
        canv.setLineWidth(0.8)
        canv.line(g.margin + 20 * mm, y - 8 * mm, g.page_width - g.margin - 20 * mm, y - 8 * mm)

        credits_style = ParagraphStyle("cover-credits", fontName=font(SERIF), fontSize=8.6, leading=12,
                                       alignment=TA_CENTER, textColor=INK)
        lines = []
        if deck.designer:
            lines.append(f"{_escape(deck.phrase('Game design by'))} <b>{_escape(deck.designer)}</b>")
        lines.extend(_escape(credit) for credit in deck.credits)
        if lines:
            _draw_paragraph(canv, Paragraph("<br/>".join(lines), credits_style), g, y - 14 * mm,
                            min(140 * mm, g.text_width))


def _spaced(text: str) -> str:
    """Letter-spaced capitals for small labels."""
    return " ".join(text.upper())


def _draw_paragraph(canv, paragraph: Paragraph, geometry: Geometry, top: float, width: float) -> float:
    """Draw a paragraph centred on the page with its top at `top`; return its bottom."""
    _, height = paragraph.wrapOn(canv, width, geometry.page_height)
    paragraph.drawOn(canv, (geometry.page_width - width) / 2, top - height)
    return top - height


class _Table(Table):
    """A table whose cells are set in the embedded sans, never reportlab's default (unembedded) Helvetica."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), font(SANS))]))


class _RulebookCanvas(Canvas):
    """Before the file is written: the contents' page numbers (known only once every page is
    laid out) are filled in, and every destination is listed by name in /Names /Dests."""

    def __init__(self, *args, document: "_RulebookDocument", **kwargs):
        super().__init__(*args, **kwargs)
        self.document = document

    def save(self):
        self.document.fill_in_contents(self)
        names = sorted(name for name, destination in self._destinations.items()
                       if destination.page is not None and destination.fmt is not None)
        pairs: list = []
        for name in names:
            pairs.extend([pdfdoc.PDFString(name), self._destinations[name]])
        if pairs:
            tree = pdfdoc.PDFDictionary({"Names": pdfdoc.PDFArray(pairs)})
            self._doc.Catalog.Names = pdfdoc.PDFDictionary({"Dests": tree})
        super().save()


class _RulebookDocument(BaseDocTemplate):
    def __init__(self, target, book: Book, styles: _Styles, contents: list[Heading], geometry: Geometry):
        g = self.geometry = geometry
        deck = book.deck
        super().__init__(
            target, pagesize=(g.page_width, g.page_height), invariant=1, title=f"{deck.name}: rules of play",
            author=deck.designer or "", subject=f"Rulebook for {deck.name}, edition {deck.version}",
            creator="deckgen", leftMargin=g.margin, rightMargin=g.margin, topMargin=g.top, bottomMargin=g.bottom,
            lang=deck.language, initialFontName=font(SANS),  # never reportlab's unembedded Helvetica
        )
        self.book, self.styles, self.contents = book, styles, contents
        self.heading_pages: dict[str, int] = {}
        self.card_stamps = CardStamps(deck)
        self.figure_placements: dict[str, Placement] = {}
        # Running head: the chapter in force at the top of the page, or the one that opens it.
        self.chapter = ""
        self.page_chapter = ""
        self.page_has_content = False
        # A heading, the frame it was set in and the height set under it there, until that
        # reaches two lines: a heading whose text starts in another frame is stranded.
        self.open_heading: list | None = None
        self.stranded_headings: list[str] = []
        full = Frame(g.margin, g.bottom, g.text_width, g.body_height, id="full", leftPadding=0, rightPadding=0,
                     topPadding=0, bottomPadding=0)
        columns = [Frame(g.margin + index * (g.column_width + g.gutter), g.bottom, g.column_width, g.body_height,
                         id=f"column{index}", leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
                   for index in range(g.columns)]
        cover = Frame(0, 0, g.page_width, g.page_height, id="cover", leftPadding=0, rightPadding=0,
                      topPadding=0, bottomPadding=0)
        self.addPageTemplates([
            PageTemplate("cover", [cover]),
            PageTemplate("single", [full], onPageEnd=self._decorate),
            PageTemplate("columns", columns, onPageEnd=self._decorate),
        ])

    def beforeDocument(self):
        self.canv.setNamedCB("contents-entry-end", self._contents_entry_end)

    def _contents_entry_end(self, canv, kind, label):
        """After a contents entry's title: dot leaders, and a slot for its page number."""
        index = int(label)
        x, y = canv._curr_tx_info["cur_x"], canv._curr_tx_info["cur_y"]  # as reportlab's own TOC
        right = self.geometry.text_width - NUMBER_WIDTH - 4
        # Right-aligned at one pitch, so the dots of every line stand in the same columns.
        pitch = stringWidth(" .", font(SANS), DOT_SIZE)
        canv.saveState()
        canv.setFont(font(SANS), DOT_SIZE)
        canv.setFillColor(MUTED)
        canv.drawRightString(right, y, " ." * int((right - x - 3) / pitch))
        canv.translate(self.geometry.text_width - NUMBER_WIDTH, y)
        canv.doForm(f"ContentsPage{index}")
        canv.restoreState()

    def fill_in_contents(self, canv) -> None:
        """Each entry's page number, as the form its slot shows (a PDF form may be defined after use)."""
        for index, heading in enumerate(self.contents):
            style = self.styles.toc_levels[heading.level - 1]
            canv.beginForm(f"ContentsPage{index}", 0, -style.fontSize, NUMBER_WIDTH, 2 * style.fontSize)
            canv.setFont(style.fontName, style.fontSize)
            canv.setFillColor(style.textColor)
            canv.drawRightString(NUMBER_WIDTH, 0, str(self.heading_pages[heading.anchor]))
            canv.endForm()

    def handle_pageBegin(self):
        super().handle_pageBegin()
        self.page_chapter = self.chapter
        self.page_has_content = False

    def afterFlowable(self, flowable):
        heading = getattr(flowable, "heading", None)
        if heading is not None:
            key = heading.anchor
            self.heading_pages[key] = self.page
            self.canv.addOutlineEntry(heading.label, key, level=flowable.outline_level,
                                      closed=heading.level >= 1 and flowable.outline_level >= 1)
            if heading.level == 1:
                self.chapter = heading.label
                if not self.page_has_content:
                    self.page_chapter = heading.label
        # Breaks and spacers take room but show nothing; only what is drawn counts as content.
        if (not getattr(flowable, "height", 0) or self.frame is None
                or isinstance(flowable, (UseUpSpace, ActionFlowable, Spacer, CondPageBreak, _Rule))):
            return
        self.page_has_content = True
        where = (self.page, self.frame.id)
        if heading is not None:
            self.open_heading = [heading.anchor, where, 0.0]
        elif self.open_heading:
            anchor, frame, height_below = self.open_heading
            if frame != where:
                self.stranded_headings.append(anchor)
                self.open_heading = None
            elif height_below + flowable.height >= KEEP_WITH_HEADING:
                self.open_heading = None
            else:
                self.open_heading[2] = height_below + flowable.height

    def _decorate(self, canv, doc):
        """Running head (game, chapter) and folio, mirrored for facing pages."""
        g = self.geometry
        page = canv.getPageNumber()
        outer_right = page % 2 == 1
        canv.saveState()
        canv.setFont(font(SANS), 7.5)
        canv.setFillColor(MUTED)
        head_y = g.page_height - g.top + 8 * mm
        game = f"{self.book.deck.name} · {self.book.deck.phrase('Rules of play')}"
        chapter = self.page_chapter
        if outer_right:
            canv.drawString(g.margin, head_y, game)
            canv.drawRightString(g.page_width - g.margin, head_y, chapter)
        else:
            canv.drawString(g.margin, head_y, chapter)
            canv.drawRightString(g.page_width - g.margin, head_y, game)
        canv.setStrokeColor(self.styles.accent)
        canv.setLineWidth(0.6)
        canv.line(g.margin, head_y - 2.2 * mm, g.page_width - g.margin, head_y - 2.2 * mm)
        canv.setFont(font(SANS_BOLD), 8.5)
        canv.setFillColor(self.styles.theme)
        folio_y = g.bottom - 10 * mm
        if outer_right:
            canv.drawRightString(g.page_width - g.margin, folio_y, str(page))
        else:
            canv.drawString(g.margin, folio_y, str(page))
        canv.restoreState()


class _Typesetter:
    """Turns the book into Platypus flowables."""

    def __init__(self, book: Book, geometry: Geometry):
        self.book, self.geometry = book, geometry
        self.deck = book.deck
        self.styles = _Styles(book)
        self.writer = PdfWriter(book.deck, self._card_anchor, _fallback, LINK)
        self.contents_entries = [heading for heading in book.headings() if heading.level <= 2]

    def _card_anchor(self, card_id: str) -> str:
        return self.book.card_anchors[card_id]

    def story(self) -> list:
        story: list = [_Cover(self.book, self.styles, self.book.cover_cards, self.geometry),
                       NextPageTemplate("single"), PageBreak()]
        story += self.contents()
        story += [NextPageTemplate("columns"), PageBreak()]
        for chapter in self.book.chapters:
            story += self.chapter(chapter)
        for appendix in self.book.appendices:
            story += self.appendix(appendix)
        if self.book.quickref:
            story += [NextPageTemplate("single"), PageBreak()] + self.quick_reference()
        return story

    # Headings and text ---------------------------------------------------------------

    def heading(self, heading: Heading, in_contents: bool = True) -> list:
        anchor = f'<a name="{html.escape(heading.anchor)}"/>'
        if heading.level == 1:
            number = (f'<font color="{self.deck.back.accent}">{_escape(heading.number)}</font>&nbsp;&nbsp;'
                      if heading.number else "")
            text = f"{anchor}{number}{_escape(heading.title)}"
            return [CondPageBreak(60 * mm), _HeadingParagraph(text, self.styles.chapter, heading, in_contents),
                    _Rule(self.styles.accent)]
        text = f"{anchor}{_escape(heading.number)}&nbsp;&nbsp;{_escape(heading.title)}"
        if heading.rule_id:
            text += (f' <font name="{font(SANS)}" size="6.6" color="{RULE_ID.hexval()}">'
                     f'[{_escape(heading.rule_id)}]</font>')
        return [CondPageBreak(30 * mm), _HeadingParagraph(text, self.styles.rule, heading, in_contents)]

    def paragraphs(self, text: str, body=None, bullet=None, lead: str = "") -> list:
        """Markup as paragraphs and bullets; `lead` (XML) opens the first paragraph, e.g. "Decision:"."""
        body, bullet = body or self.styles.body, bullet or self.styles.bullet
        flowables: list = []
        blocks = self.writer.paragraphs(text)
        if lead and (not blocks or blocks[0][0] != "p"):
            flowables.append(Paragraph(lead, body))
        elif lead:
            blocks[0] = ("p", [f"{lead} {blocks[0][1][0]}"])
        for kind, parts in blocks:
            if kind == "p":
                flowables.append(Paragraph(parts[0], body))
            elif kind == "figure":
                flowables.append(self.figure(*parts))
            elif kind == "ol":
                flowables.extend(Paragraph(item, bullet, bulletText=f"{number}.")
                                 for number, item in enumerate(parts, start=1))
            else:
                flowables.extend(Paragraph(item, bullet, bulletText="•") for item in parts)
        return flowables

    def figure(self, figure: markup.Figure, facts: str, caption: str) -> Flowable:
        """A figure of play, what it states and its caption, kept together in one column."""
        drawing = FigureDrawing(self.deck, figure, figure_card, self.styles.theme, self.styles.accent,
                                font(SANS), font(SANS_BOLD))
        parts: list = [Spacer(1, 3), drawing]
        if facts:
            parts.append(Paragraph(facts, self.styles.figure_facts))
        if caption:
            parts.append(Paragraph(caption, self.styles.figure_caption))
        return KeepTogether(parts + [Spacer(1, 3)])

    # The deck's sections ---------------------------------------------------------------

    def chapter(self, chapter: Chapter) -> list:
        flowables = self.heading(chapter.heading)
        flowables += self.paragraphs(chapter.section.text)
        for entry in chapter.rules:
            flowables += self.heading(entry.heading)
            flowables += self.paragraphs(entry.rule.text)
            if entry.rulings:
                links = ", ".join(self.writer.link(link.anchor, _escape(link.label), "") for link in entry.rulings)
                flowables.append(Paragraph(f"<i>{_escape(self.deck.phrase('Settled by'))}</i> {links}",
                                           self.styles.meta))
        if chapter.components:
            flowables += self.components(chapter)
        if chapter.variants:
            flowables += self.variant_table(chapter.variants)
        return flowables

    def components(self, chapter: Chapter) -> list:
        styles = self.styles
        rows = [[Paragraph(_escape(self.deck.phrase("Cards")), styles.cell_head), Paragraph("", styles.cell_head),
                 Paragraph(_escape(self.deck.phrase("Copies")), styles.cell_head)]]
        for row in chapter.components:
            counts = {count for _, count in row.by_suit}
            if len(counts) == 1 and len(row.by_suit) > 1:
                suits = _escape(self.deck.phrase("{count} in each suit:", count=counts.pop())) + " " + "\xa0".join(_suit_symbol(self.deck, suit) for suit, _ in row.by_suit)
            else:
                suits = ", ".join(f"{_suit_symbol(self.deck, suit)}\xa0{count}" for suit, count in row.by_suit)
            text = [Paragraph(f"<b>{_escape(row.name)}</b>", styles.cell)]
            if suits:
                text.append(Paragraph(suits, styles.cell))
            text += self.paragraphs(row.description, styles.cell, styles.cell)
            fan = CardFan(self.deck, row.samples, 12.5 * mm, spread=8)
            count = Paragraph(f'<font name="{font(SANS_BOLD)}" size="13">{row.count}</font>', styles.cell)
            rows.append([fan, text, count])
        rows.append([Paragraph("", styles.cell), Paragraph(f"<b>{_escape(self.deck.phrase('Total'))}</b>", styles.cell),
                     Paragraph(f'<font name="{font(SANS_BOLD)}" size="13">{self.deck.total}</font>', styles.cell)])
        table = _Table(rows, colWidths=[31 * mm, self.geometry.column_width - 31 * mm - 15 * mm, 15 * mm], repeatRows=1)
        table.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, 0), styles.theme),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("ALIGN", (0, 1), (0, -1), "CENTER"),
            ("LINEBELOW", (0, 1), (-1, -2), 0.4, colors.HexColor("#d5d0c4")),
            ("LINEABOVE", (0, -1), (-1, -1), 0.8, styles.theme),
            ("TOPPADDING", (0, 1), (-1, -1), 5),
            ("BOTTOMPADDING", (0, 1), (-1, -1), 5),
            ("ROWBACKGROUNDS", (0, 1), (-1, -2), [colors.white, PAPER_TINT]),
            ("NOSPLIT", (0, -2), (-1, -1)),  # the total never stands alone
        ]))
        caption = Paragraph(f"<i>{_escape(self.deck.phrase('What is in the box: {total} cards', total=self.deck.total))}."
                            "</i>", self.styles.meta)
        return [Spacer(1, 4), table, Spacer(1, 2), caption]

    def variant_table(self, variants) -> list:
        styles = self.styles
        flowables: list = [CondPageBreak(30 * mm),
                           Paragraph(_escape(self.deck.phrase("Referee options for each variant")), self.styles.rule)]
        for entry in variants:
            options = ", ".join(f"{_escape(name)} = <b>{_escape(value)}</b>" for name, value in entry.options)
            cell = [Paragraph(f'<a name="{html.escape(entry.anchor)}"/><b>{_escape(entry.variant.name)}</b>',
                              styles.cell)]
            cell += self.paragraphs(entry.variant.text, styles.cell, styles.cell)
            if options:
                cell.append(Paragraph(f'<font name="{font(SANS)}" size="7" color="{MUTED.hexval()}">'
                                      f'{options}</font>', styles.cell))
            box = _Table([[cell]], colWidths=[self.geometry.column_width])
            box.setStyle(_box_style(PAPER_TINT, self.styles.accent))
            flowables += [box, Spacer(1, 4)]
        return flowables

    # Appendices ------------------------------------------------------------------------

    def appendix(self, appendix: Appendix) -> list:
        flowables = self.heading(appendix.heading)
        flowables += self.paragraphs(appendix.intro)
        for group in appendix.card_groups:
            flowables += self.card_group(group)
        for ruling in appendix.rulings:
            flowables += self.ruling(ruling)
        if appendix.variants:
            flowables += self.variant_table(appendix.variants)
        return flowables

    def card_group(self, group: CardGroup) -> list:
        # The heading moves on unless its intro and the first card (or row of cards) fit under it.
        flowables = [CondPageBreak(65 * mm)] + self.heading(group.heading)[1:]
        if group.intro:
            flowables += self.paragraphs(group.intro, self.styles.small, self.styles.small)
        if group.layout == "grid":
            flowables.append(self.card_grid(group.cards))
        else:
            flowables += [self.card_entry(entry) for entry in group.cards]
        return flowables

    def card_entry(self, entry: CardEntry) -> Flowable:
        card, styles = entry.card, self.styles
        picture = CardPicture(self.deck, card, 25 * mm)
        meta = [_escape(card.type_line)]
        if card.suit:
            meta.append(_suit_symbol(self.deck, card.suit) + "\xa0" + _escape(self.deck.suit(card.suit).name))
        meta.append(f"{card.count} {_escape(self.deck.phrase('copy' if card.count == 1 else 'copies'))}")
        meta.append(f"{_escape(self.deck.phrase('code'))} {_escape(card.code)}")
        text = [_OutlineMark(card.name, entry.anchor, 2),
                Paragraph(f'<a name="{html.escape(entry.anchor)}"/>{_escape(card.name)}', styles.card_name),
                Paragraph(" · ".join(meta), styles.meta)]
        text += self.paragraphs(card.text, styles.small, styles.small)
        if card.flavor:
            text.append(Paragraph(f'<font color="{MUTED.hexval()}"><i>{_escape(card.flavor)}</i></font>', styles.small))
        if entry.ruling:
            text.append(Paragraph(f"<i>{_escape(self.deck.phrase('See'))}</i> {self.writer.link(entry.ruling.anchor, _escape(entry.ruling.label), '')}",
                                  styles.meta))
        table = _Table([[picture, text]], colWidths=[28 * mm, self.geometry.column_width - 28 * mm])
        table.setStyle(TableStyle([
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (0, 0), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 7),
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.HexColor("#d5d0c4")),
        ]))
        return KeepTogether([table])

    def card_grid(self, entries: tuple[CardEntry, ...]) -> Flowable:
        columns = grid_columns(len(entries))
        cell_width = self.geometry.column_width / columns
        cells = []
        for entry in entries:
            caption = Paragraph(f'<a name="{html.escape(entry.anchor)}"/>{_escape(entry.card.name)}'
                                + (f" ×{entry.card.count}" if entry.card.count > 1 else ""), self.styles.caption)
            cells.append([_OutlineMark(entry.card.name, entry.anchor, 2),
                          CardPicture(self.deck, entry.card, cell_width - 4 * mm, shadow=True),
                          Spacer(1, 2.5), caption])
        rows = [cells[start:start + columns] for start in range(0, len(cells), columns)]
        rows[-1] += [""] * (columns - len(rows[-1]))
        table = _Table(rows, colWidths=[cell_width] * columns)
        table.setStyle(TableStyle([
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("ALIGN", (0, 0), (-1, -1), "CENTER"),
            ("LEFTPADDING", (0, 0), (-1, -1), 2),
            ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ("TOPPADDING", (0, 0), (-1, -1), 3),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
        ]))
        return table

    def ruling(self, entry: RulingEntry) -> list:
        styles, ruling = self.styles, entry.ruling
        cell = [_OutlineMark(f"{entry.number} {markup.to_plain(ruling.question, self.book.deck)}", entry.anchor, 1),
                Paragraph(f'<a name="{html.escape(entry.anchor)}"/>'
                          f'{_escape(self.deck.phrase("Ruling {number}", number=entry.number).upper())}'
                          f' <font name="{font(SANS)}" size="6.2" color="{RULE_ID.hexval()}">[{_escape(ruling.id)}]</font>',
                          styles.label),
                Paragraph(f"<b>{self.writer.inline(ruling.question)}</b>", styles.small)]
        cell += self.paragraphs(ruling.decision, styles.small, styles.small,
                                lead=f"<i>{_escape(self.deck.phrase('Decision'))}:</i>")
        cell += self.paragraphs(ruling.reason, styles.small, styles.small,
                                lead=f"<i>{_escape(self.deck.phrase('Why'))}:</i>")
        settles = [self.writer.link(rule.anchor, _escape(f"§{rule.label}"), "") for rule in entry.rules]
        settles += [self.writer.link(card.anchor, _escape(card.card.name), "") for card in entry.cards]
        if settles:
            cell.append(Paragraph(f"<i>{_escape(self.deck.phrase('Settles'))}:</i> {', '.join(settles)}", styles.meta))
        box = _Table([[cell]], colWidths=[self.geometry.column_width])
        box.setStyle(_box_style(PAPER_TINT, self.styles.accent))
        return [KeepTogether([box]), Spacer(1, 5)]

    # Front and back matter ---------------------------------------------------------------

    def contents(self) -> list:
        anchor = self.book.contents_anchor
        title = Heading(1, "", self.book.deck.phrase("Contents"), anchor)
        entries = [
            Paragraph(f'<a href="#{html.escape(heading.anchor)}">{_escape(heading.label)}</a>'
                      f'<onDraw name="contents-entry-end" label="{index}"/>',
                      self.styles.toc_levels[heading.level - 1])
            for index, heading in enumerate(self.contents_entries)
        ]
        return [_HeadingParagraph(f'<a name="{html.escape(anchor)}"/>{_escape(title.title)}', self.styles.toc_title, title,
                                  in_contents=False)] + entries

    def quick_reference(self) -> list:
        g = self.geometry
        quick = self.book.quickref
        styles = self.styles
        content: list = []
        for entry in quick.entries:
            content += self.quick_box(_escape(entry.title),
                                      self.paragraphs(entry.text, styles.quick_body, styles.quick_bullet))
        if quick.components:
            rows = []
            for row in quick.components:
                text = [Paragraph(f"<b>{_escape(row.name)}</b> ×{row.count}", styles.quick_body)]
                text += self.paragraphs(row.description, styles.quick_body, styles.quick_bullet)
                rows.append([CardFan(self.deck, row.samples[:3], 14 * mm, spread=8), text])
            table = _Table(rows, colWidths=[34 * mm, g.text_width - 20 - 34 * mm])
            table.setStyle(TableStyle([
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("ALIGN", (0, 0), (0, -1), "CENTER"),
                ("LINEBELOW", (0, 0), (-1, -2), 0.4, colors.HexColor("#d5d0c4")),
                ("TOPPADDING", (0, 0), (-1, -1), 4), ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ]))
            heading = quick.cards_heading
            content += self.quick_box(f'<a name="{html.escape(heading.anchor)}"/>{_escape(heading.title)}', [table])
        title = _HeadingParagraph(f'<a name="{html.escape(quick.heading.anchor)}"/>{_escape(quick.heading.title)}',
                                  styles.quick_title, quick.heading)
        # One page, always: a long quick reference is scaled down rather than split.
        return [title, _Rule(styles.accent), Spacer(1, 6),
                KeepInFrame(g.text_width, g.body_height - 45 * mm, content, mode="shrink")]

    def quick_box(self, title_xml: str, body: list) -> list:
        """A titled panel: a band in the deck's colour over a tinted body."""
        styles = self.styles
        head = _Table([[Paragraph(title_xml, styles.quick_head)]], colWidths=[self.geometry.text_width])
        head.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, -1), styles.theme),
                                  ("LEFTPADDING", (0, 0), (-1, -1), 10),
                                  ("TOPPADDING", (0, 0), (-1, -1), 4),
                                  ("BOTTOMPADDING", (0, 0), (-1, -1), 6)]))
        panel = _Table([[body]], colWidths=[self.geometry.text_width])
        panel.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, -1), PAPER_TINT),
                                   ("LEFTPADDING", (0, 0), (-1, -1), 10),
                                   ("RIGHTPADDING", (0, 0), (-1, -1), 10),
                                   ("TOPPADDING", (0, 0), (-1, -1), 8),
                                   ("BOTTOMPADDING", (0, 0), (-1, -1), 7)]))
        return [head, panel, Spacer(1, 10)]


class _Rule(Flowable):
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


def _box_style(background, bar) -> TableStyle:
    return TableStyle([
        ("BACKGROUND", (0, 0), (-1, -1), background),
        ("LINEBEFORE", (0, 0), (0, -1), 2.2, bar),
        ("LEFTPADDING", (0, 0), (-1, -1), 8),
        ("RIGHTPADDING", (0, 0), (-1, -1), 7),
        ("TOPPADDING", (0, 0), (-1, -1), 6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
    ])


def _suit_symbol(deck: Deck, suit_id: str) -> str:
    suit = deck.suit(suit_id)
    return f'<font name="{font(SANS)}" color="{suit.color}">{html.escape(suit.symbol, quote=False)}</font>'


def typeset(book: Book, paper: str = "a4") -> Typeset:
    """Typeset the rulebook in one pass: the contents' page numbers are filled in at the end."""
    _register_fonts()
    page = geometry(paper)
    typesetter = _Typesetter(book, page)
    buffer = io.BytesIO()
    document = _RulebookDocument(buffer, book, typesetter.styles, typesetter.contents_entries, page)
    document.build(typesetter.story(), canvasmaker=partial(_RulebookCanvas, document=document))
    missing = [card.name for card in book.deck.cards if card.id not in document.card_stamps.placements]
    if missing:
        raise DeckgenError(f"internal: the rulebook shows no picture of {', '.join(missing)}")
    return Typeset(buffer.getvalue(), document.card_stamps.placements, tuple(document.stranded_headings),
                   document.figure_placements)
