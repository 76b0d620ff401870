"""The ladder of players (`deckgen validate DECK --ladder`): does a better player win more?

A ladder is a list of levels, weakest first: bot names such as random, heuristic, pimc-10,
ismcts-50, ismcts-200 (generator.games.bots). Every ordered pair (A, B) of different levels is
a cell of the win-rate matrix: on each of D deals, n games with A in one seat and B in all the
others, A taking every seat in turn. The n games of a deal share its seed, so they share the
deal and the seats' generators: a *deal set*, like duplicate bridge's boards. A cell's figure
is A's share of the wins (a win shared by k counts 1/k), the fair share being 1/n.

The unit is the deal set: its share (the mean over its n games) is one independent draw, and
the cell's interval is Student's t over the D deal sets. A step up the ladder holds when the
upper level's share against the level below has the lower end of its 95% interval above the
fair share; the report warns about every step that does not.

Cells are played in chunks of deal sets by the playtest's backends (this process, a process
pool, a Dask cluster), as plain data; every figure is a sum of integers (shares in 1/420ths,
which every k up to 7 divides), so any chunking or backend gives the same bytes.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from math import sqrt
from statistics import NormalDist
from typing import Any, Callable, Mapping, Sequence

from ..core.errors import OptionError, Problem
from ..deck.locate import Locator
from ..deck.model import Deck
from ..games.bots import check_bot, make_bot
from ..games.simulate import derive_seed, game_seed, play_game
from .cluster import run_chunks
from .jobs import ChunkSizer, DeckData, engine_for
from .playtest import backend_for

DEFAULT_LEVELS = "random,heuristic,pimc-8,ismcts-50,ismcts-200"
DEFAULT_DEALS = 20
MAX_DEALS = 100_000
SHARE_UNIT = 420  # a win shared by k (k <= 7) is 420 / k whole units
CONFIDENCE = 0.95


@dataclass(frozen=True)
class LadderTask:
    """Deal sets start..stop-1 of one cell: `top` in one seat (each in turn), `field` in the others."""

    deck: DeckData
    setting: int  # the cell's number, so backends order results as they do a playtest's
    params: Mapping[str, Any]
    players: int
    run_seed: int
    start: int
    stop: int
    top: str
    field: str


class CellTally:
    """Counts of one cell over deal sets: merge-able in any order."""

    def __init__(self) -> None:
        self.deals = 0
        self.games = 0
        self.capped = 0  # games stopped by the engine's length cap
        self.units = 0  # the top level's wins, in 1/SHARE_UNIT
        self.squares = 0  # sum over deal sets of (its units) squared
        self.failures: Counter[str] = Counter()  # engine errors, by message (the first few kept)

    def merge(self, other: "CellTally") -> None:
        self.deals += other.deals
        self.games += other.games
        self.capped += other.capped
        self.units += other.units
        self.squares += other.squares
        self.failures.update(other.failures)

    def state(self) -> dict:
        return {"deals": self.deals, "games": self.games, "capped": self.capped, "units": self.units,
                "squares": self.squares, "failures": sorted(self.failures.items())}

    def share(self, players: int) -> tuple[float | None, float | None, float | None]:
        """The top level's share of the wins, and its interval over deal sets."""
        if not self.deals:
            return None, None, None
        scale = players * SHARE_UNIT
        mean = self.units / scale / self.deals
        if self.deals < 2:
            return mean, None, None
        variance = max(self.squares / scale ** 2 - self.deals * mean * mean, 0.0) / (self.deals - 1)
        half = t_quantile(self.deals - 1) * sqrt(variance / self.deals)
        return mean, max(0.0, mean - half), min(1.0, mean + half)


def t_quantile(df: int, confidence: float = CONFIDENCE) -> float:
    """Student's t quantile for a two-sided interval (Cornish-Fisher expansion: within 0.001
    of the tables for df >= 3; a little wide below that)."""
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    terms = ((z ** 3 + z) / 4, (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
             (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
             (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160)
    return z + sum(term / df ** (power + 1) for power, term in enumerate(terms))


def play_cell_chunk(task: LadderTask) -> CellTally:
    """Play deal sets task.start..task.stop-1 of one cell and count them."""
    started = time.perf_counter()
    tally = CellTally()
    game = engine_for(task.deck, task.params)
    n = task.players
    for deal in range(task.start, task.stop):
        seed = game_seed(task.run_seed, deal)
        units = 0
        for seat in range(n):
            bots = [task.field] * n
            bots[seat] = task.top
            try:
                record, _ = play_game(game, n, seed, bots, index=deal)
            except Exception as error:  # noqa: BLE001 - an engine failure is a finding, counted with its seed
                tally.failures[f"{type(error).__name__}: {error} (deal {deal}, seed {seed})"] += 1
                continue
            tally.games += 1
            tally.capped += record.reason != "finished"
            if seat in record.winners:
                units += SHARE_UNIT // len(record.winners)
        tally.deals += 1
        tally.units += units
        tally.squares += units * units
    tally.seconds = time.perf_counter() - started  # for sizing the next chunks; not a figure
    return tally


@dataclass
class Ladder:
    """The win-rate matrix of one player count."""

    levels: tuple[str, ...]
    players: int
    deals: int
    seed: int
    cells: dict[tuple[str, str], CellTally] = field(default_factory=dict)

    @property
    def fair(self) -> float:
        return 1 / self.players

    def cell(self, top: str, against: str) -> dict:
        tally = self.cells[top, against]
        share, low, high = tally.share(self.players)
        return {"top": top, "field": against, "deals": tally.deals, "games": tally.games, "capped": tally.capped,
                "failures": sum(tally.failures.values()), "share": _round(share), "low": _round(low),
                "high": _round(high)}

    def steps(self) -> list[dict]:
        """Each level against the one below: does it win more than its fair share, at 95%?"""
        found = []
        for lower, upper in zip(self.levels, self.levels[1:]):
            row = self.cell(upper, lower)
            found.append({"upper": upper, "lower": lower, "share": row["share"], "low": row["low"],
                          "high": row["high"], "holds": row["low"] is not None and row["low"] > self.fair})
        return found

    def as_dict(self) -> dict:
        return {"levels": list(self.levels), "players": self.players, "deals": self.deals, "seed": self.seed,
                "fair_share": _round(self.fair), "confidence": CONFIDENCE,
                "cells": [self.cell(top, against) for top, against in self.cells],
                "steps": self.steps()}

    def text(self) -> str:
        width = max(9, *map(len, self.levels)) + 2
        lines = [f"Ladder, {self.players} players: each cell is the row player's share of the wins in one seat "
                 f"against the column's players in the others, over {self.deals} deals x {self.players} seats "
                 f"(fair share {self.fair:.1%})",
                 " " * width + "".join(f"{level:>{width}}" for level in self.levels)]
        for top in self.levels:
            cells = []
            for against in self.levels:
                share = self.cell(top, against)["share"] if (top, against) in self.cells else None
                cells.append(f"{'-' if share is None else f'{share:.1%}':>{width}}")
            lines.append(f"{top:<{width}}" + "".join(cells))
        for step in self.steps():
            interval = (f"{step['low']:.1%}-{step['high']:.1%}" if step["low"] is not None else "too few deals")
            verdict = "holds" if step["holds"] else "NOT shown"
            lines.append(f"  {step['upper']} over {step['lower']}: {step['share']:.1%} of the wins "
                         f"({CONFIDENCE:.0%} interval {interval}): {verdict}")
        capped = sum(tally.capped for tally in self.cells.values())
        games = sum(tally.games for tally in self.cells.values())
        lines.append(f"  {games} games, {capped} stopped by the length cap")
        return "\n".join(lines)

    def problems(self, deck: Deck) -> list[Problem]:
        locate = Locator(deck)
        found = []
        for step in self.steps():
            if not step["holds"]:
                shown = "no interval" if step["low"] is None else f"{step['low']:.1%}-{step['high']:.1%}"
                found.append(locate.problem(
                    "deck.engine", f"ladder, {self.players} players: {step['upper']} does not beat {step['lower']} at "
                                   f"{CONFIDENCE:.0%}: {step['share']:.1%} of the wins ({shown}) against a fair "
                                   f"{self.fair:.1%}, {self.deals} deals",
                    hint="more deals narrow the interval; if it stays, the better player's skill barely shows here",
                    severity="warning"))
        for (top, against), tally in self.cells.items():
            for message in list(tally.failures)[:1]:
                found.append(locate.problem("deck.engine", f"ladder, {top} against {against}: the engine failed "
                                                           f"in {sum(tally.failures.values())} games: {message}"))
        return found


def _cell_line(result: Ladder, key: tuple[str, str], finished: str, seconds: float) -> str:
    """One finished cell, for a log: its figure, interval, games and the time so far."""
    row = result.cell(*key)
    interval = f"{row['low']:.1%}-{row['high']:.1%}" if row["low"] is not None else "no interval"
    return (f"ladder, {result.players} players: {key[0]} against {key[1]}: {row['share']:.1%} of the wins "
            f"({CONFIDENCE:.0%} interval {interval}), {row['deals']} deals, {row['games']} games; "
            f"{finished} pairings done, {seconds:.0f} s so far")


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def parse_levels(text: str) -> tuple[str, ...]:
    levels = tuple(check_bot(part.strip()) for part in text.split(",") if part.strip())
    if len(levels) < 2 or len(set(levels)) != len(levels):
        raise OptionError(f"--levels {text!r}: name two or more different players, weakest first, "
                          f"e.g. {DEFAULT_LEVELS}")
    return levels


def ladder(deck: Deck, levels: Sequence[str], players: int, deals: int = DEFAULT_DEALS, seed: int = 1,
           workers: int = 1, cluster: str | None = None, progress: Callable[[int, int], None] | None = None,
           full: bool = True, announce: Callable[[str], None] | None = None) -> Ladder:
    """Play every cell of the ladder's matrix at one player count (the deck's own rules), or with
    `full=False` only the steps (each level in one seat against the level below).
    `progress(done, total)` follows the deal sets; `announce(line)` gets a line as each cell
    (pairing) is complete, with its figure and time, for logs where no progress bar shows."""
    if not 2 <= deals <= MAX_DEALS:
        raise OptionError(f"--deals {deals:,}: give 2 to {MAX_DEALS:,} deals per cell (an interval needs two)")
    job_deck = DeckData.of(deck)
    game = engine_for(job_deck, {})
    game.check_players(players)
    for level in levels:  # a player the engine cannot have is an error now, not a failure in every game
        make_bot(game, level, random.Random(0))
    result = Ladder(tuple(levels), players, deals, seed)
    pairs = ([(top, against) for top in levels for against in levels if top != against] if full
             else list(zip(levels[1:], levels)))
    run_seed = derive_seed(seed, "ladder", players)
    backend = backend_for(workers, cluster, job_deck, [{}])
    sizer = ChunkSizer(backend.workers)

    def tasks():
        for number, (top, against) in enumerate(pairs):
            first = 0
            while first < deals:
                last = first + sizer.size(number, deals - first)
                yield LadderTask(job_deck, number, {}, players, run_seed, first, last, top, against)
                first = last

    done = finished = 0
    started = time.perf_counter()
    try:
        for task, tally in run_chunks(play_cell_chunk, tasks(), backend):
            sizer.observe(task.setting, task.stop - task.start, getattr(tally, "seconds", 0.0))
            key = (task.top, task.field)
            if key in result.cells:
                result.cells[key].merge(tally)
            else:
                result.cells[key] = tally
            done += task.stop - task.start
            if progress:
                progress(done, deals * len(pairs))
            if result.cells[key].deals == deals:
                finished += 1
                if announce:
                    announce(_cell_line(result, key, f"{finished} of {len(pairs)}", time.perf_counter() - started))
    finally:
        backend.close()
    result.cells = {pair: result.cells[pair] for pair in pairs}  # in the matrix's order, whatever finished first
    return result
