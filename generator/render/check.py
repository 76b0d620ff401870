"""What must hold before a deck is drawn: every text fits and every art file is readable."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import InvalidDeck, Problem
from .art import art_problems
from .text import text_problems

if TYPE_CHECKING:
    from ..model import Deck


def render_problems(deck: "Deck", width_mm: float, height_mm: float) -> list[Problem]:
    return art_problems(deck) + text_problems(deck, width_mm, height_mm)


def require_printable(deck: "Deck", width_mm: float, height_mm: float) -> None:
    """Raise `InvalidDeck` listing every problem; printing never cuts text or drops art silently."""
    problems = render_problems(deck, width_mm, height_mm)
    if problems:
        from ..validate.locate import Locator

        locate = Locator(deck)
        raise InvalidDeck([locate.relocate(problem) for problem in problems])
