"""`deckgen export lackey|tts|foundry|vtt|ttp|cgs|cards|mush DECK`: write one export of one deck
into output/<deck>/.

Every subcommand takes the same deck, folder, `--json` and `--lang` options and runs the same
loop (each language asked, its output folder checked, the files reported); `_each_export` is that
loop, so a subcommand states only its own options and the writer it calls."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

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


def _each_export(write: Callable, deck: str, decks_dir: Path, output: Path, as_json: bool, lang: str | None) -> None:
    """`write(loaded_deck, folder)` for the deck in each language `--lang` names, reporting what it wrote."""
    from ...deck.loader import load_deck

    for loaded in in_languages(load_deck(deck, decks_dir), lang):
        folder = prepare_folder(output_folder(output, loaded))
        _report(loaded.id, write(loaded, folder), folder, as_json)


def _base_url_option(where: str):
    return typer.Option(None, "--base-url", metavar="URL",
                        help=f"http(s) address the images will be hosted at. Default: {where}.")


def register(app: typer.Typer) -> None:
    export = typer.Typer(help="Export a deck for a virtual tabletop.", no_args_is_help=True)
    app.add_typer(export, name="export")

    @export.command("lackey")
    def lackey(
        deck: str = DeckArg, decks_dir: Path = DecksDir, output: Path = OutputDir,
        layout: Optional[str] = typer.Option(
            None, "--layout", help="Card data columns: 'full' (every field the deck uses) or 'dvorak' "
                                   "(the Dvorak wiki's 8 columns). Default: dvorak for decks with Thing and Action kinds."),
        base_url: Optional[str] = typer.Option(
            None, "--base-url", metavar="URL",
            help="Also write updatelist.txt and version.txt for installing from URL/updatelist.txt, "
                 "where URL is the address of the plugin folder's contents."),
        encoding: str = typer.Option("cp1252", "--encoding", help="Text encoding: cp1252 or utf-8."),
        as_json: bool = JsonFlag, lang: Optional[str] = LangOption,
    ) -> None:
        """A LackeyCCG plugin folder and its zip, in output/<deck>/lackey/."""
        from ...export.lackey import export_lackey, release_date_warning

        def write(loaded, folder):
            paths = export_lackey(loaded, folder, layout=layout, base_url=base_url, encoding=encoding)
            for warning in filter(None, [release_date_warning(loaded) if base_url is not None else None]):
                typer.echo(warning, err=True)
            return paths

        _each_export(write, deck, decks_dir, output, as_json, lang)

    @export.command("foundry")
    def foundry(deck: str = DeckArg, decks_dir: Path = DecksDir, output: Path = OutputDir,
                base_url: Optional[str] = _base_url_option("paths under cards/<deck>/ in Foundry's Data folder"),
                as_json: bool = JsonFlag, lang: Optional[str] = LangOption) -> None:
        """A Foundry VTT Cards document (a deck) and its card images, in output/<deck>/foundry/."""
        from ...export.foundry import export_foundry

        _each_export(lambda loaded, folder: export_foundry(loaded, folder, base_url=base_url),
                     deck, decks_dir, output, as_json, lang)

    @export.command("tts")
    def tts(deck: str = DeckArg, decks_dir: Path = DecksDir, output: Path = OutputDir,
            base_url: Optional[str] = _base_url_option(
                "file:/// URLs of the written sheets (this computer only); host them there to share the deck"),
            as_json: bool = JsonFlag, lang: Optional[str] = LangOption) -> None:
        """Tabletop Simulator deck sheets and saved object, in output/<deck>/tts/."""
        from ...export.tts import export_tts

        _each_export(lambda loaded, folder: export_tts(loaded, folder, base_url=base_url),
                     deck, decks_dir, output, as_json, lang)

    @export.command("cgs")
    def cgs(deck: str = DeckArg, decks_dir: Path = DecksDir, output: Path = OutputDir,
            base_url: Optional[str] = _base_url_option(
                "none: copy the folder into Card Game Simulator's games folder (with one, CGS installs "
                "and updates the game from URL/cgs.json)"),
            as_json: bool = JsonFlag, lang: Optional[str] = LangOption) -> None:
        """A Card Game Simulator game folder (cgs.json, AllCards.json, images, a deck), in output/<deck>/cgs/<deck>/."""
        from ...export.cgs import export_cgs

        _each_export(lambda loaded, folder: export_cgs(loaded, folder, base_url=base_url),
                     deck, decks_dir, output, as_json, lang)

    @export.command("vtt")
    def vtt(deck: str = DeckArg, decks_dir: Path = DecksDir, output: Path = OutputDir,
            as_json: bool = JsonFlag, lang: Optional[str] = LangOption) -> None:
        """A playingcards.io / virtualtabletop.io room (widgets.json and images, zipped), in output/<deck>/vtt/."""
        from ...export.vtt import export_vtt

        _each_export(export_vtt, deck, decks_dir, output, as_json, lang)

    @export.command("ttp")
    def ttp(deck: str = DeckArg, decks_dir: Path = DecksDir, output: Path = OutputDir,
            as_json: bool = JsonFlag, lang: Optional[str] = LangOption) -> None:
        """A Tabletop Playground package (card templates and textures), in output/<deck>/ttp/<deck>/."""
        from ...export.ttp import export_ttp

        _each_export(export_ttp, deck, decks_dir, output, as_json, lang)

    @export.command("cards")
    def cards(deck: str = DeckArg, decks_dir: Path = DecksDir, output: Path = OutputDir,
              fmt: str = typer.Option("csv", "--format", help="csv or xlsx."),
              as_json: bool = JsonFlag, lang: Optional[str] = LangOption) -> None:
        """The deck's cards as a spreadsheet, output/<deck>/<deck>-cards.csv or .xlsx, that
        [[card_sources]] reads back."""
        from ...export.cards import export_cards

        _each_export(lambda loaded, folder: [export_cards(loaded, folder, fmt)], deck, decks_dir, output, as_json, lang)

    @export.command("mush")
    def mush(
        deck: str = DeckArg, decks_dir: Path = DecksDir, output: Path = OutputDir,
        style: Optional[str] = typer.Option(
            None, "--style", help="'softcode' (default: a deck object with a game table, for any TinyMUX "
                                  "or PennMUSH), 'dvorak' or 'dvorax' (loadcard commands for DvorakMUSH's "
                                  "Dvorak Engine)."),
        charset: str = typer.Option("utf-8", "--charset",
                                    help="utf-8, or latin1 for servers such as PennMUSH 1.8 that keep Latin-1 "
                                         "only: other characters are spelled in Latin-1 (the file is Latin-1)."),
        as_json: bool = JsonFlag, lang: Optional[str] = LangOption,
    ) -> None:
        """MUSHcode to paste into a MUSH client, in output/<deck>/<deck>.mush."""
        from ...export import export_mush

        _each_export(lambda loaded, folder: export_mush(loaded, folder, style=style, charset=charset),
                     deck, decks_dir, output, as_json, lang)
