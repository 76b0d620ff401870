"""The rules language of trick-taking games: a deck's `[rules]` table (docs/rules-language.md).

The deck stage owns the language: its structure (`schema`), its expressions (`expr`, made
into closures by `compile`), its card selectors (`selectors`), and reading a table into
checked `TrickRules` for one set of parameters (`read`, `checks`). `generator.games.trick`
plays what it reads. `problems_of(deck)` is what the loader reports: the rules read with the
deck's own parameters and with each variant's, so a variant that breaks them is found at load.
"""

from __future__ import annotations

from ..model import Deck
from .read import Problems, RuleProblem, read_rules
from .spec import TrickRules

__all__ = ["ENGINE_ID", "Problems", "RuleProblem", "TrickRules", "problems_of", "read_rules", "rules_for", "variant_problems"]

ENGINE_ID = "rules"  # deck.engine of a deck refereed by its [rules]


def rules_for(deck: Deck, params=None) -> tuple[TrickRules | None, Problems]:
    """The deck's rules with its parameters and `params` over them (a variant's, a log's)."""
    merged = {**deck.params, **(params or {})}
    return read_rules(deck.trick_rules, deck, merged)


def problems_of(deck: Deck) -> Problems:
    """Every problem of the deck's [rules] read with the deck's own parameters (errors and warnings)."""
    return rules_for(deck)[1]


def variant_problems(deck: Deck) -> Problems:
    """What keeps each variant's parameters from being played by the rules (named at the variant,
    with the rules field in the message)."""
    found = Problems()
    for index, variant in enumerate(deck.variants):
        unknown = sorted(set(variant.params) - set(deck.params))
        if unknown:
            found.add(f"variants[{index}].params", f"{', '.join(unknown)} is not a parameter of [engine]; "
                                                   f"known: {', '.join(sorted(deck.params)) or 'none'}")
            continue
        _, variant_problems = rules_for(deck, variant.params)
        for problem in variant_problems.errors:
            found.add(f"variants[{index}].params", f"with variant {variant.id!r}: {problem.field}: {problem.message}",
                      problem.hint)
    return found
