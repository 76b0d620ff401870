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
from functools import partial

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    BalancedColumns,
    CondPageBreak,
    Flowable,
    KeepInFrame,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    Spacer,
    TableStyle,
)

from ..core.errors import DeckgenError
from ..deck import markup
from ..deck.model import Deck
from ..faces.fonts import font
from .book import Appendix, Book, CardEntry, CardGroup, Chapter, Heading, RulingEntry
from .figures import FigureDrawing
from .inline_icons import placeholders_readable
from .paper import Geometry, geometry
from .paragraphs import Paragraph
from .pdf_cards import CardFan, CardPicture, figure_card
from .pdf_page import (
    Cover,
    FullWidthTable,
    HeadingParagraph,
    KeptTable,
    OutlineMark,
    RulebookCanvas,
    RulebookDocument,
    Typeset,
    WithLastLines,
)
from .pdf_styles import (
    LINK,
    NUMBER_WIDTH,
    MUTED,
    PAPER_TINT,
    RULE_ID,
    SANS,
    SANS_BOLD,
    Rule,
    Styles,
    box_style,
    escape,
    fallback,
    balanced_rows,
    grid_columns,
    register_fonts,
)
from .text import PdfWriter
from ..core.typography import smarten


class _Typesetter:
    """Turns the book into Platypus flowables."""

    def __init__(self, book: Book, geometry: Geometry, tight: bool = False):
        self.book, self.geometry = book, geometry
        self.deck = book.deck
        self.styles = Styles(book, tight)
        self.writer = PdfWriter(book.deck, self._card_anchor, partial(fallback, face=self.styles.face), LINK)
        self.contents_entries = [heading for heading in book.headings() if heading.level <= 2]

    def _card_anchor(self, card_id: str) -> str:
        return self.book.card_anchors[card_id]

    def story(self) -> list:
        story: list = [Cover(self.book, self.styles, self.book.cover_cards, self.geometry),
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
            number = (f'<font color="{self.deck.back.accent}">{escape(heading.number)}</font>&nbsp;&nbsp;'
                      if heading.number else "")
            text = f"{anchor}{number}{escape(smarten(heading.title))}"
            return [CondPageBreak(60 * mm), HeadingParagraph(text, self.styles.chapter, heading, in_contents),
                    Rule(self.styles.accent)]
        text = f"{anchor}{escape(heading.number)}&nbsp;&nbsp;{escape(smarten(heading.title))}"
        if heading.rule_id:
            text += (f' <font name="{font(SANS)}" size="6.6" color="{RULE_ID.hexval()}">'
                     f'[{escape(heading.rule_id)}]</font>')
        return [CondPageBreak(30 * mm), HeadingParagraph(text, self.styles.rule, heading, in_contents)]

    def paragraphs(self, text: str, body=None, bullet=None, lead: str = "") -> list:
        """Markup as paragraphs and bullets; `lead` (XML) opens the first paragraph, e.g. "Decision:"."""
        body, bullet = body or self.styles.body, bullet or self.styles.bullet
        flowables: list = []
        blocks = self.writer.paragraphs(text, body.fontSize)
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
                links = ", ".join(self.writer.link(link.anchor, escape(link.label), "") for link in entry.rulings)
                settled = Paragraph(f"<i>{escape(self.deck.phrase('Settled by'))}</i> {links}", self.styles.meta)
                if isinstance(flowables[-1], Paragraph):
                    flowables[-1] = WithLastLines(flowables[-1], settled)
                else:
                    flowables[-1] = KeepTogether([flowables[-1], settled])
        if chapter.components:
            flowables += self.components(chapter)
        if chapter.variants:
            flowables += self.variant_table(chapter.variants)
        return flowables

    def components(self, chapter: Chapter) -> list:
        styles = self.styles
        rows = [[Paragraph(escape(self.deck.phrase("Cards")), styles.cell_head), Paragraph("", styles.cell_head),
                 Paragraph(escape(self.deck.phrase("Copies")), styles.cell_head)]]
        for row in chapter.components:
            counts = {count for _, count in row.by_suit}
            if len(counts) == 1 and len(row.by_suit) > 1:
                suits = escape(self.deck.phrase("{count} in each suit:", count=counts.pop())) + " " + "\xa0".join(_suit_symbol(self.deck, suit) for suit, _ in row.by_suit)
            else:
                suits = ", ".join(f"{_suit_symbol(self.deck, suit)}\xa0{count}" for suit, count in row.by_suit)
            text = [Paragraph(f"<b>{escape(smarten(row.name))}</b>", styles.cell)]
            if suits:
                text.append(Paragraph(suits, styles.cell))
            text += self.paragraphs(row.description, styles.cell, styles.cell)
            fan = CardFan(self.deck, row.samples, 12.5 * mm, spread=8)
            count = Paragraph(f'<font name="{font(SANS_BOLD)}" size="13">{row.count}</font>', styles.cell)
            rows.append([fan, text, count])
        rows.append([Paragraph("", styles.cell), Paragraph(f"<b>{escape(self.deck.phrase('Total'))}</b>", styles.cell),
                     Paragraph(f'<font name="{font(SANS_BOLD)}" size="13">{self.deck.total}</font>', styles.cell)])
        table = KeptTable(rows, colWidths=[31 * mm, self.geometry.column_width - 31 * mm - 15 * mm, 15 * mm], repeatRows=1)
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
        caption = Paragraph(f"<i>{escape(self.deck.phrase('What is in the box: {total} cards', total=self.deck.total))}."
                            "</i>", self.styles.meta)
        # The table is read as one: it moves to the next column whole rather than split.
        return [Spacer(1, 4), KeepTogether([table, Spacer(1, 2), caption])]

    def variant_table(self, variants) -> list:
        styles = self.styles
        flowables: list = [CondPageBreak(30 * mm),
                           Paragraph(escape(self.deck.phrase("Referee options for each variant")), self.styles.rule)]
        for entry in variants:
            options = ", ".join(f"{escape(name)} = <b>{escape(value)}</b>" for name, value in entry.options)
            cell = [Paragraph(f'<a name="{html.escape(entry.anchor)}"/><b>{escape(smarten(entry.variant.name))}</b>',
                              styles.cell)]
            cell += self.paragraphs(entry.variant.text, styles.cell, styles.cell)
            if options:
                cell.append(Paragraph(f'<font name="{font(SANS)}" size="7" color="{MUTED.hexval()}">'
                                      f'{options}</font>', styles.cell))
            box = KeptTable([[cell]], colWidths=[self.geometry.column_width])
            box.setStyle(box_style(PAPER_TINT, self.styles.accent))
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
            flowables += self.card_grid(group.cards)
        else:
            flowables += [self.card_entry(entry) for entry in group.cards]
        return flowables

    def card_entry(self, entry: CardEntry) -> Flowable:
        card, styles = entry.card, self.styles
        picture = CardPicture(self.deck, card, 25 * mm)
        meta = [escape(card.type_line)]
        if card.suit:
            meta.append(_suit_symbol(self.deck, card.suit) + "\xa0" + escape(self.deck.suit(card.suit).name))
        meta.append(f"{card.count} {escape(self.deck.phrase('copy' if card.count == 1 else 'copies'))}")
        meta.append(f"{escape(self.deck.phrase('code'))} {escape(card.code)}")
        text = [OutlineMark(smarten(card.name), entry.anchor, 2),
                Paragraph(f'<a name="{html.escape(entry.anchor)}"/>{escape(smarten(card.name))}', styles.card_name),
                Paragraph(" · ".join(meta), styles.meta)]
        text += self.paragraphs(card.text, styles.small, styles.small)
        if card.flavor:
            text.append(Paragraph(f'<font color="{MUTED.hexval()}"><i>{escape(smarten(card.flavor))}</i></font>', styles.small))
        if entry.ruling:
            text.append(Paragraph(f"<i>{escape(self.deck.phrase('See'))}</i> {self.writer.link(entry.ruling.anchor, escape(entry.ruling.label), '')}",
                                  styles.meta))
        table = KeptTable([[picture, text]], colWidths=[28 * mm, self.geometry.column_width - 28 * mm])
        table.setStyle(TableStyle([
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (0, 0), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 7),
            ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.HexColor("#d5d0c4")),
        ]))
        return KeepTogether([table])

    def card_grid(self, entries: tuple[CardEntry, ...]) -> list:
        """A gallery whose rows differ by at most one card (13 as 5 + 4 + 4), shorter rows centred."""
        columns = grid_columns(len(entries))
        cell_width = self.geometry.column_width / columns
        cells = []
        for entry in entries:
            caption = Paragraph(f'<a name="{html.escape(entry.anchor)}"/>{escape(smarten(entry.card.name))}'
                                + (f" ×{entry.card.count}" if entry.card.count > 1 else ""), self.styles.caption)
            cells.append([OutlineMark(smarten(entry.card.name), entry.anchor, 2),
                          CardPicture(self.deck, entry.card, cell_width - 4 * mm, shadow=True),
                          Spacer(1, 2.5), caption])
        rows = []
        for size in balanced_rows(len(cells), columns):
            row = KeptTable([cells[:size]], colWidths=[cell_width] * size, hAlign="CENTER")
            row.setStyle(TableStyle([
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
                ("RIGHTPADDING", (0, 0), (-1, -1), 2),
                ("TOPPADDING", (0, 0), (-1, -1), 1 if self.styles.tight else 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3 if self.styles.tight else 6),
            ]))
            rows.append(row)
            cells = cells[size:]
        return rows

    def ruling(self, entry: RulingEntry) -> list:
        styles, ruling = self.styles, entry.ruling
        cell = [OutlineMark(f"{entry.number} {markup.to_plain(ruling.question, self.book.deck)}", entry.anchor, 1),
                Paragraph(f'<a name="{html.escape(entry.anchor)}"/>'
                          f'{escape(self.deck.phrase("Ruling {number}", number=entry.number).upper())}'
                          f' <font name="{font(SANS)}" size="6.2" color="{RULE_ID.hexval()}">[{escape(ruling.id)}]</font>',
                          styles.label),
                Paragraph(f"<b>{self.writer.inline(ruling.question, styles.small.fontSize)}</b>", styles.small)]
        cell += self.paragraphs(ruling.decision, styles.small, styles.small,
                                lead=f"<i>{escape(self.deck.phrase('Decision'))}:</i>")
        cell += self.paragraphs(ruling.reason, styles.small, styles.small,
                                lead=f"<i>{escape(self.deck.phrase('Why'))}:</i>")
        settles = [self.writer.link(rule.anchor, escape(smarten(f"§{rule.label}")), "") for rule in entry.rules]
        settles += [self.writer.link(card.anchor, escape(smarten(card.card.name)), "") for card in entry.cards]
        if settles:
            cell.append(Paragraph(f"<i>{escape(self.deck.phrase('Settles'))}:</i> {', '.join(settles)}", styles.meta))
        box = KeptTable([[cell]], colWidths=[self.geometry.column_width])
        box.setStyle(box_style(PAPER_TINT, self.styles.accent))
        return [KeepTogether([box]), Spacer(1, self.styles.box_gap)]

    # Front and back matter ---------------------------------------------------------------

    def contents(self) -> list:
        """The contents on one page: in two balanced columns when one column would spill a few
        lines onto a page of their own."""
        anchor = self.book.contents_anchor
        title = Heading(1, "", self.book.deck.phrase("Contents"), anchor)
        # A title too long for its line wraps before the page numbers' column, never into it.
        styles = [ParagraphStyle(f"{style.name}-kept", parent=style, keepWithNext=int(level == 0),
                                 rightIndent=NUMBER_WIDTH + 12)
                  for level, style in enumerate(self.styles.toc_levels)]
        entries = [
            Paragraph(f'<a href="#{html.escape(heading.anchor)}">{escape(smarten(heading.label))}</a>'
                      f'<onDraw name="contents-entry-end" label="{index}"/>',
                      styles[heading.level - 1])
            for index, heading in enumerate(self.contents_entries)
        ]
        heading = HeadingParagraph(f'<a name="{html.escape(anchor)}"/>{escape(title.title)}', self.styles.toc_title,
                                   title, in_contents=False)
        g = self.geometry
        _, title_height = heading.wrap(g.text_width, g.body_height)
        room = g.body_height - title_height - self.styles.toc_title.spaceAfter
        one_column = sum(entry.wrap(g.text_width, g.body_height)[1] + entry.style.spaceBefore for entry in entries)
        if one_column <= room or g.columns == 1:
            self.contents_width = g.text_width
            return [heading] + entries
        self.contents_width = g.column_width
        return [heading, BalancedColumns(entries, nCols=2, innerPadding=g.gutter, leftPadding=0, rightPadding=0,
                                         topPadding=0, bottomPadding=0)]

    def quick_reference(self) -> list:
        g = self.geometry
        quick = self.book.quickref
        styles = self.styles
        content: list = []
        for entry in quick.entries:
            content += self.quick_box(escape(smarten(entry.title)),
                                      self.paragraphs(entry.text, styles.quick_body, styles.quick_bullet))
        if quick.components:
            rows = []
            for row in quick.components:
                text = [Paragraph(f"<b>{escape(smarten(row.name))}</b> ×{row.count}", styles.quick_body)]
                text += self.paragraphs(row.description, styles.quick_body, styles.quick_bullet)
                rows.append([CardFan(self.deck, row.samples[:3], 14 * mm, spread=8), text])
            table = FullWidthTable(rows, colWidths=[34 * mm, "*"])
            table.setStyle(TableStyle([
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("ALIGN", (0, 0), (0, -1), "CENTER"),
                ("LINEBELOW", (0, 0), (-1, -2), 0.4, colors.HexColor("#d5d0c4")),
                ("TOPPADDING", (0, 0), (-1, -1), 4), ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ]))
            heading = quick.cards_heading
            content += self.quick_box(f'<a name="{html.escape(heading.anchor)}"/>{escape(smarten(heading.title))}', [table])
        title = HeadingParagraph(f'<a name="{html.escape(quick.heading.anchor)}"/>{escape(smarten(quick.heading.title))}',
                                  styles.quick_title, quick.heading)
        # One page, always: a long quick reference is scaled down rather than split.
        return [title, Rule(styles.accent), Spacer(1, 6),
                KeepInFrame(g.text_width, g.body_height - 45 * mm, content, mode="shrink")]

    def quick_box(self, title_xml: str, body: list) -> list:
        """A titled panel: a band in the deck's colour over a tinted body."""
        styles = self.styles
        # "100%": KeepInFrame shrinks a long quick reference by laying it out wider and scaling
        # it, so a panel of the frame's width comes out at the text width.
        head = FullWidthTable([[Paragraph(title_xml, styles.quick_head)]], colWidths=["100%"])
        head.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, -1), styles.theme),
                                  ("LEFTPADDING", (0, 0), (-1, -1), 10),
                                  ("TOPPADDING", (0, 0), (-1, -1), 4),
                                  ("BOTTOMPADDING", (0, 0), (-1, -1), 6)]))
        panel = FullWidthTable([[body]], colWidths=["100%"])
        panel.setStyle(TableStyle([("BACKGROUND", (0, 0), (-1, -1), PAPER_TINT),
                                   ("LEFTPADDING", (0, 0), (-1, -1), 10),
                                   ("RIGHTPADDING", (0, 0), (-1, -1), 10),
                                   ("TOPPADDING", (0, 0), (-1, -1), 8),
                                   ("BOTTOMPADDING", (0, 0), (-1, -1), 7)]))
        return [head, panel, Spacer(1, 10)]




def _suit_symbol(deck: Deck, suit_id: str) -> str:
    suit = deck.suit(suit_id)
    return f'<font name="{font(SANS)}" color="{suit.color}">{html.escape(suit.symbol, quote=False)}</font>'


# The last page of the two-column part counts as nearly empty below this share of its columns.
NEARLY_EMPTY = 0.3


def typeset(book: Book, paper: str = "a4") -> Typeset:
    """Typeset the rulebook in one pass: the contents' page numbers are filled in at the end.
    A nearly empty last page before the quick reference is pulled up by setting the small text
    and the boxes closer, when that saves the page."""
    register_fonts(book.deck)
    result, document = _typeset(book, paper, tight=False)
    if document.last_column_page_fill() < NEARLY_EMPTY:
        tight, tight_document = _typeset(book, paper, tight=True)
        if tight_document.page < document.page:
            result = tight
    return result


def _typeset(book: Book, paper: str, tight: bool) -> tuple[Typeset, RulebookDocument]:
    page = geometry(paper)
    typesetter = _Typesetter(book, page, tight)
    buffer = io.BytesIO()
    with placeholders_readable():  # the story's paragraphs read their icons' placeholders when made
        story = typesetter.story()
        document = RulebookDocument(buffer, book, typesetter.styles, typesetter.contents_entries, page,
                                    typesetter.contents_width)
        document.build(story, canvasmaker=partial(RulebookCanvas, document=document))
    missing = [card.name for card in book.deck.cards if card.id not in document.card_stamps.placements]
    if missing:
        raise DeckgenError(f"internal: the rulebook shows no picture of {', '.join(missing)}")
    return Typeset(buffer.getvalue(), document.card_stamps.placements, tuple(document.stranded_headings),
                   document.figure_placements), document
