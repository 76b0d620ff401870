"""`deckgen watch`: the deck in a browser, each card redrawn the moment its definition is saved."""

from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    from ..options import DeckArg, DecksDir, OutputDir

    @app.command()
    def watch(
        deck: str = DeckArg,
        port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to serve on; 0 picks a free one."),
        host: str = typer.Option("127.0.0.1", "--host",
                                 help="Address to serve on; the default lets only this computer in."),
        open_browser: bool = typer.Option(False, "--open", help="Open the page in the default browser."),
        dpi: int = typer.Option(100, "--dpi", min=30, max=600,
                                help="Resolution of the pictures on the page (the zoom shows 300 dpi)."),
        simulate: int = typer.Option(0, "--simulate", min=0,
                                     help="Games per setting in a playtest after each save (default 0: "
                                          "no playtest, as it takes seconds)."),
        decks_dir: Path = DecksDir,
        output: Path = OutputDir,
    ) -> None:
        """Serve a live preview of a deck at http://127.0.0.1:8000/: every face and the back, lint
        badges and the deck's problems; a saved change redraws just the cards it touches. Ctrl-C stops."""
        from ...preview.app import serve

        serve(deck, decks_dir=decks_dir, output_dir=output, host=host, port=port, dpi=dpi, simulate=simulate,
              open_browser=open_browser, say=typer.echo)
