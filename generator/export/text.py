"""Text helpers every exporter shares: the template environment, whitespace, charsets.

Templates live in the repository's `templates/<format>/` folders. Deck text reaches a
template's output only through an escaping filter: filters return `Escaped`, and the
environment's `finalize` hook refuses any other string, so a template that forgets a
filter fails loudly instead of writing raw deck text.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Callable, Mapping

import jinja2

from ..core.cachefile import template_code
from ..core.resources import TEMPLATES
from ..deck.markup import to_plain
from .common import ExportError

if TYPE_CHECKING:
    from ..deck.model import Card, Deck



class Escaped(str):
    """A string a filter has made safe for one output format."""


def _only_escaped(value: object) -> object:
    if isinstance(value, Escaped) or (isinstance(value, int) and not isinstance(value, bool)):
        return value

    raise jinja2.TemplateError(
        f"{type(value).__name__} value {str(value)[:40]!r} reached a template's output "
        "without an escaping filter")


def environment(folder: str, filters: Mapping[str, Callable[..., Escaped]]) -> "jinja2.Environment":
    """A Jinja2 environment for `templates/<folder>/` with the given escaping filters."""

    # Every export and every check of a deck makes an environment of its own (its filters
    # know the deck); the templates' compiled code is shared.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES / folder),
        bytecode_cache=template_code("exports"),
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # escaping is per format and explicit, through `filters`
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_only_escaped,
    )
    env.filters.update(filters)
    return env


def one_line(text: str) -> str:
    """Every run of whitespace (newlines and tabs included) as one space: for one-line fields."""
    return " ".join(text.split())


def plain(deck: "Deck", text: str) -> str:
    """A text field's markup as plain text, on one line."""
    return one_line(to_plain(text, deck))


def card_label(card: "Card") -> str:
    return f"card {card.name!r} (code {card.code})"


# Characters outside Windows-1252 with a faithful spelling inside it.
_SPELLINGS = {
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-",  # hyphens and the minus sign
    "\u2015": "\u2014",
    "\u2032": "'", "\u2033": '"',
    "\u2190": "<-", "\u2192": "->", "\u2194": "<->",
    "\u2264": "<=", "\u2265": ">=", "\u2260": "!=",
    "\u2605": "*", "\u2606": "*", "\u2726": "*", "\u2727": "*",  # stars
    "\u2009": " ", "\u200a": " ", "\u202f": " ", "\u2007": " ",
    "\u200b": "", "\u2060": "", "\ufeff": "",
}


def fit_charset(text: str, encoding: str, where: str, extra: Mapping[str, str] | None = None,
                hint: str = "") -> str:
    """`text` with every character writable in `encoding`.

    A character outside it is spelled another way: a deck's suit symbol as the suit's name
    (given in `extra`), a few signs by their usual ASCII spelling ('−' as '-', '★' as '*'),
    an accented letter without the accent, any other symbol by its Unicode name in brackets
    ('⚗' as '[alembic]'). A letter that has no such spelling (Cyrillic, Greek, CJK...) is
    refused with an error naming `where` and the character: guessing at a name is worse
    than asking for one.
    """
    if encoding.lower().replace("_", "-") in ("utf-8", "utf8"):
        return text
    if _writable(text, encoding):
        return text
    return "".join(char if _writable(char, encoding) else _respell(char, encoding, where, extra or {}, hint)
                   for char in text)


def _writable(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
        return True
    except UnicodeEncodeError:
        return False


def _respell(char: str, encoding: str, where: str, extra: Mapping[str, str], hint: str) -> str:
    name = unicodedata.name(char, "")
    symbol_name = f"[{name.lower()}]" if name and unicodedata.category(char).startswith("S") else None
    for spelling in (extra.get(char), _SPELLINGS.get(char), _without_accents(char), symbol_name):
        if spelling is not None and _writable(spelling, encoding):
            return spelling
    raise ExportError(f"{where}: the character {char!r} (U+{ord(char):04X} {name or 'unnamed character'}) "
                      f"cannot be written in {encoding}" + (f"; {hint}" if hint else ""))


def _without_accents(char: str) -> str | None:
    """The letter without its accents (NFKD, combining marks dropped), if that leaves Latin letters."""
    decomposed = unicodedata.normalize("NFKD", char)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    if stripped and stripped != char and re.fullmatch(r"[A-Za-z0-9 ]+", stripped):
        return stripped
    return None
