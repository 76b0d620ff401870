"""`deckgen engines`: the game engines installed (deckgen's own and packages' through the
`deckgen.engines` entry points), and the conformance suite run on a deck's engine."""

from __future__ import annotations

from pathlib import Path

import typer

from ..console import echo, print_json
from ..options import DeckArg, DecksDir, JsonFlag


def register(app: typer.Typer) -> None:
    group = typer.Typer(help="The game engines installed, and their conformance checks (docs/engines.md).",
                        no_args_is_help=True)
    app.add_typer(group, name="engines")

    @group.command("list")
    def list_engines(as_json: bool = JsonFlag) -> None:
        """List the installed engines: the name a deck writes in `[deck] engine`, the package that
        registers it, its players and the questions `deckgen rule` can put to it."""
        from ...games.base import installed_engines

        rows = installed_engines()
        if as_json:
            print_json(rows)
            return
        width = max((len(row["engine"]) for row in rows), default=6)
        for row in rows:
            about = (f"cannot be loaded: {row['error']}" if "error" in row else
                     f"{row['players']} players; questions: {', '.join(row['questions']) or 'none'}")
            echo(f"{row['engine']:<{width}}  {row['package']} ({row['target']})  {about}")

    @group.command("check")
    def check(
        deck: str = DeckArg,
        games: int = typer.Option(4, "--games", "-n", min=1, max=1000,
                                  help="Random games per setting (the deck's rules, each variant) and player count."),
        seed: int = typer.Option(0, "--seed", help="Seed of the run; the same seed plays the same games."),
        decks_dir: Path = DecksDir,
        as_json: bool = JsonFlag,
    ) -> None:
        """Run the conformance suite on the deck's engine: the declared player range, score bounds
        and length over seeded random games, illegal actions refused with a rule of the deck,
        clones and replays that agree, logs the referee replays, the same seed the same game,
        and every question's example. Exit 1 when a promise is broken."""
        from ...games.conformance import CHECKS, check_deck
        from . import quick

        loaded = quick.load(deck, decks_dir, layouts=False)
        if not loaded.engine:
            raise typer.BadParameter(f"deck {loaded.id!r} names no engine ([deck] engine = ...)", param_hint="DECK")
        failures = check_deck(loaded, games, seed)
        if as_json:
            print_json({"deck": loaded.id, "engine": loaded.engine, "games": games, "seed": seed,
                        "checks": list(CHECKS), "failures": [failure.as_dict() for failure in failures]})
        elif failures:
            for failure in failures:
                echo(f"{loaded.id}: {failure.setting}: {failure.message}")
            echo(f"{loaded.id}: the {loaded.engine} engine breaks {len(failures)} promise(s)")
        else:
            echo(f"{loaded.id}: the {loaded.engine} engine keeps every promise ({', '.join(CHECKS)}; "
                 f"{games} games per setting and player count, seed {seed})")
        if failures:
            raise typer.Exit(1)
