"""Gradient values in layouts: `linear(ANGLE, stop, stop, ...)` and `radial(stop, stop, ...)`.

A stop is a colour value (`#rrggbb` or a colour function, see `colours`) with an optional
position in percent (`#ffffff 40%`); stops without one are spread evenly, as CSS does. The
angle follows CSS: `0deg` runs to the top, `90deg` to the right, `180deg` (the default) to
the bottom. A radial gradient runs from the box's centre to its farthest corner. Read here,
beside the colours, so the deck's checks (`ranges`) and the drawing (`faces.effects`) parse
a gradient the same way.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from .colours import color_value, split_arguments

GRADIENT = re.compile(r"\s*(linear|radial)\((.*)\)\s*", re.S)
_ANGLE = re.compile(r"(-?\d+(?:\.\d+)?)\s*deg")
_POSITION = re.compile(r"(.*\S)\s+(-?\d+(?:\.\d+)?)%")
MAX_STOPS = 16
FORMS = "linear(180deg, #rrggbb, #rrggbb 60%, ...) or radial(#rrggbb, #rrggbb, ...)"


@dataclass(frozen=True)
class Gradient:
    """A parsed gradient: its kind, angle (linear only) and (colour, position 0..1) stops."""

    kind: str
    angle: float
    stops: tuple[tuple[str, float], ...]

    def line(self, x: float, y: float, width: float, height: float) -> tuple[float, float, float, float]:
        """Start and end of a linear gradient across a box (y up), as CSS draws it: the line
        through the centre at the angle, long enough that its ends' perpendiculars touch the corners."""
        radians = math.radians(self.angle)
        dx, dy = math.sin(radians), math.cos(radians)  # 0deg points up (y up in PDF space)
        half = (abs(width * dx) + abs(height * dy)) / 2
        cx, cy = x + width / 2, y + height / 2
        return cx - dx * half, cy - dy * half, cx + dx * half, cy + dy * half


def is_gradient(value: object) -> bool:
    return isinstance(value, str) and GRADIENT.fullmatch(value) is not None


@lru_cache(maxsize=1024)
def parse_gradient(value: str) -> Gradient:
    """The gradient a value writes; ValueError (saying what is allowed) when it is not one."""
    match = GRADIENT.fullmatch(value)
    if not match:
        raise ValueError(f"{value!r} is not a gradient; write {FORMS}")
    kind, inner = match.groups()
    parts = [part.strip() for part in split_arguments(inner)]
    angle = 180.0
    if kind == "linear" and parts and _ANGLE.fullmatch(parts[0]):
        angle = float(_ANGLE.fullmatch(parts[0]).group(1))
        parts = parts[1:]
    if not 2 <= len(parts) <= MAX_STOPS:
        raise ValueError(f"{value!r} has {len(parts)} colours; a gradient needs 2 to {MAX_STOPS} ({FORMS})")
    if not math.isfinite(angle) or abs(angle) > 360:
        raise ValueError(f"{value!r}: the angle must be -360deg to 360deg")
    colours: list[str] = []
    positions: list[float | None] = []
    for part in parts:
        placed = _POSITION.fullmatch(part)
        colour_text, position = (placed.group(1), float(placed.group(2)) / 100) if placed else (part, None)
        try:
            colours.append(color_value(colour_text))
        except ValueError as error:
            raise ValueError(f"{value!r}: {error}") from None
        if not colours[-1]:
            raise ValueError(f"{value!r}: a stop has no colour ({FORMS})")
        if position is not None and not 0.0 <= position <= 1.0:
            raise ValueError(f"{value!r}: a stop's position must be 0% to 100%")
        positions.append(position)
    return Gradient(kind, angle, tuple(zip(colours, _spread(positions, value))))


def _spread(positions: list[float | None], value: str) -> list[float]:
    """Stops without a position evenly between their neighbours (first 0, last 1), and the
    positions never going backwards."""
    filled = list(positions)
    filled[0] = 0.0 if filled[0] is None else filled[0]
    filled[-1] = 1.0 if filled[-1] is None else filled[-1]
    start = 0
    for index in range(1, len(filled)):
        if filled[index] is None:
            continue
        gap = index - start
        for step in range(1, gap):
            filled[start + step] = filled[start] + (filled[index] - filled[start]) * step / gap
        start = index
    result = [float(p) for p in filled]  # type: ignore[arg-type]
    if any(later < earlier for earlier, later in zip(result, result[1:])):
        raise ValueError(f"{value!r}: stop positions must not go backwards")
    return result
