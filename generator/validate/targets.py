"""The deck's [playtest] targets, checked against a playtest: for every target and player count,
the figure with its interval at the report's level (`stats.Family`) and a verdict. A target
*holds* when the whole interval meets it, *misses* when the whole interval fails it, and is
*unclear* otherwise (more games would tell); a skill gap between players the engine does not
have is *not evaluated*, with a warning at its line.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Iterator

from ..core.errors import DeckgenError, Problem
from ..deck.locate import Locator
from ..deck.model import Deck, SkillTarget
from ..games.base import game_for
from ..games.bots import BOT_KINDS, make_bot
from .metrics import MICRO
from .stats import Family, median_interval, wilson

if TYPE_CHECKING:
    from .playtest import Playtest, Run

HOLDS, MISSES, UNCLEAR, NOT_EVALUATED = "holds", "misses", "unclear", "not evaluated"


def mix_name(target: SkillTarget) -> str:
    """The bot mix (`chunks.Task.bot`) whose games measure a skill gap: one `player` seat, `beats` elsewhere."""
    return f"{target.player}/{target.beats}"


def available(deck: Deck, player: str) -> bool:
    """Whether the deck's engine has a player of this name."""
    try:
        make_bot(game_for(deck), player, random.Random(0))
    except DeckgenError:
        return False
    return True


def player_problems(deck: Deck) -> list[Problem]:
    """A warning for each skill gap naming a player this engine does not have: it is not checked."""
    locate = Locator(deck)
    found = []
    for target in deck.playtest.skill:
        for role in ("player", "beats"):
            name = getattr(target, role)
            if not available(deck, name):
                found.append(locate.problem(
                    f"{target.field}.{role}", f"no player {name!r} for the {deck.engine} engine, so this skill gap is "
                    "not checked", hint=f"players deckgen knows: {', '.join(BOT_KINDS)}",
                    severity="warning"))
    return found


def skill_plans(deck: Deck, counts: list[int]) -> Iterator[tuple[str, int]]:
    """(bot mix, player count) of every skill gap the engine can play, for the playtest to plan."""
    for target in deck.playtest.skill:
        if available(deck, target.player) and available(deck, target.beats):
            for players in _counts(target.players or deck.playtest.players, counts):
                yield mix_name(target), players


def _counts(wanted: tuple[int, ...], played: list[int]) -> list[int]:
    return [count for count in played if not wanted or count in wanted]


def _base_runs(playtest: "Playtest") -> dict[int, "Run"]:
    """The deck's own rules, by player count: the runs targets are checked on."""
    return {run.players: run for run in playtest.runs if run.setting.name == "deck rules" and run.tally.games}


def count(playtest: "Playtest") -> int:
    """How many target checks this playtest makes (tests of the report's family)."""
    return sum(1 for check in _checks(playtest, Family()) if check["verdict"] != NOT_EVALUATED)


def check_targets(playtest: "Playtest", family: Family) -> list[dict]:
    """Every target at every player count it is for, with its figure, interval and verdict."""
    return list(_checks(playtest, family))


def _checks(playtest: "Playtest", family: Family) -> Iterator[dict]:
    targets = playtest.deck.playtest
    if not targets:
        return
    base = _base_runs(playtest)
    counts = sorted(base)
    for players in _counts(targets.players, counts):
        tally = base[players].tally
        if targets.first_seat_win is not None:
            low, high = targets.first_seat_win
            yield _band("first_seat_win", f"seat 1 wins {low:.0%}–{high:.0%} of games", players, family,
                        _share(tally.wins[0], tally.games, family), targets.first_seat_win)
        if targets.median_length is not None:
            found = median_interval(tally.lengths, family.each)
            value = {"value": found[0], "low": found[1], "high": found[2], "games": tally.games} if found else None
            low, high = targets.median_length
            yield _band("median_length", f"a game takes a median {low}–{high} moves", players, family, value,
                        targets.median_length)
        if targets.timeouts_below is not None:
            value = _share(tally.capped, tally.games, family)
            limit = targets.timeouts_below
            verdict = HOLDS if value["high"] < limit else MISSES if value["low"] > limit else UNCLEAR
            yield _check("timeouts_below", f"the length cap stops under {limit:.1%} of games", players, family,
                         value, verdict)
    mixes = {(run.bot, run.players): run for run in playtest.skill if run.setting.name == "deck rules"}
    for target in targets.skill:
        wanted = f"{target.player} beats {target.beats} at least {target.at_least:.0%} of the time"
        for players in _counts(target.players or targets.players, counts):
            run = mixes.get((mix_name(target), players))
            if run is None or run.tally.metrics is None or not run.tally.metrics.focus_games:
                missing = [name for name in (target.player, target.beats) if not available(playtest.deck, name)]
                note = (f"the {playtest.deck.engine} engine has no player {' or '.join(map(repr, missing))}" if missing
                        else "no games were played")
                yield {**_check(target.field, wanted, players, family, None, NOT_EVALUATED), "note": note}
                continue
            value = _mean(run.tally.metrics.focus_beats, family)
            verdict = (HOLDS if value["low"] >= target.at_least else MISSES if value["high"] < target.at_least
                       else UNCLEAR)
            yield _check(target.field, wanted, players, family, value, verdict)


def _share(count: int, games: int, family: Family) -> dict:
    low, high = wilson(count, games, family.z)
    return {"value": round(count / games, 4) if games else None, "low": round(low, 4), "high": round(high, 4),
            "games": games}


def _mean(moments, family: Family) -> dict:
    n = moments.count
    mean = moments.total / n / MICRO
    variance = max(moments.squares / n / MICRO ** 2 - mean * mean, 0.0) * n / max(n - 1, 1)
    half = family.t(max(n - 1, 1)) * math.sqrt(variance / n) if n > 1 else math.inf
    return {"value": round(mean, 4), "low": round(max(mean - half, 0.0), 4), "high": round(min(mean + half, 1.0), 4),
            "games": n}


def _band(name: str, wanted: str, players: int, family: Family, value: dict | None, band) -> dict:
    low, high = band
    if value is None:
        return _check(name, wanted, players, family, None, NOT_EVALUATED)
    verdict = (HOLDS if low <= value["low"] and value["high"] <= high
               else MISSES if value["high"] < low or value["low"] > high else UNCLEAR)
    return _check(name, wanted, players, family, value, verdict)


def _check(name: str, wanted: str, players: int, family: Family, value: dict | None, verdict: str) -> dict:
    field = name if name.startswith("playtest.") else f"playtest.{name}"
    return {"target": field, "wanted": wanted, "players": players, "verdict": verdict,
            "confidence": family.confidence(), **(value or {})}
