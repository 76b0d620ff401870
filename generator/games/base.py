"""The engine API every game implements, so the referee, the simulator, the validator
and the generic tests drive all games the same way (after OpenSpiel and python-chess).

A game is a `Game` (rules plus parameters, built from a deck) that makes `GameState`s.
A state knows whose turn it is (a seat number, `CHANCE` for shuffles, dice and
coins, or `TERMINAL`), the legal actions, and applies one action at a time. Chance
is explicit: a shuffle is a chance action carrying the resulting order, so a game
replays exactly from its log, and `sample_chance` draws it from a seeded RNG.

What an engine provides (a `Game` subclass, registered under the `deckgen.engines` entry
points, `generator.core.plugins`; docs/engines.md is the kit for writing one)
---------------------------------------------------------------------------------------------
Rules:
- `id`, `min_players`, `max_players`, `defaults` (its `[engine]` parameters), and
  `lower_score_wins` when the lowest score wins.
- `new_state`, `score_bounds`, `max_actions`: the conformance suite
  (`generator.games.conformance`) checks random games against these declarations (they end,
  stay in bounds, never exceed the length).
- `GameState.apply` raises `IllegalAction` naming the deck's rule id (and ruling id when a
  ruling decided it), with `where` = {"round": n, "trick": n, "player": seat} as far as
  the game has them (1-based round and trick numbers, 0-based seats).
- `GameState.summary()` returns plain data. Two keys are read generically:
  `"scores"` (one number per seat, so far) and `"rounds"`: a list of
  `{"title": str, "columns": {name: [one value per seat]}}` that `deckgen referee`
  prints as one small table per round. Anything else is the engine's own.
- `GameState.table_view()`: the table as a person sees it, for the HTML replay.

Game logs (see `generator.games.logs` and docs/game-logs.md):
- `log_sections`: the top-level tables of a log that belong to the engine (e.g. "rounds").
- `log_steps(log, state)`: a generator that reads those tables and yields one `LogStep`
  per action, in order. The referee applies each step to `state` before asking for the
  next, so the generator may look at `state` (whose turn, who leads). It yields
  `LogStep(None, field)` for chance the log leaves to its seed, raises `log.error(...)`
  for malformed input (exit 2) and may raise `IllegalAction` for a claim in the log
  the rules contradict (a wrong dealer, say), with `where["field"]` set.
- `log_body(players, actions)`: the engine's tables for a game played with these
  actions from `new_state(len(players))` by these named players, so `deckgen simulate --save-logs` writes logs the referee
  replays.
- `format_action` / `parse_action`: one action as written in a log.

Around play, each with a default that works for any engine:
- `bot(kind, rng)` returns a `Bot`; the base gives "random"; engines add "heuristic".
- `questions`: the questions at the table it answers (`generator.games.questions`:
  may I play this, who wins this trick, what does this score, is this bid allowed), for
  `deckgen rule` and the referee's check of figures of play in rule text.
- `deck_requirements(check)`: what its deck must hold (`generator.games.requirements`).
- `playtest` and `table_kit` (`generator.games.profile`): how the playtest reads a game, and
  what a virtual table sets up.
Search players (`generator.games.search`, `--bot ismcts-N`/`pimc-N`) work on any engine whose
states implement three more hooks:
- `determinize(seat, rng)`: a copy in which everything the seat has not seen is drawn again,
  consistently with what it has seen (its cards, public cards, voids shown, cards passed or
  revealed, hand sizes). It must depend on the seat's information only, never on the hidden
  cards' true places (tests/games/test_search.py swaps them and compares).
- `standing()`: how each seat stands now in the game's points, read from the engine's own
  state (Quidditch v2 counts dominance and the Quaffle too); the playtest's tension and lead
  changes read it. `outlook()` may add what only the hands show (Seeker cards held towards
  the Snitch): search players score playouts by it.
- `stage()`: a count that grows at the game's scoring steps (rounds, turns): a rollout runs
  `Game.search_stages` of them, then reads `outlook()` in units of `Game.standing_scale`.
Seats at a table (`deckgen play`): `GameState.view(seat)` is what one seat may see (its own
hand and the public table, never another seat's hidden cards), and `Game.action_view(before,
action, after, seat)` how that seat sees one action (a bid made in secret is "bids", a card
drawn by someone else is "draws a card"). The base shows only the scores, and every player's
action as the log writes it; an engine with secrets overrides both.

Players: `bot(kind, rng)` returns a `Bot`; the base gives "random"; engines add "heuristic".
Quick rulings: `quick_ruling(words)` answers one question without a log
(`deckgen rule DECK ...`); engines that support it override it.
"""

from __future__ import annotations

import copy
import importlib
import math
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

from ..core.errors import DeckgenError, InvalidDeck, OptionError, Problem
from ..core.plugins import engine_names, registrations, unknown_engine
from ..deck.model import Deck
from . import questions as table_questions
from .logs import GameLog, LogStep
from .profile import PlaytestProfile, TableKit

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at start-up
if TYPE_CHECKING:
    from typing import Any, ClassVar, Iterator, Sequence

    from .questions import Question
    from .requirements import Checker

CHANCE = -1
TERMINAL = -2

Action = Hashable  # each engine defines its own frozen records


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]  # seats; more than one is a shared win (or the tied seats of a draw)
    reason: str = "finished"  # "finished", or "turn-cap" when the length cap stopped it
    draw: bool = False  # the rules call this tie a draw: nobody wins (Muggle Quidditch's equal totals)


class IllegalAction(DeckgenError):
    """An action the rules forbid: names the rule (or card) it breaks and what was legal."""

    exit_code = 1

    def __init__(self, message: str, rule: str, legal: Sequence[str] = (), where: Mapping[str, Any] | None = None,
                 ruling: str = ""):
        self.message = message
        self.rule = rule  # a rule id from the deck, or "card:<card id>" when card text decides
        self.legal = tuple(legal)
        self.where = dict(where or {})
        self.ruling = ruling  # id of the deck ruling that decided the case, if one did
        super().__init__(message)

    def as_dict(self) -> dict:
        return {"message": self.message, "rule": self.rule, "ruling": self.ruling or None,
                "legal": list(self.legal), "where": self.where}


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision a game is waiting for: who owes it (a seat, or `CHANCE`), what it is in
    words naming who owes it ("North to pass 2 more cards to East"), and the rule that asks for it."""

    seat: int
    owes: str
    rule: str = ""


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

    def pending(self) -> Pending | None:
        """What the game waits for (None when over): the referee says it when a log stops here.
        Engines override it to name the decision and its rule."""
        seat = self.current_player()
        if seat == TERMINAL:
            return None
        return Pending(seat, "a chance event (a deal, a shuffle...)" if seat == CHANCE
                       else f"{self.player_name(seat)}'s next action")

    # Names of the players by seat, when known (the referee sets them from the log).
    player_names: Sequence[str] = ()

    def player_name(self, seat: int) -> str:
        """A seat as people call it: the log's name, else "seat N"."""
        return self.player_names[seat] if self.player_names else f"seat {seat + 1}"

    def clone(self) -> "GameState":
        return copy.deepcopy(self)

    def determinize(self, seat: int, rng: random.Random) -> "GameState":
        """One world the seat cannot tell from this one: a copy with everything it has not seen
        drawn again at random, consistently with what it has seen (see the module doc)."""
        raise DeckgenError(f"{type(self).__name__} cannot sample what a seat has not seen, so search players "
                           "cannot play it")

    def standing(self) -> Sequence[float]:
        """Each seat's standing now, in the game's points (the scores, unless the engine reads more)."""
        return self.summary()["scores"]

    def outlook(self) -> Sequence[float]:
        """Each seat's prospects in points, from everything the state holds (hands too): what search
        players score their playouts by. The standing, unless the engine knows better."""
        return self.standing()

    def stage(self) -> int:
        """How far the game has come in its scoring steps (rounds, turns); see the module doc."""
        return 0

    def situation(self) -> str:
        """What stands between this position and the game's end, in a few words that do not name
        seats (so positions of many games add up): the playtest says which one repeats in games
        stopped by the length cap. Empty when the engine does not say."""
        return ""

    def table_view(self) -> dict:
        """The table as a person would see it, for the step-through replay: plain data with
        `hands` (by seat: card codes, or a count when unknown), `areas` (a list of
        {"title": str, "cards": [card codes]}: the trick, the teams, the piles), `counters`
        (name -> value) and `scores` (by seat). The base shows the scores; engines show their table."""
        return {"hands": [], "areas": [], "counters": {}, "scores": list(self.summary().get("scores", []))}

    def replay_context(self) -> Any:
        """What the replay keeps from just before an action, for `replay_events` (None: nothing)."""
        return None

    def replay_events(self, context: Any, action: Action) -> dict:
        """What an action just settled that the table no longer shows (a trick taken and by
        whom), given `replay_context()` from before it: `note` (words) and `areas` (shown
        first on the table). Empty when nothing was settled."""
        return {}


    def view(self, seat: int | None) -> dict:
        """What `seat` may see now (None: an onlooker who holds no cards), as plain data:
        `hand` (the seat's own card codes, sorted; empty for an onlooker), `hand_sizes` (cards
        held, by seat), `areas` (the table: a list of `{"title", "kind", "cards": [{"code",
        "seat"}], "hidden": face-down cards}`; "seat" says who played a card, None if nobody),
        `counters` (name -> value: trump, the Quaffle, piles), `columns` (name -> one value per
        seat: bids, tricks won; None where this seat may not know it), `rounds` (the public
        part of `summary()["rounds"]`) and `scores`. Nothing in it may tell another seat's
        hidden cards. The base shows the scores and the score sheet."""
        summary = self.summary()
        return seat_view(scores=list(summary.get("scores", [])), rounds=list(summary.get("rounds", [])))


def seat_view(hand: Sequence[str] = (), hand_sizes: Sequence[int] = (), areas: Sequence[dict] = (),
              counters: Mapping[str, Any] | None = None, columns: Mapping[str, Sequence] | None = None,
              rounds: Sequence[dict] = (), scores: Sequence[int] = ()) -> dict:
    """A `GameState.view` with every key present."""
    return {"hand": list(hand), "hand_sizes": list(hand_sizes), "areas": list(areas), "counters": dict(counters or {}),
            "columns": {name: list(values) for name, values in (columns or {}).items()}, "rounds": list(rounds),
            "scores": list(scores)}


def view_area(title: str, codes: Sequence[str] = (), seats: Sequence[int | None] | None = None, hidden: int = 0,
              kind: str = "pile") -> dict:
    """One area of a view: its cards face up (each with the seat that played it, if any) and how
    many lie face down."""
    owners = list(seats) if seats is not None else [None] * len(codes)
    return {"title": title, "kind": kind, "cards": [{"code": code, "seat": seat} for code, seat in zip(codes, owners)],
            "hidden": hidden}


class Game(ABC):
    """A game's rules with one set of parameters. Subclasses declare their bounds so
    generic tests can check every engine."""

    id: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    defaults: ClassVar[Mapping[str, Any]] = {}
    lower_score_wins: ClassVar[bool] = False
    # The player range is the deck's own ([rules] players), not `min_players`..`max_players`.
    players_from_deck: ClassVar[bool] = False
    # Top-level tables of a game log that this engine reads (the header is generic).
    log_sections: ClassVar[tuple[str, ...]] = ()
    # The questions at the table it answers (`deckgen rule`; generator.games.questions).
    questions: ClassVar[tuple[Question, ...]] = ()
    # How the playtest reads its games, and what a virtual table sets up (generator.games.profile).
    playtest: ClassVar[PlaytestProfile] = PlaytestProfile()
    table_kit: ClassVar[TableKit] = TableKit()
    # Search players' rollouts: how many `stage()` steps a sampled world is played forward
    # (0: to the end of the game), and the standing difference that counts as clear (one
    # made bid, one goal), which scales the reward.
    search_stages: ClassVar[int] = 0
    standing_scale: ClassVar[float] = 10.0

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
        overrides = params or {}
        for key, value in merged.items():
            complaint = parameter_complaint(key, value, self.defaults[key])
            if complaint:
                raise DeckgenError(f"{deck.source}: {'parameter' if key in overrides else '[engine]'} {complaint}")
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

    @abstractmethod
    def log_steps(self, log: GameLog, state: GameState) -> Iterator[LogStep]:
        """Read the engine's tables of `log`, yielding one step per action (see the module doc)."""

    @abstractmethod
    def log_body(self, players: Sequence[str], actions: Sequence[Action]) -> dict:
        """The engine's log tables for a game played with `actions` from `new_state(len(players))`."""

    def action_view(self, before: GameState, action: Action, after: GameState, seat: int | None) -> dict | None:
        """How `seat` (None: an onlooker) sees `action`, taken in `before` and leading to `after`:
        `{"seat": who acted (None for chance), "text": what they did}`, plus `"trick": {"cards":
        [{"code", "seat"}], "winner": seat}` when it ends a trick; None when the seat sees nothing
        of it. The base hides chance and shows each player's action as the log writes it."""
        actor = before.current_player()
        if actor < 0:
            return None
        return {"seat": actor, "text": self.format_action(before, action)}

    def bot(self, kind: str, rng: random.Random) -> "Bot":
        """A player program of the given kind; engines add "heuristic" to the base's "random"."""
        if kind == "random":
            return Bot(rng)
        raise DeckgenError(f"the {self.id} engine has no {kind!r} bot; known: random")

    def quick_ruling(self, words: Sequence[str]) -> dict:
        """Settle one question without a log (a trick, a bid...): {"answer", "rules", ...}, by
        the engine's `questions` (generator.games.questions)."""
        return table_questions.ask(self, words)

    @classmethod
    def table_kit_for(cls, deck: Deck) -> TableKit:
        """What a virtual table sets up for this deck's game: the engine's `table_kit`, unless
        it reads its table from the deck."""
        return cls.table_kit

    @classmethod
    def parameter_defaults(cls, deck: Deck) -> Mapping[str, Any]:
        """The `[engine]` parameters a deck may set, with their defaults: the engine's own, unless
        the engine reads its parameters from the deck (the rules engine: a deck declares them)."""
        return cls.defaults

    @staticmethod
    def deck_requirements(check: Checker) -> None:
        """Report what the deck lacks for this engine through `check` (generator.games.requirements);
        run on the class, before any engine is built. Nothing by default."""

    def check_players(self, num_players: int) -> None:
        if not self.min_players <= num_players <= self.max_players:
            raise OptionError(
                f"{self.id} is for {self.min_players}-{self.max_players} players, not {num_players}")


def parameter_complaint(name: str, value: Any, default: Any) -> str:
    """What is wrong with an engine parameter's type ("" when it has its default's shape)."""
    if _conforms(value, default):
        return ""
    return f"{name} must be {_kind(default)} like its default {_show(default)}, not {_show(value)}"


def _conforms(value: Any, default: Any) -> bool:
    """Whether a parameter value has the shape of its default: the same scalar type (a whole
    number where the default is one), lists of such items, tables of such values."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, int):
        return isinstance(value, int)
    if isinstance(default, float):
        return isinstance(value, (int, float)) and math.isfinite(value)
    if isinstance(default, str):
        return isinstance(value, str)
    if isinstance(default, (list, tuple)):
        return isinstance(value, list) and (not default or all(_conforms(item, default[0]) for item in value))
    if isinstance(default, Mapping):
        if not isinstance(value, Mapping) or not default:
            return isinstance(value, Mapping)
        first = next(iter(default.values()))
        return all(isinstance(key, str) and _conforms(item, default.get(key, first)) for key, item in value.items())
    return True


def _kind(default: Any) -> str:
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        return "a whole number"
    if isinstance(default, float):
        return "a number"
    if isinstance(default, str):
        return "text"
    if isinstance(default, (list, tuple)):
        return f"a list of {_kind(default[0]) if default else 'values'}"
    if isinstance(default, Mapping) and default:
        return f"a table of {_kind(next(iter(default.values())))}"
    return "a table"


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class EngineUnavailable(InvalidDeck):
    """An engine that is not installed, or whose package's registration is broken: at the deck's
    `[deck] engine` field when a deck names it."""

    def __init__(self, reason: str, hint: str, deck: Deck | None = None):
        from ..deck.locate import Locator  # reads the loader (~70 ms): only when an engine is missing

        self.reason, self.hint = reason, hint
        super().__init__([Locator(deck).problem("deck.engine", reason, hint) if deck is not None
                          else Problem(reason, hint=hint)])


def engine_class(deck: Deck) -> type[Game]:
    """The `Game` class of the engine the deck names, as its package registers it."""
    if not deck.engine:
        raise DeckgenError(f"deck {deck.id!r} names no engine ([deck] engine = ...), "
                           "so it cannot be refereed, simulated or played")
    return load_engine(deck.engine, deck)


def load_engine(name: str, deck: Deck | None = None) -> type[Game]:
    """The `Game` class registered under `name` in the deckgen.engines entry points."""
    found = registrations(name)
    if not found:
        raise EngineUnavailable(*unknown_engine(name), deck)
    if len({entry.target for entry in found}) > 1:
        claims = "; ".join(f"{entry.package} ({entry.target})" for entry in found)
        raise EngineUnavailable(f"engine {name!r} is registered by more than one package: {claims}",
                                "uninstall all but one of them", deck)
    entry = found[0]
    module_name, _, attribute = entry.target.partition(":")
    try:
        loaded = importlib.import_module(module_name)
        for part in filter(None, attribute.split(".")):
            loaded = getattr(loaded, part)
    except Exception as error:  # noqa: BLE001 - any failure of a package's code is reported as its own
        raise EngineUnavailable(f"the {name} engine registered by {entry.package} ({entry.target}) cannot be "
                                f"loaded: {type(error).__name__}: {error}",
                                f"fix or reinstall {entry.package.split()[0]}", deck) from error
    if not (isinstance(loaded, type) and issubclass(loaded, Game)):
        raise EngineUnavailable(f"the {name} engine registered by {entry.package} names {entry.target}, which is "
                                "not a deckgen Game class",
                                "an entry point of deckgen.engines names a subclass of generator.games.base.Game",
                                deck)
    return loaded


def installed_engines() -> list[dict[str, Any]]:
    """Every registered engine as `deckgen engines list` shows it: name, package, class, players,
    the questions it answers; `error` instead when it cannot be loaded."""
    rows = []
    for name in engine_names():
        entry = registrations(name)[0]
        row: dict[str, Any] = {"engine": name, "package": entry.package, "target": entry.target}
        try:
            game_class = load_engine(name)
        except EngineUnavailable as error:
            row["error"] = error.reason
        else:
            row.update(players=f"{game_class.min_players}-{game_class.max_players}",
                       questions=[question.word for question in game_class.questions])
        rows.append(row)
    return rows


def game_for(deck: Deck, params: Mapping[str, Any] | None = None) -> Game:
    """The engine named by the deck, built with the deck's parameters plus overrides."""
    return engine_class(deck)(deck, params)


def variant_params(deck: Deck, variants: Sequence[str]) -> dict:
    """The engine parameters of the named variants of the deck, later ones over earlier ones."""
    params: dict = {}
    for name in variants:
        try:
            params.update(deck.variant(name).params)
        except KeyError:
            known = ", ".join(v.id for v in deck.variants) or "none"
            raise DeckgenError(f"deck {deck.id!r} has no variant {name!r}; known: {known}") from None
    return params


@dataclass
class Bot:
    """A player program: picks one of the legal actions."""

    rng: random.Random = field(default_factory=random.Random)

    def choose(self, state: GameState) -> Action:
        return self.rng.choice(list(state.legal_actions()))
