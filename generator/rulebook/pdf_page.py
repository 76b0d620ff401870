"""The printed rulebook's page furniture: the cover, headings that are bookmarks and named
destinations, the canvas and document that number pages, fill in the contents and decorate
each page."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.doctemplate import ActionFlowable
from reportlab.platypus.flowables import UseUpSpace

from ..deck.model import Card
from ..faces.fonts import font
from . import inline_icons
from .book import Book, Heading
from .paper import Geometry
from .paragraphs import Paragraph
from .pdf_cards import CardFan, CardStamps, Placement
from .pdf_styles import (
    DOT_SIZE,
    INK,
    KEEP_WITH_HEADING,
    MUTED,
    NUMBER_WIDTH,
    SANS,
    SANS_BOLD,
    italic_of,
    Rule,
    Styles,
    escape,
    fallback,
)
from .text import PdfWriter
from ..core.typography import smarten


class HeadingParagraph(Paragraph):
    """A heading that becomes a contents entry, a bookmark and a running head as it is laid out."""

    def __init__(self, text: str, style: ParagraphStyle, heading: Heading, in_contents: bool = True,
                 outline_level: int | None = None):
        super().__init__(text, style)
        self.heading = heading
        self.in_contents = in_contents
        self.outline_level = heading.level - 1 if outline_level is None else outline_level


class OutlineMark(Flowable):
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


class Cover(Flowable):
    """The whole cover page, laid out absolutely: colour band, title, fanned cards, facts, credits."""

    def __init__(self, book: Book, styles: Styles, samples: tuple[Card, ...], geometry: Geometry):
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
                               spaced(deck.phrase("Rules of play · edition {version}", version=deck.version)))
        title = ParagraphStyle("cover-title", fontName=font(SANS_BOLD), fontSize=46, leading=52,
                               alignment=TA_CENTER, textColor=colors.white)
        title_width = min(160 * mm, g.text_width)
        bottom = draw_paragraph(canv, Paragraph(escape(deck.name), title), g, g.page_height - 38 * mm, title_width)
        if deck.description:
            tagline = ParagraphStyle("cover-tagline", fontName=font(italic_of(styles.face)), fontSize=13, leading=18,
                                     alignment=TA_CENTER, textColor=colors.HexColor("#f3efe4"))
            writer = PdfWriter(deck, self.book.card_anchors.__getitem__, partial(fallback, face=styles.face),
                               "#f3efe4", ink="#f3efe4")
            draw_paragraph(canv, Paragraph(writer.inline(deck.description, tagline.fontSize), tagline), g, bottom - 6 * mm,
                            min(125 * mm, g.text_width))

        if self.samples:
            fan = CardFan(deck, self.samples, 50 * mm * g.scale, spread=12)
            fan.wrapOn(canv, g.page_width, g.page_height)
            fan.drawOn(canv, (g.page_width - fan.width) / 2, band_bottom - fan.height * 0.45)

        facts = [(deck.phrase("Players"), self.book.players), (deck.phrase("Playing time"), smarten(deck.play_time) or "—"),
                 (deck.phrase("Cards"), str(deck.total)), (deck.phrase("Edition"), deck.version)]
        column = g.text_width / len(facts)
        y = 62 * mm * g.scale
        for index, (label, value) in enumerate(facts):
            x = g.margin + column * (index + 0.5)
            canv.setFillColor(MUTED)
            canv.setFont(font(SANS_BOLD), 7.5)
            canv.drawCentredString(x, y + 9 * mm, spaced(label))
            canv.setFillColor(styles.theme)
            canv.setFont(font(SANS_BOLD), 15 if len(value) < 12 else 11)
            canv.drawCentredString(x, y, value)
        canv.setStrokeColor(styles.accent)
        canv.setLineWidth(0.8)
        canv.line(g.margin + 20 * mm, y - 8 * mm, g.page_width - g.margin - 20 * mm, y - 8 * mm)

        credits_style = ParagraphStyle("cover-credits", fontName=font(styles.face), fontSize=8.6, leading=12,
                                       alignment=TA_CENTER, textColor=INK)
        lines = []
        if deck.designer:
            lines.append(f"{escape(deck.phrase('Game design by'))} <b>{escape(deck.designer)}</b>")
        lines.extend(escape(credit) for credit in deck.credits)
        if lines:
            draw_paragraph(canv, Paragraph("<br/>".join(lines), credits_style), g, y - 14 * mm,
                            min(140 * mm, g.text_width))


def spaced(text: str) -> str:
    """Letter-spaced capitals for small labels."""
    return " ".join(text.upper())


def draw_paragraph(canv, paragraph: Paragraph, geometry: Geometry, top: float, width: float) -> float:
    """Draw a paragraph centred on the page with its top at `top`; return its bottom."""
    _, height = paragraph.wrapOn(canv, width, geometry.page_height)
    paragraph.drawOn(canv, (geometry.page_width - width) / 2, top - height)
    return top - height


class WithLastLines(Flowable):
    """A paragraph and the short line that belongs under it ("Settled by Ruling B.7"): split
    only so that at least two of the paragraph's lines go on with that line, which so never
    stands alone at the head of a column."""

    LINES = 2

    def __init__(self, paragraph, follower):
        super().__init__()
        self.paragraph, self.follower = paragraph, follower

    def _gap(self) -> float:
        return max(self.paragraph.getSpaceAfter(), self.follower.getSpaceBefore())

    def wrap(self, available_width, available_height):
        _, above = self.paragraph.wrap(available_width, available_height)
        _, below = self.follower.wrap(available_width, available_height)
        self.width, self.height, self._below = available_width, above + self._gap() + below, below
        return self.width, self.height

    def draw(self):
        self.paragraph.drawOn(self.canv, 0, self._below + self._gap())
        self.follower.drawOn(self.canv, 0, 0)

    def getSpaceBefore(self):
        return self.paragraph.getSpaceBefore()

    def getSpaceAfter(self):
        return self.follower.getSpaceAfter()

    def split(self, available_width, available_height):
        self.wrap(available_width, available_height)
        if self.height <= available_height:
            return [self]
        lines = len(self.paragraph.blPara.lines)
        leading = self.paragraph.style.leading
        head_lines = min(lines - self.LINES, int(available_height // leading))
        if head_lines < self.LINES:  # too few to leave behind: all of it moves on
            return []
        parts = self.paragraph.split(available_width, head_lines * leading + 0.5)
        if len(parts) != 2:
            return []
        return [parts[0], WithLastLines(parts[1], self.follower)]


class KeptTable(Table):
    """A table whose cells are set in the embedded sans, never reportlab's default (unembedded) Helvetica."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), font(SANS))]))


class FullWidthTable(KeptTable):
    """A table whose column widths ("100%", "*") are worked out anew for every width it is
    offered (reportlab's are fixed at the first), so one that `KeepInFrame` lays out wider and
    then scales down still spans the frame."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._width_spec = list(self._argW)
        self._offered_width = None

    def wrap(self, available_width, available_height):
        if available_width != self._offered_width:
            self._offered_width = available_width
            self._argW = self._colWidths = list(self._width_spec)
            self.__dict__.pop("_width_calculated_once", None)
        return super().wrap(available_width, available_height)


class RulebookCanvas(Canvas):
    """Before the file is written: the contents' page numbers (known only once every page is
    laid out) are filled in, and every destination is listed by name in /Names /Dests."""

    def __init__(self, *args, document: "RulebookDocument", **kwargs):
        super().__init__(*args, **kwargs)
        self.document = document

    def drawImage(self, image, x, y, width=None, height=None, *args, **kwargs):
        """A deck icon's placeholder in a paragraph is drawn as the icon (see `inline_icons`)."""
        if not inline_icons.draw_placeholder(self, self.document.book.deck, image, x, y, width, height):
            return super().drawImage(image, x, y, width, height, *args, **kwargs)
        return width, height

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


class RulebookDocument(BaseDocTemplate):
    def __init__(self, target, book: Book, styles: Styles, contents: list[Heading], geometry: Geometry,
                 contents_width: float | None = None):
        g = self.geometry = geometry
        self.contents_width = contents_width or geometry.text_width  # a contents column's width
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
        self.page_frame_id = "full"  # the page template's frame the last flowable was set in
        self.stranded_headings: list[str] = []
        self.column_fill: dict[int, float] = {}  # two-column page -> share of its columns filled
        full = Frame(g.margin, g.bottom, g.text_width, g.body_height, id="full", leftPadding=0, rightPadding=0,
                     topPadding=0, bottomPadding=0)
        columns = [Frame(g.margin + index * (g.column_width + g.gutter), g.bottom, g.column_width, g.body_height,
                         id=f"column{index}", leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
                   for index in range(g.columns)]
        cover = Frame(0, 0, g.page_width, g.page_height, id="cover", leftPadding=0, rightPadding=0,
                      topPadding=0, bottomPadding=0)
        self.frame_ids = {frame.id for frame in [full, cover, *columns]}
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
        right = self.contents_width - NUMBER_WIDTH - 4
        # Right-aligned at one pitch, so the dots of every line stand in the same columns.
        pitch = stringWidth(" .", font(SANS), DOT_SIZE)
        canv.saveState()
        canv.setFont(font(SANS), DOT_SIZE)
        canv.setFillColor(MUTED)
        canv.drawRightString(right, y, " ." * int((right - x - 3) / pitch))
        canv.translate(self.contents_width - NUMBER_WIDTH, y)
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

    def last_column_page_fill(self) -> float:
        """How full the last two-column page is: the share of its columns' height used (1 when none)."""
        if not self.column_fill:
            return 1.0
        return self.column_fill[max(self.column_fill)]

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
        drawn_height = getattr(flowable, "height", 0) or getattr(flowable, "_height", 0)  # a table's is `_height`
        if (not drawn_height or self.frame is None
                or isinstance(flowable, (UseUpSpace, ActionFlowable, Spacer, CondPageBreak, Rule))):
            return
        self.page_has_content = True
        if self.frame.id in self.frame_ids:
            self.page_frame_id = self.frame.id
        # Balanced columns (the contents) lay their flowables out in frames of their own inside
        # the page's frame: those count as the page's frame.
        frame = self.frame.id if self.frame.id in self.frame_ids else self.page_frame_id
        where = (self.page, frame)
        if heading is not None:
            self.open_heading = [heading.anchor, where, 0.0]
        elif self.open_heading:
            anchor, frame, height_below = self.open_heading
            if frame != where:
                self.stranded_headings.append(anchor)
                self.open_heading = None
            elif height_below + drawn_height >= KEEP_WITH_HEADING:
                self.open_heading = None
            else:
                self.open_heading[2] = height_below + drawn_height

    def _decorate(self, canv, doc):
        """Running head (game, chapter) and folio, mirrored for facing pages."""
        g = self.geometry
        if self.frame is not None and self.frame.id.startswith("column"):
            # The columns before the one in use are full; that one is filled down to where it got.
            used = (self.frame._y2 - self.frame._y) / self.frame._height
            self.column_fill[canv.getPageNumber()] = (int(self.frame.id[len("column"):]) + used) / g.columns
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


