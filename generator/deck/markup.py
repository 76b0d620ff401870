"""deckgen's light markup for rules and card text.

Blocks are separated by blank lines; a block whose lines start with '- ' is a
list, and one whose lines start with '1. ', '2. ' (or '1) ') a numbered list of steps.
Inline: *emphasis*, **strong**, and references {card:NAME-OR-CODE}, {suit:ID},
{rule:ID}, {icon:NAME} (a designer icon from the deck's [icons]). A card's own text may also
hold {props.NAME}, filled with that card's engine fact when the deck is read (`fill_props`). A paragraph written as
{trick: ...}, {hand: ...}, {goal: ...} or {manoeuvre: ...} is a figure of play
(`generator.deck.figures`). Every renderer (card faces, rulebook PDF/HTML/Markdown, exports) walks
the same parsed tree, so a reference means the same everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import figures
from .figures import Figure

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Callable, Iterator

    from .model import Deck

REFERENCE = re.compile(r"\{(card|suit|rule|icon):([^{}]+)\}")
_INLINE = re.compile(r"\*\*(?P<strong>.+?)\*\*|\*(?P<em>[^*]+?)\*|\{(?P<ref>card|suit|rule|icon):(?P<target>[^{}]+)\}")


@dataclass(frozen=True, slots=True)
class Text:
    """Plain words."""

    text: str


@dataclass(frozen=True, slots=True)
class Emphasis:
    """*Emphasised* (or, strong, **strong**) words."""

    text: str
    strong: bool = False


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference such as {card:JE}, shown as its target's name."""

    kind: str  # "card", "suit", "rule" or "icon"
    target: str


Inline = Text | Emphasis | Ref


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A paragraph of inline spans."""

    spans: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class BulletList:
    """A list of items: bullets, or numbered steps."""

    items: tuple[tuple[Inline, ...], ...]
    ordered: bool = False  # numbered steps (1. 2. 3.) rather than bullets


Block = Paragraph | BulletList | Figure


def references(text: str) -> Iterator[tuple[str, str]]:
    """Every (kind, target) reference in a text."""
    for match in REFERENCE.finditer(text):
        yield match.group(1), match.group(2).strip()


def parse_inline(text: str) -> tuple[Inline, ...]:
    spans: list[Inline] = []
    position = 0
    for match in _INLINE.finditer(text):
        if match.start() > position:
            spans.append(Text(text[position:match.start()]))
        if match.group("strong") is not None:
            spans.append(Emphasis(match.group("strong"), strong=True))
        elif match.group("em") is not None:
            spans.append(Emphasis(match.group("em")))
        else:
            spans.append(Ref(match.group("ref"), match.group("target").strip()))
        position = match.end()
    if position < len(text):
        spans.append(Text(text[position:]))
    return tuple(spans)


_STEP = re.compile(r"\d{1,2}[.)] ")


def parse(text: str) -> tuple[Block, ...]:
    blocks: list[Block] = []
    for chunk in re.split(r"\n\s*\n", text.strip()):
        if figures.is_figure(" ".join(chunk.split())):
            try:
                blocks.append(figures.parse(chunk))
                continue
            except figures.FigureSyntaxError:
                pass  # the loader reports it; until then the words stay as written
        paragraph: list[str] = []
        items: list[str] = []
        ordered = False
        for line in (line.strip() for line in chunk.splitlines()):
            if not line:
                continue
            step = _STEP.match(line)
            if line.startswith("- ") or (step and (not items or ordered)):
                if paragraph and not items:  # a lead-in line, then the list
                    blocks.append(Paragraph(parse_inline(" ".join(paragraph))))
                    paragraph = []
                ordered = bool(step) and not line.startswith("- ")
                items.append(line[step.end():].strip() if ordered else line[2:].strip())
            elif items:
                items[-1] += " " + line  # a list item wrapped over several lines
            else:
                paragraph.append(line)
        if paragraph:
            blocks.append(Paragraph(parse_inline(" ".join(paragraph))))
        if items:
            blocks.append(BulletList(tuple(parse_inline(item) for item in items), ordered))
    return tuple(blocks)


PROPS_HOLE = re.compile(r"\{props\.([^{}\s]+)\}")
# {icon:NAME*props.X}: a row of icons as many as a card's prop says
ICON_PROP_REPEAT = re.compile(r"\{icon:([^{}*]+)\*props\.([^{}\s]+)\}")
MAX_ICON_REPEAT = 50


def icon_repeat(target: str) -> tuple[str, int | None, str]:
    """An {icon:…} target read as (icon name, how many times, problem): `shell` is one,
    `shell*3` three (0 to MAX_ICON_REPEAT); the problem says what is wrong with the count."""
    name, star, count = target.partition("*")
    if not star:
        return name.strip(), 1, ""
    count = count.strip()
    if count.isdigit() and int(count) <= MAX_ICON_REPEAT:
        return name.strip(), int(count), ""
    if count.startswith("props."):  # filled from the card (`fill_props`), checked once filled
        return name.strip(), None, ""
    return name.strip(), None, (f"{{icon:{target}}}: the repeat {count!r} is not a whole number from 0 to "
                                f"{MAX_ICON_REPEAT} (write {{icon:NAME*3}} or {{icon:NAME*props.X}})")


def fill_props(text: str, props: dict) -> tuple[str, list[str]]:
    """A card text with each {props.NAME} replaced by the card's value, and the NAMEs it lacks
    (those stay as written; the loader reports them)."""
    missing: list[str] = []

    def value(match: re.Match) -> str:
        name = match.group(1)
        if name not in props:
            missing.append(name)
            return match.group(0)
        found = props[name]
        return ("yes" if found else "no") if isinstance(found, bool) else str(found)

    def icons(match: re.Match) -> str:
        name, prop = match.group(1), match.group(2)
        if prop not in props:
            missing.append(prop)
            return match.group(0)
        return f"{{icon:{name}*{props[prop]}}}"

    return PROPS_HOLE.sub(value, ICON_PROP_REPEAT.sub(icons, text)), missing


_OPENED_REFERENCE = re.compile(r"\{\s*([A-Za-z_]+)\s*:")
REFERENCE_KINDS = ("card", "suit", "rule", "icon")


def broken(text: str) -> list[tuple[str, str]]:
    """What in a text looks like markup but is not read as markup, so it would print as typed,
    each with its severity: a reference of an unknown kind (a typo such as {crd:…}) or without its
    closing brace is an error; an unclosed ** or * a warning (a lone star may be meant), and so is
    a figure's tag inside a paragraph (the figure's own check reports it as an error)."""
    found: list[tuple[str, str]] = []
    for block in parse(text):
        if isinstance(block, Figure):
            continue
        for spans in [block.spans] if isinstance(block, Paragraph) else block.items:
            for span in spans:
                if isinstance(span, Text):
                    found += _broken_in(span.text)
    return list(dict.fromkeys(found))


def _broken_in(words: str) -> list[tuple[str, str]]:
    found = []
    for match in _OPENED_REFERENCE.finditer(words):
        kind = match.group(1)
        if kind in REFERENCE_KINDS:
            found.append((f"{{{kind}:… has no closing brace, so it prints as typed", "error"))
        elif kind in figures.KINDS:
            # a warning: `figures.problems` already reports the misplaced or malformed figure as an error
            found.append((f"{{{kind}:…}} is a figure of play, which stands alone as a paragraph", "warning"))
        else:
            found.append((f"{{{kind}:…}} is not a reference; references are "
                          f"{', '.join('{' + name + ':…}' for name in REFERENCE_KINDS)}", "error"))
    if "**" in words:
        found.append(("a ** has no closing **, so it prints as typed", "warning"))
    elif "*" in words.replace(" * ", ""):  # a lone * between spaces is a multiplication sign
        found.append(("a * has no closing *, so it prints as typed", "warning"))
    return found


def ref_label(deck: "Deck", ref: Ref) -> str:
    """The words a reference stands for: a card's name, a suit's symbol, a rule's number and title."""
    if ref.kind == "card":
        card = deck.find_card(ref.target)
        return card.name if card else ref.target
    if ref.kind == "suit":
        return deck.suit(ref.target).symbol
    if ref.kind == "icon":
        return f"[{ref.target}]"
    rule = deck.rule(ref.target)
    return f"{rule.number} {rule.title}"


def to_plain(text: str, deck: "Deck") -> str:
    """Markup to plain text: for exports, logs and terminals."""
    out: list[str] = []
    for block in parse(text):
        if isinstance(block, Paragraph):
            out.append(_plain_spans(block.spans, deck))
        elif isinstance(block, Figure):
            out.append(figure_text(block, deck))
        else:
            out.append("\n".join("- " + _plain_spans(item, deck) for item in block.items))
    return "\n\n".join(out)


def figure_text(figure: Figure, deck: "Deck") -> str:
    """A figure as a sentence: 'Trick: 7♥, Jester, Q♠, Wizard; trump ♥; the 4th card wins.' and its caption."""
    words = figures.describe(figure, deck) + "."
    return f"{words} {_plain_spans(parse_inline(figure.caption), deck)}" if figure.caption else words


def _plain_spans(spans: tuple[Inline, ...], deck: "Deck") -> str:
    parts = []
    for span in spans:
        if isinstance(span, Ref):
            if span.kind == "suit":
                parts.append(deck.suit(span.target).name)
            elif span.kind == "icon":
                parts.append(f"[{span.target}]")
            elif span.kind == "rule":
                rule = deck.rule(span.target)
                parts.append(f"rule {rule.number} ({rule.title})")
            else:
                parts.append(ref_label(deck, span))
        else:
            parts.append(span.text)
    return "".join(parts)


def render_spans(spans: tuple[Inline, ...], text: Callable[[str], str],
                 emphasis: Callable[[str, bool], str], ref: Callable[[Ref], str]) -> str:
    """Render inline spans with one callback per span type (used by HTML, Markdown, PDF)."""
    out = []
    for span in spans:
        if isinstance(span, Text):
            out.append(text(span.text))
        elif isinstance(span, Emphasis):
            out.append(emphasis(span.text, span.strong))
        else:
            out.append(ref(span))
    return "".join(out)
