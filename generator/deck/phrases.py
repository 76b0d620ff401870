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
    "One card.",
    "{count} in each suit:",
    # Figures of play (generator/deck/figures.py): their titles, what they state, the labels drawn.
    "Trick",
    "Hand",
    "Goal",
    "Manoeuvre",
    "trump {suit}",
    "no trump",
    "Shun suit {suit}",
    "the first trick of the hand",
    "{player} also held {cards}",
    "the {ordinal} card wins",
    "{player} wins",
    "wins",
    "the {ordinal} player",
    "the trick is worth {points} points",
    "no Keeper",
    "Keeper",
    "against the Keeper {card}",
    "against",
    "scorer's house {suit}",
    "defender's house {suit}",
    "it scores",
    "it may not score",
    "dominance {list}",
    "{player} · dominance {points}",
    "{player} controls the Quaffle",
    "the Quaffle is in the centre",
    "Quaffle",
    "{player} has {cards}",
    "P1 has {cards}",
    "nothing in play",
    "Score",
    "Bludger",
    "Snatch",
    "Outfly",
    "Search",
    "{manoeuvre} against {target}",
    "P1 may choose {manoeuvre}",
    "P1 may not choose {manoeuvre}",
    "with the variant {name}",
)

# The phrases only a kind of figure of play uses (generator/deck/figures.py and the rulebook's
# drawing of it): a deck whose rules hold no figure of a kind (a deck without that engine's
# figures) is not asked to translate them. Every phrase in neither table below is used by every
# rulebook.
_ANY_FIGURE = ("with the variant {name}",)
_TRICK = ("trump {suit}", "no trump", "Shun suit {suit}", "the first trick of the hand",
          "{player} also held {cards}", "the {ordinal} card wins", "{player} wins", "wins",
          "the {ordinal} player", "the trick is worth {points} points")
FIGURE_PHRASES: dict[str, tuple[str, ...]] = {
    "trick": ("Trick", *_TRICK, *_ANY_FIGURE),
    "hand": ("Hand", *_TRICK, *_ANY_FIGURE),
    "goal": ("Goal", "no Keeper", "Keeper", "against the Keeper {card}", "against", "scorer's house {suit}",
             "defender's house {suit}", "it scores", "it may not score", *_ANY_FIGURE),
    "manoeuvre": ("Manoeuvre", "dominance {list}", "{player} · dominance {points}", "{player} controls the Quaffle",
                  "the Quaffle is in the centre", "Quaffle", "{player} has {cards}", "P1 has {cards}",
                  "nothing in play", "Score", "Bludger", "Snatch", "Outfly", "Search", "{manoeuvre} against {target}",
                  "P1 may choose {manoeuvre}", "P1 may not choose {manoeuvre}", *_ANY_FIGURE),
}
# The phrases of the rulebook's parts a deck may not have: rulings, variants, suits.
PART_PHRASES: dict[str, tuple[str, ...]] = {
    "rulings": ("Settled by", "See", "Ruling {number}", "Decision", "Why", "Settles", "Rulings of this edition",
                "The rules this edition is based on are silent or unclear on the questions below. "
                "These rulings are this edition's decisions, not part of the original text; "
                "the referee program follows them."),
    "variants": ("Referee options for each variant", "Variants", "Agree on any variant before the game starts."),
    "suits": ("{count} cards, lowest to highest.", "One card.", "{count} in each suit:"),
}
_OPTIONAL = {phrase for table in (FIGURE_PHRASES, PART_PHRASES) for phrases in table.values() for phrase in phrases}


def needed_phrases(figure_kinds: set[str], parts: set[str]) -> tuple[str, ...]:
    """The phrases a rulebook uses, in PHRASES order, when its rules show figures of
    `figure_kinds` and it has the `parts` (rulings, variants, suits) named."""
    wanted = {phrase for kind in figure_kinds for phrase in FIGURE_PHRASES.get(kind, ())}
    wanted |= {phrase for part in parts for phrase in PART_PHRASES.get(part, ())}
    return tuple(phrase for phrase in PHRASES if phrase not in _OPTIONAL or phrase in wanted)
