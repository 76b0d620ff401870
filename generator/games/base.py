"""The engine API every game implements, so the referee, the simulator, the validator
and the generic tests drive all games the same way (after OpenSpiel and python-chess).

A game is a `Game` (rules plus parameters, built from a deck) that makes `GameState`s.
A state knows whose turn it is (a seat number, `CHANCE` for shuffles, dice and
coins, or `TERMINAL`), the legal actions, and applies one action at a time. Chance
is explicit: a shuffle is a chance action carrying the resulting order, so a game
replays exactly from its log, and `sample_chance` draws it from a seeded RNG.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Hashable, Mapping, Sequence

from ..errors import DeckgenError
from ..model import Deck

CHANCE = -1
TERMINAL = -2

Action = Hashable  # each engine defines its own frozen dataclasses


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]  # seats; more than one is a shared win
    reason: str = "finished"  # "finished", or "turn-cap" when the length cap stopped it


class IllegalAction(DeckgenError):
    """An action the rules forbid: names the rule (or card) it breaks and what was legal."""

    exit_code = 1

    def __init__(self, message: str, rule: str, legal: Sequence[str] = (), where: Mapping[str, Any] | None = None):
        self.message = message
        self.rule = rule  # a rule id from the deck, or "card:<card id>" when card text decides
        self.legal = tuple(legal)
        self.where = dict(where or {})
        super().__init__(message)

    def as_dict(self) -> dict:
        return {"message": self.message, "rule": self.rule, "legal": list(self.legal), "where": self.where}


class GameState(ABC):
    """One moment of one game."""

    num_players: int

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, `CHANCE`, or `TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Every legal action for the player to act (empty only when terminal)."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Apply an action after checking it; raise `IllegalAction` (state unchanged) if illegal."""

    @abstractmethod
    def sample_chance(self, rng: random.Random) -> Action:
        """At a chance node, draw the chance action (shuffle order, die roll...) from rng."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome once terminal, else None."""

    @abstractmethod
    def summary(self) -> dict:
        """Plain data for reports: scores so far, round results, and whatever the game tracks."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def clone(self) -> "GameState":
        return copy.deepcopy(self)


class Game(ABC):
    """A game's rules with one set of parameters. Subclasses declare their bounds so
    generic tests can check every engine."""

    id: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # Bounds of one player's final score, for the given player count.
    defaults: ClassVar[Mapping[str, Any]] = {}

    def __init__(self, deck: Deck, params: Mapping[str, Any] | None = None):
        self.deck = deck
        merged = dict(self.defaults)
        merged.update(deck.params)
        merged.update(params or {})
        unknown = sorted(set(merged) - set(self.defaults))
        if unknown:
            raise DeckgenError(
                f"{deck.source}: [engine] unknown parameter(s) {', '.join(unknown)} for the {self.id} engine; "
                f"known: {', '.join(sorted(self.defaults)) or 'none'}")
        self.params = merged

    @abstractmethod
    def new_state(self, num_players: int) -> GameState:
        """A fresh game for this many players (the first node is normally chance)."""

    @abstractmethod
    def score_bounds(self, num_players: int) -> tuple[int, int]:
        """Lowest and highest final score any one player can have."""

    @abstractmethod
    def max_actions(self, num_players: int) -> int:
        """An upper bound on actions in one game (chance included); a game past it is capped."""

    @abstractmethod
    def format_action(self, state: GameState, action: Action) -> str:
        """The action as a person writes it in a log (card codes, 'bid 2', 'trump hearts')."""

    @abstractmethod
    def parse_action(self, state: GameState, text: str) -> Action:
        """Read an action written by a person; raise `IllegalAction`/`ValueError` if unreadable."""

    def check_players(self, num_players: int) -> None:
        if not self.min_players <= num_players <= self.max_players:
            raise DeckgenError(
                f"{self.id} is for {self.min_players}-{self.max_players} players, not {num_players}")


ENGINES: dict[str, str] = {
    "wizard": "generator.games.wizard:WizardGame",
    "wizard-hearts": "generator.games.wizard_hearts:WizardHeartsGame",
    "muggle-quidditch": "generator.games.muggle_quidditch:MuggleQuidditchGame",
    "quidditch-v2": "generator.games.quidditch_v2:QuidditchV2Game",
}


def game_for(deck: Deck, params: Mapping[str, Any] | None = None) -> Game:
    """The engine named by the deck, built with the deck's parameters plus overrides."""
    import importlib

    if not deck.engine:
        raise DeckgenError(f"deck {deck.id!r} names no engine ([deck] engine = ...), so it cannot be refereed")
    module_name, class_name = ENGINES[deck.engine].split(":")
    game_class = getattr(importlib.import_module(module_name), class_name)
    return game_class(deck, params)


@dataclass
class Bot:
    """A player program: picks one of the legal actions."""

    rng: random.Random = field(default_factory=random.Random)

    def choose(self, state: GameState) -> Action:
        return self.rng.choice(list(state.legal_actions()))
