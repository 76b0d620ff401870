"""`deckgen layout`: look at a deck's layouts (built-in, shared and its own) without reading TOML."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..options import DeckArg, DecksDir


def register(app: typer.Typer) -> None:
    layout_app = typer.Typer(help="Look at the layouts a deck can use.", no_args_is_help=True)
    app.add_typer(layout_app, name="layout")

    @layout_app.command("list")
    def list_layouts(deck: str = DeckArg, decks_dir: Path = DecksDir) -> None:
        """Every layout the deck can name: the built-in ones, its shared files' and its own."""
        from ...deck.cache import load_deck

        loaded = load_deck(deck, decks_dir)
        for name in loaded.layouts.names():
            layout = loaded.layouts.get(name)
            typer.echo(f"{name:<20} {layout.side:<5} {'built-in' if layout.builtin else 'deck'}  "
                       f"{', '.join(element.name for element in layout.elements)}")

    @layout_app.command("show")
    def show(
        name: str = typer.Argument(..., help="The layout's name (deckgen layout list DECK lists them)."),
        deck: str = typer.Option("wizard", "--deck", help="The deck whose cards and layouts to use: an id "
                                 "from the decks folder or a .toml file."),
        card: Optional[str] = typer.Option(None, "--card", metavar="CODE",
                                           help="Place the elements on this card (default: the first card using "
                                                "the layout)."),
        decks_dir: Path = DecksDir,
    ) -> None:
        """Print a layout with every element's resolved box (x, y, width, height in mm from the
        trim's top-left) on a card of the deck, and its main settings."""
        from ...core.errors import OptionError
        from ...deck.cache import load_deck
        from ...deck.layouts.show import UnknownLayout, describe

        loaded = load_deck(deck, decks_dir)
        chosen = None
        if card is not None:
            chosen = loaded.find_card(card)
            if chosen is None:
                raise OptionError(f"--card {card!r}: deck {loaded.id!r} has no such card; codes: "
                                  f"{', '.join(c.code for c in loaded.cards)}")
        try:
            lines = describe(loaded, name, chosen)
        except UnknownLayout as error:
            raise OptionError(str(error)) from None
        typer.echo("\n".join(lines))
