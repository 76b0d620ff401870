"""Gradients, outlines, shadows and glows: how text and shapes are painted beyond a flat colour.

Every effect is vector, and card images, the live preview and print show the same thing (they
are all rasterised from one PDF drawing): a gradient is a PDF shading painted through the
shape's outline or the letters' outlines used as a clip; a shadow is the element drawn again in
the shadow colour, offset; a glow is a halo, the outline stroked wide in the glow colour with
round joins, beneath the element; text's own outline is stroked twice its width beneath the
letters, so the letters keep their shape.

A hard shadow or glow is opaque. A soft one (`shadow_blur`, `glow_blur`) is a stack of
`SOFT_PASSES` copies, the outline stroked ever narrower and each a little see-through, so the
accumulated cover falls off smoothly (a Gaussian edge) across the blur width beyond where the
hard edge was (`soft_passes`). PDF/X-4 keeps the see-through passes; for PDF/X-1a the
flattener (`generator.printing.flatten`) draws each as a picture of what the card shows there.
"""

from __future__ import annotations

from statistics import NormalDist
from typing import Callable

from reportlab.lib.colors import Color

from ..deck.layouts.gradients import Gradient, is_gradient, parse_gradient
from ..deck.layouts.place import Box, Placed
from . import paint
from . import text as text_layout

DEFAULT_SHADOW_OFFSET = (1.2, 1.2)  # pt right and down
DEFAULT_GLOW_PT = 2.5
DEFAULT_TEXT_STROKE_PT = 0.6
SOFT_PASSES = 12  # copies a soft edge is made of: each adds a twelfth of full cover


def gradient_of(value: object) -> Gradient | None:
    return parse_gradient(str(value)) if is_gradient(value) else None


def average(gradient: Gradient) -> str:
    """The gradient as one colour: the mean of its stops (the ink-saving print paints this)."""
    stops = [paint.rgb(colour) for colour, _ in gradient.stops]
    return paint.to_hex(tuple(sum(channel) / len(stops) for channel in zip(*stops)))


def _flat(canvas, value: str) -> str:
    """On a canvas that paints no shadings (the ink saver), a gradient becomes its average colour."""
    gradient = gradient_of(value)
    return average(gradient) if gradient and getattr(canvas, "ink_saving", False) else value


def shade(canvas, gradient: Gradient, box: Box) -> None:
    """Paint a gradient over `box` through the current clip (a PDF shading: vector, opaque)."""
    colours = [Color(*paint.rgb(colour)) for colour, _ in gradient.stops]
    positions = [position for _, position in gradient.stops]
    if gradient.kind == "radial":
        radius = ((box.width ** 2 + box.height ** 2) ** 0.5) / 2  # the centre to the farthest corner
        canvas.radialGradient(box.x + box.width / 2, box.y + box.height / 2, max(radius, 0.01), colours,
                              positions, extend=True)
        return
    x0, y0, x1, y1 = gradient.line(box.x, box.y, box.width, box.height)
    if abs(x1 - x0) < 1e-6 and abs(y1 - y0) < 1e-6:
        x1 += 0.01  # an empty box: any direction paints nothing visible
    canvas.linearGradient(x0, y0, x1, y1, colours, positions, extend=True)


def effects_of(placed: Placed, colour: Callable[[Placed, str], str]) -> dict:
    """The shadow, glow and their sizes an element asks for (colours as #rrggbb, lengths in pt)."""
    k = placed.frame.k
    offset = placed.values.get("shadow_offset") or DEFAULT_SHADOW_OFFSET
    return {
        "shadow": colour(placed, "shadow"), "offset": (float(offset[0]) * k, -float(offset[1]) * k),
        "shadow_blur": _thickness(placed, "shadow_blur", 0.0),
        "glow": colour(placed, "glow"),
        "glow_width": _thickness(placed, "glow_width", DEFAULT_GLOW_PT),
        "glow_blur": _thickness(placed, "glow_blur", 0.0),
    }


def _thickness(placed: Placed, key: str, default_pt: float) -> float:
    """A width in pt: a number is points, "1mm" and the like a length; scaled with the layout."""
    value = placed.values.get(key)
    if value in (None, ""):
        return default_pt * placed.frame.k
    if isinstance(value, (int, float)):
        return float(value) * placed.frame.k
    return placed.length(key, placed.box.width)


def soft_passes(reach: float, blur: float) -> list[tuple[float, float]]:
    """How to draw an edge that is solid up to `reach` pt beyond the outline and fades out over
    the next `blur` pt: (how far this copy reaches, its opacity) for each copy, widest first.

    The target cover at distance d is a Gaussian edge, 1 - Phi((d - reach - blur/2) / (blur/4))
    (about 98 % at `reach`, 2 % at `reach + blur`). Copy j of K adds 1/K of full cover, so after
    j copies the cover is j/K: its opacity is 1/(K - j + 1) (the last is opaque), and it reaches
    where the target cover is (j - 1/2)/K. Hard (`blur` 0): one opaque copy reaching `reach`."""
    if blur <= 0:
        return [(reach, 1.0)]
    gaussian = NormalDist(reach + blur / 2, blur / 4)
    return [(gaussian.inv_cdf(1 - (j - 0.5) / SOFT_PASSES), 1 / (SOFT_PASSES - j + 1))
            for j in range(1, SOFT_PASSES + 1)]


def _see_through(canvas, opacity: float) -> None:
    """The copies drawn next are this opaque (an opaque copy sets no graphics state)."""
    if opacity < 1:
        canvas.setFillAlpha(opacity)
        canvas.setStrokeAlpha(opacity)


# Shapes ----------------------------------------------------------------------------------

def draw_path(canvas, make_path: Callable[[], object], box: Box, *, fill: str, stroke: str, stroke_width: float,
              dash: list[float] | None, effects: dict) -> None:
    """A shape's outline (`make_path` builds it afresh for each use) with its shadow, glow,
    fill (a colour or a gradient) and stroke, in that order from the bottom."""
    fill = _flat(canvas, fill)
    gradient = gradient_of(fill)
    solid = "" if gradient else (paint.color_value(fill) if fill else "")
    closed = bool(fill)
    own_line = stroke_width if stroke else 0.0
    for reach, opacity in soft_passes(0.0, effects["shadow_blur"]) if effects["shadow"] else ():
        canvas.saveState()
        _see_through(canvas, opacity)
        canvas.translate(*effects["offset"])
        _paint_solid(canvas, make_path(), effects["shadow"], own_line + 2 * reach, filled=closed)
        canvas.restoreState()
    for reach, opacity in soft_passes(effects["glow_width"], effects["glow_blur"]) if effects["glow"] else ():
        canvas.saveState()
        _see_through(canvas, opacity)
        canvas.setLineJoin(1)
        canvas.setLineCap(1)
        paint.set_stroke(canvas, effects["glow"])
        canvas.setLineWidth(2 * reach + own_line)
        canvas.drawPath(make_path(), stroke=1, fill=0)
        canvas.restoreState()
    if gradient:
        canvas.saveState()
        canvas.clipPath(make_path(), stroke=0, fill=0)
        shade(canvas, gradient, box)
        canvas.restoreState()
    elif solid:
        paint.set_fill(canvas, solid)
    if stroke:
        paint.set_stroke(canvas, stroke)
        canvas.setLineWidth(stroke_width)
        if dash:
            canvas.setDash(dash)
    if stroke or solid:
        canvas.drawPath(make_path(), stroke=1 if stroke else 0, fill=1 if solid else 0)


def _paint_solid(canvas, path, colour: str, line_width: float, filled: bool) -> None:
    paint.set_fill(canvas, colour)
    paint.set_stroke(canvas, colour)
    canvas.setLineWidth(max(line_width, 0.01))
    canvas.setLineJoin(1)
    canvas.drawPath(path, stroke=0 if filled and not line_width else 1, fill=1 if filled else 0)


# Text ------------------------------------------------------------------------------------

def draw_text(canvas, tbox, fitted, ink: str, rule_color: str | None, *, stroke: str, stroke_width: float,
              effects: dict) -> None:
    """Fitted text with its shadow, glow, outline and fill (a colour or a gradient), bottom up."""
    spec, x, y, width, height = tbox.spec, tbox.x, tbox.y, tbox.width, tbox.height
    outline = 2 * stroke_width if stroke else 0.0
    ink = _flat(canvas, ink)
    gradient = gradient_of(ink)
    ink = gradient.stops[0][0] if gradient else paint.color_value(ink)

    def one_pass(style: text_layout.TextPass, offset: tuple[float, float] = (0.0, 0.0), opacity: float = 1.0) -> None:
        canvas.saveState()
        _see_through(canvas, opacity)
        canvas.translate(*offset)
        text_layout.draw(canvas, spec, fitted, x, y, width, height, ink, rule_color, style)
        canvas.restoreState()

    shadow = effects["shadow"]
    for reach, opacity in soft_passes(0.0, effects["shadow_blur"]) if shadow else ():
        line = outline + 2 * reach
        one_pass(text_layout.TextPass(mode=2 if line else 0, line_width=line, stroke=shadow if line else None,
                                      solid=shadow, icons=False), effects["offset"], opacity)
    for reach, opacity in soft_passes(effects["glow_width"], effects["glow_blur"]) if effects["glow"] else ():
        one_pass(text_layout.TextPass(mode=1, line_width=2 * reach + outline, stroke=effects["glow"], icons=False),
                 opacity=opacity)
    if outline:
        one_pass(text_layout.TextPass(mode=1, line_width=outline, stroke=stroke, icons=False))
    if gradient is None:
        text_layout.draw(canvas, spec, fitted, x, y, width, height, ink, rule_color)
        return
    canvas.saveState()
    text_layout.draw(canvas, spec, fitted, x, y, width, height, ink, None, text_layout.TextPass(mode=7, icons=False))
    shade(canvas, gradient, _lines_box(spec, fitted, x, y, width, height))
    canvas.restoreState()
    text_layout.draw(canvas, spec, fitted, x, y, width, height, ink, rule_color, text_layout.TextPass(glyphs=False))


def _lines_box(spec, fitted, x: float, y: float, width: float, height: float) -> Box:
    """Where the fitted lines stand in their box, so a gradient runs over the letters, not the empty box."""
    used = min(fitted.height, height)
    if spec.valign == "middle":
        return Box(x, y + (height - used) / 2, width, used)
    if spec.valign == "bottom":
        return Box(x, y, width, used)
    return Box(x, y + height - used, width, used)
