"""Which cards decide games, from a playtest's card sums (`Metrics.effects`, `Metrics.holding`).

A card's effect is measured with what the players had: the hands as dealt (each round's deal in
trick games, the opening hands in others), where chance alone decides who holds a card. In every
deal where some seats were dealt the card and others not, the holders' outcome (the round's
points in trick games, winning the game in others) is compared with the other seats' in the same
deal; the effect is the mean of those contrasts. Every seat is dealt a card as often as any
other, so with no effect the contrasts average zero whatever each seat's own advantage. The game
is the unit: a game's contrasts are summed before anything is squared, and the standard error
counts games (the delta method on per-game sums, `generator.validate.sums`), so the rounds and
seats of one game never pass for independent samples.

Each card with enough games gets a t-test at the report's level (`stats.Family`: Bonferroni over
every test the report makes). The cards that *decide games* are named only as a group a run with
another seed would name again: the line between named and not named is the lowest one at which
the estimated chance of naming the same group again is at least `REPLICATION`; without such a
line the report says the sample is too small to name them.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from ..deck.model import Deck
from .metrics import MICRO, Metrics
from .stats import Family, t_two_sided_p
from .sums import GameSums, Estimate, estimate, ratio

MIN_GAMES = 30  # games with a contested deal below which a card gets no estimate ("too few games")
NEGLIGIBLE_SD = 0.05  # an effect within ± this many standard deviations of the outcome does not matter
REPLICATION = 0.9  # the least estimated chance that another seed names the same cards
POWER = 0.8  # the power a card's "detectable" effect is given at
Z_POWER = NormalDist().inv_cdf(POWER)
STRONGEST = 40.0  # evidence past this z (p ≈ 1e-350) counts the same: beyond any line

VERDICTS = {"decides": "decides games", "matters": "matters, not settled", "negligible": "never matters",
            "unclear": "unclear", "too few": "too few games"}


def testable(metrics: Metrics | None) -> int:
    """How many cards of these sums get a test: those contested in at least MIN_GAMES games."""
    if metrics is None:
        return 0
    return sum(1 for sums in metrics.effects.values() if sums.games >= MIN_GAMES)


def outcome_sd(metrics: Metrics) -> float:
    """The standard deviation of one seat's outcome in one deal (points, or 0/1 for a win)."""
    moments = metrics.outcome
    if moments.count < 2:
        return 0.0
    mean = moments.total / moments.count
    return math.sqrt(max(moments.squares / moments.count - mean * mean, 0.0)) / MICRO


def card_figures(metrics: Metrics, deck: Deck, family: Family) -> dict:
    """Every card's effect with its interval at the report's level, its verdict, and the cards
    that decide games (if the sample can name them)."""
    negligible = NEGLIGIBLE_SD * outcome_sd(metrics)
    critical: dict[int, float] = {}
    rows = []
    for card in deck.cards:
        sums, holding = metrics.effects.get(card.code), metrics.holding.get(card.code)
        if sums is None and holding is None:
            continue
        row: dict = {"code": card.code, "name": card.name, "games": sums.games if sums else 0,
                     "deals": sums.totals()[1] if sums else 0}
        if sums is not None and sums.games >= MIN_GAMES:
            found = ratio(sums)
            df = found.df
            if df not in critical:
                critical[df] = family.t(df)
            row["effect"] = _effect(found, critical[df])
        if holding is not None:
            row.update(_holding(holding))
        rows.append(row)
    named, chance, line = settle(rows, family)
    for row in rows:
        effect = row.get("effect")
        if effect is None:
            row["verdict"] = "too few"
        elif row["code"] in named:
            row["verdict"] = "decides"
        elif effect["p"] <= family.each:
            row["verdict"] = "matters"
        elif -negligible <= effect["low"] and effect["high"] <= negligible:
            row["verdict"] = "negligible"
        else:
            row["verdict"] = "unclear"
    tested = [row["effect"] for row in rows if "effect" in row]
    return {"unit": "points per round" if metrics.per_round else "win rate", "per_round": metrics.per_round,
            "negligible": round(negligible, 4), "min_games": MIN_GAMES, "confidence": family.confidence(),
            "tests": len(tested), "named": [row["name"] for row in rows if row["verdict"] == "decides"],
            "settled": chance >= REPLICATION, "replication": round(chance, 4), "line": round(line, 3),
            "detectable": round(sorted(e["detectable"] for e in tested)[len(tested) // 2], 4) if tested else None,
            "rows": rows}


def _effect(found: Estimate, critical: float) -> dict:
    value, se = found.value / MICRO, found.se / MICRO
    if se > 0:
        t = value / se
        p = t_two_sided_p(t, found.df)
    else:
        t, p = (math.inf, 0.0) if value else (0.0, 1.0)
    return {"value": round(value, 4), "low": round(value - critical * se, 4), "high": round(value + critical * se, 4),
            "se": round(se, 5), "t": round(t, 3) if math.isfinite(t) else None, "p": float(f"{p:.4g}"),
            "detectable": round((critical + Z_POWER) * se, 4)}


def _holding(holding: GameSums) -> dict:
    """Held and played win rates (seats, counted by game) and Played Impact, with 95% intervals."""
    data = {"held_games": holding.games}
    for name, wins, seats in (("held", 1, 0), ("played", 3, 2)):
        found = ratio(holding, wins, seats)
        if found is not None and holding.totals()[seats]:
            data[name] = _interval(found)
    impact = estimate(holding, lambda m: (m[3] / m[2]) / (m[1] / m[0]) - 1, _impact_gradient)
    if impact is not None and "played" in data:
        data["played_impact"] = _interval(impact)
    return data


def _impact_gradient(m: list[float]) -> list[float]:
    r = (m[3] / m[2]) * (m[0] / m[1])
    return [r / m[0], -r / m[1], -r / m[2], r / m[3]]


def _interval(found: Estimate) -> dict:
    half = NormalDist().inv_cdf(0.975) * found.se
    return {"value": round(found.value, 4), "low": round(found.value - half, 4), "high": round(found.value + half, 4),
            "games": found.games}


def strength(effect: dict) -> float:
    """A test's evidence on the normal scale: the z with the same two-sided p, at most STRONGEST
    (|t| itself where p is too small for a float)."""
    if effect["p"] < 1e-300:
        return min(abs(effect["t"]), STRONGEST) if effect["t"] is not None else STRONGEST
    return min(-NormalDist().inv_cdf(effect["p"] / 2), STRONGEST)


def settle(rows: list[dict], family: Family) -> tuple[set[str], float, float]:
    """The cards a run with another seed would name again: (their codes, the estimated chance it
    names the same set, the line on the z scale). A rerun's z of a card is taken as normal around
    this run's with a variance of 2 (this run's error and the rerun's); a line names the cards
    above it, and the chance of naming the same set again is that of every card falling on the
    same side again. The lowest line (never below the report's critical value) whose chance is at
    least REPLICATION names the most cards that can be named so; without one, nothing is named."""
    scored = [(strength(row["effect"]), row["code"]) for row in rows if "effect" in row]
    if not scored:
        return set(), 1.0, family.z
    values = sorted(z for z, _ in scored)
    lines = [family.z] + [(a + b) / 2 for a, b in zip(values, values[1:]) if (a + b) / 2 > family.z]
    spread = math.sqrt(2)
    best_chance, best_line = -1.0, family.z
    for line in lines:
        chance = 1.0
        for z, _ in scored:
            chance *= NormalDist().cdf(abs(z - line) / spread)
        if chance >= REPLICATION:
            return {code for z, code in scored if z >= line}, chance, line
        if chance > best_chance:
            best_chance, best_line = chance, line
    return set(), best_chance, best_line
