"""Playtests by simulation: can the game still end, is it fair, and how does it play?

Games are played by the engines' bots through `generator.games.simulate.play_game` (the
one simulator; its `observe` hook follows each game: `metrics.GameTrace` for every metric,
`_Watcher` for the plain counters). The work is a stream of `Task`s, each a chunk of games
of one (setting, player count, bot mix), run by a backend from `cluster` (this process, a
process pool, or Dask); a task is plain data, the deck included (`jobs.DeckData`), sized by
the time chunks are measured to take (`jobs.ChunkSizer`). Game `i` of a run uses `game_seed(run_seed, i)` with `run_seed`
derived from (seed, player count), so a game's result does not depend on which worker
played it, and every figure is a sum of integers over games: any split into chunks, any
number of workers and any backend give identical figures. A chunk returns a `Tally` of
counters, never the games, so memory stays flat however many games are played.
"""
from __future__ import annotations

import os
import random
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from statistics import NormalDist
from typing import Any, Callable, Collection, Iterator, Mapping, Sequence

from ..core.errors import DeckgenError, OptionError, Problem
from ..deck.locate import Locator
from ..deck.model import Deck
from ..games.base import Game, GameState, game_for
from ..games.bots import check_bot, make_bot
from ..games.simulate import _distribution, derive_seed, game_seed, play_game
from .cluster import Checkpoints, DaskCluster, InProcess, ProcessPool, run_chunks
from .endings import CAPPED, FAILURE_KINDS, Failure, classify, stall_note
from .jobs import ChunkSizer, DeckData, engine_for
from .figures import figures
from .metrics import GameTrace, Metrics
from .profiles import PROFILES
from .stats import Z95, bonferroni_z, games_for_precision, histogram_bins, wilson

DEFAULT_GAMES = 5  # per player count and setting, for `deckgen validate`
MAX_GAMES = 1_000_000  # per player count and setting: hours of play, never a memory problem
BUILD_GAMES = 3  # inside `deckgen build`, which must stay a few seconds
CAPPED_WARNING_SHARE = 0.10  # a share of games stopped by the length cap surely above this is worth a warning
EXAMPLES = 3  # failing games kept per kind, lowest game numbers first
NEVER_PLAYED_MIN_GAMES = 20  # fewer games say little about a card never played
BALANCE_MIN_GAMES = 20  # below this, intervals are too wide and too rough to accuse a seat


@dataclass(frozen=True)
class Setting:
    """Engine parameters to play with: the deck's own, a variant's, or a point of a sweep."""

    name: str
    params: Mapping[str, Any]
    variant: str | None = None


def _value(text: str) -> Any:
    """A sweep value as TOML would read it: true/false, a whole number, a decimal, else text."""
    text = text.strip()
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_sweeps(sweeps: Sequence[str]) -> tuple[list[dict[str, Any]], list[int] | None]:
    """`players=3..6`, `players=3,5`, `bid_restriction=none,every-round`: the grid of parameter
    overrides (one dict per point) and the player counts, if swept."""
    axes: list[tuple[str, list[Any]]] = []
    players: list[int] | None = None
    for sweep in sweeps:
        key, sep, values = sweep.partition("=")
        key = key.strip()
        if not sep or not key or not values.strip():
            raise OptionError(f"--sweep {sweep!r}: write NAME=V1,V2 or players=LOW..HIGH")
        if key == "players":
            try:
                if ".." in values:
                    low, high = (int(v) for v in values.split(".."))
                    players = list(range(low, high + 1))
                else:
                    players = [int(v) for v in values.split(",")]
            except ValueError:
                raise OptionError(f"--sweep {sweep!r}: player counts are whole numbers, e.g. players=3..6") from None
            if not players:
                raise OptionError(f"--sweep {sweep!r}: the range is empty")
            continue
        axes.append((key, [_value(v) for v in values.split(",") if v.strip()]))
    grid = [dict(zip([k for k, _ in axes], point)) for point in product(*[v for _, v in axes])]
    return grid, players


def settings_for(deck: Deck, sweeps: Sequence[str] = (), skip_variants: Collection[str] = ()
                 ) -> tuple[list[Setting], list[int]]:
    """What to play: with sweeps, each point of the grid; without, the deck's rules and each
    variant but those in `skip_variants`."""
    grid, players = parse_sweeps(sweeps)
    counts = players or list(range(deck.min_players, deck.max_players + 1))
    if any(grid):
        return [Setting(", ".join(f"{k}={v}" for k, v in point.items()), point) for point in grid], counts
    settings = [Setting("deck rules", {})]
    if not sweeps:
        settings += [Setting(f"variant {v.id}", dict(v.params), v.id) for v in deck.variants
                     if v.id not in skip_variants]
    return settings, counts


@dataclass(frozen=True)
class Task:
    """A chunk of games: plain data, the deck included, so any executor (a process pool, Dask
    on this machine or on many) can ship it."""

    deck: DeckData
    setting: int
    params: Mapping[str, Any]
    players: int
    run_seed: int
    start: int
    stop: int
    bot: str  # a bot name (random, heuristic, ismcts-N...), or "mixed": one heuristic seat (game index mod players), random others
    metrics: bool = True  # the game-research metrics too (generator.validate.metrics), not only the counters


class Tally:
    """Counters over games of one (setting, player count): merge-able in any order."""

    def __init__(self, players: int, lower_score_wins: bool = False, tracks_cards: bool = False,
                 metrics: bool = False):
        self.players = players
        self.lower_score_wins = lower_score_wins
        self.tracks_cards = tracks_cards
        self.games = 0  # games that finished or were capped (failures are counted apart)
        self.capped = 0
        self.failures: Counter[str] = Counter()
        self.examples: list[Failure] = []
        self.wins = [0] * players  # won or shared the win
        self.outright = [0] * players
        self.seat_score_sum = [0] * players
        self.scores: Counter[int] = Counter()
        self.margins: Counter[int] = Counter()
        self.lengths: Counter[int] = Counter()  # player decisions per game
        self.lead_changes: Counter[int] = Counter()
        self.card_plays: Counter[str] = Counter()  # times played, all games
        self.card_games: Counter[str] = Counter()  # games in which anyone played it
        self.card_seat_games: Counter[str] = Counter()  # (seat, game) pairs where the seat played it
        self.card_seat_wins: Counter[str] = Counter()  # ... and that seat won
        self.metrics: Metrics | None = Metrics(players) if metrics else None

    def add_game(self, scores: Sequence[int], winners: Sequence[int], reason: str, decisions: int,
                 lead_changes: int, plays: Sequence[Counter[str]]) -> None:
        self.games += 1
        if reason != "finished":
            self.capped += 1
        for seat in winners:
            self.wins[seat] += 1
        if len(winners) == 1:
            self.outright[winners[0]] += 1
        for seat, score in enumerate(scores):
            self.seat_score_sum[seat] += score
            self.scores[score] += 1
        best = [scores[s] for s in winners]
        rest = [score for seat, score in enumerate(scores) if seat not in winners]
        if best and rest:
            self.margins[abs(best[0] - (min(rest) if self.lower_score_wins else max(rest)))] += 1
        elif best:
            self.margins[0] += 1
        self.lengths[decisions] += 1
        self.lead_changes[lead_changes] += 1
        self.card_games.update({code for played in plays for code in played})
        for seat, played in enumerate(plays):
            for code, times in played.items():
                self.card_plays[code] += times
                self.card_seat_games[code] += 1
                if seat in winners:
                    self.card_seat_wins[code] += 1

    def add_failure(self, failure: Failure, games: int = 1) -> None:
        self.failures[failure.kind] += games
        self.examples.append(failure)
        self._trim()

    def _trim(self) -> None:
        kept: list[Failure] = []
        for kind in (*FAILURE_KINDS, CAPPED):
            kept += sorted((f for f in self.examples if f.kind == kind), key=lambda f: f.index)[:EXAMPLES]
        self.examples = kept

    def merge(self, other: "Tally") -> None:
        self.tracks_cards = self.tracks_cards or other.tracks_cards
        self.games += other.games
        self.capped += other.capped
        self.failures.update(other.failures)
        self.examples += other.examples
        self._trim()
        for seat in range(self.players):
            self.wins[seat] += other.wins[seat]
            self.outright[seat] += other.outright[seat]
            self.seat_score_sum[seat] += other.seat_score_sum[seat]
        for mine, theirs in ((self.scores, other.scores), (self.margins, other.margins),
                             (self.lengths, other.lengths), (self.lead_changes, other.lead_changes),
                             (self.card_plays, other.card_plays), (self.card_games, other.card_games),
                             (self.card_seat_games, other.card_seat_games),
                             (self.card_seat_wins, other.card_seat_wins)):
            mine.update(theirs)
        if other.metrics is not None:
            if self.metrics is None:
                self.metrics = Metrics(self.players)
            self.metrics.merge(other.metrics)

    def state(self) -> dict:
        """Every counter as plain sorted data (JSON): the checkpoint format, and equal for equal tallies."""
        counters = ("failures", "scores", "margins", "lengths", "lead_changes", "card_plays", "card_games",
                    "card_seat_games", "card_seat_wins")
        return {"players": self.players, "lower_score_wins": self.lower_score_wins,
                "tracks_cards": self.tracks_cards, "games": self.games, "capped": self.capped,
                "examples": [[f.kind, f.index, f.seed, f.message] for f in self.examples],
                "wins": self.wins, "outright": self.outright, "seat_score_sum": self.seat_score_sum,
                **{name: sorted(getattr(self, name).items()) for name in counters},
                "metrics": self.metrics.state() if self.metrics is not None else None}

    @classmethod
    def from_state(cls, data: dict) -> "Tally":
        tally = cls(data["players"], data["lower_score_wins"], data["tracks_cards"])
        tally.games, tally.capped = data["games"], data["capped"]
        tally.examples = [Failure(*example) for example in data["examples"]]
        tally.wins, tally.outright, tally.seat_score_sum = data["wins"], data["outright"], data["seat_score_sum"]
        for name in ("failures", "card_plays", "card_games", "card_seat_games", "card_seat_wins"):
            setattr(tally, name, Counter(dict(data[name])))
        for name in ("scores", "margins", "lengths", "lead_changes"):
            setattr(tally, name, Counter({int(k): v for k, v in data[name]}))
        tally.metrics = Metrics.from_state(data["metrics"]) if data["metrics"] is not None else None
        return tally

    @property
    def played(self) -> int:
        return self.games + sum(self.failures.values())

    def seat_rows(self, z: float = Z95) -> list[dict]:
        """Wins by seat with Wilson intervals at `z` (95% by default)."""
        rows = []
        for seat in range(self.players):
            low, high = wilson(self.wins[seat], self.games, z)
            rows.append({"seat": seat + 1, "wins": self.wins[seat], "outright": self.outright[seat],
                         "win_rate": round(self.wins[seat] / self.games, 4) if self.games else None,
                         "low": round(low, 4), "high": round(high, 4),
                         "mean_score": round(self.seat_score_sum[seat] / self.games, 2) if self.games else None})
        return rows

    def fair_share(self) -> float:
        """The win rate every seat would have in a fair game: all wins (shared ones counted per
        winner) spread evenly over the seats."""
        return sum(self.wins) / (self.games * self.players) if self.games else 0.0

    def card_rows(self, deck: Deck) -> list[dict]:
        """Per card that can be played: how often, in what share of games, and how the win rate
        of the seat that played it compares with the average seat's (`lift`)."""
        seat_games = self.games * self.players
        base = sum(self.wins) / seat_games if seat_games else 0.0
        by_rule = PROFILES[deck.engine].never_played
        rows = []
        for card in deck.cards:
            if by_rule(card):
                continue
            played_in = self.card_seat_games[card.code]
            rate = self.card_seat_wins[card.code] / played_in if played_in else None
            rows.append({"code": card.code, "name": card.name, "plays": self.card_plays[card.code],
                         "games_share": round(self.card_games[card.code] / self.games, 4) if self.games else 0.0,
                         "win_rate_when_played": round(rate, 4) if rate is not None else None,
                         "lift": round(rate - base, 4) if rate is not None else None})
        return rows

    def as_dict(self, deck: Deck) -> dict:
        kept = _kept_figures
        if kept is not None and (id(self), id(deck)) in kept:
            return kept[id(self), id(deck)]
        data = {
            "games": self.played, "completed": self.games, "capped": self.capped,
            "failures": dict(sorted(self.failures.items())),
            "examples": [{"kind": f.kind, "game": f.index + 1, "seed": f.seed, "message": f.message}
                         for f in self.examples],
            "seats": self.seat_rows(), "fair_share": round(self.fair_share(), 4),
            "scores": _distribution(self.scores), "winning_margin": _distribution(self.margins),
            "length": _distribution(self.lengths),
            "length_histogram": histogram_bins(self.lengths),
            "lead_changes": _distribution(self.lead_changes),
        }
        if self.tracks_cards:
            data["cards"] = self.card_rows(deck)
        if self.metrics is not None and self.games:
            data["metrics"] = figures(self, deck)
        if kept is not None:
            kept[id(self), id(deck)] = data
        return data


# While a report is written (`figures_kept`): each tally's figures, asked for by the JSON, the
# HTML views and the summary alike, computed once. Tallies do not change while reported on.
_kept_figures: dict[tuple[int, int], dict] | None = None


@contextmanager
def figures_kept() -> Iterator[None]:
    global _kept_figures
    _kept_figures = {}
    try:
        yield
    finally:
        _kept_figures = None


# -- one chunk of games (runs in a worker process) --------------------------------------------

class _Watcher:
    """Follows one game through `play_game`'s observe hook: the leader over time and the cards
    each seat played."""

    def __init__(self, game: Game, players: int):
        self.game = game
        self.state: GameState | None = None
        profile = PROFILES[game.id]
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


def play_chunk(task: Task) -> Tally:
    """Play games task.start..task.stop-1 of one (setting, player count) and count them."""
    started = time.perf_counter()
    try:
        game = engine_for(task.deck, task.params)
        game.check_players(task.players)
        kind = _bot_kind(game, "heuristic" if task.bot == "mixed" else task.bot)
    except DeckgenError as error:
        tally = Tally(task.players, metrics=task.metrics)
        tally.add_failure(Failure("setting", task.start, 0, str(error)), games=task.stop - task.start)
        return tally
    profile = PROFILES[game.id]
    tally = Tally(task.players, game.lower_score_wins, tracks_cards=profile.card_plays is not None,
                  metrics=task.metrics)
    for index in range(task.start, task.stop):
        seed = game_seed(task.run_seed, index)
        focus = index % task.players if task.bot == "mixed" else None
        bots = [kind if focus in (None, seat) else "random" for seat in range(task.players)]
        # Every metric, or (for the lightest runs) the counters alone.
        watcher = GameTrace(game, task.players, profile) if task.metrics else _Watcher(game, task.players)
        try:
            record, _ = play_game(game, task.players, seed, bots, index=index, observe=watcher)
        except Exception as error:  # noqa: BLE001 - any engine failure is a finding, reported with its seed
            tally.add_failure(classify(error, watcher.state, index, seed))
            continue
        if task.metrics:
            watcher.close(record.scores)
            watcher.finish(tally.metrics, record.scores, record.winners, record.actions, record.rounds, focus)
            lead_changes = watcher.lead_changes()
        else:
            lead_changes = watcher.finish(record.scores)
        tally.add_game(record.scores, record.winners, record.reason, record.decisions, lead_changes, watcher.plays)
        if record.reason != "finished":  # kept to replay: which position repeats (generator.validate.endings)
            tally.examples.append(Failure(CAPPED, index, seed, ""))
            tally._trim()
    tally.seconds = time.perf_counter() - started  # for sizing the next chunks; not a figure
    return tally


def _bot_kind(game: Game, wanted: str) -> str:
    """The wanted bot, or "random" for an engine without a heuristic player (a search player
    the engine cannot run is an error: its figures would be another player's)."""
    if wanted == "heuristic" and not _has_heuristic(game.deck):
        return "random"
    make_bot(game, wanted, random.Random(0))
    return wanted


# -- a whole playtest -------------------------------------------------------------------------

@dataclass
class Run:
    """The figures of one (setting, player count) for one bot mix."""

    setting: Setting
    players: int
    run_seed: int
    tally: Tally
    bot: str = "heuristic"


@dataclass
class Playtest:
    deck: Deck
    seed: int
    games: int | None  # per run; None when the run played until `precision` was reached
    bot: str
    runs: list[Run] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    skill: list[Run] = field(default_factory=list)  # one heuristic seat among random ones, per run
    precision: float | None = None
    max_games: int | None = None
    reused_chunks: int = 0
    sweeps: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        def run_dict(run: Run) -> dict:
            return {"setting": run.setting.name, "params": dict(run.setting.params), "variant": run.setting.variant,
                    "players": run.players, "run_seed": run.run_seed, "bot": run.bot, **run.tally.as_dict(self.deck)}

        data = {"seed": self.seed, "games_per_run": self.games, "bot": self.bot,
                "runs": [run_dict(run) for run in self.runs]}
        if self.precision is not None:
            data["precision"] = {"target": self.precision, "max_games": self.max_games,
                                 "reached": [precision_reached(run.tally, self.precision) for run in self.runs]}
        if self.skill:
            data["skill"] = [run_dict(run) for run in self.skill]
        return data


def run_seed(seed: int, players: int) -> int:
    return derive_seed(seed, "players", players)


def skill_seed(seed: int, players: int) -> int:
    return derive_seed(seed, "skill", players)


@dataclass(frozen=True)
class _Plan:
    """One run to play: which tasks make it, keyed (setting index, players, bot)."""

    setting_index: int
    setting: Setting
    players: int
    bot: str
    run_seed: int

    @property
    def key(self) -> tuple[int, int, str]:
        return self.setting_index, self.players, self.bot


def tasks(deck: DeckData, plan: _Plan, start: int, stop: int, sizer: ChunkSizer, metrics: bool = True
          ) -> Iterator[Task]:
    """The chunks of games start..stop-1 of a run, each sized when it is handed out."""
    first = start
    while first < stop:
        last = first + sizer.size(plan.key, stop - first)
        yield Task(deck, plan.setting_index, dict(plan.setting.params), plan.players, plan.run_seed, first, last,
                   plan.bot, metrics)
        first = last


CHECKPOINT_CHUNK = 50  # games per chunk when chunks are checkpointed
AUTO_STEP = 250  # with --simulate auto, runs stop only at multiples of this many games
AUTO_FIRST = 500  # ... and start with this many
AUTO_MAX_GAMES = 100_000


def precision_reached(tally: Tally, precision: float) -> bool:
    """Every seat's 95% interval within ± precision of its win rate."""
    return bool(tally.games) and all(max(row["win_rate"] - row["low"], row["high"] - row["win_rate"]) <= precision
                                     for row in tally.seat_rows())


def _next_target(tally: Tally, played: int, precision: float, cap: int) -> int:
    """Games to have played at the next stop: enough for the seat that needs most, by the
    normal approximation at the rates seen so far, rounded up to the step."""
    needed = max((games_for_precision(min(max(w / max(tally.games, 1), 0.01), 0.99), precision)
                  for w in tally.wins), default=played)
    target = max(needed, played + AUTO_STEP)
    return min(cap, -(-target // AUTO_STEP) * AUTO_STEP)


def backend_for(workers: int, cluster: str | None, deck: DeckData, settings: Sequence[Mapping[str, Any]]):
    """This process, a process pool of `workers`, or a Dask `cluster`."""
    if cluster:
        return DaskCluster(cluster)
    if workers <= 1:
        return InProcess()
    # Build each engine once here: forked workers inherit them instead of each building its own.
    for params in settings:
        try:
            engine_for(deck, params)
        except DeckgenError:
            pass  # the workers report it, game by game
    return ProcessPool(workers)


def playtest(deck: Deck, games: int | None = DEFAULT_GAMES, seed: int = 1, workers: int | None = None,
             sweeps: Sequence[str] = (), bot: str = "heuristic",
             progress: Callable[[int, int], None] | None = None, skip_variants: Collection[str] = (), *,
             precision: float | None = None, max_games: int | None = None, skill: bool = True,
             metrics: bool = True, cluster: str | None = None, checkpoint: Path | None = None,
             resume: bool = False) -> Playtest:
    """Play `games` games per setting and player count (or, with `games=None`, until every
    seat's 95% interval is within ± `precision`, at most `max_games`); report dead ends,
    balance and the game-research metrics. `skill` adds mixed runs (one heuristic seat among
    random ones) for CardStock's Order. `progress(done, total)` is called as chunks finish;
    `skip_variants` are left out (their composition is already known to be broken). Chunks
    run in this process, on `workers` processes, or on a Dask `cluster` ("local:N" or an
    address); `checkpoint` keeps finished chunks there and `resume` reuses them."""
    check_bot(bot)
    if games is not None and games > MAX_GAMES:  # None: --simulate auto, capped by max_games
        raise OptionError(f"--simulate {games:,}: at most {MAX_GAMES:,} games per setting and player count")
    if max_games is not None and max_games > MAX_GAMES:
        raise OptionError(f"--max-games {max_games:,}: at most {MAX_GAMES:,}")
    if deck.source is None:
        raise DeckgenError(f"deck {deck.id!r} has no file, so worker processes cannot load it")
    if games is None and not (precision and 0 < precision < 0.5):
        raise OptionError("--simulate auto needs --precision between 0 and 0.5, e.g. --precision 0.01")
    if resume and checkpoint is None:
        raise OptionError("--resume needs --checkpoint DIR: the folder the earlier run kept its chunks in")
    settings, counts = settings_for(deck, sweeps, skip_variants)
    workers = max(1, workers or os.cpu_count() or 1)
    plans = [_Plan(index, setting, players, bot, run_seed(seed, players))
             for index, setting in enumerate(settings) for players in counts]
    if skill and metrics and _has_heuristic(deck):
        plans += [_Plan(p.setting_index, p.setting, p.players, "mixed", skill_seed(seed, p.players)) for p in plans]
    cap = max_games or AUTO_MAX_GAMES
    target = {plan.key: games if games is not None else min(AUTO_FIRST, cap) for plan in plans}
    played = dict.fromkeys(target, 0)
    totals: dict[tuple, Tally] = {}
    checkpoints = Checkpoints(checkpoint, resume, Tally.from_state) if checkpoint is not None else None
    job_deck = DeckData.of(deck)
    backend = backend_for(workers, cluster, job_deck, [setting.params for setting in settings])
    # A fixed size when chunks are checkpointed, so a resumed run finds them.
    sizer = ChunkSizer(backend.workers, CHECKPOINT_CHUNK if checkpoints else None)
    done = 0
    try:
        while any(played[key] < target[key] for key in target):
            stage = [(plan, played[plan.key], target[plan.key]) for plan in plans if played[plan.key] < target[plan.key]]
            stage_tasks = (task for plan, start, stop in stage
                           for task in tasks(job_deck, plan, start, stop, sizer, metrics))
            for task, tally in run_chunks(play_chunk, stage_tasks, backend, checkpoints):
                key = (task.setting, task.players, task.bot)
                sizer.observe(key, task.stop - task.start, getattr(tally, "seconds", 0.0))
                if key in totals:
                    totals[key].merge(tally)
                else:
                    totals[key] = tally
                done += task.stop - task.start
                if progress:
                    progress(done, sum(target.values()))
            for plan, _, stop in stage:
                played[plan.key] = stop
            if games is None:
                for plan in plans:
                    if plan.bot == "mixed":
                        continue
                    tally = totals[plan.key]
                    if not precision_reached(tally, precision) and played[plan.key] < cap and tally.games:
                        target[plan.key] = _next_target(tally, played[plan.key], precision, cap)
                for plan in plans:
                    if plan.bot == "mixed":
                        target[plan.key] = target[plan.setting_index, plan.players, bot]
    finally:
        backend.close()
    result = Playtest(deck, seed, games, bot, precision=precision if games is None else None,
                      max_games=cap if games is None else None,
                      reused_chunks=checkpoints.reused if checkpoints else 0, sweeps=tuple(sweeps))
    for plan in plans:
        run = Run(plan.setting, plan.players, plan.run_seed, totals[plan.key], plan.bot)
        (result.skill if plan.bot == "mixed" else result.runs).append(run)
    result.problems = _problems(deck, result)
    return result


def _has_heuristic(deck: Deck) -> bool:
    try:
        game_for(deck).bot("heuristic", random.Random(0))
    except DeckgenError:
        return False
    return True


# -- findings ---------------------------------------------------------------------------------

def _replay_hint(deck: Deck, run: Run, failure: Failure, bot: str) -> str:
    if failure.kind == "setting":
        return "fix the parameter, or narrow the sweep"
    if run.setting.params and run.setting.variant is None:
        return (f"replay: play_game(game_for(deck, {dict(run.setting.params)}), {run.players}, "
                f"seed={failure.seed}, bots=[{bot!r}] * {run.players})")
    variant = f" --variant {run.setting.variant}" if run.setting.variant else ""
    return (f"replay: deckgen simulate {deck.id} --players {run.players} --seed {run.run_seed} "
            f"--games {failure.index + 1} --bot {bot}{variant} (the last game is the one)")


def _problems(deck: Deck, result: Playtest) -> list[Problem]:
    locate = Locator(deck)
    # Every seat of every run is one test of fairness: together they may raise a false alarm
    # at most 5% of the time.
    seat_z = bonferroni_z(sum(run.players for run in result.runs))
    problems = []
    for run in result.runs:
        tally = run.tally
        field = locate.variant_field(run.setting.variant) if run.setting.variant else (
            "engine" if run.setting.params else "deck.engine")
        where = f"{run.setting.name}, {run.players} players"
        for kind in FAILURE_KINDS:
            if not tally.failures[kind]:
                continue
            example = next(f for f in tally.examples if f.kind == kind)
            seeds = ", ".join(f"game {f.index + 1} seed {f.seed}" for f in tally.examples if f.kind == kind)
            lead = {"setting": "the engine refuses this setting",
                    "engine error": "the engine failed",
                    "no legal action": "dead end: a player had no legal action",
                    "endless": "a game ran past the engine's declared maximum length"}[kind]
            count = "" if kind == "setting" else f" in {tally.failures[kind]} of {tally.played} games ({seeds})"
            problems.append(locate.problem(field, f"{where}: {lead}{count}: {example.message}",
                                           hint=_replay_hint(deck, run, example, result.bot)))
        stalls = stall_note(deck, run.setting.params, run.players, result.bot, tally.examples) if tally.capped else ""
        if tally.games and tally.capped == tally.games:
            problems.append(locate.problem(
                field, f"{where}: no game ended by the rules; all {tally.games} stopped at the engine's length cap{stalls}",
                hint="the game cannot end with this setting: check how it is meant to finish"))
        elif tally.games and wilson(tally.capped, tally.games)[0] > CAPPED_WARNING_SHARE:
            problems.append(locate.problem(
                field, f"{where}: {tally.capped} of {tally.games} games ({tally.capped / tally.games:.0%}) "
                       f"stopped at the engine's length cap instead of ending by the rules{stalls}",
                hint=f"more than {CAPPED_WARNING_SHARE:.0%} of games even allowing for chance; games this long "
                     "may never end at a real table", severity="warning"))
        problems += _seat_balance(locate, field, where, tally, seat_z)
        problems += _card_usage(deck, locate, field, where, tally, result.bot)
    return problems


def _card_usage(deck: Deck, locate: Locator, field: str, where: str, tally: Tally, bot: str) -> list[Problem]:
    if not tally.tracks_cards or not tally.games:
        return []
    profile = PROFILES[deck.engine]
    problems = []
    ending = deck.find_card(profile.ending_card) if profile.ending_card else None
    if ending is not None and not tally.card_plays[ending.code]:
        problems.append(locate.problem(
            field, f"{where}: the {ending.name} never entered play in {tally.games} games, and it is the only "
                   "way a game ends", hint="check what keeps it out: where it starts, the turn cap, the deck size"))
    # Heuristic bots skip cards they undervalue; only random bots, which try every legal
    # action, make a card never played a sign that it cannot be played.
    never = never_played(deck, tally)
    if bot == "random" and never and tally.games >= NEVER_PLAYED_MIN_GAMES:
        problems.append(locate.problem(
            field, f"{where}: never played in {tally.games} games of random play: {', '.join(never)}",
            hint="random bots try every legal play, so these cards may be unplayable: check their conditions",
            severity="warning"))
    return problems


def never_played(deck: Deck, tally: Tally) -> list[str]:
    """Names of the cards nobody played, leaving out the ending card and cards never played by rule."""
    profile = PROFILES[deck.engine]
    return [card.name for card in deck.cards
            if not tally.card_plays[card.code] and not profile.never_played(card) and card.id != profile.ending_card]


def _seat_balance(locate: Locator, field: str, where: str, tally: Tally, z: float) -> list[Problem]:
    """A warning for each seat whose win rate misses the fair share even by an interval at `z`."""
    if tally.games < BALANCE_MIN_GAMES or tally.players < 2:
        return []
    share = tally.fair_share()
    confidence = 1 - 2 * (1 - NormalDist().cdf(z))
    problems = []
    for row in tally.seat_rows(z=z):
        if row["low"] > share or row["high"] < share:
            side = "more" if row["low"] > share else "less"
            problems.append(locate.problem(
                field, f"{where}: seat {row['seat']} wins {row['win_rate']:.1%} of {tally.games} games, "
                       f"{side} than a fair {share:.1%} even allowing for chance ({confidence:.2%} interval "
                       f"{row['low']:.1%}-{row['high']:.1%})",
                hint="look at who starts and who deals; bots play every seat the same way", severity="warning"))
    return problems
