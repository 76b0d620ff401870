"""`--lang` for the commands that write or cite a deck's texts: which decks to work on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..console import echo

if TYPE_CHECKING:
    from ...deck.model import Deck


def in_languages(deck: Deck, lang: str | None) -> Iterator[Deck]:
    """The deck in each language `--lang` names, printing a warning per text a translation
    lacks (the base text stands in for it); a translation with errors stops the command."""
    from ...deck.translate import languages
    from ...validate.translations import deck_in

    for code in languages(deck, lang):
        translated, warnings = deck_in(deck, code)
        for warning in warnings:
            echo(str(warning), err=True)
        if warnings:
            echo(f"{deck.id} [{code}]: {len(warnings)} text(s) not translated; the base texts are used", err=True)
        yield translated
