"""The conformance suite: what every engine promises, checked on seeded random games (after
OpenSpiel's random simulation tests), so any engine, deckgen's own or a package's, is held to
the same contract before the referee, the playtest and the replay rely on it.

For one deck and each of its settings (the deck's rules, then each variant) and each player
count the engine declares, random games are played from derived seeds, and:

- `players`: counts outside the declared range are refused, counts inside start a game;
- `random-games`: every decision node offers actions (none repeated) until the game ends, a
  finished game offers none and has an outcome, scores stay within `score_bounds`, the
  winners hold the best score, no game passes `max_actions`;
- `illegal-actions`: an action legal elsewhere but not here (a chance action at a player's
  turn, a player's action at a chance node) is refused with `IllegalAction` citing a rule or
  card of the deck, and leaves the state as it was;
- `clone-and-replay`: a clone is independent of its original, and the game's actions applied
  to a fresh state give the same state (summary, outcome, whose turn, table view);
- `log-replay`: the game's log (`log_body`) read back by the referee is legal, finished, and
  ends in the same scores, winners, length and summary;
- `table-view`: the table the HTML replay draws (`GameState.table_view`) has its shape at the
  start and the end: a hand per seat (card codes, or a count), areas of titled cards, counters,
  a score per seat;
- `determinism`: the same seed plays the same game, with random and with heuristic bots;
- `questions`: every question the engine declares answers its own example with the keys the
  protocol asks for, citing rules the deck has.

`check_deck` runs it all and returns the failures (`deckgen engines check DECK`);
`check_setting` and `check_questions` are the pieces tests parametrize over.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core.errors import DeckgenError
from ..deck.model import Deck
from . import questions
from .base import CHANCE, TERMINAL, Action, Game, GameState, IllegalAction, game_for
from .logs import parse_log
from .referee import referee
from .simulate import derive_seed, game_log_text, play_game

CHECKS = ("players", "random-games", "illegal-actions", "clone-and-replay", "log-replay", "table-view",
          "determinism", "questions")
GAMES = 4  # random games per setting and player count
REFUSAL_EVERY = 5  # try an illegal action at every this many decisions


class NotConforming(AssertionError):
    """One broken promise: which check, and what was seen."""

    def __init__(self, check: str, message: str):
        self.check = check
        super().__init__(f"{check}: {message}")


@dataclass(frozen=True)
class Failure:
    """A broken promise found by `check_deck`."""

    check: str
    setting: str  # "deck rules, 4 players", "variant never-even, 3 players"
    message: str

    def as_dict(self) -> dict:
        return {"check": self.check, "setting": self.setting, "message": self.message}


def settings(deck: Deck) -> list[tuple[str, Mapping[str, Any]]]:
    """The deck's rules, then each variant: (name, engine parameters)."""
    return [("deck rules", {})] + [(f"variant {variant.id}", variant.params) for variant in deck.variants]


def check_deck(deck: Deck, games: int = GAMES, seed: int = 0) -> list[Failure]:
    """Every broken promise of the deck's engine, over its settings and player counts."""
    failures = []
    for name, params in settings(deck):
        try:
            game = game_for(deck, params)
        except DeckgenError as error:
            failures.append(Failure("players", name, f"the engine cannot be built: {error}"))
            continue
        try:
            check_players(game)
        except NotConforming as error:
            failures.append(Failure(error.check, name, str(error)))
        for players in range(game.min_players, game.max_players + 1):
            try:
                check_setting(game, players, games, derive_seed(seed, name))
            except NotConforming as error:
                failures.append(Failure(error.check, f"{name}, {players} players", str(error)))
            except Exception as error:  # noqa: BLE001 - an engine that crashes is a finding, with where
                failures.append(Failure("random-games", f"{name}, {players} players",
                                        f"the engine failed: {type(error).__name__}: {error}"))
    try:
        check_questions(game_for(deck))
    except NotConforming as error:
        failures.append(Failure(error.check, "deck rules", str(error)))
    except DeckgenError:
        pass  # reported above, as the deck rules' setting
    return failures


def check_players(game: Game) -> None:
    """Counts outside the declared range are refused; the declared bounds start a game."""
    _require("players", 1 <= game.min_players <= game.max_players,
             f"the declared range {game.min_players}-{game.max_players} is empty or starts below one player")
    for outside in (game.min_players - 1, game.max_players + 1):
        try:
            game.new_state(outside)
        except DeckgenError:
            continue
        raise NotConforming("players", f"a game for {outside} players starts, outside the declared "
                                       f"{game.min_players}-{game.max_players}")
    for inside in (game.min_players, game.max_players):
        _require("players", game.new_state(inside).num_players == inside, f"a game for {inside} players "
                 "does not say it has that many (GameState.num_players)")


def check_setting(game: Game, players: int, games: int = GAMES, seed: int = 0) -> None:
    """Every promise but the player range and the questions, over `games` random games of
    this many players; raises `NotConforming` at the first broken one."""
    for index in range(games):
        game_seed = derive_seed(seed, "conformance", players, index)
        check_table_view(game.new_state(players), "a new game")
        state, actions = random_game(game, players, game_seed)
        where = f"game {index + 1} (seed {game_seed})"
        check_outcome(game, state, where)
        check_table_view(state, f"{where}, at its end")
        check_clone_and_replay(game, players, actions, state, game_seed, where)
        check_log_replay(game, players, actions, state, where)
    check_determinism(game, players, derive_seed(seed, "determinism", players))


def random_game(game: Game, players: int, seed: int) -> tuple[GameState, list[Action]]:
    """One game between uniformly random players from `seed`, checking each node on the way
    and trying an illegal action at every `REFUSAL_EVERY`-th; the final state and every action."""
    rng = random.Random(seed)
    state = game.new_state(players)
    limit = game.max_actions(players)
    actions: list[Action] = []
    by_players: list[Action] = []  # the last few actions of each kind: candidates for a refusal
    by_chance: list[Action] = []
    while (player := state.current_player()) != TERMINAL:
        if len(actions) >= limit:
            raise NotConforming("random-games", f"seed {seed}: the game passed its declared maximum of {limit} "
                                "actions (Game.max_actions)")
        chance = player == CHANCE
        if chance:
            action = state.sample_chance(rng)
        else:
            legal = list(state.legal_actions())
            if not 0 <= player < players or not legal or len(set(legal)) != len(legal):
                raise NotConforming("random-games", f"seed {seed}, action {len(actions) + 1}: seat {player} of "
                                    f"{players} is to act with legal actions {legal!r} (none, or repeated)")
            action = legal[int(rng.random() * len(legal))]
        if len(actions) % REFUSAL_EVERY == 0:
            # Another chance event can be as legal as the one drawn (any shuffle is), so a chance
            # node is offered players' actions only.
            check_refusal(game, state, by_players if chance else by_players + by_chance, rng,
                          f"seed {seed}, action {len(actions) + 1}")
        state.apply(action)
        actions.append(action)
        kept = by_chance if chance else by_players
        kept.append(action)
        del kept[:-40]
    _require("random-games", not list(state.legal_actions()), f"seed {seed}: a finished game offers actions")
    return state, actions


def check_refusal(game: Game, state: GameState, candidates: Sequence[Action], rng: random.Random,
                  where: str) -> None:
    """An action legal elsewhere but not here is refused citing the deck, and changes nothing."""
    player = state.current_player()
    legal = set(state.legal_actions()) if player != CHANCE else set()
    foreign = [action for action in candidates if action not in legal]
    if not foreign:
        return
    action = foreign[int(rng.random() * len(foreign))]
    before = _snapshot(state)
    try:
        state.apply(action)
    except IllegalAction as error:
        if not _cites_deck(game.deck, error.rule):
            raise NotConforming("illegal-actions", f"{where}: refusing {_shown(game, state, action)}, the engine "
                                f"cites {error.rule!r}, which is neither a rule id nor card:<id> of the deck") from None
        if _snapshot(state) != before:
            raise NotConforming("illegal-actions", f"{where}: refusing {_shown(game, state, action)} changed "
                                "the state") from None
        return
    except Exception as error:  # noqa: BLE001 - the finding is that it was not an IllegalAction
        raise NotConforming("illegal-actions", f"{where}: {_shown(game, state, action)} at "
                            f"{'a chance node' if player == CHANCE else 'a player turn'} raised "
                            f"{type(error).__name__}: {error}, not IllegalAction with a rule id") from error
    raise NotConforming("illegal-actions", f"{where}: {_shown(game, state, action)} was accepted at "
                        f"{'a chance node' if player == CHANCE else 'a player turn'} where it is not legal")


def check_outcome(game: Game, state: GameState, where: str) -> None:
    """A finished game's outcome keeps the declared score bounds and names the best as winners."""
    outcome = state.outcome()
    players = state.num_players
    _require("random-games", outcome is not None, f"{where}: a finished game has no outcome")
    _require("random-games", len(outcome.scores) == players, f"{where}: {len(outcome.scores)} scores for "
             f"{players} players")
    low, high = game.score_bounds(players)
    _require("random-games", all(low <= score <= high for score in outcome.scores),
             f"{where}: final scores {list(outcome.scores)} outside the declared bounds {low}..{high}")
    _require("random-games", all(0 <= seat < players for seat in outcome.winners), f"{where}: winners "
             f"{list(outcome.winners)} are not seats")
    best = (min if game.lower_score_wins else max)(outcome.scores)
    if outcome.reason == "finished" and not outcome.draw:
        _require("random-games", bool(outcome.winners) and all(outcome.scores[seat] == best for seat in outcome.winners),
                 f"{where}: winners {list(outcome.winners)} do not hold the best score of {list(outcome.scores)}")
    summary = state.summary()
    _require("random-games", list(summary.get("scores", outcome.scores)) == list(outcome.scores),
             f"{where}: the summary's scores {summary.get('scores')} are not the outcome's {list(outcome.scores)}")
    for entry in summary.get("rounds", ()):
        _require("random-games", all(len(values) == players for values in entry.get("columns", {}).values()),
                 f"{where}: a round's columns in the summary do not have one value per seat")


def check_clone_and_replay(game: Game, players: int, actions: Sequence[Action], played: GameState, seed: int,
                           where: str) -> None:
    """A clone played on leaves its original alone; the actions replayed give the played state."""
    state = game.new_state(players)
    half = len(actions) // 2
    for action in actions[:half]:
        state.apply(action)
    before = _snapshot(state)
    copy = state.clone()
    rng = random.Random(derive_seed(seed, "clone"))
    while (player := copy.current_player()) != TERMINAL:
        legal = list(copy.legal_actions()) if player != CHANCE else ()
        copy.apply(copy.sample_chance(rng) if player == CHANCE else legal[int(rng.random() * len(legal))])
    _require("clone-and-replay", _snapshot(state) == before, f"{where}: playing a clone on changed its "
             f"original (after {half} actions)")
    for action in actions[half:]:
        state.apply(action)
    _require("clone-and-replay", _snapshot(state) == _snapshot(played), f"{where}: replaying the game's "
             f"{len(actions)} actions on a fresh state ends elsewhere than the game did")
    _require("clone-and-replay", state.outcome() == played.outcome(), f"{where}: the replayed game's outcome "
             f"{state.outcome()} is not the played {played.outcome()}")


def check_log_replay(game: Game, players: int, actions: Sequence[Action], played: GameState, where: str) -> None:
    """The game's log, read back by the referee, is legal and ends where the game did."""
    names = [f"Player{seat + 1}" for seat in range(players)]
    text = game_log_text(game, names, actions)
    report = referee(parse_log(text, game.deck, game.log_sections))
    outcome = played.outcome()
    _require("log-replay", report.violation is None, f"{where}: the referee finds its own log illegal: "
             f"{report.violation and report.violation.message} [{report.violation and report.violation.rule}]")
    _require("log-replay", report.finished and report.actions == len(actions), f"{where}: the referee replays "
             f"{report.actions} of {len(actions)} actions (finished: {report.finished})")
    _require("log-replay", report.scores == list(outcome.scores), f"{where}: the log ends in scores "
             f"{report.scores}, the game in {list(outcome.scores)}")
    winners = {names[seat] for seat in outcome.winners} if not outcome.draw else set()
    _require("log-replay", {row["player"] for row in report.standings if row["winner"]} == winners,
             f"{where}: the log's winners are not the game's")
    named = played.clone()
    named.player_names = names  # the referee's state knows the log's names
    _require("log-replay", report.summary == named.summary(), f"{where}: the refereed log's summary differs "
             "from the played game's")


def check_table_view(state: GameState, where: str) -> None:
    """`table_view()` in the shape the replay page draws (see GameState.table_view)."""
    view = state.table_view()
    players = state.num_players
    hands, areas = view.get("hands"), view.get("areas")
    _require("table-view", isinstance(hands, list) and len(hands) in (0, players)
             and all(isinstance(hand, (list, int)) for hand in hands),
             f"{where}: hands must be one list of card codes (or a count) per seat, not {hands!r}")
    _require("table-view", isinstance(areas, list) and all(
        isinstance(area, dict) and isinstance(area.get("title"), str) and isinstance(area.get("cards"), list)
        for area in areas), f"{where}: areas must be a list of {{'title': str, 'cards': [...]}}, not {areas!r}")
    _require("table-view", isinstance(view.get("counters"), dict), f"{where}: counters must be a table")
    scores = view.get("scores")
    _require("table-view", isinstance(scores, list) and len(scores) in (0, players),
             f"{where}: scores must be one number per seat, not {scores!r}")


def check_determinism(game: Game, players: int, seed: int) -> None:
    """The same seed plays the same game: random players, then the engine's heuristic ones."""
    for kind in ("random", "heuristic"):
        try:
            game.bot(kind, random.Random(0))
        except DeckgenError:
            continue  # an engine without a heuristic player
        bots = [kind] * players
        first = play_game(game, players, seed, bots, keep_actions=True)
        _require("determinism", first == play_game(game, players, seed, bots, keep_actions=True),
                 f"seed {seed}: two games with {kind} bots from the same seed differ")
    again = random_game(game, players, seed)[1]
    _require("determinism", random_game(game, players, seed)[1] == again, f"seed {seed}: two random games "
             "from the same seed differ")


def check_questions(game: Game) -> None:
    """Each declared question answers its example with what the protocol asks of its kind."""
    deck = game.deck
    for question in game.questions:
        words = [question.example]
        _require("questions", questions.first_word(words) in (question.word, *question.aliases) or question.default,
                 f"the example of `{question.word}` does not start with its word: {question.example!r}")
        try:
            answer = game.quick_ruling(words)
        except DeckgenError as error:
            raise NotConforming("questions", f"`{question.word}` cannot answer its own example "
                                             f"{question.example!r}: {error}") from error
        _require("questions", isinstance(answer.get("answer"), str) and answer["answer"],
                 f"`{question.example}` has no answer sentence")
        key = questions.ASKS[question.asks][1]
        _require("questions", key is None or key in answer, f"`{question.example}` asks {question.asks!r} but "
                 f"the answer has no {key!r}")
        if question.asks in ("play", "bid"):
            _require("questions", isinstance(answer["allowed"], bool), f"`{question.example}`: allowed is "
                     f"{answer['allowed']!r}, not true or false")
        if question.asks == "trick":
            _require("questions", isinstance(answer["winner"].get("position"), int),
                     f"`{question.example}`: the winner has no position")
        for rule in answer.get("rules", ()):
            _require("questions", _cites_deck(deck, rule), f"`{question.example}` cites {rule!r}, not a rule "
                     "or card of the deck")
        for ruling in answer.get("rulings", ()):
            _require("questions", any(r.id == ruling for r in deck.rulings), f"`{question.example}` cites "
                     f"ruling {ruling!r}, which the deck lacks")


def _cites_deck(deck: Deck, rule: str) -> bool:
    if rule.startswith("card:"):
        return deck.find_card(rule[5:]) is not None
    try:
        deck.rule(rule)
    except KeyError:
        return False
    return True


def _snapshot(state: GameState) -> tuple:
    """What a person can tell of a state: whose turn, the choices, the summary, the table."""
    player = state.current_player()
    legal = list(state.legal_actions()) if player >= 0 else []
    return player, legal, state.summary(), state.table_view()


def _shown(game: Game, state: GameState, action: Action) -> str:
    try:
        return repr(game.format_action(state, action))
    except Exception:  # noqa: BLE001 - an action of another node may not format here
        return repr(action)


def _require(check: str, condition: Any, message: str) -> None:
    if not condition:
        raise NotConforming(check, message)
