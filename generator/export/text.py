"""Text helpers every exporter shares: the template environment, whitespace, charsets.

Templates live in the repository's `templates/<format>/` folders. Deck text reaches a
template's output only through an escaping filter: filters return `Escaped`, and the
environment's `finalize` hook refuses any other string, so a template that forgets a
filter fails loudly instead of writing raw deck text.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

from . import ExportError

if TYPE_CHECKING:
    import jinja2

    from ..model import Card, Deck

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


class Escaped(str):
    """A string a filter has made safe for one output format."""


def _only_escaped(value: object) -> object:
    if isinstance(value, Escaped) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    import jinja2

    raise jinja2.TemplateError(
        f"{type(value).__name__} value {str(value)[:40]!r} reached a template's output "
        "without an escaping filter")


def environment(folder: str, filters: Mapping[str, Callable[..., Escaped]]) -> "jinja2.Environment":
    """A Jinja2 environment for `templates/<folder>/` with the given escaping filters."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES / folder),
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
    from ..markup import to_plain

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
    "\u2009": " ", "\u200a": " ", "\u202f": " ", "\u2007": " ",
    "\u200b": "", "\u2060": "", "\ufeff": "",
}


def fit_charset(text: str, encoding: str, where: str, extra: Mapping[str, str] | None = None,
                hint: str = "") -> str:
    """`text` with every character writable in `encoding`.

    Characters outside it are spelled another way when that loses nothing a reader
    needs (a minus sign as '-', an accented letter outside the charset without its
    accent, a deck's suit symbol as the suit's name, given in `extra`); any other
    character is refused with an error naming `where` and the character.
    """
    if encoding.lower().replace("_", "-") in ("utf-8", "utf8"):
        return text
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        pass
    out = []
    for char in text:
        out.append(char if _writable(char, encoding) else _respell(char, encoding, where, extra or {}, hint))
    return "".join(out)


def _writable(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
        return True
    except UnicodeEncodeError:
        return False


def _respell(char: str, encoding: str, where: str, extra: Mapping[str, str], hint: str) -> str:
    for spelling in (extra.get(char), _SPELLINGS.get(char), _without_accents(char)):
        if spelling is not None and _writable(spelling, encoding):
            return spelling
    name = unicodedata.name(char, "unnamed character")
    raise ExportError(f"{where}: the character {char!r} (U+{ord(char):04X} {name}) cannot be written in "
                      f"{encoding}" + (f"; {hint}" if hint else ""))


def _without_accents(char: str) -> str | None:
    """The letter without its accents (NFKD, combining marks dropped), if that leaves Latin letters."""
    decomposed = unicodedata.normalize("NFKD", char)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    if stripped and stripped != char and re.fullmatch(r"[A-Za-z0-9 ]+", stripped):
        return stripped
    return None
