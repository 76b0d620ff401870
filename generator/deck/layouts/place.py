"""Laying a layout out on one card: each element's box in points, its values filled in.

`place(deck, layout, card, width, height, bleed)` answers the list of `Placed`
elements for a card at a trim size: the element, its values with every `{variable}`
filled from the card, and its box (x, y lower-left, relative to the trim's lower-left
corner, as reportlab draws). Drawing (`render.elements.draw_placed`) and checking
(`render.check`) both start from it, so what the validator accepts is what gets printed.

Lengths: a number is millimetres; strings may say "mm", "pt" or "%" (of the frame's
width for x and width, of its height for y and height), and may add terms: "100% - 6mm".
On a card of another size than the layout's `reference_size`, mm and pt lengths and font
sizes scale by the smaller of the two size ratios.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .book import Layout
from .units import POINTS_PER_MM, to_points
from .values import CardValues

if TYPE_CHECKING:
    from ..model import Card, Deck
    from .book import Element

READABLE_PT = 5.0  # text never shrinks below this (or its layout minimum, if smaller) on small cards


@dataclass(frozen=True, slots=True)
class Box:
    x: float
    y: float
    width: float
    height: float

    @property
    def top(self) -> float:
        return self.y + self.height

    @property
    def right(self) -> float:
        return self.x + self.width


@dataclass(frozen=True)
class Frame:
    """The card being laid out: trim size, bleed and safe inset in points, and the size scale."""

    width: float
    height: float
    bleed: float
    safe: float
    k: float

    def rect(self, name: str) -> Box:
        if name == "bleed":
            return Box(-self.bleed, -self.bleed, self.width + 2 * self.bleed, self.height + 2 * self.bleed)
        if name == "safe":
            return Box(self.safe, self.safe, self.width - 2 * self.safe, self.height - 2 * self.safe)
        return Box(0.0, 0.0, self.width, self.height)

    def font_sizes(self, value: Any) -> tuple[float, float]:
        largest, smallest = (value, value) if not isinstance(value, (list, tuple)) else (value[0], value[-1])
        low = max(float(smallest) * self.k, min(float(smallest), READABLE_PT))
        return max(float(largest) * self.k, low), low


@dataclass(frozen=True)
class Placed:
    element: "Element"
    values: dict[str, Any]
    box: Box
    frame: Frame

    @property
    def name(self) -> str:
        return self.element.name

    @property
    def type(self) -> str:
        return self.element.type

    def get(self, key: str, default: Any = None) -> Any:
        value = self.values.get(key)
        return default if value in (None, "") else value

    def length(self, key: str, along: float, default: Any = None) -> float:
        value = self.values.get(key, default)
        return 0.0 if value in (None, "") else to_points(value, along, self.frame.k)


def frame_for(layout: Layout, width: float, height: float, bleed: float) -> Frame:
    k = 1.0
    if layout.reference_mm:
        ref_w, ref_h = (side * POINTS_PER_MM for side in layout.reference_mm)
        k = min(width / ref_w, height / ref_h)
    return Frame(width, height, bleed, layout.safe_mm * POINTS_PER_MM, k)


def element_box(values: dict, frame: Frame) -> Box:
    return _box(frame, values.get("frame") or "trim", values.get("x", 0), values.get("y", 0),
                values.get("width", "100%"), values.get("height", "100%"), values.get("anchor") or "top-left")


@lru_cache(maxsize=8192)
def _box(frame: Frame, frame_name: str, x_value, y_value, w_value, h_value, anchor: str) -> Box:
    rect = frame.rect(frame_name)
    w = to_points(w_value, rect.width, frame.k)
    h = to_points(h_value, rect.height, frame.k)
    x = rect.x + to_points(x_value, rect.width, frame.k)
    top = rect.top - to_points(y_value, rect.height, frame.k)
    if anchor.endswith("right"):
        x -= w
    elif anchor in ("top", "center", "bottom"):
        x -= w / 2
    if anchor.startswith("bottom"):
        top += h
    elif anchor in ("left", "center", "right"):
        top += h / 2
    return Box(x, top - h, w, h)


def place(deck: "Deck", layout: Layout, card: "Card | None", width: float, height: float,
          bleed: float = 0.0, values: CardValues | None = None) -> list[Placed]:
    """The elements this layout draws for this card, in drawing order, with their boxes."""
    values = values or CardValues(deck, card)
    frame = frame_for(layout, width, height, bleed)
    placed = []
    for element in layout.elements:
        props = element.props
        if not values.holds(props.get("when")):
            continue
        if "unless" in props and values.holds(props["unless"]):
            continue
        static, dynamic = element.split
        filled = dict(static)
        for key, template in dynamic:
            filled[key] = values.fill(template)
        if element.type == "text" and "text" not in props:
            filled["text"] = values.lookup(props.get("field", element.name))
        placed.append(Placed(element, filled, element_box(filled, frame), frame))
    return placed
