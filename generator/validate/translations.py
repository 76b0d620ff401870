"""Translations checked as the deck is: each overlay's texts fit their cards, and the figures of
play its texts hold agree with the engine (`generator.deck.translate` reads the overlays)."""

from __future__ import annotations

import dataclasses

from ..core.errors import InvalidDeck, OptionError, Problem, UnreadableInput
from ..deck import figures
from ..deck.model import Deck
from ..deck.translate import Overlay, Translation, languages, translated
from ..faces.check import text_problems
from ..games.play_figures import Placed, figure_problems


def checked(deck: Deck, lang: str) -> Translation:
    """The deck in `lang`, with every problem of its overlay: what it lacks or gets wrong, texts
    that do not fit their cards, figures of play the engine contradicts."""
    result = translated(deck, lang)
    if not result.errors:
        result.problems += [dataclasses.replace(p, file=result.path, line=None, message=f"[{lang}] {p.message}")
                            for p in text_problems(result.deck)]
        result.problems += _contradicted_figures(result.overlay, result.deck)
    return result


def add_translation_problems(report, wanted: str) -> None:
    """For `validate --lang`: each deck report gains its translations' problems (every text
    left untranslated as a warning; unknown keys and texts that do not fit as errors)."""
    for deck_report in report.decks:
        deck = deck_report.deck
        if deck is None or deck_report.errors:
            continue
        try:
            codes = [code for code in languages(deck, wanted) if code is not None]
        except OptionError as error:
            deck_report.problems.append(Problem(str(error), file=deck.source))
            continue
        for code in codes:
            try:
                deck_report.problems += checked(deck, code).problems
            except UnreadableInput as error:
                deck_report.problems.append(error.problem)
                deck_report.unreadable = True


def deck_in(deck: Deck, lang: str | None) -> tuple[Deck, list[Problem]]:
    """The deck in `lang` (None: the base deck) and its warnings; raises `InvalidDeck` for errors."""
    if lang is None:
        return deck, []
    result = checked(deck, lang)
    if result.errors:
        raise InvalidDeck(result.errors)
    return result.deck, result.warnings


_FIGURE_TABLES = {"section": ("sections", "text"), "rule": ("rules", "text"), "variant": ("variants", "text"),
                  "decision": ("rulings", "decision"), "reason": ("rulings", "reason")}


def _contradicted_figures(overlay: Overlay, deck: Deck) -> list[Problem]:
    """The referee's verdict on the figures of play the overlay's own texts hold (the base
    deck's are checked with the deck), pointed at the overlay's lines."""
    base = {(what, item_id): text for what, item_id, text in figures.rule_texts(overlay.deck)}
    places: dict[str, tuple[str, str, str]] = {}
    placed = []
    for what, item_id, text in figures.rule_texts(deck):
        if text == base.get((what, item_id)):
            continue
        table, name = _FIGURE_TABLES[what]
        field = overlay.field(table, item_id, name)
        places[field] = (table, item_id, name)
        placed += [Placed(found.figure, field, found.line) for found in figures.find(text) if found.figure]
    return figure_problems(deck, iter(placed), lambda field, offset: overlay.line(*places[field], offset),
                           file=overlay.path) if placed else []
