"""`deckgen print` and `deckgen images`: print-ready PDFs and card images."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Optional

import typer

from ...core.output import prepare_folder

# Choices are plain strings checked by the library, which names the allowed values in its error.
AllowLowRes = typer.Option(False, "--allow-low-res",
                           help="Print art under 150 ppi at its printed size anyway (a warning, not an error).")


def _how_to_print(options) -> str:
    if options.fold:
        return "single-sided; fold on the dashed line, faces out"
    if options.sides == "fronts":
        return "faces only"
    flip = "flip on the " + options.duplex.replace("-", " ")
    if options.sides == "backs":
        return f"backs only: put the printed faces back in the tray so the sheet turns as a duplex {flip}"
    return f"double-sided, {flip}"


def register(app: typer.Typer) -> None:
    from ...deck.files import output_folder
    from ..console import print_json as _print_json
    from ..options import DeckArg, DecksDir, JsonFlag, LangOption, OutputDir
    from .languages import in_languages

    @app.command("print")
    def print_command(
        deck: str = DeckArg,
        paper: Optional[str] = typer.Option(None, "--paper", help="Paper size of the sheets: a4 (default), letter, or all (a file for each)."),
        card_size: str = typer.Option("deck", "--card-size",
                                      help="Card trim size: poker (63×88 mm), poker-in (2.5×3.5 in), bridge, "
                                           "tarot, mini, square, or deck (the deck's own, poker for ours)."),
        bleed: Optional[float] = typer.Option(None, "--bleed",
                                              help="Bleed around each card in mm (0 allowed); default 3, or 0.5 "
                                                   "with --registration (a cutting machine cuts true)."),
        gap: Optional[float] = typer.Option(None, "--gap",
                                            help="Space between cards in mm; default two bleeds, so every card "
                                                 "keeps its whole bleed (1 with --registration)."),
        shared_cuts: bool = typer.Option(False, "--shared-cuts",
                                         help="No gap: neighbours share one cut (for cards with white edges)."),
        duplex: Optional[str] = typer.Option(None, "--duplex",
                                             help="How the printer turns the sheet: long-edge (default) or "
                                                  "short-edge (backs are mirrored to land behind their faces), "
                                                  "or none (faces only)."),
        sides: str = typer.Option("both", "--sides",
                                  help="both (faces then backs pages), fronts or backs only, for printing the "
                                       "two sides in separate passes."),
        fold: bool = typer.Option(False, "--fold",
                                  help="Fold-over sheets: faces on the left half, backs on the right, fold line "
                                       "between; print single-sided, fold, glue, cut."),
        proof: bool = typer.Option(False, "--proof",
                                   help="Draw each card's cut line, safe area and rounded corners over it."),
        registration: Optional[str] = typer.Option(
            None, "--registration",
            help="silhouette: print-and-cut sheets with Silhouette Studio's registration marks (no crop marks) "
                 "and an SVG cut file of the card outlines beside the PDF."),
        corner_radius: str = typer.Option(
            "card", "--corner-radius",
            help="Corners of the cut file's outlines and of the --proof overlay: card (the card's own, 3.2 mm on a poker card), 1/8in, 3mm, "
                 "3.5mm, 1/4in, square, or a radius in mm."),
        printer_margin: Optional[float] = typer.Option(
            None, "--printer-margin",
            help="The band at the paper's edge your printer cannot print, in mm (default 6); crop marks stay "
                 "inside it."),
        orientation: str = typer.Option("auto", "--orientation",
                                        help="auto (whichever holds more cards), portrait or landscape."),
        back_offset: Optional[str] = typer.Option(
            None, "--back-offset",
            help="RIGHT,UP in mm as read on the calibration sheet: how far backs print from where they belong; "
                 "every backs page moves to cancel it."),
        printer: Optional[str] = typer.Option(None, "--printer",
                                              help="Use the settings remembered by `deckgen printer save NAME`."),
        calibration: bool = typer.Option(False, "--calibration",
                                         help="Start with a sheet that checks the scale and measures how far "
                                              "backs sit from faces."),
        one_per_page: bool = typer.Option(False, "--one-per-page",
                                          help="One card per page at trim size plus bleed (TrimBox and BleedBox "
                                               "set), faces and backs alternating, for print services."),
        service: Optional[str] = typer.Option(
            None, "--service",
            help="A print service's upload files and a zip of them, checked against its rules: tgc (The Game "
                 "Crafter), mpc (MakePlayingCards), printerstudio, dtc (DriveThruCards: CMYK PDF/X-1a)."),
        color: str = typer.Option("rgb", "--color",
                                  help="rgb (as drawn), or cmyk: every colour converted through an ICC profile, "
                                       "written as PDF/X."),
        pdfx: Optional[str] = typer.Option(None, "--pdfx",
                                 help="With --color cmyk: x1a (PDF/X-1a:2001), x1a-2003, or x4 (PDF/X-4, "
                                      "transparency allowed); default x1a, or the service's own."),
        icc_profile: Optional[Path] = typer.Option(
            None, "--icc-profile",
            help="With --color cmyk: your print shop's CMYK output profile (default: the system's "
                 "Artifex SWOP profile from Debian's libgs-common)."),
        allow_low_res: bool = AllowLowRes,
        ink_saver: bool = typer.Option(False, "--ink-saver",
                                       help="Save ink on home sheets: flat fills printed as outlines, art in grey "
                                            "(file name ends in -ink-saver)."),
        decks_dir: Path = DecksDir,
        output: Path = OutputDir,
        as_json: bool = JsonFlag,
        lang: Optional[str] = LangOption,
    ) -> None:
        """Write a print-ready PDF to OUTPUT/<deck>/: <deck>-print-<paper>.pdf, or <deck>-cards.pdf
        with --one-per-page."""
        from ...deck.cache import load_deck  # a checked deck kept from an earlier run, when nothing changed
        from ...printing import sheets
        from ...printing.pdfx import ColorOptions
        from ...printing.printers import sheet_options

        if service:
            from ...printing.services import refuse_unhonoured

            given = {"--paper": paper is not None, "--card-size": card_size != "deck", "--bleed": bleed is not None,
                     "--gap": gap is not None, "--shared-cuts": shared_cuts, "--duplex": duplex is not None,
                     "--sides": sides != "both", "--fold": fold, "--proof": proof,
                     "--printer-margin": printer_margin is not None, "--orientation": orientation != "auto",
                     "--back-offset": back_offset is not None, "--printer": printer is not None,
                     "--calibration": calibration, "--one-per-page": one_per_page,
                     "--registration": registration is not None, "--corner-radius": corner_radius != "card",
                     "--color": color != "rgb",
                     "--pdfx": pdfx is not None, "--icc-profile": icc_profile is not None, "--ink-saver": ink_saver}
            refuse_unhonoured(service, [name for name, was_given in given.items() if was_given])
        papers = ["a4", "letter"] if paper == "all" else [paper]
        every_paper = [sheet_options(paper=name, card_size=card_size, bleed=bleed, gap=gap, shared_cuts=shared_cuts,
                                duplex=duplex, sides=sides, fold=fold, proof=proof, printer_margin=printer_margin,
                                orientation=orientation, back_offset=back_offset, printer=printer,
                                calibration=calibration, color=ColorOptions(color, pdfx or "x1a", icc_profile),
                                registration=registration) for name in papers]
        every_paper = [dataclasses.replace(options, allow_low_res=allow_low_res, ink_saver=ink_saver,
                                           corner=corner_radius).checked()
                       for options in every_paper]
        options = every_paper[0]
        if ink_saver and one_per_page:
            from ...core.errors import OptionError

            raise OptionError("--ink-saver is for home-printed sheets; --one-per-page goes to a print service, "
                              "which prints the full colours: drop one of them")
        for loaded in in_languages(load_deck(deck, decks_dir), lang):
            folder = prepare_folder(output_folder(output, loaded))
            if service:
                from ...printing.services import write_service

                files, archive, max_ink = write_service(loaded, folder, service, icc_profile, pdfx, allow_low_res)
                summary = {"deck": loaded.id, "service": service, "folder": str(files[0].parent),
                           "files": len(files), "zip": str(archive)}
                if max_ink is not None:
                    summary["max_total_ink_percent"] = round(max_ink * 100, 1)
                if as_json:
                    _print_json(summary)
                else:
                    typer.echo(f"{files[0].parent}/: {len(files)} files for --service {service}; upload {archive}")
                    if max_ink is not None:
                        typer.echo(f"highest total ink (C+M+Y+K) measured in the file: {max_ink:.0%}")
                continue
            if one_per_page:
                path = sheets.write_one_per_page(loaded, folder, card_size, options.bleed_mm, options.color, allow_low_res)
                summary = {"deck": loaded.id, "file": str(path), "pages": 2 * loaded.total}
                if as_json:
                    _print_json(summary)
                else:
                    typer.echo(f"{path}: {loaded.total} cards, {summary['pages']} pages (face, back, face, ...)")
                continue
            for options in every_paper:  # --paper all: A4, then Letter
                layout = options.layout(loaded)
                path = sheets.write_sheets(loaded, folder, options)
                per_sheet = options.cards_per_sheet(layout)
                summary = {"deck": loaded.id, "file": str(path), "cards_per_sheet": per_sheet,
                           "columns": layout.columns, "rows": layout.rows, "orientation": layout.orientation,
                           "sheets": -(-loaded.total // per_sheet)}
                if as_json:
                    _print_json(summary)
                    continue
                typer.echo(f"{path}: {loaded.total} cards on {summary['sheets']} sheet(s), "
                           f"{layout.columns}×{layout.rows} per sheet ({layout.orientation})")
                typer.echo(f"print at actual size (100 %, no fit-to-page), {_how_to_print(options.checked())}")

    @app.command("images")
    def images_command(
        deck: str = DeckArg,
        dpi: Optional[int] = typer.Option(None, "--dpi", help="Resolution; default 300 (or the profile's)."),
        bleed: Optional[float] = typer.Option(None, "--bleed",
                                              help="Bleed in mm; default 3 (or the profile's)."),
        profile: Optional[str] = typer.Option(
            None, "--profile", help="A print service's exact spec: tgc (The Game Crafter, 825×1125 px poker), "
                                    "mpc (MakePlayingCards, 822×1122 px poker) or printerstudio (as mpc)."),
        allow_low_res: bool = AllowLowRes,
        decks_dir: Path = DecksDir,
        output: Path = OutputDir,
        as_json: bool = JsonFlag,
        lang: Optional[str] = LangOption,
        card: Optional[str] = typer.Option(None, "--card", metavar="CODE",
                                           help="Draw only this card (its code, id or name): its face and "
                                                "its own back, if it has one."),
    ) -> None:
        """Write one PNG per distinct card face plus back.png (and backs/<card>.png for cards with a
        back of their own) to OUTPUT/<deck>/images/; pictures of cards the deck no longer has are removed."""
        from PIL import Image

        from ...core.files import open_input
        from ...core.progress import progress_bar
        from ...deck.cache import load_deck  # a checked deck kept from an earlier run, when nothing changed
        from ...faces import images

        for loaded in in_languages(load_deck(deck, decks_dir), lang):
            with progress_bar(as_json) as advance:
                paths = images.write_images(loaded, prepare_folder(output_folder(output, loaded)), dpi, bleed, profile,
                                           allow_low_res=allow_low_res, advance=advance, only=card)
            with open_input(paths[-1], "output") as written, Image.open(written) as first:
                size = first.size
            if as_json:
                _print_json({"deck": loaded.id, "folder": str(paths[0].parent), "files": len(paths),
                             "width_px": size[0], "height_px": size[1]})
            else:
                faces = 1 if card else len(loaded.cards)
                typer.echo(f"{paths[0].parent}/: {len(paths)} images ({faces} face(s) and "
                           f"{len(paths) - faces} back(s)), {size[0]}×{size[1]} px")
