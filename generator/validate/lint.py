"""Lint: card and rule texts that are broken even though the deck file loads.

The loader already rejects what the format forbids (duplicate ids and codes,
`{card:...}` references to nothing). Lint looks for what only reading the
words reveals: two copies of one card printed with different texts, a type
line the card's own text contradicts, a plain-text mention of a card or rule
the deck does not have, art that is not there, and (from the print renderer)
text that cannot be printed.
"""

from __future__ import annotations

import difflib
import re
from typing import Iterator

from ..core.errors import Problem
from ..deck import markup
from ..deck.layouts.artfiles import unreadable
from ..deck.locate import Locator
from ..deck.model import Card, Deck
from ..export import ExportError, mush_text
from ..export.lackey import plugin_text_files
from ..faces.art import art_problems
from ..faces.check import text_problems
from ..faces.quality import contrast_problems, resolution_problems
from ..games.base import EngineUnavailable
from ..games.play_figures import check_deck
from ..printing.tokens import token_problems
from .colourvision import colour_vision_problems
from .stated import stated_number_problems


def lint(deck: Deck, printable: bool = True) -> list[Problem]:
    """Every lint finding; `printable` False (the loader found errors) leaves out the print
    checks, since the renderer needs a deck without them."""
    locate = Locator(deck)
    problems: list[Problem] = []
    problems += _differing_copies(deck, locate)
    problems += _type_line_contradictions(deck, locate)
    problems += _unknown_mentions(deck, locate)
    problems += _missing_art(deck, locate)
    problems += stated_number_problems(deck, plain)
    if printable:
        problems += _play_figures(deck)
        problems += colour_vision_problems(deck)  # reads each card's layout: needs a deck without errors
        problems += _print_problems(deck, locate)
        problems += _export_problems(deck, locate)
    return problems


def _export_problems(deck: Deck, locate: Locator) -> list[Problem]:
    """Text the build's exports (the Lackey plugin in cp1252, the MUSHcode) could not hold."""

    problems = []
    for export in (plugin_text_files, mush_text):
        try:
            export(deck)
        except ExportError as error:
            reason = str(error).removeprefix(f"{deck.source}: ")
            problems.append(locate.problem("", f"the build's exports would fail: {reason}",
                                           hint="change the text so that every export can hold it"))
        except EngineUnavailable:  # the table an export sets up is the engine's: composition names the fault
            break
    return problems


def _play_figures(deck: Deck) -> list[Problem]:
    """Figures of play the deck's engine contradicts (generator.games.play_figures)."""
    return check_deck(deck)


# -- plain text ---------------------------------------------------------------------------------

def plain(text: str, deck: Deck) -> str:
    """Markup to plain words, tolerating references the loader already reported as unknown."""
    def ref(span: markup.Ref) -> str:
        if span.kind == "card":
            card = deck.find_card(span.target)
            return card.name if card else span.target
        if span.kind == "suit":
            return next((s.name for s in deck.suits if s.id == span.target), span.target)
        return "this rule"

    paragraphs = []
    for block in markup.parse(text):
        if isinstance(block, markup.Figure):
            continue  # its cards are codes the loader checked, its claims the referee
        lines = [block.spans] if isinstance(block, markup.Paragraph) else list(block.items)
        paragraphs.extend(markup.render_spans(spans, str, lambda words, _strong: words, ref) for spans in lines)
    return "\n".join(paragraphs)


def deck_texts(deck: Deck, locate: Locator) -> Iterator[tuple[str, str]]:
    """Every rules-bearing text in the deck with its field; flavour text is left out on purpose."""
    yield "deck.description", deck.description
    seen_set_text = set()
    for card in deck.cards:
        field = locate.card_field(card, "text")
        if field.startswith("cards[") or card.text not in seen_set_text:
            seen_set_text.add(card.text)
            yield field, card.text
    for index, kind in enumerate(deck.kinds):
        yield f"kinds[{index}].description", kind.description
    for index, suit in enumerate(deck.suits):
        yield f"suits[{index}].description", suit.description
    for section in deck.sections:
        yield locate.rule_field(section.id, "text"), section.text
        for rule in section.rules:
            yield locate.rule_field(rule.id, "text"), rule.text
    for index, ruling in enumerate(deck.rulings):
        yield f"rulings[{index}].question", ruling.question
        yield f"rulings[{index}].decision", ruling.decision
        yield f"rulings[{index}].reason", ruling.reason
    for variant in deck.variants:
        yield locate.variant_field(variant.id) + ".text", variant.text
    for index, entry in enumerate(deck.quickref):
        yield f"quickref[{index}].text", entry.text


# -- copies of one card with different texts ---------------------------------------------------

def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def _first_difference(first: str, second: str, context: int = 3) -> str:
    """The first place two texts part, with a few words either side: '…dominance, and…' vs '…dominance and…'."""
    tokens_a = re.findall(r"\w+|[^\w\s]", first)
    tokens_b = re.findall(r"\w+|[^\w\s]", second)
    matcher = difflib.SequenceMatcher(a=tokens_a, b=tokens_b, autojunk=False)
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        if tag == "equal":
            continue

        def excerpt(tokens: list[str], start: int, end: int) -> str:
            words = tokens[max(0, start - context):end + context]
            text = re.sub(r"\s+([^\w\s])", r"\1", " ".join(words))
            return ("…" if start > context else "") + text + ("…" if end + context < len(tokens) else "")

        return f"{excerpt(tokens_a, a1, a2)!r} against {excerpt(tokens_b, b1, b2)!r}"
    return "only in spacing"


def _differing_copies(deck: Deck, locate: Locator) -> list[Problem]:
    by_name: dict[str, list[Card]] = {}
    for card in deck.cards:
        by_name.setdefault(card.name.casefold(), []).append(card)
    problems = []
    for entries in by_name.values():
        first = entries[0]
        for other in entries[1:]:
            if other.text == first.text and other.type_line == first.type_line:
                continue
            total = sum(card.count for card in entries)
            if other.type_line != first.type_line:
                problems.append(locate.card_problem(
                    other, f"has type line {other.type_line!r}, but another entry of the same name "
                           f"({first.code}) has {first.type_line!r}",
                    hint="give copies of one card one type line, or rename one of them", attribute="type_line"))
            if other.text == first.text:
                continue
            difference = _first_difference(first.text, other.text)
            if _words(other.text) == _words(first.text):
                problems.append(locate.card_problem(
                    other, f"its text differs from the other {first.name!r} entry ({first.code}) only in "
                           f"punctuation or case: {difference}",
                    hint=f"make the texts identical and list one entry with count = {total}",
                    severity="warning", attribute="text"))
            else:
                problems.append(locate.card_problem(
                    other, f"its text differs from the other {first.name!r} entry ({first.code}): {difference}; "
                           "players cannot tell which one the name means",
                    hint="make the texts identical, or give the variant card a name of its own",
                    attribute="text"))
    return problems


# -- type lines the text contradicts -----------------------------------------------------------

_DASH = re.compile(r"\s+[-–—]\s+")


def _type_words(type_line: str, kind_name: str) -> set[str]:
    return {word.casefold() for part in (type_line, kind_name) for word in re.findall(r"[\w'-]+", part)}


def _type_vocabulary(deck: Deck) -> dict[str, str]:
    """Single words that name a card type in this deck (kind names and every part of every type
    line), casefolded, mapped to their spelling on the cards."""
    names = [part.strip() for card in deck.cards for part in _DASH.split(card.type_line)]
    names += [kind.name for kind in deck.kinds]
    return {name.casefold(): name for name in names if name and " " not in name}


def _claimed_types(text: str, vocabulary: dict[str, str]) -> Iterator[tuple[str, str]]:
    """(type, the words that claim it) for each place a card's text says what the card is."""
    claims = [
        # "This card is a Broomstick", "It counts as an Action" at the start of a sentence.
        re.compile(r"(?:\bthis card|(?:^|[.!?]\s+)(?:it|this))\s+(?:is|counts as)\s+(?:a|an)\s+(?P<type>[\w'-]+)",
                   re.IGNORECASE),
        # "when you play another broomstick card", "when you play another broomstick, destroy
        # this one": the card is one itself.
        re.compile(r"\banother\s+(?P<type>[\w'-]+)(?:\s+card\b|\b[^.]*\bthis one\b)", re.IGNORECASE),
    ]
    for pattern in claims:
        for match in pattern.finditer(text):
            if match.group("type").casefold() in vocabulary:
                yield vocabulary[match.group("type").casefold()], match.group(0).strip(" .!?")
    # A text that opens with a short label naming the type as the cards spell it: "Fastest Broomstick."
    label = re.match(r"\s*(?:[\w'-]+\s+){0,2}(?P<type>[\w'-]+)\s*[.!]", text)
    if label and label.group("type") in vocabulary.values():
        yield label.group("type"), label.group(0).strip(" .!")


def _type_line_contradictions(deck: Deck, locate: Locator) -> list[Problem]:
    vocabulary = _type_vocabulary(deck)
    problems = []
    for card in deck.cards:
        own = _type_words(card.type_line, deck.kind(card.kind).name if card.kind in {k.id for k in deck.kinds} else "")
        reported = set()
        for claimed, words in _claimed_types(plain(card.text, deck), vocabulary):
            key = claimed.casefold()
            if key not in own and key not in reported:
                reported.add(key)
                problems.append(locate.card_problem(
                    card, f"its text says it is a {claimed} ({words!r}), but its type line "
                          f"{card.type_line!r} does not say so; cards and rules that look for a {claimed} will miss it",
                    hint=f"add it to the type line, e.g. type_line = \"{card.type_line} - {claimed}\", "
                         "or reword the text",
                    severity="warning", attribute="type_line"))
    return problems


# -- plain-text mentions of cards and rules that do not exist ----------------------------------

_DETERMINERS = ("a|an|the|any|your|their|his|her|its|each|every|no|another|this|that|these|those|"
                "one|two|three|four|five|six|seven|both|all|other|own|same|first|next|last|opponent's|player's")
_NAME_RUN = r"[A-Z][\w'’-]*(?:\s+(?:of\s+(?:the\s+)?)?[A-Z0-9][\w'’-]*)*"
_CARD_MENTION = re.compile(rf"\b(?i:{_DETERMINERS})\s+(?P<name>{_NAME_RUN})\s+(?i:cards?)\b")
_RULE_MENTION = re.compile(r"\b(?i:rule)\s+(?P<number>\d+\.\d+)\b")


def _known_names(deck: Deck) -> set[str]:
    names = {card.name for card in deck.cards} | {card.id for card in deck.cards}
    names |= {kind.name for kind in deck.kinds} | {kind.id for kind in deck.kinds}
    names |= {part.strip() for card in deck.cards for part in _DASH.split(card.type_line)}
    names |= {suit.name for suit in deck.suits} | {rank.name for rank in deck.ranks}
    names |= {f"{rank.name} of {suit.name}" for rank in deck.ranks for suit in deck.suits}
    names.add(deck.name)
    names |= _defined_terms(deck)
    return {name.casefold().removesuffix(" card") for name in names}


def _defined_terms(deck: Deck) -> set[str]:
    """Game terms the rulebook defines: **bold** words ("**Shun suit**" defines "Shun suit" and
    "Shun") and the capitalised words of rule and section titles after their first word."""
    terms: set[str] = set()
    texts = [deck.description] + [kind.description for kind in deck.kinds]
    for section in deck.sections:
        texts.append(section.text)
        texts += [rule.text for rule in section.rules]
        for title in [section.title] + [rule.title for rule in section.rules]:
            terms |= set(re.findall(r"(?<=\s)[A-Z][\w'-]*", title))
    for text in texts:
        for block in markup.parse(text):
            if isinstance(block, markup.Figure):
                continue
            lines = [block.spans] if isinstance(block, markup.Paragraph) else block.items
            for spans in lines:
                for span in spans:
                    if isinstance(span, markup.Emphasis) and span.strong:
                        term = span.text.strip(" :.")
                        terms |= {term, re.sub(r"\s+(?:suit|card|cards)$", "", term)}
    return terms


def _unknown_mentions(deck: Deck, locate: Locator) -> list[Problem]:
    known = _known_names(deck)
    numbers = {rule.number for rule in deck.rules()}
    problems = []
    for field, text in deck_texts(deck, locate):
        words = plain(text, deck)
        reported = set()
        for match in _CARD_MENTION.finditer(words):
            name = match.group("name")
            if not _is_known(name, known) and name not in reported:
                reported.add(name)
                problems.append(locate.problem(
                    field, f"the text names a {name!r} card ({match.group(0)!r}), but the deck has no card, "
                           f"kind or type called {name!r}",
                    hint="add the card, correct the name, or write {card:NAME} so the loader checks it"))
        for match in _RULE_MENTION.finditer(words):
            if match.group("number") not in numbers:
                problems.append(locate.problem(
                    field, f"the text refers to rule {match.group('number')}, which the rulebook does not have",
                    hint="rule numbers change when sections move: write {rule:ID} instead"))
    return problems


def _is_known(name: str, known: set[str]) -> bool:
    folded = re.sub(r"['’]s?$", "", name.casefold())
    candidates = {folded, folded.removesuffix("s"), folded.removesuffix("es")}
    return bool(candidates & known)


# -- art --------------------------------------------------------------------------------------

def _missing_art(deck: Deck, locate: Locator) -> list[Problem]:
    """Art the renderer could not draw: missing, not a file, too large, or not a whole image."""
    problems = []
    for card in deck.cards:
        reason = unreadable(card.art) if card.art is not None else ""
        if reason:
            problems.append(locate.card_problem(
                card, f"art file {str(card.art)!r} {reason}", attribute="art",
                hint="add a PNG or JPEG next to the deck file, or remove the art field"))
    return problems


# -- what the print renderer cannot print -------------------------------------------------------

def _print_problems(deck: Deck, locate: Locator) -> list[Problem]:
    """Overflowing text and undrawable characters, as the card renderer measures them, pointed
    at the TOML line of the card they concern."""

    looks = [] if art_problems(deck) else resolution_problems(deck) + contrast_problems(deck)
    return [locate.relocate(problem) for problem in text_problems(deck) + looks + token_problems(deck)]
