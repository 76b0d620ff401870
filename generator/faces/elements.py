"""Drawing one placed layout element of each type on a reportlab canvas.

`draw_placed` turns the canvas for `rotate` and `mirrored`, then hands the element to
the drawer for its type. `text_box` builds the fitted-text box of a text (or index)
element, shared with the checks in `render.check`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..deck.layouts.place import Box, Placed
from ..deck.layouts.values import PIP_COUNTS
from . import art, effects, figures, fonts, icons, paint, svgfonts
from . import text as text_layout
from .text import TextBox

if TYPE_CHECKING:
    from ..deck.model import Deck

INK = "#1b1b1b"


def col(placed: Placed, key: str, default: str = "") -> str:
    """The element's colour `key` as #rrggbb; "none" (or no value) is the default, which for a
    fill or an outline is none at all."""
    value = placed.get(key, default)
    return (paint.color_value(str(value)) if value else "") or default


def points(placed: Placed, key: str, default: float) -> float:
    """A thickness or step: a number is points, strings take units as lengths do."""
    value = placed.values.get(key)
    if value in (None, ""):
        return default * placed.frame.k
    if isinstance(value, (int, float)):
        return float(value) * placed.frame.k
    return placed.length(key, placed.box.width)


def face_of(deck: "Deck", family: str, weight: str = "regular", style: str = "normal") -> str:
    """The face key for a family (serif, sans or a deck font) in a weight and style."""
    return fonts.styled_face(fonts.family_key(deck, family or "serif"), weight == "bold", style == "italic")


# Text ------------------------------------------------------------------------------------

def text_box(deck: "Deck", placed: Placed, inner: Box) -> TextBox:
    """The text element's spec in its box (`inner`: the box after rotation)."""
    values = placed.values
    family = values.get("family") or "serif"
    face = face_of(deck, family, values.get("weight") or "regular", values.get("style") or "normal")
    base = face_of(deck, family)
    content = str(values.get("text", ""))
    transform = values.get("transform")
    if transform == "upper":
        content = content.upper()
    elif transform == "lower":
        content = content.lower()
    typography = values.get("typography", True)
    if typography:
        content = text_layout.typographic(content)
    max_size, min_size = placed.frame.font_sizes(values.get("size", 9))
    leading = float(values.get("line_spacing") or text_layout.LEADING)
    if transform == "stacked":
        blocks = [text_layout.Block(tuple(text_layout.words_of(char, face))) for char in content if not char.isspace()]
        gap = 0.0
    elif values.get("markup", True):
        blocks = text_layout.rich_blocks(deck, content, base, weight_face=face)
        gap = None
    else:
        blocks = [text_layout.Block(tuple(text_layout.words_of(content, face)))]
        gap = None
    flavor = values.get("flavor")
    if flavor:
        flavor_text = text_layout.typographic(str(flavor)) if typography else str(flavor)
        extra = text_layout.rich_blocks(deck, flavor_text, base, scale=0.92, italic=True)
        if extra and blocks:
            extra[0] = text_layout.Block(extra[0].words, extra[0].bullet, extra[0].scale, rule_above=True)
        blocks += extra
    spec = text_layout.TextSpec(placed.name, tuple(blocks), max_size, min_size,
                                align=values.get("align") or "left", valign=values.get("valign") or "top",
                                max_lines=values.get("max_lines"), leading=leading,
                                block_gap=gap)
    return TextBox(spec, inner.x, inner.y, inner.width, inner.height)


def _draw_text(canvas, deck, placed: Placed, box: Box) -> None:
    tbox = text_box(deck, placed, box)
    if tbox.spec.empty:
        return
    fitted = text_layout.fit(tbox.spec, tbox.width, tbox.height) or text_layout.overflowing(tbox.spec, tbox.width)
    color = placed.get("color")
    ink = str(color) if effects.gradient_of(color) else col(placed, "color", INK)
    badge = col(placed, "badge")
    if badge:
        width = fitted.lines[0].width if fitted.lines else tbox.width
        pad = 1.2 * 5.0 * placed.frame.k
        pill_w = min(tbox.width, max(tbox.height, width + pad))
        pill = Box(tbox.x + tbox.width - pill_w, tbox.y, pill_w, tbox.height)
        paint.round_rect(canvas, pill.x, pill.y, pill.width, pill.height, pill.height / 2, fill=badge)
        tbox = TextBox(tbox.spec, pill.x, pill.y, pill.width, pill.height)
    effects.draw_text(canvas, tbox, fitted, ink, col(placed, "rule_color") or None, stroke=col(placed, "stroke"),
                      stroke_width=points(placed, "stroke_width", effects.DEFAULT_TEXT_STROKE_PT),
                      effects=effects.effects_of(placed, col))


# Images, shapes, icons ---------------------------------------------------------------------

def _clip(canvas, placed: Placed, box: Box, kind: str) -> None:
    path = canvas.beginPath()
    if kind == "ellipse":
        path.ellipse(box.x, box.y, box.width, box.height)
    elif kind == "circle":
        side = min(box.width, box.height)
        path.circle(box.x + box.width / 2, box.y + box.height / 2, side / 2)
    elif kind == "roundrect":
        path.roundRect(box.x, box.y, box.width, box.height, placed.length("radius", box.width, "2mm"))
    else:
        path.rect(box.x, box.y, box.width, box.height)
    canvas.clipPath(path, stroke=0, fill=0)


def _draw_image(canvas, deck, placed: Placed, box: Box) -> None:
    source = art.image_path(placed)
    if source is None:
        return
    canvas.saveState()
    _clip(canvas, placed, box, placed.get("clip", "rect"))
    mask, tint = art.image_path(placed, "mask"), col(placed, "tint")
    if (mask or tint) and not art.is_svg(source):
        art.draw_masked(canvas, source, (box.x, box.y, box.width, box.height), placed.get("fit", "cover"),
                        mask, tint, within=deck.folder)
    else:
        art.draw_image(canvas, source, box.x, box.y, box.width, box.height, fit=placed.get("fit", "cover"),
                       bleed=placed.get("bleed", ""), bleed_color=col(placed, "bleed_color", "#ffffff"),
                       trim=(placed.frame.width, placed.frame.height) if placed.get("bleed") else None,
                       frame_bleed=placed.frame.bleed, within=deck.folder, svg_fonts=svgfonts.for_deck(deck))
    canvas.restoreState()


def _draw_shape(canvas, deck, placed: Placed, box: Box) -> None:
    fill, stroke = placed.get("fill") or "", col(placed, "stroke")
    fill = "" if str(fill) == "none" else str(fill)
    dash = placed.values.get("dash")
    path = _shape_path(canvas, placed, box)
    if path is None:
        return
    effects.draw_path(canvas, path, box, fill="" if placed.get("shape") == "line" else fill, stroke=stroke,
                      stroke_width=points(placed, "stroke_width", 0.5),
                      dash=[float(v) * placed.frame.k for v in dash] if dash else None,
                      effects=effects.effects_of(placed, col))


def _shape_path(canvas, placed: Placed, box: Box) -> Callable | None:
    """A function building the shape's outline (a fresh path for each use), or None for nothing."""
    kind = placed.get("shape", "rect")

    def build() -> object:
        path = canvas.beginPath()
        if kind == "line":
            path.moveTo(box.x, box.top)
            path.lineTo(box.right, box.y)
        elif kind == "ellipse":
            path.ellipse(box.x, box.y, box.width, box.height)
        elif kind == "roundrect":
            path.roundRect(box.x, box.y, box.width, box.height, placed.length("radius", box.width, "2mm"))
        elif kind == "star":
            radius = min(box.width, box.height) / 2
            return paint.star_path(canvas, box.x + box.width / 2, box.y + box.height / 2, radius, radius * 0.42)
        elif kind == "polygon":
            for index, (px, py) in enumerate(corners):
                point = (box.x + box.width * float(px) / 100, box.top - box.height * float(py) / 100)
                path.moveTo(*point) if index == 0 else path.lineTo(*point)
            path.close()
        else:
            path.rect(box.x, box.y, box.width, box.height)
        return path

    corners = placed.values.get("points") or []
    if kind == "polygon" and len(corners) < 3:
        return None
    return build


def _draw_icon(canvas, deck, placed: Placed, box: Box) -> None:
    name = placed.get("icon")
    if name:
        icons.draw(canvas, deck, str(name), box.x, box.y, box.width, box.height, col(placed, "color") or None)
        return
    glyph = str(placed.get("glyph", ""))
    if glyph:
        face = face_of(deck, placed.get("family") or "sans", placed.get("weight") or "regular")
        paint.symbol(canvas, glyph, box.x + box.width / 2, box.y + box.height / 2, box.height,
                     col(placed, "color", INK), face=face)


def _draw_pattern(canvas, deck, placed: Placed, box: Box) -> None:
    paint.pattern(canvas, str(placed.get("pattern", "diamonds")), box.x, box.y, box.width, box.height,
                  col(placed, "color", INK), points(placed, "step", 11.0))


# Playing cards ------------------------------------------------------------------------------

# Pip positions for number cards: (column, row) with column 0..1 across and row 0..1 down
# the pip area; pips in the lower half are drawn upside down, as on real cards.
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.5, 0.0), (0.5, 1.0)),
    3: ((0.5, 0.0), (0.5, 0.5), (0.5, 1.0)),
    4: ((0, 0), (1, 0), (0, 1), (1, 1)),
    5: ((0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)),
    6: ((0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    7: ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)),
    8: ((0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)),
    9: ((0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)),
    10: ((0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6),
         (0, 1), (1, 1)),
}


def pip_count(placed: Placed) -> int:
    count = placed.values.get("count", "{rank.pips}")
    return int(count) if isinstance(count, int) and count in PIP_COUNTS else 0


def _draw_pips(canvas, deck, placed: Placed, box: Box) -> None:
    count = pip_count(placed)
    glyph, ink = str(placed.get("glyph", "")), col(placed, "color", INK)
    if not count or not glyph:
        return
    card_h = placed.frame.height
    if count == 1:
        size = min(placed.length("ace_size", card_h, "30%"), 1.3 * box.width)
        paint.symbol(canvas, glyph, box.x + box.width / 2, box.y + box.height / 2, size, ink)
        return
    size = min(placed.length("pip_size", card_h, "9.5%"), 0.375 * box.width)
    for column, row in PIP_LAYOUTS[count]:
        paint.symbol(canvas, glyph, box.x + box.width * column, box.top - box.height * row, size, ink,
                     rotate=row > 0.5)


def index_box(deck: "Deck", placed: Placed, box: Box) -> TextBox:
    size = float(placed.values.get("size") or 19) * placed.frame.k
    face = face_of(deck, placed.get("family") or "serif", "bold")
    spec = text_layout.plain(placed.name, str(placed.get("label", "")), face, size, size * 0.55,
                             align="center", max_lines=1)
    return TextBox(spec, box.x, box.top - size * text_layout.LEADING, box.width, size * text_layout.LEADING)


def _draw_index(canvas, deck, placed: Placed, box: Box) -> None:
    ink = col(placed, "color", INK)
    tbox = index_box(deck, placed, box)
    if not tbox.spec.empty:
        fitted = text_layout.fit(tbox.spec, tbox.width, tbox.height) or text_layout.overflowing(tbox.spec, tbox.width)
        text_layout.draw(canvas, tbox.spec, fitted, tbox.x, tbox.y, tbox.width, tbox.height, ink)
    glyph_h = placed.length("glyph_size", box.height, "3.7mm")
    paint.symbol(canvas, str(placed.get("glyph", "")), box.x + box.width / 2, tbox.y - glyph_h * 0.7, glyph_h, ink)


def _draw_figure(canvas, deck, placed: Placed, box: Box) -> None:
    figures.draw_named(canvas, placed, box, col)


DRAWERS: dict[str, Callable] = {
    "text": _draw_text, "image": _draw_image, "shape": _draw_shape, "icon": _draw_icon, "pips": _draw_pips,
    "index": _draw_index, "figure": _draw_figure, "pattern": _draw_pattern,
}


def turned_box(placed: Placed) -> tuple[Box, float]:
    """The box content is laid out in (centred on the origin when turned), and the clockwise
    turn in degrees: 90 and 270 swap width and height, any other angle keeps the box's shape."""
    box, turn = placed.box, float(placed.values.get("rotate") or 0) % 360
    if not turn:
        return box, 0.0
    if turn in (90.0, 270.0):
        return Box(-box.height / 2, -box.width / 2, box.height, box.width), turn
    return Box(-box.width / 2, -box.height / 2, box.width, box.height), turn


# Element types whose drawing leaves graphics state behind (clips, dashes, alpha), so they
# are drawn inside saveState/restoreState; the others set every colour and width they use.
STATEFUL = ("image", "shape", "icon", "figure")


def draw_placed(canvas, deck: "Deck", placed: Placed) -> None:
    drawer = DRAWERS[placed.type]
    values = placed.values
    copies = (False, True) if values.get("mirrored") else (False,)
    opacity = values.get("opacity")
    if len(copies) == 1 and opacity in (None, "") and not values.get("rotate") and (
            placed.type not in STATEFUL or (placed.type == "shape" and not values.get("dash"))):
        drawer(canvas, deck, placed, placed.box)
        return
    for upside_down in copies:
        canvas.saveState()
        if opacity not in (None, ""):
            canvas.setFillAlpha(float(opacity))
            canvas.setStrokeAlpha(float(opacity))
        if upside_down:
            canvas.translate(placed.frame.width, placed.frame.height)
            canvas.rotate(180)
        inner, turn = turned_box(placed)
        if turn:
            canvas.translate(placed.box.x + placed.box.width / 2, placed.box.y + placed.box.height / 2)
            canvas.rotate(-turn)  # clockwise, as a designer turns a card
        drawer(canvas, deck, placed, inner)
        canvas.restoreState()
