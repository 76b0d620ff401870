"""`deckgen export lackey|tts|foundry|vtt|mush DECK`: write one export of one deck into output/<deck>/."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ...core.output import prepare_folder
from ...deck.files import output_folder
from ..options import DeckArg, DecksDir, JsonFlag, LangOption, OutputDir
from .languages import in_languages


def _report(deck_id: str, paths: list[Path], folder: Path, as_json: bool) -> None:
    if as_json:
        import json

        typer.echo(json.dumps({"deck": deck_id, "files": [str(p) for p in paths]}, indent=2))
        return
    shown = [p for p in paths if p.suffix != ".jpg"]
    images = len(paths) - len(shown)
    for path in shown:
        typer.echo(str(path))
    typer.echo(f"{deck_id}: {len(paths)} files ({images} images) -> {folder}/")


def _hosted_export(write, deck: str, decks_dir: Path, output: Path, base_url: str | None, as_json: bool,
                   lang: str | None) -> None:
    """Run an export whose images may be hosted (`write(deck, folder, base_url=...)`) for each language asked."""
    from ...deck.loader import load_deck

    for loaded in in_languages(load_deck(deck, decks_dir), lang):
        folder = prepare_folder(output_folder(output, loaded))
        _report(loaded.id, write(loaded, folder, base_url=base_url), folder, as_json)


def register(app: typer.Typer) -> None:
    export = typer.Typer(help="Export a deck for a virtual tabletop.", no_args_is_help=True)
    app.add_typer(export, name="export")

    @export.command("lackey")
    def lackey(
        deck: str = DeckArg,
        decks_dir: Path = DecksDir,
        output: Path = OutputDir,
        layout: Optional[str] = typer.Option(
            None, "--layout", help="Card data columns: 'full' (every field the deck uses) or 'dvorak' "
                                   "(the Dvorak wiki's 8 columns). Default: dvorak for decks with Thing and Action kinds."),
        base_url: Optional[str] = typer.Option(
            None, "--base-url", metavar="URL",
            help="Also write updatelist.txt and version.txt for installing from URL/updatelist.txt, "
                 "where URL is the address of the plugin folder's contents."),
        encoding: str = typer.Option("cp1252", "--encoding", help="Text encoding: cp1252 or utf-8."),
        as_json: bool = JsonFlag,
        lang: Optional[str] = LangOption,
    ) -> None:
        """A LackeyCCG plugin folder and its zip, in output/<deck>/lackey/."""
        from ...deck.loader import load_deck
        from ...export.lackey import export_lackey, release_date_warning

        for loaded in in_languages(load_deck(deck, decks_dir), lang):
            folder = prepare_folder(output_folder(output, loaded))
            paths = export_lackey(loaded, folder, layout=layout, base_url=base_url, encoding=encoding)
            warning = release_date_warning(loaded) if base_url is not None else None
            if warning:
                typer.echo(warning, err=True)
            _report(loaded.id, paths, folder, as_json)

    @export.command("foundry")
    def foundry(deck: str = DeckArg, decks_dir: Path = DecksDir, output: Path = OutputDir,
                base_url: Optional[str] = typer.Option(
                    None, "--base-url", metavar="URL",
                    help="http(s) address the card images will be hosted at. Default: paths under "
                         "cards/<deck>/ in Foundry's Data folder."),
                as_json: bool = JsonFlag, lang: Optional[str] = LangOption) -> None:
        """A Foundry VTT Cards document (a deck) and its card images, in output/<deck>/foundry/."""
        from ...export.foundry import export_foundry

        _hosted_export(export_foundry, deck, decks_dir, output, base_url, as_json, lang)

    @export.command("vtt")
    def vtt(deck: str = DeckArg, decks_dir: Path = DecksDir, output: Path = OutputDir,
            as_json: bool = JsonFlag, lang: Optional[str] = LangOption) -> None:
        """A playingcards.io / virtualtabletop.io room (widgets.json and images, zipped), in output/<deck>/vtt/."""
        from ...deck.loader import load_deck
        from ...export.vtt import export_vtt

        for loaded in in_languages(load_deck(deck, decks_dir), lang):
            folder = prepare_folder(output_folder(output, loaded))
            _report(loaded.id, export_vtt(loaded, folder), folder, as_json)

    @export.command("tts")
    def tts(deck: str = DeckArg, decks_dir: Path = DecksDir, output: Path = OutputDir,
            base_url: Optional[str] = typer.Option(
                None, "--base-url", metavar="URL",
                help="http(s) address the sheet images will be hosted at, so the saved object can be "
                     "shared. Default: file:/// URLs of the written sheets (this computer only)."),
            as_json: bool = JsonFlag, lang: Optional[str] = LangOption) -> None:
        """Tabletop Simulator deck sheets and saved object, in output/<deck>/tts/."""
        from ...export.tts import export_tts

        _hosted_export(export_tts, deck, decks_dir, output, base_url, as_json, lang)

    @export.command("cards")
    def cards(deck: str = DeckArg, decks_dir: Path = DecksDir, output: Path = OutputDir,
              fmt: str = typer.Option("csv", "--format", help="csv or xlsx."),
              as_json: bool = JsonFlag, lang: Optional[str] = LangOption) -> None:
        """The deck's cards as a spreadsheet, output/<deck>/<deck>-cards.csv or .xlsx, that
        [[card_sources]] reads back."""
        from ...deck.loader import load_deck
        from ...export.cards import export_cards

        for loaded in in_languages(load_deck(deck, decks_dir), lang):
            folder = prepare_folder(output_folder(output, loaded))
            _report(loaded.id, [export_cards(loaded, folder, fmt)], folder, as_json)

    @export.command("mush")
    def mush(
        deck: str = DeckArg,
        decks_dir: Path = DecksDir,
        output: Path = OutputDir,
        style: Optional[str] = typer.Option(
            None, "--style", help="'softcode' (default: a deck object with a game table, for any TinyMUX "
                                  "or PennMUSH), 'dvorak' or 'dvorax' (loadcard commands for DvorakMUSH's "
                                  "Dvorak Engine)."),
        charset: str = typer.Option("utf-8", "--charset",
                                    help="utf-8, or latin1 for servers such as PennMUSH 1.8 that keep Latin-1 "
                                         "only: other characters are spelled in Latin-1 (the file is Latin-1)."),
        as_json: bool = JsonFlag,
        lang: Optional[str] = LangOption,
    ) -> None:
        """MUSHcode to paste into a MUSH client, in output/<deck>/<deck>.mush."""
        from ...deck.loader import load_deck
        from ...export import export_mush

        for loaded in in_languages(load_deck(deck, decks_dir), lang):
            folder = prepare_folder(output_folder(output, loaded))
            _report(loaded.id, export_mush(loaded, folder, style=style, charset=charset), folder, as_json)
