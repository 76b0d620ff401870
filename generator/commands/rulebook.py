"""`deckgen rulebook`: typeset a deck's rulebook as PDF, HTML and/or Markdown."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from ..output import prepare_folder


class RulebookFormat(str, Enum):
    pdf = "pdf"
    html = "html"
    md = "md"
    all = "all"


def register(app: typer.Typer) -> None:
    from ..cli import DeckArg, DecksDir, JsonFlag, OutputDir

    @app.command()
    def rulebook(
        deck: str = DeckArg,
        fmt: RulebookFormat = typer.Option(RulebookFormat.all, "--format", "-f",
                                           help="pdf, html, md, or all three."),
        template: Optional[Path] = typer.Option(
            None, "--template",
            help="Your own Jinja template for HTML or Markdown (rulebook.html.j2 / rulebook.md.j2, "
                 "or a folder holding them); it runs sandboxed and may include files from its own folder only."),
        decks_dir: Path = DecksDir,
        output: Path = OutputDir,
        as_json: bool = JsonFlag,
    ) -> None:
        """Typeset the rulebook: cover, contents, rules, card reference, rulings, quick reference."""
        import json

        from ..loader import load_deck
        from ..rulebook import FORMATS, write_rulebooks

        loaded = load_deck(deck, decks_dir)
        formats = FORMATS if fmt is RulebookFormat.all else (fmt.value,)
        written = write_rulebooks(loaded, prepare_folder(output / loaded.id), formats, template)
        documents = [path for path in written if path.suffix.lstrip(".") in FORMATS]
        if as_json:
            typer.echo(json.dumps({"deck": loaded.id, "files": [str(p) for p in written]}, indent=2))
            return
        for path in documents:
            typer.echo(f"wrote {path}")
        pictures = len(written) - len(documents)
        if pictures:
            typer.echo(f"wrote {pictures} card pictures under {output / loaded.id / 'images'}/")
