"""Composition: does the deck hold what its engine needs, for every player count it allows?

Each engine's requirements are a function here, keyed by engine id, rather than a
hook on the `Game` classes. The validator has to judge decks whose engine cannot
even be built from them (a missing Quaffle makes the Quidditch engine fail on
setup), so the checks must not depend on constructing the engine; and keeping
them together lets them share one vocabulary of primitives (a suit-by-rank grid,
a required card, a count per player) and one message style. The engine classes
stay the source of their player bounds, read from their class attributes.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from ..core.errors import DeckgenError, Problem
from ..deck.locate import Locator
from ..deck.model import Card, Deck
from ..deck.trickrules import rules_for
from ..games.base import Game, engine_class, parameter_complaint
from ..games.trick.bounds import best_round
from ..games.trick.game import RulesGame
from ..games.quidditch_v2_cards import KNOWN_CARDS, QUAFFLE, SNITCH


@dataclass
class Composition:
    """Problems found, and per player count the figures a designer checks by hand
    (rounds, hand size, Cauldron, draw pile)."""

    problems: list[Problem] = field(default_factory=list)
    per_players: dict[int, dict[str, int]] = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"per_players": {str(n): figures for n, figures in self.per_players.items()}}


class _Checker:
    """The primitives every engine's requirements are written in."""

    def __init__(self, deck: Deck, params: Mapping[str, Any]):
        self.deck = deck
        self.params = params
        self.locate = Locator(deck)
        self.result = Composition()

    @property
    def player_counts(self) -> range:
        return range(self.deck.min_players, self.deck.max_players + 1)

    def error(self, field: str, message: str, hint: str = "") -> None:
        self.result.problems.append(self.locate.problem(field, message, hint))

    def warning(self, field: str, message: str, hint: str = "") -> None:
        self.result.problems.append(self.locate.problem(field, message, hint, severity="warning"))

    def figure(self, players: int, name: str, value: int) -> None:
        self.result.per_players.setdefault(players, {})[name] = value

    def cards(self, predicate: Callable[[Card], bool]) -> list[Card]:
        return [card for card in self.deck.cards if predicate(card)]

    def copies(self, predicate: Callable[[Card], bool]) -> int:
        return sum(card.count for card in self.cards(predicate))

    def require_count(self, what: str, predicate: Callable[[Card], bool], wanted: int, why: str,
                      exact: bool = True) -> int:
        """`wanted` copies of a card class: none is an error, a different number a warning
        (the engine still runs, but the rules as written assume `wanted`)."""
        matching = self.cards(predicate)
        found = sum(card.count for card in matching)
        if found == 0:
            self.error("cards", f"the deck has no {what}; {why}", hint=f"add {wanted} {what}")
        elif found < wanted or (exact and found != wanted):
            self.warning(self.locate.card_field(matching[0], "count"), f"the deck has {found} {what}, the rules expect {wanted}; {why}",
                         hint=f"set the count to {wanted}, or reword the rules for {found}")
        return found

    def require_card(self, name: str, predicate: Callable[[Card], bool], why: str) -> Card | None:
        """Exactly one copy of a named card the engine looks for."""
        found = self.cards(predicate)
        total = sum(card.count for card in found)
        if not found:
            self.error("cards", f"the deck has no {name} card; {why}",
                       hint=f"add a [[cards]] entry named {name!r}")
            return None
        if total > 1:
            self.error(self.locate.card_field(found[0], "count"),
                       f"the deck has {total} copies of the {name}; the rules use exactly one",
                       hint="set count = 1")
        return found[0]

    def require_grid(self, suits: list[str], ranks: list[str], copies: int = 1) -> None:
        """Each suit holds each rank exactly `copies` times."""
        held: Counter[tuple[str, str]] = Counter()
        for card in self.deck.cards:
            if card.suit in suits and card.rank in ranks:
                held[card.suit, card.rank] += card.count
        missing = [(s, r) for s in suits for r in ranks if held[s, r] < copies]
        extra = [(s, r) for s in suits for r in ranks if held[s, r] > copies]
        if missing:
            self.error(self.locate.cards_field, f"{len(missing)} suit card(s) missing: {_grid_names(self.deck, missing)}",
                       hint=f"every suit needs each of its ranks {'once' if copies == 1 else f'{copies} times'}")
        if extra:
            self.error(self.locate.cards_field, f"{len(extra)} suit card(s) appear too often: {_grid_names(self.deck, extra)}",
                       hint=f"every suit needs each of its ranks {'once' if copies == 1 else f'{copies} times'}")



def _grid_names(deck: Deck, pairs: list[tuple[str, str]], limit: int = 8) -> str:
    names = [f"{deck.rank(r).name} of {deck.suit(s).name}" for s, r in pairs[:limit]]
    more = f" and {len(pairs) - limit} more" if len(pairs) > limit else ""
    return ", ".join(names) + more


def _players_fit_engine(check: _Checker, game_class: type[Game]) -> None:
    low, high = game_class.min_players, game_class.max_players
    deck = check.deck
    if deck.min_players < low or deck.max_players > high:
        check.error("deck.players",
                    f"the deck allows {deck.min_players}-{deck.max_players} players, but the "
                    f"{deck.engine} engine plays {low}-{high}",
                    hint=f"set players = {{ min = {max(low, deck.min_players)}, max = {min(high, deck.max_players)} }}")


def _rules(check: _Checker) -> None:
    """A deck with [rules]: the rules read with these parameters (the loader has read them with the
    deck's own and its variants'), each player count's figures, and passes that would hand over
    a whole hand (the engine plays them; a designer means something else)."""
    deck = check.deck
    rules, problems = rules_for(deck, check.params)
    for problem in problems.errors:  # its warnings are the loader's to report
        check.error(problem.field, problem.message, problem.hint)
    if rules is None:
        return
    game = RulesGame(deck, {key: value for key, value in check.params.items() if key in deck.params})
    leftover = rules.deal.leftover_name.removeprefix("the ")
    uneven = []
    for players in check.player_counts:
        rounds = game.num_rounds(players)
        hand = max(game.hand(players, number) for number in range(1, (rounds or 1) + 1))
        if rounds is not None:
            check.figure(players, "rounds", rounds)
            check.figure(players, "largest hand", hand)
        else:
            check.figure(players, "hand", hand)
        check.figure(players, leftover[:1].upper() + leftover[1:], deck.total - hand * players)
        if rounds is not None and game.hand(players, rounds) * players != deck.total:
            uneven.append(players)
        if game.target is not None and rounds is None and best_round(game, players) <= 0 < game.target:
            raw = str(deck.trick_rules["end"].get("target", ""))
            where = f"engine.{raw}" if raw in deck.params else "rules.end.target"
            check.error(where, f"no {rules.round_name} can raise anyone's score, so nobody reaches {game.target} and "
                               "the game cannot end", hint="give the cards that score some points")
            break
        if rules.passing is not None and 0 < hand <= rules.passing.count:
            raw = str(deck.trick_rules["passing"].get("count", ""))
            where = f"engine.{raw.lstrip('$')}" if raw.lstrip("$") in deck.params else "rules.passing.count"
            check.error(where, f"with {players} players each hand holds {hand} card(s), too few to pass "
                               f"{rules.passing.count}", hint="pass fewer cards or allow fewer players")
    if uneven and rules.deal.last_round_deals_all:
        total = deck.total
        shown = ", ".join(f"{total}/{p} = {total / p:.2f}" for p in uneven)
        check.error("cards", f"the deck has {total} cards, and the last round deals every card, so the number of "
                             f"rounds is the cards divided by the players; that is not whole for {_players(uneven)} "
                             f"({shown})", hint="make the deck divide by every player count ([deck] players), "
                                                "or set last_round_deals_all = false")


def _players(counts: list[int]) -> str:
    words = [str(n) for n in counts]
    return (", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]) + " players"


def _muggle_quidditch(check: _Checker) -> None:
    deck, params = check.deck, check.params
    check.require_grid([s.id for s in deck.suits], [r.id for r in deck.ranks])
    for kind, role, why in (("seeker", "Seekers", "a Seeker spots the Snitch and dives for it"),
                            ("keeper", "Keepers", "Keepers guard the hoops"),
                            ("chaser", "Chasers", "no goal can be scored without a Chaser"),
                            ("beater", "Beaters", "Jacks are Beaters and Bludgers")):
        check.require_count(f"{role} (kind {kind!r})", lambda c, kind=kind: c.kind == kind, len(deck.suits), why)
    jokers = check.require_count("Jokers (kind 'joker')", lambda c: c.kind == "joker", 2,
                                 "the first Joker spots the Snitch and the second starts the dive")
    if jokers == 1:
        check.error("cards", "with one Joker the dive for the Snitch can never start, so no match ends "
                    "except at the turn cap", hint="the deck needs two Jokers")
    values = [check.deck.rank(c.rank).value for c in check.deck.copies()
              if c.kind == "quaffle" and c.rank and check.deck.rank(c.rank).value is not None]
    held = Counter(values)
    if not any(held[v] and held[12 - v] and (v != 6 or held[v] >= 2) for v in held):
        check.error(check.locate.cards_field, "no two Quaffle cards add up to 12, so no goal can ever be scored",
                    hint="number cards 2 to 10 give 10+2, 9+3, 8+4, 7+5 and 6+6")
    houses = params.get("houses", {})
    unmapped = [s.id for s in deck.suits if s.id not in houses]
    if unmapped:
        check.error("engine.houses", f"no house named for suit(s) {', '.join(unmapped)}",
                    hint="[engine] houses maps every suit id to a house name")
    hand, draw_to = params["hand_size"], params["draw_to"]
    for players in check.player_counts:
        pile = deck.total - hand * players
        check.figure(players, "cards dealt", hand * players)
        check.figure(players, "draw pile", pile)
        if pile < draw_to - hand + 1:
            check.error("engine.hand_size", f"with {players} players the deal of {hand} cards each leaves "
                        f"{pile} card(s) to draw from; the first turn alone draws {draw_to - hand}",
                        hint="deal fewer cards or add cards")


def _quidditch_v2(check: _Checker) -> None:
    deck, params = check.deck, check.params
    ids = {card.id for card in deck.cards}
    missing, unknown = sorted(KNOWN_CARDS - ids), sorted(ids - KNOWN_CARDS)
    if missing:
        check.error("cards", f"the quidditch-v2 engine has rules for card ids the deck lacks: {', '.join(missing)}",
                    hint="each card's rules live in the engine under its id; restore the ids")
    for card in deck.cards:
        if card.id in unknown:
            check.error(check.locate.card_field(card, "id"), f"card {card.name!r} has id {card.id!r}, which the "
                        "quidditch-v2 engine has no rules for", hint="use one of the engine's card ids")
    for ball, why in ((QUAFFLE, "the Quaffle starts in the centre and every goal needs it"),
                      (SNITCH, "catching the Golden Snitch is the only way the game ends")):
        card = check.require_card(f"card with id {ball!r}", lambda c, ball=ball: c.id == ball, why)
        if card is not None and card.kind != "thing":
            check.error(check.locate.card_field(card, "kind"),
                        f"the {card.name} is of kind {card.kind!r}; a ball is a Thing", hint='set kind = "thing"')
    if not check.copies(lambda c: c.kind == "seeker"):
        check.warning("cards", "the deck has no Seeker cards, so every Snitch showdown ties unless someone has "
                      "a Seeker bonus in play", hint="Seeker cards have kind = \"seeker\"")
    hand, cap, search = params["hand_size"], params["turn_cap"], params["search_reveal"]
    in_pile = deck.total - check.copies(lambda c: c.id == QUAFFLE or
                                         (c.id == SNITCH and params["snitch_start"] == "discard"))
    for players in check.player_counts:
        pile = in_pile - hand * players
        check.figure(players, "cards dealt", hand * players)
        check.figure(players, "draw pile", pile)
        if pile < 0:
            check.error("engine.hand_size", f"with {players} players the deal needs {hand * players} cards, but "
                        f"only {in_pile} start in the draw pile", hint="deal fewer cards or allow fewer players")
            continue
        if params["snitch_start"] != "discard":
            continue
        # Before the cap each player has `cap` turns; a turn takes one card off the draw pile, and
        # a Search `search` more (cards that draw extra are left out of this bound).
        turns = cap * players
        if pile > turns * (1 + search):
            check.error("engine.turn_cap", f"with {players} players the turn cap ends the game after {turns} turns, "
                        f"which take at most {turns * (1 + search)} cards off the {pile}-card draw pile even with "
                        "a Search every turn: the first reshuffle never comes, so the Golden Snitch waiting in the "
                        "discard pile can never enter play",
                        hint=f"raise turn_cap to at least {-(-pile // (players * (1 + search)))} "
                        "or start the Snitch in the draw pile (snitch_start = \"draw\")")
        elif pile > turns:
            check.warning("engine.turn_cap", f"with {players} players the {pile}-card draw pile outlasts the "
                          f"{turns} draws before the turn cap: the Golden Snitch can enter play only after "
                          "Searches dig through the deck", hint=f"raise turn_cap to at least {-(-pile // players)}")


REQUIREMENTS: dict[str, Callable[[_Checker], None]] = {
    "rules": _rules,
    "muggle-quidditch": _muggle_quidditch,
    "quidditch-v2": _quidditch_v2,
}


def check_composition(deck: Deck, params: Mapping[str, Any] | None = None) -> Composition:
    """Every way the deck falls short of what its engine needs with the deck's parameters plus
    `params` (a variant's); nothing for a deck without an engine."""
    if not deck.engine:
        return Composition()
    try:
        game_class = engine_class(deck)
    except ImportError as error:
        check = _Checker(deck, {})
        check.error("deck.engine", f"the {deck.engine} engine cannot be loaded ({error}), so nothing that "
                    "depends on it can be checked", hint="check the deckgen installation")
        return check.result
    # a deck with [rules] declares its own parameters (its [engine] table) and players ([rules] players)
    defaults = dict(deck.params) if deck.trick_rules is not None else game_class.defaults
    check = _Checker(deck, {**defaults, **deck.params, **(params or {})})
    if not _parameters_fit_engine(check, game_class, defaults, params or {}):
        return check.result  # the requirements below read the parameters
    if deck.trick_rules is None:
        _players_fit_engine(check, game_class)
    REQUIREMENTS[deck.engine](check)
    if not check.result.problems:
        try:  # the engine's own checks: parameter values, card props
            game_class(deck, params)
        except DeckgenError as error:
            message = str(error).removeprefix(f"{deck.source}: ")
            key = re.match(r"(?:\[engine\]|parameter) (\w+)", message)
            check.error(f"engine.{key.group(1)}" if key and key.group(1) in deck.params else "engine", message)
    return check.result


def _parameters_fit_engine(check: _Checker, game_class, defaults: Mapping[str, Any], params: Mapping[str, Any]) -> bool:
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
