"""Text on cards: markup turned into styled words, wrapped and shrunk to fit a box.

Every text box on a card is a `TextSpec` (what to write, in which faces, the
largest and smallest allowed size). `fit` wraps the words at the largest size
and steps down until they fit; if they do not fit at the smallest size the text
is reported (`text_problems`), never cut. Drawing and checking use the same
`fit`, so what the validator accepts is exactly what gets printed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable

from ..deck import markup
from . import fonts, icons, paint, svgfonts

if TYPE_CHECKING:
    from ..deck.model import Deck

LEADING = 1.2  # line height as a multiple of the font size
BLOCK_GAP = 0.45  # space between paragraphs, in ems
RULE_GAP = 1.1  # space before a block with a separator rule (flavour text), in ems
SIZE_STEP = 0.25  # points: how finely text shrinks
BULLET = "•"
DESCENT = 0.25  # room below the baseline in a line box, in ems (DejaVu descends 0.24)
ICON_EM = 0.9  # inline icons are this tall, in ems, standing on the baseline (a little below it)
ICON_DROP = 0.12  # how far an inline icon reaches below the baseline, in ems


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of text in one face; `color` overrides the box colour (suit symbols)."""

    text: str
    face: str
    color: str | None = None
    icon: Any = None  # a model.Icon drawn inline instead of text (text is then its name)
    icon_width: float = 0.0  # in ems
    svg_fonts: Any = None  # an SVG icon's text fonts (a `svgfonts.SvgFonts` of the deck)


Word = tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class Block:
    """A paragraph (or one list item) of words; `scale` sizes it relative to the box's size."""

    words: tuple[Word, ...]
    bullet: bool = False
    scale: float = 1.0
    rule_above: bool = False  # a thin separator before this block (flavour text)


@dataclass(frozen=True, slots=True)
class TextSpec:
    """One text box's content and sizing rules."""

    field: str  # which card field it shows: name, type_line, corner, text, flavor...
    blocks: tuple[Block, ...]
    max_size: float
    min_size: float
    align: str = "left"  # left | center | right
    valign: str = "top"  # top | middle | bottom
    max_lines: int | None = None
    leading: float = LEADING  # line height as a multiple of the size
    block_gap: float | None = None  # space between paragraphs in ems (None: BLOCK_GAP)

    @property
    def empty(self) -> bool:
        return not any(block.words for block in self.blocks)


@dataclass(frozen=True, slots=True)
class Line:
    words: tuple[Word, ...]
    width: float  # at the fitted size
    indent: float
    block: Block
    first_in_block: bool


@dataclass(frozen=True, slots=True)
class Fitted:
    size: float
    lines: tuple[Line, ...]
    height: float


# Building specs -------------------------------------------------------------------------

def words_of(text: str, face: str, color: str | None = None) -> list[Word]:
    """Plain text split into words of (font-checked) pieces."""
    builder = _WordBuilder()
    builder.add(text, face, color)
    return builder.done()


def plain(field_name: str, text: str, face: str, max_size: float, min_size: float, *,
          align: str = "left", valign: str = "top", max_lines: int | None = None,
          color: str | None = None) -> TextSpec:
    """A box holding plain text (titles, type lines, corner values)."""
    return TextSpec(field_name, (Block(tuple(words_of(text, face, color))),), max_size, min_size,
                    align, valign, max_lines)


def rich_blocks(deck: "Deck", text: str, family: str = "serif", *, scale: float = 1.0,
                italic: bool = False, weight_face: str | None = None) -> list[Block]:
    """deckgen markup (paragraphs, lists, emphasis, references) as blocks of styled words.

    `weight_face` is the face of unemphasised words when it is not the family's regular
    (a bold title, say)."""
    regular = weight_face or (f"{family}-italic" if italic else family)
    blocks: list[Block] = []
    for parsed in markup.parse(text):
        if isinstance(parsed, markup.Paragraph):
            blocks.append(Block(_span_words(deck, parsed.spans, regular, family), scale=scale))
        else:
            blocks.extend(Block(_span_words(deck, item, regular, family), bullet=True, scale=scale)
                          for item in parsed.items)
    return blocks


def _span_words(deck: "Deck", spans, regular: str, family: str) -> tuple[Word, ...]:
    builder = _WordBuilder()
    italic = regular.endswith("italic")
    svg_fonts = svgfonts.for_deck(deck)
    for span in spans:
        if isinstance(span, markup.Text):
            builder.add(span.text, regular)
        elif isinstance(span, markup.Emphasis):
            if span.strong:
                builder.add(span.text, f"{family}-bolditalic" if italic else f"{family}-bold")
            else:
                builder.add(span.text, family if italic else f"{family}-italic")
        elif span.kind == "suit" and any(s.id == span.target for s in deck.suits):
            suit = deck.suit(span.target)
            builder.add(suit.symbol, "sans", suit.color)
        elif span.kind == "icon":
            name, times, _ = markup.icon_repeat(span.target)
            icon = icons.find(deck, name)
            for _ in range((times or 0) if icon is not None else 0):
                builder.add_icon(icon, regular, ICON_EM * icons.aspect(deck, name), svg_fonts)
        else:
            builder.add(markup.ref_label(deck, span), f"{family}-bold")
    return tuple(builder.done())


class _WordBuilder:
    """Accumulates styled text into words; whitespace anywhere ends a word."""

    def __init__(self) -> None:
        self.words: list[list[Piece]] = []
        self.open = False

    def add(self, text: str, face: str, color: str | None = None) -> None:
        for chunk in re.split(r"(\s+)", text):
            if not chunk:
                continue
            if chunk.isspace():
                self.open = False
                continue
            if not self.open:
                self.words.append([])
                self.open = True
            for run_face, run_text in fonts.split_runs(face, chunk):
                self.words[-1].append(Piece(run_text, run_face, color))

    def add_icon(self, icon, face: str, width_em: float, svg_fonts) -> None:
        """An inline icon: part of the word it touches (no space either side), or a word of its own."""
        if not self.open:
            self.words.append([])
            self.open = True
        self.words[-1].append(Piece(icon.name, face, None, icon, width_em, svg_fonts))

    def done(self) -> list[Word]:
        return [tuple(word) for word in self.words]


_QUOTES = (
    (re.compile(r'(^|[\s(\[{—–-])"'), "\\1\u201c"),  # opening double quote
    (re.compile(r'"'), "\u201d"),
    (re.compile(r"(^|[\s(\[{—–-])'"), "\\1\u2018"),
    (re.compile(r"'"), "\u2019"),  # closing quote and apostrophe
    (re.compile(r"---"), "\u2014"),
    (re.compile(r"--"), "\u2013"),
    (re.compile(r"(?<=\S) - (?=\S)"), " \u2013 "),  # a spaced hyphen between words is a dash
    (re.compile(r"(^|(?<=[\s(/]))-(?=\d)"), "\u2212"),  # a hyphen before a number is a minus
)


def typographic(text: str) -> str:
    """Curly quotes, dashes and minus signs for straight ones typed on a keyboard.

    Markup survives: list items keep their leading '- ' and references their braces."""
    if not any(char in text for char in "\"'-"):
        return text
    lines = []
    for line in text.split("\n"):
        head = ""
        stripped = line.lstrip()
        if stripped.startswith("- "):  # a list item's marker, not a dash
            head = line[: len(line) - len(stripped) + 2]
            line = line[len(head):]
        for pattern, replacement in _QUOTES:
            line = pattern.sub(replacement, line)
        lines.append(head + line)
    return "\n".join(lines)


# Fitting ------------------------------------------------------------------------------

def _piece_width(piece: Piece, size: float) -> float:
    if piece.icon is not None:
        return piece.icon_width * size
    return fonts.width(piece.face, piece.text, size)


def _word_width(word: Word) -> float:
    """Width at 1 pt."""
    return sum(_piece_width(piece, 1.0) for piece in word)


def _space_width(word: Word) -> float:
    return fonts.width(word[-1].face, " ", 1.0)


@lru_cache(maxsize=4096)
def fit(spec: TextSpec, width: float, height: float) -> Fitted | None:
    """The largest size (a multiple of SIZE_STEP) at which the spec fits the box, or None.

    Kept per spec and box: the check before printing lays out every text, and the print
    sheets, the images and the rulebook then draw the same texts in the same boxes."""
    measured = [[(word, _word_width(word), _space_width(word)) for word in block.words]
                for block in spec.blocks]
    bullet_width = fonts.width("sans", BULLET + " ", 1.0)
    steps = int(round((spec.max_size - spec.min_size) / SIZE_STEP))
    for step in range(steps + 1):
        size = spec.max_size - step * SIZE_STEP
        fitted = _lay_out(spec, measured, bullet_width, size, width)
        if fitted is None or fitted.height > height + 1e-6:
            continue
        if spec.max_lines is not None and len(fitted.lines) > spec.max_lines:
            continue
        return fitted
    return None


def overflowing(spec: TextSpec, width: float) -> Fitted:
    """Text that does not fit, laid out at its smallest size so the overflow shows.

    Printing refuses such cards (see `text_problems`); this is for callers that draw a
    single card anyway, such as a rulebook illustrating a card being designed.
    """
    smallest = TextSpec(spec.field, spec.blocks, spec.min_size, spec.min_size, spec.align, spec.valign,
                        leading=spec.leading, block_gap=spec.block_gap)
    return fit(smallest, width, float("inf")) or fit(smallest, float("inf"), float("inf"))


def _lay_out(spec, measured, bullet_width, size, width) -> Fitted | None:
    lines: list[Line] = []
    height = 0.0
    for block, words in zip(spec.blocks, measured):
        block_size = size * block.scale
        indent = bullet_width * block_size if block.bullet else 0.0
        available = width - indent
        if not words:
            continue
        if lines:
            height += _gap_before(spec, block) * block_size
        current: list[Word] = []
        current_width = 0.0
        first = True
        for word, unit_width, unit_space in words:
            word_width = unit_width * block_size
            if word_width > available + 1e-6:
                return None
            gap = unit_space * block_size if current else 0.0
            if current and current_width + gap + word_width > available + 1e-6:
                lines.append(Line(tuple(current), current_width, indent, block, first))
                height += spec.leading * block_size
                first = False
                current, current_width, gap = [], 0.0, 0.0
            current.append(word)
            current_width += gap + word_width
        if current:
            lines.append(Line(tuple(current), current_width, indent, block, first))
            height += spec.leading * block_size
    return Fitted(size, tuple(lines), height)


# Drawing ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TextPass:
    """How one pass over the text paints it (`faces.effects` draws shadows, glows, outlines and
    gradient fills as several passes): the PDF text render mode (0 fill, 1 stroke, 7 add to the
    clip), the outline's width and colour, one colour for every letter (`solid`), and whether the
    letters and the inline icons are drawn in this pass."""

    mode: int = 0
    line_width: float = 0.0
    stroke: str | None = None
    solid: str | None = None
    glyphs: bool = True
    icons: bool = True


PLAIN = TextPass()


def draw(canvas, spec: TextSpec, fitted: Fitted, x: float, y: float, width: float, height: float,
         color: str, rule_color: str | None = None, style: TextPass = PLAIN) -> None:
    """Draw fitted text in the box whose lower-left corner is (x, y)."""
    if not style.icons:
        rule_color = None  # the rule is drawn once, by the pass that draws the icons
    cursor = y + height  # top of the next line box
    if spec.valign == "middle":
        cursor -= (height - fitted.height) / 2
    elif spec.valign == "bottom":
        cursor -= height - fitted.height
    text = canvas.beginText()
    if style.mode:
        text.setTextRenderMode(style.mode)
    if style.stroke:
        canvas.setLineWidth(style.line_width)
        canvas.setLineJoin(1)  # round: an outline without spikes at sharp corners
        paint.set_stroke(canvas, style.stroke)
    inline_icons: list = []
    for number, line in enumerate(fitted.lines):
        size = fitted.size * line.block.scale
        if line.first_in_block and number:
            gap = _gap_before(spec, line.block) * size
            cursor -= gap
            if line.block.rule_above and rule_color:
                _separator(canvas, x, width, cursor + gap * 0.55, rule_color)
        baseline = cursor - (spec.leading - DESCENT) * size
        cursor -= spec.leading * size
        if spec.align == "center":
            left = x + (width - line.width) / 2
        elif spec.align == "right":
            left = x + width - line.width
        else:
            left = x + line.indent
        if line.block.bullet and line.first_in_block:
            text.setFillColorRGB(*paint.rgb(style.solid or color))
            text.setFont(fonts.font("sans"), size)
            text.setTextOrigin(x, baseline)
            text.textOut(BULLET)
        text.setTextOrigin(left, baseline)
        # Where the pen is, tracked only on lines with inline icons (they are drawn after the text).
        cursor_x = left if any(piece.icon is not None for word in line.words for piece in word) else None
        for position, word in enumerate(line.words):
            if position:
                text.setFont(fonts.font(word[0].face), size)
                text.textOut(" ")
                if cursor_x is not None:
                    cursor_x += fonts.width(word[0].face, " ", size)
            for piece in word:
                if piece.icon is not None:
                    inline_icons.append((piece, cursor_x, baseline, size, piece.color or color))
                    cursor_x += piece.icon_width * size
                    text.setTextOrigin(cursor_x, baseline)
                    continue
                text.setFillColorRGB(*paint.rgb(style.solid or piece.color or color))
                text.setFont(fonts.font(piece.face), size)
                text.textOut(piece.text)
                if cursor_x is not None:
                    cursor_x += fonts.width(piece.face, piece.text, size)
    if style.glyphs:
        canvas.drawText(text)
    if not style.icons:
        return
    for piece, icon_x, baseline, size, ink in inline_icons:
        icons.draw_icon(canvas, piece.icon, icon_x, baseline - ICON_DROP * size, piece.icon_width * size,
                        ICON_EM * size, ink, piece.svg_fonts)


def _gap_before(spec: TextSpec, block: Block) -> float:
    if block.rule_above:
        return RULE_GAP
    return BLOCK_GAP if spec.block_gap is None else spec.block_gap


def _separator(canvas, x: float, width: float, y: float, color: str) -> None:
    canvas.saveState()
    paint.set_stroke(canvas, color)
    canvas.setLineWidth(0.4)
    canvas.line(x + width * 0.3, y, x + width * 0.7, y)
    canvas.restoreState()


# Checking -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class TextBox:
    """A spec placed in a box on a card (box in points, relative to the card's lower-left)."""

    spec: TextSpec
    x: float
    y: float
    width: float
    height: float


@dataclass
class Overflow:
    """What went wrong with one text box."""

    field: str
    missing: list[str] = field(default_factory=list)
    overflow: bool = False
    min_size: float = 0.0
    wide_word: str = ""  # a word longer than a line: the cause of the overflow, when it is one


def check_boxes(boxes: Iterable[TextBox]) -> list[Overflow]:
    found = []
    for box in boxes:
        absent: list[str] = []
        for block in box.spec.blocks:
            for word in block.words:
                for piece in word:
                    for char in ([] if piece.icon is not None else fonts.missing(piece.face, piece.text)):
                        if char not in absent:
                            absent.append(char)
        too_long = not box.spec.empty and fit(box.spec, box.width, box.height) is None
        if absent or too_long:
            found.append(Overflow(box.spec.field, absent, too_long, box.spec.min_size,
                                  _widest_word(box) if too_long else ""))
    return found


def _widest_word(box: TextBox) -> str:
    """A word too wide for its line even at the smallest size, if there is one."""
    for block in box.spec.blocks:
        limit = box.width - (fonts.width("sans", BULLET + " ", 1.0) * box.spec.min_size if block.bullet else 0)
        for word in block.words:
            if _word_width(word) * box.spec.min_size * block.scale > limit + 1e-6:
                return "".join(piece.text for piece in word)
    return ""
