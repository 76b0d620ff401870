"""Named colour palettes a deck may use wherever it gives a colour: `okabe-ito.orange`.

The Okabe–Ito palette (Okabe and Ito, "Color Universal Design", 2008) is eight colours chosen
to stay apart for readers with protanopia, deuteranopia and tritanopia; `deckgen validate`
checks suit and kind colours under those simulations (generator.validate.colourvision).
A named colour is turned into its #rrggbb when the deck is loaded, so every stage after the
loader sees plain hex colours.
"""

from __future__ import annotations

import re

OKABE_ITO: dict[str, str] = {
    "black": "#000000",
    "orange": "#e69f00",
    "sky-blue": "#56b4e9",
    "bluish-green": "#009e73",
    "yellow": "#f0e442",
    "blue": "#0072b2",
    "vermillion": "#d55e00",
    "reddish-purple": "#cc79a7",
}
PALETTES: dict[str, dict[str, str]] = {"okabe-ito": OKABE_ITO}
NAMED_COLORS: dict[str, str] = {f"{palette}.{name}": value
                                for palette, colours in PALETTES.items() for name, value in colours.items()}

# The JSON Schema pattern of a deck colour: #rrggbb or a palette's named colour.
COLOR_PATTERN = "^(#[0-9a-fA-F]{6}|" + "|".join(re.escape(name) for name in NAMED_COLORS) + ")$"


def resolve(value: str) -> str:
    """A deck colour as #rrggbb: a palette name replaced by its value, anything else unchanged."""
    return NAMED_COLORS.get(value.strip(), value)
