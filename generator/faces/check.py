"""What must hold before a deck is drawn: every text fits, every character has a glyph,
every art file is readable.

`text_problems` checks every face and every distinct back with the same layouts and
text fitting the drawing uses, so what the validator accepts is exactly what gets printed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import InvalidDeck, Problem
from ..deck.locate import Locator
from ..deck.sizes import pt
from .art import art_problems
from .cards import back_identity, back_text_boxes, face_text_boxes
from .quality import resolution_problems
from .raster import deck_identity
from .text import check_boxes

if TYPE_CHECKING:
    from ..deck.model import Card, Deck


def render_problems(deck: "Deck", width_mm: float, height_mm: float, allow_low_res: bool = False) -> list[Problem]:
    problems = art_problems(deck)
    if problems:
        return problems

    key = (width_mm, height_mm, allow_low_res)
    identity = deck_identity(deck)  # the deck and its art files' sizes and times
    for known, known_key, found in _resolutions:
        if known_key == key and known == identity:
            resolution = list(found)
            break
    else:
        resolution = resolution_problems(deck, width_mm, height_mm, allow_low_res)
        _resolutions.append((identity, key, tuple(resolution)))
        del _resolutions[:-CHECKS_KEPT]
    return text_problems(deck, width_mm, height_mm) + resolution


def require_printable(deck: "Deck", width_mm: float, height_mm: float, allow_low_res: bool = False) -> None:
    """Raise `InvalidDeck` listing every problem; printing never cuts text or drops art silently."""
    problems = [p for p in render_problems(deck, width_mm, height_mm, allow_low_res) if p.severity == "error"]
    if problems:
        locate = Locator(deck)
        raise InvalidDeck([locate.relocate(problem) for problem in problems])


def card_problems(deck: "Deck", card: "Card | None", width_mm: float, height_mm: float,
                  back: bool = False) -> list[Problem]:
    """Problems with one card's face (or its back; card None: the deck's default back)."""
    width, height = pt(width_mm), pt(height_mm)
    if back or card is None:
        boxes = back_text_boxes(deck, width, height, card)
        who, prefix = "the card back", "back"
    else:
        boxes = face_text_boxes(deck, card, width, height)
        who, prefix = f"card {card.name!r} ({card.code})", f"card {card.code}"
    problems = []
    for found in check_boxes(boxes):
        field_name = f"{prefix}.{found.field}"
        if found.missing:
            chars = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in found.missing)
            problems.append(Problem(
                f"{who}: {found.field} uses characters the card font cannot draw: {chars}",
                field=field_name, file=deck.source,
                hint="the DejaVu fonts in generator/fonts/ draw Latin, Greek, Cyrillic and many "
                     "symbols (♠♥♦♣☀☾❄⚗✦☘); replace the character, or use a font (deck [[fonts]]) that has it",
            ))
        if found.overflow:
            size = f"{round(found.min_size, 1):g} pt"
            if found.wide_word:
                reason = f"the word {found.wide_word!r} is wider than the box even at {size}"
                hint = "break the word with a space or a hyphen"
            else:
                reason = f"it does not fit its box even at the smallest size ({size})"
                hint = "shorten the text, or give the layout element a larger box or a smaller size"
            problems.append(Problem(
                f"{who}: {found.field} on a {width_mm:g}×{height_mm:g} mm card: {reason}",
                field=field_name, file=deck.source, hint=hint,
            ))
    return problems


def text_problems(deck: "Deck", width_mm: float | None = None,
                  height_mm: float | None = None) -> list[Problem]:
    """Every text on the deck's faces and backs that overflows its box or uses an undrawable character.

    Checked at the deck's own card size unless another trim size is given.
    """
    width_mm = deck.card_size.width_mm if width_mm is None else width_mm
    height_mm = deck.card_size.height_mm if height_mm is None else height_mm
    for known, known_width, known_height, found in _checked:
        if (known_width, known_height) == (width_mm, height_mm) and known == deck:
            return list(found)
    problems = card_problems(deck, None, width_mm, height_mm)
    backs_checked = {back_identity(deck, None, pt(width_mm), pt(height_mm))}
    for card in deck.cards:
        problems.extend(card_problems(deck, card, width_mm, height_mm))
        back = back_identity(deck, card, pt(width_mm), pt(height_mm))
        if back not in backs_checked:  # cards sharing a back share its problems: check it once
            backs_checked.add(back)
            problems.extend(card_problems(deck, card, width_mm, height_mm, back=True))
    _checked.append((deck, width_mm, height_mm, tuple(problems)))
    del _checked[:-CHECKS_KEPT]
    return problems


# A build checks each deck's texts for the validator, the print sheets, the images and the
# exports: the last few answers are kept. Texts depend on the deck's content only, so an
# equal deck, even loaded anew, gets the same answer.
CHECKS_KEPT = 4
_checked: list[tuple["Deck", float, float, tuple[Problem, ...]]] = []
_resolutions: list[tuple[tuple, tuple, tuple[Problem, ...]]] = []
