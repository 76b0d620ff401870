"""Which of the deck's fonts an SVG's text (art, icons) is drawn in.

svglib turns each `<text>` into reportlab strings and asks a font map for the font of each
`font-family` name it finds (a list is tried in order). Its own map would fall back to
Helvetica, one of PDF's fourteen fonts that are never embedded (print services and PDF/X
refuse a file holding one), or find a system font through fontconfig, so that the output
would depend on the machine. `SvgFonts` is the map deckgen gives it instead, made for a deck:

- a name the deck declares in `[[fonts]]` (case-insensitive) draws in that family, bold and
  italic kept (a style the deck gives no file for draws in its regular file, as layouts do);
- any other name draws in the deck's first declared family;
- a deck without fonts draws in deckgen's DejaVu, the generic family kept (serif names in
  DejaVu Serif, the rest in DejaVu Sans).

The map is a value (frozen, hashable): the drawing svglib makes with it is cached under it,
so two decks with different fonts never share a drawing, and the same fonts always give
the same drawing. svglib measures text with the map's fonts (a `<tspan>` is placed after
the text before it), which is why the map is given to the parse, not applied afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from . import fonts

if TYPE_CHECKING:
    from ..deck.model import Deck


@dataclass(frozen=True, slots=True)
class SvgFonts:
    """An SVG font map for svglib: `find_font(family, weight, style) -> (reportlab font, exact)`."""

    families: tuple[tuple[str, str], ...]  # (family name in lower case, face key) of the deck's fonts
    default: str  # face key for a name the deck does not declare; "" = the DejaVu family by name

    def find_font(self, font_name: str, weight: str = "normal", style: str = "normal") -> tuple[str, bool]:
        base = dict(self.families).get(_family_name(font_name))
        exact = base is not None
        if base is None:
            base = self.default or _generic_family(_family_name(font_name))
        return fonts.font(fonts.styled_face(base, _is_bold(weight), _is_italic(style))), exact

    @property
    def initial_font(self) -> str:
        """The reportlab font a drawing starts in (before any text sets its own)."""
        return fonts.font(self.default or "sans")


def for_deck(deck: "Deck") -> SvgFonts:
    """The SVG font map of a deck: its `[[fonts]]` families, the first one for unknown names."""
    declared = tuple((_family_name(family.family), fonts.family_key(deck, family.family))
                     for family in getattr(deck, "fonts", ()))
    return SvgFonts(declared, declared[0][1] if declared else "")


def undeclared(deck: "Deck", font_families: Iterable[str]) -> list[str]:
    """The `font-family` values ("Lobster, serif") that name none of the deck's `[[fonts]]`
    families, so their text is drawn in its first family; none for a deck without fonts."""
    declared = {_family_name(family.family) for family in getattr(deck, "fonts", ())}
    return [value for value in font_families
            if declared and not declared & {_family_name(name) for name in value.split(",")}]


def _family_name(name: str) -> str:
    """A family name as matched: unquoted, in lower case."""
    return name.strip().strip("'\"").strip().lower()


def _generic_family(name: str) -> str:
    """DejaVu's serif or sans for a font-family name ("Times New Roman" and "serif" -> serif)."""
    serif = ("times" in name or "serif" in name or "roman" in name) and "sans" not in name
    return "serif" if serif else "sans"


def _is_bold(weight: str) -> bool:
    """CSS `font-weight`: bold, bolder, or a number of 600 and more."""
    weight = str(weight).strip().lower()
    return weight in ("bold", "bolder") or (weight.isdigit() and int(weight) >= 600)


def _is_italic(style: str) -> bool:
    return str(style).strip().lower() in ("italic", "oblique")
