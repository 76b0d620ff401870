"""`deckgen new`: start a deck folder that validates, builds and previews straight away."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def new(
        name: Path = typer.Argument(..., help="The new deck's folder (its name becomes the deck id)."),
        kind: str = typer.Option("trick", "--kind",
                                 help="What to start from: trick (suits and ranks), dvorak (Things and "
                                      "Actions), picture (cards with art), blank (one card)."),
    ) -> None:
        """Write a new deck folder: a commented deck file with the #:schema line for editors, the
        schema beside it, and an art folder. Then: deckgen watch NAME."""
        from ...deck.new import new_deck

        written = new_deck(name, kind)
        typer.echo(f"wrote {written[0]} ({kind} deck) and {name / 'art'}/")
        typer.echo(f"next: deckgen watch {name}   (or: deckgen validate {name}, deckgen build --decks-dir {name})")
