"""Composition: does the deck hold what its engine needs, for every player count it allows?

The generic checks are here: the engine can be loaded, its player range covers the deck's,
every `[engine]` parameter is known and shaped like its default. What each engine needs of
its deck it declares itself, as `Game.deck_requirements(check)` run on the class (a deck
short of what the engine needs may not even build one), written in the primitives of
`generator.games.requirements`. Last, when nothing is wrong yet, the engine is built from the
deck, so its own checks of parameter values and card props speak too.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ..core.errors import DeckgenError
from ..deck.model import Deck
from ..games.base import EngineUnavailable, Game, engine_class, parameter_complaint
from ..games.requirements import Checker, Composition


def _players_fit_engine(check: Checker, game_class: type[Game]) -> None:
    low, high = game_class.min_players, game_class.max_players
    deck = check.deck
    if deck.min_players < low or deck.max_players > high:
        check.error("deck.players",
                    f"the deck allows {deck.min_players}-{deck.max_players} players, but the "
                    f"{deck.engine} engine plays {low}-{high}",
                    hint=f"set players = {{ min = {max(low, deck.min_players)}, max = {min(high, deck.max_players)} }}")


def check_composition(deck: Deck, params: Mapping[str, Any] | None = None) -> Composition:
    """Every way the deck falls short of what its engine needs with the deck's parameters plus
    `params` (a variant's); nothing for a deck without an engine."""
    if not deck.engine:
        return Composition()
    try:
        game_class = engine_class(deck)
    except EngineUnavailable as error:
        check = Checker(deck, {})
        check.error("deck.engine", f"{error.reason}, so nothing that depends on it can be checked", error.hint)
        return check.result
    defaults = game_class.parameter_defaults(deck)
    check = Checker(deck, {**defaults, **deck.params, **(params or {})})
    if not _parameters_fit_engine(check, game_class, defaults, params or {}):
        return check.result  # the requirements below read the parameters
    if not game_class.players_from_deck:
        _players_fit_engine(check, game_class)
    game_class.deck_requirements(check)
    if not check.result.problems:
        try:  # the engine's own checks: parameter values, card props
            game_class(deck, params)
        except DeckgenError as error:
            message = str(error).removeprefix(f"{deck.source}: ")
            key = re.match(r"(?:\[engine\]|parameter) (\w+)", message)
            check.error(f"engine.{key.group(1)}" if key and key.group(1) in deck.params else "engine", message)
    return check.result


def _parameters_fit_engine(check: Checker, game_class, defaults: Mapping[str, Any],
                            params: Mapping[str, Any]) -> bool:
    """Every [engine] parameter known to the engine and shaped like its default."""
    fits = True
    for key, value in {**check.deck.params, **params}.items():
        field = f"engine.{key}" if key not in params else "engine"
        if key not in defaults:
            check.error(field, f"unknown parameter {key!r} for the {check.deck.engine} engine; "
                               f"known: {', '.join(sorted(defaults))}")
            fits = False
            continue
        complaint = parameter_complaint(key, value, defaults[key])
        if complaint:
            check.error(field, complaint)
            fits = False
    return fits
