"""Figures from counts: Wilson intervals and histogram bins. Pure functions over integers, so
the same counts give the same figures whatever order the games were played in."""

from __future__ import annotations

import math
from collections import Counter
from statistics import NormalDist

Z95 = 1.959964  # two-sided 95%


def bonferroni_z(tests: int, family_error: float = 0.05) -> float:
    """The z of a two-sided interval that, over `tests` tests at once, misses a true value with
    probability at most `family_error` in all (Bonferroni)."""
    return NormalDist().inv_cdf(1 - family_error / (2 * max(tests, 1)))


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion: sound at 0%, 100% and small samples."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0% and 100% the bound is exactly 0 or 1; floating point would leave a trace.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def histogram_bins(counts: Counter[int], most: int = 20) -> list[tuple[int, int, int]]:
    """At most `most` equal-width integer bins [low, high) covering every value, with counts."""
    if not counts:
        return []
    low, high = min(counts), max(counts) + 1
    width = max(1, math.ceil((high - low) / most))
    bins = [[start, start + width, 0] for start in range(low, high, width)]
    for value, number in counts.items():
        bins[(value - low) // width][2] += number
    return [tuple(b) for b in bins]
