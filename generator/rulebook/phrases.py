"""The rulebook's own words: headings, labels and notes that are not the deck's texts.

Each is written in English here and looked up with `Deck.phrase`, so a translation overlay
can give them in its language (its `[phrases]` table, keyed by the English wording; the
`{names}` in braces are filled in). Every key an overlay gives must be one of these.
"""

from __future__ import annotations

PHRASES: tuple[str, ...] = (
    "Rules of play",
    "Rules of play · edition {version}",
    "Players",
    "Playing time",
    "Cards",
    "Edition",
    "Game design by",
    "Contents",
    "Settled by",
    "What is in the box: {total} cards",
    "Copies",
    "Total",
    "Referee options for each variant",
    "copy",
    "copies",
    "code",
    "See",
    "Ruling {number}",
    "Decision",
    "Why",
    "Settles",
    "Card reference",
    "Every distinct card in the deck, {total} cards in all. "
    "A card that comes in several copies is shown once, with the number of copies.",
    "Rulings of this edition",
    "The rules this edition is based on are silent or unclear on the questions below. "
    "These rulings are this edition's decisions, not part of the original text; "
    "the referee program follows them.",
    "Variants",
    "Agree on any variant before the game starts.",
    "Quick reference",
    "The cards at a glance",
    "{count} cards, lowest to highest.",
    "{count} in each suit:",
)
