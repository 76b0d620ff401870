"""Colour-vision checks: suits and kinds told apart only by colour must stay apart for the
about 8 % of men (0.5 % of women) with a colour-vision deficiency (WCAG 1.4.1, "colour is not
the only cue").

Each colour is simulated for protanopia, deuteranopia and tritanopia with the model of Machado,
Oliveira and Fernandes (2009, "A physiologically-based model for simulation of color vision
deficiency", IEEE TVCG 15(6)) at severity 1.0: a 3×3 matrix applied to linear sRGB. Two
simulated colours are compared by CIEDE2000 (Sharma, Wu and Dalal 2005) in CIELAB (D65).

Which pairs are told apart only by colour: two suits with the same symbol (the pips and indices
then differ in colour alone), and two kinds whose cards share a face layout that paints the
kind's colour and no other mark of the kind (a crest shape, an initial or a figure differing
between them);
the kind's name in a type line is read, not seen at a glance, so it does not count. A pair closer than `MIN_DELTA_E` under a simulation is a
warning naming both, the vision type and the distance.

The threshold, 10 ΔE00: a difference of about 2 is just noticeable side by side (Sharma); cards
are compared across a table, not side by side, and a print run drifts by up to about 5 ΔE00
between proof and press (ISO 12647-2 tolerances), so two categories need several times the
just-noticeable difference to stay apart after printing. It is also the largest round value
that every pair of the Okabe–Ito colours (the palette `okabe-ito.*` in a deck, designed for
these readers) clears under all three simulations: their closest pair, orange and reddish
purple under tritanopia, is 10.9; a common red and green (#d62728, #2ca02c) fall to 4.6 under
deuteranopia (tests/validate/test_colourvision.py holds both).
"""

from __future__ import annotations

import math
from itertools import combinations
from typing import TYPE_CHECKING

from ..core.errors import Problem
from ..deck.layouts.choose import choose_face
from ..deck.layouts.colours import rgb
from ..deck.layouts.values import CardValues, kind_color, layout_paths
from ..deck.locate import Locator

if TYPE_CHECKING:
    from ..deck.model import Card, Deck

MIN_DELTA_E = 10.0

# Machado et al. 2009, severity 1.0, for linear RGB (the paper's Table 1 at 1.0).
MACHADO: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _encoded(channel: float) -> float:
    channel = min(1.0, max(0.0, channel))
    return 12.92 * channel if channel <= 0.0031308 else 1.055 * channel ** (1 / 2.4) - 0.055


def simulate(color: str, vision: str) -> tuple[float, float, float]:
    """The sRGB colour (0..1) a reader with `vision` sees for `color` (#rrggbb)."""
    linear = [_linear(c) for c in rgb(color)]
    return tuple(_encoded(sum(m * c for m, c in zip(row, linear))) for row in MACHADO[vision])  # type: ignore[return-value]


def to_hex(color: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(c * 255):02x}" for c in color)


def lab(color: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIELAB (D65 white) of an sRGB colour with channels 0..1."""
    r, g, b = (_linear(c) for c in color)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e2000(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = first, second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dh_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dh_big / s_h) ** 2
                     + r_t * (dc / s_c) * (dh_big / s_h))


def distance(first: str, second: str, vision: str = "") -> float:
    """ΔE00 between two #rrggbb colours as a reader with `vision` ('' = typical) sees them."""
    if vision:
        return delta_e2000(lab(simulate(first, vision)), lab(simulate(second, vision)))
    return delta_e2000(lab(rgb(first)), lab(rgb(second)))


def colour_only_pairs(deck: "Deck") -> list[tuple[str, str, str, str, str, str]]:
    """(what, id, colour, other id, other colour, field) of every pair told apart only by colour."""
    pairs = []
    for (i, one), (j, other) in combinations(enumerate(deck.suits), 2):
        if one.symbol == other.symbol:
            pairs.append(("suits", one.id, one.color, other.id, other.color, f"suits[{j}].color"))
    layouts: dict[str, dict[str, "Card"]] = {}  # kind -> its cards' face layouts, a card drawn by each
    for card in deck.cards:
        layouts.setdefault(card.kind, {}).setdefault(choose_face(deck, card).name, card)
    kinds = [(index, kind) for index, kind in enumerate(deck.kinds) if kind.id in layouts]
    for (i, one), (j, other) in combinations(kinds, 2):
        for name in layouts[one.id].keys() & layouts[other.id].keys():
            first, second = layouts[one.id][name], layouts[other.id][name]
            if _only_colour_differs(deck, first, second):
                pairs.append(("kinds", one.id, kind_color(deck, one.id), other.id, kind_color(deck, other.id),
                              f"kinds[{j}].color"))
                break
    return pairs


def _only_colour_differs(deck: "Deck", first: "Card", second: "Card") -> bool:
    """Whether a layout shared by two kinds' cards shows the kind's colour and no other kind value
    (a crest shape, an initial, a figure such as the wizard's) that would tell them apart at a glance."""
    paths = [path for path in layout_paths(choose_face(deck, first))
             if path.startswith("kind.") or path in ("figure", "card.figure")]  # a figure is the kind's picture
    if "kind.color" not in paths:
        return False
    one, other = CardValues(deck, first), CardValues(deck, second)
    return all(one.lookup(path) == other.lookup(path)
               for path in paths if path not in ("kind.color", "kind.id", "kind.name"))


def colour_vision_problems(deck: "Deck") -> list[Problem]:
    """A warning for every pair told apart only by colour that a colour-blind reader cannot tell apart."""
    locate = Locator(deck)
    problems = []
    for what, one, first, other, second, field in colour_only_pairs(deck):
        close = [(vision, distance(first, second, vision)) for vision in MACHADO]
        close = [(vision, value) for vision, value in close if value < MIN_DELTA_E]
        if not close:
            continue
        seen = ", ".join(f"{vision} ΔE00 {value:.1f}" for vision, value in close)
        cue = "the same symbol" if what == "suits" else "the same layout"
        problems.append(locate.problem(
            field, f"{what} {one!r} ({first}) and {other!r} ({second}) have {cue} and differ only by colour, "
                   f"which readers with colour-vision deficiency cannot tell apart: {seen} "
                   f"(under {MIN_DELTA_E:g})",
            hint="give them different symbols or layouts, or colours further apart in lightness; the "
                 "okabe-ito.* palette colours (docs/deck-format.md) are chosen for these readers",
            severity="warning"))
    return problems
