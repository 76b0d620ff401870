"""`deckgen validate`: every problem with a deck, and playtests at any scale (fixed game
counts, `--simulate auto` until the intervals are narrow, `--compare`, a Dask `--cluster`),
and `--ladder`: players from random to search, each against each."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import List, Optional

import typer


def _games(text: str | None) -> int | str | None:
    if text is None or text == "auto":
        return text
    try:
        games = int(text)
    except ValueError:
        games = -1
    if games < 0:
        raise typer.BadParameter(f"{text!r}: give a number of games (0 skips the playtest) or auto",
                                 param_hint="--simulate")
    return games


def register(app: typer.Typer) -> None:
    from ..console import print_json as _print_json
    from ..options import DecksDir, JsonFlag, LangOption, OutputDir

    @app.command()
    def validate(
        decks: Optional[List[str]] = typer.Argument(None, help="Deck ids or .toml paths; default: every deck."),
        decks_dir: Path = DecksDir,
        as_json: bool = JsonFlag,
        strict: bool = typer.Option(False, "--strict", help="Count warnings as problems (exit 1)."),
        simulate: Optional[str] = typer.Option(None, "--simulate",
                                               help="Games per setting and player count in the playtest "
                                                    "(default 5; 0 skips it), or auto: play until every seat's "
                                                    "95% interval is within --precision."),
        precision: float = typer.Option(0.01, "--precision", min=0.0001, max=0.49,
                                        help="With --simulate auto: the ± a seat's 95% interval must reach "
                                             "(0.01 is one point); with --compare: the difference the power is for."),
        max_games: Optional[int] = typer.Option(None, "--max-games", min=1,
                                                help="With --simulate auto: stop a run at this many games "
                                                     "(default 100000)."),
        compare: bool = typer.Option(False, "--compare",
                                     help="Test whether two decks (OLD NEW), or a deck's rules and each of its "
                                          "variants, play differently, game by game on the same seeds: games that "
                                          "came out differently, seat win rates, game length, the deck's targets."),
        seed: int = typer.Option(1, "--seed", help="Seed of the playtest; the same seed gives the same figures."),
        workers: Optional[int] = typer.Option(None, "--workers", min=1,
                                              help="Processes to play on (default: every core)."),
        cluster: Optional[str] = typer.Option(None, "--cluster",
                                              help="Play on Dask instead: local:N starts N local workers, "
                                                   "tcp://host:port joins a running scheduler "
                                                   "(pip install 'deckgen[cluster]')."),
        checkpoint: Optional[Path] = typer.Option(None, "--checkpoint",
                                                  help="Keep every finished chunk of games in this folder."),
        resume: bool = typer.Option(False, "--resume",
                                    help="Reuse the chunks --checkpoint already holds: a stopped run goes on "
                                         "where it was."),
        skill: bool = typer.Option(True, "--skill/--no-skill",
                                   help="Also play one heuristic seat against random ones (skill, CardStock's Order)."),
        sweep: Optional[List[str]] = typer.Option(None, "--sweep",
                                                  help="Play a grid of settings instead of the deck's variants: "
                                                       "players=3..6, or NAME=V1,V2 for an engine parameter; "
                                                       "repeatable."),
        bot: str = typer.Option("heuristic", "--bot",
                                help="Bots for every seat: heuristic, random, or a search player pimc-N or "
                                     "ismcts-N (N: sampled worlds, or iterations, per decision)."),
        ladder: bool = typer.Option(False, "--ladder",
                                    help="Also play the ladder of players: the win-rate matrix of --levels, each "
                                         "in one seat against each other in the rest, with 95% intervals."),
        levels: Optional[str] = typer.Option(None, "--levels",
                                             help="The ladder's players, weakest first (default "
                                                  "random,heuristic,pimc-8,ismcts-50,ismcts-200)."),
        deals: Optional[int] = typer.Option(None, "--deals", min=2,
                                            help="Deals per ladder cell, each played with the row player in every "
                                                 "seat (default 20)."),
        html: bool = typer.Option(False, "--report", help="Also write output/<deck>/validation.html (and .json)."),
        output: Path = OutputDir,
        lang: Optional[str] = LangOption,
    ) -> None:
        """Check decks and list every problem: format, composition for the deck's engine, card and
        rule texts, and simulated playtests (dead ends, balance, tension, skill, card impact).
        Exit 0 clean, 1 problems, 2 unreadable."""
        from ...core.progress import progress_bar
        from ...validate import validate_decks
        from ...validate.cluster import parse_cluster
        from ...validate.ladder import DEFAULT_DEALS, DEFAULT_LEVELS, parse_levels
        from ...validate.page import write_report

        games = _games(simulate)
        if cluster:
            parse_cluster(cluster)
        ladder_levels = parse_levels(levels or DEFAULT_LEVELS) if ladder else ()
        with progress_bar(as_json) as progress:
            # No bar (stderr is no terminal, or --json): a line per finished ladder cell instead
            announce = None if progress else partial(typer.echo, err=True)
            report = validate_decks(decks or [], decks_dir, compare=compare, simulate=games, seed=seed,
                                    workers=workers, sweeps=sweep or [], bot=bot, progress=progress,
                                    precision=precision, max_games=max_games,
                                    skill=skill, cluster=cluster, checkpoint=checkpoint, resume=resume,
                                    levels=ladder_levels, deals=deals or DEFAULT_DEALS, announce=announce)
        if lang is not None:
            from ...validate.translations import add_translation_problems

            add_translation_problems(report, lang)
        if as_json:
            _print_json(report.as_dict())
        else:
            typer.echo(report.text())
        if html:
            for deck_report in report.decks:
                if deck_report.deck is not None:
                    written = write_report(deck_report, output / deck_report.deck.id, report.comparison)
                    typer.echo(f"report: {written[0]}", err=as_json)
        raise typer.Exit(report.exit_code(strict))
