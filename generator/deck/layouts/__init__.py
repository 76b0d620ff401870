"""Card layouts as data: TOML layouts, inheritance, variables and conditions.

`book` reads and checks layout tables (built-in ones in templates/layouts/, shared files,
a deck's own) and resolves `extends`; `values` gives a layout a card's data; `deck`
reads a deck's layouts, fonts and icons for the loader and checks them against its
cards; `choose` picks a card's face and back layouts; `place` lays a layout out on one
card (boxes in points, values filled); `ranges` the range of every value a layout can hold
and `colours` colour values and functions, so the load refuses what could not be drawn;
`artfiles` and `svgfiles` read image files through the opener, an SVG's references contained.
Drawing it is `generator.faces.elements`.
"""

from .book import Element, Layout, LayoutBook, builtin_book

__all__ = ["Element", "Layout", "LayoutBook", "builtin_book"]
