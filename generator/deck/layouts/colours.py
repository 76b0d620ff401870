"""Colour values in layouts: `#rrggbb`, and the functions lighten, darken, mix and ink_on.

Read here, below the drawing code, so that the deck's checks (`ranges`) refuse a colour the
drawing could not paint with the same parser the drawing uses (`faces.paint` imports these).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from ..palettes import NAMED_COLORS


@lru_cache(maxsize=4096)
def rgb(hex_color: str) -> tuple[float, float, float]:
    value = hex_color.lstrip("#")
    return tuple(int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def to_hex(color: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * 255):02x}" for c in color)


def mix(first: str, second: str, amount: float) -> str:
    """`first` moved `amount` (0..1) of the way towards `second`."""
    a, b = rgb(first), rgb(second)
    return to_hex(tuple(x + (y - x) * amount for x, y in zip(a, b)))  # type: ignore[arg-type]


def lighten(color: str, amount: float) -> str:
    return mix(color, "#ffffff", amount)


def darken(color: str, amount: float) -> str:
    return mix(color, "#000000", amount)


def luminance(color: str) -> float:
    r, g, b = rgb(color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(color: str) -> str:
    """Black or white, whichever reads better on `color`."""
    return "#1b1b1b" if luminance(color) > 0.55 else "#ffffff"


@lru_cache(maxsize=4096)
def color_value(value: str) -> str:
    """A colour value with its functions applied: '#rrggbb' out, or '' for none."""
    text = value.strip()
    if not text or text == "none":
        return ""
    if text in NAMED_COLORS:
        return NAMED_COLORS[text]
    match = re.fullmatch(r"([a-z_]+)\((.*)\)", text)
    if not match:
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", text):
            raise ValueError(f"{value!r} is not a colour; write #rrggbb, a palette colour (okabe-ito.blue) or lighten/darken/mix/ink_on(...)")
        return text.lower()
    function, inner = match.groups()
    args, depth, current = [], 0, ""
    for char in inner:
        if char == "," and depth == 0:
            args.append(current)
            current = ""
            continue
        depth += (char == "(") - (char == ")")
        current += char
    args.append(current)
    if function == "ink_on" and len(args) == 1:
        return ink_on(color_value(args[0]))
    if function in ("lighten", "darken") and len(args) == 2:
        return {"lighten": lighten, "darken": darken}[function](color_value(args[0]), _amount(args[1], value))
    if function == "mix" and len(args) == 3:
        return mix(color_value(args[0]), color_value(args[1]), _amount(args[2], value))
    raise ValueError(f"{value!r}: unknown colour function {function}() or wrong arguments; "
                     "use lighten(c, 0.5), darken(c, 0.5), mix(a, b, 0.5) or ink_on(c)")


def _amount(text: str, value: str) -> float:
    """How far a colour function moves: a number from 0 to 1."""
    try:
        amount = float(text)
    except ValueError:
        amount = math.nan
    if not 0.0 <= amount <= 1.0:  # NaN too
        raise ValueError(f"{value!r}: {text.strip()!r} is not an amount from 0 to 1")
    return amount
