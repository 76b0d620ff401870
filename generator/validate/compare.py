"""`deckgen validate OLD NEW --compare`: do two decks (or a deck's rules and each of its
variants) play differently? Per player count, each seat's win rate is compared with a
two-proportion z-test, Holm-corrected across the seats and player counts, and the mean game
length with Welch's test; each comparison says its power to find a difference of the
precision asked for and the smallest difference these games would find at 80% power."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..core.errors import OptionError
from .stats import detectable_difference, newcombe, two_proportion_p, two_proportion_power, welch_p

if TYPE_CHECKING:
    from .playtest import Playtest, Run

ALPHA = 0.05
POWER = 0.8


def arms(first: "Playtest", second: "Playtest | None") -> list[tuple[str, "Run", str, "Run"]]:
    """The pairs of runs to compare: the same player count in two decks, or in one deck its
    rules against each variant."""
    if second is not None:
        pairs = []
        for a in first.runs:
            for b in second.runs:
                if a.players == b.players and not a.setting.params and not b.setting.params:
                    pairs.append((first.deck.id, a, second.deck.id, b))
        if not pairs:
            raise OptionError(f"--compare: {first.deck.id} and {second.deck.id} share no player count")
        return pairs
    base = [run for run in first.runs if not run.setting.params]
    others = [run for run in first.runs if run.setting.params]
    if not others:
        raise OptionError(f"--compare: give two decks, or a deck with variants ({first.deck.id} has none)")
    return [(f"{first.deck.id} {a.setting.name}", a, f"{first.deck.id} {b.setting.name}", b)
            for b in others for a in base if a.players == b.players]


def _holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error across all seats compared)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def compare(first: "Playtest", second: "Playtest | None", precision: float = 0.01) -> dict:
    """Every pair of runs, seat by seat, with the tests, their power and a verdict."""
    rows = []
    for name_a, a, name_b, b in arms(first, second):
        ta, tb = a.tally, b.tally
        seats = []
        for seat in range(a.players):
            wa, wb = ta.wins[seat], tb.wins[seat]
            low, high = newcombe(wa, ta.games, wb, tb.games)
            pooled = (wa + wb) / max(ta.games + tb.games, 1)
            seats.append({"seat": seat + 1, "a": round(wa / ta.games, 4) if ta.games else None,
                          "b": round(wb / tb.games, 4) if tb.games else None,
                          "difference": round((wb / tb.games if tb.games else 0) - (wa / ta.games if ta.games else 0), 4),
                          "low": round(-high, 4), "high": round(-low, 4),
                          "p": two_proportion_p(wa, ta.games, wb, tb.games),
                          "power": round(two_proportion_power(pooled, precision, ta.games, tb.games, ALPHA), 3),
                          "detectable": round(detectable_difference(pooled, ta.games, tb.games, ALPHA, POWER), 4)})
        rows.append({"a": name_a, "b": name_b, "players": a.players, "games": [ta.games, tb.games], "seats": seats,
                     "length": _length(ta, tb)})
    adjusted = _holm([seat["p"] for row in rows for seat in row["seats"]])
    flat = [seat for row in rows for seat in row["seats"]]
    for seat, p in zip(flat, adjusted):
        seat["p"] = float(f"{seat['p']:.4g}")
        seat["p_holm"] = float(f"{p:.4g}")
        seat["differs"] = p < ALPHA
    return {"test": "two-proportion z-test per seat (pooled), Holm-corrected across seats and player counts; "
                    "Welch's test for mean game length",
            "alpha": ALPHA, "power_at": precision, "rows": rows}


def _length(ta, tb) -> dict:
    def moments(counts):
        n = sum(counts.values())
        mean = sum(k * v for k, v in counts.items()) / n if n else 0.0
        variance = sum(v * (k - mean) ** 2 for k, v in counts.items()) / (n - 1) if n > 1 else 0.0
        return n, mean, variance

    na, ma, va = moments(ta.lengths)
    nb, mb, vb = moments(tb.lengths)
    se = math.sqrt(va / na + vb / nb) if na and nb else 0.0
    return {"a": round(ma, 2), "b": round(mb, 2), "difference": round(mb - ma, 2),
            "low": round(mb - ma - 1.959964 * se, 2), "high": round(mb - ma + 1.959964 * se, 2),
            "p": float(f"{welch_p(na, ma, va, nb, mb, vb):.4g}")}


def comparison_text(result: dict) -> list[str]:
    lines = [f"compare: {result['test']} (alpha {result['alpha']})"]
    for row in result["rows"]:
        games = f"{row['games'][0]} and {row['games'][1]} games"
        lines.append(f"  {row['a']} vs {row['b']}, {row['players']} players ({games}):")
        for seat in row["seats"]:
            verdict = "differs" if seat["differs"] else "no difference found"
            lines.append(f"    seat {seat['seat']}: {seat['a']:.1%} -> {seat['b']:.1%} "
                         f"({seat['difference'] * 100:+.1f} points, 95% {seat['low'] * 100:+.1f} to "
                         f"{seat['high'] * 100:+.1f}; Holm p {seat['p_holm']}): {verdict}; power "
                         f"{seat['power']:.0%} to find {result['power_at'] * 100:g} point(s), 80% power at "
                         f"{seat['detectable'] * 100:.1f} points")
        length = row["length"]
        lines.append(f"    moves per game: {length['a']} -> {length['b']} ({length['difference']:+}, "
                     f"95% {length['low']:+} to {length['high']:+}; Welch p {length['p']})")
    return lines
