"""Deck markup (`generator.deck.markup`) as HTML, Markdown and reportlab paragraph XML.

Each writer escapes the deck's words for its format, so text such as
`<script>` or `*` in a card name stays literal, and turns references into
links to the rulebook's own anchors: `{card:...}` to the card reference,
`{rule:...}` to the rule, `{suit:...}` into the suit's symbol in its colour, `{icon:...}` into
the deck's icon drawn at the size of the text around it (in Markdown, a picture file beside
the rulebook). Prose gets a typesetter's quotes, dashes and minus signs (`typography`).
"""

from __future__ import annotations

import html
import re
from typing import Callable

from markupsafe import Markup

from ..deck import figures, markup
from ..deck.model import Deck, Icon
from ..faces import icons
from . import inline_icons
from ..core.typography import smarten, smarten_markup

# A figure's picture: its address (a data URL or a file path) and its size in CSS pixels.
FigureImage = Callable[[markup.Figure], tuple[str, int, int]]
# An icon's picture file, relative to the Markdown rulebook.
IconSource = Callable[[Icon], str]
# An inline icon's height in a Markdown rulebook, in CSS pixels: 0.9 em of the 16 px body text of
# GitHub and most wikis (Markdown cannot say "em"; GitHub keeps `height`, drops `style`).
MD_ICON_PX = round(inline_icons.ICON_EM * 16)

# Characters with a meaning anywhere in GitHub-flavoured Markdown inline text.
_MD_INLINE = re.compile(r"([\\`*_\[\]<>|~&])")
# What starts a block at the start of a line: heading, quote, bullet, numbered item, setext underline.
_MD_LINE_START = re.compile(r"^(\s*)(#{1,6}(?=\s|$)|>|[-+](?=\s|$)|\d{1,9}[.)](?=\s|$)|=+(?=\s*$)|-{2,}(?=\s*$))")


def md_escape(text: str) -> str:
    """Plain text made literal in Markdown: inline specials everywhere, block markers at line starts."""
    # A double quote becomes an entity: Markdown shows it as '"', and inside a raw HTML attribute
    # a template wrote around it, it cannot close the attribute.
    escaped = _MD_INLINE.sub(r"\\\1", text).replace('"', "&quot;")
    return "\n".join(_MD_LINE_START.sub(_escape_line_start, line) for line in escaped.split("\n"))


def md_attribute(text: str) -> str:
    """Text for an attribute of raw HTML in Markdown: escaped for HTML, and a `|` as an entity,
    since a table row splits its cells at every `|` before it reads any HTML."""
    return html.escape(text, quote=True).replace("|", "&#124;")


def _escape_line_start(match: re.Match) -> str:
    marker = match.group(2)
    if marker[0].isdigit():
        return f"{match.group(1)}{marker[:-1]}\\{marker[-1]}"
    return f"{match.group(1)}\\{marker}"


def rule_label(deck: Deck, rule_id: str) -> tuple[str, str]:
    """(number, title) of a referenced rule, e.g. ("5.5", "Who wins a trick")."""
    rule = deck.rule(rule_id)
    return f"§{rule.number}", rule.title


def _no_break_before_symbols(spans: tuple[markup.Inline, ...]) -> tuple[markup.Inline, ...]:
    """A suit symbol stays on the line of the word before it: the space is made non-breaking."""
    out = list(spans)
    for index in range(1, len(out)):
        before, span = out[index - 1], out[index]
        if (isinstance(span, markup.Ref) and span.kind == "suit" and isinstance(before, markup.Text)
                and before.text.endswith(" ")):
            out[index - 1] = markup.Text(before.text[:-1] + "\xa0")
    return tuple(out)


class _Writer:
    """Shared walk over parsed markup; subclasses say how each piece is written."""

    def __init__(self, deck: Deck, card_anchor: Callable[[str], str], figure_image: FigureImage | None = None):
        self.deck = deck
        self.card_anchor = card_anchor  # card reference target -> anchor
        self.figure_image = figure_image

    def parse(self, text: str) -> tuple:
        """The deck's markup, its prose set with typographer's punctuation."""
        return markup.parse(smarten_markup(text))

    def inline(self, text: str) -> str:
        """One line of markup (titles, table cells): lists and paragraphs flattened, figures in words."""
        return " ".join(self.spans(block.spans) if isinstance(block, markup.Paragraph)
                        else self.text(smarten(markup.figure_text(block, self.deck))) if isinstance(block, markup.Figure)
                        else " ".join(self.spans(item) for item in block.items)
                        for block in self.parse(text))

    def figure_words(self, figure: markup.Figure) -> tuple[str, str]:
        """(what the figure states, "Trump ♥ · the 4th card wins"; its caption), each written
        for this format ("" for none)."""
        facts = smarten(" · ".join(figures.facts(figure, self.deck, drawn=True)))
        facts = facts[:1].upper() + facts[1:]
        caption = (self.spans(_no_break_before_symbols(markup.parse_inline(smarten_markup(figure.caption))))
                   if figure.caption else "")
        return (self.text(facts) if facts else ""), caption

    def describe(self, figure: markup.Figure) -> str:
        """The figure in words (its picture's alternative text), written for this format."""
        return self.text(smarten(figures.describe(figure, self.deck)))

    def spans(self, spans: tuple[markup.Inline, ...]) -> str:
        return markup.render_spans(_no_break_before_symbols(spans), self.text, self.emphasis, self.ref)

    def ref(self, ref: markup.Ref) -> str:
        if ref.kind == "card":
            card = self.deck.card(ref.target)
            return self.link(self.card_anchor(card.id), self.text(smarten(card.name)), "card-ref")
        if ref.kind == "suit":
            suit = self.deck.suit(ref.target)
            return self.suit(suit.symbol, suit.name, suit.color)
        if ref.kind == "icon":  # {icon:NAME} or a row of them, {icon:NAME*3} (the loader filled props)
            name, count, _ = markup.icon_repeat(ref.target)
            icon = icons.find(self.deck, name)
            return self.icon(icon) * (count or 1) if icon is not None else self.text(ref.target)
        number, title = rule_label(self.deck, ref.target)
        return self.link(ref.target, f"{self.text(number)} {self.emphasis(smarten(title), False)}", "rule-ref")

    def icon(self, icon) -> str:
        """The deck's icon inline, as tall as the text around it."""
        return self.text(icon.name)

    def text(self, text: str) -> str:
        raise NotImplementedError

    def emphasis(self, text: str, strong: bool) -> str:
        raise NotImplementedError

    def link(self, anchor: str, label: str, css_class: str) -> str:
        raise NotImplementedError

    def suit(self, symbol: str, name: str, color: str) -> str:
        raise NotImplementedError


class HtmlWriter(_Writer):
    def blocks(self, text: str) -> Markup:
        out = []
        for block in self.parse(text):
            if isinstance(block, markup.Paragraph):
                out.append(f"<p>{self.spans(block.spans)}</p>")
            elif isinstance(block, markup.Figure):
                out.append(self.figure(block))
            else:
                items = "".join(f"<li>{self.spans(item)}</li>" for item in block.items)
                tag = "ol" if block.ordered else "ul"
                out.append(f"<{tag}>{items}</{tag}>")
        return Markup("\n".join(out))

    def inline(self, text: str) -> Markup:
        return Markup(super().inline(text))

    def figure(self, figure: markup.Figure) -> str:
        alt = self.describe(figure)
        if self.figure_image is None:  # no pictures to show (a writer for text alone)
            return f'<p class="play-figure">{alt}.</p>'
        src, width, height = self.figure_image(figure)
        return (f'<figure class="play-figure play-{figure.kind}"><img src="{html.escape(src, quote=True)}" '
                f'alt="{alt}" width="{width}" height="{height}">'
                f"<figcaption>{self._figure_caption(figure)}</figcaption></figure>")

    def _figure_caption(self, figure: markup.Figure) -> str:
        facts, caption = self.figure_words(figure)
        parts = [f'<span class="figure-facts">{facts}</span>' if facts else "",
                 f'<span class="figure-caption">{caption}</span>' if caption else ""]
        return " ".join(part for part in parts if part)

    def text(self, text: str) -> str:
        return html.escape(text, quote=True)

    def emphasis(self, text: str, strong: bool) -> str:
        tag = "strong" if strong else "em"
        return f"<{tag}>{self.text(text)}</{tag}>"

    def link(self, anchor: str, label: str, css_class: str) -> str:
        return f'<a class="{css_class}" href="#{html.escape(anchor, quote=True)}">{label}</a>'

    def icon(self, icon) -> str:
        return (f'<img class="icon" src="{html.escape(inline_icons.data_uri(icon), quote=True)}" '
                f'alt="{self.text(icon.name)}" title="{self.text(icon.name)}">')

    def suit(self, symbol: str, name: str, color: str) -> str:
        return (f'<span class="suit" style="color:{html.escape(color, quote=True)}" '
                f'title="{self.text(name)}" role="img" aria-label="{self.text(name)}">{self.text(symbol)}</span>')


class MarkdownWriter(_Writer):
    def __init__(self, deck: Deck, card_anchor: Callable[[str], str], figure_image: FigureImage | None = None,
                 icon_src: IconSource | None = None):
        super().__init__(deck, card_anchor, figure_image)
        self.icon_src = icon_src  # where each icon's file is; None: a writer for text alone

    def blocks(self, text: str) -> Markup:
        out = []
        for block in self.parse(text):
            if isinstance(block, markup.Paragraph):
                out.append(self.spans(block.spans))
            elif isinstance(block, markup.Figure) and self.figure_image is None:
                out.append(self.describe(block) + ".")
            elif isinstance(block, markup.Figure):
                src, _, _ = self.figure_image(block)
                out.append(f"![{self.describe(block)}]({src})")
                facts, caption = self.figure_words(block)
                out.append(" ".join(part for part in (f"*{facts}.*" if facts else "", caption) if part))
            else:
                out.append("\n".join(f"{f'{number}.' if block.ordered else '-'} {self.spans(item)}"
                                     for number, item in enumerate(block.items, start=1)))
        return Markup("\n\n".join(out))

    def inline(self, text: str) -> Markup:
        return Markup(super().inline(text))

    def spans(self, spans: tuple[markup.Inline, ...]) -> str:
        written = super().spans(spans)
        # Block markers only matter at the start of a paragraph or list item.
        return _MD_LINE_START.sub(_escape_line_start, written) if spans and isinstance(spans[0], markup.Text) else written

    def text(self, text: str) -> str:
        return _MD_INLINE.sub(r"\\\1", text)

    def emphasis(self, text: str, strong: bool) -> str:
        mark = "**" if strong else "*"
        return f"{mark}{self.text(text.strip())}{mark}"

    def link(self, anchor: str, label: str, css_class: str) -> str:
        return f"[{label}](#{anchor})"

    def suit(self, symbol: str, name: str, color: str) -> str:
        return self.text(symbol)

    def icon(self, icon) -> str:
        """The icon's file beside the rulebook as an inline picture at text height, its name as the
        text a screen reader or a plain-text reader gets (bracketed when there are no files)."""
        if self.icon_src is None:
            return self.text(f"[{icon.name}]")
        name = md_attribute(icon.name)
        return (f'<img src="{md_attribute(self.icon_src(icon))}" alt="{name}" title="{name}" '
                f'height="{MD_ICON_PX}">')


class PdfWriter(_Writer):
    """Reportlab paragraph XML. Glyphs the body font lacks are set in a font that has them."""

    def __init__(self, deck: Deck, card_anchor: Callable[[str], str], fallback: Callable[[str], str],
                 link_color: str, ink: str = "#1b1b1b"):
        super().__init__(deck, card_anchor)
        self.fallback = fallback
        self.link_color = link_color
        self.ink = ink  # the colour one-colour icons are painted in
        self.size = 9.4  # the text size icons are drawn at; `paragraphs` and `inline` take the paragraph's

    def inline(self, text: str, size: float | None = None) -> str:
        self.size = size or self.size
        return super().inline(text)

    def icon(self, icon) -> str:
        return inline_icons.pdf_img(self.deck, icon, self.size, self.ink)

    def text(self, text: str) -> str:
        return self.fallback(html.escape(text, quote=False))

    def emphasis(self, text: str, strong: bool) -> str:
        tag = "b" if strong else "i"
        return f"<{tag}>{self.text(text)}</{tag}>"

    def link(self, anchor: str, label: str, css_class: str) -> str:
        return f'<a href="#{html.escape(anchor, quote=True)}" color="{self.link_color}">{label}</a>'

    def suit(self, symbol: str, name: str, color: str) -> str:
        return f'<font color="{color}">{self.text(symbol)}</font>'

    def paragraphs(self, text: str, size: float | None = None) -> list[tuple[str, list]]:
        """Blocks as ("p", [xml]), ("ul", [item xml, ...]), ("ol", [item xml, ...]) or
        ("figure", [Figure, facts xml, caption xml]); icons drawn for text of `size` points."""
        self.size = size or self.size
        out: list[tuple[str, list]] = []
        for block in self.parse(text):
            if isinstance(block, markup.Paragraph):
                out.append(("p", [self.spans(block.spans)]))
            elif isinstance(block, markup.Figure):
                out.append(("figure", [block, *self.figure_words(block)]))
            else:
                out.append(("ol" if block.ordered else "ul", [self.spans(item) for item in block.items]))
        return out
