"""MUSHcode exports of a deck, to paste into a MUD client logged in to a MUSH.

Two styles:

* `render_dvorak`: commands for the Dvorak MUSH Engine, written the way the dvorakgame.co.uk
  wiki's "Generate MUSHcode" link writes them: ``cleardeck``, one ``loadcard Title/T/Text``
  per card, then an ``@emit`` for the room.
* `render_softcode`: builds a ``<Deck name> Deck`` object that holds every card copy in
  attributes and offers ``+shuffle``, ``+draw``, ``+hand``, ``+card``, ``+discard`` and
  ``+deckinfo``.

What card text goes through on the way in (measured on TinyMUX 2.12; tests/test_export_mush.py
replays both styles on a real server):

* ``&ATTR obj=value`` typed by a player stores the value as it is, unevaluated: no escape
  works there, so card text is never written that way.
* A typed line that is no built-in command (``loadcard ...``) is evaluated once before it is
  matched against `$`-commands, and function arguments (``think set(obj,ATTR:value)``) are
  evaluated once. `escape_mush` writes text that survives exactly one evaluation.
* Wildcards are matched after that evaluation, so no escape keeps a ``/`` in a ``loadcard``
  title from ending the title: it is replaced with `SLASH_LOOKALIKE`.
* Non-ASCII text (accents, Greek, ♠, even characters beyond the BMP) is stored intact when the
  client tells the server it sends UTF-8 (telnet CHARSET, as Mudlet and TinTin++ do). A client
  that does not is read as Latin-1 and such text arrives garbled; the export stays UTF-8.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

if TYPE_CHECKING:
    from ..model import Card, Deck

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"

# Characters the MUSH evaluator acts on: substitutions (%), function calls ([ ] and, inside
# function arguments, ( ) ,), grouping ({ }), escapes (\) and command separators (;) in
# engines that split their action lists again. A backslash before each makes it literal.
EVALUATED_CHARACTERS = frozenset("\\%[]{}(),;")

# TinyMUX 2.12 cuts input lines after 7991 bytes (measured); PennMUSH's limit is larger.
MAX_LINE_BYTES = 7991

# U+2215 DIVISION SLASH stands in for "/" where a MUSH reads "/" as a separator.
SLASH_LOOKALIKE = "\u2215"

# Text in these Unicode categories cannot be typed into a MUSH as part of one line.
_UNSENDABLE_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})  # controls, surrogates, line/paragraph separators


def _normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _first_unsendable(text: str) -> str | None:
    """The first character of `text` that no MUSH command can carry, if any (after newlines are normalised)."""
    for char in text:
        if char not in "\n\t" and unicodedata.category(char) in _UNSENDABLE_CATEGORIES:
            return char
    return None


def _describe(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'control character')}"


def escape_mush(text: str) -> str:
    """Write `text` so that one MUSH evaluation gives it back exactly.

    Works in every evaluated position: a `$`-command argument, a function argument, the
    message of ``@pemit``/``@emit``. Newlines become ``%r``, tabs ``%t``; spaces the server
    would squeeze or trim (leading, trailing, or next to another space) become ``%b``;
    ``\\ % [ ] { } ( ) , ;`` get a backslash. "\\r\\n" and "\\r" count as newlines. Raises
    ValueError for control characters and line or paragraph separators.
    """
    text = _normalise_newlines(text)
    unsendable = _first_unsendable(text)
    if unsendable is not None:
        raise ValueError(f"{_describe(unsendable)} cannot be sent to a MUSH")
    last = len(text) - 1
    pieces = []
    for index, char in enumerate(text):
        if char in EVALUATED_CHARACTERS:
            pieces.append("\\" + char)
        elif char == "\n":
            pieces.append("%r")
        elif char == "\t":
            pieces.append("%t")
        elif char == " " and (index in (0, last) or text[index - 1] == " " or text[index + 1] == " "):
            pieces.append("%b")
        else:
            pieces.append(char)
    return "".join(pieces)


def _one_line(text: str) -> str:
    """Text for an ``@@`` comment: comments are never evaluated, but must stay on one line."""
    return " ".join(text.split())


def _is_command_pattern(value: str) -> bool:
    """Whether an attribute holding `value` would be taken for a `$`-command or ^-listen pattern."""
    return value.startswith(("$", "^"))


@cache
def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["mush"] = escape_mush
    environment.filters["one_line"] = _one_line
    environment.tests["command_pattern"] = _is_command_pattern
    return environment


def _check_sendable(deck: Deck, cards: list[Card]) -> None:
    """Name the deck or card, and the field, that holds text no MUSH command can carry."""
    unsendable = _first_unsendable(_normalise_newlines(deck.name))
    if unsendable is not None:
        raise ValueError(f"deck {deck.id!r}: its name contains {_describe(unsendable)}, which cannot be sent to a MUSH")
    for card in cards:
        for field in ("name", "type_line", "text", "flavor"):
            unsendable = _first_unsendable(_normalise_newlines(getattr(card, field)))
            if unsendable is not None:
                raise ValueError(
                    f"card {card.name!r} ({card.code}): its {field} contains {_describe(unsendable)},"
                    " which cannot be sent to a MUSH"
                )


def _check_line_lengths(output: str) -> None:
    for number, line in enumerate(output.split("\n"), start=1):
        size = len(line.encode("utf-8"))
        if size > MAX_LINE_BYTES:
            raise ValueError(
                f"MUSH line {number} is {size} bytes; TinyMUX cuts input lines after {MAX_LINE_BYTES}"
                f" (shorten the card's text): {line[:60]}..."
            )


def _render(template_name: str, **context: object) -> str:
    output = _environment().get_template(template_name).render(**context)
    _check_line_lengths(output)
    return output


def _copies(cards: list[Card]) -> list[Card]:
    """One entry per physical card: a card with count 3 appears three times."""
    return [card for card in cards for _copy in range(card.count)]


@dataclass(frozen=True)
class DvorakCard:
    """The three fields of a ``loadcard Title/T/Text`` command, before escaping."""

    title: str
    type_letter: str  # "A" for Actions; the engine treats everything else as a Thing ("T")
    text: str


def dvorak_card(card: Card) -> DvorakCard:
    is_action = card.kind.lower() == "action" or card.type_line.strip().lower().startswith("action")
    # The wiki appends flavour to the rules text as ("...") (Basic Rules deck sample).
    text = f'{card.text} ("{card.flavor}")' if card.flavor else card.text
    return DvorakCard(card.name.replace("/", SLASH_LOOKALIKE), "A" if is_action else "T", text)


def render_dvorak(deck: Deck, cards: Iterable[Card]) -> str:
    """Dvorak MUSH Engine commands for `cards`: one ``loadcard`` per copy, so that a card with
    count 2 is twice in the engine's draw pile (the wiki's Lackey export likewise repeats
    rows per copy)."""
    cards = list(cards)
    _check_sendable(deck, cards)
    return _render("mush/dvorak.mush.j2", deck=deck, cards=[dvorak_card(card) for card in _copies(cards)])


def deck_object_name(deck: Deck) -> str:
    """``<Deck name> Deck``, on one line, with no "/" (read as object/attribute) and no "=".

    Raises ValueError for a "=" in the deck name: every command that names the object ends
    the name at the first "=".
    """
    name = _one_line(deck.name).replace("/", SLASH_LOOKALIKE)
    if "=" in name:
        raise ValueError(f"deck {deck.id!r}: a MUSH object name cannot contain '=' ({deck.name!r})")
    return name if name.lower().endswith(" deck") else f"{name} Deck"


@dataclass(frozen=True)
class CardCopy:
    number: int  # 1-based; the copy's attributes are CARD.<number>.*
    card: Card


def render_softcode(deck: Deck, cards: Iterable[Card]) -> str:
    """Softcode that creates a deck object with every card copy and the play commands."""
    cards = list(cards)
    _check_sendable(deck, cards)
    copies = [CardCopy(number, card) for number, card in enumerate(_copies(cards), start=1)]
    return _render("mush/softcode.mush.j2", deck=deck, object_name=deck_object_name(deck), copies=copies)
