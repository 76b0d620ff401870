"""Playtests by simulation: can the game still end, is it fair, and how does it play?

Games are played by the engines' bots through `generator.games.simulate.play_game` (the
one simulator; its `observe` hook follows each game: `metrics.GameTrace` for every metric,
`chunks.Watcher` for the plain counters). The work is a stream of `Task`s, each a chunk of games
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
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any, Callable, Collection, Iterator, Mapping, Sequence

from ..core.errors import DeckgenError, OptionError, Problem
from ..deck.model import Deck
from ..games.base import game_for
from ..games.bots import check_bot
from ..games.simulate import derive_seed
from .cards import testable
from .chunks import Task, play_chunk
from .cluster import Checkpoints, DaskCluster, InProcess, ProcessPool, run_chunks
from .findings import balance_tested
from .findings import problems as find_problems
from .jobs import ChunkSizer, DeckData, engine_for
from .stats import Family, games_for_precision
from .tally import Tally
from .targets import check_targets, player_problems, skill_plans
from .targets import count as count_targets

DEFAULT_GAMES = 5  # per player count and setting, for `deckgen validate`
MAX_GAMES = 1_000_000  # per player count and setting: hours of play, never a memory problem
BUILD_GAMES = 3  # inside `deckgen build`, which must stay a few seconds
ORDER_MIX = "heuristic/random"  # the skill runs: one heuristic seat among random ones (CardStock's Order)


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
    """A whole playtest of one deck: its runs, their problems, the report's family of tests and
    the deck's targets checked."""

    deck: Deck
    seed: int
    games: int | None  # per run; None when the run played until `precision` was reached
    bot: str
    runs: list[Run] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    skill: list[Run] = field(default_factory=list)  # one focus seat among others ("heuristic/random"), per run
    precision: float | None = None
    max_games: int | None = None
    reused_chunks: int = 0
    sweeps: tuple[str, ...] = ()
    family: Family = Family()  # every test the report makes, for its error rate
    targets: list[dict] = field(default_factory=list)  # the deck's [playtest] targets, checked
    order: bool = True  # whether skill runs for CardStock's Order were played (--skill)

    def figures(self, run: Run) -> dict:
        """Every figure of a run, its card effects tested at the report's level (a run with a
        focus seat reports its skill, not cards: its seats do not play alike)."""
        return run.tally.as_dict(self.deck, self.family, cards=run.bot == self.bot)

    def as_dict(self) -> dict:
        def run_dict(run: Run) -> dict:
            return {"setting": run.setting.name, "params": dict(run.setting.params), "variant": run.setting.variant,
                    "players": run.players, "run_seed": run.run_seed, "bot": run.bot, **self.figures(run)}

        data = {"seed": self.seed, "games_per_run": self.games, "bot": self.bot,
                "family": {"tests": dict(self.family.counts), "alpha": self.family.alpha, "each": self.family.each,
                           "statement": self.family.statement()},
                "targets": self.targets, "runs": [run_dict(run) for run in self.runs]}
        if self.precision is not None:
            data["precision"] = {"target": self.precision, "max_games": self.max_games,
                                 "reached": [precision_reached(run.tally, self.precision) for run in self.runs]}
        if self.skill:
            data["skill"] = [run_dict(run) for run in self.skill]
        return data


def run_seed(seed: int, players: int) -> int:
    """The seed of a run: every setting of one player count shares it, so arms can be paired."""
    return derive_seed(seed, "players", players)


def skill_seed(seed: int, players: int) -> int:
    """The seed of the runs with a focus seat (skill)."""
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


def tasks(deck: DeckData, plan: _Plan, start: int, stop: int, sizer: ChunkSizer, metrics: bool = True,
          keep_games: bool = False) -> Iterator[Task]:
    """The chunks of games start..stop-1 of one run, each sized when it is handed out."""
    first = start
    while first < stop:
        last = first + sizer.size(plan.key, stop - first)
        yield Task(deck, plan.setting_index, dict(plan.setting.params), plan.players, plan.run_seed, first, last,
                   plan.bot, metrics, keep_games and "/" not in plan.bot)
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
             resume: bool = False, keep_games: bool = False) -> Playtest:
    """Play `games` games per setting and player count (or, with `games=None`, until every
    seat's 95% interval is within ± `precision`, at most `max_games`); report dead ends,
    balance and the game-research metrics. `skill` adds mixed runs (one heuristic seat among
    random ones) for CardStock's Order; the deck's skill targets add runs of their players.
    `progress(done, total)` is called as chunks finish; `skip_variants` are left out (their
    composition is already known to be broken). Chunks run in this process, on `workers`
    processes, or on a Dask `cluster` ("local:N" or an address); `checkpoint` keeps finished
    chunks there and `resume` reuses them; `keep_games` keeps each game's key for `--compare`."""
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
        plans += [_Plan(p.setting_index, p.setting, p.players, ORDER_MIX, skill_seed(seed, p.players)) for p in plans]
    if metrics and settings[0].name == "deck rules":
        planned = {plan.key for plan in plans}
        for mix, players in dict.fromkeys(skill_plans(deck, counts)):
            if (0, players, mix) not in planned:
                plans.append(_Plan(0, settings[0], players, mix, skill_seed(seed, players)))
    cap = max_games or AUTO_MAX_GAMES
    target = {plan.key: games if games is not None else min(AUTO_FIRST, cap) for plan in plans}
    played = dict.fromkeys(target, 0)
    totals: dict[tuple, Tally] = {}
    checkpoints = Checkpoints(checkpoint, resume, Tally.from_state) if checkpoint is not None else None
    job_deck = DeckData.of(deck)
    backend = backend_for(workers, cluster, job_deck, [setting.params for setting in settings])
    # A fixed size when chunks are checkpointed, so a resumed run finds them.
    sizer = ChunkSizer(backend.workers, CHECKPOINT_CHUNK if checkpoints else None)
    focus_runs = [plan for plan in plans if "/" in plan.bot]
    done = 0
    try:
        while any(played[key] < target[key] for key in target):
            stage = [(plan, played[plan.key], target[plan.key]) for plan in plans if played[plan.key] < target[plan.key]]
            stage_tasks = (task for plan, start, stop in stage
                           for task in tasks(job_deck, plan, start, stop, sizer, metrics, keep_games))
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
                    if plan in focus_runs:
                        continue
                    tally = totals[plan.key]
                    if not precision_reached(tally, precision) and played[plan.key] < cap and tally.games:
                        target[plan.key] = _next_target(tally, played[plan.key], precision, cap)
                for plan in focus_runs:  # as many games as the run of its setting and player count
                    target[plan.key] = target[plan.setting_index, plan.players, bot]
    finally:
        backend.close()
    result = Playtest(deck, seed, games, bot, precision=precision if games is None else None,
                      max_games=cap if games is None else None,
                      reused_chunks=checkpoints.reused if checkpoints else 0, sweeps=tuple(sweeps), order=skill)
    for plan in plans:
        run = Run(plan.setting, plan.players, plan.run_seed, totals[plan.key], plan.bot)
        (result.skill if plan in focus_runs else result.runs).append(run)
    result.family = Family((("card effects", sum(testable(run.tally.metrics) for run in result.runs)),
                            ("seat win rates", sum(run.players for run in result.runs if balance_tested(run.tally))),
                            ("length-cap shares", sum(1 for run in result.runs if run.tally.games)),
                            ("targets", count_targets(result))))
    result.targets = check_targets(result, result.family)
    result.problems = find_problems(deck, result) + player_problems(deck)
    return result


def _has_heuristic(deck: Deck) -> bool:
    try:
        game_for(deck).bot("heuristic", random.Random(0))
    except DeckgenError:
        return False
    return True
