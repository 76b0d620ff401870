"""Card layouts as data: TOML layouts, inheritance, variables and conditions.

`book` reads and checks layout tables (built-in ones in templates/layouts/, shared files,
a deck's own) and resolves `extends`; `values` gives a layout a card's data; `deck`
reads a deck's layouts, fonts and icons for the loader and checks them against its
cards. Drawing a layout is `generator.render.layout` / `elements`.
"""

from .book import Element, Layout, LayoutBook, builtin_book

__all__ = ["Element", "Layout", "LayoutBook", "builtin_book"]
