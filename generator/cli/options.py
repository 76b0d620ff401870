"""The options several commands share, so every command spells them the same way."""

from __future__ import annotations

from pathlib import Path

import typer

DecksDir = typer.Option(Path("decks"), "--decks-dir", help="Folder holding the deck files.")
OutputDir = typer.Option(Path("output"), "--output", "-o", help="Folder the outputs go to.")
JsonFlag = typer.Option(False, "--json", help="Print machine-readable JSON instead of text.")
DeckArg = typer.Argument(..., help="A deck id from the decks folder, or a path to a .toml file.")
LangOption = typer.Option(None, "--lang", metavar="LANG",
                          help="A translation of the deck (its code, e.g. de: translations/<deck>.de.toml), "
                               "or 'all' for the deck and every translation; outputs go to OUTPUT/<deck>/<lang>/.")
