"""Figures from counts: Wilson intervals, histogram bins, Student's t and the exact binomial
test (no SciPy: the incomplete beta function is a few lines), a median's distribution-free
interval, and `Family`, the Bonferroni control of every test one report makes. Pure
functions over integers, so the same counts give the same figures whatever order the games
were played in."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

Z95 = 1.959964  # two-sided 95%


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


def games_for_precision(p: float, precision: float, z: float = Z95) -> int:
    """Games that put a rate near `p` within ± precision at this z (normal approximation)."""
    return math.ceil(z * z * p * (1 - p) / (precision * precision))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, 400):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return fraction


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """Two-sided p-value of Student's t with `df` degrees of freedom (normal beyond 10^6)."""
    if math.isinf(t):
        return 0.0
    if df > 1e6:
        return 2 * (1 - NormalDist().cdf(abs(t)))
    return incomplete_beta(df / 2, 0.5, df / (df + t * t))


def t_critical(alpha: float, df: float) -> float:
    """The t with two-sided tail probability `alpha` at `df` degrees of freedom (by bisection)."""
    low, high = 0.0, 1.0
    while t_two_sided_p(high, df) > alpha:
        high *= 2
    for _ in range(100):
        middle = (low + high) / 2
        if t_two_sided_p(middle, df) > alpha:
            low = middle
        else:
            high = middle
    return high


def binomial_two_sided_p(successes: int, trials: int) -> float:
    """Exact two-sided p-value of `successes` in `trials` fair coin flips (McNemar's exact
    test on the discordant pairs); the normal approximation past 2,000 trials."""
    if trials == 0:
        return 1.0
    smaller = min(successes, trials - successes)
    if trials > 2000:
        z = (abs(successes - trials / 2) - 0.5) / math.sqrt(trials / 4)
        return min(1.0, 2 * (1 - NormalDist().cdf(max(z, 0.0))))
    tail = sum(math.comb(trials, k) for k in range(smaller + 1)) / 2 ** trials
    return min(1.0, 2 * tail)


def median_interval(counts: Counter[int], alpha: float = 0.05) -> tuple[int, int, int] | None:
    """The median of integer values with a distribution-free interval (order statistics whose
    ranks the binomial(n, ½) brackets with probability 1 − alpha, normal approximation)."""
    n = sum(counts.values())
    if not n:
        return None
    z = NormalDist().inv_cdf(1 - alpha / 2)
    low_rank = max(1, math.floor(n / 2 - z * math.sqrt(n) / 2))
    high_rank = min(n, math.ceil(n / 2 + z * math.sqrt(n) / 2) + 1)
    median_rank = (n + 1) // 2
    found: dict[int, int] = {}
    seen = 0
    for value in sorted(counts):
        before = seen
        seen += counts[value]
        for rank in (low_rank, median_rank, high_rank):
            if before < rank <= seen:
                found[rank] = value
    return found[median_rank], found[low_rank], found[high_rank]


@dataclass(frozen=True)
class Family:
    """Every test one report makes, counted by kind, with Bonferroni's control: each test runs
    at `alpha` / (their number), so the chance that any finding of the report is a fluke is at
    most `alpha`."""

    counts: tuple[tuple[str, int], ...] = ()
    alpha: float = 0.05

    @property
    def tests(self) -> int:
        return sum(count for _, count in self.counts)

    @property
    def each(self) -> float:
        """The level of one test."""
        return self.alpha / max(self.tests, 1)

    @property
    def z(self) -> float:
        """The normal critical value of one test (two-sided)."""
        return NormalDist().inv_cdf(1 - self.each / 2)

    def t(self, df: float) -> float:
        """Student's critical value of one test at `df` degrees of freedom (two-sided)."""
        return t_critical(self.each, df)

    def confidence(self) -> float:
        """The confidence of one test's interval: 1 − its level."""
        return 1 - self.each

    def statement(self) -> str:
        """How the report controls its error rate, in a sentence."""
        kinds = ", ".join(f"{count:,} {kind}" for kind, count in self.counts if count)
        if not self.tests:
            return "This report makes no test: too few games for any."
        return (f"This report makes {self.tests:,} test{'s' if self.tests != 1 else ''} ({kinds}); each "
                f"is made at {self.alpha:.0%} / {max(self.tests, 1):,} = {self.each:.2g} (Bonferroni), so the "
                f"chance that any finding it states is a fluke is at most {self.alpha:.0%}.")
