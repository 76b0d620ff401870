"""`deckgen tuckbox` and `deckgen tokens`: the components beyond cards, as print-and-play PDFs."""

from __future__ import annotations

from pathlib import Path

import typer

PaperOption = typer.Option("a4", "--paper", help="a4, letter, or all (one file for each).")


def _papers(paper: str) -> list[str]:
    from ...deck.sizes import PAPERS_MM, paper_mm

    if paper == "all":
        return list(PAPERS_MM)
    paper_mm(paper)  # an unknown paper is an error naming the choices
    return [paper]


def register(app: typer.Typer) -> None:
    from ...core.output import prepare_folder
    from ...deck.files import output_folder
    from ..console import print_json
    from ..options import DeckArg, DecksDir, JsonFlag, OutputDir

    @app.command("tuckbox")
    def tuckbox_command(deck: str = DeckArg,
                        paper: str = typer.Option(None, "--paper", help="a4 (default), letter, or all (one file for "
                                                  "each); for the print-and-play sheet."),
                        service: str = typer.Option(None, "--service", help="tgc: The Game Crafter's poker tuck "
                                                    "box as its 2325×1950 px upload image, instead of the sheet."),
                        decks_dir: Path = DecksDir, output: Path = OutputDir, as_json: bool = JsonFlag) -> None:
        """Write the deck's tuck box, a one-piece sheet to cut, fold and glue, to
        OUTPUT/<deck>/<deck>-tuckbox-<paper>.pdf; its size comes from the card size, the count and
        [tuck_box] stock_mm. With --service tgc, The Game Crafter's poker tuck box image instead,
        OUTPUT/<deck>/<deck>-tuckbox-tgc.png."""
        from ...deck.cache import load_deck

        if service is not None:
            _service_box(deck, paper, service, decks_dir, output, as_json)
            return
        from ...printing.tuckbox import box_size, write_tuck_box

        loaded = load_deck(deck, decks_dir)
        size = box_size(loaded)
        folder = prepare_folder(output_folder(output, loaded))
        paths = [write_tuck_box(loaded, folder, name) for name in _papers(paper or "a4")]
        if as_json:
            print_json({"deck": loaded.id, "files": [str(p) for p in paths], "inside_mm":
                        {"width": size.width, "height": size.height, "depth": size.depth}})
            return
        for path in paths:
            typer.echo(f"{path}: tuck box for {loaded.total} cards, {size.width:g}×{size.height:g}×{size.depth:g} mm "
                       "inside; print at 100 %, cut the solid lines, fold the dashed ones")

    def _service_box(deck: str, paper: str | None, service: str, decks_dir: Path, output: Path,
                     as_json: bool) -> None:
        from ...core.errors import OptionError
        from ...deck.cache import load_deck
        from ...printing.tgc_tuckbox import IMAGE_PX, capacity_warning, tuck_box_service, write_tgc_tuck_box

        tuck_box_service(service)
        if paper is not None:
            raise OptionError(f"--paper {paper} is for the print-and-play sheet; --service {service} writes "
                              "the service's upload image, which has no paper: give one or the other")
        loaded = load_deck(deck, decks_dir)
        warning = capacity_warning(loaded)
        if warning:
            typer.echo(warning, err=True)
        path = write_tgc_tuck_box(loaded, prepare_folder(output_folder(output, loaded)))
        if as_json:
            print_json({"deck": loaded.id, "service": service, "file": str(path),
                        "pixels": list(IMAGE_PX), "warnings": [warning] if warning else []})
            return
        typer.echo(f"{path}: The Game Crafter poker tuck box, {IMAGE_PX[0]}×{IMAGE_PX[1]} px at 300 ppi; "
                   "upload it as the tuck box's image")

    @app.command("tokens")
    def tokens_command(deck: str = DeckArg, paper: str = PaperOption, decks_dir: Path = DecksDir,
                       output: Path = OutputDir, as_json: bool = JsonFlag) -> None:
        """Write the deck's [[tokens]] on sheets, each drawn by its layout, to
        OUTPUT/<deck>/<deck>-tokens-<paper>.pdf."""
        from ...deck.cache import load_deck
        from ...printing.tokens import token_slots, write_tokens

        loaded = load_deck(deck, decks_dir)
        folder = prepare_folder(output_folder(output, loaded))
        for name in _papers(paper):
            path = write_tokens(loaded, folder, name)
            pages = len(token_slots(name, list(loaded.tokens)))
            count = sum(token.count for token in loaded.tokens)
            if as_json:
                print_json({"deck": loaded.id, "file": str(path), "tokens": count, "pages": pages})
            else:
                typer.echo(f"{path}: {count} tokens on {pages} page(s); print at 100 %, cut on the grey outlines")
