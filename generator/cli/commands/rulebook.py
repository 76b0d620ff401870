"""`deckgen rulebook`: typeset a deck's rulebook as PDF, HTML and/or Markdown."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from ...core.output import prepare_folder


class RulebookFormat(str, Enum):
    pdf = "pdf"
    html = "html"
    md = "md"
    all = "all"


def register(app: typer.Typer) -> None:
    from ...deck.files import output_folder
    from ..options import DeckArg, DecksDir, JsonFlag, LangOption, OutputDir
    from .languages import in_languages

    @app.command()
    def rulebook(
        deck: str = DeckArg,
        fmt: RulebookFormat = typer.Option(RulebookFormat.all, "--format", "-f",
                                           help="pdf, html, md, or all three."),
        template: Optional[Path] = typer.Option(
            None, "--template",
            help="Your own Jinja template for HTML or Markdown (rulebook.html.j2 / rulebook.md.j2, "
                 "or a folder holding them); it runs sandboxed and may include files from its own folder only."),
        paper: str = typer.Option("a4", "--paper", help="The PDF's page size: a4 or letter."),
        booklet: bool = typer.Option(False, "--booklet",
                                     help="The PDF as an A5 booklet imposed on A4 sheets for saddle-stitching: "
                                          "print double-sided (short-edge flip), fold, staple."),
        decks_dir: Path = DecksDir,
        output: Path = OutputDir,
        as_json: bool = JsonFlag,
        lang: Optional[str] = LangOption,
    ) -> None:
        """Typeset the rulebook: cover, contents, rules, card reference, rulings, quick reference."""
        import json

        from ...deck.cache import load_deck  # a checked deck kept from an earlier run, when nothing changed
        from ...rulebook import FORMATS, write_rulebooks

        formats = FORMATS if fmt is RulebookFormat.all else (fmt.value,)
        for loaded in in_languages(load_deck(deck, decks_dir), lang):
            folder = prepare_folder(output_folder(output, loaded))
            written = write_rulebooks(loaded, folder, formats, template, paper, booklet)
            documents = [path for path in written if path.suffix.lstrip(".") in FORMATS]
            if as_json:
                typer.echo(json.dumps({"deck": loaded.id, "files": [str(p) for p in written]}, indent=2))
                continue
            for path in documents:
                typer.echo(f"wrote {path}")
            pictures = len(written) - len(documents)
            if pictures:
                typer.echo(f"wrote {pictures} pictures (cards, figures of play, icons) under {folder / 'images'}/")
