"""`deckgen validate OLD NEW --compare`: do two decks (or a deck's rules and each of its variants)
play differently? Both arms play the same games: game i of a player count has the same seed in
every arm, so the same deal and the same dice. The comparison is paired, game by game
(`tally.GameKey`): how many games came out differently at all; for each seat, the games it won in
one arm and not the other (McNemar's exact test on those discordant games; the difference of win
rates with the interval of the per-game differences); the moves per game (the per-game
differences, Student's t); the games the length cap stopped (McNemar). Every p-value of the
comparison is Holm-corrected together. When no game diverged, the rule was never exercised by
these bots, and the comparison says so instead of "no difference". With the deck's [playtest]
targets, it says for each whether the second arm moves toward it.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import TYPE_CHECKING

from ..core.errors import OptionError
from ..deck.model import PlaytestTargets
from .stats import Z95, binomial_two_sided_p, median_interval, t_two_sided_p

if TYPE_CHECKING:
    from .playtest import Playtest, Run
    from .tally import GameKey

ALPHA = 0.05
POWER = 0.8
TEST = ("paired by seed: McNemar's exact test per seat on the games won in one arm only, Student's t on the "
        "per-game difference in moves, McNemar on the games the length cap stopped; Holm-corrected together")


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


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error across every test of the comparison)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def _pairs(a: "Run", b: "Run") -> list[tuple["GameKey", "GameKey"]]:
    """Game i of one arm with game i of the other (the same seed), as far as both played
    (with --simulate auto an arm may stop sooner); games that failed in either are left out."""
    keys_a, keys_b = a.tally.game_keys(), b.tally.game_keys()
    if a.run_seed != b.run_seed or not keys_a or not keys_b:
        raise OptionError("--compare needs both arms played from the same seed, each game kept")
    return [(ka, kb) for ka, kb in zip(keys_a, keys_b) if not ka.failed and not kb.failed]


def _mcnemar(pairs, one_only) -> dict:
    """A paired comparison of a yes/no of each game: rates in each arm, the difference b − a with
    the 95% interval of the per-game differences, and McNemar's exact p."""
    n = len(pairs)
    lost = sum(1 for ka, kb in pairs if one_only(ka) and not one_only(kb))
    gained = sum(1 for ka, kb in pairs if one_only(kb) and not one_only(ka))
    in_a = sum(1 for ka, _ in pairs if one_only(ka))
    difference = (gained - lost) / n if n else 0.0
    variance = ((gained + lost) / n - difference ** 2) / max(n - 1, 1) if n else 0.0
    half = Z95 * math.sqrt(max(variance, 0.0))
    return {"a": round(in_a / n, 4) if n else None, "b": round((in_a - lost + gained) / n, 4) if n else None,
            "difference": round(difference, 4), "low": round(difference - half, 4), "high": round(difference + half, 4),
            "discordant": [lost, gained], "p": binomial_two_sided_p(gained, gained + lost)}


def _power(entry: dict, n: int, precision: float) -> None:
    """The power these games had to find a difference of `precision`, and the difference they
    find with 80% power: in a paired design both rest on how often the arms disagree."""
    discordant = sum(entry["discordant"]) / n if n else 0.0
    z = NormalDist().inv_cdf(1 - ALPHA / 2)
    se = math.sqrt(discordant / n) if n else 0.0
    entry["power"] = round(NormalDist().cdf(precision / se - z) if se else 0.0, 3)
    entry["detectable"] = round((z + NormalDist().inv_cdf(POWER)) * se, 4) if se else None


def _length(pairs) -> dict:
    n = len(pairs)
    differences = [kb.moves - ka.moves for ka, kb in pairs]
    mean = sum(differences) / n if n else 0.0
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(variance / n) if n else 0.0
    p = t_two_sided_p(mean / se, n - 1) if se else (1.0 if mean == 0 else 0.0)
    a = sum(ka.moves for ka, _ in pairs) / n if n else 0.0
    return {"a": round(a, 2), "b": round(a + mean, 2), "difference": round(mean, 2),
            "low": round(mean - Z95 * se, 2), "high": round(mean + Z95 * se, 2), "p": p}


def compare(first: "Playtest", second: "Playtest | None", precision: float = 0.01) -> dict:
    """Every pair of runs, paired game by game, with the tests, their power, a verdict, and the
    targets of the first deck."""
    rows = []
    for name_a, a, name_b, b in arms(first, second):
        pairs = _pairs(a, b)
        n = len(pairs)
        diverged = sum(1 for ka, kb in pairs if ka != kb)
        seats = []
        for seat in range(a.players):
            entry = {"seat": seat + 1, **_mcnemar(pairs, lambda key, seat=seat: key.won(seat))}
            _power(entry, n, precision)
            seats.append(entry)
        rows.append({"a": name_a, "b": name_b, "players": a.players, "games": n, "diverged": diverged,
                     "exercised": diverged > 0, "seats": seats, "length": _length(pairs),
                     "capped": _mcnemar(pairs, lambda key: key.capped),
                     "medians": [_median(a), _median(b)]})
    tests = [entry for row in rows for entry in (*row["seats"], row["length"], row["capped"])]
    for entry, adjusted in zip(tests, holm([entry["p"] for entry in tests])):
        entry["p"] = float(f"{entry['p']:.4g}")
        entry["p_holm"] = float(f"{adjusted:.4g}")
        entry["differs"] = adjusted < ALPHA
    for row in rows:
        row["targets"] = _toward(row, first.deck.playtest)
    return {"test": TEST, "alpha": ALPHA, "power_at": precision, "tests": len(tests),
            "targets_of": first.deck.id, "rows": rows}


def _median(run: "Run") -> int | None:
    found = median_interval(run.tally.lengths)
    return found[0] if found else None


def _toward(row: dict, targets: PlaytestTargets) -> list[dict]:
    """For each target that pairs can move: the figure in both arms and whether the second arm
    moves toward it (the Holm-corrected test of the difference, in the direction it needs)."""
    moves = []
    if targets.players and row["players"] not in targets.players:
        return moves
    if targets.first_seat_win is not None:
        seat = row["seats"][0]
        moves.append(_move("playtest.first_seat_win", seat["a"], seat["b"], seat, targets.first_seat_win,
                           row["exercised"]))
    if targets.median_length is not None and None not in row["medians"]:
        a, b = row["medians"]
        moves.append(_move("playtest.median_length", a, b, row["length"], targets.median_length, row["exercised"]))
    if targets.timeouts_below is not None:
        capped = row["capped"]
        moves.append(_move("playtest.timeouts_below", capped["a"], capped["b"], capped, (0.0, targets.timeouts_below),
                           row["exercised"]))
    return moves


def _move(target: str, a: float, b: float, test: dict, band: tuple[float, float], exercised: bool) -> dict:
    low, high = band
    needed = 1 if a < low else -1 if a > high else 0
    shift = 0 if not test["differs"] else 1 if test["difference"] > 0 else -1
    if not exercised:
        verdict = "not exercised"
    elif needed == 0:
        verdict = "meets it in both" if low <= b <= high or not shift else "moves away"
    elif shift == needed:
        verdict = "moves toward"
    elif shift == -needed:
        verdict = "moves away"
    else:
        verdict = "no clear move"
    return {"target": target, "a": a, "b": b, "verdict": verdict}


def comparison_text(result: dict) -> list[str]:
    """The comparison for the terminal: a block per pair of runs."""
    lines = [f"compare: {result['test']} ({result['tests']} tests, alpha {result['alpha']})"]
    for row in result["rows"]:
        lines.append(f"  {row['a']} vs {row['b']}, {row['players']} players ({row['games']} games, same seeds):")
        if not row["exercised"]:
            lines.append(f"    the bots never exercised this difference: all {row['games']} games played out the same "
                         "in both arms, so these games cannot tell whether it matters")
            continue
        lines.append(f"    {row['diverged']} of {row['games']} games came out differently")
        for seat in row["seats"]:
            verdict = "differs" if seat["differs"] else "no difference found"
            detectable = f"{seat['detectable'] * 100:.1f} points" if seat["detectable"] is not None else "-"
            lines.append(f"    seat {seat['seat']}: {seat['a']:.1%} -> {seat['b']:.1%} "
                         f"({seat['difference'] * 100:+.1f} points, 95% {seat['low'] * 100:+.1f} to "
                         f"{seat['high'] * 100:+.1f}; won in one arm only {seat['discordant'][0]} / "
                         f"{seat['discordant'][1]}; Holm p {seat['p_holm']}): {verdict}; power "
                         f"{seat['power']:.0%} to find {result['power_at'] * 100:g} point(s), 80% power at {detectable}")
        length = row["length"]
        lines.append(f"    moves per game: {length['a']} -> {length['b']} ({length['difference']:+}, "
                     f"95% {length['low']:+} to {length['high']:+}; Holm p {length['p_holm']})")
        for move in row["targets"]:
            lines.append(f"    target {move['target']} ({result['targets_of']}): {move['a']} -> {move['b']}: "
                         f"{move['verdict']}")
    return lines
