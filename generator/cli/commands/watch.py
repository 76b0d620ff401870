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
        play: bool = typer.Option(True, "--play/--no-play", help="A Play tab: the deck's game at a table "
                                  "(deckgen play) beside the cards, on a port of its own."),
        decks_dir: Path = DecksDir,
        output: Path = OutputDir,
    ) -> None:
        """Serve a live preview of a deck at http://127.0.0.1:8000/: every face and the back, lint
        badges and the deck's problems; a saved change redraws just the cards it touches. A Play
        tab seats people and bots at the deck's game (decks with an engine). Ctrl-C stops."""
        from ...core.errors import DeckgenError
        from ...core.localweb import LOOPBACK
        from ...deck.files import resolve_deck_path
        from ...play.app import start_table
        from ...preview.app import serve

        resolve_deck_path(deck, decks_dir)  # a deck that is not there is said once, not once per tab
        table, links = None, []
        if play:
            try:
                table = start_table(deck, decks_dir, output_dir=output, host=host, port=0, dpi=dpi)
            except DeckgenError as error:
                typer.echo(f"note: no Play tab: {error}")
            else:
                typer.echo(f"the deck's game at a table (the Play tab): {table.owner_url}")
                if host in LOOPBACK:  # a page shared on the network must not hand out the table owner's link
                    links = [("Play", table.owner_url)]
        try:
            serve(deck, decks_dir=decks_dir, output_dir=output, host=host, port=port, dpi=dpi, simulate=simulate,
                  open_browser=open_browser, say=typer.echo, links=links)
        finally:
            if table is not None:
                table.stop()
