"""Lengths in layouts: millimetres, points and percentages, and sums of them ("100% - 6mm")."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

POINTS_PER_MM = 72 / 25.4
_TERM = re.compile(r"\s*([+-]?)\s*(\d+(?:\.\d+)?)\s*(mm|pt|%)?")


@lru_cache(maxsize=2048)
def _terms(text: str) -> tuple[tuple[float, str], ...]:
    terms, position = [], 0
    text = text.strip()
    while position < len(text):
        match = _TERM.match(text, position)
        if not match or match.end() == position:
            raise ValueError(f"{text!r} is not a length; write mm as a number, or '3mm', '10pt', '25%', "
                             "or a sum such as '100% - 6mm'")
        sign = -1.0 if match.group(1) == "-" else 1.0
        terms.append((sign * float(match.group(2)), match.group(3) or "mm"))
        position = match.end()
    return tuple(terms)


def to_points(value: Any, along: float, k: float = 1.0) -> float:
    """A length in points; `along` is what 100% means."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a length")
    if isinstance(value, (int, float)):
        return float(value) * POINTS_PER_MM * k
    total = 0.0
    for amount, unit in _terms(str(value)):
        total += amount * along / 100 if unit == "%" else amount * (POINTS_PER_MM if unit == "mm" else 1.0) * k
    return total


def is_length(value: Any) -> bool:
    try:
        to_points(value, 100.0)
    except ValueError:
        return False
    return True
