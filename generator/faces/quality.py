"""Checks of how cards will look in print: text contrast (WCAG) and art resolution.

Both walk the same placed layouts the drawing uses. Contrast: each text's colour against
what lies under it (a badge, the topmost filled shape under the text's centre, else the
paper), warned under 4.5:1 as WCAG asks of body text. Resolution: each raster image's
pixels per inch at the size it is printed (a quarter-turned image's width lies along its
box's height), warned under 300 ppi, an error under 150 unless the designer accepts it
(`allow_low_res`). SVG art and icons: a warning for each feature svglib does not draw, and for
text in a font family the deck does not declare.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import Problem
from ..deck.layouts.choose import choose_back, choose_face
from ..deck.layouts.gradients import is_gradient, parse_gradient
from ..deck.layouts.place import Placed, place
from ..deck.layouts.svgfiles import text_font_families, undrawn_features
from ..deck.sizes import pt
from . import effects, paint, svgfonts
from .art import fitted, image_path, image_size, is_svg, unreadable
from .paint import color_value

if TYPE_CHECKING:
    from ..deck.model import Deck

WCAG_MINIMUM = 4.5
PRINT_PPI = 300
LOWEST_PPI = 150


def relative_luminance(hex_color: str) -> float:
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in paint.rgb(hex_color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(first: str, second: str) -> float:
    high, low = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _colour(value) -> str:
    """A colour as #rrggbb; a gradient as the average of its stops (what it reads as from afar)."""
    try:
        if is_gradient(value):
            return effects.average(parse_gradient(str(value)))
        return color_value(str(value)) if value else ""
    except ValueError:
        return ""


def _background(placed: list[Placed], index: int) -> str | None:
    """What lies under element `index`'s centre: a filled shape's colour, '' for an image, None: paper."""
    item = placed[index]
    badge = _colour(item.values.get("badge"))
    if badge:
        return badge
    cx, cy = item.box.x + item.box.width / 2, item.box.y + item.box.height / 2
    for below in reversed(placed[:index]):
        box = below.box
        if not (box.x <= cx <= box.right and box.y <= cy <= box.top):
            continue
        if below.type == "image" and below.get("src"):
            return ""  # art: contrast depends on the picture
        if below.type == "shape" and below.get("shape", "rect") in ("rect", "roundrect", "ellipse"):
            fill = _colour(below.values.get("fill"))
            opacity = below.values.get("opacity")
            if fill and (opacity in (None, "") or float(opacity) >= 0.8):
                return fill
    return None


def contrast_problems(deck: "Deck", width_mm: float | None = None, height_mm: float | None = None) -> list[Problem]:
    width = pt(deck.card_size.width_mm if width_mm is None else width_mm)
    height = pt(deck.card_size.height_mm if height_mm is None else height_mm)
    found: dict[tuple, list] = {}
    for card in deck.cards:
        for side, layout in (("face", choose_face(deck, card)), ("back", choose_back(deck, card))):
            placed = place(deck, layout, card, width, height)
            for index, item in enumerate(placed):
                if item.type not in ("text", "index") or not (item.get("text") or item.get("label")):
                    continue
                ink = _colour(item.values.get("color")) or "#1b1b1b"
                # letters with a halo or an outline are read against it, whatever lies beyond
                halo = _colour(item.values.get("glow")) or _colour(item.values.get("stroke"))
                ground = halo or _background(placed, index)
                if ground == "":
                    continue
                ground = ground or "#ffffff"
                ratio = contrast_ratio(ink, ground)
                if ratio < WCAG_MINIMUM:
                    found.setdefault((layout.name, item.name, ink, ground, side), []).append((card, ratio))
    problems = []
    for (layout_name, element, ink, ground, side), cards in found.items():
        card, ratio = cards[0]
        others = f" (and {len(cards) - 1} more cards)" if len(cards) > 1 else ""
        where = f"card {card.code}.{element}" if side == "face" else f"back.{element}"
        problems.append(Problem(
            f"card {card.name!r} ({card.code}){others}: {element} of layout {layout_name!r} is {ink} on {ground}, "
            f"a contrast of {ratio:.2f}:1, under the {WCAG_MINIMUM}:1 that WCAG asks of text",
            field=where, file=deck.source, severity="warning",
            hint="darken the text colour or lighten what is under it",
        ))
    return problems


def svg_problems(deck: "Deck", path, field: str) -> list[Problem]:
    """A warning for each SVG feature svglib leaves out, naming the file and the feature, and for
    each font-family of its text that names none of the deck's fonts (drawn in its first)."""
    problems = [Problem(f"{path.name}: uses {feature}, which deckgen's SVG drawing (svglib) leaves out; "
                        "the card is drawn without it", field=field, file=deck.source, severity="warning",
                        hint="flatten it in your SVG editor (e.g. Inkscape: Path > Object to Path, or export the "
                             "effect as a PNG) or use PNG art") for feature in undrawn_features(path)]
    families = [family.family for family in getattr(deck, "fonts", ())]
    return problems + [Problem(
        f"{path.name}: its text in font-family {value!r} names none of the deck's fonts; it is drawn in "
        f"{families[0]!r}", field=field, file=deck.source, severity="warning",
        hint=f"name one of the deck's [[fonts]] families ({', '.join(families)}) in the SVG, or add the font "
             "to [[fonts]]") for value in svgfonts.undeclared(deck, text_font_families(path))]


def resolution_problems(deck: "Deck", width_mm: float | None = None, height_mm: float | None = None,
                        allow_low_res: bool = False) -> list[Problem]:
    width = pt(deck.card_size.width_mm if width_mm is None else width_mm)
    height = pt(deck.card_size.height_mm if height_mm is None else height_mm)
    problems, seen = [], set()
    with_images: dict[int, bool] = {}  # per layout: only a layout with an image element is placed
    for card in deck.cards:
        for layout in (choose_face(deck, card), choose_back(deck, card)):
            if not with_images.setdefault(id(layout), any(element.type == "image" for element in layout.elements)):
                continue
            for item in place(deck, layout, card, width, height, pt(3)):
                if item.type != "image":
                    continue
                path = image_path(item)
                if path is None or unreadable(path, deck.folder) or (path, item.name) in seen:
                    continue
                seen.add((path, item.name))
                if is_svg(path):
                    if path not in seen:
                        seen.add(path)
                        problems += svg_problems(deck, path, f"card {card.code}.{item.name}")
                    continue
                pixels_w, pixels_h = image_size(path)
                box_w, box_h = item.box.width, item.box.height
                if item.get("bleed"):  # the file covers the part inside the trim; the bleed is made
                    box_w = min(item.box.right, width) - max(item.box.x, 0.0)
                    box_h = min(item.box.top, height) - max(item.box.y, 0.0)
                if int(item.values.get("rotate") or 0) % 180 == 90:  # a quarter turn: the picture's
                    box_w, box_h = box_h, box_w  # width lies along the box's height
                drawn_w, _drawn_h = fitted(pixels_w, pixels_h, box_w, box_h, item.get("fit", "cover"))
                ppi = pixels_w / (drawn_w / 72)
                if ppi >= PRINT_PPI - 0.5:  # rounding: 744 px over 63 mm is 300 ppi
                    continue
                error = ppi < LOWEST_PPI and not allow_low_res
                problems.append(Problem(
                    f"card {card.name!r} ({card.code}): image {path.name} prints at {ppi:.0f} ppi in {item.name}; "
                    f"print wants {PRINT_PPI} ppi" + (f" and under {LOWEST_PPI} it looks blurred" if error else ""),
                    field=f"card {card.code}.{item.name}", file=deck.source,
                    severity="error" if error else "warning",
                    hint=f"use a larger image ({round(drawn_w / 72 * PRINT_PPI)} px wide or more)"
                         + ("; or accept it with --allow-low-res" if error else ""),
                ))
    for icon in getattr(deck, "icons", ()):
        if is_svg(icon.path) and not unreadable(icon.path, deck.folder):
            problems += svg_problems(deck, icon.path, f"icons.{icon.name}")
    return problems
