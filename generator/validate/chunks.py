"""One chunk of games, as a worker plays it: `Task` is the plain data shipped to it (any
backend of `cluster` can carry it) and `play_chunk` plays games task.start..task.stop-1
through the one simulator, `generator.games.simulate.play_game`, returning a `Tally`.
The task carries the deck (`jobs.DeckData`), whose engines are built once per worker process."""
from __future__ import annotations

import json
import random
import sys
import sysconfig
import time
import traceback
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..core.errors import DeckgenError
from ..games.base import Game, GameState
from ..games.bots import make_bot
from ..games.simulate import GameRecord, game_seed, play_game
from .jobs import DeckData, engine_for
from .metrics import GameTrace
from .tally import Failure, GameKey, Tally


@dataclass(frozen=True)
class Task:
    """A chunk of games: plain data, so any executor (a process pool today, Dask or Ray
    tomorrow) can ship it."""

    deck: DeckData
    setting: int
    params: Mapping[str, Any]
    players: int
    run_seed: int
    start: int
    stop: int
    # "random", "heuristic", or a mix "FOCUS/OTHERS" ("heuristic/random"): one FOCUS seat (game index
    # mod players), OTHERS in the other seats
    bot: str
    metrics: bool = True  # the game-research metrics too (generator.validate.metrics), not only the counters
    keep_games: bool = False  # keep every game's key, to pair it with the same game under other rules


class Watcher:
    """Follows one game through `play_game`'s observe hook: the leader over time and the cards
    each seat played."""

    def __init__(self, game: Game, players: int):
        self.game = game
        self.state: GameState | None = None
        profile = game.playtest
        self.by_turns = not profile.lead_by_rounds
        self.scores = profile.scores
        self.card_plays = profile.card_plays
        self.lower_wins = game.lower_score_wins
        self.leader: int | None = None
        self.changes = 0
        self.previous_player = -1
        self.plays = [Counter() for _ in range(players)]

    def __call__(self, state: GameState, player: int, action) -> None:
        self.state = state
        if player < 0:
            return
        if self.by_turns and player == 0 and self.previous_player != 0:
            self.see_scores(self.scores(state))
        self.previous_player = player
        if self.card_plays is not None:
            for code in self.card_plays(self.game, state, player, action):
                self.plays[player][code] += 1

    def see_scores(self, scores: Sequence[int]) -> None:
        best = min(scores) if self.lower_wins else max(scores)
        leaders = [seat for seat, score in enumerate(scores) if score == best]
        if len(leaders) == 1:
            if self.leader is not None and leaders[0] != self.leader:
                self.changes += 1
            self.leader = leaders[0]

    def finish(self, scores: Sequence[int]) -> int:
        if not self.by_turns and self.state is not None:
            for entry in self.state.summary().get("rounds", ()):
                totals = entry.get("columns", {}).get("total")
                if totals and not entry.get("in_progress"):
                    self.see_scores(totals)
        self.see_scores(scores)
        return self.changes


def _where(error: BaseException) -> str:
    """The innermost frame outside Python's own library in a traceback: file:line function."""
    libraries = tuple({sys.prefix, sys.base_prefix, sysconfig.get_paths()["purelib"]})
    frames = [f for f in traceback.extract_tb(error.__traceback__) if not f.filename.startswith(libraries)]
    if not frames:
        return ""
    frame = frames[-1]
    return f" at {Path(frame.filename).name}:{frame.lineno} in {frame.name}"


def _classify(error: Exception, state: GameState | None, index: int, seed: int) -> Failure:
    if state is not None and state.current_player() >= 0:
        try:
            stuck = not state.legal_actions()
        except Exception:  # noqa: BLE001 - a state that cannot even list its actions is itself the finding
            stuck = False
        if stuck:
            summary = state.summary()
            return Failure("no legal action", index, seed,
                           f"{state.player_name(state.current_player())} is to act but has no legal action "
                           f"(scores {summary.get('scores')})")
    if isinstance(error, DeckgenError) and "declared length" in str(error):
        return Failure("endless", index, seed, str(error))
    return Failure("engine error", index, seed, f"{type(error).__name__}: {error}{_where(error)}")


def mix(bot: str) -> tuple[str, str | None]:
    """A task's bots as (the kind in every seat or the focus seat, the kind in the others or None)."""
    focus, _, others = bot.partition("/")
    return focus, others or None


def play_chunk(task: Task, trace: Callable[[Game, int, Any], GameTrace] = GameTrace) -> Tally:
    """Play games task.start..task.stop-1 of one (setting, player count) and count them; each
    game with metrics is followed by `trace(game, players, profile)` (benchmarks/bench_calibration.py
    passes one that deals a placebo card)."""
    started = time.perf_counter()
    focus_kind, others_kind = mix(task.bot)
    try:
        game = engine_for(task.deck, task.params)
        game.check_players(task.players)
        kind = _bot_kind(game, focus_kind)
        other = _bot_kind(game, others_kind or focus_kind)
    except DeckgenError as error:
        tally = Tally(task.players, metrics=task.metrics)
        tally.add_failure(Failure("setting", task.start, 0, str(error)), games=task.stop - task.start)
        return tally
    profile = game.playtest
    tally = Tally(task.players, game.lower_score_wins, tracks_cards=profile.card_plays is not None,
                  metrics=task.metrics, keep_games=task.keep_games)
    for index in range(task.start, task.stop):
        seed = game_seed(task.run_seed, index)
        focus = index % task.players if others_kind else None
        bots = [kind if focus in (None, seat) else other for seat in range(task.players)]
        # Every metric, or (for the lightest runs) the counters alone.
        watcher = trace(game, task.players, profile) if task.metrics else Watcher(game, task.players)
        try:
            record, _ = play_game(game, task.players, seed, bots, index=index, observe=watcher)
        except Exception as error:  # noqa: BLE001 - any engine failure is a finding, reported with its seed
            tally.add_failure(_classify(error, watcher.state, index, seed))
            tally.keep(task.start, GameKey(0, 0, False, True, 0))
            continue
        if task.keep_games:
            tally.keep(task.start, game_key(watcher.state, record))
        if task.metrics:
            watcher.close(record.scores)
            watcher.finish(tally.metrics, record.scores, record.winners, record.actions, record.rounds, focus)
            lead_changes = watcher.lead_changes()
        else:
            lead_changes = watcher.finish(record.scores)
        tally.add_game(record.scores, record.winners, record.reason, record.decisions, lead_changes, watcher.plays)
        if record.reason != "finished":  # kept to replay: which position repeats (generator.validate.endings)
            tally.add_capped(index, seed)
    tally.seconds = time.perf_counter() - started  # for sizing the next chunks; not a figure
    return tally


def game_key(state: GameState, record: GameRecord) -> GameKey:
    """What a finished game came to (`tally.GameKey`): the digest covers the engine's summary of
    it (every round's bids, tricks and points in trick games) and the final scores."""
    text = json.dumps([state.summary(), record.scores], sort_keys=True, default=str)
    winners = sum(1 << seat for seat in record.winners)
    return GameKey(zlib.crc32(text.encode()), record.decisions, record.reason != "finished", False, winners)


def _bot_kind(game: Game, wanted: str) -> str:
    """The wanted bot, or "random" for an engine without a heuristic player (a search player
    the engine cannot run is an error: its figures would be another player's)."""
    if wanted == "random":
        return wanted
    if wanted == "heuristic":
        try:
            game.bot(wanted, random.Random(0))
        except DeckgenError:
            return "random"
        return wanted
    make_bot(game, wanted, random.Random(0))
    return wanted

