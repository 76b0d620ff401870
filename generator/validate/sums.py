"""Per-game sums for statistics whose unit is the game: each game adds one vector of whole
numbers (a card's contrast and its number of contested rounds, or the seats that held and
played it and how many of them won), and `GameSums` keeps their count, sums and sums of
products. Those are enough to estimate any smooth function of the per-game means (a ratio,
a ratio of ratios) with a variance that treats games, not seats or rounds, as independent:
the delta method on the means, i.e. the cluster-robust (sandwich) variance with the game as
the cluster. Integers only, so merging in any order gives the same bytes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence


class GameSums:
    """n games, Σ x_i and Σ x_i x_j (i ≤ j) over them, for k whole-number variables."""

    __slots__ = ("k", "values")

    def __init__(self, k: int, values: Sequence[int] | None = None):
        self.k = k
        size = 1 + k + k * (k + 1) // 2
        self.values = list(values) if values is not None else [0] * size
        if len(self.values) != size:
            raise ValueError(f"{len(self.values)} sums for {k} variables; expected {size}")

    def add(self, vector: Sequence[int]) -> None:
        """One game's vector."""
        values = self.values
        values[0] += 1
        k = self.k
        at = 1 + k
        for i in range(k):
            xi = vector[i]
            values[1 + i] += xi
            for j in range(i, k):
                values[at] += xi * vector[j]
                at += 1

    def merge(self, other: "GameSums") -> None:
        """Another chunk's games: the sums add up."""
        self.values = [a + b for a, b in zip(self.values, other.values)]

    @property
    def games(self) -> int:
        """How many games added a vector."""
        return self.values[0]

    def totals(self) -> list[int]:
        """Each variable's sum over the games."""
        return self.values[1:1 + self.k]

    def means(self) -> list[float]:
        """Each variable's mean per game."""
        n = self.values[0]
        return [total / n for total in self.totals()] if n else [0.0] * self.k

    def covariance(self) -> list[list[float]]:
        """The sample covariance matrix of the per-game vectors (n − 1 in the denominator)."""
        n, k = self.values[0], self.k
        means = self.means()
        matrix = [[0.0] * k for _ in range(k)]
        if n < 2:
            return matrix
        at = 1 + k
        for i in range(k):
            for j in range(i, k):
                value = (self.values[at] - n * means[i] * means[j]) / (n - 1)
                matrix[i][j] = matrix[j][i] = value
                at += 1
        return matrix


@dataclass(frozen=True)
class Estimate:
    """A function of per-game means with its standard error, over `games` independent games."""

    value: float
    se: float
    games: int

    @property
    def df(self) -> int:
        """Degrees of freedom of a t-test on it: games − 1."""
        return max(self.games - 1, 1)


def estimate(sums: GameSums, function: Callable[[list[float]], float],
             gradient: Callable[[list[float]], list[float]]) -> Estimate | None:
    """`function` of the per-game means and its delta-method standard error, √(g' Σ g / n);
    None when it is undefined (no games, or a zero in a denominator)."""
    n = sums.games
    means = sums.means()
    try:
        value = function(means)
        g = gradient(means)
    except ZeroDivisionError:
        return None
    if n < 2:
        return Estimate(value, math.inf, n)
    covariance = sums.covariance()
    variance = sum(g[i] * covariance[i][j] * g[j] for i in range(sums.k) for j in range(sums.k)) / n
    return Estimate(value, math.sqrt(max(variance, 0.0)), n)


def ratio(sums: GameSums, top: int = 0, bottom: int = 1) -> Estimate | None:
    """Σ x_top / Σ x_bottom over games: a mean per unit (per contested round, per seat) whose
    variance counts each game once, however many units it holds."""
    return estimate(sums, lambda m: m[top] / m[bottom],
                    lambda m: [1 / m[bottom] if i == top else -m[top] / m[bottom] ** 2 if i == bottom else 0.0
                               for i in range(sums.k)])
