"""`deckgen play`: the deck's game at a table in the browser, people and bots, every move
checked by the engine and every game saved as a log."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer


def register(app: typer.Typer) -> None:
    from ..options import DeckArg, DecksDir, OutputDir

    @app.command()
    def play(
        deck: str = DeckArg,
        seats: Optional[str] = typer.Option(None, "--seats", help="Who sits where, one per seat: person, random or "
                                            "heuristic (e.g. person,person,heuristic). Without it (or --players) "
                                            "you seat the players on the page."),
        players: Optional[int] = typer.Option(None, "--players", "-p", min=1,
                                              help="This many seats: you first, heuristic bots after."),
        names: Optional[str] = typer.Option(None, "--names", help="The seats' names in order, e.g. Ann,Ben,Cleo "
                                            "(one word each; default P1, P2...)."),
        hot_seat: bool = typer.Option(False, "--hot-seat", help="Every person plays in your browser, passing the "
                                      "device between turns (no links for the others)."),
        bot_delay: float = typer.Option(1.0, "--bot-delay", min=0.0, max=60.0,
                                        help="Seconds a bot waits before it moves, so people can follow."),
        variant: Optional[List[str]] = typer.Option(None, "--variant", help="Play a deck variant (its id); "
                                                    "repeat for several."),
        seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the deals and the bots (default: random)."),
        port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to serve on; 0 picks a free one."),
        host: str = typer.Option("127.0.0.1", "--host", help="Address to serve on; the default lets only this "
                                 "computer in. 0.0.0.0 shares the table on your network (deckgen warns)."),
        dpi: int = typer.Option(100, "--dpi", min=30, max=300, help="Resolution of the card pictures."),
        logs: Optional[Path] = typer.Option(None, "--logs", help="Folder for the games' logs (default OUTPUT/play)."),
        open_browser: bool = typer.Option(False, "--open", help="Open your link in the default browser."),
        decks_dir: Path = DecksDir,
        output: Path = OutputDir,
    ) -> None:
        """Serve a table at http://127.0.0.1:8000/ where people and bots play the deck's game:
        each person gets a link that shows their own hand and the table, legal moves are
        offered and a wrong one is refused with the rule; every game is saved as a log that
        `deckgen referee` replays. A save to the deck file offers its rules for the next game. Ctrl-C stops."""
        from ...play.app import serve

        serve(deck, decks_dir=decks_dir, logs_dir=logs, output_dir=output, host=host, port=port, bot_delay=bot_delay,
              dpi=dpi, seed=seed, variants=variant or (), seats=seats, names=names, players=players,
              hot_seat=hot_seat, open_browser=open_browser, say=typer.echo)
