"""Paper and card sizes, and the unit conversions print code needs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import OptionError
from .model import CARD_SIZES_MM

if TYPE_CHECKING:
    from .model import Deck

POINTS_PER_MM = 72 / 25.4
PAPERS_MM: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARD_SIZE_CHOICES = ("deck",) + tuple(CARD_SIZES_MM)


def pt(mm: float) -> float:
    return mm * POINTS_PER_MM


def corner_radius_mm(card_mm: tuple[float, float]) -> float:
    """The rounded corner a corner cutter gives a card: a poker card's 3.2 mm, in proportion."""
    return 3.2 / 63 * min(card_mm)


def card_size_mm(deck: "Deck", name: str = "deck") -> tuple[float, float]:
    """Trim size in mm: the deck's own size for 'deck', else a named size."""
    if name == "deck":
        return deck.card_size.width_mm, deck.card_size.height_mm
    if name not in CARD_SIZES_MM:
        raise OptionError(f"--card-size {name!r} is not a card size; choose one of {', '.join(CARD_SIZE_CHOICES)}")
    return CARD_SIZES_MM[name]


def paper_mm(name: str) -> tuple[float, float]:
    if name not in PAPERS_MM:
        raise OptionError(f"--paper {name!r} is not a paper size; choose one of {', '.join(PAPERS_MM)}")
    return PAPERS_MM[name]


def check_length(option: str, value: float, maximum: float) -> None:
    """Bleed and gap: zero or more, and not absurd."""
    if not 0 <= value <= maximum:
        raise OptionError(f"{option} {value:g} is out of range: give millimetres from 0 to {maximum:g}")
