"""The range of every value a layout can hold, so that what `validate` passes can be drawn.

The field table (`fields`) gives each value's JSON type; this gives its range: lengths
finite and at most `MAX_LENGTH_PT` (no NaN, no infinity: TOML can write both), sizes of
text between `MIN_TEXT_PT` and `MAX_TEXT_PT`, opacity from 0 to 1, dash patterns with
something drawn, polygon corners as pairs of finite numbers, colours the drawing can paint
(`colours.color_value`), and the choices of every enumerated field. `value_problem` answers
for one value; the loader asks it for every value written in a layout, and again for every
value a card fills in through a `{variable}` (`deck._check_geometry`).
"""

from __future__ import annotations

import math
from typing import Any

from .. import markup
from .colours import color_value
from .fields import allowed_fields
from .gradients import FORMS, is_gradient, parse_gradient
from .units import to_points

MAX_LENGTH_PT = 100_000.0  # 35 metres: past any card, any sheet
MIN_TEXT_PT, MAX_TEXT_PT = 1.0, 200.0  # a text size; a glyph a card high is still under it
MIN_STEP_PT, MAX_STEP_PT = 2.0, 1_000.0  # a pattern's repeat: finer is a grey, and a slow one
MAX_STROKE_PT = 100.0
MIN_SPACING, MAX_SPACING = 0.5, 5.0  # line_spacing, in sizes
MAX_LINES = 1_000
MAX_DASH_PT, MAX_DASH_PARTS = 1_000.0, 8
MAX_SAFE_MM = 100.0
# The card sizes a deck may have (schema.MIN_CARD_MM, MAX_CARD_MM): a layout scales by the
# ratio of the card to its reference, so a tiny reference would make text sizes huge.
MIN_REFERENCE_MM, MAX_REFERENCE_MM = 10.0, 1_000.0
POINT_PERCENT = (-1_000.0, 1_100.0)  # polygon corners, in percent of the box (0-100 inside it)
ALONG_PT = 3_000.0  # what 100% means when a length is checked without its card (larger than any card)

LENGTHS = {"x", "y", "width", "height", "radius", "pip_size", "ace_size", "glyph_size"}
MAX_ROTATE = 360.0
MAX_SHADOW_PT = 100.0
MAX_BLUR_PT = 100.0  # 35 mm, about half a card: a wider soft edge is no edge
NOT_NEGATIVE = {"width", "height", "radius", "pip_size", "ace_size", "glyph_size"}
THICKNESSES = {"stroke_width": (0.0, MAX_STROKE_PT), "step": (MIN_STEP_PT, MAX_STEP_PT),
               "glow_width": (0.0, MAX_STROKE_PT), "glow_blur": (0.0, MAX_BLUR_PT),
               "shadow_blur": (0.0, MAX_BLUR_PT)}  # a number is points
COLOURS = {"color", "fill", "stroke", "badge", "rule_color", "bleed_color", "accent", "sky", "second",
           "glyph_color", "shadow", "glow", "tint"}
# Where a gradient may stand instead of a colour (what the drawing paints through a clip).
GRADIENTS = {("shape", "fill"), ("text", "color")}


def value_problem(element_type: str | None, key: str, value: Any, filled: bool = False) -> str:
    """What is wrong with `value` for field `key` of an element of `element_type` (None: a
    field of the layout itself); "" when it can be drawn. A template is checked once a card
    has filled it in (`filled`); an empty value is no value (the default applies)."""
    if element_type is None:
        return _layout_field(key, value)
    if value is None or value == "" or (not filled and isinstance(value, str) and "{" in value):
        return ""
    spec = allowed_fields(element_type).get(key)
    choices = spec[2] if spec else None
    if choices:
        return "" if value in choices or str(value) in map(str, choices) else \
            f"unknown value {value!r}; allowed: {', '.join(map(str, choices))}"
    if key in LENGTHS:
        return _length(key, value)
    if key in THICKNESSES:
        return _thickness(key, value)
    if key in COLOURS:
        if is_gradient(value):
            return _gradient(element_type, key, value)
        return _colour(value)
    check = _CHECKS.get((element_type, key)) or _CHECKS.get((None, key))
    return check(value) if check else ""


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _finite(value: Any, low: float, high: float, what: str) -> str:
    if not _number(value):
        return f"expected a number, found {value!r}"
    if not math.isfinite(value):
        return f"{value!r} is not a number deckgen can draw with; {what}"
    if not low <= value <= high:
        return f"{value!r} is out of range; {what}"
    return ""


def _length(key: str, value: Any) -> str:
    low = 0.0 if key in NOT_NEGATIVE else -MAX_LENGTH_PT
    allowed = f"allowed: {'0' if low == 0 else '-'} to {MAX_LENGTH_PT:,.0f} pt, in mm, pt or % of the frame"
    try:
        points = to_points(value, ALONG_PT)
    except (ValueError, TypeError):
        return f"{value!r} is not a length; write mm as a number (3.5), or '3.5mm', '10pt', '25%'"
    if not math.isfinite(points) or not low <= points <= MAX_LENGTH_PT:
        return f"{value!r} is out of range; {allowed}"
    return ""


def _thickness(key: str, value: Any) -> str:
    low, high = THICKNESSES[key]
    allowed = f"allowed: {low:g} to {high:g} pt (a number is points; or '0.3mm')"
    try:
        points = float(value) if _number(value) else to_points(value, ALONG_PT)
    except (ValueError, TypeError):
        return f"{value!r} is not a length; {allowed}"
    if not math.isfinite(points) or not low <= points <= high:
        return f"{value!r} is out of range; {allowed}"
    return ""


def _colour(value: Any) -> str:
    if value in (None, ""):
        return ""
    try:
        color_value(str(value))
    except (ValueError, TypeError, OverflowError) as error:
        return str(error)
    return ""


def _gradient(element_type: str, key: str, value: Any) -> str:
    if (element_type, key) not in GRADIENTS:
        return (f"a gradient cannot be used for {key}; gradients are allowed in "
                f"{', '.join(f'{kind} {field}' for kind, field in sorted(GRADIENTS))}")
    try:
        parse_gradient(str(value))
    except ValueError as error:
        return f"{error}; allowed: {FORMS}" if FORMS not in str(error) else str(error)
    return ""


def _shadow_offset(value: Any) -> str:
    allowed = f"allowed: [right, down] in pt, each -{MAX_SHADOW_PT:g} to {MAX_SHADOW_PT:g}"
    if not isinstance(value, list) or len(value) != 2:
        return f"{value!r} is not [right, down]; {allowed}"
    return next((p for part in value if (p := _finite(part, -MAX_SHADOW_PT, MAX_SHADOW_PT, allowed))), "")


def _icon_repeats(value: Any) -> str:
    """A filled text template's {icon:NAME*N}: N a whole number the row can hold."""
    return next((problem for kind, target in markup.references(str(value)) if kind == "icon"
                 for problem in [markup.icon_repeat(target)[2]] if problem), "")


def _text_size(value: Any) -> str:
    allowed = f"allowed: a size in pt from {MIN_TEXT_PT:g} to {MAX_TEXT_PT:g}, or [largest, smallest]"
    sizes = value if isinstance(value, list) else [value]
    if not 1 <= len(sizes) <= 2:
        return f"{value!r} has {len(sizes)} sizes; {allowed}"
    return next((problem for size in sizes if (problem := _finite(size, MIN_TEXT_PT, MAX_TEXT_PT, allowed))), "")


def _opacity(value: Any) -> str:
    try:
        number = float(value) if not isinstance(value, bool) else math.nan
    except (ValueError, TypeError):
        return f"{value!r} is not an opacity; allowed: a number from 0 (invisible) to 1 (opaque)"
    return _finite(number, 0.0, 1.0, "allowed: a number from 0 (invisible) to 1 (opaque)")


def _dash(value: Any) -> str:
    allowed = (f"allowed: [on, off] lengths in pt, up to {MAX_DASH_PARTS} numbers from 0 to {MAX_DASH_PT:g}, "
               "not all 0")
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_DASH_PARTS:
        return f"{value!r} is not a dash pattern; {allowed}"
    problem = next((p for part in value if (p := _finite(part, 0.0, MAX_DASH_PT, allowed))), "")
    if problem:
        return problem
    return "" if sum(value) > 0 else f"{value!r} draws nothing (every part is 0); {allowed}"


def _points(value: Any) -> str:
    allowed = "allowed: [[x%, y%], ...], each a pair of numbers (0-100 is inside the box)"
    if not isinstance(value, list):
        return f"{value!r} is not a list of corners; {allowed}"
    for corner in value:
        if not isinstance(corner, list) or len(corner) != 2:
            return f"corner {corner!r} is not a pair; {allowed}"
        problem = next((p for part in corner if (p := _finite(part, *POINT_PERCENT, allowed))), "")
        if problem:
            return problem
    return ""


def _layout_field(key: str, value: Any) -> str:
    if key == "safe":
        return _finite(value, 0.0, MAX_SAFE_MM, f"allowed: 0 to {MAX_SAFE_MM:g} mm")
    if key == "reference_size":
        allowed = f"allowed: [width, height] in mm, each from {MIN_REFERENCE_MM:g} to {MAX_REFERENCE_MM:g}"
        if not isinstance(value, list) or len(value) != 2:
            return f"{value!r} is not [width, height]; {allowed}"
        return next((p for side in value if (p := _finite(side, MIN_REFERENCE_MM, MAX_REFERENCE_MM, allowed))), "")
    return ""


_CHECKS = {
    ("text", "size"): _text_size,
    ("text", "text"): _icon_repeats,
    ("index", "size"): lambda value: _finite(value, MIN_TEXT_PT, MAX_TEXT_PT,
                                             f"allowed: a size in pt from {MIN_TEXT_PT:g} to {MAX_TEXT_PT:g}"),
    (None, "line_spacing"): lambda value: _finite(value, MIN_SPACING, MAX_SPACING,
                                                  f"allowed: {MIN_SPACING:g} to {MAX_SPACING:g} times the size"),
    (None, "max_lines"): lambda value: _finite(value, 1, MAX_LINES, f"allowed: 1 to {MAX_LINES:,} lines"),
    (None, "opacity"): _opacity,
    (None, "rotate"): lambda value: _finite(value, -MAX_ROTATE, MAX_ROTATE,
                                            f"allowed: an angle from -{MAX_ROTATE:g} to {MAX_ROTATE:g} degrees"),
    (None, "shadow_offset"): _shadow_offset,
    (None, "dash"): _dash,
    (None, "points"): _points,
}
