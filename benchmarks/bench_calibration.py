"""Calibration of the card statistics (generator/validate/cards.py): do they keep the error rate
and the power they state?

Run: python benchmarks/bench_calibration.py [--runs 200] [--games 200] [--workers 2]
                                            [--deck wizard:3 --deck quidditch-v2:2]

For each deck and player count, `--runs` seeded playtests of `--games` games are played by the
heuristic bots, exactly as `deckgen validate` plays them (`play_chunk`, `GameTrace`), with two
virtual cards dealt besides the real ones: in each deal, each goes to one seat drawn at random
half of the time (to nobody otherwise), by its own random generator, so it cannot change the game.

- The *placebo* has no effect at all. Printed: how often its own test (5% level) flags it, which
  must stay at 5% within the binomial margin; how often it passes the report's level (Bonferroni
  over the run's tests); how often it is named among the cards that decide games.
- The *planted* card has an effect of known size: in trick games its holder's round score is
  raised by DELTA points; in other games its holder is made the game's only winner with
  probability DELTA (an effect of DELTA on the win-rate contrast). DELTA is set from a pilot run
  to the effect the report says it finds with 80% power. Printed: how often the report's level
  finds it, against the power the report claims for an effect of that size (the mean over runs
  of Φ(DELTA / se − t*), se the standard error of a card with no effect: the placebo's).

Runs are seeded 1..N, so the figures are the same on every machine; docs/playtesting.md quotes them.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path
from statistics import NormalDist, mean

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.deck.loader import load_deck  # noqa: E402
from generator.games.simulate import derive_seed  # noqa: E402
from generator.validate.cards import POWER, card_figures, testable  # noqa: E402
from generator.validate.chunks import Task, play_chunk  # noqa: E402
from generator.validate.jobs import DeckData  # noqa: E402
from generator.validate.metrics import GameTrace, add_card_effects  # noqa: E402
from generator.validate.playtest import run_seed  # noqa: E402
from generator.validate.stats import Family  # noqa: E402

PLACEBO, PLANTED = "PLACEBO", "PLANTED"
LEVEL = 0.05  # the placebo's own test


class CalibrationTrace(GameTrace):
    """A `GameTrace` that also deals the two virtual cards and plants the effect of one."""

    def __init__(self, game, players, profile, rng: random.Random, delta: float):
        super().__init__(game, players, profile)
        self.rng = rng
        self.delta = delta
        self.virtual: dict[int, tuple[int | None, int | None]] = {}  # deal -> (placebo seat, planted seat)

    def _deal(self, state, deal: int) -> None:
        super()._deal(state, deal)
        if self.deal_round == deal and deal not in self.virtual:
            self.virtual[deal] = tuple(self.rng.randrange(self.players) if self.rng.random() < 0.5 else None
                                       for _ in range(2))

    def dealt_codes(self):
        dealt = super().dealt_codes()
        for deal, hands in dealt:
            seat = self.virtual[deal][0]
            if seat is not None:
                hands[seat].add(PLACEBO)
        return dealt

    def _cards(self, metrics, winners) -> None:
        super()._cards(metrics, winners)
        outcomes = self.deal_outcomes(winners)
        planted, shifted = [], {}
        for deal, _ in self.dealt:
            seat = self.virtual[deal][1]
            if seat is None or deal not in outcomes:
                continue
            planted.append((deal, [{PLANTED} if other == seat else set() for other in range(self.players)]))
            outcome = list(outcomes[deal])
            if self.round_of is not None:
                outcome[seat] += self.delta
            elif self.rng.random() < self.delta:
                outcome = [float(other == seat) for other in range(self.players)]
            shifted[deal] = outcome
        add_card_effects(metrics, self.players, planted, shifted)


def _virtual_deck(deck):
    """The deck with the two virtual cards, so the report's card figures list them."""
    template = deck.cards[0]
    extra = tuple(replace(template, id=code.lower(), code=code, name=code.title(), count=1)
                  for code in (PLACEBO, PLANTED))
    return replace(deck, cards=deck.cards + extra)


def one_run(job: tuple[str, int, int, int, float]) -> dict:
    """Play one seeded playtest run with the virtual cards; the report's verdicts on them."""
    deck_path, players, games, seed, delta = job
    deck = _virtual_deck(load_deck(Path(deck_path)))
    games_seen = iter(range(games))
    task = Task(DeckData.of(load_deck(Path(deck_path))), 0, {}, players, run_seed(seed, players), 0, games, "heuristic")

    def trace(game, count, profile):
        rng = random.Random(derive_seed(seed, "calibration", next(games_seen)))
        return CalibrationTrace(game, count, profile, rng, delta)

    tally = play_chunk(task, trace)
    metrics = tally.metrics
    # The family of a report of this one run (generator/validate/playtest.py counts the same).
    family = Family((("card effects", testable(metrics)), ("seat win rates", players), ("length-cap shares", 1)))
    figures = card_figures(metrics, deck, family)
    rows = {row["code"]: row for row in figures["rows"]}
    result = {"unit": figures["unit"], "tests": family.tests, "each": family.each}
    for code in (PLACEBO, PLANTED):
        row = rows.get(code, {})
        effect = row.get("effect")
        result[code] = {"tested": effect is not None, "p": effect["p"] if effect else 1.0,
                        "value": effect["value"] if effect else None, "se": effect["se"] if effect else None,
                        "named": row.get("verdict") == "decides"}
    if result[PLANTED]["tested"] and result[PLACEBO]["tested"]:
        # What the report claims for an effect of this size: its power at the standard error of a
        # card like this one with no effect (the placebo), the error its "80% power at ..." uses.
        se = result[PLACEBO]["se"]
        critical = family.t(games - 1)
        result["claimed"] = NormalDist().cdf(delta / se - critical) + NormalDist().cdf(-delta / se - critical)
    return result


def _margin(share: float, runs: int) -> float:
    """Half the 95% binomial interval of a share over `runs` runs (normal approximation)."""
    return 1.96 * math.sqrt(share * (1 - share) / runs)


def calibrate(deck_ref: str, players: int, runs: int, games: int, workers: int) -> None:
    deck_path = str(ROOT / "decks" / f"{deck_ref}.toml")
    started = time.perf_counter()
    pilot = one_run((deck_path, players, games, runs + 1, 0.0))  # a seed the runs do not use
    se = pilot[PLACEBO]["se"]
    critical = Family((("tests", pilot["tests"]),)).t(games - 1)
    delta = (critical + NormalDist().inv_cdf(POWER)) * se
    if pilot["unit"] == "win rate":
        delta = min(delta, 1.0)
    jobs = [(deck_path, players, games, seed, delta) for seed in range(1, runs + 1)]
    with Pool(workers) as pool:
        results = pool.map(one_run, jobs)
    elapsed = time.perf_counter() - started
    unit = "points per round" if pilot["unit"] == "points per round" else "points of win rate"
    scale = 1 if pilot["unit"] == "points per round" else 100
    print(f"{deck_ref}, {players} players, heuristic bots: {runs} runs of {games} games (seeds 1-{runs}), "
          f"{elapsed:.0f} s on {workers} worker(s)")
    placebo = [r[PLACEBO] for r in results if r[PLACEBO]["tested"]]
    own = sum(r["p"] <= LEVEL for r in placebo) / len(placebo)
    print(f"  placebo: tested in {len(placebo)} runs; flagged by its own {LEVEL:.0%} test in {own:.1%} "
          f"(target {LEVEL:.0%}, binomial 95% margin ± {_margin(LEVEL, len(placebo)):.1%}): "
          f"{'within' if own <= LEVEL + _margin(LEVEL, len(placebo)) else 'ABOVE'}")
    family_flags = sum(r[PLACEBO]["p"] <= r["each"] for r in results if r[PLACEBO]["tested"])
    named = sum(r[PLACEBO]["named"] for r in results)
    print(f"  placebo at the report's level ({mean(r['tests'] for r in results):.0f} tests a run, each at "
          f"{mean(r['each'] for r in results):.2g}): flagged in {family_flags}, named among the cards that "
          f"decide games in {named}, of {len(placebo)} runs")
    planted = [r for r in results if "claimed" in r]
    found = sum(r[PLANTED]["p"] <= r["each"] and r[PLANTED]["value"] > 0 for r in planted) / len(planted)
    claimed = mean(r["claimed"] for r in planted)
    estimates = [r[PLANTED]["value"] for r in planted]
    margin = _margin(claimed, len(planted))
    verdict = ("within the margin" if abs(found - claimed) <= margin else
               "above: the claim is conservative" if found > claimed else "BELOW the claim")
    print(f"  planted effect {delta * scale:+.2f} {unit} (the report's 80%-power size in a pilot run): estimated "
          f"{mean(estimates) * scale:+.2f} on average; found at the report's level in {found:.1%} of "
          f"{len(planted)} runs; the report claimed {claimed:.1%} power (binomial 95% margin ± {margin:.1%}): {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--deck", action="append", help="DECK:PLAYERS (default wizard:3 and quidditch-v2:2)")
    args = parser.parse_args()
    for spec in args.deck or ["wizard:3", "quidditch-v2:2"]:
        deck, _, players = spec.partition(":")
        calibrate(deck, int(players), args.runs, args.games, args.workers)


if __name__ == "__main__":
    main()
