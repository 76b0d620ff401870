"""The first things a designer reads about a playtest, for the terminal and the report's first
screen alike: the verdict on each of the deck's targets, and the three findings that matter
most, each with how sure the report is of it. Findings come from the deck's own rules, every
player count: a seat that wins more or less than its share, the cards that decide games, games
the length cap stops, and how much a better player wins. Each passed the report's test
(`stats.Family`); cards are named only when another seed would name them again (`cards.settle`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .cards import MIN_GAMES
from .findings import CAPPED_WARNING_SHARE, balance_tested
from .stats import wilson

if TYPE_CHECKING:
    from .playtest import Playtest, Run

MOST = 3  # findings on the first screen
KINDS = ("timeouts", "seats", "cards", "skill")  # the order findings of equal standing are picked in


def _base(playtest: "Playtest") -> list["Run"]:
    return [run for run in playtest.runs if run.setting.name == "deck rules" and run.tally.games] or \
        [run for run in playtest.runs if run.tally.games]


def level(playtest: "Playtest") -> str:
    """The confidence of one test of this report, e.g. "99.91%"."""
    return percent_text(playtest.family.confidence())


def percent_text(confidence: float) -> str:
    """A confidence with the digits that tell it from 100%: 95%, 99.912%, 99.9965%."""
    miss = (1 - confidence) * 100
    decimals = 0 if miss >= 1 else max(0, math.ceil(-math.log10(miss)) + 1) if miss > 0 else 0
    return f"{confidence * 100:.{decimals}f}%"


def findings(playtest: "Playtest") -> list[dict]:
    """Every finding that passed the report's test, each {kind, strength, text}; strongest first
    within each kind."""
    found: dict[str, list[dict]] = {kind: [] for kind in KINDS}
    confidence = level(playtest)
    z = playtest.family.z
    for run in _base(playtest):
        tally = run.tally
        where = f"{run.players}-player games"
        low, high = wilson(tally.capped, tally.games, z)
        if low > CAPPED_WARNING_SHARE:
            found["timeouts"].append({"kind": "timeouts", "strength": low, "text":
                                      f"The length cap stops {tally.capped / tally.games:.0%} of {where} "
                                      f"({confidence} interval {low:.0%}–{high:.0%}, {tally.games:,} games): "
                                      "they do not end by the rules."})
        if balance_tested(tally):
            fair = tally.fair_share()
            for row in tally.seat_rows(z=z):
                if row["low"] > fair or row["high"] < fair:
                    gap = row["win_rate"] - fair
                    found["seats"].append({"kind": "seats", "strength": abs(gap) / max(row["high"] - row["low"], 1e-9),
                                           "text": f"Seat {row['seat']} wins {row['win_rate']:.0%} of {where}, "
                                                   f"{abs(gap) * 100:.0f} points {'more' if gap > 0 else 'less'} than "
                                                   f"a fair {fair:.0%} ({confidence} interval {row['low']:.0%}–"
                                                   f"{row['high']:.0%}, {tally.games:,} games)."})
        cards = (playtest.figures(run).get("metrics") or {}).get("cards")
        if cards and cards["settled"]:
            for row in cards["rows"]:
                if row["verdict"] == "decides":
                    found["cards"].append({"kind": "cards", "strength": abs(row["effect"]["t"] or 1e9),
                                           "text": card_sentence(row, cards, where, confidence)})
    for run in playtest.skill:
        metrics = run.tally.metrics
        if run.setting.name != "deck rules" or metrics is None or not metrics.focus_games:
            continue
        skill = playtest.figures(run)["metrics"]["skill"]
        won = skill["heuristic_win_rate"]
        low, high = wilson(won["count"], won["of"], z)
        share = 1 / run.players
        if low > share:
            focus, _, others = run.bot.partition("/")
            found["skill"].append({"kind": "skill", "strength": (low - share) / max(high - low, 1e-9),
                                   "text": f"One {focus} player among {others} ones wins {won['rate']:.0%} of "
                                           f"{run.players}-player games against a fair {share:.0%} ({confidence} "
                                           f"interval {low:.0%}–{high:.0%}, {won['of']:,} games): play matters."})
    for kind in KINDS:
        found[kind].sort(key=lambda finding: -finding["strength"])
    return [finding for kind in KINDS for finding in found[kind]]


def card_sentence(row: dict, cards: dict, where: str, confidence: str) -> str:
    """One card that decides games, in words, with its interval, games and replication."""
    effect = row["effect"]
    if cards["per_round"]:
        size = f"{abs(effect['value']):.1f} points a round {'more' if effect['value'] > 0 else 'less'}"
        interval = f"{effect['low']:+.1f} to {effect['high']:+.1f}"
        whom = "than the other seats in the same round"
    else:
        size = f"{abs(effect['value']) * 100:.0f} points of win rate {'more' if effect['value'] > 0 else 'less'}"
        interval = f"{effect['low'] * 100:+.0f} to {effect['high'] * 100:+.0f}"
        whom = "than the other seats of the same game"
    return (f"{row['name']} decides {where}: the seat dealt it scores {size} {whom} ({confidence} interval "
            f"{interval}, {row['games']:,} games); another seed would name the same cards with an estimated "
            f"{cards['replication']:.0%} chance.")


def top(playtest: "Playtest") -> list[dict]:
    """The MOST findings that matter most: the strongest of each kind in turn (timeouts, seats,
    cards, skill), then the next of each, so one kind does not crowd out the rest."""
    by_kind: dict[str, list[dict]] = {}
    for finding in findings(playtest):
        by_kind.setdefault(finding["kind"], []).append(finding)
    picked: list[dict] = []
    depth = 0
    while len(picked) < MOST and any(len(items) > depth for items in by_kind.values()):
        picked += [by_kind[kind][depth] for kind in KINDS if len(by_kind.get(kind, ())) > depth]
        depth += 1
    return picked[:MOST]


def nothing_found(playtest: "Playtest") -> str:
    """What the report can say when no finding passed: how large an effect these games would find."""
    sizes = []
    for run in _base(playtest):
        cards = (playtest.figures(run).get("metrics") or {}).get("cards")
        if cards and cards["detectable"] is not None:
            unit = cards["unit"]
            size = f"{cards['detectable']:.1f} {unit}" if cards["per_round"] else f"{cards['detectable'] * 100:.0f} points of {unit}"
            sizes.append(f"{size} at {run.players} players")
    found = f" With these games a card's effect would have to be about {', '.join(sizes)} to be found." if sizes else ""
    if not playtest.family.tests:
        return "Too few games for any test: the sample is too small to name any finding."
    return (f"No finding passes this report's tests ({playtest.family.tests:,} tests, each at {level(playtest)} "
            "confidence): "
            f"the sample is too small to name any.{found}")


def target_sentence(check: dict) -> str:
    """A target's verdict in words, with its figure and interval."""
    if check["verdict"] == "not evaluated":
        return f"{check['wanted']} at {check['players']} players: not evaluated ({check.get('note', '')})."
    value, low, high = check["value"], check["low"], check["high"]
    if check["target"] == "playtest.median_length":
        figure = f"median {value} moves ({low}–{high})"
    elif check["target"].startswith("playtest.skill"):
        figure = f"{value:.0%} ({low:.0%}–{high:.0%})"
    else:
        figure = f"{value:.1%} ({low:.1%}–{high:.1%})"
    return (f"{check['wanted']} at {check['players']} players: {check['verdict']}: {figure}, "
            f"{percent_text(check['confidence'])} interval, {check['games']:,} games.")


def card_summary(cards: dict) -> str:
    """The cards that decide games of one run, or why none are named."""
    if cards["named"]:
        return (f"cards that decide games: {', '.join(cards['named'])} (another seed would name the same with an "
                f"estimated {cards['replication']:.0%} chance)")
    tested = [row for row in cards["rows"] if "effect" in row]
    if not tested:
        return f"no card was contested in {MIN_GAMES} games or more: too few games to test any"
    matters = sum(1 for row in cards["rows"] if row["verdict"] == "matters")
    if matters:
        return (f"the sample is too small to name the cards that decide games: {matters} "
                f"pass{'es' if matters == 1 else ''} the test, but another "
                f"seed would likely name a different set ({cards['replication']:.0%} chance of the same)")
    return "no card passes the test: the sample is too small to name any that decide games"
