"""Figures from counts: Wilson intervals and histogram bins. Pure functions over integers, so
the same counts give the same figures whatever order the games were played in."""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache
from statistics import NormalDist

Z95 = 1.959964  # two-sided 95%


def bonferroni_z(tests: int, family_error: float = 0.05) -> float:
    """The z of a two-sided interval that, over `tests` tests at once, misses a true value with
    probability at most `family_error` in all (Bonferroni)."""
    return NormalDist().inv_cdf(1 - family_error / (2 * max(tests, 1)))


@lru_cache(maxsize=1 << 16)  # a report asks for the same few (successes, trials) thousands of times
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


def newcombe(wins_a: int, n_a: int, wins_b: int, n_b: int, z: float = Z95) -> tuple[float, float]:
    """Interval of the difference of two proportions a − b (Newcombe's hybrid of Wilson intervals)."""
    pa, pb = (wins_a / n_a if n_a else 0.0), (wins_b / n_b if n_b else 0.0)
    la, ua = wilson(wins_a, n_a, z)
    lb, ub = wilson(wins_b, n_b, z)
    d = pa - pb
    return d - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2), d + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2)


def two_proportion_p(wins_a: int, n_a: int, wins_b: int, n_b: int) -> float:
    """Two-sided p-value of the pooled two-proportion z-test that a and b share one rate."""
    if not n_a or not n_b:
        return 1.0
    pooled = (wins_a + wins_b) / (n_a + n_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0:
        return 1.0
    return 2 * (1 - NormalDist().cdf(abs(wins_a / n_a - wins_b / n_b) / se))


def two_proportion_power(p: float, delta: float, n_a: int, n_b: int, alpha: float = 0.05) -> float:
    """Power of the two-sided two-proportion z-test at level alpha to find a true difference
    `delta` around a rate `p`, with these arm sizes (normal approximation)."""
    if not n_a or not n_b:
        return 0.0
    p1, p2 = min(max(p - delta / 2, 0.0), 1.0), min(max(p + delta / 2, 0.0), 1.0)
    se = math.sqrt(p1 * (1 - p1) / n_a + p2 * (1 - p2) / n_b)
    if se == 0:
        return 1.0
    z = NormalDist().inv_cdf(1 - alpha / 2)
    shift = abs(p2 - p1) / se
    return (1 - NormalDist().cdf(z - shift)) + NormalDist().cdf(-z - shift)


def detectable_difference(p: float, n_a: int, n_b: int, alpha: float = 0.05, power: float = 0.8) -> float:
    """The smallest difference of rates around `p` these arm sizes find with this power."""
    if not n_a or not n_b:
        return 1.0
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    return z * math.sqrt(p * (1 - p) * (1 / n_a + 1 / n_b))


def games_for_precision(p: float, precision: float, z: float = Z95) -> int:
    """Games that put a rate near `p` within ± precision at this z (normal approximation)."""
    return math.ceil(z * z * p * (1 - p) / (precision * precision))


def welch_p(n_a: int, mean_a: float, var_a: float, n_b: int, mean_b: float, var_b: float) -> float:
    """Two-sided p-value of Welch's test for two means (normal approximation: the arms are large)."""
    if n_a < 2 or n_b < 2:
        return 1.0
    se = math.sqrt(var_a / n_a + var_b / n_b)
    if se == 0:
        return 1.0 if mean_a == mean_b else 0.0
    return 2 * (1 - NormalDist().cdf(abs(mean_a - mean_b) / se))


def benjamini_hochberg(p_values: list[float], q: float = 0.05) -> list[bool]:
    """Which of these tests are discoveries at false discovery rate q (Benjamini–Hochberg)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    cutoff = 0
    for rank, index in enumerate(order, start=1):
        if p_values[index] <= q * rank / len(p_values):
            cutoff = rank
    keep = set(order[:cutoff])
    return [i in keep for i in range(len(p_values))]
