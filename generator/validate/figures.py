"""Figures with intervals from a playtest's counts (definitions: docs/playtesting.md).

Pure functions of the merged aggregates: the same counts give the same figures whatever
order the games were played in or however many machines played them.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING

from ..deck.model import Deck
from ..games.simulate import _distribution as distribution
from .cards import card_figures
from .metrics import MICRO, RATE_BINS, Metrics
from .stats import Z95, Family, wilson

if TYPE_CHECKING:
    from .tally import Tally


def rate(count: int, total: int) -> dict:
    """A share with its 95% Wilson interval and the number of games it rests on."""
    share, low, high = _rounded_rate(count, total)
    return {"count": count, "of": total, "rate": share, "low": low, "high": high}


@lru_cache(maxsize=1 << 16)  # the same few counts recur across the cards and runs of a report
def _rounded_rate(count: int, total: int) -> tuple[float | None, float, float]:
    low, high = wilson(count, total)
    return round(count / total, 4) if total else None, round(low, 4), round(high, 4)


def _distribution(counts: Counter[int]) -> dict:
    return distribution(counts)


def _mean(moments) -> dict:
    """Mean of a per-game figure with a 95% interval (normal approximation) and its histogram."""
    n = moments.count
    if not n:
        return {"games": 0}
    mean = moments.total / n / MICRO
    variance = max(moments.squares / n / MICRO ** 2 - mean * mean, 0.0)
    half = Z95 * math.sqrt(variance / n) if n > 1 else float("inf")
    digits = 3 if moments.kind == "rate" or abs(mean) < 10 else 1
    low, high = mean - half, mean + half
    if moments.kind == "rate":  # a share's interval stays within 0..1
        low, high = max(low, 0.0), min(high, 1.0)
    data = {"games": n, "mean": round(mean, digits), "sd": round(math.sqrt(variance), digits),
            "low": round(low, digits) if n > 1 else None, "high": round(high, digits) if n > 1 else None}
    if moments.kind == "rate":
        data["histogram"] = [[b / RATE_BINS, (b + 1) / RATE_BINS, moments.histogram.get(b, 0)] for b in range(RATE_BINS)]
    elif moments.kind == "points":
        data["histogram"] = sorted([k, k + 1, v] for k, v in moments.histogram.items())
    return data


def balance(wins: list[int], games: int) -> dict:
    """1 − the largest gap between two seats' win rates, with an approximate 95% interval
    (multinomial variance of the two extreme seats' difference)."""
    if games == 0 or len(wins) < 2:
        return {"games": games, "value": None}
    high_seat = max(range(len(wins)), key=lambda s: wins[s])
    low_seat = min(range(len(wins)), key=lambda s: wins[s])
    pa, pb = wins[high_seat] / games, wins[low_seat] / games
    gap = pa - pb
    se = math.sqrt(max(pa + pb - gap * gap, 0.0) / games)
    return {"games": games, "value": round(1 - gap, 3), "low": round(max(0.0, 1 - gap - Z95 * se), 3),
            "high": round(min(1.0, 1 - gap + Z95 * se), 3), "seats": [high_seat + 1, low_seat + 1]}


def figures(tally: "Tally", deck: Deck, family: Family, cards: bool = True) -> dict:
    """Every metric of one run with its interval; the card figures (`generator.validate.cards`)
    when `cards`, tested at the report's level `family`."""
    metrics: Metrics = tally.metrics
    games = tally.games
    played = tally.played
    fair = 1 / tally.players
    first = rate(tally.wins[0], games)
    outcome = {
        "balance": balance(tally.wins, games),
        "first_seat": {**first, "fair": round(fair, 4),
                       "advantage": round(first["rate"] - fair, 4) if first["rate"] is not None else None},
        "completion": rate(games - tally.capped - metrics.no_winner, played),
        "drawishness": rate(metrics.shared + metrics.no_winner, games),
        "timeouts": rate(tally.capped, games),
    }
    mean_branching = sum(k * v for k, v in metrics.branching.items()) / max(metrics.player_states, 1)
    choice = {"decision_moves": rate(metrics.choice_states, metrics.player_states),
              "branching": {**_distribution(metrics.branching), "mean": round(mean_branching, 3)}}
    duration = {"turns": _distribution(tally.lengths), "actions": _distribution(metrics.actions),
                "rounds": _distribution(metrics.rounds)}
    data = {"games": games, "outcome": outcome, "duration": duration, "choice": choice,
            "tension": {name: _mean(moments) for name, moments in metrics.tension.items()}}
    if metrics.focus_games:
        data["skill"] = skill(metrics)
    if metrics.tracks_cards and cards:
        data["cards"] = card_figures(metrics, deck, family)
    return data


def skill(metrics: Metrics) -> dict:
    """CardStock's Order: how much better one heuristic seat does than a fair share among
    random seats, (w − 1/n) / (1 − 1/n); 0 is no skill, 1 always wins."""
    n = metrics.players
    won = rate(metrics.focus_wins, metrics.focus_games)

    def order(w: float) -> float:
        return round((w - 1 / n) / (1 - 1 / n), 3)

    return {"heuristic_win_rate": won, "order": order(won["rate"]), "low": order(won["low"]),
            "high": order(won["high"]), "games": metrics.focus_games, "beats": _mean(metrics.focus_beats)}
