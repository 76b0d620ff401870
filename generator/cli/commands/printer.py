"""`deckgen printer`: remember a printer's calibration (back offset, margin, paper, duplex) under a name."""

from __future__ import annotations

from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    from ..console import print_json as _print_json
    from ..options import JsonFlag

    group = typer.Typer(help="Remember printers' settings for `deckgen print --printer NAME`.",
                        no_args_is_help=True)
    app.add_typer(group, name="printer")

    @group.command("save")
    def save(
        name: str = typer.Argument(..., help="A name for the printer, e.g. office."),
        back_offset: Optional[str] = typer.Option(None, "--back-offset",
                                                  help="RIGHT,UP in mm as read on the calibration sheet."),
        printer_margin: Optional[float] = typer.Option(None, "--printer-margin",
                                                       help="The unprintable band at the paper's edge, in mm."),
        paper: Optional[str] = typer.Option(None, "--paper", help="a4 or letter."),
        duplex: Optional[str] = typer.Option(None, "--duplex", help="long-edge, short-edge or none."),
    ) -> None:
        """Remember settings under NAME (settings not given keep their remembered values)."""
        from ...printing.printers import Printer, parse_offset, save_printer

        offset = parse_offset(back_offset) if back_offset is not None else None
        path = save_printer(name, Printer(offset, printer_margin, paper, duplex))
        typer.echo(f"remembered printer {name!r} in {path}; use it with: deckgen print DECK --printer {name}")

    @group.command("list")
    def list_printers(as_json: bool = JsonFlag) -> None:
        """List the remembered printers and their settings."""
        from dataclasses import asdict

        from ...printing.printers import config_path, load_printers

        printers = load_printers()
        if as_json:
            _print_json({name: asdict(settings) for name, settings in sorted(printers.items())})
            return
        if not printers:
            typer.echo(f"no printers remembered yet ({config_path()}); see deckgen printer save --help")
        for name, settings in sorted(printers.items()):
            shown = ", ".join(f"{key} {value}" for key, value in asdict(settings).items() if value is not None)
            typer.echo(f"{name}: {shown}")
