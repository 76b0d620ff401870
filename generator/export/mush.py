"""MUSHcode exports of a deck, to paste into a MUD client logged in to a MUSH.

This module holds the escaping every MUSH export shares and the Dvorak styles:

* `render_dvorak`: commands for the Dvorak MUSH Engine, written the way the dvorakgame.co.uk
  wiki's "Generate MUSHcode" link writes them: ``cleardeck``, one ``loadcard Title/T/Text``
  per card (or the Dvorax ``loadcard colour/Title/Type line/Text``), then an ``@emit``.
* The default, self-contained softcode with a game table is `mush_table.render_softcode`.

What card text goes through on the way in (measured on TinyMUX 2.12; tests/export/test_export_mush.py
replays both styles on a real server):

* ``&ATTR obj=value`` typed by a player stores the value as it is, unevaluated: no escape
  works there, so card text is never written that way.
* A typed line that is no built-in command (``loadcard ...``) is evaluated once before it is
  matched against `$`-commands, and function arguments (``think set(obj,ATTR:value)``) are
  evaluated once. `escape_mush` writes text that survives exactly one evaluation.
* Wildcards are matched after that evaluation, so no escape keeps a ``/`` in a ``loadcard``
  title from ending the title: it is replaced with `SLASH_LOOKALIKE`.
* Non-ASCII text (accents, Greek, ♠, 😀) is stored intact when the client tells the server
  it sends UTF-8 (telnet CHARSET, as Mudlet and TinTin++ do); a client that does not is read
  as Latin-1 and such text arrives garbled. The export stays UTF-8.
* TinyMUX silently drops characters it does not know as printable: format characters (soft
  hyphen, zero-width joiner), private-use and unassigned code points, most combining marks,
  and characters newer than its Unicode tables (e.g. ₿ U+20BF, 🥺 U+1F97A). Text is put in
  NFC first, so "e" + combining acute becomes "é", which survives; any such character left
  makes the export fail with a ValueError instead of losing it.
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING

import jinja2

from ..core.resources import TEMPLATES
from .text import fit_charset

if TYPE_CHECKING:
    from ..deck.model import Card, Deck


# Characters the MUSH evaluator acts on; a backslash before each makes it literal. Measured
# on TinyMUX 2.12: \ % [ ] change text in every evaluated position (escape, substitution,
# function call); { } are stripped where they enclose an argument; ( ) , matter inside
# function arguments (an unbalanced parenthesis or a comma breaks the call); ; nowhere, but
# engines that run an argument as commands (@force, @dolist) would split there.
EVALUATED_CHARACTERS = frozenset("\\%[]{}(),;")

# TinyMUX 2.12 cuts input lines after 7991 bytes (measured); PennMUSH's limit is larger.
MAX_LINE_BYTES = 7991

# U+2215 DIVISION SLASH stands in for "/" where a MUSH reads "/" as a separator.
SLASH_LOOKALIKE = "\u2215"

# Assigned, printable characters that TinyMUX 2.12.0.10 silently drops from input: those
# Unicode added after its character tables (about Unicode 9.0 onwards). Measured by storing
# every code point with `think set()` and reading it back; tests/export/test_export_mush.py repeats
# that scan. Format, private-use, unassigned and combining characters, which it also drops,
# are refused by category instead (see `_why_unsendable`), as Python 3.11's Unicode 14
# database assigns categories: on a newer Python, characters Unicode 15 added pass both
# checks, and the scan test fails until they are added here.
_UNKNOWN_TO_TINYMUX = """
    0560 0588 05EF 061D 07FE-07FF 0860-088E 08B5-08C9 09FC-09FD 0A76 0C5D 0C77 0C80-0C84 0CDD
    0D04 0D4F-0D5E 0D76-0D78 0E86 0E89 0E8C 0E8E-0E93 0E98 0EA0 0EA8-0EA9 0EAC 170D 171F 1878
    1B4C 1B7D-1B7E 1C80-1CBF 1CFA 20BF-20C0 23FB-23FF 2B97 2BBA-2BBC 2BC9 2BD2-2BEB 2BF0-2BFF
    2C2F 2C5F 2E43-2E5D 312E-312F 31BB-31BF 32FF 4DB6-4DBF 9FD6-9FFF A7AE-A7AF A7B8-A7F6 A8FE
    AB66-AB6B FBC2 FD40-FD4F FDCF FDFE-FDFF 1018D-1018E 1019C 1032D-1032F 104B0-104FB
    10570-105BC 10780-107BA 10A34-10A35 10A48 10D00-10D39 10E80-10FF6 11071-11075 11144-11147
    11400-11461 11660-1166C 116B8-116B9 1171A 11740-1183B 11900-11ABF 11C00-11FFF 12F90-12FF2
    16A70-16AC9 16E40-16E9A 16F45-16F4A 16FE0-1AFFE 1B002-1B2FB 1CF50-1CFC3 1D1E9-1D1EA
    1D2E0-1D2F3 1D372-1D378 1DF00-1E7FE 1E900-1ED3D 1F10D-1F10F 1F12F 1F16C-1F16F 1F19B-1F1AD
    1F23B 1F260-1F265 1F57A 1F5A4 1F6D1-1F6DF 1F6F4-1F6FC 1F7D5-1F7F0 1F8B0-1F90F 1F919-1F97F
    1F985-1F9BF 1F9C1-1FBF9 2A6D7-2A6DF 2B735-2B738 2CEB0-2EBE0 30000-3134A
"""
_UNKNOWN_RANGES = sorted(
    (int(start, 16), int(end or start, 16))
    for start, _dash, end in (item.partition("-") for item in _UNKNOWN_TO_TINYMUX.split())
)
_UNKNOWN_STARTS = [start for start, _end in _UNKNOWN_RANGES]


def _unknown_to_tinymux(char: str) -> bool:
    index = bisect.bisect_right(_UNKNOWN_STARTS, ord(char)) - 1
    return index >= 0 and ord(char) <= _UNKNOWN_RANGES[index][1]


def _prepare(text: str) -> str:
    """Newlines as "\\n" only, and composed characters (NFC), as the server keeps them."""
    return unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n"))


def _why_unsendable(char: str) -> str | None:
    """Why `char` cannot reach a MUSH intact, or None if it can."""
    if char in "\n\t":
        return None
    category = unicodedata.category(char)
    if category in ("Cc", "Cs", "Zl", "Zp"):
        return "control characters, surrogates and line separators cannot be part of a MUSH command line"
    if category[0] in "CM" or _unknown_to_tinymux(char):
        return "TinyMUX 2.12 silently drops it"
    return None


def _first_unsendable(text: str) -> tuple[str, str] | None:
    """The first character of prepared `text` that cannot reach a MUSH intact, and why."""
    for char in text:
        reason = _why_unsendable(char)
        if reason is not None:
            return char, reason
    return None


def _describe(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


def escape_mush(text: str) -> str:
    """Write `text` so that one MUSH evaluation gives it back exactly.

    Works in every evaluated position: a `$`-command argument, a function argument, the
    message of ``@pemit``/``@emit``. Newlines become ``%r``, tabs ``%t``; spaces the server
    would squeeze or trim (leading, trailing, or next to another space) become ``%b``;
    ``\\ % [ ] { } ( ) , ;`` get a backslash. "\\r\\n" and "\\r" count as newlines, and the
    text is put in NFC. Raises ValueError for a character that cannot arrive intact.
    """
    text = _prepare(text)
    unsendable = _first_unsendable(text)
    if unsendable is not None:
        char, reason = unsendable
        raise ValueError(f"{_describe(char)} cannot be sent to a MUSH: {reason}")
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
        loader=jinja2.FileSystemLoader(TEMPLATES),
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
    """Name the deck or card, and the field, holding a character that cannot reach a MUSH intact."""
    fields = [(f"deck {deck.id!r}", "name", deck.name)]
    for card in cards:
        owner = f"card {card.name!r} ({card.code})"
        fields += [(owner, field, getattr(card, field)) for field in ("name", "type_line", "text", "flavor")]
    for owner, field, text in fields:
        unsendable = _first_unsendable(_prepare(text))
        if unsendable is not None:
            char, reason = unsendable
            raise ValueError(
                f"{owner}: its {field} contains {_describe(char)}, which cannot be sent to a MUSH: {reason}"
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


# Where U+2215 cannot be written (a Latin-1 export), "/" in a loadcard title becomes this.
LATIN1_SLASH = "|"
# The Dvorak wiki's Dvorax colours (ansi() codes): Things blue, Actions red, others white.
DVORAX_COLOURS = {"thing": "hb", "action": "hr"}


@dataclass(frozen=True)
class DvorakCard:
    """The fields of a ``loadcard Title/T/Text`` (or Dvorax) command, before escaping."""

    title: str
    type_letter: str  # "A" for Actions; the engine treats everything else as a Thing ("T")
    text: str  # starts with the type line when it says more than Thing or Action
    colour: str  # Dvorax: an ansi() colour code
    type_line: str  # Dvorax: the full type line
    dvorax_text: str  # Dvorax: the text without the type line, which has its own field


def dvorak_card(card: Card, slash: str = SLASH_LOOKALIKE) -> DvorakCard:
    """The wiki's fields, keeping what its three fields have no place for: the corner value goes
    in the title as the wiki's own decks write it ("Clever Riddle (3)"), and a type line that
    says more than Thing or Action starts the text."""
    is_action = card.kind.lower() == "action" or card.type_line.strip().lower().startswith("action")
    letter = "A" if is_action else "T"
    title = f"{card.name} ({card.corner})" if card.corner else card.name
    # The wiki appends flavour to the rules text as ("...") (Basic Rules deck sample).
    text = f'{card.text} ("{card.flavor}")' if card.flavor else card.text
    type_line = card.type_line.strip() or ("Action" if is_action else "Thing")
    typed_text = text if type_line in ("Thing", "Action") else f"{type_line}: {text}" if text else type_line
    return DvorakCard(title.replace("/", slash), letter, typed_text, DVORAX_COLOURS.get(card.kind.lower(), "hw"),
                      type_line.replace("/", slash), text)


def render_dvorak(deck: Deck, cards: Iterable[Card], dvorax: bool = False, charset: str = "utf-8") -> str:
    """Dvorak MUSH Engine commands for `cards`: one ``loadcard`` per copy, so that a card with
    count 2 is twice in the engine's draw pile (the wiki's Lackey export likewise repeats
    rows per copy). `dvorax` writes the wiki's Dvorax variant: colour, title, full type line.

    Each loadcard runs only where an object named "Dvorak Engine" is in the room; elsewhere
    the first line says why nothing loads, instead of a "Huh?" for every card.
    Card text that starts with "$" arrives as it is; an engine that kept it in an attribute
    of an object without NO_COMMAND would take it for a `$`-command. Nothing in a
    ``loadcard`` line can prevent that: the engine must store card data safely.
    """
    cards = list(cards)
    _check_sendable(deck, cards)
    slash = SLASH_LOOKALIKE if charset == "utf-8" else LATIN1_SLASH
    return _render("mush/dvorak.mush.j2", deck=deck, dvorax=dvorax, charset=charset,
                   cards=[dvorak_card(card, slash) for card in _copies(cards)])


def _spelled_letters(texts: Iterable[str]) -> dict[str, str]:
    """Latin spellings of letters of other alphabets by their Unicode names: Ω as "Omega"."""
    spelled = {}
    for char in set("".join(texts)):
        name = unicodedata.name(char, "")
        if char > "\u00ff" and unicodedata.category(char) in ("Lu", "Ll"):
            letter = name.rpartition(" LETTER ")[2]
            if letter and letter != name and letter.replace(" ", "").isalpha():
                spelled[char] = letter.title() if unicodedata.category(char) == "Lu" else letter.lower()
    return spelled


def in_latin1(deck: Deck, cards: list[Card]) -> tuple[Deck, list[Card]]:
    """The deck name and cards with every character outside Latin-1 spelled inside it: suit
    symbols by the suit's name, signs and accented letters as `text.fit_charset` spells them,
    letters of other alphabets by their names (PennMUSH 1.8 keeps Latin-1 only)."""

    fields = ("name", "type_line", "corner", "text", "flavor")
    spellings = {suit.symbol: suit.name for suit in deck.suits if len(suit.symbol) == 1}
    spellings.update({"\u2215": "/"})
    spellings.update(_spelled_letters([deck.name] + [getattr(card, f) for card in cards for f in fields]))

    def fit(text: str, where: str) -> str:
        return fit_charset(text, "latin-1", where, spellings)

    latin_cards = [replace(card, **{f: fit(getattr(card, f), f"card {card.name!r} ({card.code}) {f}")
                                    for f in fields}) for card in cards]
    return replace(deck, name=fit(deck.name, f"deck {deck.id!r} name")), latin_cards
