"""`deckgen print` and `deckgen images`: print-ready PDFs and card images."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

# Choices are plain strings checked by the library, which names the allowed values in its error.
AllowLowRes = typer.Option(False, "--allow-low-res",
                           help="Print art under 150 ppi at its printed size anyway (a warning, not an error).")

def register(app: typer.Typer) -> None:
    from ..cli import DeckArg, DecksDir, JsonFlag, OutputDir, _print_json

    @app.command("print")
    def print_command(
        deck: str = DeckArg,
        paper: str = typer.Option("a4", "--paper", help="Paper size of the sheets: a4 or letter."),
        card_size: str = typer.Option("deck", "--card-size",
                                      help="Card trim size: poker, bridge, tarot, mini, square, or deck "
                                           "(the deck's own, poker for ours)."),
        bleed: float = typer.Option(3.0, "--bleed", help="Bleed around each card in mm (0 allowed)."),
        gap: float = typer.Option(0.0, "--gap", help="Space between cards in mm; 0 means shared cuts."),
        duplex: str = typer.Option("long-edge", "--duplex",
                                   help="How the printer turns the sheet: long-edge or short-edge (backs are "
                                        "mirrored to land behind their faces), or none (faces only)."),
        calibration: bool = typer.Option(False, "--calibration",
                                         help="Start with a sheet that shows how far backs sit from faces."),
        one_per_page: bool = typer.Option(False, "--one-per-page",
                                          help="One card per page at trim size plus bleed (TrimBox and BleedBox "
                                               "set), faces and backs alternating, for print services."),
        allow_low_res: bool = AllowLowRes,
        decks_dir: Path = DecksDir,
        output: Path = OutputDir,
        as_json: bool = JsonFlag,
    ) -> None:
        """Write a print-ready PDF to OUTPUT/<deck>/: <deck>-print-<paper>.pdf, or <deck>-cards.pdf
        with --one-per-page."""
        from ..loader import load_deck
        from ..render import sheets

        loaded = load_deck(deck, decks_dir)
        folder = output / loaded.id
        if one_per_page:
            path = sheets.write_one_per_page(loaded, folder, card_size, bleed, allow_low_res)
            summary = {"deck": loaded.id, "file": str(path), "pages": 2 * loaded.total}
        else:
            path = sheets.write_sheets(loaded, folder, paper=paper, card_size=card_size,
                                       bleed_mm=bleed, gap_mm=gap, duplex=duplex, calibration=calibration,
                                       allow_low_res=allow_low_res)
            layout = sheets.sheet_layout(paper, sheets.card_size_mm(loaded, card_size), bleed, gap)
            sheet_count = -(-loaded.total // layout.per_page)
            summary = {"deck": loaded.id, "file": str(path), "cards_per_sheet": layout.per_page,
                       "columns": layout.columns, "rows": layout.rows, "sheets": sheet_count}
        if as_json:
            _print_json(summary)
        elif one_per_page:
            typer.echo(f"{path}: {loaded.total} cards, {summary['pages']} pages (face, back, face, ...)")
        else:
            typer.echo(f"{path}: {loaded.total} cards on {summary['sheets']} sheet(s), "
                       f"{layout.columns}×{layout.rows} per sheet")
            flip = {"long-edge": "double-sided, flip on long edge", "short-edge": "double-sided, flip on short "
                    "edge", "none": "single-sided (faces only)"}.get(duplex, duplex)
            typer.echo(f"print at actual size (100 %, no fit-to-page), {flip}")

    @app.command("images")
    def images_command(
        deck: str = DeckArg,
        dpi: Optional[int] = typer.Option(None, "--dpi", help="Resolution; default 300 (or the profile's)."),
        bleed: Optional[float] = typer.Option(None, "--bleed",
                                              help="Bleed in mm; default 3 (or the profile's)."),
        profile: Optional[str] = typer.Option(
            None, "--profile", help="A print service's exact spec: tgc (The Game Crafter, 825×1125 px poker) "
                                    "or mpc (MakePlayingCards, 822×1122 px poker)."),
        allow_low_res: bool = AllowLowRes,
        decks_dir: Path = DecksDir,
        output: Path = OutputDir,
        as_json: bool = JsonFlag,
    ) -> None:
        """Write one PNG per distinct card face plus back.png (and backs/<card>.png for cards with a
        back of their own) to OUTPUT/<deck>/images/."""
        from PIL import Image

        from ..loader import load_deck
        from ..render import images

        loaded = load_deck(deck, decks_dir)
        paths = images.write_images(loaded, output / loaded.id, dpi, bleed, profile, allow_low_res)
        with Image.open(paths[-1]) as first:
            size = first.size
        if as_json:
            _print_json({"deck": loaded.id, "folder": str(paths[0].parent), "files": len(paths),
                         "width_px": size[0], "height_px": size[1]})
        else:
            typer.echo(f"{paths[0].parent}/: {len(paths)} images ({len(loaded.cards)} faces and "
                       f"{len(paths) - len(loaded.cards)} back(s)), "
                       f"{size[0]}×{size[1]} px")
